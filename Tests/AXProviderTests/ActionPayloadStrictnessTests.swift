import AXCore
import AXHub
import AXJSON
import AXProvider
import AXSchema
import AXTestSupport
import XCTest

@testable import AXRPC

/// One strictness per action payload (issue 31 item 2, D-ACT-PAYLOAD-1): the same bad payload is refused with the
/// same words by the server's JSON-RPC action method (−32602 naming its param) and by the provider library (the
/// request read as `.unknown`, `payloadError` saying why), because both read it with AXSchema's one decoder; and
/// every payload the hub encodes is one the provider library reads back.
final class ActionPayloadStrictnessTests: XCTestCase {
    /// Points refused on every route: a missing or mistyped coordinate, the wrong arity, a coordinate beyond 10⁷.
    static let badPoints: [JSON] = [
        ["x": 1], ["x": "1", "y": 2], [1], [1, 2, 3], ["x": 1e8, "y": 0], [0, -1e7], "centre", true, [:],
    ]
    /// Drag source / drop point names refused on every route.
    static let badNames: [JSON] = ["", 3, .null, ["Photo"]]

    /// A real router with the server's method table over a hub with one app (the RecordingProvider answers).
    func server() throws -> (RPCRouter, RPCSession, String) {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let app = hub.registerApp(name: "t", provider: RecordingProvider())
        try hub.setSnapshot(app: app, HubTestTrees.guidedAccessSheet)
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let session = RPCSession(peer: ProtocolFakePeer())
        session.initialized = true
        return (router, session, app)
    }

    /// The error of `method` with `params` through the router (the wire frame in, the wire reply out).
    func rpcError(_ router: RPCRouter, _ session: RPCSession, _ method: String, _ params: JSONObject) async throws
        -> (code: Int?, param: String?, message: String?)
    {
        let frame: JSON = ["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": .object(params)]
        let handled = await router.handle(frame: Array(frame.jsonString.utf8), session: session)
        let reply = try XCTUnwrap(handled, "\(method): no reply")
        let error = try JSON.parse(reply)["error"]
        return (error?["code"]?.intValue, error?["data"]?["param"]?.stringValue, error?["message"]?.stringValue)
    }

    /// The provider library's reading of `action.perform` with this `value`.
    func providerCall(_ action: ActionName, value: JSON) -> ActionCall {
        ActionCall(json: ActionPerformParams(action: action.rawValue, target: "ok", value: value).json)
    }

    func testABadZoomPointIsRefusedWithTheSameWordsOnBothRoutes() async throws {
        let (router, session, app) = try server()
        for action in [ActionName.zoomIn, .zoomOut] {
            for point in Self.badPoints {
                let call = providerCall(action, value: point)
                XCTAssertEqual(call.kind, .unknown(action: action.rawValue), "\(point)")
                let refused = try XCTUnwrap(call.payloadError, "\(point)")
                let method = "action.\(action.rawValue)"
                let rpc = try await rpcError(
                    router, session, method, ["app": .string(app), "target": ["id": "ok"], "point": point])
                XCTAssertEqual(rpc.code, -32602, "\(point)")
                XCTAssertEqual(rpc.param, "point", "\(point)")
                XCTAssertEqual(rpc.message, "\(method): 'point' \(refused.expected)", "\(point)")
            }
        }
    }

    func testABadDescriptorNameIsRefusedWithTheSameWordsOnBothRoutes() async throws {
        let (router, session, app) = try server()
        for action in [ActionName.drag, .drop] {
            for name in Self.badNames {
                let call = providerCall(action, value: ["name": name, "x": 1, "y": 2])
                XCTAssertEqual(call.kind, .unknown(action: action.rawValue), "\(name)")
                let refused = try XCTUnwrap(call.payloadError, "\(name)")
                let method = "action.\(action.rawValue)"
                let rpc = try await rpcError(
                    router, session, method, ["app": .string(app), "target": ["id": "ok"], "name": name])
                // A null name is a missing one on both routes (JSON-RPC reads a null param as absent).
                XCTAssertEqual(rpc.param, "name", "\(name)")
                XCTAssertEqual(rpc.code, -32602, "\(name)")
                XCTAssertEqual(rpc.message, "\(method): 'name' \(refused.expected)", "\(name)")
            }
        }
    }

    func testABadDirectionIsRefusedWithTheSameWordsOnBothRoutes() async throws {
        let (router, session, app) = try server()
        let call = ActionCall(
            json: ActionPerformParams(action: "scroll", target: "ok", direction: "sideways").json)
        let refused = try XCTUnwrap(call.payloadError)
        let rpc = try await rpcError(
            router, session, "action.scroll", ["app": .string(app), "target": ["id": "ok"], "direction": "sideways"])
        XCTAssertEqual(rpc.code, -32602)
        XCTAssertEqual(rpc.message, "action.scroll: 'direction' \(refused.expected)")
    }

    /// The payloads only the server sends: the provider library refuses what the hub would never encode.
    func testServerOnlyPayloadsAreCheckedByTheirOneDecoder() {
        let refused: [(ActionName, JSON)] = [
            (.select, ["row": -1, "section": 0]), (.select, ["row": 1]), (.setSelectedTextRange, [-1, 0]),
            (.setSelectedTextRange, [1.5, 0]), (.setSelectedTextRange, ["a", 0]),
            (.scrollToVisible, ["contentOffset": [0]]), (.scrollToVisible, ["contentOffset": ["x": 0]]),
        ]
        for (action, value) in refused {
            let call = providerCall(action, value: value)
            XCTAssertEqual(call.kind, .unknown(action: action.rawValue), "\(action) \(value)")
            XCTAssertNotNil(call.payloadError, "\(action) \(value)")
        }
    }

    /// Every payload the hub encodes is read back by the same decoders, with no error.
    func testEveryHubPayloadDecodes() {
        for (request, expected) in ActionVocabularyRouteTests.requests {
            let call = ActionCall(json: request.json)
            XCTAssertNil(call.payloadError, request.action)
            XCTAssertEqual(call.kind, expected, request.action)
        }
        XCTAssertNil(ActionCall(json: ["action": "notAnAction", "target": ""]).payloadError)
    }
}
