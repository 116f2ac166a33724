import CDBus
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What an object handler wants AXDBus to do with a method call.
package enum DBusMethodResult: Sendable {
    /// Send this reply (made with `message.makeReply()`); a reply with a marshalling error becomes a `Failed` error reply.
    case reply(DBusMessage)
    /// Send an error reply.
    case error(DBusError)
    /// The handler took care of it (replied itself, or it was a signal / no reply wanted).
    case handled
    /// Not for this handler: libdbus tries other handlers and finally replies `UnknownMethod`.
    case notHandled
}

/// Handles method calls for an exported object path (or subtree). Runs on the connection's loop thread;
/// must not block. Throwing a `DBusError` sends it as the error reply; any other error becomes `Failed`.
package typealias DBusMethodHandler = @Sendable (DBusMessage) throws -> DBusMethodResult

/// Receives signals that passed a `DBusSignalFilter` (on the loop thread).
package typealias DBusSignalHandler = @Sendable (DBusMessage) -> Void

/// Reply callback of an asynchronous call (always invoked on the loop thread, exactly once).
package typealias DBusReplyHandler = @Sendable (Result<DBusMessage, DBusError>) -> Void

/// Which incoming signals a signal handler wants (nil = any). `sender` is compared literally with the
/// message's sender, which is always a *unique* name (":1.7") or `org.freedesktop.DBus`.
package struct DBusSignalFilter: Sendable {
    package var sender: String?
    package var path: String?
    package var interface: String?
    package var member: String?

    package init(sender: String? = nil, path: String? = nil, interface: String? = nil, member: String? = nil) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
    }

    func matches(_ message: DBusMessage) -> Bool {
        if let interface, !message.hasInterface(interface) { return false }
        if let member, !message.hasMember(member) { return false }
        if let path, !message.hasPath(path) { return false }
        if let sender, message.sender != sender { return false }
        return true
    }

    /// The bus match rule (`type='signal',…`) for the same filter, with optional `arg0` match.
    package func matchRule(arg0: String? = nil) -> String {
        var parts = ["type='signal'"]
        func q(_ key: String, _ value: String?) {
            if let value { parts.append("\(key)='\(DBusSignalFilter.escape(value))'") }
        }
        q("sender", sender)
        q("path", path)
        q("interface", interface)
        q("member", member)
        q("arg0", arg0)
        return parts.joined(separator: ",")
    }

    /// Match-rule value escaping: a quote is written as `'\''`.
    static func escape(_ value: String) -> String {
        var out = ""
        for ch in value { if ch == "'" { out += "'\\''" } else { out.append(ch) } }
        return out
    }
}

/// Token returned by `addSignalHandler`; pass it to `removeSignalHandler`.
package struct DBusSignalHandlerToken: Sendable, Hashable { let id: UInt64 }

/// `RequestName` outcome.
package enum DBusRequestNameReply: UInt32, Sendable {
    case primaryOwner = 1
    case inQueue = 2
    case exists = 3
    case alreadyOwner = 4
}

/// Makes `dbus_threads_init_default()` run exactly once, before any libdbus use.
private let libdbusThreadsInitialized: Bool = {
    dbus_threads_init_default() != 0
}()

