import AXJSON
import Synchronization

/// Nesting limit for the messages a client receives: above the server's request limit (1100 levels) so any reply it
/// can produce is readable, yet bounded so a hostile peer cannot exhaust the stack.
public enum RPCClientLimits {
    /// The deepest nesting a client parses.
    public static let maxReplyDepth = 2048
}

/// What a client connection does with each message from the server, and its handlers and close state: one for every
/// client connection (`RPCClient` over NIO, the provider library's connection over a plain socket,
/// D-PROVIDER-WIRE-1), which only reads frames and writes bytes.
package final class RPCClientInbox: Sendable {
    /// Receives a notification the server sent (method and params).
    package typealias NotificationHandler = @Sendable (_ method: String, _ params: JSON?) -> Void
    /// Answers a request the server sent (e.g. `action.perform`): returns the result or throws an `RPCError`.
    package typealias RequestHandler = @Sendable (_ method: String, _ params: JSON?) async throws -> JSON

    private struct Handlers {
        var notification: NotificationHandler?
        var request: RequestHandler?
    }

    /// The calls waiting for their responses.
    package let pending: RPCPendingRequests
    /// Writes one message (framing added by the connection); false when the connection is closed.
    private let send: @Sendable ([UInt8]) -> Bool
    private let handlers = Mutex(Handlers())
    private let closing = RPCCloseLatch()

    /// An inbox completing calls in `pending` and answering through `send`.
    package init(pending: RPCPendingRequests, send: @escaping @Sendable ([UInt8]) -> Bool) {
        self.pending = pending
        self.send = send
    }

    /// Sets the handler of the server's notifications (run where `deliver` runs, in order; keep it short).
    package func onNotification(_ handler: @escaping NotificationHandler) {
        handlers.withLock { $0.notification = handler }
    }

    /// Sets the handler of the server's requests (each runs in a Task; its answer is sent back).
    package func onRequest(_ handler: @escaping RequestHandler) {
        handlers.withLock { $0.request = handler }
    }

    /// Adds a handler run once when the connection closes (at once when it already has).
    package func onClose(_ handler: @escaping @Sendable () -> Void) { closing.onClose(handler) }

    /// True once the connection has closed.
    package var isClosed: Bool { closing.isClosed }

    /// The connection closed (the first call counts): pending calls fail with −32020 `disconnected`, then the close
    /// handlers run.
    package func didClose() { closing.close(failing: pending) }

    /// Delivers one message: a response completes its call; a notification goes to the notification handler, on the
    /// caller's thread (messages are delivered in order: keep it short); a request runs the request handler in a
    /// Task and its answer or error is sent back (−32601 when there is none); an invalid message is answered only
    /// when it carries an id (never garbage for garbage).
    package func deliver(_ message: JSON) {
        switch RPCInbound.classify(message) {
        case .response(let id, let result):
            pending.complete(id: id, with: result)
        case .notification(let method, let params):
            handlers.withLock { $0.notification }?(method, params)
        case .request(let id, let method, let params):
            guard let request = handlers.withLock({ $0.request }) else {
                _ = send(RPCMessage.errorResponse(id: id, .methodNotFound(method)))
                return
            }
            let send = send
            Task {
                let reply: Result<JSON, RPCError>
                do { reply = .success(try await request(method, params)) } catch let rpcError as RPCError {
                    reply = .failure(rpcError)
                } catch {
                    reply = .failure(.internalError("\(error)"))
                }
                _ = send(RPCMessage.response(id: id, result: reply))
            }
        case .invalid(let id, let error):
            if id != .null { _ = send(RPCMessage.errorResponse(id: id, error)) }
        }
    }
}
