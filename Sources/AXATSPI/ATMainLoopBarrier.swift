import AXDBus
import Logging
import Synchronization

/// Waits until an assistive technology's main loop has handled a key before the app acts on it (D-KEY-MONITOR-2).
///
/// A `KeyEvent` of `org.freedesktop.a11y.KeyboardMonitor` has no reply, and the `Peer.Ping` after it is answered by
/// the client's GDBus worker thread: it proves the key is in the client's process, not that the client handled it.
/// Orca ≥ 48 handles a key in its main loop (`input_event_manager.process_keyboard_event`), and there, when its
/// locus of focus is a window, it asks the app for the focused object and adopts it silently
/// (`default.presentKeyboardEvent`). An app that had already moved focus for that key was then never announced.
///
/// The client's connections to the accessibility bus are libdbus connections that its GLib main loop dispatches
/// (libatspi's `atspi-gmain.c`; libatspi's calls to other processes block with
/// `dbus_connection_send_with_reply_and_block`, dispatching nothing else meanwhile, `dbind/dbind.c`), and libdbus
/// answers `Peer.Ping` while dispatching. The key's GDBus idle callback was attached before the session-bus ping was
/// answered, so the first accessibility-bus ping is answered in the same main-loop iteration as the key at the
/// latest, and a second one sent after it only once the key's handler has returned. Two pings in turn to every
/// accessibility-bus connection of the client's process, bounded by a deadline, are the barrier.
final class ATMainLoopBarrier: Sendable {
    /// At most this many bus names are remembered with their process (unique names are never reused).
    static let nameLimit = 1_024
    /// A process not found on the accessibility bus is looked up again at most this often.
    static let refreshInterval = Duration.seconds(1)

    private struct State {
        var connection: DBusConnection?
        /// Unique names on the accessibility bus and their process ids.
        var processOfName: [String: UInt32] = [:]
        var lastRefresh: ContinuousClock.Instant?
    }
    private let state = Mutex(State())
    let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// Uses `connection` (the bridge's control connection to the accessibility bus, with its loop).
    func start(_ connection: DBusConnection) {
        state.withLock { locked in
            locked.connection = connection
            locked.processOfName = [:]
            locked.lastRefresh = nil
        }
    }

    func stop() { state.withLock { $0 = State() } }

    /// Returns once every accessibility-bus connection of `processes` answered two `Peer.Ping`s in turn, or when
    /// `timeoutMilliseconds` have passed (a client that does not answer costs one key this much, never more).
    func pass(processes: Set<UInt32>, timeoutMilliseconds: Int) async {
        guard !processes.isEmpty, let connection = state.withLock({ $0.connection }) else { return }
        let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
        let started = ContinuousClock.now
        let names = await connections(of: processes, on: connection, deadline: deadline)
        pings: for _ in 0..<2 {
            for name in names {
                guard let remaining = Self.remaining(until: deadline) else { break pings }
                _ = await Self.call(
                    connection, name, "/", "org.freedesktop.DBus.Peer", "Ping", remaining)
            }
        }
        logger.debug("key barrier: \(names) of processes \(processes) in \(ContinuousClock.now - started)")
    }

    /// The unique names on the bus whose process is one of `processes` (looked up again when one is missing).
    private func connections(
        of processes: Set<UInt32>, on connection: DBusConnection, deadline: ContinuousClock.Instant
    ) async -> [String] {
        let (known, mayRefresh) = state.withLock { locked -> ([String: UInt32], Bool) in
            let due = locked.lastRefresh.map { ContinuousClock.now - $0 >= Self.refreshInterval } ?? true
            return (locked.processOfName, due)
        }
        var table = known
        if !processes.isSubset(of: Set(known.values)), mayRefresh {
            table = await refreshed(known, on: connection, deadline: deadline)
        }
        return table.filter { processes.contains($0.value) }.map(\.key).sorted()
    }

    /// `ListNames`, then `GetConnectionUnixProcessID` for each unique name not known yet; names gone are dropped.
    private func refreshed(
        _ known: [String: UInt32], on connection: DBusConnection, deadline: ContinuousClock.Instant
    ) async -> [String: UInt32] {
        state.withLock { $0.lastRefresh = ContinuousClock.now }
        guard let remaining = Self.remaining(until: deadline),
            case .success(let reply) = await Self.call(
                connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames",
                remaining),
            reply.hasSignature("as"), let listed = try? reply.reader().readStringArray()
        else { return known }
        let unique = listed.filter { $0.hasPrefix(":") && $0 != connection.uniqueName }.prefix(Self.nameLimit)
        var table: [String: UInt32] = [:]
        for name in unique {
            if let process = known[name] {
                table[name] = process
                continue
            }
            guard let remaining = Self.remaining(until: deadline) else { break }
            let answer = await Self.call(
                connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "GetConnectionUnixProcessID", remaining
            ) { $0.append(name) }
            if case .success(let reply) = answer, reply.hasSignature("u"),
                let process = try? reply.reader().readUInt32()
            {
                table[name] = process
            }
        }
        state.withLock { $0.processOfName = table }
        return table
    }

    /// Milliseconds left until `deadline` (at least 1), nil once it passed.
    static func remaining(until deadline: ContinuousClock.Instant) -> Int? {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return nil }
        let (seconds, attoseconds) = left.components
        return max(1, Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    /// One asynchronous call, awaited.
    static func call(
        _ connection: DBusConnection, _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ timeoutMilliseconds: Int, _ body: @escaping (DBusWriter) -> Void = { _ in }
    ) async -> Result<DBusMessage, DBusError> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<DBusMessage, DBusError>, Never>) in
            connection.callAsync(
                destination: destination, path: path, interface: interface, member: member,
                timeoutMilliseconds: timeoutMilliseconds, body
            ) { result in continuation.resume(returning: result) }
        }
    }
}
