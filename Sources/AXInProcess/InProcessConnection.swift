import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPC
import AXRPCRouter
import Foundation
import Synchronization

/// An in-process connection: the real router (every method, its `Params` validation, roles and ownership checks),
/// with a peer that answers the server's requests itself. The one in-process route: the demo host (`InProcessProviderTransport`), the conformance runner and the tests use it.
///
/// The session holds its peer (this connection) strongly, and the case's action handler usually captures the
/// connection too; `close()` drops both references, so a closed connection — and the router and hub it kept
/// alive — is freed (LeakSanitizer found every case's whole server leaking before).
package final class InProcessConnection: RPCPeer, @unchecked Sendable {
    let router: RPCRouter
    /// nil once closed.
    private var session: RPCSession?
    private let lock = NSLock()
    private var notifications: [(method: String, params: JSON)] = []
    private var handler: (@Sendable (JSON) async throws(RPCError) -> JSON)?
    private var resetHandler: (@Sendable () async throws(RPCError) -> JSON)?
    private var closeHandlers: [@Sendable () -> Void] = []
    private var closed = false
    private var nextID = 1
    private static let ids = Atomic<UInt64>(1)
    package let connectionID: UInt64

    /// The operator credential of every in-process server (random per process).
    package static let operatorToken: String = (0..<4).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 36) }
        .joined()

    package init(router: RPCRouter) {
        self.router = router
        connectionID = InProcessConnection.ids.add(1, ordering: .relaxed).oldValue
        session = RPCSession(peer: self)
    }

    /// A fresh server: a hub and a router with every method installed (`actionTimeout` for the hub's actions).
    package static func makeRouter(hub: Hub, options: MethodOptions = MethodOptions(operatorToken: operatorToken))
        -> RPCRouter
    {
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub, options: options)
        return router
    }

    package func call(_ method: String, _ params: JSON?) async -> Result<JSON, RPCError> {
        guard let (frame, session) = request(method, params) else {
            return .failure(RPCError.disconnected(method: method))
        }
        guard let reply = await router.handle(frame: frame, session: session) else {
            return .failure(RPCError.internalError("no reply"))
        }
        return Self.result(of: reply)
    }

    /// Calls `method` on the caller's thread, for a process that serves no one else (`axquery --file`): the
    /// router's synchronous path, and the calls a server runs off its event loop (regex queries) on a thread of
    /// their own. nil when the method needs the event loop (waits, actions, subscriptions): a live server's.
    package func callSync(_ method: String, _ params: JSON?) -> Result<JSON, RPCError>? {
        guard let (frame, session) = request(method, params) else {
            return .failure(RPCError.disconnected(method: method))
        }
        switch router.handleSync(frame: frame, session: session) {
        case .reply(let reply): return Self.result(of: reply)
        case .noReply: return .failure(RPCError.internalError("no reply"))
        case .needsAsync(let prepared):
            guard case .reply(let reply) = router.runSyncOnOwnThread(prepared, session: session) else { return nil }
            return Self.result(of: reply)
        }
    }

    /// The request frame of `method` with the next id, and the session it runs in; nil once closed.
    private func request(_ method: String, _ params: JSON?) -> (frame: [UInt8], session: RPCSession)? {
        let (id, open): (Int, RPCSession?) = lock.withLock {
            let requestID = nextID
            nextID += 1
            return (requestID, session)
        }
        guard let open else { return nil }
        return (RPCMessage.request(id: JSON(id), method: method, params: params), open)
    }

    /// The result or the error of a reply frame.
    static func result(of reply: [UInt8]) -> Result<JSON, RPCError> {
        do {
            let response = try JSON.parse(reply)
            if let errorJSON = response["error"], let rpcError = RPCError(json: errorJSON) { return .failure(rpcError) }
            return .success(response["result"] ?? .null)
        } catch {
            return .failure(RPCError.internalError("unparsable reply: \(error)"))
        }
    }

    /// Answers the server's `action.perform` requests with `handler` (its params → the result).
    package func setActionHandler(_ handler: @escaping @Sendable (JSON) async -> JSON) {
        lock.withLock { self.handler = { params in await handler(params) } }
    }

    /// Answers the server's `action.perform` requests with `handler`, which may answer with an error (as a socket
    /// provider answers with a JSON-RPC error object).
    package func setActionAnswerer(_ handler: @escaping @Sendable (JSON) async throws(RPCError) -> JSON) {
        lock.withLock { self.handler = handler }
    }

    package func drainNotifications() -> [(method: String, params: JSON)] {
        lock.withLock {
            defer { notifications = [] }
            return notifications
        }
    }

    package func close() async {
        let handlers: [@Sendable () -> Void] = lock.withLock {
            guard !closed else { return [] }
            closed = true
            handler = nil
            session = nil
            defer { closeHandlers = [] }
            return closeHandlers
        }
        for closeHandler in handlers { closeHandler() }
    }

    // RPCPeer
    package func notify(_ method: String, _ params: JSON?) {
        lock.withLock { notifications.append((method, params ?? .null)) }
    }

    /// Answers the server's `app.reset` requests with `handler` (D-APP-RESET-1).
    package func setResetAnswerer(_ handler: @escaping @Sendable () async throws(RPCError) -> JSON) {
        lock.withLock { self.resetHandler = handler }
    }

    package func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
        switch RPCServerMessage(rawValue: method) {
        case .appReset:
            guard let resetHandler = lock.withLock({ self.resetHandler }) else {
                throw RPCError.methodNotFound(method)
            }
            return try await resetHandler()
        case .actionPerform:
            guard let actionHandler = lock.withLock({ handler }) else {
                throw RPCError.appNotResponding("no handler", data: ["reason": "timeout"])
            }
            return try await actionHandler(params ?? .null)
        case .connectionClosing, nil:
            throw RPCError.methodNotFound(method)
        }
    }

    package func close() { Task { await self.close() as Void } }
    package var isClosed: Bool { lock.withLock { closed } }
    package func onClose(_ handler: @escaping @Sendable () -> Void) {
        let now: Bool = lock.withLock {
            if closed { return true }
            closeHandlers.append(handler)
            return false
        }
        if now { handler() }
    }
}
