import AXCore
import AXHub
import AXJSON
import AXTestSupport
import Synchronization
import XCTest

final class HubTests: XCTestCase {
    static let hierarchy = HubTestTrees.guidedAccessSheet

    func makeHub(_ provider: RecordingProvider) throws -> (Hub, String) {
        let hub = Hub(actionTimeout: .seconds(1))
        let app = hub.registerApp(name: "t", provider: provider)
        try hub.setSnapshot(app: app, Self.hierarchy)
        return (hub, app)
    }

    /// X32: escape is tried on the element, then each ancestor, then the app, until one handles it.
    func testEscapeBubblesUpToTheApp() async throws {
        let provider = RecordingProvider { $0.target == "" }
        let (hub, app) = try makeHub(provider)
        let handled = try await hub.perform(app: app, element: "ok", action: .escape)
        XCTAssertTrue(handled)
        XCTAssertEqual(provider.requests.map(\.target), ["ok", "sheet", "w", ""])
    }

    /// X33: magic tap stops at the first handler.
    func testMagicTapStopsAtFirstHandler() async throws {
        let provider = RecordingProvider { $0.target == "sheet" }
        let (hub, app) = try makeHub(provider)
        let handled = try await hub.perform(app: app, element: "ok", action: .magicTap)
        XCTAssertTrue(handled)
        XCTAssertEqual(provider.requests.map(\.target), ["ok", "sheet"])
    }

    /// R83: a denied restriction blocks the action before it reaches the app; allowing it again restores it (R82).
    func testDeniedRestrictionBlocksEveryAction() async throws {
        let provider = RecordingProvider()
        let (hub, app) = try makeHub(provider)
        try hub.setRestriction(app: app, id: "org.test.sheet", denied: true)
        for action in [ElementAction.activate, .increment, .escape] {
            let el = action == .increment ? "slider" : "ok"
            do {
                _ = try await hub.perform(app: app, element: el, action: action)
                XCTFail("\(action) was not blocked")
            } catch {
                XCTAssertEqual(error, .policyDenied(restriction: "org.test.sheet", text: "Sheet controls"))
            }
        }
        XCTAssertTrue(provider.requests.isEmpty, "a blocked action reached the app")
        try hub.setRestriction(app: app, id: "org.test.sheet", denied: false)
        let ok = try await hub.perform(app: app, element: "ok", action: .activate)
        XCTAssertTrue(ok)
        XCTAssertEqual(provider.requests.count, 1)
    }

    func testUnknownRestrictionIsRefused() throws {
        let (hub, app) = try makeHub(RecordingProvider())
        XCTAssertThrowsError(try hub.setRestriction(app: app, id: "nope", denied: true))
    }

    /// An action the element does not support is refused with the supported list.
    func testUnsupportedAction() async throws {
        let (hub, app) = try makeHub(RecordingProvider())
        do {
            _ = try await hub.perform(app: app, element: "ok", action: .increment)
            XCTFail("expected notSupported")
        } catch {
            guard case .notSupported(let first, let supported) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(first, "increment")
            XCTAssertTrue(supported.contains("activate"))
        }
    }

    /// R119: one focused element per app; moving focus emits from/to; a focused element that leaves the tree loses focus.
    func testFocusFollowsTheTree() throws {
        let (hub, app) = try makeHub(RecordingProvider())
        let sink = Sink<(String?, String?)>()
        hub.subscribe { error in
            if case .focusChanged(_, let fixture, let elapsed) = error { sink.append((fixture, elapsed)) }
        }
        try hub.setFocus(app: app, element: "ok")
        try hub.setFocus(app: app, element: "slider")
        XCTAssertEqual(try hub.snapshot(app).focusedID, "slider")
        try hub.update(app: app, ops: [["op": "remove", "id": "slider"]])
        XCTAssertNil(try hub.snapshot(app).focusedID)
        let got = sink.items
        XCTAssertEqual(got.map(\.0), [nil, "ok", "slider"])
        XCTAssertEqual(got.map(\.1), ["ok", "slider", nil])
        XCTAssertThrowsError(try hub.setFocus(app: app, element: "nope"))
    }

    /// Waits are woken by commits, and time out when nothing changes.
    func testAwaitChangeWakesOnCommitAndTimesOut() async throws {
        let (hub, app) = try makeHub(RecordingProvider())
        let rev = try hub.snapshot(app).revision
        let clock = ContinuousClock()
        let t0 = clock.now
        let none = await hub.awaitChange(app: app, after: rev, timeout: .milliseconds(50))
        XCTAssertNil(none)
        XCTAssertGreaterThanOrEqual(clock.now - t0, .milliseconds(45))
        async let woke = hub.awaitChange(app: app, after: rev, timeout: .seconds(10))
        try await Task.sleep(for: .milliseconds(20))
        try hub.update(app: app, ops: [["op": "set", "id": "ok", "properties": ["title": "Fine"]]])
        let result = await woke
        XCTAssertEqual(result, rev + 1)
        XCTAssertLessThan(clock.now - t0, .seconds(5))
    }

    /// Issue 12 item 2: a waiter woken by a commit leaves no timeout timer behind. Drives many revisions while
    /// one waiter (looping like `wait.for`, with a long timeout) is pending; the live timers and the registered
    /// waiters must stay bounded instead of growing by one per revision.
    func testWokenWaitsLeaveNoTimersBehind() async throws {
        let (hub, app) = try makeHub(RecordingProvider())
        let revisions = 300
        for index in 0..<revisions {
            let revision = try hub.snapshot(app).revision
            async let woke = hub.awaitChange(app: app, after: revision, timeout: .seconds(60), includeFocus: true)
            while hub.registeredWaiterCount == 0 { await Task.yield() }
            try hub.update(app: app, ops: [["op": "set", "id": "ok", "properties": ["title": .string("T\(index)")]]])
            let woken = await woke
            XCTAssertEqual(woken, revision + 1)
        }
        XCTAssertEqual(hub.registeredWaiterCount, 0)
        // Cancelled timers finish promptly; allow the executor a moment to run them.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while hub.pendingWaitTimerCount > 0 && clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(hub.pendingWaitTimerCount, 0, "timeout timers of woken waits are still alive")
    }

    /// A removed app wakes its waiters and leaves the hub.
    func testRemovingAnAppWakesWaiters() async throws {
        let (hub, app) = try makeHub(RecordingProvider())
        let rev = try hub.snapshot(app).revision
        async let woke = hub.awaitChange(app: app, after: rev, timeout: .seconds(10))
        try await Task.sleep(for: .milliseconds(20))
        hub.removeApp(app)
        let result = await woke
        XCTAssertNil(result)
        XCTAssertFalse(hub.appIDs.contains(app))
    }

    /// A failed patch leaves revision and tree as they were and emits nothing.
    func testFailedPatchChangesNothing() throws {
        let (hub, app) = try makeHub(RecordingProvider())
        let before = try hub.snapshot(app)
        let count = Sink<Int>()
        hub.subscribe { _ in count.append(1) }
        XCTAssertThrowsError(
            try hub.update(
                app: app,
                ops: [
                    ["op": "set", "id": "ok", "properties": ["title": "Changed"]],
                    ["op": "move", "id": "sheet", "parent": "ok"],
                ]))
        let after = try hub.snapshot(app)
        XCTAssertEqual(after.revision, before.revision)
        XCTAssertEqual(after.tree["ok"]?.label, "OK")
        XCTAssertEqual(count.items.count, 0)
    }
}
