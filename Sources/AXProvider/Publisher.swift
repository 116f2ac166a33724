import AXJSON
import AXJSONRPC
import AXProtocol
import Synchronization

/// How a publisher reaches a server: over a socket, or straight into an in-process hub.
///
/// `onAction` answers an action with the app's Bool (UIKit's `accessibilityActivate()` result) or throws to answer
/// it with an error: the transport sends an `ActionFailure` as is and wraps any other error in one, so the server
/// reports −32022 "app error" to the automation client (Specs/protocol.md §Provider role).
public protocol ProviderTransport: Sendable {
    func register(name: String, onAction: @escaping @Sendable (ActionCall) async throws -> Bool) async throws -> String
    /// Sends `method` to the server and returns its result; a refusal is thrown as the server's `RPCError`.
    func call(_ method: String, _ params: JSONObject) async throws -> JSON
}

extension ProviderTransport {
    /// Sends a request built from the catalog's typed keys (`RPCMethod.x.request(…)`, D-CATALOG-3).
    public func call(_ request: RPCRequest) async throws -> JSON {
        try await call(request.method, request.params)
    }
}

/// A transport that can also carry the server's `app.reset` request (D-APP-RESET-1): registering with `onReset`
/// declares `reset: true`, and the server's `app.reset` is answered with `{"reset": true, "revision": N}`, N being
/// the revision `onReset` returns (the app's initial tree, already published).
public protocol ResettableProviderTransport: ProviderTransport {
    /// Registers as `register(name:onAction:)` does, declaring reset support when `onReset` is given.
    func register(
        name: String, onReset: (@Sendable () async throws -> Int)?,
        onAction: @escaping @Sendable (ActionCall) async throws -> Bool
    ) async throws -> String
}

/// An app's error answer to an action (instead of `{"handled": Bool}`). The provider library answers
/// `action.perform` with the JSON-RPC error `{"code": -32022, "message": message, "data": {"reason": reason, …data}}`;
/// the server hands it to the automation client as −32022 "app error" with this object in `data.appError`.
public struct ActionFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public var message: String
    /// A short machine-readable word: `update refused` (the library's own), or the app's (the demo uses `maxLength`).
    public var reason: String
    /// More fields for `data` (`reason` and `kind` are set by the library).
    public var data: JSONObject

    /// A failure with a message for a person, a machine-readable reason and more `data` fields.
    public init(_ message: String, reason: String = "app error", data: JSONObject = JSONObject()) {
        self.message = message
        self.reason = reason
        self.data = data
    }

    /// Any error an action handler threw, as the failure the app answers with.
    public init(_ error: any Error) {
        switch error {
        case let failure as ActionFailure:
            self = failure
        case let publishError as PublishError:
            self = publishError.actionFailure
        default:
            self.init("\(error)")
        }
    }

    /// The JSON-RPC error the provider answers `action.perform` with.
    public var rpcError: RPCError {
        var fields = data
        fields["reason"] = .string(reason)
        return .appError(message, data: fields)
    }

    /// `reason: message`.
    public var description: String { "\(reason): \(message)" }
}

/// The server refused what a publish sent, and what the publisher did about it. `Publisher.publish` throws it
/// when the server does not hold the app's current tree afterwards, and hands every one to the error handler
/// (`Publisher.onError`), including the ones it recovered from.
public struct PublishError: Error, Sendable, CustomStringConvertible {
    /// One refused request.
    public struct Refusal: Sendable {
        /// `hierarchy.update` (a patch) or `hierarchy.set` (the full snapshot).
        public var method: String
        /// The server's answer as a JSON-RPC error (for an in-process hub, the error the socket would have carried).
        public var error: RPCError
    }

    /// What was refused, in order: a patch and then the resynchronising snapshot, or a snapshot alone.
    public var refusals: [Refusal]
    /// True when a refused patch was followed by an accepted full `hierarchy.set`: the server holds the app's
    /// current tree again, and `publish` returned normally.
    public var resynchronized: Bool
    /// True when the publisher did not send anything: the server already refused a snapshot of this very tree,
    /// and the publisher waits for the tree to change before trying again.
    public var notRetried: Bool

