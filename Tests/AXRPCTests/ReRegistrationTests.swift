import AXHub
import AXJSON
import AXTestSupport
import XCTest

@testable import AXRPC

/// Issue 30 item 8 (D-REG-GEN-1): an app that registers under a name a departed app used must be served as itself
/// at once. Per-app caches were keyed by app id and revision, so the new app's tree at the revision the old one had
/// reached (same shape, other texts) was answered from the old app's entry: "I changed my code and nothing changed".
/// Also item 9: names with control characters are refused at registration.
final class ReRegistrationTests: XCTestCase {
    var nextID = 1

    func call(_ router: RPCRouter, _ session: RPCSession, _ method: String, _ params: JSON) async throws -> JSON {
        nextID += 1
        let frame = JSON.object(["jsonrpc": "2.0", "id": JSON(nextID), "method": .string(method), "params": params])
        let reply = await router.handle(frame: Array(frame.jsonString.utf8), session: session)
        return try JSON.parse(try XCTUnwrap(reply))
    }

    func session() -> (RPCSession, ProtocolFakePeer) {
        let peer = ProtocolFakePeer()
        let session = RPCSession(peer: peer)
        session.initialized = true
        return (session, peer)
    }

    static func tree(_ label: String) -> JSON {
        [
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        ["id": "title", "class": "UILabel", "text": .string(label), "frame": [0, 0, 200, 40]]
                    ],
                ]
            ]
        ]
    }

    /// Registers `name`, sets a tree labelled `labels[0]`, then relabels it once per further label.
    func publish(_ router: RPCRouter, _ session: RPCSession, _ name: String, _ labels: [String]) async throws -> Int {
        _ = try await call(router, session, "app.register", ["name": .string(name)])
        var revision = try await call(router, session, "hierarchy.set", Self.tree(labels[0]))["result"]?["revision"]
        for label in labels.dropFirst() {
            revision = try await call(
                router, session, "hierarchy.update",
                ["ops": [["op": "set", "id": "title", "properties": ["text": .string(label)]]]])["result"]?["revision"]
        }
        return try XCTUnwrap(revision?.intValue)
    }

    func testANewAppUnderAnOldNameIsServedAsItselfAtOnce() async throws {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let (automation, _) = session()
        let (first, firstPeer) = session()
        let oldRevision = try await publish(router, first, "X", ["Old 1", "Old 2", "Old 3"])
        let before = try await call(router, automation, "tree.get", ["app": "X", "format": "text"])
        XCTAssertTrue(before["result"]?["text"]?.stringValue?.contains("Old 3") == true, "\(before)")
        let oldRegistration = try await call(router, automation, "tree.revision", ["app": "X"])["result"]?[
            "registration"]
        firstPeer.close()
        XCTAssertEqual(hub.appIDs, [])

        // The restarted app reaches the old app's revision before anyone reads it.
        let (second, _) = session()
        let newRevision = try await publish(router, second, "X", ["New 1", "New 2", "New 3"])
        XCTAssertEqual(newRevision, oldRevision)
        let tree = try await call(router, automation, "tree.get", ["app": "X", "format": "text"])
        let text = tree["result"]?["text"]?.stringValue ?? ""
        XCTAssertTrue(text.contains("New 3") && !text.contains("Old"), text)
        let found = try await call(router, automation, "query.find", ["app": "X", "selector": "staticText"])
        XCTAssertEqual(found["result"]?["elements"]?[0]?["label"], "New 3", "\(found)")
        let element = try await call(router, automation, "element.get", ["app": "X", "target": ["id": "title"]])
        XCTAssertEqual(element["result"]?["label"], "New 3", "\(element)")
        let registration = try await call(router, automation, "tree.revision", ["app": "X"])["result"]?["registration"]
        XCTAssertNotNil(registration)
        XCTAssertNotEqual(registration, oldRegistration)
    }

    func testNamesWithControlCharactersAreRefused() async throws {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        for name in [
            "Mail\u{0}Evil", "Mail\nEvil", "Tab\there", "Del\u{7F}", "C1\u{85}", "Line\u{2028}", "Bidi\u{202E}",
        ] {
            let (provider, _) = session()
            let reply = try await call(router, provider, "app.register", ["name": .string(name)])
            XCTAssertEqual(reply["error"]?["code"], -32602, "\(name.debugDescription): \(reply)")
            XCTAssertEqual(reply["error"]?["data"]?["param"], "name")
            XCTAssertTrue(reply["error"]?["message"]?.stringValue?.contains("U+") == true, "\(reply)")
        }
        XCTAssertEqual(hub.appIDs, [])
        let (provider, _) = session()
        let accepted = try await call(router, provider, "app.register", ["name": "Café – 日本 👍🏽"])
        XCTAssertEqual(accepted["result"]?["app"], "Café – 日本 👍🏽")
    }
}
