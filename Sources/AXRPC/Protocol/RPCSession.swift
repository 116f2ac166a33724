import AXJSON
import Synchronization

/// The other end of one connection, as seen by the server (implemented by the transport; tests may fake it).
public protocol RPCPeer: AnyObject, Sendable {
    /// Unique per server process, never reused.
    var connectionID: UInt64 { get }
    /// Sends a server->client notification. Safe from any thread; dropped silently when closed.
    func notify(_ method: String, _ params: JSON?)
    /// Sends a server->client request and waits for the answer.
    /// Throws -32020 "app not responding" on timeout, and -32020 with `data.reason == "disconnected"` when the
    /// connection closes before the answer; an error response from the peer is rethrown as is.
    func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON
    /// Closes the connection (idempotent).
    func close()
    var isClosed: Bool { get }
    /// Runs `handler` once when the connection closes (immediately if it already has).
    func onClose(_ handler: @escaping @Sendable () -> Void)
}

/// Per-connection state shared by the transport and the method layer. Thread-safe.
public final class RPCSession: Sendable {
    public let peer: any RPCPeer
    /// Server->client requests of this connection waiting for their response.
    public let pendingRequests: RPCPendingRequests
    /// This connection's requests running beside its others (concurrent methods), by id: `$/cancelRequest` finds
    /// them here (D-PROTO-1).
    public let inFlight = RPCInFlightRequests()

    private struct State {
        var initialized = false
        var role: String?
        var authenticated: Bool
        var attachments: [String: any Sendable] = [:]
    }
    private let state: Mutex<State>

    /// - Parameter authenticated: whether the connection is trusted already. Unix-socket sessions are
    ///   (file permissions protect them); the TCP transport passes `false` and sets it after the token check.
    ///   The router answers every message of an unauthenticated session with -32019.
    public init(
        peer: any RPCPeer, pendingRequests: RPCPendingRequests = RPCPendingRequests(), authenticated: Bool = true
    ) {
        self.peer = peer
        self.pendingRequests = pendingRequests
        self.state = Mutex(State(authenticated: authenticated))
    }

    public var connectionID: UInt64 { peer.connectionID }

    /// Set by the router after a successful `initialize` (the handler may also set it).
    public var initialized: Bool {
        get { state.withLock { $0.initialized } }
        set { state.withLock { $0.initialized = newValue } }
    }

    /// The client's role, e.g. "provider" or "automation" (set by the method layer).
    public var role: String? {
        get { state.withLock { $0.role } }
        set { state.withLock { $0.role = newValue } }
    }

    public var authenticated: Bool {
        get { state.withLock { $0.authenticated } }
        set { state.withLock { $0.authenticated = newValue } }
    }

    /// The attachment bag for the method layer (e.g. the app registered by a provider connection).
    public subscript(attachment key: String) -> (any Sendable)? {
        get { state.withLock { $0.attachments[key] } }
        set { state.withLock { $0.attachments[key] = newValue } }
    }

    /// A typed attachment, or nil when absent or of another type.
    public func attachment<T: Sendable>(_ key: String, as type: T.Type = T.self) -> T? {
        state.withLock { $0.attachments[key] } as? T
    }

    /// Atomically reads and updates the attachment bag.
    public func withAttachments<R: Sendable>(_ body: (inout [String: any Sendable]) -> R) -> R {
        state.withLock { s in body(&s.attachments) }
    }
}

/// Runs timeouts for `RPCPendingRequests`. The transport supplies one backed by its event loop (cheaper than a
/// Task per request); the default uses a Task.
public protocol RPCTimerScheduler: Sendable {
    /// Runs `body` once after `delay` unless the returned handle is cancelled first.
    func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> RPCTimerHandle
}

/// Cancels a scheduled timeout.
public struct RPCTimerHandle: Sendable {
    private let onCancel: @Sendable () -> Void
    public init(cancel: @escaping @Sendable () -> Void) { onCancel = cancel }
    public func cancel() { onCancel() }
}

/// The default scheduler: one sleeping Task per timeout.
public struct TaskTimerScheduler: RPCTimerScheduler {
    public init() {}
    public func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> RPCTimerHandle {
        let t = Task {
            do { try await Task.sleep(for: delay) } catch { return }
            body()
        }
        return RPCTimerHandle { t.cancel() }
    }
}

/// The table of server->client (or client->server, for `RPCClient`) requests waiting for a response.
/// Ids are numbers allocated here; `complete(id:with:)` is called when a response frame arrives,
/// `failAll` when the connection closes (after which new requests fail at once).
public final class RPCPendingRequests: Sendable {
    private struct Waiter {
        var method: String
        var continuation: CheckedContinuation<Result<JSON, RPCError>, Never>
    }
    private struct State {
        var nextID: Int64 = 1
        var waiters: [Int64: Waiter] = [:]
        var closed: RPCError?
    }
    private let state = Mutex(State())
    private let scheduler: any RPCTimerScheduler

    public init(scheduler: any RPCTimerScheduler = TaskTimerScheduler()) {
        self.scheduler = scheduler
    }

    /// Number of requests waiting.
    public var count: Int { state.withLock { $0.waiters.count } }

