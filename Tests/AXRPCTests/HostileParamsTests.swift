import AXHub
import AXJSON
import AXTestSupport
import Foundation
import XCTest

@testable import AXRPC

/// Hostile numbers on the wire (issue 12 item 1): every integer parameter of every method goes through one
/// checked conversion, so a request can get a result or a typed error, never a trap and never -32603.
final class HostileParamsTests: XCTestCase {
    /// Raw wire texts: negative, zero, huge (1e300, 2^63, 2^64), fractional and non-number values.
    static let hostileValues: [String] = [
        "-1", "-9223372036854775808", "0", "1e300", "-1e300", "9223372036854775808", "18446744073709551616",
        "18446744073709551615", "9007199254740993", "1.5", "-0.5", "\"5\"", "true", "[]", "{}",
    ]
    /// Values a range may legitimately accept (every range in the table contains 1 or 0).
    static let maybeValid: Set<String> = ["0"]

    /// A fresh server (hub, one app with a provider that handles every action, all methods) per call, so no
    /// call sees another's side effects (hierarchy.set, shutdown, app.register).
    func freshServer() throws -> (RPCRouter, RPCSession, String) {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let app = hub.registerApp(name: "t", provider: RecordingProvider())
        try hub.setSnapshot(app: app, HubTestTrees.guidedAccessSheet)
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let session = RPCSession(peer: ProtocolFakePeer())
        session.initialized = true
        // The app's own connection (D-TRUST-1): provider methods are judged on their integers, not refused as
        // forbidden.
        session.role = "provider"
        session[attachment: AXMethods.appKey] = app
        return (router, session, app)
    }

    /// Params that get each method past its other checks, so the integer parameter is the one being judged.
    func baseParams(_ method: String, app: String) -> JSONObject {
        var object: JSONObject = [
            "app": .string(app), "selector": "#ok", "target": ["id": "ok"], "name": "x",
            "restriction": "org.test.sheet",
            "events": ["tree.changed"], "direction": "up", "value": "1", "text": "t", "ops": [],
            "notification": "announcement",
            "announcement": "hi", "fromRevision": 0, "row": 0, "column": 0,
        ]
        object["state"] = method == "policy.set" ? "allow" : "attached"
        // Only the names the method takes: an unknown name is refused before any value is judged (D-WIRE-4).
        let known = (AXMethods.parameterNames[method] ?? []).union(["app"])
        return JSONObject(object.filter { known.contains($0.0) })
    }

    /// One call with `key` set to the raw JSON text `raw`; returns the parsed response.
    func call(_ method: String, key: String, raw: String) async throws -> JSON {
        let (router, session, app) = try freshServer()
        var params = baseParams(method, app: app)
        params[key] = nil
        var body = JSON.object(params).jsonString
        body.removeLast()  // the closing brace: the hostile value is spliced in as raw text
        let frame =
            #"{"jsonrpc":"2.0","id":7,"method":"# + JSON.string(method).jsonString + #","params":"# + body + ","
            + JSON.string(key).jsonString + ":" + raw + "}}"
        let reply = await router.handle(frame: Array(frame.utf8), session: session)
        let bytes = try XCTUnwrap(reply, "\(method) \(key)=\(raw): no reply")
        return try JSON.parse(bytes)
    }

    /// The sweep: methods come from the router's own table, so a new method cannot escape it.
    func testEveryIntegerParameterOfEveryMethodRefusesHostileNumbersWithInvalidParams() async throws {
        let (router, _, _) = try freshServer()
        let table = AXMethods.integerParameters
        let allNames = Set(table.values.flatMap(\.keys))
        XCTAssertFalse(router.methods.isEmpty)
        for method in router.methods {
            guard let declared = table[method] else {
                XCTFail("'\(method)' is not in AXMethods.integerParameters: list its integer params (or [:])")
                continue
            }
            // Declared params: hostile values are refused with -32602 naming the param and its range.
            for (key, range) in declared {
                for raw in Self.hostileValues {
                    let response = try await call(method, key: key, raw: raw)
                    let value = try? JSON.parse(raw)
                    let accepted = value.flatMap { ParamRange.checkedInt($0, in: range) } != nil
                    if let error = response["error"] {
                        let code = error["code"]?.intValue
                        XCTAssertNotEqual(code, -32603, "\(method) \(key)=\(raw): internal error \(error)")
                        if !accepted {
                            XCTAssertEqual(code, -32602, "\(method) \(key)=\(raw): \(error)")
                            XCTAssertEqual(error["data"]?["param"], .string(key), "\(method) \(key)=\(raw): \(error)")
                            let message = error["message"]?.stringValue ?? ""
                            XCTAssertTrue(
                                message.contains("\(range.lowerBound)…\(range.upperBound)"),
                                "\(method) \(key)=\(raw): the message must name the range: \(message)")
                        }
                    } else {
                        XCTAssertNotNil(response["result"], "\(method) \(key)=\(raw): \(response)")
                        XCTAssertTrue(accepted, "\(method) \(key)=\(raw) was accepted outside \(range): \(response)")
                    }
                }
            }
            // Every other integer name on every method: still a result or a typed error, never -32603.
            for key in allNames.subtracting(declared.keys).sorted() {
                for raw in ["-1", "1e300", "18446744073709551616", "1.5", "{}"] {
                    let response = try await call(method, key: key, raw: raw)
                    XCTAssertNotEqual(
                        response["error"]?["code"]?.intValue, -32603, "\(method) \(key)=\(raw): \(response)")
                    XCTAssertTrue(
                        response["error"] != nil || response["result"] != nil, "\(method) \(key)=\(raw): \(response)")
                }
            }
        }
    }

