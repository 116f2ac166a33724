import AXCore
import AXHub
import AXJSON
import AXTestSupport
import Synchronization
import XCTest

/// The hub's key path (D-KEY-2…4): the AT first, then the server's rule or the app; one key at a time per app
/// and a bounded queue.
final class KeyInputTests: XCTestCase {
    static let hierarchy: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
                "children": [
                    ["id": "b1", "class": "UIButton", "title": "One", "frame": [20, 100, 100, 44]],
                    ["id": "b2", "class": "UIButton", "title": "Two", "frame": [200, 100, 100, 44]],
                ],
            ]
        ]
    ]

    func makeHub(_ provider: RecordingProvider) throws -> (Hub, String) {
        let hub = Hub(actionTimeout: .seconds(1))
        let app = hub.registerApp(name: "keys", provider: provider)
        try hub.setSnapshot(app: app, Self.hierarchy)
        return (hub, app)
    }

    func key(_ name: String) throws -> KeySymbol { try XCTUnwrap(Keysyms.symbol(named: name)) }

    func testAConsumedKeyStopsAtTheAT() async throws {
        let provider = RecordingProvider()
        let (hub, app) = try makeHub(provider)
        try hub.setServerHandlesNavigation(app: app, true)
        let at = FakeKeyForwarder { $0.symbol.name == "Tab" && $0.pressed ? .consumed : .notConsumed }
        hub.setKeyForwarder(at)
        let outcome = try await hub.key(
            app: app, symbol: try key("Tab"), modifiers: [], press: true, release: true, source: .automation)
        XCTAssertEqual(outcome.consumed, true)
        XCTAssertEqual(outcome.handledBy, "assistive-technology")
        XCTAssertEqual(at.seen.items.map(\.pressed), [true, false], "the AT sees the press, then the release")
        XCTAssertEqual(try hub.focusContext(app: app).engineFocused, nil, "a consumed Tab moves nothing")
        XCTAssertEqual(provider.requests, [])
        // Not consumed: the server's rule moves focus (the app opted in).
        let moved = try await hub.key(
            app: app, symbol: try key("Right"), modifiers: [], press: true, release: true, source: .automation)
        XCTAssertEqual(moved.handledBy, "server")
        XCTAssertEqual(moved.focus, "b1", "no focused item: the first move gives the initial focus (C6)")
    }

    /// A toolkit acts on the press and only then sends the release (D-KEY-3): the server's rule must not wait for
    /// the AT's answer to the release, which would add a second registry round trip to every Tab.
    func testTheServerActsOnThePressBeforeTheReleaseIsOffered() async throws {
        let (hub, app) = try makeHub(RecordingProvider())
        try hub.setServerHandlesNavigation(app: app, true)
        let focusWhenReleaseOffered = Sink<String>()
        let at = FakeKeyForwarder { forwarded in
            if !forwarded.pressed {
                let focused = (try? hub.focusContext(app: app))?.engineFocused
                focusWhenReleaseOffered.append(focused ?? "none")
            }
            return .notConsumed
        }
        hub.setKeyForwarder(at)
        let outcome = try await hub.key(
            app: app, symbol: try key("Tab"), modifiers: [], press: true, release: true, source: .automation)
        XCTAssertEqual(outcome.handledBy, "server")
        XCTAssertEqual(outcome.focus, "b1")
        XCTAssertEqual(at.seen.items.map(\.pressed), [true, false], "the AT still sees the press, then the release")
        XCTAssertEqual(focusWhenReleaseOffered.items, ["b1"], "focus had moved when the release was offered")
    }

    func testNoListenerMeansNothingIsForwarded() async throws {
        let (hub, app) = try makeHub(RecordingProvider())
        let at = FakeKeyForwarder(listening: false) { _ in .consumed }
        hub.setKeyForwarder(at)
        let outcome = try await hub.key(
            app: app, symbol: try key("h"), modifiers: [], press: true, release: true, source: .provider)
        XCTAssertEqual(outcome.answers, [.noListener, .noListener])
        XCTAssertEqual(outcome.handledBy, "app", "a provider's own key goes back to it")
        XCTAssertEqual(at.seen.items, [])
    }

    func testATimeoutCountsAsNotConsumed() async throws {
        let provider = RecordingProvider { _ in false }
        let (hub, app) = try makeHub(provider)
        hub.setKeyForwarder(FakeKeyForwarder { _ in .timedOut })
        let outcome = try await hub.key(
            app: app, symbol: try key("a"), modifiers: [.shift], press: true, release: false, source: .automation)
        XCTAssertEqual(outcome.consumed, false)
        XCTAssertEqual(outcome.handledBy, "none", "the app answered false")
        XCTAssertEqual(provider.requests.map(\.action), ["key"])
        XCTAssertEqual(provider.requests.first?.value?["phase"], "press")
        XCTAssertEqual(provider.requests.first?.value?["modifiers"], ["shift"])
    }

    func testKeysOfOneAppRunInOrderAndAFloodIsRefused() async throws {
        let (hub, app) = try makeHub(RecordingProvider())
        let at = FakeKeyForwarder(holding: true)
        hub.setKeyForwarder(at)
        let symbol = try key("a")
        let limit = KeyInputState.queueLimit
        let results = Sink<Result<KeyOutcome, any Error>>()
        var tasks: [Task<Void, Never>] = []
        // One running (held by the AT) and `limit` waiting.
        for _ in 0...limit {
            tasks.append(
                Task {
                    do {
                        let outcome = try await hub.key(
                            app: app, symbol: symbol, modifiers: [], press: true, release: false, source: .automation)
                        results.append(.success(outcome))
                    } catch {
                        results.append(.failure(error))
                    }
                })
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while (at.heldCount < 1 || hub.keyInput.waitingCount(app) < limit) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertEqual(at.heldCount, 1, "keys of one app run one at a time")
        XCTAssertEqual(hub.keyInput.waitingCount(app), limit)
        do {
            _ = try await hub.key(
                app: app, symbol: symbol, modifiers: [], press: true, release: false, source: .automation)
            XCTFail("the key past the queue limit must be refused")
        } catch let error as KeyInputError {
            XCTAssertEqual(error, .busy(app: app, waiting: limit))
        }
        // Another app is not held up by this one.
        let other = hub.registerApp(name: "other", provider: RecordingProvider())
        try hub.setSnapshot(app: other, Self.hierarchy)
        let otherTask = Task {
            try await hub.key(
                app: other, symbol: symbol, modifiers: [], press: true, release: false, source: .automation)
        }
        while at.heldCount < 2 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        XCTAssertEqual(at.heldCount, 2, "the other app's key reached the AT while the first app's queue was full")
        // Release the AT: every queued key finishes.
        while results.items.count < limit + 1 && ContinuousClock.now < deadline {
            at.releaseAll()
            try await Task.sleep(for: .milliseconds(5))
        }
        for task in tasks { await task.value }
        _ = try await otherTask.value
        XCTAssertEqual(results.items.count, limit + 1)
        XCTAssertTrue(results.items.allSatisfy { if case .success = $0 { return true } else { return false } })
        XCTAssertEqual(hub.keyInput.waitingCount(app), 0)
    }
}