    /// Allocates an id, registers a waiter, calls `send(id)` (which must write the request frame and return
    /// false when it could not), and waits for the response, the timeout, cancellation, or `failAll`.
    /// On timeout: -32020 "app not responding" with `data.method` and `data.timeoutMs`.
    public func perform(method: String, timeout: Duration, send: (_ id: JSON) -> Bool) async throws(RPCError) -> JSON {
        let id: Int64 = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        var timer: RPCTimerHandle?
        let result: Result<JSON, RPCError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (cont: CheckedContinuation<Result<JSON, RPCError>, Never>) in
                let closed: RPCError? = state.withLock { s in
                    if let e = s.closed { return e }
                    s.waiters[id] = Waiter(method: method, continuation: cont)
                    return nil
                }
                if let closed {
                    cont.resume(returning: .failure(closed))
                    return
                }
                let ms = Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
                timer = scheduler.schedule(after: timeout) { [weak self] in
                    _ = self?.resolve(
                        id,
                        .failure(
                            .appNotResponding(
                                "no response to '\(method)' within \(ms) ms",
                                data: [
                                    "method": .string(method), "timeoutMs": .number(Double(ms)), "reason": "timeout",
                                ])))
                }
                if !send(.number(Double(id))) {
                    _ = resolve(id, .failure(.disconnected(method: method)))
                } else if Task.isCancelled {
                    _ = resolve(id, .failure(.cancelled("request '\(method)' was cancelled")))
                }
            }
        } onCancel: {
            _ = self.resolve(id, .failure(.cancelled("request '\(method)' was cancelled")))
        }
        timer?.cancel()
        return try result.get()
    }

    /// Completes the request with this id (a JSON number or numeric string). Returns false when no such
    /// request is pending (unknown, already answered, or timed out).
    @discardableResult
    public func complete(id: JSON, with result: Result<JSON, RPCError>) -> Bool {
        let key: Int64?
        switch id {
        case .number(let d): key = d.isFinite && d == d.rounded() && d.magnitude < 9.0e15 ? Int64(d) : nil
        case .string(let s): key = Int64(s)
        default: key = nil
        }
        guard let key else { return false }
        return resolve(key, result)
    }

    /// Fails every pending request with `error` and makes later `perform` calls fail with it at once.
    public func failAll(_ error: RPCError) {
        let waiters: [Waiter] = state.withLock { s in
            if s.closed == nil { s.closed = error }
            defer { s.waiters.removeAll() }
            return Array(s.waiters.values)
        }
        for w in waiters {
            var e = error
            if case .object(var o)? = e.data, o["method"] == nil {
                o["method"] = .string(w.method)
                e.data = .object(o)
            }
            w.continuation.resume(returning: .failure(e))
        }
    }

    private func resolve(_ id: Int64, _ result: Result<JSON, RPCError>) -> Bool {
        guard let w = state.withLock({ $0.waiters.removeValue(forKey: id) }) else { return false }
        w.continuation.resume(returning: result)
        return true
    }
}

/// Requests of one connection running beside its others, cancellable by id (`$/cancelRequest`, as LSP does).
public final class RPCInFlightRequests: Sendable {
    /// At most this many run beside the others per connection; more wait their turn in order.
    public static let maxConcurrent = 256

    final class Handle: Sendable {
        private let state = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))
        func adopt(_ task: Task<Void, Never>) {
            let cancelNow = state.withLock { current -> Bool in
                current.task = task
                return current.cancelled
            }
            if cancelNow { task.cancel() }
        }
        func cancel() {
            let task = state.withLock { current -> Task<Void, Never>? in
                current.cancelled = true
                return current.task
            }
            task?.cancel()
        }
    }

    private let entries = Mutex<[String: (token: UInt64, handle: Handle)]>([:])
    private let nextToken = Atomic<UInt64>(1)

    public init() {}

    public var count: Int { entries.withLock { $0.count } }

    /// Runs `body` as a task registered under `id` until it finishes; nil (nothing started) when `maxConcurrent`
    /// requests already run or one with this id does.
    public func start(id: JSON, _ body: @escaping @Sendable () async -> Void) -> Bool {
        let key = id.jsonString
        let token = nextToken.add(1, ordering: .relaxed).oldValue
        let handle = Handle()
        let accepted = entries.withLock { current -> Bool in
            guard current.count < Self.maxConcurrent, current[key] == nil else { return false }
            current[key] = (token, handle)
            return true
        }
        guard accepted else { return false }
        let task = Task { [weak self] in
            await body()
            self?.entries.withLock { current in
                if current[key]?.token == token { current[key] = nil }
            }
        }
        handle.adopt(task)
        return true
    }

    /// Cancels the running request with this id; false when none runs.
    @discardableResult
    public func cancel(id: JSON) -> Bool {
        guard let handle = entries.withLock({ $0[id.jsonString]?.handle }) else { return false }
        handle.cancel()
        return true
    }

    /// Cancels every running request (the connection closed).
    public func cancelAll() {
        let handles = entries.withLock { current in current.values.map(\.handle) }
        for handle in handles { handle.cancel() }
    }
}
