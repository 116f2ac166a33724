import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPCClient
import Synchronization

/// An automation client for AXServer: find, wait for, act on and observe accessibility elements from Swift tests,
/// without hand-written JSON (Specs/protocol.md). The shape follows Playwright's locators:
///
/// ```swift
/// let client = try await AXClient.connect()
/// let wifi = client.getByRole("switch", name: "Wi-Fi")
/// try await wifi.activate()                       // waits until visible and enabled, then acts
/// try await expect(wifi).toHaveValue("off")       // woken by tree revisions, never polling
/// ```
///
/// Every call may throw `AXClientError`, whose `code` is the server's JSON-RPC error code.
public final class AXClient: Sendable {
    /// The JSON-RPC connection underneath (for methods this type does not wrap).
    public let connection: RPCClient
    /// The app calls address by default (nil: the server's default app).
    public let app: String?

    private let subscriptions = Mutex<[Int: AsyncStream<AXEvent>.Continuation]>([:])
    /// The trace being recorded (`startTrace()`), if any.
    let tracing = Mutex<ClientTrace?>(nil)

    init(connection: RPCClient, app: String?) {
        self.connection = connection
        self.app = app
    }

    /// Connects and sends `initialize` with role automation.
    ///
    /// - Parameters:
    ///   - address: `unix:PATH`, a socket path, or `tcp:HOST:PORT`; nil means `$AXSERVER_SOCKET`, else the
    ///     server's default socket.
    ///   - token: the TCP token (`axserver --token-file`).
    ///   - app: the app calls address when they name none (an app id or name).
    /// - Throws: `RPCTransportError` when nothing answers at the address (its message names the address, the
    ///   system's reason and how to start a server), `AXClientError` when the server refuses `initialize`.
    public static func connect(_ address: String? = nil, token: String? = nil, app: String? = nil) async throws
        -> AXClient
    {
        let environment = getenvString("AXSERVER_SOCKET")
        let path = address ?? environment ?? AXSocketPath.defaultPath()
        let full = path.hasPrefix("unix:") || path.hasPrefix("tcp:") ? path : "unix:" + path
        let connection: RPCClient
        do { connection = try await RPCClient.connect(full) } catch let error as RPCTransportError {
            throw RPCTransportError(error.message + "; " + AXSocketPath.noServerHint)
        }
        let client = AXClient(connection: connection, app: app)
        connection.onNotification { [weak client] method, params in
            client?.deliver(method: method, params: params ?? .null)
        }
        var hello: RPCParams<RPCCatalog.Initialize.Param> = [.role: "automation", .clientInfo: ["name": "AXClient"]]
        if let token {
            hello[.token] = .string(token)
        }
        _ = try await client.call(.initialize, hello, addApp: false)
        return client
    }

    /// Calls a method, adding `app` when the client has one and the params name none.
    @discardableResult
    public func call(
        _ method: String, _ params: JSONObject = [:], timeout: Duration = .seconds(30), addApp: Bool = true
    ) async throws(AXClientError) -> JSON {
        var full = params
        if addApp, let app, full[rpcAppParameter] == nil {
            full[rpcAppParameter] = .string(app)
        }
        do {
            guard let trace = tracing.withLock({ $0 }) else {
                return try await connection.call(method, .object(full), timeout: timeout)
            }
            return try await trace.record(method, full) { () async throws(RPCError) -> JSON in
                try await connection.call(method, .object(full), timeout: timeout)
            }
        } catch {
            throw AXClientError(error)
        }
    }

    /// Calls a catalog method (Sources/AXProtocol): `call(.treeGet, [.format: "json"])` compiles only with keys the
    /// method declares, and its answer is read by the members the method declares (`reply[.count]`); adds `app` as
    /// `call(_:_:timeout:addApp:)` does.
    @discardableResult
    public func call<Spec>(
        _ method: RPCMethod<Spec>, _ params: RPCParams<Spec.Param> = [:], timeout: Duration = .seconds(30),
        addApp: Bool = true
    ) async throws(AXClientError) -> RPCReply<Spec.Member> {
        RPCReply(try await call(method.wireName, params.object, timeout: timeout, addApp: addApp))
    }

    /// A locator for a selector (Specs/selectors.md); nothing is looked up until it is used.
    public func locator(_ selector: String) -> Locator {
        Locator(client: self, selector: selector)
    }

    /// Elements of a role (`button`, `switch`, `cell`…), optionally with this accessibility label.
    public func getByRole(_ role: String, name: String? = nil) -> Locator {
        locator(name.map { "\(role)[label=\(Self.quoted($0))]" } ?? role)
    }

    /// Elements with this accessibility label.
    public func getByLabel(_ label: String) -> Locator {
        locator("*[label=\(Self.quoted(label))]")
    }

    /// The element with this accessibility identifier.
    public func getByIdentifier(_ identifier: String) -> Locator {
        locator("#\(Self.quoted(identifier))")
    }

    /// The app's tree as JSON (`tree.get`), every element decoded; `fields` sends only these element fields (e.g.
    /// `["role", "label", "value", "states", "children"]`; `id` always). `treeReply` decodes only what is read.
    public func tree(depth: Int? = nil, fields: [String]? = nil) async throws(AXClientError) -> JSON {
        try await call(.treeGet, Self.treeParams(depth: depth, fields: fields)).json
    }

