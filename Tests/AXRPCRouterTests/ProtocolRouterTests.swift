import AXJSON
import AXJSONRPC
import AXRPCRouter
import AXTestSupport
import Synchronization
import XCTest

struct ProtocolTestError: Error, CustomStringConvertible { var description: String { "boom from test" } }

final class ProtocolRouterTests: XCTestCase {
    let log = ProtocolLocked<[String]>([])

    func makeRouter(limits: RPCLimits = .default) -> RPCRouter {
        let otherRouter = RPCRouter(limits: limits)
        otherRouter.registerSync("initialize", requiresInit: false) { _, _ in ["ok": true] }
        otherRouter.registerSync("echo", requiresInit: false) { params, _ in params ?? .null }
        otherRouter.registerSync("needsInit") { _, _ in "fine" }
        otherRouter.registerSync("log", requiresInit: false) { [log] params, _ in
            log.withLock { $0.append("sync:\(params?[0]?.stringValue ?? "")") }
            return .null
        }
        otherRouter.register("slowLog", requiresInit: false) { [log] params, _ in
            try await Task.sleep(for: .milliseconds(5))
            log.withLock { $0.append("async:\(params?[0]?.stringValue ?? "")") }
            return "done"
        }
        otherRouter.register("asyncEcho", requiresInit: false) { params, _ in
            await Task.yield()
            return params ?? .null
        }
        otherRouter.registerSync("failRPC", requiresInit: false) { _, _ in
            throw RPCError.noSuchElement("nothing matched", data: ["selector": "#x"])
        }
        otherRouter.registerSync("failOther", requiresInit: false) { _, _ in throw ProtocolTestError() }
        otherRouter.register("failAsyncOther", requiresInit: false) { _, _ in throw ProtocolTestError() }
        otherRouter.register("cancelled", requiresInit: false) { _, _ in throw CancellationError() }
        return otherRouter
    }

    func session(authenticated: Bool = true) -> RPCSession {
        RPCSession(peer: ProtocolFakePeer(), authenticated: authenticated)
    }

    func send(_ router: RPCRouter, _ frame: String, _ s: RPCSession) async throws -> JSON? {
        guard let out = await router.handle(frame: Array(frame.utf8), session: s) else { return nil }
        return try JSON.parse(out)
    }

    // MARK: single messages, table-driven

    struct Case {
        var frame: String
        /// nil = no response expected
        var id: JSON?
        var result: JSON? = nil
        var code: Int? = nil
        var messageContains: String? = nil
        var line: UInt = #line
    }