/// A private libdbus connection with its own event-loop thread.
///
/// * `open(address:)` = `dbus_connection_open_private` + `dbus_bus_register` (Hello); `sessionBus()` uses
///   `$DBUS_SESSION_BUS_ADDRESS` (never libdbus's X11 autolaunch).
/// * The loop thread polls the socket and an eventfd, reads/writes with `dbus_connection_read_write(c, 0)`
///   and dispatches; object handlers, signal handlers, reply callbacks and `perform` closures all run on it.
/// * `send`, `call`, `callAsync`, `emitSignal`, `perform`, `register…` are safe from any thread.
/// * Blocking `call` from a non-loop thread is implemented as an async call + semaphore, so only the loop
///   thread ever waits on the socket (libdbus's own blocking call from a second thread would steal the
///   socket's I/O path and stall the loop's replies).
/// * Call `close()` when done: the loop thread keeps the connection alive until then.
///
/// Sendable: every mutable Swift state is behind a `Mutex`/`Atomic`; the `DBusConnection*` is used through
/// libdbus's thread-safe API (after `dbus_threads_init_default`) and is only unref'd in `deinit`.
package final class DBusConnection: @unchecked Sendable {
    /// The underlying `DBusConnection*` (valid until this object is deinitialized).
    package let pointer: OpaquePointer
    /// Unique bus name (":1.42"), or "" for a peer-to-peer connection that did not register.
    package let uniqueName: String

    private let socketFD: Int32
    private let wakeFD: Int32
    private let wakePending = Atomic<Bool>(false)
    private let loopThread = Atomic<UInt>(0)
    private let loopRunning = Atomic<Bool>(false)
    /// Monotonic ns until which the loop sleeps in poll(); 0 while it is awake (computing or dispatching).
    /// A thread adding an async call wakes the loop only if the new deadline is earlier.
    private let sleepUntil = Atomic<UInt64>(0)
    /// The loop never sleeps longer than this, so new call deadlines are noticed without a wake-up.
    private static let maxSleepNanos: UInt64 = 1_000_000_000

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var stopping = false
        var closed = false
        var pending: [ObjectIdentifier: PendingCall] = [:]
        var signalHandlers: [(UInt64, DBusSignalFilter, DBusSignalHandler)] = []
        var nextHandlerID: UInt64 = 1
        var disconnectHandlers: [@Sendable () -> Void] = []
        var disconnectReported = false
        var loopExited = false
        var thread: pthread_t? = nil
    }
    private let state = Mutex(State())

    // MARK: Opening

    /// Opens a private connection to `address`; with `registerOnBus` (the default) sends Hello.
    /// - Parameter startLoop: run the event-loop thread (needed for handlers, signals and async calls).
    ///   Without it only blocking calls work (each does its own I/O) — used for the benchmark's raw client.
    package static func open(address: String, registerOnBus: Bool = true, startLoop: Bool = true) throws(DBusError)
        -> DBusConnection
    {
        _ = libdbusThreadsInitialized
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        guard !DBusNames.containsNUL(address),
            let raw = address.withCString({ dbus_connection_open_private($0, &err) })
        else {
            throw DBusError.take(&err, fallback: "cannot connect to \(address)")
        }
        // Bus connections from dbus_bus_get* _exit() the process when the bus goes away; never do that.
        dbus_connection_set_exit_on_disconnect(raw, 0)
        var unique = ""
        if registerOnBus {
            guard dbus_bus_register(raw, &err) != 0 else {
                let error = DBusError.take(&err, fallback: "Hello failed on \(address)")
                dbus_connection_close(raw)  // a private connection must be closed before the last unref
                dbus_connection_unref(raw)
                throw error
            }
            unique = dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
        }
        var fd: Int32 = -1
        if dbus_connection_get_unix_fd(raw, &fd) == 0 || fd < 0 {
            if dbus_connection_get_socket(raw, &fd) == 0 || fd < 0 {
                dbus_connection_close(raw)
                dbus_connection_unref(raw)
                throw DBusError.failed("connection to \(address) has no pollable file descriptor")
            }
        }
        let wake = cdbus_eventfd_create()
        guard wake >= 0 else {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw DBusError.failed("eventfd failed (errno \(cdbus_errno()))")
        }
        let conn = DBusConnection(pointer: raw, uniqueName: unique, socketFD: fd, wakeFD: wake)
        if startLoop { try conn.startLoop() }
        return conn
    }

    /// A new private connection to the session bus named by `$DBUS_SESSION_BUS_ADDRESS`.
    package static func sessionBus(startLoop: Bool = true) throws(DBusError) -> DBusConnection {
        guard let rawAddress = getenv("DBUS_SESSION_BUS_ADDRESS"), rawAddress.pointee != 0 else {
            throw DBusError(name: DBusError.Name.badAddress, message: "DBUS_SESSION_BUS_ADDRESS is not set")
        }
        return try open(address: String(cString: rawAddress), startLoop: startLoop)
    }

    /// The AT-SPI accessibility bus address: `$AT_SPI_BUS_ADDRESS`, else `org.a11y.Bus.GetAddress` on `session`.
    package static func accessibilityBusAddress(session: DBusConnection?) throws(DBusError) -> String {
        if let address = getenv("AT_SPI_BUS_ADDRESS"), address.pointee != 0 { return String(cString: address) }
        guard let session else {
            throw DBusError(
                name: DBusError.Name.badAddress, message: "AT_SPI_BUS_ADDRESS is not set and no session bus")
        }
        let message = try DBusMessage.methodCall(
            destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus", member: "GetAddress")
        let reply = try session.call(message, timeoutMilliseconds: 5_000)
        try reply.requireSignature("s")
        return try reply.reader().readString()
    }

    private init(pointer: OpaquePointer, uniqueName: String, socketFD: Int32, wakeFD: Int32) {
        self.pointer = pointer
        self.uniqueName = uniqueName
        self.socketFD = socketFD
        self.wakeFD = wakeFD
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_wakeup_main_function(
            pointer,
            { ud in
                Unmanaged<DBusConnection>.fromOpaque(ud!).takeUnretainedValue().wakeFromLibdbus()
            }, me, nil)
        dbus_connection_set_dispatch_status_function(
            pointer,
            { _, status, ud in
                if status == DBUS_DISPATCH_DATA_REMAINS {
                    Unmanaged<DBusConnection>.fromOpaque(ud!).takeUnretainedValue().wakeFromLibdbus()
                }
            }, me, nil)
        _ = dbus_connection_add_filter(pointer, signalFilterTrampoline, me, nil)
    }

    deinit {
        if !state.withLock({ $0.closed }) { closeConnection() }
        dbus_connection_remove_filter(pointer, signalFilterTrampoline, Unmanaged.passUnretained(self).toOpaque())
        dbus_connection_set_wakeup_main_function(pointer, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(pointer, nil, nil, nil)
        dbus_connection_unref(pointer)
        _ = Glibc.close(wakeFD)
    }

    // MARK: State

    /// True until `close()` or the peer/bus disconnects.
    package var isConnected: Bool { !state.withLock { $0.closed } && dbus_connection_get_is_connected(pointer) != 0 }

    /// True when called on this connection's loop thread.
    package var isOnLoopThread: Bool {
        let thread = loopThread.load(ordering: .acquiring)
        return thread != 0 && pthread_equal(pthread_self(), pthread_t(thread)) != 0
    }

    /// Registers a closure run (once, on the loop thread) when the connection is lost or closed.
    package func onDisconnect(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.disconnectHandlers.append(body) }
    }

    /// Closes the connection: stops the loop thread (joins it unless called on it), fails pending async
    /// calls with `Disconnected`, and closes the socket. Idempotent.
    package func close() {
        let (already, thread) = state.withLock { locked -> (Bool, pthread_t?) in
            let already = locked.closed || locked.stopping
            locked.stopping = true
            let thread = locked.thread
            locked.thread = nil
            return (already, thread)
        }
        if already && thread == nil { return }
        wake()
        if let thread, !isOnLoopThread { pthread_join(thread, nil) } else if let thread { pthread_detach(thread) }
        closeConnection()
    }

    private func closeConnection() {
        let pendings = state.withLock { locked -> [PendingCall] in
            if locked.closed { return [] }
            locked.closed = true
            let pending = Array(locked.pending.values)
            locked.pending.removeAll()
            return pending
        }
        dbus_connection_close(pointer)
        for pendingCall in pendings where pendingCall.claim() {
            dbus_pending_call_cancel(pendingCall.call)
            pendingCall.callback(.failure(.disconnected("Connection closed before the reply arrived")))
        }
        reportDisconnect()
    }

    private func reportDisconnect() {
        let handlers = state.withLock { locked -> [@Sendable () -> Void] in
            if locked.disconnectReported { return [] }
            locked.disconnectReported = true
            return locked.disconnectHandlers
        }
        for handler in handlers { handler() }
    }

    // MARK: Loop

    /// Starts the loop thread (done by `open` unless `startLoop: false`).
    package func startLoop() throws(DBusError) {
        guard !loopRunning.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let box = Unmanaged.passRetained(LoopStart(self)).toOpaque()
        var tid = pthread_t()
        let rc = pthread_create(
            &tid, nil,
            { arg in
                let start = Unmanaged<LoopStart>.fromOpaque(arg!).takeRetainedValue()
                start.connection.runLoop()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<LoopStart>.fromOpaque(box).release()
            loopRunning.store(false, ordering: .releasing)
            throw DBusError.failed("pthread_create failed (\(rc))")
        }
        state.withLock { $0.thread = tid }
    }

    private final class LoopStart {
        let connection: DBusConnection
        init(_ connection: DBusConnection) { self.connection = connection }
    }

    /// Wakes the loop thread (coalesced: at most one pending eventfd write).
    func wake() {
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) { cdbus_eventfd_signal(wakeFD) }
    }

    private func wakeFromLibdbus() {
        // The loop re-checks everything before it polls; AXDBus's own send paths decide themselves
        // (after the write attempt) whether the loop is needed.
        if isOnLoopThread || inSendOnThisThread() { return }
        wake()
    }

    /// After a send from a non-loop thread: wake the loop only if data is left for it to write.
    @inline(__always)
    private func wakeIfUnsent() {
        if !isOnLoopThread && dbus_connection_has_messages_to_send(pointer) != 0 { wake() }
    }

    /// Runs `body` on the loop thread (asynchronously, in FIFO order). Once the loop has exited
    /// (after `close()`), `body` runs immediately on the calling thread so nothing waits forever.
    package func perform(_ body: @escaping @Sendable () -> Void) {
        let exited = state.withLock { locked -> Bool in
            if locked.loopExited { return true }
            locked.jobs.append(body)
            return false
        }
        if exited { body() } else { wake() }
    }

    /// Runs `body` on the loop thread and waits for its result (runs inline if already on it).
    package func performAndWait<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        if isOnLoopThread || !loopRunning.load(ordering: .acquiring) || state.withLock({ $0.loopExited }) {
            return body()
        }
        let box = ResultBox<T>()
        let sem = DispatchSemaphore(value: 0)
        perform {
            box.set(body())
            sem.signal()
        }
        sem.wait()
        return box.take()!
    }

    /// Dispatches up to 256 received messages (the rest wait for the next turn of the loop).
    private func dispatchReceived() {
        var dispatched = 0
        while dispatched < 256, dbus_connection_get_dispatch_status(pointer) == DBUS_DISPATCH_DATA_REMAINS {
            _ = dbus_connection_dispatch(pointer)
            dispatched += 1
        }
    }

    /// Whether the connection is still up; once it is not and the synthesized Disconnected message (which
    /// completes libdbus's pending calls) has been dispatched, reports the disconnect.
    private func isConnectedAfterDispatch() -> Bool {
        let connected = dbus_connection_get_is_connected(pointer) != 0
        if !connected && dbus_connection_get_dispatch_status(pointer) != DBUS_DISPATCH_DATA_REMAINS {
            reportDisconnect()
        }
        return connected
    }

    private func runLoop() {
        loopThread.store(UInt(pthread_self()), ordering: .releasing)
        defer {
            // Jobs queued after the last iteration still run (perform() runs inline from now on).
            let leftover = state.withLock { locked -> [@Sendable () -> Void] in
                locked.loopExited = true
                let jobs = locked.jobs
                locked.jobs = []
                return jobs
            }
            for j in leftover { j() }
            loopThread.store(0, ordering: .releasing)
        }
        var fds = [pollfd](repeating: pollfd(), count: 2)
        var woken = true
        while true {
            if woken {
                cdbus_eventfd_drain(wakeFD)
                wakePending.store(false, ordering: .sequentiallyConsistent)
            }
            let (jobs, stopping) = state.withLock { locked -> ([@Sendable () -> Void], Bool) in
                let queued = locked.jobs
                if !queued.isEmpty { locked.jobs = [] }
                return (queued, locked.stopping)
            }
            for j in jobs { j() }
            if stopping { break }
            sleepUntil.store(0, ordering: .sequentiallyConsistent)

            dispatchReceived()
            let nextDeadline = expireTimedOutCalls()
            let connected = isConnectedAfterDispatch()
            let more =
                dbus_connection_get_dispatch_status(pointer) == DBUS_DISPATCH_DATA_REMAINS
                || state.withLock { !$0.jobs.isEmpty }
            var timeout: Int32 = 0
            if !more {
                let now = monotonicNanos()
                let until = min(nextDeadline ?? .max, now &+ Self.maxSleepNanos)
                timeout = until <= now ? 0 : Int32(clamping: (until - now + 999_999) / 1_000_000)
                sleepUntil.store(until, ordering: .sequentiallyConsistent)
            }
            fds[0] = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
            var nfds = 1
            if connected {
                var ev = Int16(POLLIN)
                if dbus_connection_has_messages_to_send(pointer) != 0 { ev |= Int16(POLLOUT) }
                fds[1] = pollfd(fd: socketFD, events: ev, revents: 0)
                nfds = 2
            }
            let ready = poll(&fds, nfds_t(nfds), timeout)
            sleepUntil.store(0, ordering: .sequentiallyConsistent)
            woken = ready > 0 && fds[0].revents != 0
            if ready > 0, nfds == 2, fds[1].revents != 0 {
                _ = dbus_connection_read_write(pointer, 0)
            }
        }
    }

    // MARK: Sending

    /// Queues `message` for sending (thread-safe; written immediately when possible).
    /// Throws if the message has a marshalling error or the connection is closed.
    @discardableResult
    package func send(_ message: DBusMessage) throws(DBusError) -> UInt32 {
        if state.withLock({ $0.closed }) { throw DBusError.disconnected() }
        if let error = message.prepareForSending() { throw error }
        var serial: UInt32 = 0
        setInSend(true)
        let ok = dbus_connection_send(pointer, message.pointer, &serial)
        setInSend(false)
        guard ok != 0 else {
            throw DBusError(name: DBusError.Name.noMemory, message: "dbus_connection_send failed")
        }
        wakeIfUnsent()
        return serial
    }

    /// Builds and sends a signal from `path`. Example (AT-SPI event):
    /// `try conn.emitSignal(path: p, interface: "org.a11y.atspi.Event.Object", member: "StateChanged") { w in … }`
    package func emitSignal(path: String, interface: String, member: String, _ body: (DBusWriter) -> Void = { _ in })
        throws(DBusError)
    {
        let message = try DBusMessage.signal(path: path, interface: interface, member: member)
        let writer = DBusWriter(message)
        body(writer)
        writer.finish()
        try send(message)
    }

    /// Sends a method call and returns its reply (a method return); an error reply is thrown as `DBusError`.
    /// Safe from any thread. On the loop thread it blocks the loop (avoid in handlers).
    package func call(_ message: DBusMessage, timeoutMilliseconds: Int = 25_000) throws(DBusError) -> DBusMessage {
        if state.withLock({ $0.closed }) { throw DBusError.disconnected() }
        if isOnLoopThread || !loopRunning.load(ordering: .acquiring) {
            if let error = message.prepareForSending() { throw error }
            var err = CDBus.DBusError()
            dbus_error_init(&err)
            guard
                let rawReply = dbus_connection_send_with_reply_and_block(
                    pointer, message.pointer, Int32(clamping: timeoutMilliseconds), &err)
            else {
                throw DBusError.take(&err, fallback: "call failed")
            }
            let reply = DBusMessage(adopting: rawReply, locked: true)
            if let error = reply.asError { throw error }  // libdbus converts error replies itself; be safe anyway
            return reply
        }
        let box = ResultBox<Result<DBusMessage, DBusError>>()
        let sem = DispatchSemaphore(value: 0)
        callAsync(message, timeoutMilliseconds: timeoutMilliseconds) { result in
            box.set(result)
            sem.signal()
        }
        sem.wait()
        return try box.take()!.get()
    }

    /// Convenience: builds the call with `body` writing the arguments, then `call`s it.
    package func call(
        destination: String?, path: String, interface: String?, member: String,
        timeoutMilliseconds: Int = 25_000, _ body: (DBusWriter) -> Void = { _ in }
    ) throws(DBusError) -> DBusMessage {
        let message = try DBusMessage.methodCall(
            destination: destination, path: path, interface: interface, member: member)
        let writer = DBusWriter(message)
        body(writer)
        writer.finish()
        return try call(message, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Sends a method call without blocking; `reply` runs exactly once on the loop thread with the method
    /// return, the error reply, `NoReply` after the timeout, or `Disconnected`. Needs the loop thread.
    package func callAsync(_ message: DBusMessage, timeoutMilliseconds: Int = 25_000, reply: @escaping DBusReplyHandler)
    {
        if let error = message.prepareForSending() {
            deliverLater(reply, .failure(error))
            return
        }
        if state.withLock({ $0.closed }) || !loopRunning.load(ordering: .acquiring) {
            deliverLater(
                reply,
                .failure(
                    .disconnected(
                        loopRunning.load(ordering: .acquiring)
                            ? "Connection is closed" : "Connection has no event loop running")))
            return
        }
        var pc: OpaquePointer? = nil
        // Our own timer enforces the timeout (libdbus's pending-call timeouts need main-loop timeout
        // integration, which would race with its frees); libdbus waits forever.
        setInSend(true)
        let sent = dbus_connection_send_with_reply(pointer, message.pointer, &pc, CDBUS_TIMEOUT_INFINITE)
        setInSend(false)
        guard sent != 0, let pc else {
            deliverLater(reply, .failure(.disconnected("Connection is closed")))
            return
        }
        let deadline =
            timeoutMilliseconds < 0 ? UInt64.max : monotonicNanos() &+ UInt64(timeoutMilliseconds) &* 1_000_000
        let pendingCall = PendingCall(
            call: pc, deadline: deadline, timeoutMs: timeoutMilliseconds, callback: reply, owner: self)
        let wasClosed = state.withLock { locked -> Bool in
            if locked.closed { return true }
            locked.pending[ObjectIdentifier(pendingCall)] = pendingCall
            return false
        }
        if wasClosed {
            if pendingCall.claim() {
                dbus_pending_call_cancel(pc)
                deliverLater(reply, .failure(.disconnected()))
            }
            return
        }
        _ = dbus_pending_call_set_notify(
            pc, pendingNotifyTrampoline, Unmanaged.passUnretained(pendingCall).toOpaque(), nil)
        // The reply may have been dispatched before the notify function was set.
        if dbus_pending_call_get_completed(pc) != 0 {
            perform { [self] in self.completePending(pendingCall) }
        } else if !isOnLoopThread {
            // Wake the loop only if it must write for us or would sleep past our deadline.
            let until = sleepUntil.load(ordering: .sequentiallyConsistent)
            if until == 0 || deadline < until || dbus_connection_has_messages_to_send(pointer) != 0 { wake() }
        }
    }

    /// Convenience: builds the call with `body` writing the arguments, then `callAsync`s it. Invalid names
    /// are reported through `reply` (never thrown or fatal).
    package func callAsync(
        destination: String?, path: String, interface: String?, member: String,
        timeoutMilliseconds: Int = 25_000, _ body: (DBusWriter) -> Void = { _ in },
        reply: @escaping DBusReplyHandler
    ) {
        let message: DBusMessage
        do {
            message = try DBusMessage.methodCall(
                destination: destination, path: path, interface: interface, member: member)
        } catch {
            deliverLater(reply, .failure(error))
            return
        }
        let writer = DBusWriter(message)
        body(writer)
        writer.finish()
        callAsync(message, timeoutMilliseconds: timeoutMilliseconds, reply: reply)
    }

    private func deliverLater(_ reply: @escaping DBusReplyHandler, _ result: Result<DBusMessage, DBusError>) {
        if loopRunning.load(ordering: .acquiring) && !state.withLock({ $0.stopping }) {
            perform { reply(result) }
        } else {
            reply(result)
        }
    }

    fileprivate func completePending(_ pendingCall: PendingCall) {
        guard pendingCall.claim() else { return }
        _ = state.withLock { $0.pending.removeValue(forKey: ObjectIdentifier(pendingCall)) }
        let result: Result<DBusMessage, DBusError>
        if let rawReply = dbus_pending_call_steal_reply(pendingCall.call) {
            let message = DBusMessage(adopting: rawReply, locked: true)
            if let error = message.asError { result = .failure(error) } else { result = .success(message) }
        } else {
            result = .failure(.noReply("No reply"))
        }
        pendingCall.callback(result)
    }

    /// Fails calls whose deadline passed; returns the next deadline.
    private func expireTimedOutCalls() -> UInt64? {
        let now = monotonicNanos()
        let (expired, next) = state.withLock { locked -> ([PendingCall], UInt64?) in
            var exp: [PendingCall] = []
            var next: UInt64? = nil
            for (k, pendingCall) in locked.pending {
                if pendingCall.deadline <= now {
                    exp.append(pendingCall)
                    locked.pending.removeValue(forKey: k)
                } else if pendingCall.deadline != .max {
                    next = min(next ?? .max, pendingCall.deadline)
                }
            }
            return (exp, next)
        }
        for pendingCall in expired where pendingCall.claim() {
            dbus_pending_call_cancel(pendingCall.call)
            pendingCall.callback(.failure(.noReply("Did not receive a reply within \(pendingCall.timeoutMs) ms")))
        }
        return next
    }

    // MARK: Bus helpers (implemented as ordinary calls so they work from any thread)

    /// `org.freedesktop.DBus.AddMatch`.
    package func addMatch(_ rule: String) throws(DBusError) {
        _ = try call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "AddMatch"
        ) { $0.append(rule) }
    }

    /// `org.freedesktop.DBus.RequestName` (flags: 1 allow replacement, 2 replace existing, 4 do not queue).
    package func requestName(_ name: String, flags: UInt32 = 4) throws(DBusError) -> DBusRequestNameReply {
        try DBusNames.require(name, DBusNames.isValidBusName(name), "bus name")
        let response = try call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RequestName"
        ) { writer in
            writer.append(name)
            writer.append(flags)
        }
        try response.requireSignature("u")
        let code = try response.reader().readUInt32()
        guard let reply = DBusRequestNameReply(rawValue: code) else {
            throw DBusError.failed("RequestName returned \(code)")
        }
        return reply
    }

    // MARK: Signals

    /// Calls `handler` (on the loop thread) for every incoming signal matching `filter`. The bus only
    /// delivers broadcast signals you subscribed to: add a match rule too (see `subscribe`).
    @discardableResult
    package func addSignalHandler(_ filter: DBusSignalFilter, _ handler: @escaping DBusSignalHandler)
        -> DBusSignalHandlerToken
    {
        state.withLock { locked in
            let id = locked.nextHandlerID
            locked.nextHandlerID += 1
            locked.signalHandlers.append((id, filter, handler))
            return DBusSignalHandlerToken(id: id)
        }
    }

    package func removeSignalHandler(_ token: DBusSignalHandlerToken) {
        state.withLock { locked in locked.signalHandlers.removeAll { $0.0 == token.id } }
    }

    /// `addMatch(filter.matchRule(arg0:))` + `addSignalHandler(filter, handler)`.
    package func subscribe(_ filter: DBusSignalFilter, arg0: String? = nil, _ handler: @escaping DBusSignalHandler)
        throws(DBusError) -> DBusSignalHandlerToken
    {
        try addMatch(filter.matchRule(arg0: arg0))
        return addSignalHandler(filter, handler)
    }

    fileprivate func deliverSignal(_ raw: OpaquePointer) {
        let handlers = state.withLock { $0.signalHandlers }
        guard !handlers.isEmpty else { return }
        let message = DBusMessage(retaining: raw)
        for (_, filter, handler) in handlers where filter.matches(message) { handler(message) }
    }

    // MARK: Object export

    /// Exports `handler` at exactly `path`.
    package func register(path: String, _ handler: @escaping DBusMethodHandler) throws(DBusError) {
        try registerObject(path: path, fallback: false, handler)
    }

    /// Exports `handler` for `path` and every path below it (e.g. `/org/a11y/atspi/accessible` covers
    /// `…/root` and `…/123`). A more specific registration wins.
    package func registerFallback(path: String, _ handler: @escaping DBusMethodHandler) throws(DBusError) {
        try registerObject(path: path, fallback: true, handler)
    }

    /// Removes a registration made with `register`/`registerFallback`.
    @discardableResult
    package func unregister(path: String) -> Bool {
        guard DBusNames.isValidObjectPath(path) else { return false }
        return path.withCString { dbus_connection_unregister_object_path(pointer, $0) } != 0
    }

    private func registerObject(path: String, fallback: Bool, _ handler: @escaping DBusMethodHandler) throws(DBusError)
    {
        try DBusNames.require(path, DBusNames.isValidObjectPath(path), "object path")
        let box = Unmanaged.passRetained(HandlerBox(handler)).toOpaque()
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        let ok = path.withCString { cPath in
            fallback
                ? dbus_connection_try_register_fallback(pointer, cPath, objectVTable, box, &err)
                : dbus_connection_try_register_object_path(pointer, cPath, objectVTable, box, &err)
        }
        if ok == 0 {
            Unmanaged<HandlerBox>.fromOpaque(box).release()
            throw DBusError.take(&err, fallback: "cannot register \(path)")
        }
    }
}