    /// The app's tree (`tree.get`) decoded as far as the caller reads it (D-CLIENT-TREE-2): `app`, `revision`,
    /// `count` and `truncated` at once, the elements on the first `windows()`; `json()` equals `tree`'s answer.
    public func treeReply(depth: Int? = nil, fields: [String]? = nil) async throws(AXClientError) -> AXTreeReply {
        let params = Self.treeParams(depth: depth, fields: fields)
        guard tracing.withLock({ $0 }) == nil else {
            // A recorded call keeps its result in the trace: read whole, through `call`.
            return try AXTreeReply(.parsed(try await call(.treeGet, params).json))
        }
        var full = params.object
        if let app, full[rpcAppParameter] == nil {
            full[rpcAppParameter] = .string(app)
        }
        let result: RPCResult
        do { result = try await connection.callForBytes(RPCMethod.treeGet.wireName, .object(full)) } catch {
            throw AXClientError(error)
        }
        return try AXTreeReply(result)
    }

    static func treeParams(depth: Int?, fields: [String]?) -> RPCParams<RPCCatalog.TreeGet.Param> {
        var params: RPCParams<RPCCatalog.TreeGet.Param> = [.format: "json"]
        if let depth {
            params[.depth] = JSON(depth)
        }
        if let fields {
            params[.fields] = JSON(fields)
        }
        return params
    }

    /// Subscribes to events (Specs/protocol.md §Events); the stream ends when the connection closes or the
    /// consumer stops iterating.
    public func events(_ names: [String]) async throws(AXClientError) -> AsyncStream<AXEvent> {
        let result = try await call(.eventsSubscribe, [.events: JSON(names)])
        guard let subscription = result[.subscription]?.intValue else {
            throw AXClientError(
                code: RPCError.Code.internalError, message: "events.subscribe returned no subscription",
                data: result.json)
        }
        let (stream, continuation) = AsyncStream<AXEvent>.makeStream()
        subscriptions.withLock { $0[subscription] = continuation }
        connection.onClose { continuation.finish() }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscriptions.withLock { $0.removeValue(forKey: subscription) }
        }
        return stream
    }

    /// Subscribes to catalog events (`RPCEvent`), as `events(_:)` with their names.
    public func events(_ events: [RPCEvent]) async throws(AXClientError) -> AsyncStream<AXEvent> {
        try await self.events(events.map(\.rawValue))
    }

    /// Closes the connection; event streams end.
    public func close() async {
        await connection.close()
        let open = subscriptions.withLock { current -> [AsyncStream<AXEvent>.Continuation] in
            defer { current.removeAll() }
            return Array(current.values)
        }
        for stream in open { stream.finish() }
    }

    private func deliver(method: String, params: JSON) {
        guard let subscription = params["subscription"]?.intValue else {
            return
        }
        let continuation = subscriptions.withLock { $0[subscription] }
        continuation?.yield(AXEvent(name: method, params: params))
    }

    /// A selector string literal: `"…"` with `\` and `"` escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\"" || character == "\\" {
                out.append("\\")
            }
            out.append(character)
        }
        out.append("\"")
        return out
    }
}

/// One event notification.
public struct AXEvent: Sendable {
    /// The event name (`tree.changed`, `focus.changed`, …).
    public var name: String
    /// Its params, including `subscription` and `app`.
    public var params: JSON
}

/// An error the server answered (or the connection failed with). `code` is the JSON-RPC code
/// (Specs/protocol.md §Errors); `kind` names it.
public struct AXClientError: Error, Sendable, CustomStringConvertible {
    /// The JSON-RPC error code (Specs/protocol.md §Errors).
    public var code: Int
    /// What went wrong, for a person.
    public var message: String
    /// The error's `data` (`kind`, and fields such as `reason` or `id`).
    public var data: JSON?

    /// An error with these fields.
    public init(code: Int, message: String, data: JSON?) {
        self.code = code
        self.message = message
        self.data = data
    }

    init(_ error: RPCError) {
        self.init(code: error.code, message: error.message, data: error.data)
    }

    /// The WebDriver-style kind (`no such element`, `timeout`, `policy denied`…).
    public var kind: String { data?["kind"]?.stringValue ?? RPCError.kind(forCode: code) ?? "unknown error" }

    /// The locator matched nothing (−32010).
    public var isNoSuchElement: Bool { code == RPCError.Code.noSuchElement }
    /// The locator matched several elements where one was needed (−32011).
    public var isAmbiguous: Bool { code == RPCError.Code.ambiguousMatch }
    /// A wait ran out of time (−32016).
    public var isTimeout: Bool { code == RPCError.Code.timeout }
    /// Guided access denied the action (−32017).
    public var isPolicyDenied: Bool { code == RPCError.Code.policyDenied }
    /// The element is off screen, disabled or covered (−32013).
    public var isNotInteractable: Bool { code == RPCError.Code.notInteractable }

    /// `AXClientError(code kind): message`.
    public var description: String { "AXClientError(\(code) \(kind)): \(message)" }
}

func getenvString(_ name: String) -> String? {
    guard let value = getenv(name) else {
        return nil
    }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
