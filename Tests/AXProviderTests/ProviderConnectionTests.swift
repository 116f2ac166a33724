import AXJSON
import AXJSONRPC
import AXTestSupport
import AXWire
import Synchronization
import XCTest

@testable import AXProvider

#if canImport(Glibc)
    import Glibc
#endif

/// The provider library's own connection (D-PROVIDER-WIRE-1) against a peer that writes raw bytes: frames split and
/// joined in any way arrive whole and in order, the server's requests are answered, a call completes by its id, and
/// the connection ends cleanly whichever side ends it.
final class ProviderConnectionTests: XCTestCase {
    /// A connection and the raw peer the listening socket accepted for it.
    private struct Pair {
        let directory: TransportTempDir
        let connection: ProviderConnection
        let peer: Int32
    }

    private func connect(maxFrameBytes: Int = 64 << 20) throws -> Pair {
        let directory = TransportTempDir()
        let path = directory.file("s.sock")
        let listener = try POSIX.listenUnix(path: path)
        defer { POSIX.closeFD(listener) }
        let connection = try ProviderConnection.connect("unix:" + path, maxFrameBytes: maxFrameBytes)
        let peer = accept(listener, nil, nil)
        XCTAssertGreaterThanOrEqual(peer, 0)
        return Pair(directory: directory, connection: connection, peer: peer)
    }

    private func write(_ text: String, to peer: Int32) {
        let bytes = Array(text.utf8)
        XCTAssertTrue(bytes.withUnsafeBytes { POSIX.writeAll(peer, $0) })
    }

    /// The next line the peer receives (within 5 s), parsed; nil when the connection ended or nothing came.
    private func readMessage(_ peer: Int32) -> JSON? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        var descriptor = pollfd(fd: peer, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 5_000) > 0, recv(peer, &byte, 1, 0) == 1 {
            if byte == 0x0A { return try? JSON.parse(line) }
            line.append(byte)
        }
        return nil
    }

    /// Waits (at most 5 s) until `condition` holds.
    private func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    func testNotificationsSplitAndJoinedArriveWholeAndInOrder() throws {
        let pair = try connect()
        defer { POSIX.closeFD(pair.peer) }
        let seen = Mutex<[Int]>([])
        pair.connection.onNotification { method, params in
            guard method == "tick", let index = params?["i"]?.intValue else { return }
            seen.withLock { $0.append(index) }
        }
        var stream = ""
        for index in 0..<60 {
            stream +=
                #"{"jsonrpc":"2.0","method":"tick","params":{"i":\#(index)}}"# + (index % 3 == 0 ? "\r\n\n" : "\n")
        }
        let bytes = Array(stream.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 7 + offset % 13)
            bytes[offset..<end].withUnsafeBytes { XCTAssertTrue(POSIX.writeAll(pair.peer, $0)) }
            offset = end
        }
        XCTAssertTrue(eventually { seen.withLock { $0.count } == 60 })
        XCTAssertEqual(seen.withLock { $0 }, Array(0..<60))
    }

    func testTheServersRequestsAreAnsweredAndOneWithoutAHandlerIsRefused() throws {
        let pair = try connect()
        defer { POSIX.closeFD(pair.peer) }
        write(
            #"{"jsonrpc":"2.0","id":1,"method":"action.perform","params":{"action":"activate"}}"# + "\n", to: pair.peer)
        let refused = readMessage(pair.peer)
        XCTAssertEqual(refused?["id"], 1)
        XCTAssertEqual(refused?["error"]?["code"]?.intValue, -32601)

        pair.connection.onRequest { method, params in
            ["method": .string(method), "action": params?["action"] ?? .null]
        }
        write(
            #"{"jsonrpc":"2.0","id":"two","method":"action.perform","params":{"action":"increment"}}"# + "\n",
            to: pair.peer)
        let answer = readMessage(pair.peer)
        XCTAssertEqual(answer?["id"], "two")
        XCTAssertEqual(answer?["result"], ["method": "action.perform", "action": "increment"])
    }

    func testACallCompletesByItsIDAndFailsWhenThePeerLeaves() async throws {
        let pair = try connect()
        let connection = pair.connection
        let closed = Mutex(false)
        connection.onClose { closed.withLock { $0 = true } }
        let call = Task { try await connection.call("hierarchy.set", ["revision": 1], timeout: .seconds(10)) }
        let request = readMessage(pair.peer)
        XCTAssertEqual(request?["method"], "hierarchy.set")
        let id = try XCTUnwrap(request?["id"]?.intValue)
        write(#"{"jsonrpc":"2.0","id":\#(id + 100),"result":"not this one"}"# + "\n", to: pair.peer)
        write(#"{"jsonrpc":"2.0","id":\#(id),"result":{"revision":1}}"# + "\n", to: pair.peer)
        let result = try await call.value
        XCTAssertEqual(result, ["revision": 1])

        let waiting = Task { try await connection.call("hierarchy.set", ["revision": 2], timeout: .seconds(10)) }
        XCTAssertNotNil(readMessage(pair.peer))
        POSIX.closeFD(pair.peer)
        do {
            _ = try await waiting.value
            XCTFail("a call whose peer left succeeded")
        } catch let error as RPCError {
            XCTAssertEqual(error.data?["reason"], "disconnected")
        }
        // The close handlers run right after the pending calls fail, on the reader thread.
        XCTAssertTrue(eventually { closed.withLock { $0 } })
    }

    func testAFrameOverTheLimitEndsTheConnection() async throws {
        let pair = try connect(maxFrameBytes: 1_024)
        defer { POSIX.closeFD(pair.peer) }
        let closed = Mutex(false)
        pair.connection.onClose { closed.withLock { $0 = true } }
        write(
            #"{"jsonrpc":"2.0","method":"tick","params":{"pad":""# + String(repeating: "x", count: 4_000), to: pair.peer
        )
        XCTAssertTrue(eventually { closed.withLock { $0 } })
        do throws(RPCError) {
            _ = try await pair.connection.call("ping", nil, timeout: .seconds(2))
            XCTFail("a call on a closed connection succeeded")
        } catch {
            XCTAssertEqual(error.data?["reason"], "disconnected")
        }
    }

    func testCloseEndsTheConnectionForThePeerAtOnce() throws {
        let pair = try connect()
        defer { POSIX.closeFD(pair.peer) }
        pair.connection.close()
        var byte: UInt8 = 0
        var descriptor = pollfd(fd: pair.peer, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&descriptor, 1, 2_000), 1, "the peer saw nothing within 2 s")
        XCTAssertEqual(recv(pair.peer, &byte, 1, 0), 0, "the peer did not read the end of the stream")
    }
}
