import AXDBus
import AXHub
import Logging
import Synchronization

/// Watches whether a screen reader runs (D-SR-1; R70): the session bus's `org.a11y.Bus` object
/// (`/org/a11y/bus`) carries `org.a11y.Status.ScreenReaderEnabled`, which Orca sets while it runs (and GNOME's
/// settings toggle); it is read once at start and followed through `PropertiesChanged`. Each value goes to the hub
/// (`setScreenReaderRunning`), which tells apps and clients (`a11y.voiceOverStatusDidChange`). Without a session
/// bus or the a11y bus launcher the status stays unknown (nil) and nothing else changes.
final class ScreenReaderWatch: Sendable {
    static let busName = "org.a11y.Bus"
    static let path = "/org/a11y/bus"
    static let statusInterface = "org.a11y.Status"
    static let property = "ScreenReaderEnabled"

    let hub: Hub
    let logger: Logger
    private struct State {
        var connection: DBusConnection?
        var token: DBusSignalHandlerToken?
    }
    private let state = Mutex(State())

    init(hub: Hub, logger: Logger) {
        self.hub = hub
        self.logger = logger
    }

    /// Connects to the session bus and starts following the property; false without a session bus.
    @discardableResult
    func start() -> Bool {
        guard let connection = try? DBusConnection.sessionBus() else { return false }
        let rule =
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='\(Self.path)'"
        _ = try? connection.addMatch(rule)
        let filter = DBusSignalFilter(
            path: Self.path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
        let token = connection.addSignalHandler(filter) { [weak self] message in
            guard message.hasSignature("sa{sv}as"), let running = Self.changedValue(message) else { return }
            self?.hub.setScreenReaderRunning(running)
        }
        state.withLock { locked in
            locked.connection = connection
            locked.token = token
        }
        let writeArguments: (DBusWriter) -> Void = { writer in
            writer.append(Self.statusInterface)
            writer.append(Self.property)
        }
        connection.callAsync(
            destination: Self.busName, path: Self.path, interface: "org.freedesktop.DBus.Properties", member: "Get",
            timeoutMilliseconds: 5_000, writeArguments
        ) { [weak self] result in
            guard case .success(let reply) = result, reply.hasSignature("v") else { return }
            let reader = reply.reader()
            guard (try? reader.enterVariant()) != nil, let running = try? reader.readBool() else { return }
            self?.hub.setScreenReaderRunning(running)
        }
        return true
    }

    /// `ScreenReaderEnabled` from a `PropertiesChanged(s a{sv} as)` of `org.a11y.Status`, nil when it is not there.
    static func changedValue(_ message: DBusMessage) -> Bool? {
        let reader = message.reader()
        guard (try? reader.readString()) == statusInterface, let changed = try? reader.readVardict() else {
            return nil
        }
        switch changed[property] {
        case .bool(let value)?: return value
        case .variant(.bool(let value))?: return value
        default: return nil
        }
    }

    func stop() {
        let (connection, token) = state.withLock { locked -> (DBusConnection?, DBusSignalHandlerToken?) in
            defer {
                locked.connection = nil
                locked.token = nil
            }
            return (locked.connection, locked.token)
        }
        if let token { connection?.removeSignalHandler(token) }
        connection?.close()
    }
}
