import AXJSON
import AXRPC
import AXTransport

/// An action the server asks the app to perform (the params of `action.perform`).
public struct ActionCall: Sendable {
    public var action: String
    public var target: String
    public var element: String?
    public var value: JSON?
    public var customAction: String?
    public var direction: String?
    public init(json: JSON) {
        action = json["action"]?.stringValue ?? ""
        target = json["target"]?.stringValue ?? ""
        element = json["element"]?.stringValue
        value = json["value"]
        customAction = json["customAction"]?.stringValue
        direction = json["direction"]?.stringValue
    }
}

/// How a publisher reaches a server: over a socket, or straight into an in-process hub.
public protocol ProviderTransport: Sendable {
    func register(name: String, onAction: @escaping @Sendable (ActionCall) async -> Bool) async throws -> String
    func call(_ method: String, _ params: JSONObject) async throws -> JSON
}

/// The Swift provider library: publish a view hierarchy, keep it live with automatically diffed patches, post
/// notifications and handle actions — in a few lines:
///
///     let app = try await Publisher.connect(name: "Calculator", socket: path) { call in handle(call) }
///     try await app.publish(snapshot)          // first call sends hierarchy.set, later ones hierarchy.update
///     try await app.post("announcement", "Done")
public actor Publisher {
    public let transport: any ProviderTransport
    public private(set) var appID: String = ""
    private var last: JSON?
    public private(set) var revision = 0

    public init(transport: any ProviderTransport) { self.transport = transport }

    /// Connects over the server's Unix socket (or `tcp:HOST:PORT` with a token) and registers the app.
    public static func connect(name: String, socket: String, token: String? = nil,
                               onAction: @escaping @Sendable (ActionCall) async -> Bool) async throws -> Publisher {
        let t = try await SocketProviderTransport(address: socket.hasPrefix("tcp:") || socket.hasPrefix("unix:") ? socket : "unix:" + socket, token: token)
        let p = Publisher(transport: t)
        try await p.register(name: name, onAction: onAction)
        return p
    }

    public func register(name: String, onAction: @escaping @Sendable (ActionCall) async -> Bool) async throws {
        appID = try await transport.register(name: name, onAction: onAction)
    }

    /// Publishes a snapshot: the whole tree the first time, then only what changed.
    @discardableResult
    public func publish(_ snapshot: JSON) async throws -> Int {
        var params = snapshot.objectValue ?? ["windows": snapshot]
        params["app"] = .string(appID)
        if let last {
            let ops = TreeDiff.diff(from: last, to: snapshot)
            var restrictionsChanged = false
            if last["guidedAccessRestrictions"] != snapshot["guidedAccessRestrictions"] { restrictionsChanged = true }
            if restrictionsChanged {
                let r = try await transport.call("hierarchy.set", params)
                revision = r["revision"]?.intValue ?? revision
            } else if !ops.isEmpty {
                let r = try await transport.call("hierarchy.update", ["app": .string(appID), "ops": .array(ops)])
                revision = r["revision"]?.intValue ?? revision
            }
        } else {
            let r = try await transport.call("hierarchy.set", params)
            revision = r["revision"]?.intValue ?? revision
        }
        last = snapshot
        return revision
    }

    /// `UIAccessibility.post(notification:argument:)`.
    public func post(_ notification: String, _ argument: String? = nil, priority: String? = nil) async throws {
        var p: JSONObject = ["app": .string(appID), "notification": .string(notification), "argument": JSON(argument)]
        if let priority { p["priority"] = .string(priority) }
        _ = try await transport.call("accessibility.post", p)
    }
}

/// Provider transport over the JSON-RPC socket.
public final class SocketProviderTransport: ProviderTransport {
    let client: RPCClient
    public init(address: String, token: String?) async throws {
        client = try await RPCClient.connect(address)
        var p: JSONObject = ["role": "provider", "clientInfo": ["name": "AXProvider"]]
        if let token { p["token"] = .string(token) }
        _ = try await client.call("initialize", .object(p), timeout: .seconds(10))
    }
    public func register(name: String, onAction: @escaping @Sendable (ActionCall) async -> Bool) async throws -> String {
        client.onRequest { method, params in
            guard method == "action.perform" else { throw RPCError.methodNotFound(method) }
            let handled = await onAction(ActionCall(json: params ?? .null))
            return ["handled": .bool(handled)]
        }
        let r = try await client.call("app.register", ["name": .string(name)], timeout: .seconds(10))
        guard let id = r["app"]?.stringValue else { throw RPCError.internalError("app.register returned no id") }
        return id
    }
    public func call(_ method: String, _ params: JSONObject) async throws -> JSON {
        try await client.call(method, .object(params), timeout: .seconds(30))
    }
    public func close() async { await client.close() }
}

extension SocketProviderTransport {
    /// Runs `handler` once when the server connection closes.
    public func onClose(_ handler: @escaping @Sendable () -> Void) { client.onClose(handler) }
}
