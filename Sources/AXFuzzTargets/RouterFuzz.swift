import AXDemo
import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPC
import Dispatch
import Synchronization

/// Every method's parameters through the real router: one server (a hub with every method installed and the demo
/// app registered by an in-process provider, as the in-process conformance runner sets it up) answers each input
/// as one frame from a fresh, initialized automation connection. Checked: a frame that is not JSON gets one parse
/// error; every request with a valid id gets exactly one reply carrying that id; every reply is valid JSON-RPC 2.0
/// (`jsonrpc`, an `id`, exactly one of `result` and `error`, an error with an integer `code` and a `message`).
enum RouterFuzz {
    static let target = FuzzTarget(
        name: "router",
        summary: "RPCRouter with AXMethods on a hub with the demo app: one valid JSON-RPC reply per request with an id",
        run: run)

    /// Methods whose answer waits for time to pass or ends the server; their parameters are not fuzzed here.
    static let skippedMethods: Set<String> = [RPCMethodName.waitFor.rawValue, RPCMethodName.shutdown.rawValue]

    /// The shared server, set up on first use.
    static let server = FuzzServer()

    static func run(_ bytes: UnsafeRawBufferPointer) -> [String] {
        let frame = Array(bytes)
        var check = FuzzCheck()
        let request: JSON?
        do {
            request = try JSON.parse(
                frame,
                limits: JSONParseLimits(maxDepth: RPCLimits.default.maxDepth, maxBytes: RPCLimits.default.maxFrameBytes)
            )
        } catch {
            request = nil
        }
        if let request, mentionsSkippedMethod(request) {
            return []
        }
        let reply = server.handle(frame)
        guard let request else {
            guard let reply else {
                check.fail("a frame that is not JSON got no reply")
                return check.failures
            }
            let replies = parseReplies(reply, check: &check)
            check.expect(replies.count == 1, "a frame that is not JSON got \(replies.count) replies")
            if let first = replies.first {
                let code = first["error"]?["code"]?.intValue
                check.expect(
                    code == RPCError.Code.parseError || code == RPCError.Code.messageTooLarge,
                    "a frame that is not JSON got \(quoted(first.jsonString)) instead of a parse error")
            }
            return check.failures
        }
        let replies = reply.map { parseReplies($0, check: &check) } ?? []
        let expectedIDs = requestIDs(request)
        for id in expectedIDs {
            let matching = replies.filter { $0["id"] == id }.count
            check.expect(
                matching == 1,
                "request id \(id.jsonString) got \(matching) replies in \(quoted(reply.map { String(decoding: $0, as: UTF8.self) } ?? "(none)"))"
            )
        }
        return check.failures
    }

    /// True when a request (or a batch element) calls a method in `skippedMethods`.
    static func mentionsSkippedMethod(_ request: JSON) -> Bool {
        switch request {
        case .array(let elements):
            return elements.contains { mentionsSkippedMethod($0) }
        case .object(let object):
            guard let method = object["method"]?.stringValue else { return false }
            return skippedMethods.contains(method)
        default:
            return false
        }
    }

    /// The ids of the well-formed requests in a message or batch (each must be answered exactly once).
    static func requestIDs(_ request: JSON) -> [JSON] {
        if case .array(let elements) = request {
            if elements.isEmpty || elements.count > 1000 { return [] }
            let ids = elements.flatMap { element -> [JSON] in
                if case .array = element { return [] }
                return requestIDs(element)
            }
            // A batch repeating an id (in any element, even an invalid one whose error may echo it) cannot tell its
            // replies apart; only ids no other element carries are checked.
            let everyID = elements.compactMap { $0.objectValue?["id"] }
            return ids.filter { id in everyID.filter { $0 == id }.count == 1 }
        }
        guard case .object(let object) = request,
            object["jsonrpc"] == .string("2.0"),
            object["method"]?.stringValue != nil,
            let id = object["id"]
        else { return [] }
        switch id {
        case .string:
            return [id]
        case .number(let number) where number == number.rounded() && abs(number) < 1e15:
            return [id]
        default:
            return []
        }
    }

