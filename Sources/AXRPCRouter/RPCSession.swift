import AXJSON
import AXJSONRPC
import Synchronization

/// The other end of one connection, as seen by the server (implemented by the transport; tests may fake it).
package protocol RPCPeer: AnyObject, Sendable {
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
package final class RPCSession: Sendable {
    package let peer: any RPCPeer
    /// Server->client requests of this connection waiting for their response.
    package let pendingRequests: RPCPendingRequests
    /// This connection's requests running beside its others (concurrent methods), by id: `$/cancelRequest` finds
    /// them here (D-PROTO-1).
    package let inFlight = RPCInFlightRequests()

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
    package init(
        peer: any RPCPeer, pendingRequests: RPCPendingRequests = RPCPendingRequests(), authenticated: Bool = true
    ) {
        self.peer = peer
        self.pendingRequests = pendingRequests
        self.state = Mutex(State(authenticated: authenticated))
    }

    package var connectionID: UInt64 { peer.connectionID }

    /// Set by the router after a successful `initialize` (the handler may also set it).
    package var initialized: Bool {
        get { state.withLock { $0.initialized } }
        set { state.withLock { $0.initialized = newValue } }
    }

    /// The client's role, e.g. "provider" or "automation" (set by the method layer).
    package var role: String? {
        get { state.withLock { $0.role } }
        set { state.withLock { $0.role = newValue } }
    }

    package var authenticated: Bool {
        get { state.withLock { $0.authenticated } }
        set { state.withLock { $0.authenticated = newValue } }
    }

    /// The attachment bag for the method layer (e.g. the app registered by a provider connection).
    package subscript(attachment key: String) -> (any Sendable)? {
        get { state.withLock { $0.attachments[key] } }
        set { state.withLock { $0.attachments[key] = newValue } }
    }

    /// A typed attachment, or nil when absent or of another type.
    package func attachment<T: Sendable>(_ key: String, as type: T.Type = T.self) -> T? {
        state.withLock { $0.attachments[key] } as? T
    }

    /// Atomically reads and updates the attachment bag.
    package func withAttachments<R: Sendable>(_ body: (inout [String: any Sendable]) -> R) -> R {
        state.withLock { locked in body(&locked.attachments) }
    }
}

/// Requests of one connection running beside its others, cancellable by id (`$/cancelRequest`, as LSP does).
package final class RPCInFlightRequests: Sendable {
    /// At most this many run beside the others per connection; the transport answers a further one −32023 busy.
    package static let maxConcurrent = 256

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

    package init() {}

    package var count: Int { entries.withLock { $0.count } }

    /// Runs `body` as a task registered under `id` until it finishes; nil (nothing started) when `maxConcurrent`
    /// requests already run or one with this id does.
    package func start(id: JSON, _ body: @escaping @Sendable () async -> Void) -> Bool {
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
    package func cancel(id: JSON) -> Bool {
        guard let handle = entries.withLock({ $0[id.jsonString]?.handle }) else { return false }
        handle.cancel()
        return true
    }

    /// Cancels every running request (the connection closed).
    package func cancelAll() {
        let handles = entries.withLock { current in current.values.map(\.handle) }
        for handle in handles { handle.cancel() }
    }
}
