import AXCore
import AXHub
import AXJSON
import AXTestSupport
import Synchronization
import XCTest

/// Issue 19 item 1: a subscriber whose delivery makes the hub emit again (a provider connection that closes on
/// a failed write removes its app) must not re-enter delivery ("Recursive call to lock Mutex"); the removal's
/// event is delivered after the current batch (D-REL-1).
final class EventDeliveryReentryTests: XCTestCase {
    static let tree: JSON = [
        "windows": [["id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100], "children": []]]
    ]

    /// Before the fix this test trapped: removeApp inside a subscriber emitted under the held delivery lock.
    func testRemovingAnAppFromInsideDeliveryDefersItsEvent() throws {
        let hub = Hub(actionTimeout: .seconds(1))
        let streaming = hub.registerApp(name: "streaming", provider: nil)
        let dying = hub.registerApp(name: "dying", provider: nil)
        try hub.setSnapshot(app: streaming, Self.tree)
        let seen = Sink<String>()
        let removedOnce = OneShot()
        // A subscriber that is also a provider and closes during delivery (its removal happens synchronously).
        hub.subscribe { event in
            switch event {
            case .treeChanged(let app, _, _):
                seen.append("tree \(app)")
                if removedOnce.fire() { hub.removeApp(dying) }
            case .appRemoved(let app): seen.append("removed \(app)")
            default: break
            }
        }
        let second = Sink<String>()
        hub.subscribe { event in
            if case .appRemoved(let app) = event { second.append(app) }
        }
        try hub.update(app: streaming, ops: [["op": "set", "id": "w", "properties": ["accessibilityLabel": "x"]]])
        XCTAssertEqual(seen.items, ["tree streaming", "removed dying"])
        XCTAssertEqual(second.items, ["dying"], "every subscriber gets the deferred event once")
        XCTAssertEqual(hub.appIDs, [streaming])
        // Delivery still works afterwards.
        try hub.update(app: streaming, ops: [["op": "set", "id": "w", "properties": ["accessibilityLabel": "y"]]])
        XCTAssertEqual(seen.items.last, "tree streaming")
    }

    /// Emits from many threads while subscribers remove apps mid-delivery: no trap, every removal delivered once.
    func testConcurrentEmitsWithRemovalsDuringDelivery() async throws {
        let hub = Hub(actionTimeout: .seconds(1))
        let streaming = hub.registerApp(name: "streaming", provider: nil)
        try hub.setSnapshot(app: streaming, Self.tree)
        let victims = (0..<40).map { hub.registerApp(name: "victim\($0)", provider: nil) }
        let queue = Mutex(victims)
        let removed = Sink<String>()
        hub.subscribe { event in
            switch event {
            case .treeChanged:
                let victim: String? = queue.withLock { $0.popLast() }
                if let victim { hub.removeApp(victim) }
            case .appRemoved(let app): removed.append(app)
            default: break
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for step in 0..<25 {
                        _ = try? hub.update(
                            app: streaming,
                            ops: [
                                [
                                    "op": "set", "id": "w",
                                    "properties": ["accessibilityLabel": .string("\(worker).\(step)")],
                                ]
                            ]
                        )
                    }
                }
            }
        }
        XCTAssertEqual(Set(removed.items), Set(victims))
        XCTAssertEqual(removed.items.count, victims.count)
    }
}
