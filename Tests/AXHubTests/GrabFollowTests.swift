import AXCore
import AXHub
import AXJSON
import Synchronization
import XCTest

/// An app whose window asks `shouldUpdateFocus` (C12) and holds its first answer until the test releases it, so a
/// focus move can be caught while it waits on the app.
final class HeldFocusApp: ActionProvider {
    let held = Mutex<(first: Bool, release: CheckedContinuation<Void, Never>?, asked: Int)>((true, nil, 0))

    static let snapshot: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
                "focusUpdateRequests": true,
                "children": [
                    ["id": "first", "class": "UIButton", "title": "First", "frame": [10, 10, 100, 44]],
                    ["id": "second", "class": "UIButton", "title": "Second", "frame": [10, 60, 100, 44]],
                    ["id": "third", "class": "UIButton", "title": "Third", "frame": [10, 110, 100, 44]],
                ],
            ]
        ]
    ]

    func perform(_ request: ActionRequest, timeout: Duration) async throws(ActionError) -> Bool {
        guard case .shouldUpdateFocus = request.kind else { return true }
        let holdThisOne = held.withLock { state in
            state.asked += 1
            defer { state.first = false }
            return state.first
        }
        if holdThisOne {
            await withCheckedContinuation { continuation in held.withLock { $0.release = continuation } }
        }
        return true
    }

    var asked: Int { held.withLock { $0.asked } }

    /// Lets the held answer go (once it is held).
    func release() async throws {
        for _ in 0..<500 {
            if let continuation = held.withLock({ state in
                defer { state.release = nil }
                return state.release
            }) {
                continuation.resume()
                return
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        XCTFail("the first shouldUpdateFocus was never asked")
    }
}

/// Keyboard focus follows an assistive technology's GrabFocus (D-FOCUS-8), after the grab's reply. A follow that
/// runs late — after a later grab, while the app was answering — must not pull focus back to where the earlier grab
/// put it: the bridge ran each follow in a task of its own, and one ran last in CI (BridgeActionTests, 2026-11-28).
final class GrabFollowTests: XCTestCase {
    func makeHub(provider: (any ActionProvider)?, snapshot: JSON = HeldFocusApp.snapshot) throws -> (Hub, String) {
        let hub = Hub(actionTimeout: .seconds(5))
        let app = hub.registerApp(name: "grabs", provider: provider)
        _ = try hub.setSnapshot(app: app, snapshot)
        return (hub, app)
    }

    func focuses(_ hub: Hub, _ app: String) throws -> (accessibility: String?, engine: String?) {
        (try hub.snapshot(app).focusedID, try hub.focusContext(app: app).engineFocused)
    }

    func testKeyboardFocusFollowsAGrab() async throws {
        let (hub, app) = try makeHub(provider: nil)
        try hub.setFocus(app: app, element: "second")
        await hub.engineFocusFollowsGrab(app: app, element: "second")
        let now = try focuses(hub, app)
        XCTAssertEqual(now.accessibility, "second")
        XCTAssertEqual(now.engine, "second")
    }

    func testALateFollowOfAnEarlierGrabMovesNothing() async throws {
        let (hub, app) = try makeHub(provider: nil)
        try hub.setFocus(app: app, element: "first")
        try hub.setFocus(app: app, element: "third")
        await hub.engineFocusFollowsGrab(app: app, element: "third")
        // The first grab's follow runs last.
        await hub.engineFocusFollowsGrab(app: app, element: "first")
        let now = try focuses(hub, app)
        XCTAssertEqual(now.accessibility, "third", "a late follow pulled accessibility focus back")
        XCTAssertEqual(now.engine, "third")
    }

    func testAGrabWhileTheAppAnswersWins() async throws {
        let provider = HeldFocusApp()
        let (hub, app) = try makeHub(provider: provider)
        try hub.setFocus(app: app, element: "first")
        let lateFollow = Task { await hub.engineFocusFollowsGrab(app: app, element: "first") }
        // While the app holds its answer for "first", the AT grabs "third", whose follow completes.
        for _ in 0..<500 where provider.asked == 0 { try await Task.sleep(for: .milliseconds(2)) }
        try hub.setFocus(app: app, element: "third")
        await hub.engineFocusFollowsGrab(app: app, element: "third")
        XCTAssertEqual(try focuses(hub, app).engine, "third")
        try await provider.release()
        await lateFollow.value
        let now = try focuses(hub, app)
        XCTAssertEqual(now.accessibility, "third", "the follow the app answered late pulled focus back")
        XCTAssertEqual(now.engine, "third")
        XCTAssertEqual(provider.asked, 2)
    }
}
