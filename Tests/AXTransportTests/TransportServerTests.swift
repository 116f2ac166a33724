import AXJSON
import AXRPCClient
import AXRPCRouter
import AXTestSupport
import Synchronization
import XCTest

@testable import AXTransport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

final class TransportServerTests: XCTestCase {
    // MARK: framing

    func testNDJSONRequestsAndBlankLines() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        defer { Task { await server.stop() } }
        let connection = try TransportRawConn(unix: dir.file("s.sock"))
        connection.send("\n  \n" + transportRequest("ping") + "\r\n")
        let line = connection.readLine()
        XCTAssertEqual(line?["id"], 1)
        XCTAssertEqual(line?["result"], "pong")
        connection.send(transportRequest("echo", ["a": "é😀"], id: "x") + "\n")
        XCTAssertEqual(connection.readLine()?["result"], ["a": "é😀"])
        await server.stop()
    }

    func testLSPFraming() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let connection = try TransportRawConn(unix: dir.file("s.sock"))
        let body1 = transportRequest("ping", id: 1)
        let body2 = transportRequest("echo", [1, "ü"], id: 2)
        // Two messages in one write; other headers allowed; header names case-insensitive.
        connection.send(
            "Content-Length: \(body1.utf8.count)\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n\(body1)"
                + "content-length: \(body2.utf8.count)\r\n\r\n\(body2)")
        let m1 = connection.readLSP()
        XCTAssertEqual(m1?.body["result"], "pong")
        XCTAssertTrue(m1?.header.hasPrefix("Content-Length: ") ?? false, "replies use LSP framing")
        let m2 = connection.readLSP()
        XCTAssertEqual(m2?.body["id"], 2)
        XCTAssertEqual(m2?.body["result"], [1, "ü"])
        // Content-Length counts bytes, not characters.
        XCTAssertEqual(Int(m2!.header.split(separator: " ")[1]), Array(m2!.body.serialized()).count)
        await server.stop()
    }

    func testPartialFramesAcrossReads() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        // NDJSON, byte by byte.
        let connection = try TransportRawConn(unix: dir.file("s.sock"))
        let msg = Array((transportRequest("echo", ["k": "vé"], id: 7) + "\n").utf8)
        for second in msg {
            connection.send([second])
            try await Task.sleep(for: .microseconds(200))
        }
        XCTAssertEqual(connection.readLine()?["result"], ["k": "vé"])
        // LSP, split inside the header and inside the body.
        let otherConnection = try TransportRawConn(unix: dir.file("s.sock"))
        let body = transportRequest("ping", id: 8)
        let whole = Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        for cut in [3, 12, 17, 20, whole.count - 5, whole.count] {
            let prev = [3, 12, 17, 20, whole.count - 5, whole.count].last(where: { $0 < cut }) ?? 0
            otherConnection.send(Array(whole[prev..<cut]))
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertEqual(otherConnection.readLSP()?.body["result"], "pong")
        await server.stop()
    }

    func testPipelining1000Requests() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let connection = try TransportRawConn(unix: dir.file("s.sock"))
        var all = ""
        for i in 0..<1000 {
            all += transportRequest("add", ["a": .number(Double(i)), "b": 1], id: .number(Double(i))) + "\n"
        }
        connection.send(all)
        for i in 0..<1000 {
            guard let line = connection.readLine() else { return XCTFail("missing response \(i)") }
            XCTAssertEqual(line["id"]?.intValue, i, "responses come back in order")
            XCTAssertEqual(line["result"]?.intValue, i + 1)
        }
        await server.stop()
    }

    func testAsyncHandlerKeepsPerConnectionOrder() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let connection = try TransportRawConn(unix: dir.file("s.sock"))
        connection.send(
            transportRequest("slow", ["ms": 50], id: 1) + "\n" + transportRequest("ping", id: 2) + "\n"
                + "garbage\n" + transportRequest("slow", ["ms": 1], id: 3) + "\n" + transportRequest("ping", id: 4)
                + "\n")
        let ids = (0..<5).map { _ in connection.readLine()?["id"] ?? "missing" }
        XCTAssertEqual(ids, [1, 2, .null, 3, 4])
        await server.stop()
    }

    func testPipelinedMixedAsyncAndSyncKeepOrder() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let connection = try TransportRawConn(unix: dir.file("s.sock"))
        var all = ""
        var expected: [JSON] = []
        for i in 0..<3000 {
            switch i % 5 {
            case 0:
                all += transportRequest("slow", ["ms": 0], id: .number(Double(i))) + "\n"
                expected.append(.number(Double(i)))
            case 1:
                all += transportRequest("ping", id: .number(Double(i))) + "\n"
                expected.append(.number(Double(i)))
            case 2: all += #"{"jsonrpc":"2.0","method":"slow","params":{"ms":0}}"# + "\n"  // notification: no reply
            case 3:
                all += "{bad json\n"
                expected.append(.null)
            default:
                all +=
                    "[" + transportRequest("ping", id: .string("b\(i)")) + ","
                    + transportRequest("slow", ["ms": 0], id: .string("c\(i)")) + "]\n"
                expected.append(.array([.string("b\(i)"), .string("c\(i)")]))
            }
        }
        connection.send(all)
        for (k, want) in expected.enumerated() {
            guard let line = connection.readLine(timeoutMs: 10_000) else { return XCTFail("missing reply \(k)") }
            if case .array(let ids) = want {
                XCTAssertEqual(line.arrayValue?.map { $0["id"] ?? "?" }, ids, "reply \(k)")
            } else {
                XCTAssertEqual(line["id"], want, "reply \(k)")
            }
        }
        await server.stop()
    }

    func testClientThatNeverReadsIsThrottledAndOthersKeepWorking() async throws {
        let dir = TransportTempDir()
        let sessions = ProtocolLocked<[RPCSession]>([])
        let server = try await transportStartServer(dir) { otherSession in sessions.withLock { $0.append(otherSession) }
        }
        let hog = try TransportRawConn(unix: dir.file("s.sock"))
        let flags = fcntl(hog.fd, F_GETFL)
        _ = fcntl(hog.fd, F_SETFL, flags | O_NONBLOCK)
        var chunk = ""
        for i in 0..<5000 { chunk += transportRequest("ping", id: .number(Double(i))) + "\n" }
        let bytes = Array(chunk.utf8)
        var accepted = 0
        var lastProgress = ContinuousClock.now
        let start = ContinuousClock.now
        // Keep writing without ever reading until the server stops taking bytes for 500 ms.
        while ContinuousClock.now - lastProgress < .milliseconds(500) && ContinuousClock.now - start < .seconds(20) {
            let sent = bytes.withUnsafeBytes { send(hog.fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                accepted += sent
                lastProgress = ContinuousClock.now
            } else {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        XCTAssertLessThan(
            ContinuousClock.now - start, .seconds(20),
            "the server never stopped reading from a client that does not read")
        XCTAssertLessThan(accepted, 64 << 20, "server buffered \(accepted) bytes for a client that does not read")
        // Everyone else is unaffected.
        let other = try TransportRawConn(unix: dir.file("s.sock"))
        let t0 = ContinuousClock.now
        other.send(transportRequest("ping", id: 1) + "\n")
        XCTAssertEqual(other.readLine()?["result"], "pong")
        XCTAssertLessThan(ContinuousClock.now - t0, .seconds(1))
        // Closing the hog's peer does not wait forever for it to read its pending replies.
        guard let hogSession = sessions.withLock({ $0.first }) else { return XCTFail("no session") }
        hogSession.peer.close()
        for _ in 0..<300 where !hogSession.peer.isClosed { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertTrue(hogSession.peer.isClosed, "close() must finish even when the client never reads")
        await server.stop()
    }

    // MARK: errors, isolation

    func testBadInputGetsPreciseErrorsAndOthersKeepWorking() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)  // maxFrameBytes 64 KiB
        let good = try TransportRawConn(unix: dir.file("s.sock"))
        let bad = try TransportRawConn(unix: dir.file("s.sock"))

        bad.send("{\"jsonrpc\":\"2.0\",\"method\":\"ping\" \"id\":1}\n")
        var line = bad.readLine()
        XCTAssertEqual(line?["error"]?["code"], -32700)
        XCTAssertEqual(line?["error"]?["data"]?["offset"], 33)
        bad.send(transportRequest("nope", id: 2) + "\n")
        line = bad.readLine()
        XCTAssertEqual(line?["error"]?["code"], -32601)
        XCTAssertEqual(line?["error"]?["data"]?["method"], "nope")
        bad.send(transportRequest("add", ["a": "x"], id: 3) + "\n")
        line = bad.readLine()
        XCTAssertEqual(line?["error"]?["code"], -32602)
        XCTAssertEqual(line?["id"], 3)
        bad.send("[]\n")
        XCTAssertEqual(bad.readLine()?["error"]?["code"], -32600)

        good.send(transportRequest("ping", id: 10) + "\n")
        XCTAssertEqual(good.readLine()?["result"], "pong")

        // Oversized: 100 KB line without newline -> -32021 then close.
        bad.send("[\"" + String(repeating: "x", count: 100_000))
        line = bad.readLine()
        XCTAssertEqual(line?["error"]?["code"], -32021)
        XCTAssertEqual(line?["error"]?["data"]?["limit"], "maxFrameBytes")
        XCTAssertTrue(bad.waitClosed(), "oversized frame closes the connection")

        good.send(transportRequest("ping", id: 11) + "\n")
        XCTAssertEqual(good.readLine()?["id"], 11, "another client keeps working")
        await server.stop()
    }

    func testOversizedLSPDeclaredLengthAndMalformedHeaders() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let cases: [(String, Int, String)] = [
            ("Content-Length: 99999999\r\n\r\n", -32021, "exceeds"),
            ("Content-Length: abc\r\n\r\n{}", -32700, "invalid Content-Length"),
            ("Content-Type: x\r\nNoColonHere\r\n\r\n{}", -32700, "malformed header line"),
            ("Content-Type: text/plain\r\n\r\n{}", -32700, "missing Content-Length"),
            ("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", -32700, "conflicting"),
            ("C" + String(repeating: "x", count: 9000), -32700, "header block longer"),
        ]
        for (input, code, fragment) in cases {
            let connection = try TransportRawConn(unix: dir.file("s.sock"))
            connection.send(input)
            let lSP = connection.readLSP()
            XCTAssertEqual(lSP?.body["error"]?["code"]?.intValue, code, input)
            XCTAssertTrue(
                lSP?.body["error"]?["message"]?.stringValue?.contains(fragment) ?? false,
                "\(input): \(lSP?.body.jsonString ?? "nil")")
            XCTAssertTrue(connection.waitClosed(), "connection closed after \(input.prefix(30))")
        }
        let ok = try TransportRawConn(unix: dir.file("s.sock"))
        ok.send(transportRequest("ping") + "\n")
        XCTAssertEqual(ok.readLine()?["result"], "pong")
        await server.stop()
    }

    // MARK: socket file rules

    func testSocketModeIs0600AndRemovedOnStop() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        var st = stat()
        XCTAssertEqual(stat(dir.file("s.sock"), &st), 0)
        XCTAssertEqual(UInt32(st.st_mode) & 0o777, 0o600)
        XCTAssertEqual(UInt32(st.st_mode) & UInt32(S_IFMT), UInt32(S_IFSOCK))
        XCTAssertEqual(server.unixSocketPath, dir.file("s.sock"))
        await server.stop()
        XCTAssertNotEqual(access(dir.file("s.sock"), F_OK), 0, "socket file removed by stop()")
    }

    func testStaleSocketIsReplaced() async throws {
        let dir = TransportTempDir()
        // A socket file with no listener behind it (a crashed server).
        let fd = POSIX.streamSocket(AF_UNIX)
        var addr = try POSIX.fillUnixAddress(dir.file("s.sock"))
        let rc = withUnsafePointer(to: &addr) { previous in
            previous.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        XCTAssertEqual(rc, 0)
        close(fd)
        XCTAssertEqual(access(dir.file("s.sock"), F_OK), 0)
        let server = try await transportStartServer(dir)
        let connection = try TransportRawConn(unix: dir.file("s.sock"))
        connection.send(transportRequest("ping") + "\n")
        XCTAssertEqual(connection.readLine()?["result"], "pong")
        await server.stop()
    }

    func testLiveSocketIsRefused() async throws {
        let dir = TransportTempDir()
        let first = try await transportStartServer(dir)
        do {
            _ = try await transportStartServer(dir)
            XCTFail("second server must not start on a live socket")
        } catch {
            XCTAssertTrue("\(error)".contains("already listening"), "\(error)")
        }
        let connection = try TransportRawConn(unix: dir.file("s.sock"))
        connection.send(transportRequest("ping") + "\n")
        XCTAssertEqual(connection.readLine()?["result"], "pong", "the first server is untouched")
        await first.stop()
    }

    func testNonSocketFileAndForeignDirectoryAreRefused() async throws {
        let dir = TransportTempDir()
        let file = fopen(dir.file("s.sock"), "w")
        fputs("data", file)
        fclose(file)
        do {
            _ = try await transportStartServer(dir)
            XCTFail("must not replace a regular file")
        } catch {
            XCTAssertTrue("\(error)".contains("not a socket"), "\(error)")
        }
        var st = stat()
        XCTAssertEqual(stat(dir.file("s.sock"), &st), 0, "the file is left alone")
        // A group/world-writable directory that is not sticky.
        let open = dir.file("open")
        mkdir(open, 0o777)
        chmod(open, 0o777)
        defer { rmdir(open) }
        let server = RPCServer(router: transportTestRouter(), configuration: .init(unixSocketPath: open + "/x.sock"))
        do {
            try await server.start()
            XCTFail("must refuse a world-writable dir")
            await server.stop()
        } catch {
            XCTAssertTrue("\(error)".contains("writable by group/others"), "\(error)")
        }
        let missing = RPCServer(
            router: transportTestRouter(), configuration: .init(unixSocketPath: dir.file("nodir/x.sock")))
        do {
            try await missing.start()
            XCTFail()
        } catch { XCTAssertTrue("\(error)".contains("does not exist"), "\(error)") }
    }

    func testDefaultSocketPath() {
        let otherServer = RPCServer.defaultSocketPath()
        if let runtimeDir = AXSocketPath.runtimeDirectory() {
            XCTAssertEqual(otherServer, runtimeDir + (runtimeDir.hasSuffix("/") ? "" : "/") + "axserver.sock")
        } else {
            XCTAssertEqual(otherServer, "/tmp/axserver-\(getuid())/axserver.sock")
        }
    }

    /// Issue 12 item 8: clients refuse a socket owned by another user (an impostor), and accept their own.
    func testClientsRefuseASocketOwnedByAnotherUser() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let path = dir.file("s.sock")
        XCTAssertNoThrow(try AXSocketPath.verifySocketOwner(path))
        let mine = try SyncRPCClient(address: "unix:" + path)
        XCTAssertEqual(try mine.call("ping"), "pong")
        mine.close()
        XCTAssertThrowsError(try AXSocketPath.verifySocketOwner(path, ownerUID: UInt32(getuid()) &+ 1)) { error in
            XCTAssertTrue("\(error)".contains("not by this user"), "\(error)")
        }
        // With privileges, make the socket really belong to someone else and check every client refuses it.
        if getuid() == 0 {
            XCTAssertEqual(chown(path, 65534, 65534), 0)
            XCTAssertThrowsError(try SyncRPCClient(address: "unix:" + path)) { error in
                XCTAssertTrue("\(error)".contains("owned by uid 65534"), "\(error)")
            }
            do {
                _ = try await RPCClient.connect("unix:" + path)
                XCTFail("RPCClient connected to a socket owned by another user")
            } catch {
                XCTAssertTrue("\(error)".contains("owned by uid 65534"), "\(error)")
            }
        }
        await server.stop()
    }

    // MARK: TCP + token

    func writeToken(_ dir: TransportTempDir, _ token: String, mode: mode_t = 0o600) -> String {
        let path = dir.file("token")
        let file = fopen(path, "w")
        fputs(token + "\n# comment line\n", file)
        fclose(file)
        chmod(path, mode)
        return path
    }

    func testTCPRequiresTokenAndMarksAuthenticated() async throws {
        let dir = TransportTempDir()
        let tokenFile = writeToken(dir, "  s3cr3t-token  ")
        let server = try await transportStartServer(dir, tcp: "tcp:127.0.0.1:0", tokenFile: tokenFile)
        guard let port = server.tcpPort, port > 0 else { return XCTFail("no tcp port") }

        // Wrong token.
        var connection = try TransportRawConn(tcpPort: port)
        connection.send(transportRequest("initialize", ["token": "nope"], id: 1) + "\n")
        var line = connection.readLine()
        XCTAssertEqual(line?["error"]?["code"], -32019)
        XCTAssertEqual(line?["id"], 1)
        XCTAssertTrue(connection.waitClosed())
        // Not initialize first.
        connection = try TransportRawConn(tcpPort: port)
        connection.send(transportRequest("ping", id: 2) + "\n")
        line = connection.readLine()
        XCTAssertEqual(line?["error"]?["code"], -32019)
        XCTAssertTrue(connection.waitClosed())
        // Garbage first.
        connection = try TransportRawConn(tcpPort: port)
        connection.send("hello\n")
        XCTAssertEqual(connection.readLine()?["error"]?["code"], -32019)
        XCTAssertTrue(connection.waitClosed())
        // Missing token.
        connection = try TransportRawConn(tcpPort: port)
        connection.send(transportRequest("initialize", [:], id: 3) + "\n")
        XCTAssertEqual(connection.readLine()?["error"]?["code"], -32019)
        // Right token (trimmed first line of the file).
        connection = try TransportRawConn(tcpPort: port)
        connection.send(transportRequest("initialize", ["token": "s3cr3t-token"], id: 4) + "\n")
        line = connection.readLine()
        XCTAssertEqual(line?["result"]?["server"], "axserver-test")
        connection.send(transportRequest("whoami", id: 5) + "\n")
        XCTAssertEqual(connection.readLine()?["result"]?["authenticated"], true)

        // Unix sessions are authenticated without a token.
        let otherConnection = try TransportRawConn(unix: dir.file("s.sock"))
        otherConnection.send(transportRequest("whoami", id: 6) + "\n")
        XCTAssertEqual(otherConnection.readLine()?["result"]?["authenticated"], true)
        await server.stop()
    }

    func testTCPConfigurationRefusals() async throws {
        let dir = TransportTempDir()
        let good = writeToken(dir, "tok")
        func start(_ tcp: String, _ token: String?, allowNonLoopback: Bool = false) async -> String? {
            let otherServer = RPCServer(
                router: transportTestRouter(),
                configuration: .init(
                    unixSocketPath: nil, tcp: tcp, tokenFile: token, allowNonLoopback: allowNonLoopback))
            do {
                try await otherServer.start()
                await otherServer.stop()
                return nil
            } catch { return "\(error)" }
        }
        var failure = await start("tcp:0.0.0.0:0", good)
        XCTAssertTrue(failure?.contains("non-loopback") ?? false, failure ?? "started")
        failure = await start("tcp:192.168.1.10:0", good)
        XCTAssertTrue(failure?.contains("non-loopback") ?? false, failure ?? "started")
        failure = await start("tcp:127.0.0.1:0", nil)
        XCTAssertTrue(failure?.contains("token file") ?? false, failure ?? "started")
        failure = await start("tcp:127.0.0.1:0", dir.file("missing"))
        XCTAssertTrue(failure?.contains("does not exist") ?? false, failure ?? "started")
        let loose = dir.file("loose")
        let looseFile = fopen(loose, "w")
        fputs("tok\n", looseFile)
        fclose(looseFile)
        chmod(loose, 0o644)
        failure = await start("tcp:127.0.0.1:0", loose)
        XCTAssertTrue(failure?.contains("must not be readable") ?? false, failure ?? "started")
        let empty = dir.file("empty")
        let emptyFile = fopen(empty, "w")
        fputs("\n", emptyFile)
        fclose(emptyFile)
        chmod(empty, 0o600)
        failure = await start("tcp:127.0.0.1:0", empty)
        XCTAssertTrue(failure?.contains("empty") ?? false, failure ?? "started")
        failure = await start("tcp:127.0.0.1:notaport", good)
        XCTAssertTrue(failure?.contains("invalid TCP address") ?? false, failure ?? "started")
        let okLocal = await start("tcp:localhost:0", good)
        XCTAssertNil(okLocal)
        XCTAssertTrue(RPCServer.isLoopback("127.0.0.2"))
        XCTAssertTrue(RPCServer.isLoopback("::1"))
        XCTAssertFalse(RPCServer.isLoopback("10.0.0.1"))
        XCTAssertFalse(RPCServer.isLoopback("127.example.com"))
    }

    // MARK: sessions and close

    func testSessionCallbackAndOnClose() async throws {
        let dir = TransportTempDir()
        let closed = ProtocolLocked<[UInt64]>([])
        let opened = ProtocolLocked<[UInt64]>([])
        let server = try await transportStartServer(dir) { session in
            opened.withLock { $0.append(session.connectionID) }
            session.peer.onClose { closed.withLock { $0.append(session.connectionID) } }
        }
        var connection: TransportRawConn? = try TransportRawConn(unix: dir.file("s.sock"))
        connection!.send(transportRequest("whoami") + "\n")
        let conn = connection!.readLine()?["result"]?["conn"]?.intValue
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(opened.withLock { $0 }.map { Int($0) }, [conn!])
        connection = nil  // closes the socket
        for _ in 0..<200 where closed.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(closed.withLock { $0 }.map { Int($0) }, [conn!])
        XCTAssertEqual(server.connectionCount, 0)
        await server.stop()
    }

    func testClosedConnectionsAreFreed() async throws {
        final class Weak: @unchecked Sendable { weak var session: RPCSession? }
        let refs = ProtocolLocked<[Weak]>([])
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir) { otherSession in
            let otherWeak = Weak()
            otherWeak.session = otherSession
            refs.withLock { $0.append(otherWeak) }
        }
        for _ in 0..<3 {
            let connection = try TransportRawConn(unix: dir.file("s.sock"))
            // Exercise both the inline and the async-lane paths before closing.
            connection.send(transportRequest("ping", id: 1) + "\n" + transportRequest("slow", ["ms": 1], id: 2) + "\n")
            XCTAssertNotNil(connection.readLine())
            XCTAssertNotNil(connection.readLine())
        }
        for _ in 0..<300 where server.connectionCount > 0 || refs.withLock({ $0.contains { $0.session != nil } }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertEqual(refs.withLock { $0.count }, 3)
        XCTAssertEqual(
            refs.withLock { $0.filter { $0.session != nil }.count }, 0, "sessions of closed connections must be freed")
        await server.stop()
    }

    func testStopClosesClients() async throws {
        let dir = TransportTempDir()
        let server = try await transportStartServer(dir)
        let connection = try TransportRawConn(unix: dir.file("s.sock"))
        connection.send(transportRequest("ping") + "\n")
        XCTAssertNotNil(connection.readLine())
        await server.stop()
        XCTAssertTrue(connection.waitClosed())
    }
}
