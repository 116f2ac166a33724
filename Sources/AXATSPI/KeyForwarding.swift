import AXCore
import AXDBus
import AXHub
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Forwards keys to assistive technologies through the registry's DeviceEventController, the way a toolkit
/// does on X11 (atspi-bridge.md §2.12; Specs/atspi-mapping.md §Keys; D-KEY-3):
/// - it tracks whether any AT listens for keys: `GetKeystrokeListeners` at start, again on every
///   `KeystrokeListenerRegistered`/`Deregistered` signal and when the registry restarts;
/// - while one does, each key goes out as `NotifyListenersSync((uiiiisb))` — the struct the registry demarshals
///   (`registryd/marshal-dbus.c` `spi_dbus_demarshal_deviceEvent` accepts `(uiiiisb)` or `(uinnisb)`, not the
///   `(uiuuisb)` of the XML) — sent asynchronously on the bridge's control connection; the reply (`b`: consumed)
///   resumes the waiting key. The registry gives each listener 3 s (`send_and_allow_reentry(…, 3000)`), so the
///   bridge's timeout is the same 3 s: an AT that never answers costs one key 3 s and then "not consumed", and
///   neither the bus thread nor the JSON-RPC loop waits meanwhile.
/// - when the bridge owns `org.freedesktop.a11y.Manager` (A11yKeyboardMonitor.swift, D-KEY-MONITOR-1), each key goes to its
///   clients (Orca ≥ 48 on libatspi ≥ 2.55) first; a key a client's grab consumes goes no further, any other key is
///   then offered to the registry's listeners too (an Orca 43 or another legacy listener).
package final class KeyForwarding: KeyForwarder, Sendable {
    /// The registry's own per-listener timeout (`deviceeventcontroller.c`), which bounds ours.
    package static let registryTimeoutMilliseconds = 3_000
    /// The registry's DeviceEventController object.
    static let controllerPath = "/org/a11y/atspi/registry/deviceeventcontroller"

    let logger: Logger
    let timeoutMilliseconds: Int
    private struct State {
        var connection: DBusConnection?
        /// Keystroke listeners the registry reported; nil until it answered (no forwarding meanwhile).
        var listeners: Int?
        var tokens: [DBusSignalHandlerToken] = []
        var queryGeneration = 0
    }
    private let state = Mutex(State())
    /// The session bus's keyboard monitor, when the bridge claimed it (D-KEY-MONITOR-1).
    private let monitor = Mutex<A11yKeyboardMonitor?>(nil)
    /// Told which app a key press goes to (the bridge activates its key window, D-ATSPI-ACTIVE-1).
    private let routeHandler = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// Waits for a keyboard-monitor client's main loop before the app acts on a press (D-KEY-MONITOR-2).
    private let barrier: ATMainLoopBarrier

    /// `timeoutMilliseconds`: how long one key waits for the AT (at most the registry's 3 s; the environment
    /// variable `AXSERVER_KEY_TIMEOUT_MS` lowers it, e.g. for tests).
    package init(logger: Logger, timeoutMilliseconds: Int = KeyForwarding.registryTimeoutMilliseconds) {
        self.logger = logger
        self.barrier = ATMainLoopBarrier(logger: logger)
        var timeout = timeoutMilliseconds
        if let raw = getenv("AXSERVER_KEY_TIMEOUT_MS"), let value = Int(String(cString: raw)) {
            timeout = value
        }
        self.timeoutMilliseconds = min(max(timeout, 10), Self.registryTimeoutMilliseconds)
    }

    // MARK: Listener tracking

    /// Starts tracking keystroke listeners on `connection` (the bridge's control connection, with its loop).
    func start(_ connection: DBusConnection) {
        let listenerInterface = "org.a11y.atspi.DeviceEventListener"
        _ = try? connection.addMatch("type='signal',interface='\(listenerInterface)'")
        var tokens: [DBusSignalHandlerToken] = []
        for member in ["KeystrokeListenerRegistered", "KeystrokeListenerDeregistered"] {
            let filter = DBusSignalFilter(interface: listenerInterface, member: member)
            tokens.append(connection.addSignalHandler(filter) { [weak self] _ in self?.query() })
        }
        let ownerFilter = DBusSignalFilter(interface: "org.freedesktop.DBus", member: "NameOwnerChanged")
        tokens.append(
            connection.addSignalHandler(ownerFilter) { [weak self] message in
                guard message.hasSignature("sss") else { return }
                let reader = message.reader()
                guard (try? reader.readString()) == "org.a11y.atspi.Registry" else { return }
                self?.query()
            })
        state.withLock { locked in
            locked.connection = connection
            locked.tokens = tokens
        }
        barrier.start(connection)
        query()
    }

    /// Stops forwarding (the bridge stopped): keys answer `noListener` from now on.
    func stop() {
        let (connection, tokens) = state.withLock { locked -> (DBusConnection?, [DBusSignalHandlerToken]) in
            let current = (locked.connection, locked.tokens)
            locked.connection = nil
            locked.tokens = []
            locked.listeners = nil
            return current
        }
        for token in tokens { connection?.removeSignalHandler(token) }
        barrier.stop()
    }

    /// Re-reads `GetKeystrokeListeners`; a reply to an older query is ignored.
    func query() {
        let (connection, generation) = state.withLock { locked -> (DBusConnection?, Int) in
            locked.queryGeneration += 1
            return (locked.connection, locked.queryGeneration)
        }
        guard let connection else { return }
        connection.callAsync(
            destination: "org.a11y.atspi.Registry", path: Self.controllerPath,
            interface: "org.a11y.atspi.DeviceEventController", member: "GetKeystrokeListeners",
            timeoutMilliseconds: 5_000
        ) { [weak self] result in
            guard let self else { return }
            var count: Int?
            if case .success(let reply) = result, reply.hasSignature("a(souua(iisi)u(bbb))") {
                count = Self.countEntries(reply)
            }
            self.state.withLock { locked in
                guard locked.queryGeneration == generation, locked.connection != nil else { return }
                locked.listeners = count
            }
            self.logger.debug("AT-SPI: keystroke listeners: \(count.map(String.init) ?? "unknown")")
        }
    }

    static func countEntries(_ reply: DBusMessage) -> Int? {
        let reader = reply.reader()
        do {
            try reader.enterArray()
            var count = 0
            while !reader.isAtEnd {
                try reader.skip()
                count += 1
            }
            try reader.leave()
            return count
        } catch {
            return nil
        }
    }

    /// The listener count as last reported (nil: not known yet), for status lines and tests.
    package var keystrokeListeners: Int? { state.withLock { $0.listeners } }

    // MARK: KeyForwarder

    /// Sets what `keysRouted(to:)` calls (nil: nothing).
    func onKeysRouted(_ handler: (@Sendable (String) -> Void)?) { routeHandler.withLock { $0 = handler } }

    /// The app of a press on its way to the AT, whose window activation waits until the AT has had the key.
    private let deferredRoute = Mutex<String?>(nil)

    /// A press goes to `app` (Hub.key, before the key is offered) or focus moved into it: its window becomes the
    /// active one. While an AT listens for keys, the activation waits until the AT has handled the press
    /// (`forward`) or the app's focus changes (`releaseDeferredRoute`), whichever comes first: Orca handles a key at
    /// once but queues the activation's events, so a window activated before the key made Orca 48 find it active
    /// on the key and adopt its focused element without a word (D-ATSPI-ACTIVE-1, D-KEY-MONITOR-2).
    package func keysRouted(to app: String) {
        guard hasKeyListeners else {
            route(app)
            return
        }
        let previous = deferredRoute.withLock { pending -> String? in
            defer { pending = app }
            return pending
        }
        if let previous, previous != app { route(previous) }
    }

    /// Activates the app whose activation waits, when it is `app` (nil: whichever waits).
    func releaseDeferredRoute(for app: String? = nil) {
        let waiting = deferredRoute.withLock { pending -> String? in
            guard let current = pending, app == nil || current == app else { return nil }
            pending = nil
            return current
        }
        if let waiting { route(waiting) }
    }

    private func route(_ app: String) { routeHandler.withLock { $0 }?(app) }

    /// Routes keys to `monitor`'s clients first (nil: registry listeners only).
    func attach(_ monitor: A11yKeyboardMonitor?) { self.monitor.withLock { $0 = monitor } }

    private var hasRegistryListeners: Bool { state.withLock { ($0.listeners ?? 0) > 0 && $0.connection != nil } }

    package var hasKeyListeners: Bool { hasRegistryListeners || (monitor.withLock { $0 }?.hasClients ?? false) }

    package func forward(_ key: ForwardedKey, app: String) async -> KeyForwardAnswer {
        let answer = await offerToAssistiveTechnologies(key)
        // The AT had the press: now the app's window is activated, before the app acts on it.
        if key.pressed { releaseDeferredRoute(for: app) }
        return answer
    }

    /// The keyboard monitor's clients first, then the registry's listeners (D-KEY-MONITOR-1, D-KEY-3).
    private func offerToAssistiveTechnologies(_ key: ForwardedKey) async -> KeyForwardAnswer {
        let keyboardMonitor = monitor.withLock { $0 }
        let monitorAnswer = await keyboardMonitor?.deliver(key)
        if monitorAnswer == .consumed { return .consumed }
        // The app acts on the press: only once the clients' main loops handled it (D-KEY-MONITOR-2).
        if monitorAnswer == .notConsumed, key.pressed, let keyboardMonitor {
            await barrier.pass(
                processes: keyboardMonitor.clientProcesses,
                timeoutMilliseconds: A11yKeyboardMonitor.pingTimeoutMilliseconds)
        }
        guard hasRegistryListeners else { return monitorAnswer ?? .noListener }
        return await forwardToRegistry(key)
    }

    /// `NotifyListenersSync` to the registry: its keystroke listeners' answer.
    private func forwardToRegistry(_ key: ForwardedKey) async -> KeyForwardAnswer {
        guard let connection = state.withLock({ $0.connection }) else { return .noListener }
        let timeout = timeoutMilliseconds
        return await withCheckedContinuation { (continuation: CheckedContinuation<KeyForwardAnswer, Never>) in
            connection.callAsync(
                destination: "org.a11y.atspi.Registry", path: Self.controllerPath,
                interface: "org.a11y.atspi.DeviceEventController", member: "NotifyListenersSync",
                timeoutMilliseconds: timeout,
                { writer in Self.writeDeviceEvent(writer, key) }
            ) { result in
                switch result {
                case .success(let reply):
                    guard reply.hasSignature("b"), let consumed = try? reply.reader().readBool() else {
                        continuation.resume(returning: .failed("reply signature '\(reply.signature)'"))
                        return
                    }
                    continuation.resume(returning: consumed ? .consumed : .notConsumed)
                case .failure(let error):
                    if error.name == DBusError.Name.noReply {
                        continuation.resume(returning: .timedOut)
                    } else {
                        continuation.resume(returning: .failed(error.name))
                    }
                }
            }
        }
    }

    /// The device event as the registry reads it: `(u type, i id, i hw_code, i modifiers, i timestamp,
    /// s event_string, b is_text)`; type 0 = pressed, 1 = released (`ATSPI_KEY_PRESSED_EVENT`).
    static func writeDeviceEvent(_ writer: DBusWriter, _ key: ForwardedKey) {
        writer.structure {
            writer.append(UInt32(key.pressed ? 0 : 1))
            writer.append(Int32(bitPattern: key.symbol.keysym))
            writer.append(Int32(bitPattern: key.symbol.keycode))
            writer.append(Int32(bitPattern: key.modifierMask))
            writer.append(key.timestamp)
            writer.append(key.symbol.eventString)
            writer.append(key.symbol.text != nil && key.symbol.name != "space")
        }
    }
}

extension AppBridge {
    /// `Component.GrabFocus` from an AT moves keyboard (engine) focus too when the item can take it (D-FOCUS-8; the
    /// rule and its guard against a late follow are the hub's). Runs after the reply, off the bus thread.
    func engineFocusFollowsGrab(_ element: String) {
        let hub = self.hub
        let app = appID
        Task { await hub.engineFocusFollowsGrab(app: app, element: element) }
    }
}