    /// The refusals, and whether the publisher resynchronized or held the tree back.
    public var description: String {
        let what = refusals.map { "\($0.method) refused: \($0.error.message)" }.joined(separator: "; ")
        if resynchronized {
            return what + " (resynchronized with a full snapshot)"
        }
        if notRetried {
            return what + " (this tree was refused before; not sent again until it changes)"
        }
        return what
    }

    /// How an action whose update this was answers: −32022 with `reason: update refused`.
    public var actionFailure: ActionFailure {
        let first = refusals.first?.error.message ?? "unknown error"
        let objects: [JSON] = refusals.map { ["method": .string($0.method), "error": $0.error.json] }
        return ActionFailure(
            "update refused: \(first)", reason: "update refused",
            data: ["refusals": .array(objects), "resynchronized": .bool(resynchronized)])
    }
}

/// Follows one action through the app's handler: the outcome of the last publish made while handling it.
final class ActionScope: Sendable {
    @TaskLocal static var current: ActionScope?
    private let lastFailure = Mutex<PublishError?>(nil)

    func record(_ failure: PublishError?) {
        lastFailure.withLock { $0 = failure }
    }

    /// The failure of the action's last publish, when its tree did not reach the server.
    var unpublished: PublishError? { lastFailure.withLock { $0 } }
}

