import AXJSON
import AXJSONRPC
import AXRPCClient
import AXRPCRouter
import AXTestSupport
import XCTest

@testable import AXTransport
@testable import axbench

#if canImport(Glibc)
    import Glibc
#endif

final class TransportClientTests: XCTestCase {
    func testClientCallsAndErrors() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let client = try await RPCClient.connect("unix:" + dir.file("s.sock"))
        let pong = try await client.call("ping")
        XCTAssertEqual(pong, "pong")
        let sum = try await client.call("add", ["a": 2, "b": 3.5])
        XCTAssertEqual(sum, 5.5)
        do {
            _ = try await client.call("nope")
            XCTFail("expected -32601")
        } catch {
            XCTAssertEqual(error.code, -32601)
            XCTAssertEqual(error.data?["method"], "nope")
        }
        do {
            _ = try await client.call("add", ["a": "x"])
            XCTFail("expected -32602")
        } catch {
            XCTAssertEqual(error.code, -32602)
        }
        await client.close()
        await server.stop()
    }

    func testDeepRepliesReachBothClients() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        var deep: JSON = "leaf"
        for _ in 0..<1050 { deep = .array([deep]) }
        let client = try await RPCClient.connect(dir.file("s.sock"))
        let reply = try await client.call("echo", ["d": deep], timeout: .seconds(10))
        XCTAssertEqual(reply["d"], deep)
        await client.close()
        let path = dir.file("s.sock")
        let ok = try await Task.detached { () throws -> Bool in
            let otherClient = try SyncRPCClient(address: path)
            return try otherClient.call("echo", ["d": deep], timeout: .seconds(10))["d"] == deep
        }.value
        XCTAssertTrue(ok)
        await server.stop()
    }

    func testConcurrentClients() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let path = dir.file("s.sock")
        let totals = try await withThrowingTaskGroup(of: Int.self) { group in
            for current in 0..<8 {
                group.addTask {
                    let client = try await RPCClient.connect(path)
                    var ok = 0
                    try await withThrowingTaskGroup(of: Bool.self) { otherGroup in
                        for i in 0..<200 {
                            otherGroup.addTask {
                                let reply = try await client.call(
                                    "add", ["a": .number(Double(current * 1000 + i)), "b": 1])
                                return reply.intValue == current * 1000 + i + 1
                            }
                        }
                        for try await good in otherGroup where good { ok += 1 }
                    }
                    await client.close()
                    return ok
                }
            }
            var all: [Int] = []
            for try await n in group { all.append(n) }
            return all
        }
        XCTAssertEqual(totals, Array(repeating: 200, count: 8))
        await server.stop()
    }

    func testServerToClientRequestRoundTripAndNotifications() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let client = try await RPCClient.connect(dir.file("s.sock"))
        let seen = ProtocolLocked<[JSON]>([])
        client.onNotification { method, params in
            seen.withLock { $0.append(["method": .string(method), "params": params ?? .null]) }
        }
        client.onRequest { method, params in
            guard method == "client.compute", let xValue = params?["x"]?.doubleValue else {
                throw RPCError.methodNotFound(method)
            }
            return ["y": .number(xValue * 2)]
        }
        let reply = try await client.call("askBack", ["x": 21])
        XCTAssertEqual(reply, ["y": 42], "server asked the client and relayed its answer")

        _ = try await client.call("notifyMe", ["n": 1])
        _ = try await client.call("notifyMe", ["n": 2])
        for _ in 0..<100 where seen.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(
            seen.withLock { $0 },
            [["method": "server.event", "params": ["n": 1]], ["method": "server.event", "params": ["n": 2]]])
        await client.close()
        await server.stop()
    }

    func testNotificationsFromManyThreadsAllArrive() async throws {
        let dir = TransportTempDir()
        let sessions = ProtocolLocked<[RPCSession]>([])
        let server = try await transportStartServer(dir) { otherSession in sessions.withLock { $0.append(otherSession) }
        }
        let client = try await RPCClient.connect(dir.file("s.sock"))
        let got = ProtocolLocked<[Int: Int]>([:])
        client.onNotification { _, params in
            if let elapsed = params?["t"]?.intValue, let index = params?["i"]?.intValue {
                got.withLock { locked in
                    XCTAssertEqual(locked[elapsed, default: 0], index, "per-sender order")
                    locked[elapsed, default: 0] += 1
                }
            }
        }
        _ = try await client.call("ping")
        guard let session = sessions.withLock({ $0.first }) else { return XCTFail("no session") }
        await withTaskGroup(of: Void.self) { group in
            for elapsed in 0..<8 {
                group.addTask {
                    for index in 0..<500 {
                        session.peer.notify("tick", ["t": .number(Double(elapsed)), "i": .number(Double(index))])
                    }
                }
            }
        }
        for _ in 0..<500 where got.withLock({ $0.values.reduce(0, +) }) < 4000 {
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertEqual(got.withLock { $0 }, Dictionary(uniqueKeysWithValues: (0..<8).map { ($0, 500) }))
        await client.close()
        await server.stop()
    }

    func testServerToClientErrorIsRelayed() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let client = try await RPCClient.connect(dir.file("s.sock"))
        client.onRequest { _, _ in throw RPCError.notInteractable("button is disabled") }
        do {
            _ = try await client.call("askBack", ["x": 1])
            XCTFail("expected the client's error")
        } catch {
            XCTAssertEqual(error.code, -32013)
            XCTAssertEqual(error.message, "button is disabled")
        }
        await client.close()
        await server.stop()
    }

    func testServerToClientRequestTimeout() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let client = try await RPCClient.connect(dir.file("s.sock"))
        client.onRequest { _, _ in
            try await Task.sleep(for: .seconds(2))
            return "too late"
        }
        let start = ContinuousClock.now
        do {
            _ = try await client.call("askBack", ["x": 1, "timeoutMs": 100])
            XCTFail("expected a timeout")
        } catch {
            XCTAssertEqual(error.code, -32020)
            XCTAssertEqual(error.data?["reason"], "timeout")
            XCTAssertEqual(error.data?["method"], "client.compute")
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(1.5))
        // The connection still works (the late answer is ignored).
        let pong = try await client.call("ping")
        XCTAssertEqual(pong, "pong")
        await client.close()
        await server.stop()
    }

    func testServerToClientRequestFailsWhenClientDisconnects() async throws {
        let dir = TransportTempDir()
        let sessions = ProtocolLocked<[RPCSession]>([])
        let server = try await transportStartServer(dir) { otherSession in sessions.withLock { $0.append(otherSession) }
        }
        let client = try await RPCClient.connect(dir.file("s.sock"))
        client.onRequest { _, _ in
            try await Task.sleep(for: .seconds(30))
            return 1
        }
        _ = try await client.call("ping")
        guard let session = sessions.withLock({ $0.first }) else { return XCTFail("no session") }
        let pending = Task { () async throws(RPCError) -> JSON in
            try await session.peer.request("client.compute", ["x": 1], timeout: .seconds(20))
        }
        try await Task.sleep(for: .milliseconds(100))
        await client.close()
        let result = await pending.result
        XCTAssertThrowsError(try result.get()) { otherError in
            XCTAssertEqual((otherError as? RPCError)?.code, -32020)
            XCTAssertEqual((otherError as? RPCError)?.data?["reason"], "disconnected")
        }
        for _ in 0..<100 where !session.peer.isClosed { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertTrue(session.peer.isClosed)
        // A request on a closed peer fails at once.
        do {
            _ = try await session.peer.request("x", nil, timeout: .seconds(5))
            XCTFail()
        } catch {
            XCTAssertEqual(error.data?["reason"], "disconnected")
        }
        await server.stop()
    }

    func testClientCallFailsWhenServerStops() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let client = try await RPCClient.connect(dir.file("s.sock"))
        let closed = ProtocolLocked(false)
        client.onClose { closed.withLock { $0 = true } }
        let otherTask = Task { () async throws(RPCError) -> JSON in try await client.call("slow", ["ms": 5000]) }
        try await Task.sleep(for: .milliseconds(100))
        await server.stop()
        let result = await otherTask.result
        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertEqual((error as? RPCError)?.data?["reason"], "disconnected")
        }
        for _ in 0..<100 where !closed.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertTrue(client.isClosed)
    }

    func testConnectErrors() async {
        do {
            _ = try await RPCClient.connect("unix:/nonexistent/dir/x.sock")
            XCTFail()
        } catch {
            XCTAssertTrue("\(error)".contains("cannot connect"), "\(error)")
        }
        do {
            _ = try await RPCClient.connect("bogus")
            XCTFail()
        } catch {
            XCTAssertTrue("\(error)".contains("invalid address"), "\(error)")
        }
    }

    func testTCPClientWithToken() async throws {
        let dir = TransportTempDir()
        let tokenPath = dir.file("tok")
        let file = fopen(tokenPath, "w")
        fputs("abc123\n", file)
        fclose(file)
        chmod(tokenPath, 0o600)
        let server = try await transportStartServer(dir, tcp: "tcp:127.0.0.1:0", tokenFile: tokenPath)
        let client = try await RPCClient.connect("tcp:127.0.0.1:\(server.tcpPort!)")
        let reply = try await client.call("initialize", ["token": "abc123"])
        XCTAssertEqual(reply["server"], "axserver-test")
        let who = try await client.call("whoami")
        XCTAssertEqual(who["authenticated"], true)
        await client.close()
        await server.stop()
    }

    func testSyncClient() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let path = dir.file("s.sock")
        let task = Task.detached { () throws -> [String] in
            let otherClient = try SyncRPCClient(address: "unix:" + path)
            var notes: [String] = []
            otherClient.onNotification = { message, _ in notes.append(message) }
            var out: [String] = []
            out.append(try otherClient.call("ping").stringValue ?? "?")
            out.append(String(try otherClient.call("add", ["a": 1, "b": 2]).intValue ?? -1))
            do {
                _ = try otherClient.call("nope")
                out.append("no error")
            } catch { out.append(String((error as? RPCError)?.code ?? 0)) }
            _ = try otherClient.call("notifyMe", ["n": 5])
            out.append(contentsOf: notes)
            try otherClient.notify("ping")
            do {
                _ = try otherClient.call("slow", ["ms": 2000], timeout: .milliseconds(100))
                out.append("no timeout")
            } catch {
                out.append(String((error as? RPCError)?.code ?? 0))
            }
            otherClient.close()
            do {
                _ = try otherClient.call("ping")
                out.append("no error")
            } catch { out.append((error as? RPCError)?.data?["reason"]?.stringValue ?? "?") }
            return out
        }
        let results = try await task.value
        XCTAssertEqual(results, ["pong", "3", "-32601", "server.event", "-32020", "disconnected"])
        await server.stop()
    }

    func testPipelinedBenchmarkFunction() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let rps = try await TransportBenchmark.pipelined(
            socketPath: dir.file("s.sock"), count: 3000,
            setup: [(method: "initialize", params: nil)])
        XCTAssertGreaterThan(rps, 0)
        // Errors are detected, not counted as throughput.
        do {
            _ = try await TransportBenchmark.pipelined(socketPath: dir.file("s.sock"), count: 100, method: "nope")
            XCTFail("error responses must make the benchmark fail")
        } catch {
            XCTAssertTrue("\(error)".contains("100 of 100 responses were errors"), "\(error)")
        }
        await server.stop()
    }
}