    /// Specs/protocol.md states the nesting limit the router enforces (it said 128 while the code used 1,100), and
    /// the limit is where the spec says: a frame at the limit is read, one level deeper is −32021 maxDepth.
    func testNestingDepthLimitMatchesTheSpec() async throws {
        let specURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Specs/protocol.md")
        let spec = try String(contentsOf: specURL, encoding: .utf8)
        let limit = RPCLimits.default.maxDepth
        let written = limit.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        let flowed = spec.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(
            flowed.contains("nesting depth \(written) "), "Specs/protocol.md must state the nesting depth \(written)")
        let router = RPCRouter()
        router.registerSync("echo", requiresInit: false) { _, _ in "ok" }
        func frame(depth: Int) -> String {
            // The message object is level 1, params level 2; the rest are nested arrays.
            let inner = String(repeating: "[", count: depth - 2) + String(repeating: "]", count: depth - 2)
            return #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"x":"# + inner + "}}"
        }
        let session = RPCSession(peer: ProtocolFakePeer())
        let atLimitReply = await router.handle(frame: Array(frame(depth: limit).utf8), session: session)
        let atLimit = try JSON.parse(try XCTUnwrap(atLimitReply))
        XCTAssertEqual(atLimit["result"], "ok", "\(atLimit)")
        let beyondReply = await router.handle(frame: Array(frame(depth: limit + 1).utf8), session: session)
        let beyond = try JSON.parse(try XCTUnwrap(beyondReply))
        XCTAssertEqual(beyond["error"]?["code"], -32021, "\(beyond)")
        XCTAssertEqual(beyond["error"]?["data"]?["limit"], "maxDepth")
    }

    /// The two requests of the issue, one by one (before the fix each one trapped and killed the server).
    func testNegativeSubscriptionAndNegativeLimitAreInvalidParams() async throws {
        let unsubscribe = try await call("events.unsubscribe", key: "subscription", raw: "-1")
        XCTAssertEqual(unsubscribe["error"]?["code"], -32602, "\(unsubscribe)")
        XCTAssertEqual(unsubscribe["error"]?["data"]?["min"], 1)
        let find = try await call("query.find", key: "limit", raw: "-1")
        XCTAssertEqual(find["error"]?["code"], -32602, "\(find)")
        XCTAssertEqual(
            find["error"]?["message"], "query.find: 'limit' must be an integer in 0…9007199254740991, got -1")
    }
}

/// Unknown parameter names (issue 11 item 1, D-WIRE-4): refused with the closest known name, never ignored.
final class UnknownParameterTests: XCTestCase {
    func testEveryMethodListsItsParameterNames() {
        let router = RPCRouter()
        AXMethods.install(on: router, hub: Hub())
        for method in router.methods {
            XCTAssertNotNil(
                AXMethods.parameterNames[method],
                "'\(method)' is not in AXMethods.parameterNames: list the params it reads")
        }
    }

    func testAMisspelledParameterIsRefusedWithTheClosestName() async throws {
        let hub = Hub()
        let app = hub.registerApp(name: "t", provider: RecordingProvider())
        try hub.setSnapshot(app: app, HubTestTrees.guidedAccessSheet)
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let session = RPCSession(peer: ProtocolFakePeer())
        session.initialized = true
        let frame =
            #"{"jsonrpc":"2.0","id":1,"method":"wait.for","params":{"target":{"id":"ok"},"state":"detached","timeout":300}}"#
        let clock = ContinuousClock()
        let start = clock.now
        let raw = await router.handle(frame: Array(frame.utf8), session: session)
        let reply = try JSON.parse(XCTUnwrap(raw))
        XCTAssertLessThan(
            clock.now - start, .seconds(2), "the wait ran (5 s default) instead of refusing the unknown key")
        XCTAssertEqual(reply["error"]?["code"]?.intValue, -32602, "\(reply)")
        XCTAssertEqual(reply["error"]?["data"]?["param"]?.stringValue, "timeout")
        XCTAssertEqual(reply["error"]?["data"]?["closest"]?.stringValue, "timeoutMs")
        XCTAssertTrue(
            reply["error"]?["message"]?.stringValue?.contains("did you mean 'timeoutMs'?") == true, "\(reply)")
        // Known keys still work, and `app` is accepted everywhere.
        let good = #"{"jsonrpc":"2.0","id":2,"method":"query.count","params":{"app":"t","selector":"button"}}"#
        let rawAnswer = await router.handle(frame: Array(good.utf8), session: session)
        let answer = try JSON.parse(XCTUnwrap(rawAnswer))
        XCTAssertEqual(answer["result"]?["count"]?.intValue, 1, "\(answer)")
    }
}