/// The Swift provider library: publish a view hierarchy, keep it live with automatically diffed patches, post
/// notifications and handle actions — in a few lines:
///
///     let app = try await Publisher.connect(name: "Calculator", socket: path) { call in handle(call) }
///     try await app.publish(snapshot)          // first call sends hierarchy.set, later ones hierarchy.update
///     try await app.post("announcement", "Done")
///
/// When the server refuses a patch (an invalid value such as a string over the 64 KiB limit, or a tree that
/// drifted from the server's), the publisher does not resend it: it reports a `PublishError` to the error
/// handler and resynchronises with a full `hierarchy.set` of the current tree. If that is refused too, `publish`
/// throws, and the same tree is not sent again; the next publish of a changed tree sends a full snapshot.
/// An action whose handling ended with its tree refused is answered with an error (−32022, `reason: update
/// refused`), never with `handled: true`, even when the handler ignored the thrown error.
public actor Publisher {
    /// How this publisher reaches the server.
    public let transport: any ProviderTransport
    /// The app id the server assigned at registration ("" before).
    public private(set) var appID: String = ""
    /// The secret `app.register` answered for `appID` (nil before, or over a transport that does not carry it):
    /// presenting it when registering again gets `appID` back (D-REL-8, `register(name:reclaimToken:onAction:)`).
    public private(set) var reclaimToken: String?
    /// The tree the server holds (the last one it accepted).
    private var last: JSON?
    /// The revision of the last tree the server accepted.
    public private(set) var revision = 0
    /// After a refusal the next publish sends a full snapshot.
    private var needsResync = false
    /// The tree whose full snapshot the server refused, and how: not sent again until the tree changes.
    private var refused: (snapshot: JSON, error: PublishError)?
    private var errorHandler: (@Sendable (PublishError) -> Void)?
    /// Whether a publish is being sent, and the publishes waiting their turn (first in, first out). Publishes run one
    /// at a time: the actor alone would let two interleave at their `await` and diff both against the same old tree,
    /// so the server could apply an older tree after a newer one (a lost toggle).
    private var sending = false
    private var waitingToSend: [CheckedContinuation<Void, Never>] = []
    /// How many `publish` calls have entered the publisher: their order is the order the server gets their trees in
    /// (tests use it to make a known call order out of concurrent tasks).
    package private(set) var publishCallCount = 0

    /// A publisher over `transport`; call `register(name:onAction:)` before publishing.
    public init(transport: any ProviderTransport) { self.transport = transport }

    /// Connects over the server's Unix socket (or `tcp:HOST:PORT` with a token) and registers the app.
    /// `onReset`, when given, declares that the app can return to its initial state: it runs when a test asks
    /// for it (`app.reset`, WebDriver's `axserver:reset`) and must publish the initial tree before it returns.
    public static func connect(
        name: String, socket: String, token: String? = nil, onReset: (@Sendable () async throws -> Void)? = nil,
        onAction: @escaping @Sendable (ActionCall) async throws -> Bool
    ) async throws -> Publisher {
        let socketTransport = try await SocketProviderTransport(
            address: socket.hasPrefix("tcp:") || socket.hasPrefix("unix:") ? socket : "unix:" + socket, token: token)
        let publisher = Publisher(transport: socketTransport)
        try await publisher.register(name: name, reclaimToken: nil, onReset: onReset, onAction: onAction)
        return publisher
    }

    /// Registers the app. `onAction` returns whether the app handled the action, or throws to answer with an
    /// error (`ActionFailure`). If a publish made while handling the action left the app's tree off the server,
    /// the action is answered with that `PublishError` as an `ActionFailure` (`reason: update refused`).
    public func register(name: String, onAction: @escaping @Sendable (ActionCall) async throws -> Bool) async throws {
        try await register(name: name, reclaimToken: nil, onAction: onAction)
    }

    /// Registers the app as `register(name:onAction:)` does, presenting `reclaimToken` (the `reclaimToken` of a
    /// previous registration of the id `name`): the server gives that id back, removing a stale instance of it
    /// whose connection it has not yet seen close (D-REL-8). The new token is kept in `reclaimToken`.
    public func register(
        name: String, reclaimToken presented: String?,
        onAction: @escaping @Sendable (ActionCall) async throws -> Bool
    ) async throws {
        try await register(name: name, reclaimToken: presented, onReset: nil, onAction: onAction)
    }

    /// Registers as `register(name:reclaimToken:onAction:)` does; `onReset`, when given, declares that the app can
    /// return to its initial state (D-APP-RESET-1). It runs when the server asks (`app.reset`) and must publish the
    /// app's initial tree before it returns; the server answers the test after that tree is its own. An error it
    /// throws (or a refused publish) answers the request with an error, as for actions.
    public func register(
        name: String, reclaimToken presented: String?, onReset: (@Sendable () async throws -> Void)?,
        onAction: @escaping @Sendable (ActionCall) async throws -> Bool
    ) async throws {
        let perform: @Sendable (ActionCall) async throws -> Bool = { call in
            try await Publisher.perform(call, handler: onAction)
        }
        var reset: (@Sendable () async throws -> Int)?
        if let onReset {
            reset = { [weak self] () async throws -> Int in
                try await Publisher.performReset(handler: onReset)
                guard let self else { return 0 }
                return await self.revision
            }
        }
        if let socket = transport as? SocketProviderTransport {
            let registration = try await socket.registration(
                name: name, reclaimToken: presented, onReset: reset, onAction: perform)
            appID = registration.app
            reclaimToken = registration.reclaimToken
        } else if let resettable = transport as? any ResettableProviderTransport {
            appID = try await resettable.register(name: name, onReset: reset, onAction: perform)
            reclaimToken = nil
        } else {
            appID = try await transport.register(name: name, onAction: perform)
            reclaimToken = nil
        }
    }

    /// Runs an app's reset handler as an action handler runs: a refused publish made in it fails the reset.
    static func performReset(handler: @escaping @Sendable () async throws -> Void) async throws {
        let scope = ActionScope()
        do {
            try await ActionScope.$current.withValue(scope) { try await handler() }
        } catch {
            throw ActionFailure(error)
        }
        if let failure = scope.unpublished {
            throw failure.actionFailure
        }
    }

    /// Sets the handler told about every refusal (also the ones the publisher recovered from by resynchronising).
    public func onError(_ handler: @escaping @Sendable (PublishError) -> Void) {
        errorHandler = handler
    }

    static func perform(_ call: ActionCall, handler: @escaping @Sendable (ActionCall) async throws -> Bool) async throws
        -> Bool
    {
        let scope = ActionScope()
        let handled: Bool
        do {
            handled = try await ActionScope.$current.withValue(scope) {
                try await handler(call)
            }
        } catch {
            throw ActionFailure(error)
        }
        if let failure = scope.unpublished {
            throw failure.actionFailure
        }
        return handled
    }

    /// Publishes a snapshot: the whole tree the first time, then only what changed. Throws `PublishError` when
    /// the server does not hold this tree afterwards (see the type's discussion).
    @discardableResult
    public func publish(_ snapshot: JSON) async throws -> Int {
        publishCallCount += 1
        await takeTurn()
        defer { passTurn() }
        do throws(PublishError) {
            let published = try await send(snapshot)
            ActionScope.current?.record(nil)
            return published
        } catch {
            ActionScope.current?.record(error)
            throw error
        }
    }

    private func takeTurn() async {
        guard sending else {
            sending = true
            return
        }
        await withCheckedContinuation { continuation in
            waitingToSend.append(continuation)
        }
    }

    private func passTurn() {
        if waitingToSend.isEmpty {
            sending = false
        } else {
            waitingToSend.removeFirst().resume()
        }
    }

    private func send(_ snapshot: JSON) async throws(PublishError) -> Int {
        if let refused, refused.snapshot == snapshot {
            var again = refused.error
            again.notRetried = true
            throw again
        }
        var params = snapshot.objectValue ?? [RPCCatalog.HierarchySet.Param.windows.rawValue: snapshot]
        params[rpcAppParameter] = .string(appID)
        guard let last, !needsResync, last["guidedAccessRestrictions"] == snapshot["guidedAccessRestrictions"] else {
            return try await sendSnapshot(snapshot, params: params, after: [])
        }
        let ops = TreeDiff.diff(from: last, to: snapshot)
        if ops.isEmpty {
            self.last = snapshot
            return revision
        }
        do {
            let reply = try await transport.call(RPCMethod.hierarchyUpdate.request([.ops: .array(ops)], app: appID))
            accept(snapshot, reply: reply)
            return revision
        } catch {
            let refusal = PublishError.Refusal(
                method: RPCMethodName.hierarchyUpdate.rawValue, error: Self.rpcError(error))
            return try await sendSnapshot(snapshot, params: params, after: [refusal])
        }
    }

    /// Sends the full tree (`hierarchy.set`); `earlier` holds the refused patch this resynchronises after.
    private func sendSnapshot(_ snapshot: JSON, params: JSONObject, after earlier: [PublishError.Refusal])
        async throws(PublishError) -> Int
    {
        do {
            let reply = try await transport.call(RPCMethodName.hierarchySet.rawValue, params)
            accept(snapshot, reply: reply)
        } catch {
            let refusal = PublishError.Refusal(method: RPCMethodName.hierarchySet.rawValue, error: Self.rpcError(error))
            let failure = PublishError(refusals: earlier + [refusal], resynchronized: false, notRetried: false)
            needsResync = true
            refused = (snapshot, failure)
            errorHandler?(failure)
            throw failure
        }
        if !earlier.isEmpty {
            errorHandler?(PublishError(refusals: earlier, resynchronized: true, notRetried: false))
        }
        return revision
    }

    /// The server's answer as a JSON-RPC error (transports throw `RPCError`; anything else is reported as −32603).
    private static func rpcError(_ error: any Error) -> RPCError {
        if let rpcError = error as? RPCError {
            return rpcError
        }
        return .internalError(String(describing: error))
    }

    private func accept(_ snapshot: JSON, reply: JSON) {
        last = snapshot
        needsResync = false
        refused = nil
        revision = reply["revision"]?.intValue ?? revision
    }

    /// `UIAccessibility.post(notification:argument:)`.
    public func post(_ notification: String, _ argument: String? = nil, priority: String? = nil) async throws {
        var params: RPCParams<RPCCatalog.AccessibilityPost.Param> = [
            .notification: .string(notification), .argument: JSON(argument),
        ]
        if let priority { params[.priority] = .string(priority) }
        _ = try await transport.call(RPCMethod.accessibilityPost.request(params, app: appID))
    }
}

