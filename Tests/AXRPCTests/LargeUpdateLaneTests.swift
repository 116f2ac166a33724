import AXHub
import AXJSON
import AXTestSupport
import XCTest

@testable import AXRPC

/// Issue 19 item 5 (D-REL-5): a large `hierarchy.update` ran on the transport's event loop (an update of 10,000
/// inserts held the other connections on that loop for seconds). More than `LargeUpdates.inlineOps` ops leave
/// the loop: the router does not answer them inline, the connection's lane runs them (in order).
final class LargeUpdateLaneTests: XCTestCase {
    func frame(ops count: Int, prefix: String) -> [UInt8] {
        let ops = JSON.array(
            (0..<count).map { index -> JSON in
                [
                    "op": "insert", "parent": "w",
                    "view": [
                        "id": .string("\(prefix)\(index)"), "class": "UILabel", "text": "r", "frame": [0, 0, 10, 10],
                    ],
                ]
            })
        let message: JSON = ["jsonrpc": "2.0", "id": 1, "method": "hierarchy.update", "params": ["ops": ops]]
        return Array(message.jsonString.utf8)
    }

    func testALargeUpdateLeavesTheEventLoopAndStillApplies() async throws {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let session = RPCSession(peer: ProtocolFakePeer())
        session.initialized = true
        let registered = await router.handle(
            frame: Array(#"{"jsonrpc":"2.0","id":0,"method":"app.register","params":{"name":"big"}}"#.utf8),
            session: session)
        XCTAssertNotNil(registered)
        let app = try XCTUnwrap(hub.appIDs.first)
        try hub.setSnapshot(app: app, ["windows": [["id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100]]]])

        // Small: answered inline on the caller's thread (the event loop).
        guard case .reply = router.handleSync(frame: frame(ops: LargeUpdates.inlineOps, prefix: "s"), session: session)
        else {
            return XCTFail("a small update did not run inline")
        }
        // Large: not inline; the lane runs it.
        let large = frame(ops: 2_000, prefix: "l")
        guard case .needsAsync(let prepared) = router.handleSync(frame: large, session: session) else {
            return XCTFail("an update of 2,000 ops ran on the event loop")
        }
        let replyBytes = await router.run(prepared, session: session)
        let reply = try JSON.parse(try XCTUnwrap(replyBytes))
        XCTAssertNotNil(reply["result"], "\(reply)")
        XCTAssertEqual(try hub.snapshot(app).views["w"]?.children.count, LargeUpdates.inlineOps + 2_000)
    }

    /// A small update can change many elements: a window moved under 20,000 views changes every view's frame. Its
    /// answer (`changes.updated`, one member per element) was built with a keyed set that searched the members it
    /// had, quadratic on the event loop: an imgui app's flood of 20,000 texts in a window moving every frame held
    /// every client of the server for tens of seconds (issue 34). Linear now: 16x the views costs about 16x.
    func testAWindowMovedUnderManyViewsIsAnsweredInLinearTime() async throws {
        let small = try await secondsToAnswerAMove(over: 1_250)
        let large = try await secondsToAnswerAMove(over: 20_000)
        XCTAssertLessThan(large / small, 64, "1,250 views: \(small) s, 20,000 views: \(large) s")
    }

    func secondsToAnswerAMove(over count: Int) async throws -> Double {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let session = RPCSession(peer: ProtocolFakePeer())
        session.initialized = true
        _ = await router.handle(
            frame: Array(#"{"jsonrpc":"2.0","id":0,"method":"app.register","params":{"name":"moving"}}"#.utf8),
            session: session)
        let app = try XCTUnwrap(hub.appIDs.first)
        let labels = JSON.array(
            (0..<count).map { index -> JSON in
                [
                    "id": .string("t\(index)"), "class": "UILabel", "text": "line",
                    "frame": [0, .number(Double(index)), 50, 1],
                ]
            })
        try hub.setSnapshot(
            app: app, ["windows": [["id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100], "children": labels]]])
        let move: JSON = [["op": "set", "id": "w", "properties": ["frame": [5, 0, 100, 100]]]]
        let changes = try hub.update(app: app, ops: move)
        XCTAssertGreaterThanOrEqual(changes.updated.count, count)  // every view's frame moved with its window
        var best = Double.infinity
        for _ in 0..<3 {
            let started = ContinuousClock.now
            let answer = AXMethods.changeJSON(changes)
            let elapsed = started.duration(to: .now)
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            XCTAssertEqual(answer["updated"]?.objectValue?.count, changes.updated.count)
        }
        return best
    }
}
