import AXHub
import AXJSON
import AXTestSupport
import Foundation
import XCTest

@testable import AXRPC

/// Issue 19 item 3 (D-REL-3): a pending `wait.for` holds O(1) memory however many revisions it wakes on. What
/// grew was one timeout timer (a sleeping task, ~1.5 KB, freed only at its deadline even when cancelled) per
/// revision; the wait now has one timer for its whole life.
final class WaitMemoryTests: XCTestCase {
    func testAWaitOverManyRevisionsStartsOneTimer() async throws {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let app = hub.registerApp(name: "patching", provider: nil)
        try hub.setSnapshot(
            app: app,
            ["windows": [["id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100], "accessibilityLabel": "0"]]])
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let session = RPCSession(peer: ProtocolFakePeer())
        session.initialized = true
        session.role = "automation"
        let frame =
            ##"{"jsonrpc":"2.0","id":1,"method":"wait.for","params":{"app":"patching","target":{"selector":"#never"},"timeoutMs":60000}}"##
        let waiting = Task { await router.handle(frame: Array(frame.utf8), session: session) }
        while hub.registeredWaiterCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let rounds = 300
        for index in 1...rounds {
            try hub.update(
                app: app, ops: [["op": "set", "id": "w", "properties": ["accessibilityLabel": .string("\(index)")]]])
            // Let the wait take its next round before the next patch.
            let clock = ContinuousClock()
            let giveUp = clock.now + .seconds(5)
            while hub.registeredWaiterCount == 0 && clock.now < giveUp { await Task.yield() }
        }
        XCTAssertEqual(hub.startedWaitTimerCount, 1, "a wait started a timer per revision")
        XCTAssertEqual(hub.pendingWaitTimerCount, 1)
        waiting.cancel()
        let replyBytes = await waiting.value
        let reply = try JSON.parse(try XCTUnwrap(replyBytes))
        XCTAssertEqual(reply["error"]?["code"], -32800)
        XCTAssertEqual(hub.pendingWaitTimerCount, 0, "the wait's timer outlived it")
        XCTAssertEqual(hub.registeredWaiterCount, 0)
    }

    /// The deadline still ends a wait that is woken often: the timeout answer comes on time.
    func testARepeatedlyWokenWaitStillTimesOut() async throws {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let app = hub.registerApp(name: "patching", provider: nil)
        try hub.setSnapshot(app: app, ["windows": [["id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100]]]])
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let session = RPCSession(peer: ProtocolFakePeer())
        session.initialized = true
        session.role = "automation"
        let frame =
            ##"{"jsonrpc":"2.0","id":1,"method":"wait.for","params":{"app":"patching","target":{"selector":"#never"},"timeoutMs":300}}"##
        let clock = ContinuousClock()
        let start = clock.now
        let waiting = Task { await router.handle(frame: Array(frame.utf8), session: session) }
        let patcher = Task {
            var index = 0
            while !Task.isCancelled {
                index += 1
                _ = try? hub.update(
                    app: app,
                    ops: [["op": "set", "id": "w", "properties": ["accessibilityLabel": .string("\(index)")]]])
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        let replyBytes = await waiting.value
        let reply = try JSON.parse(try XCTUnwrap(replyBytes))
        patcher.cancel()
        XCTAssertEqual(reply["error"]?["data"]?["waitedFor"], "attached", "\(reply)")
        XCTAssertLessThan(clock.now - start, .seconds(3))
        XCTAssertEqual(hub.startedWaitTimerCount, 1)
    }
}
