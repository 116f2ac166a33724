import AXCore
import AXHub
import AXJSON
import AXTestSupport
import XCTest

/// Issue 19 item 7: an `input.key` whose request was cancelled (its connection closed) while it waited behind
/// another key of the same app still ran when its turn came. It now leaves the queue and never reaches the AT or
/// the app.
final class CancelledKeyTests: XCTestCase {
    func testACancelledQueuedKeyDoesNotRun() async throws {
        let provider = RecordingProvider()
        let hub = Hub(actionTimeout: .seconds(1))
        let app = hub.registerApp(name: "keys", provider: provider)
        try hub.setSnapshot(app: app, KeyInputTests.hierarchy)
        let at = FakeKeyForwarder(holding: true)
        hub.setKeyForwarder(at)
        let first = try XCTUnwrap(Keysyms.symbol(named: "a"))
        let second = try XCTUnwrap(Keysyms.symbol(named: "b"))
        let running = Task {
            try await hub.key(
                app: app, symbol: first, modifiers: [], press: true, release: false, source: KeySource.automation)
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while at.heldCount < 1 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let queued = Task {
            try await hub.key(
                app: app, symbol: second, modifiers: [], press: true, release: false, source: KeySource.automation)
        }
        while hub.keyInput.waitingCount(app) < 1 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertEqual(hub.keyInput.waitingCount(app), 1)
        queued.cancel()
        do {
            _ = try await queued.value
            XCTFail("the cancelled key ran")
        } catch let error as KeyInputError {
            XCTAssertEqual(error, .cancelled(app: app))
        }
        XCTAssertEqual(hub.keyInput.waitingCount(app), 0, "the cancelled key stayed in the queue")
        at.releaseAll()
        _ = try await running.value
        // Only the first key reached the AT; the queue is free for the next key.
        XCTAssertEqual(at.seen.items.map(\.symbol), [first])
        let next = Task {
            try await hub.key(
                app: app, symbol: first, modifiers: [], press: true, release: false, source: KeySource.automation)
        }
        while at.heldCount < 1 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        at.releaseAll()
        _ = try await next.value
        XCTAssertEqual(at.seen.items.count, 2)
    }
}