// MARK: - C trampolines and boxes

final class HandlerBox {
    let handler: DBusMethodHandler
    init(_ body: @escaping DBusMethodHandler) { handler = body }
}

/// Runs a handler and sends its reply on the C connection it came from.
func runHandler(_ handler: DBusMethodHandler, connection: OpaquePointer, message raw: OpaquePointer)
    -> CDBus.DBusHandlerResult
{
    let msg = DBusMessage(retaining: raw)
    let result: DBusMethodResult
    do { result = try handler(msg) } catch let error as DBusError { result = .error(error) } catch {
        result = .error(.failed("\(error)"))
    }
    let wantsReply =
        dbus_message_get_type(raw) == Int32(CDBUS_MESSAGE_TYPE_METHOD_CALL) && dbus_message_get_no_reply(raw) == 0
    switch result {
    case .notHandled:
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    case .handled:
        return DBUS_HANDLER_RESULT_HANDLED
    case .reply(let reply):
        if wantsReply {
            let out = reply.prepareForSending().map { msg.makeErrorReply($0) } ?? reply
            // Keep the Swift owner alive across the C call (a temporary could be released after `.pointer`).
            withExtendedLifetime(out) { _ = dbus_connection_send(connection, out.pointer, nil) }
        }
        return DBUS_HANDLER_RESULT_HANDLED
    case .error(let error):
        if wantsReply {
            let out = msg.makeErrorReply(error)
            withExtendedLifetime(out) { _ = dbus_connection_send(connection, out.pointer, nil) }
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }
}

nonisolated(unsafe) let objectVTable: UnsafeMutablePointer<DBusObjectPathVTable> = {
    let vtable = UnsafeMutablePointer<DBusObjectPathVTable>.allocate(capacity: 1)
    vtable.initialize(to: DBusObjectPathVTable())
    vtable.pointee.unregister_function = { _, ud in
        if let ud { Unmanaged<HandlerBox>.fromOpaque(ud).release() }
    }
    vtable.pointee.message_function = { conn, msg, ud in
        // Object handlers see method calls only; signals (e.g. the registry's events emitted from a path
        // inside our exported subtree) go to signal handlers.
        guard let conn, let msg, let ud, dbus_message_get_type(msg) == Int32(CDBUS_MESSAGE_TYPE_METHOD_CALL) else {
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        let box = Unmanaged<HandlerBox>.fromOpaque(ud).takeUnretainedValue()
        return runHandler(box.handler, connection: conn, message: msg)
    }
    return vtable
}()

private let signalFilterTrampoline: DBusHandleMessageFunction = { _, msg, ud in
    if let msg, let ud, dbus_message_get_type(msg) == Int32(CDBUS_MESSAGE_TYPE_SIGNAL) {
        Unmanaged<DBusConnection>.fromOpaque(ud).takeUnretainedValue().deliverSignal(msg)
    }
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

private let pendingNotifyTrampoline: DBusPendingCallNotifyFunction = { _, ud in
    guard let ud else { return }
    let pendingCall = Unmanaged<PendingCall>.fromOpaque(ud).takeUnretainedValue()
    pendingCall.owner?.completePending(pendingCall)
}

/// One outstanding async call. Kept alive by the connection's pending table until claimed.
final class PendingCall: @unchecked Sendable {
    let call: OpaquePointer
    let deadline: UInt64
    let timeoutMs: Int
    let callback: DBusReplyHandler
    weak var owner: DBusConnection?
    private let claimed = Atomic<Bool>(false)

    init(
        call: OpaquePointer, deadline: UInt64, timeoutMs: Int, callback: @escaping DBusReplyHandler,
        owner: DBusConnection
    ) {
        self.call = call
        self.deadline = deadline
        self.timeoutMs = timeoutMs
        self.callback = callback
        self.owner = owner
    }

    /// True exactly once: whoever claims it delivers the result.
    func claim() -> Bool { !claimed.exchange(true, ordering: .acquiringAndReleasing) }

    deinit { dbus_pending_call_unref(call) }
}

final class ResultBox<T: Sendable>: Sendable {
    private let m = Mutex<T?>(nil)
    func set(_ value: T) { m.withLock { $0 = value } }
    func take() -> T? { m.withLock { $0 } }
}

/// Per-thread "inside an AXDBus send" flag: libdbus calls the wake-up function from inside
/// `dbus_connection_send`, before it tries to write; AXDBus decides after the write instead.
private let inSendKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

@inline(__always)
private func setInSend(_ on: Bool) {
    pthread_setspecific(inSendKey, on ? UnsafeRawPointer(bitPattern: 1) : nil)
}

@inline(__always)
private func inSendOnThisThread() -> Bool { pthread_getspecific(inSendKey) != nil }

@inline(__always)
func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}
