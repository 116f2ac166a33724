import AXHub
import AXJSON
import AXTestSupport
import Foundation
import XCTest

@testable import AXRPC

/// Issue 19 item 6 (D-REL-6): one connection could hold 20,000 identical subscriptions and get 20,000
/// notifications per event. Identical subscriptions now share one (one notification per event); distinct ones are
/// capped per connection with a typed error naming the cap.
final class SubscriptionCapTests: XCTestCase {
    func server() throws -> (Hub, RPCRouter, RPCSession, ProtocolFakePeer, String) {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let app = hub.registerApp(name: "ticking", provider: nil)
        try hub.setSnapshot(app: app, ["windows": [["id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100]]]])
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let peer = ProtocolFakePeer()
        let session = RPCSession(peer: peer)
        session.initialized = true
        session.role = "automation"
        return (hub, router, session, peer, app)
    }

    func call(_ router: RPCRouter, _ session: RPCSession, _ method: String, _ params: JSON) async throws -> JSON {
        let frame = JSON.object(["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": params]).jsonString
        let reply = await router.handle(frame: Array(frame.utf8), session: session)
        return try JSON.parse(try XCTUnwrap(reply, "\(method): no reply"))
    }

    func tick(_ hub: Hub, _ app: String, _ label: String) throws {
        try hub.update(app: app, ops: [["op": "set", "id": "w", "properties": ["accessibilityLabel": .string(label)]]])
    }

    func testIdenticalSubscriptionsShareOneAndEachEventIsSentOnce() async throws {
        let (hub, router, session, peer, app) = try server()
        var ids = Set<JSON>()
        for _ in 0..<2_000 {
            let reply = try await call(router, session, "events.subscribe", ["events": ["tree.changed"]])
            ids.insert(try XCTUnwrap(reply["result"]?["subscription"], "\(reply)"))
        }
        XCTAssertEqual(ids.count, 1, "identical subscriptions were not merged")
        try tick(hub, app, "one")
        XCTAssertEqual(peer.notifications.filter { $0 == "tree.changed" }.count, 1)
        // Each subscribe needs its unsubscribe: the shared subscription lives until the last holder leaves.
        let id = try XCTUnwrap(ids.first)
        for _ in 0..<1_999 {
            let reply = try await call(router, session, "events.unsubscribe", ["subscription": id])
            XCTAssertNotNil(reply["result"], "\(reply)")
        }
        try tick(hub, app, "two")
        XCTAssertEqual(peer.notifications.filter { $0 == "tree.changed" }.count, 2)
        _ = try await call(router, session, "events.unsubscribe", ["subscription": id])
        try tick(hub, app, "three")
        XCTAssertEqual(peer.notifications.filter { $0 == "tree.changed" }.count, 2, "the last unsubscribe ended it")
        let again = try await call(router, session, "events.unsubscribe", ["subscription": id])
        XCTAssertEqual(again["error"]?["code"], -32602)
    }

    func testDistinctSubscriptionsAreCappedWithATypedError() async throws {
        let (hub, router, session, peer, app) = try server()
        let names = EventNames.all
        var pairs: [[String]] = []
        for first in names.indices {
            for second in names.indices where second > first { pairs.append([names[first], names[second]]) }
        }
        XCTAssertGreaterThan(pairs.count, 64)
        var accepted = 0
        var refusal: JSON?
        for pair in pairs {
            let reply = try await call(router, session, "events.subscribe", ["events": JSON(pair)])
            if reply["result"] != nil { accepted += 1 } else if refusal == nil { refusal = reply }
        }
        XCTAssertEqual(accepted, 64)
        let error = try XCTUnwrap(refusal?["error"], "the cap was never reached")
        XCTAssertEqual(error["code"], -32602)
        XCTAssertEqual(error["data"]?["limit"], 64)
        XCTAssertEqual(error["data"]?["reason"], "subscription limit")
        XCTAssertTrue(error["message"]?.stringValue?.contains("64") ?? false, "\(error)")
        // Closing the connection drops every subscription it held.
        peer.close()
        let before = peer.notifications.count
        try tick(hub, app, "after close")
        XCTAssertEqual(peer.notifications.count, before)
    }
}
