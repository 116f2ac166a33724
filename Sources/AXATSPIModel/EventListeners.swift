import Synchronization

/// Who listens to which AT-SPI events (`Registry.GetRegisteredEvents` and the `EventListenerRegistered` /
/// `Deregistered` signals). Until the registry has answered (or when there is none) every event is wanted: the
/// bridge is chatty, like atk-adaptor. Safe from any thread (one lock).
package final class EventListeners: Sendable {
    struct Registrations {
        /// Whether the registry has answered.
        var known = false
        /// Bus name → normalized registrations (lowercase, '-' removed, split on ':').
        var byBus: [String: [[String]]] = [:]
    }
    let registrations = Mutex(Registrations())

    package init() {}

    /// Lowercase without '-' (the registry's event-name normalization, compared case-insensitively).
    package static func normalizedComponent(_ text: String) -> String {
        String(text.lowercased().filter { $0 != "-" })
    }

    /// `Object:State-Changed:focused` → ["object", "statechanged", "focused"].
    package static func normalize(_ event: String) -> [String] {
        normalizedComponent(event).split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    }

    /// Replaces every registration (the registry's `GetRegisteredEvents` answer: (bus, event) pairs).
    package func setAll(_ pairs: [(String, String)]) {
        registrations.withLock { state in
            state.known = true
            state.byBus = [:]
            for (bus, event) in pairs { state.byBus[bus, default: []].append(EventListeners.normalize(event)) }
        }
    }

    /// `EventListenerRegistered(bus, event)`.
    package func add(bus: String, event: String) {
        registrations.withLock { state in state.byBus[bus, default: []].append(EventListeners.normalize(event)) }
    }

    /// `EventListenerDeregistered(bus, event)`; an empty event removes every registration of the bus.
    package func remove(bus: String, event: String) {
        registrations.withLock { state in
            if event.isEmpty {
                state.byBus[bus] = nil
                return
            }
            let normalized = EventListeners.normalize(event)
            if var list = state.byBus[bus], let index = list.firstIndex(of: normalized) {
                list.remove(at: index)
                state.byBus[bus] = list.isEmpty ? nil : list
            }
        }
    }

    /// Back to chatty mode (registry unknown or gone).
    package func setUnknown() {
        registrations.withLock { state in
            state.known = false
            state.byBus = [:]
        }
    }

    /// Whether anyone may listen (always while the registry is unknown).
    package var anyListener: Bool { registrations.withLock { !$0.known || !$0.byBus.isEmpty } }

    /// e.g. `listeners=3`, or `listeners=unknown` before the registry answered.
    package var summary: String {
        registrations.withLock { state in state.known ? "listeners=\(state.byBus.count)" : "listeners=unknown" }
    }

    /// atk-adaptor's prefix rule: some registration whose non-empty components all equal the event's.
    /// `eventClass` / `member` / `detail` must already be normalized (`normalizedComponent`).
    package func wants(_ eventClass: String, _ member: String, _ detail: String) -> Bool {
        registrations.withLock { state in
            if !state.known { return true }
            let event = [eventClass, member, detail]
            for (_, list) in state.byBus {
                for registration in list where EventListeners.matches(registration, event) { return true }
            }
            return false
        }
    }

    /// Whether some client hears a notification object turning SHOWING but not `object:announcement` (Orca 43.1
    /// registers no announcement listener; Orca 48 registers both): only then does an announcement also need the
    /// transient notification object (D-ATSPI-READY-1 (3)). Always while the registry is unknown.
    package var someoneMissesAnnouncements: Bool {
        registrations.withLock { state in
            if !state.known { return true }
            let showing = ["object", "statechanged", "showing"]
            let announcement = ["object", "announcement", ""]
            return state.byBus.values.contains { list in
                list.contains { EventListeners.matches($0, showing) }
                    && !list.contains { EventListeners.matches($0, announcement) }
            }
        }
    }

    static func matches(_ registration: [String], _ event: [String]) -> Bool {
        for (index, component) in registration.enumerated() where !component.isEmpty {
            if index >= event.count || event[index] != component { return false }
        }
        return true
    }
}