/// Provider transport over the JSON-RPC socket (a plain POSIX socket: the provider library builds no NIO,
/// D-PROVIDER-WIRE-1).
public final class SocketProviderTransport: ResettableProviderTransport {
    let client: ProviderConnection
    /// Connects to `address` (`unix:PATH` or `tcp:HOST:PORT`) and initializes as a provider, with `token` for TCP.
    public init(address: String, token: String?) async throws {
        client = try ProviderConnection.connect(address)
        var params: RPCParams<RPCCatalog.Initialize.Param> = [
            .role: .string(RPCRole.provider.rawValue), .clientInfo: ["name": "AXProvider"],
        ]
        if let token { params[.token] = .string(token) }
        let request = RPCMethod.initialize.request(params)
        _ = try await client.call(request.method, request.json, timeout: .seconds(10))
    }
    /// Registers the app under `name` and answers the server's `action.perform` requests with `onAction`.
    public func register(name: String, onAction: @escaping @Sendable (ActionCall) async throws -> Bool) async throws
        -> String
    {
        try await registration(name: name, reclaimToken: nil, onAction: onAction).app
    }
    /// Registers as `register(name:onAction:)` does, presenting `reclaimToken` when given (D-REL-8); returns the
    /// app id and the token that reclaims it next time (nil from a server that answers none).
    public func registration(
        name: String, reclaimToken: String?, onAction: @escaping @Sendable (ActionCall) async throws -> Bool
    ) async throws -> (app: String, reclaimToken: String?) {
        try await registration(name: name, reclaimToken: reclaimToken, onReset: nil, onAction: onAction)
    }