    func testSingleMessageTable() async throws {
        let cases: [Case] = [
            Case(frame: #"{"jsonrpc":"2.0","method":"echo","params":[1,2],"id":1}"#, id: 1, result: [1, 2]),
            Case(
                frame: #"{"jsonrpc":"2.0","method":"echo","params":{"a":"b"},"id":"abc"}"#, id: "abc",
                result: ["a": "b"]),
            Case(frame: #"{"jsonrpc":"2.0","method":"echo","id":-7}"#, id: -7, result: .null),
            Case(frame: #"{"jsonrpc":"2.0","method":"echo","id":1.5,"params":[]}"#, id: 1.5, result: []),
            Case(frame: #"{"id":"x","params":[3],"method":"echo","jsonrpc":"2.0"}"#, id: "x", result: [3]),
            Case(
                frame: #"{"jsonrpc":"2.0","method":"echo","id":null}"#, id: .null, code: -32600,
                messageContains: "not null"),
            Case(
                frame: #"{"jsonrpc":"2.0","method":"echo","id":true}"#, id: .null, code: -32600,
                messageContains: "got boolean"),
            Case(frame: #"{"jsonrpc":"2.0","method":"echo","id":[1]}"#, id: .null, code: -32600),
            Case(frame: #"{"method":"echo","id":3}"#, id: 3, code: -32600, messageContains: "missing \"jsonrpc\""),
            Case(
                frame: #"{"jsonrpc":"1.0","method":"echo","id":4}"#, id: 4, code: -32600,
                messageContains: "exactly \"2.0\""),
            Case(frame: #"{"jsonrpc":2.0,"method":"echo","id":4}"#, id: 4, code: -32600),
            Case(
                frame: #"{"jsonrpc":"2.0","method":5,"id":5}"#, id: 5, code: -32600,
                messageContains: "\"method\" must be a string"),
            Case(frame: #"{"jsonrpc":"2.0","id":6}"#, id: 6, code: -32600, messageContains: "missing \"method\""),
            Case(
                frame: #"{"jsonrpc":"2.0","method":"echo","params":"x","id":7}"#, id: 7, code: -32600,
                messageContains: "params"),
            Case(
                frame: #"{"jsonrpc":"2.0","method":"echo","params":3,"id":8}"#, id: 8, code: -32600,
                messageContains: "params"),
            Case(
                frame: #"{"jsonrpc":"2.0","method":"echo","params":null,"id":9}"#, id: 9, code: -32600,
                messageContains: "got null"),
            Case(frame: #"{"jsonrpc":"2.0","method":"nope","id":10}"#, id: 10, code: -32601, messageContains: "nope"),
            Case(
                frame: #"{"jsonrpc":"2.0","method":"failRPC","id":11}"#, id: 11, code: -32010,
                messageContains: "nothing matched"),
            Case(
                frame: #"{"jsonrpc":"2.0","method":"failOther","id":12}"#, id: 12, code: -32603,
                messageContains: "boom from test"),
            Case(
                frame: #"{"jsonrpc":"2.0","method":"failAsyncOther","id":13}"#, id: 13, code: -32603,
                messageContains: "boom from test"),
            Case(frame: #"{"jsonrpc":"2.0","method":"cancelled","id":14}"#, id: 14, code: -32800),
            Case(frame: #"{"jsonrpc":"2.0","method":"asyncEcho","params":["z"],"id":15}"#, id: 15, result: ["z"]),
            Case(
                frame: #"{"jsonrpc":"2.0","method":"needsInit","id":16}"#, id: 16, code: -32002,
                messageContains: "initialize"),
            Case(frame: "[]", id: .null, code: -32600, messageContains: "empty batch"),
            Case(frame: "42", id: .null, code: -32600, messageContains: "must be an object"),
            Case(frame: #""str""#, id: .null, code: -32600),
            Case(frame: #"{"jsonrpc":"2.0","method""#, id: .null, code: -32700, messageContains: "offset"),
            Case(frame: "", id: .null, code: -32700, messageContains: "empty input"),
            Case(
                frame: #"{"jsonrpc":"2.0","method":"echo","id":1,}"#, id: .null, code: -32700,
                messageContains: "trailing comma"),
            // notifications: never answered, even on errors
            Case(frame: #"{"jsonrpc":"2.0","method":"echo","params":[1]}"#, id: nil),
            Case(frame: #"{"jsonrpc":"2.0","method":"nope"}"#, id: nil),
            Case(frame: #"{"jsonrpc":"2.0","method":"failOther"}"#, id: nil),
            Case(frame: #"{"jsonrpc":"2.0","method":"needsInit"}"#, id: nil),
            // responses from the peer: consumed, never answered
            Case(frame: #"{"jsonrpc":"2.0","id":99,"result":1}"#, id: nil),
            Case(frame: #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#, id: nil),
        ]
        let router = makeRouter()
        for testCase in cases {
            let otherSession = session()
            let got = try await send(router, testCase.frame, otherSession)
            guard let expectedID = testCase.id else {
                XCTAssertNil(got, "expected no response for \(testCase.frame)", line: testCase.line)
                continue
            }
            guard let got else {
                XCTFail("no response for \(testCase.frame)", line: testCase.line)
                continue
            }
            XCTAssertEqual(got["jsonrpc"], "2.0", line: testCase.line)
            XCTAssertEqual(got["id"], expectedID, testCase.frame, line: testCase.line)
            if let otherResult = testCase.result {
                XCTAssertEqual(got["result"], otherResult, testCase.frame, line: testCase.line)
                XCTAssertNil(got["error"], line: testCase.line)
            }
            if let code = testCase.code {
                XCTAssertNil(got["result"], line: testCase.line)
                XCTAssertEqual(
                    got["error"]?["code"]?.intValue, code, "\(testCase.frame) -> \(got)", line: testCase.line)
                XCTAssertEqual(
                    got["error"]?["data"]?["kind"]?.stringValue, RPCError.kind(forCode: code), line: testCase.line)
                if let frag = testCase.messageContains {
                    let msg = got["error"]?["message"]?.stringValue ?? ""
                    XCTAssertTrue(msg.contains(frag), "message '\(msg)' lacks '\(frag)'", line: testCase.line)
                }
            }
        }
    }

    func testNumberIdsEchoExactly() async throws {
        let router = makeRouter()
        for idText in ["0", "1", "-1", "123456789012", "9007199254740991", "2.5", "\"0001\"", "\"\"", "\"é😀\""] {
            let out = await router.handle(
                frame: Array(#"{"jsonrpc":"2.0","method":"echo","id":\#(idText)}"#.utf8), session: session())
            let text = String(decoding: out ?? [], as: UTF8.self)
            XCTAssertTrue(text.contains(#""id":\#(idText),"#), "id \(idText) not echoed verbatim in \(text)")
        }
    }

    func testUnknownMethodCarriesMethodInData() async throws {
        let got = try await send(makeRouter(), #"{"jsonrpc":"2.0","method":"tree.nope","id":1}"#, session())
        XCTAssertEqual(got?["error"]?["data"]?["method"], "tree.nope")
        XCTAssertEqual(got?["error"]?["data"]?["kind"], "unknown method")
    }

    func testParseErrorCarriesOffset() async throws {
        let got = try await send(makeRouter(), #"{"jsonrpc":"2.0" "method":"x"}"#, session())
        XCTAssertEqual(got?["error"]?["code"], -32700)
        XCTAssertEqual(got?["error"]?["data"]?["offset"], 17)
        XCTAssertTrue(got?["error"]?["message"]?.stringValue?.contains("expected ',' or '}' at offset 17") ?? false)
    }

    // MARK: initialize gate

    func testInitializeGate() async throws {
        let router = makeRouter()
        let otherSession = session()
        var got = try await send(router, #"{"jsonrpc":"2.0","method":"needsInit","id":1}"#, otherSession)
        XCTAssertEqual(got?["error"]?["code"], -32002)
        XCTAssertEqual(got?["error"]?["data"]?["method"], "needsInit")
        got = try await send(router, #"{"jsonrpc":"2.0","method":"echo","params":[1],"id":2}"#, otherSession)
        XCTAssertEqual(got?["result"], [1], "requiresInit:false methods work before initialize")
        XCTAssertFalse(otherSession.initialized)
        got = try await send(router, #"{"jsonrpc":"2.0","method":"initialize","params":{},"id":3}"#, otherSession)
        XCTAssertEqual(got?["result"]?["ok"], true)
        XCTAssertTrue(otherSession.initialized)
        got = try await send(router, #"{"jsonrpc":"2.0","method":"needsInit","id":4}"#, otherSession)
        XCTAssertEqual(got?["result"], "fine")
        // Another session is still not initialized.
        got = try await send(router, #"{"jsonrpc":"2.0","method":"needsInit","id":5}"#, session())
        XCTAssertEqual(got?["error"]?["code"], -32002)
    }

    func testFailedInitializeDoesNotInitialize() async throws {
        let router = RPCRouter()
        router.registerSync("initialize") { _, _ in throw RPCError.invalidParams("need a token") }
        router.registerSync("x") { _, _ in 1 }
        let otherSession = session()
        let got = try await send(router, #"{"jsonrpc":"2.0","method":"initialize","id":1}"#, otherSession)
        XCTAssertEqual(got?["error"]?["code"], -32602)
        XCTAssertFalse(otherSession.initialized)
        let got2 = try await send(router, #"{"jsonrpc":"2.0","method":"x","id":2}"#, otherSession)
        XCTAssertEqual(got2?["error"]?["code"], -32002)
    }

    func testUnauthenticatedSessionIsRefused() async throws {
        let router = makeRouter()
        let otherSession = session(authenticated: false)
        for message in ["echo", "initialize", "nope"] {
            let got = try await send(router, #"{"jsonrpc":"2.0","method":"\#(message)","id":1}"#, otherSession)
            XCTAssertEqual(got?["error"]?["code"], -32019, message)
            XCTAssertEqual(got?["error"]?["data"]?["kind"], "unauthorized")
        }
        otherSession.authenticated = true
        let ok = try await send(router, #"{"jsonrpc":"2.0","method":"echo","params":[1],"id":1}"#, otherSession)
        XCTAssertEqual(ok?["result"], [1])
    }

    // MARK: batches

    func testBatchTable() async throws {
        let router = makeRouter()
        let frame = """
            [
              {"jsonrpc":"2.0","method":"echo","params":[1],"id":"1"},
              {"jsonrpc":"2.0","method":"echo","params":[7]},
              {"jsonrpc":"2.0","method":"nope","id":"2"},
              {"foo":"boo"},
              1,
              {"jsonrpc":"2.0","method":"asyncEcho","params":{"k":"v"},"id":5},
              {"jsonrpc":"2.0","id":77,"result":"a response is consumed"},
              {"jsonrpc":"2.0","method":"echo","params":[3],"id":null}
            ]
            """
        guard let got = try await send(router, frame, session())?.arrayValue else { return XCTFail("no batch reply") }
        XCTAssertEqual(got.count, 6)
        XCTAssertEqual(got[0]["id"], "1")
        XCTAssertEqual(got[0]["result"], [1])
        XCTAssertEqual(got[1]["id"], "2")
        XCTAssertEqual(got[1]["error"]?["code"], -32601)
        XCTAssertEqual(got[2]["id"], .null)
        XCTAssertEqual(got[2]["error"]?["code"], -32600)
        XCTAssertEqual(got[3]["id"], .null)
        XCTAssertEqual(got[3]["error"]?["code"], -32600)
        XCTAssertEqual(got[4]["id"], 5)
        XCTAssertEqual(got[4]["result"], ["k": "v"])
        XCTAssertEqual(got[5]["id"], .null)
        XCTAssertEqual(got[5]["error"]?["code"], -32600)
    }

    func testInvalidOnlyBatch() async throws {
        let got = try await send(makeRouter(), "[1,2,3]", session())?.arrayValue
        XCTAssertEqual(got?.count, 3)
        XCTAssertEqual(got?.compactMap { $0["error"]?["code"]?.intValue }, [-32600, -32600, -32600])
    }

    func testAllNotificationBatchGetsNothing() async throws {
        let router = makeRouter()
        let frame =
            #"[{"jsonrpc":"2.0","method":"log","params":["a"]},{"jsonrpc":"2.0","method":"slowLog","params":["b"]}]"#
        let got = try await send(router, frame, session())
        XCTAssertNil(got)
        XCTAssertEqual(log.withLock { $0 }, ["sync:a", "async:b"], "notifications still run, in order")
    }

    func testBatchRunsSequentiallyInOrder() async throws {
        let router = makeRouter()
        let frame = """
            [{"jsonrpc":"2.0","method":"slowLog","params":["1"],"id":1},
             {"jsonrpc":"2.0","method":"log","params":["2"],"id":2},
             {"jsonrpc":"2.0","method":"slowLog","params":["3"],"id":3},
             {"jsonrpc":"2.0","method":"log","params":["4"]}]
            """
        let got = try await send(router, frame, session())?.arrayValue
        XCTAssertEqual(got?.map { $0["id"] ?? .null }, [1, 2, 3])
        XCTAssertEqual(log.withLock { $0 }, ["async:1", "sync:2", "async:3", "sync:4"])
    }

    // MARK: sync fast path

    func testHandleSyncAnswersSyncFramesAndDefersAsyncOnes() async throws {
        let router = makeRouter()
        let otherSession = session()
        guard
            case .reply(let second) = router.handleSync(
                frame: Array(#"{"jsonrpc":"2.0","method":"echo","params":[1],"id":1}"#.utf8), session: otherSession)
        else {
            return XCTFail("sync frame should be answered synchronously")
        }
        XCTAssertEqual(try JSON.parse(second)["result"], [1])
        guard
            case .noReply = router.handleSync(
                frame: Array(#"{"jsonrpc":"2.0","method":"log","params":["n"]}"#.utf8), session: otherSession)
        else {
            return XCTFail("notification gives noReply")
        }
        // A batch mixing sync and async: nothing runs on the sync path.
        let mixed =
            #"[{"jsonrpc":"2.0","method":"log","params":["x"],"id":1},{"jsonrpc":"2.0","method":"slowLog","params":["y"],"id":2}]"#
        guard case .needsAsync(let point) = router.handleSync(frame: Array(mixed.utf8), session: otherSession) else {
            return XCTFail("mixed batch needs async")
        }
        XCTAssertFalse(point.allSync)
        XCTAssertEqual(log.withLock { $0 }, ["sync:n"], "the sync element of a deferred batch must not run early")
        let out = await router.run(point, session: otherSession)
        XCTAssertEqual(try JSON.parse(out ?? [])[1]?["result"], "done")
        XCTAssertEqual(log.withLock { $0 }, ["sync:n", "sync:x", "async:y"])
        // Errors detected before dispatch (unknown method, invalid request) stay on the sync path.
        guard
            case .reply = router.handleSync(
                frame: Array(#"{"jsonrpc":"2.0","method":"zzz","id":1}"#.utf8), session: otherSession)
        else {
            return XCTFail("unknown method answered synchronously")
        }
    }

    // MARK: limits

    func testLimits() async throws {
        let router = makeRouter(limits: RPCLimits(maxFrameBytes: 200, maxDepth: 5, maxBatch: 3))
        let otherSession = session()
        let big = #"{"jsonrpc":"2.0","method":"echo","params":[""# + String(repeating: "x", count: 300) + #""],"id":1}"#
        var got = try await send(router, big, otherSession)
        XCTAssertEqual(got?["error"]?["code"], -32021)
        XCTAssertEqual(got?["error"]?["data"]?["limit"], "maxFrameBytes")
        XCTAssertEqual(got?["error"]?["data"]?["kind"], "message too large")

        got = try await send(router, #"{"jsonrpc":"2.0","method":"echo","params":[[[[[1]]]]],"id":1}"#, otherSession)
        XCTAssertEqual(got?["error"]?["code"], -32021)
        XCTAssertEqual(got?["error"]?["data"]?["limit"], "maxDepth")
        got = try await send(router, #"{"jsonrpc":"2.0","method":"echo","params":[[[1]]],"id":1}"#, otherSession)
        XCTAssertEqual(got?["result"], [[[1]]])

        let call = #"{"jsonrpc":"2.0","method":"echo","id":1}"#
        got = try await send(router, "[\(call),\(call),\(call),\(call)]", otherSession)
        XCTAssertEqual(got?["error"]?["code"], -32021)
        XCTAssertEqual(got?["error"]?["data"]?["limit"], "maxBatch")
        let ok = try await send(router, "[\(call),\(call),\(call)]", otherSession)
        XCTAssertEqual(ok?.arrayValue?.count, 3)
    }

    func testDefaultLimits() {
        XCTAssertEqual(RPCLimits.default.maxFrameBytes, 16 << 20)
        // A frame must be able to carry the deepest legal hierarchy (256 views ≈ 2 JSON levels each, plus the
        // envelope), so that the store, not the frame parser, reports a too-deep hierarchy precisely.
        XCTAssertEqual(RPCLimits.default.maxDepth, 1100)
        XCTAssertEqual(RPCLimits.default.maxBatch, 1000)
    }

    /// A legal but deep frame (1,000 levels) is parsed on a Task's stack without trouble and answered.
    func testDeepFrameIsAnsweredOffTheMainThread() async throws {
        let router = RPCRouter()
        router.registerSync("echo", requiresInit: false) { params, _ in params ?? .null }
        let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        let frame = Array("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"echo\",\"params\":{\"a\":\(deep)}}".utf8)
        let reply = await Task.detached { await router.handle(frame: frame, session: RPCSession(peer: NullTestPeer())) }
            .value
        let json = try JSON.parse(reply ?? [], limits: JSONParseLimits(maxDepth: 2048, maxBytes: 1 << 20))
        XCTAssertEqual(json["id"], 7)
        XCTAssertNotNil(json["result"])
    }

    /// A frame over the nesting limit is refused with -32021 and, since the id can still be found, that id.
    func testTooDeepFrameEchoesTheID() async throws {
        let router = RPCRouter(limits: RPCLimits(maxDepth: 16))
        router.registerSync("echo", requiresInit: false) { params, _ in params ?? .null }
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        for (id, raw) in [("\"abc\"", "\"abc\""), ("42", "42")] {
            let frame = Array(
                "{\"jsonrpc\":\"2.0\",\"method\":\"echo\",\"params\":{\"x\":\"}\\\"\",\"a\":\(deep)},\"id\":\(raw)}"
                    .utf8)
            let reply = await router.handle(frame: frame, session: RPCSession(peer: NullTestPeer()))
            let json = try JSON.parse(reply ?? [])
            XCTAssertEqual(json["error"]?["code"], -32021)
            XCTAssertEqual(json["id"]?.jsonString, id)
        }
        // Without a findable id the reply still comes, with a null id.
        let frame = Array("[\(deep)]".utf8)
        let reply = await router.handle(frame: frame, session: RPCSession(peer: NullTestPeer()))
        XCTAssertEqual(try JSON.parse(reply ?? [])["id"], .null)
    }

    // MARK: responses path

    func testResponseFrameCompletesPendingRequest() async throws {
        let router = makeRouter()
        let otherSession = session()
        let sentID = ProtocolLocked<JSON?>(nil)
        let task = Task { () async throws(RPCError) -> JSON in
            try await otherSession.pendingRequests.perform(method: "app.press", timeout: .seconds(10)) { id in
                sentID.withLock { $0 = id }
                return true
            }
        }
        var id: JSON?
        for _ in 0..<200 {
            id = sentID.withLock { $0 }
            if id != nil { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        guard let id else { return XCTFail("request was never sent") }
        XCTAssertEqual(otherSession.pendingRequests.count, 1)
        let reply = try await send(
            router, #"{"jsonrpc":"2.0","id":\#(id.jsonString),"result":{"pressed":true}}"#, otherSession)
        XCTAssertNil(reply, "a response is never answered")
        let otherResult = await task.result
        XCTAssertEqual(try otherResult.get(), ["pressed": true])
        XCTAssertEqual(otherSession.pendingRequests.count, 0)
    }

    func testErrorResponseInBatchFailsPendingRequest() async throws {
        let router = makeRouter()
        let otherSession = session()
        let sentID = ProtocolLocked<JSON?>(nil)
        let task = Task { () async throws(RPCError) -> JSON in
            try await otherSession.pendingRequests.perform(method: "app.scroll", timeout: .seconds(10)) { id in
                sentID.withLock { $0 = id }
                return true
            }
        }
        var id: JSON?
        for _ in 0..<200 {
            id = sentID.withLock { $0 }
            if id != nil { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        guard let id else { return XCTFail("request was never sent") }
        let frame =
            #"[{"jsonrpc":"2.0","id":\#(id.jsonString),"error":{"code":-32014,"message":"cannot scroll","data":{"kind":"unsupported operation"}}},{"jsonrpc":"2.0","method":"echo","params":[1],"id":"c"}]"#
        let reply = try await send(router, frame, otherSession)?.arrayValue
        XCTAssertEqual(reply?.count, 1, "only the request element is answered")
        XCTAssertEqual(reply?.first?["id"], "c")
        let otherResult = await task.result
        XCTAssertThrowsError(try otherResult.get()) { error in
            XCTAssertEqual((error as? RPCError)?.code, -32014)
            XCTAssertEqual((error as? RPCError)?.message, "cannot scroll")
        }
    }
}
