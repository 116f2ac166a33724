import AXHub
import AXJSON
import AXTestSupport
import Foundation
import XCTest

@testable import AXRPC

/// Issue 19 item 2 (D-REL-2): an app whose nested transforms compose to frames near 10²⁴ could kill the server
/// on `tree.get {format: "xml"}`, `tree.render` and every other path that converts geometry to integers. Each
/// output path answers (or refuses with a typed error) instead of trapping.
final class ComposedGeometryOutputTests: XCTestCase {
    static func nested(depth: Int, scale: Double) -> JSON {
        var inner: JSON = [
            "id": "leaf", "class": "UIView", "frame": [10, 10, 100, 40],
            "children": [
                ["id": "far", "class": "UIButton", "title": "Far", "frame": [0, 0, 50, 20]],
                ["id": "far-label", "class": "UILabel", "text": "Far away", "frame": [0, 20, 50, 20]],
            ],
        ]
        for level in 0..<depth {
            inner = [
                "id": .string("v\(level)"), "class": "UIView", "frame": [5, 5, 300, 300],
                "transform": ["scaleX": .number(scale), "scaleY": .number(scale), "translateX": 9_999_999],
                "children": [inner],
            ]
        }
        return [
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        ["id": "near", "class": "UIButton", "title": "Near", "frame": [0, 0, 80, 40]], inner,
                    ],
                ]
            ]
        ]
    }

    func call(_ router: RPCRouter, _ session: RPCSession, _ method: String, _ params: JSON) async throws -> JSON {
        let frame = JSON.object(["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": params]).jsonString
        let reply = await router.handle(frame: Array(frame.utf8), session: session)
        return try JSON.parse(try XCTUnwrap(reply, "\(method): no reply"))
    }

    func testEveryGeometryOutputAnswersOverComposedFrames() async throws {
        for (depth, scale) in [(4, 100_000.0), (4, 999_999.0), (8, 999_999.0)] {
            let hub = Hub(actionTimeout: .milliseconds(200))
            let app = hub.registerApp(name: "far", provider: RecordingProvider())
            try hub.setSnapshot(app: app, Self.nested(depth: depth, scale: scale))
            let router = RPCRouter()
            AXMethods.install(on: router, hub: hub)
            let session = RPCSession(peer: ProtocolFakePeer())
            session.initialized = true
            session.role = "automation"
            let calls: [(String, JSON)] = [
                ("tree.get", ["format": "xml"]), ("tree.get", [:]), ("tree.render", ["format": "svg"]),
                ("tree.render", ["format": "svg", "overlay": ["audit", "hitRegions", "focus", "order"]]),
                ("audit.run", [:]), ("element.get", ["target": ["id": "far"]]),
                ("query.find", ["selector": "button:visible"]), ("focus.move", ["direction": "next"]),
                ("focus.query", [:]), ("speech.walk", [:]), ("action.tap", ["target": ["id": "far"]]),
                ("wait.for", ["target": ["id": "far"], "state": "hittable", "timeoutMs": 0]),
            ]
            for (method, params) in calls {
                let reply = try await call(router, session, method, params)
                XCTAssertNotNil(reply["result"] ?? reply["error"], "\(method) depth \(depth) scale \(scale): \(reply)")
                if let code = reply["error"]?["code"]?.doubleValue {
                    XCTAssertNotEqual(code, -32603, "\(method): internal error \(reply)")
                }
            }
            let xml = try await call(router, session, "tree.get", ["format": "xml"])
            XCTAssertNotNil(xml["result"], "\(xml)")
        }
    }
}
