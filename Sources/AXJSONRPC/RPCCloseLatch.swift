import Synchronization

/// A connection's closed state and the handlers to run when it closes, once: what every peer keeps, at either end
/// (the server's connection, `RPCClientInbox` for the clients, the test fakes).
package final class RPCCloseLatch: Sendable {
    private struct State {
        var closed = false
        var handlers: [@Sendable () -> Void] = []
    }
    private let state = Mutex(State())

    package init() {}

    /// True once `close` ran.
    package var isClosed: Bool { state.withLock { $0.closed } }

    /// Adds a handler run once when the connection closes (at once when it already has).
    package func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = state.withLock { locked in
            if locked.closed { return true }
            locked.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// The connection closed (the first call counts): the calls waiting in `pending` fail with −32020
    /// `disconnected`, then the close handlers run.
    package func close(failing pending: RPCPendingRequests? = nil) {
        let handlers: [@Sendable () -> Void] = state.withLock { locked in
            if locked.closed { return [] }
            locked.closed = true
            defer { locked.handlers = [] }
            return locked.handlers
        }
        pending?.failAll(.disconnected())
        for handler in handlers { handler() }
    }
}
