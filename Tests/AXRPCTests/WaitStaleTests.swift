import AXHub
import AXJSON
import AXJSONRPC
import AXTestSupport
import XCTest

@testable import AXRPC

/// Issue 30 item 9 (D-WAIT-STALE-1): a `wait.for` on an element that left the tree ends at once with a typed
/// stale-element error instead of waiting its whole timeout (MCP `wait_for` by ref goes through it).
final class WaitStaleTests: XCTestCase {
    static func call(_ router: RPCRouter, _ session: RPCSession, _ id: Int, _ method: String, _ params: JSON)
        async throws -> JSON
    {
        let frame = JSON.object(["jsonrpc": "2.0", "id": JSON(id), "method": .string(method), "params": params])
        let reply = await router.handle(frame: Array(frame.jsonString.utf8), session: session)
        return try JSON.parse(try XCTUnwrap(reply))
    }

    func session() -> RPCSession {
        let session = RPCSession(peer: ProtocolFakePeer())
        session.initialized = true
        return session
    }

    func testAWaitOnARemovedElementEndsAtOnce() async throws {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let provider = session()
        _ = try await Self.call(router, provider, 1, "app.register", ["name": "w"])
        _ = try await Self.call(router, provider, 2, "hierarchy.set", ReRegistrationTests.tree("Before"))
        let automation = session()
        let params: JSON = [
            "app": "w", "target": ["id": "title"], "state": "value", "value": "never", "timeoutMs": 20_000,
        ]
        let started = ContinuousClock.now
        async let waiting = Self.call(router, automation, 3, "wait.for", params)
        try await Task.sleep(for: .milliseconds(100))
        _ = try await Self.call(router, provider, 4, "hierarchy.update", ["ops": [["op": "remove", "id": "title"]]])
        let reply = try await waiting
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "the wait ran on after its element left")
        XCTAssertEqual(reply["error"]?["code"]?.intValue, RPCError.Code.staleElement, "\(reply)")
        XCTAssertEqual(reply["error"]?["data"]?["waitedFor"], "value")

        // Already gone when the wait starts: answered at once; states its absence satisfies still hold.
        let again = try await Self.call(router, automation, 5, "wait.for", params)
        XCTAssertEqual(again["error"]?["code"]?.intValue, RPCError.Code.staleElement, "\(again)")
        let detached = try await Self.call(
            router, automation, 6, "wait.for", ["app": "w", "target": ["id": "title"], "state": "detached"])
        XCTAssertEqual(detached["result"]?["satisfied"], true, "\(detached)")
    }
}
