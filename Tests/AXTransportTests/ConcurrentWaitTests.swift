import AXHub
import AXRPC
import AXTestSupport
import XCTest

@testable import AXTransport

/// Issue 11 item 1 (D-PROTO-1): a pending `wait.for` does not hold back later requests on its own connection, and
/// `$/cancelRequest` ends it with -32800.
final class ConcurrentWaitTests: XCTestCase {
    func testAWaitDoesNotDelayTheConnectionsOtherRequestsAndCanBeCancelled() async throws {
        let dir = TransportTempDir()
        let hub = Hub(actionTimeout: .seconds(1))
        let app = hub.registerApp(name: "waits", provider: nil)
        try hub.setSnapshot(app: app, ["windows": [["id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800]]]])
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let server = try await transportStartServer(dir, router: router)
        let connection = try TransportRawConn(unix: dir.file("s.sock"))
        connection.send(transportRequest("initialize", ["role": "automation"]) + "\n")
        XCTAssertNotNil(connection.readLine()?["result"])

        let clock = ContinuousClock()
        let start = clock.now
        // A wait that cannot succeed for 3 s, then a ping on the same connection.
        connection.send(
            transportRequest(
                "wait.for", ["target": ["selector": "#never"], "state": "attached", "timeoutMs": 3000], id: 10) + "\n")
        connection.send(transportRequest("ping", id: 11) + "\n")
        let first = connection.readLine(timeoutMs: 5000)
        XCTAssertEqual(first?["id"], 11, "the ping's reply should come first: \(String(describing: first))")
        XCTAssertLessThan(clock.now - start, .milliseconds(2500), "the ping waited behind the wait")

        // Cancel the wait: it answers -32800 at once instead of timing out.
        connection.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":10}}"# + "\n")
        let cancelled = connection.readLine(timeoutMs: 5000)
        XCTAssertEqual(cancelled?["id"], 10)
        XCTAssertEqual(cancelled?["error"]?["code"], -32800, "\(String(describing: cancelled))")
        XCTAssertLessThan(clock.now - start, .milliseconds(2900), "the cancelled wait ran to its timeout")

        // A satisfied wait still answers, and ordinary requests keep their order.
        connection.send(
            transportRequest("wait.for", ["target": ["selector": "window"], "state": "attached"], id: 12) + "\n")
        XCTAssertEqual(connection.readLine(timeoutMs: 5000)?["result"]?["satisfied"], true)
        await server.stop()
    }
}
