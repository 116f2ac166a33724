import AXJSON

/// Nesting limit for the messages a client receives: above the server's request limit (1100 levels) so any reply it
/// can produce is readable, yet bounded so a hostile peer cannot exhaust the stack.
public enum RPCClientLimits {
    /// The deepest nesting a client parses.
    public static let maxReplyDepth = 2048
}

/// What a client does with each message from the server, the same for every client connection (`RPCClient` over
/// NIO, the provider library's connection over a plain socket, D-PROVIDER-WIRE-1).
package struct RPCClientInbox: Sendable {
    /// Receives a notification the server sent (method and params).
    package typealias NotificationHandler = @Sendable (_ method: String, _ params: JSON?) -> Void
    /// Answers a request the server sent (e.g. `action.perform`): returns the result or throws an `RPCError`.
    package typealias RequestHandler = @Sendable (_ method: String, _ params: JSON?) async throws -> JSON

    /// The calls waiting for their responses.
    package let pending: RPCPendingRequests
    /// Writes one message (framing added by the connection); false when the connection is closed.
    package let send: @Sendable ([UInt8]) -> Bool

    /// An inbox completing calls in `pending` and answering through `send`.
    package init(pending: RPCPendingRequests, send: @escaping @Sendable ([UInt8]) -> Bool) {
        self.pending = pending
        self.send = send
    }

    /// Delivers one message: a response completes its call; a notification goes to `notification`, on the caller's
    /// thread (messages are delivered in order: keep it short); a request runs `request` in a Task and its answer or
    /// error is sent back (−32601 when there is no handler); an invalid message is answered only when it carries an
    /// id (never garbage for garbage).
    package func deliver(_ message: JSON, notification: NotificationHandler?, request: RequestHandler?) {
        switch RPCInbound.classify(message) {
        case .response(let id, let result):
            pending.complete(id: id, with: result)
        case .notification(let method, let params):
            notification?(method, params)
        case .request(let id, let method, let params):
            guard let request else {
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