    /// Registers as `register(name:onAction:)` does, declaring reset support when `onReset` is given.
    public func register(
        name: String, onReset: (@Sendable () async throws -> Int)?,
        onAction: @escaping @Sendable (ActionCall) async throws -> Bool
    ) async throws -> String {
        try await registration(name: name, reclaimToken: nil, onReset: onReset, onAction: onAction).app
    }

    /// Registers as `registration(name:reclaimToken:onAction:)` does; with `onReset` the app declares `reset: true`
    /// and answers `app.reset` with `{"reset": true, "revision": N}`, N the revision `onReset` returns.
    public func registration(
        name: String, reclaimToken: String?, onReset: (@Sendable () async throws -> Int)?,
        onAction: @escaping @Sendable (ActionCall) async throws -> Bool
    ) async throws -> (app: String, reclaimToken: String?) {
        client.onRequest { method, params in
            switch RPCServerMessage(rawValue: method) {
            case .appReset:
                guard let onReset else { throw RPCError.methodNotFound(method) }
                do {
                    return ["reset": true, "revision": JSON(try await onReset())]
                } catch {
                    throw ActionFailure(error).rpcError
                }
            case .actionPerform:
                let handled: Bool
                do {
                    handled = try await onAction(ActionCall(json: params ?? .null))
                } catch {
                    throw ActionFailure(error).rpcError
                }
                return ["handled": .bool(handled)]
            case .connectionClosing, nil:
                throw RPCError.methodNotFound(method)
            }
        }
        var params: RPCParams<RPCCatalog.AppRegister.Param> = [.name: .string(name)]
        if let reclaimToken, !reclaimToken.isEmpty { params[.reclaimToken] = .string(reclaimToken) }
        if onReset != nil { params[.reset] = true }
        let request = RPCMethod.appRegister.request(params)
        let reply = try await client.call(request.method, request.json, timeout: .seconds(10))
        guard let id = reply["app"]?.stringValue else { throw RPCError.internalError("app.register returned no id") }
        return (id, reply["reclaimToken"]?.stringValue)
    }
    /// Calls `method` on the server (30 s timeout).
    public func call(_ method: String, _ params: JSONObject) async throws -> JSON {
        try await client.call(method, .object(params), timeout: .seconds(30))
    }
    /// Closes the connection; the server removes the app.
    public func close() async { client.close() }
}

extension SocketProviderTransport {
    /// Runs `handler` once when the server connection closes.
    public func onClose(_ handler: @escaping @Sendable () -> Void) { client.onClose(handler) }
}