    /// Parses a reply frame (one reply or a batch of them) and checks each is valid JSON-RPC 2.0.
    static func parseReplies(_ reply: [UInt8], check: inout FuzzCheck) -> [JSON] {
        let text = String(decoding: reply, as: UTF8.self)
        let parsed: JSON
        do {
            parsed = try JSON.parse(reply)
        } catch {
            check.fail("reply is not JSON (\(error)): \(quoted(text))")
            return []
        }
        let replies: [JSON]
        if case .array(let elements) = parsed {
            check.expect(!elements.isEmpty, "empty batch reply")
            replies = elements
        } else {
            replies = [parsed]
        }
        for element in replies {
            guard case .object(let object) = element else {
                check.fail("reply element is not an object: \(quoted(element.jsonString))")
                continue
            }
            check.expect(object["jsonrpc"] == .string("2.0"), "reply without \"jsonrpc\": \"2.0\": \(quoted(text))")
            check.expect(object["id"] != nil, "reply without an id: \(quoted(text))")
            let hasResult = object["result"] != nil
            let errorObject = object["error"]
            check.expect(
                hasResult != (errorObject != nil), "reply must carry exactly one of result and error: \(quoted(text))")
            if let errorObject {
                check.expect(
                    errorObject["code"]?.intValue != nil && errorObject["message"]?.stringValue != nil,
                    "error without an integer code and a message: \(quoted(text))")
            }
        }
        return replies
    }
}

/// A peer that records nothing: notifications are dropped and the provider side answers every action as handled.
final class FuzzPeer: RPCPeer, Sendable {
    private static let ids = Atomic<UInt64>(1)
    let connectionID: UInt64
    private let state = Mutex<(closed: Bool, handlers: [@Sendable () -> Void])>((false, []))

    init() {
        connectionID = FuzzPeer.ids.add(1, ordering: .relaxed).oldValue
    }

    func notify(_ method: String, _ params: JSON?) {}

    func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
        switch RPCServerMessage(rawValue: method) {
        case .actionPerform: return ["handled": true]
        case .appReset, .connectionClosing, nil: throw RPCError.methodNotFound(method)
        }
    }

    func close() {
        let handlers = state.withLock { current -> [@Sendable () -> Void] in
            if current.closed { return [] }
            current.closed = true
            defer { current.handlers = [] }
            return current.handlers
        }
        for handler in handlers {
            handler()
        }
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { current -> Bool in
            if current.closed { return true }
            current.handlers.append(handler)
            return false
        }
        if now {
            handler()
        }
    }
}

/// A hub with every method installed and the demo app published by an in-process provider.
final class FuzzServer: Sendable {
    let router: RPCRouter
    let hub: Hub
    let providerSession: RPCSession

    /// A server with no app at all (the connections target registers its own).
    init(empty: Bool) {
        hub = Hub(actionTimeout: .seconds(1))
        router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        providerSession = RPCSession(peer: FuzzPeer())
    }

    init() {
        hub = Hub(actionTimeout: .seconds(1))
        router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        providerSession = RPCSession(peer: FuzzPeer())
        let setup = [
            RPCMethod.initialize.request(
                [.role: .string(RPCRole.provider.rawValue), .clientInfo: ["name": "axfuzz-provider"]]),
            RPCMethod.appRegister.request([.name: .string(DemoApp.appName)]),
        ]
        var appID = ""
        for request in setup {
            let reply = call(request, session: providerSession)
            if let app = reply?["result"]?["app"]?.stringValue {
                appID = app
            }
        }
        let hierarchy = DemoApp().snapshot().objectValue ?? JSONObject()
        _ = call(RPCMethod.hierarchySet.request(snapshot: hierarchy, app: appID), session: providerSession)
    }

    /// Sends one request frame on `session` and returns the parsed reply.
    func call(_ request: RPCRequest, session: RPCSession) -> JSON? {
        let frame = RPCMessage.request(id: 1, method: request.method, params: request.json)
        return handle(frame, session: session).flatMap { try? JSON.parse($0) }
    }

    /// Answers `frame` from a fresh, initialized automation connection (its subscriptions end with it).
    func handle(_ frame: [UInt8]) -> [UInt8]? {
        let peer = FuzzPeer()
        let session = RPCSession(peer: peer)
        _ = call(
            RPCMethod.initialize.request(
                [.role: .string(RPCRole.automation.rawValue), .clientInfo: ["name": "axfuzz"]]),
            session: session)
        let reply = handle(frame, session: session)
        peer.close()
        return reply
    }

    /// Answers `frame` on `session`, waiting for asynchronous methods to finish.
    func handle(_ frame: [UInt8], session: RPCSession) -> [UInt8]? {
        switch router.handleSync(frame: frame, session: session) {
        case .reply(let bytes):
            return bytes
        case .noReply:
            return nil
        case .needsAsync(let prepared):
            let done = DispatchSemaphore(value: 0)
            let box = ReplyBox()
            let router = self.router
            Task {
                box.reply = await router.run(prepared, session: session)
                done.signal()
            }
            done.wait()
            return box.reply
        }
    }
}

/// Hands an asynchronous reply to the waiting thread (the semaphore orders the write before the read; the lock
/// makes that ordering checked by the compiler instead of assumed).
final class ReplyBox: Sendable {
    private let storage = Mutex<[UInt8]?>(nil)

    var reply: [UInt8]? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
