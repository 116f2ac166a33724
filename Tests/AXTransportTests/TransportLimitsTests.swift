import AXJSON
import AXRPCRouter
import AXTestSupport
import AXWire
import NIOPosix
import Synchronization
import XCTest

@testable import AXTransport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 12 item 6: back-pressure, timeouts, the connection limit and fairness between connections.
final class TransportLimitsTests: XCTestCase {
    func startServer(
        _ dir: TransportTempDir, router: RPCRouter = transportTestRouter(), limits: RPCConnectionLimits,
        tcp: String? = nil, tokenFile: String? = nil, group: MultiThreadedEventLoopGroup? = nil,
        onSession: (@Sendable (RPCSession) -> Void)? = nil
    ) async throws -> RPCServer {
        let configuration = RPCServer.Configuration(
            unixSocketPath: dir.file("s.sock"), tcp: tcp, tokenFile: tokenFile, limits: limits)
        let server = RPCServer(router: router, configuration: configuration, group: group, onSession: onSession)
        try await server.start()
        return server
    }

    func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    /// A subscriber that never reads is closed once its pending notifications pass the output limit, instead
    /// of making the server buffer them without end.
    func testSubscriberThatNeverReadsIsClosedAsASlowConsumer() async throws {
        let dir = TransportTempDir()
        let sessions = ProtocolLocked<[RPCSession]>([])
        let limits = RPCConnectionLimits(maxPendingOutputBytes: 256 << 10)
        let server = try await startServer(dir, limits: limits) { otherSession in
            sessions.withLock { $0.append(otherSession) }
        }
        let reader = try TransportRawConn(unix: dir.file("s.sock"))
        reader.send(transportRequest("ping") + "\n")
        XCTAssertEqual(reader.readLine()?["result"], "pong")
        guard let session = sessions.withLock({ $0.first }) else { return XCTFail("no session") }
        // ~40 MiB of events the client never reads.
        let text = String(repeating: "x", count: 16 << 10)
        for index in 0..<2500 where !session.peer.isClosed {
            session.peer.notify("server.event", ["n": .number(Double(index)), "text": .string(text)])
            if index % 100 == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        for _ in 0..<500 where !session.peer.isClosed { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertTrue(session.peer.isClosed, "a subscriber that never reads must be disconnected")
        // Others are unaffected.
        let other = try TransportRawConn(unix: dir.file("s.sock"))
        other.send(transportRequest("ping") + "\n")
        XCTAssertEqual(other.readLine()?["result"], "pong")
        await server.stop()
    }

    /// A client that sends requests with large replies and never reads them gets only as many answered as fit
    /// in the output limit (plus the kernel's socket buffers); the rest wait, unread, until it reads.
    func testRepliesStopBeingProducedWhileTheClientDoesNotRead() async throws {
        let dir = TransportTempDir()
        let router = transportTestRouter()
        let answered = ProtocolLocked(0)
        let reply = String(repeating: "y", count: 16 << 10)
        router.registerSync("big", requiresInit: false) { _, _ in
            answered.withLock { $0 += 1 }
            return .string(reply)
        }
        let limits = RPCConnectionLimits(maxPendingOutputBytes: 64 << 10)
        let server = try await startServer(dir, router: router, limits: limits)
        let hog = try TransportRawConn(unix: dir.file("s.sock"))
        setNonBlocking(hog.fd)
        var burst = ""
        for index in 0..<2000 { burst += transportRequest("big", id: .number(Double(index))) + "\n" }
        let bytes = Array(burst.utf8)
        var offset = 0
        let start = ContinuousClock.now
        while offset < bytes.count && ContinuousClock.now - start < .seconds(3) {
            let sent = bytes[offset...].withUnsafeBytes { send(hog.fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 { offset += sent } else { try await Task.sleep(for: .milliseconds(5)) }
        }
        try await Task.sleep(for: .milliseconds(500))
        let count = answered.withLock { $0 }
        // Kernel buffers of a Unix socket pair hold a few hundred KiB; 100 replies are 1.6 MiB.
        XCTAssertLessThan(count, 100, "\(count) replies of 16 KiB were produced for a client that reads none")
        XCTAssertGreaterThan(count, 0)
        // Reading resumes the connection: every request is eventually answered, in order.
        let flags = fcntl(hog.fd, F_GETFL)
        _ = fcntl(hog.fd, F_SETFL, flags & ~O_NONBLOCK)
        let fd = hog.fd
        let rest = Array(bytes[offset...])
        let writer = Task.detached {
            _ = rest.withUnsafeBytes { POSIX.writeAll(fd, $0) }
        }
        var lastID: JSON?
        for _ in 0..<2000 {
            guard let line = hog.readLine(timeoutMs: 5000) else { break }
            lastID = line["id"]
        }
        await writer.value
        XCTAssertEqual(lastID, 1999)
        XCTAssertEqual(answered.withLock { $0 }, 2000)
        await server.stop()
    }

    /// A frame that never completes does not hold its buffer forever.
    func testIncompleteFrameTimesOut() async throws {
        let dir = TransportTempDir()
        let limits = RPCConnectionLimits(partialFrameTimeout: .milliseconds(300))
        let server = try await startServer(dir, limits: limits)
        let conn = try TransportRawConn(unix: dir.file("s.sock"))
        conn.send(transportRequest("ping") + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"pi"#)
        XCTAssertEqual(conn.readLine()?["result"], "pong")
        let error = conn.readLine(timeoutMs: 3000)
        XCTAssertEqual(error?["error"]?["code"], -32021)
        XCTAssertEqual(error?["error"]?["data"]?["limit"], "partialFrameTimeout")
        XCTAssertTrue(conn.waitClosed())
        // A connection that completes its frames in time stays open past the timeout.
        let steady = try TransportRawConn(unix: dir.file("s.sock"))
        for index in 0..<4 {
            steady.send(#"{"jsonrpc":"2.0","id":\#(index),"#)
            try await Task.sleep(for: .milliseconds(150))
            steady.send(#""method":"ping"}"# + "\n")
            XCTAssertEqual(steady.readLine()?["result"], "pong")
        }
        await server.stop()
    }

    /// A TCP connection that never authenticates is closed after the authentication timeout; one that did stays.
    func testUnauthenticatedTCPConnectionTimesOut() async throws {
        let dir = TransportTempDir()
        let tokenPath = dir.file("token")
        let file = fopen(tokenPath, "w")
        fputs("sekret\n", file)
        fclose(file)
        chmod(tokenPath, 0o600)
        let limits = RPCConnectionLimits(authenticationTimeout: .milliseconds(300))
        let server = try await startServer(dir, limits: limits, tcp: "tcp:127.0.0.1:0", tokenFile: tokenPath)
        let port = try XCTUnwrap(server.tcpPort)
        let idle = try TransportRawConn(tcpPort: port)
        let good = try TransportRawConn(tcpPort: port)
        good.send(transportRequest("initialize", ["token": "sekret"]) + "\n")
        XCTAssertNotNil(good.readLine()?["result"])
        let error = idle.readLine(timeoutMs: 3000)
        XCTAssertEqual(error?["error"]?["code"], -32019)
        XCTAssertEqual(error?["error"]?["data"]?["limit"], "authenticationTimeout")
        XCTAssertTrue(idle.waitClosed())
        try await Task.sleep(for: .milliseconds(300))
        good.send(transportRequest("whoami", id: 2) + "\n")
        XCTAssertEqual(good.readLine()?["result"]?["authenticated"], true)
        await server.stop()
    }

    /// One connection over the limit gets a clear refusal; a freed slot can be used again.
    func testConnectionLimit() async throws {
        let dir = TransportTempDir()
        let server = try await startServer(dir, limits: RPCConnectionLimits(maxConnections: 3))
        var open: [TransportRawConn] = []
        for _ in 0..<3 {
            let conn = try TransportRawConn(unix: dir.file("s.sock"))
            conn.send(transportRequest("ping") + "\n")
            XCTAssertEqual(conn.readLine()?["result"], "pong")
            open.append(conn)
        }
        let extra = try TransportRawConn(unix: dir.file("s.sock"))
        let refusal = extra.readLine(timeoutMs: 3000)
        XCTAssertEqual(refusal?["error"]?["code"], -32017)
        XCTAssertEqual(refusal?["error"]?["data"]?["limit"], "maxConnections")
        XCTAssertTrue(extra.waitClosed())
        XCTAssertEqual(server.connectionCount, 3)
        open.removeLast()
        for _ in 0..<300 where server.connectionCount > 2 { try await Task.sleep(for: .milliseconds(10)) }
        let again = try TransportRawConn(unix: dir.file("s.sock"))
        again.send(transportRequest("ping") + "\n")
        XCTAssertEqual(again.readLine()?["result"], "pong")
        await server.stop()
    }

    /// A burst of expensive synchronous requests on one connection does not hold the event loop: another
    /// connection on the same loop is answered while the burst is still being worked through.
    func testBurstOnOneConnectionDoesNotStarveAnother() async throws {
        let dir = TransportTempDir()
        let router = transportTestRouter()
        router.registerSync("spin", requiresInit: false) { _, _ in
            let until = ContinuousClock.now + .milliseconds(2)
            while ContinuousClock.now < until {}
            return true
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await startServer(dir, router: router, limits: RPCConnectionLimits(), group: group)
        let hog = try TransportRawConn(unix: dir.file("s.sock"))
        let other = try TransportRawConn(unix: dir.file("s.sock"))
        other.send(transportRequest("ping") + "\n")
        XCTAssertEqual(other.readLine()?["result"], "pong")
        // 500 × 2 ms = 1 s of work in one write.
        var burst = ""
        for index in 0..<500 { burst += transportRequest("spin", id: .number(Double(index))) + "\n" }
        hog.send(burst)
        try await Task.sleep(for: .milliseconds(50))
        let clock = ContinuousClock()
        let start = clock.now
        other.send(transportRequest("ping", id: 2) + "\n")
        XCTAssertEqual(other.readLine()?["result"], "pong")
        let latency = clock.now - start
        XCTAssertLessThan(latency, .milliseconds(250), "the other client waited \(latency) behind one client's burst")
        var answered = 0
        while hog.readLine(timeoutMs: 3000) != nil {
            answered += 1
            if answered == 500 { break }
        }
        XCTAssertEqual(answered, 500)
        await server.stop()
        try await group.shutdownGracefully()
    }
}
