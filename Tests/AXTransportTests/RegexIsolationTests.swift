import AXHub
import AXJSON
import AXRPC
import AXTestSupport
import NIOPosix
import XCTest

@testable import AXTransport

/// Issue 12 item 5 on the real transport: regex queries neither freeze the server nor hold up other clients.
final class RegexIsolationTests: XCTestCase {
    func testPingIsAnsweredWhileRegexQueriesRunOnOtherConnections() async throws {
        let dir = TransportTempDir()
        // One event loop: every connection shares it, so a query run on the loop would delay the ping.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let hub = Hub(actionTimeout: .seconds(1))
        let app = hub.registerApp(name: "long", provider: nil)
        let label = String(repeating: "b", count: 60_000)
        try hub.setSnapshot(
            app: app,
            [
                "windows": [
                    [
                        "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                        "children": [
                            ["id": "t", "class": "UILabel", "frame": [0, 0, 400, 40], "text": .string(label)]
                        ],
                    ]
                ]
            ])
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let server = RPCServer(router: router, configuration: .init(unixSocketPath: dir.file("s.sock")), group: group)
        try await server.start()

        let catastrophic = try TransportRawConn(unix: dir.file("s.sock"))
        let heavy = try TransportRawConn(unix: dir.file("s.sock"))
        let pinger = try TransportRawConn(unix: dir.file("s.sock"))
        for current in [catastrophic, heavy, pinger] {
            current.send(transportRequest("initialize", ["role": "automation"]) + "\n")
            XCTAssertNotNil(current.readLine()?["result"])
        }
        let clock = ContinuousClock()
        let start = clock.now
        // The query (exponential for a backtracking engine), and one that keeps ~100 threads alive per
        // character: seconds of matching in a debug build.
        catastrophic.send(
            transportRequest("query.find", ["app": .string(app), "selector": "*[label~=/(.+)+X/]"], id: 1) + "\n")
        heavy.send(
            transportRequest("query.count", ["app": .string(app), "selector": "*[label~=/.{0,100}Z/]"], id: 2) + "\n")
        try await Task.sleep(for: .milliseconds(30))
        let pingSent = clock.now
        pinger.send(transportRequest("ping", id: 3) + "\n")
        let pong = pinger.readLine(timeoutMs: 10_000)
        let pingTime = clock.now - pingSent
        XCTAssertEqual(pong?["result"], "pong")
        let first = catastrophic.readLine(timeoutMs: 60_000)
        let firstTime = clock.now - start
        let second = heavy.readLine(timeoutMs: 60_000)
        let secondTime = clock.now - start
        print(
            "ping answered in \(pingTime); (.+)+X over 60,000 characters answered after \(firstTime); .{0,100}Z after \(secondTime)"
        )
        XCTAssertEqual(first?["result"]?["count"], 0, "\(String(describing: first))")
        // A result, or the typed budget error: never a hang, never -32603.
        if let error = second?["error"] {
            XCTAssertEqual(error["code"], -32015, "\(error)")
            XCTAssertEqual(error["data"]?["reason"], "regex too expensive")
        } else {
            XCTAssertEqual(second?["result"]?["count"], 0, "\(String(describing: second))")
        }
        // Before the regex left the event loop the ping waited 3.59 s; quiet, it takes ~6 ms. Room for a loaded machine.
        XCTAssertLessThan(pingTime, .milliseconds(1500), "the ping waited behind the regex queries")
        XCTAssertLessThan(pingTime, secondTime)
        await server.stop()
        try await group.shutdownGracefully()
    }
}
