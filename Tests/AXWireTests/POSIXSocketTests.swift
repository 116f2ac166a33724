import Foundation
import XCTest

@testable import AXWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX helpers both ends use on values that come from outside: socket paths, `tcp:HOST:PORT`, token files.
/// Each bad value is a typed `RPCTransportError` that says what to do (issue 31 item 5: AXWire's own tests).
final class POSIXSocketTests: XCTestCase {
    func testSocketPathsTooLongOrWithNULAreRefused() throws {
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        let longest = "/" + String(repeating: "s", count: capacity - 2)
        XCTAssertNoThrow(try POSIX.fillUnixAddress(longest))
        XCTAssertThrowsError(try POSIX.fillUnixAddress(longest + "s")) { error in
            XCTAssertEqual(
                "\(error)", "socket path '\(longest)s' is too long (\(capacity) bytes, the limit is \(capacity - 1))")
        }
        XCTAssertThrowsError(try POSIX.fillUnixAddress("/tmp/a\u{0}b")) { error in
            XCTAssertEqual("\(error)", "socket path contains a NUL byte")
        }
    }

    func testTCPAddressesAreParsedAndBadOnesRefused() throws {
        XCTAssertTrue(try AXSocketPath.parseTCP("tcp:127.0.0.1:8080") == ("127.0.0.1", 8080))
        XCTAssertTrue(try AXSocketPath.parseTCP("[::1]:0") == ("::1", 0))
        XCTAssertTrue(try AXSocketPath.parseTCP("localhost:65535") == ("localhost", 65535))
        for bad in ["tcp:", "localhost", ":80", "host:65536", "host:-1", "host:80x", "host:"] {
            XCTAssertThrowsError(try AXSocketPath.parseTCP(bad), bad) { error in
                XCTAssertTrue("\(error)".hasPrefix("invalid TCP address '\(bad)'"), "\(error)")
            }
        }
    }

    func testTokenFilesMustBePrivateOneLineAndBounded() throws {
        let dir = WireTempDir()
        func write(_ name: String, _ text: String, mode: mode_t = 0o600) -> String {
            let path = dir.file(name)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
            chmod(path, mode)
            return path
        }
        XCTAssertEqual(try POSIX.readTokenFile(write("good", "  s3cret \r\nsecond line\n")), Array("s3cret".utf8))
        XCTAssertThrowsError(try POSIX.readTokenFile(write("open", "s3cret\n", mode: 0o644))) { error in
            XCTAssertTrue("\(error)".contains("must not be readable or writable by group or others"), "\(error)")
        }
        XCTAssertThrowsError(try POSIX.readTokenFile(write("empty", " \n"))) { error in
            XCTAssertTrue("\(error)".contains("is empty"), "\(error)")
        }
        let huge = write("huge", String(repeating: "t", count: POSIX.maxTokenFileBytes + 1))
        XCTAssertThrowsError(try POSIX.readTokenFile(huge)) { error in
            XCTAssertTrue("\(error)".contains("larger than \(POSIX.maxTokenFileBytes) bytes"), "\(error)")
        }
        XCTAssertThrowsError(try POSIX.readTokenFile(dir.file("missing"))) { error in
            XCTAssertTrue("\(error)".contains("does not exist"), "\(error)")
        }
    }

    /// A listening socket is created 0600 in a private directory; an open directory and a live socket are refused.
    func testListenUnixRefusesAnOpenDirectoryAndALiveSocket() throws {
        let dir = WireTempDir()
        let path = dir.file("s.sock")
        let fd = try POSIX.listenUnix(path: path)
        defer {
            POSIX.closeFD(fd)
            unlink(path)
        }
        XCTAssertEqual(POSIX.lstatInfo(path)?.mode, 0o600)
        XCTAssertThrowsError(try POSIX.listenUnix(path: path)) { error in
            XCTAssertTrue("\(error)".contains("another server is already listening"), "\(error)")
        }
        let open = dir.file("open")
        mkdir(open, 0o700)
        chmod(open, 0o777)
        XCTAssertThrowsError(try POSIX.listenUnix(path: open + "/s.sock")) { error in
            XCTAssertTrue("\(error)".contains("writable by group/others"), "\(error)")
        }
        rmdir(open)
    }

    /// `writeAll` delivers every byte of a buffer larger than one socket send, and reports a peer that went away
    /// as false (EPIPE), not a SIGPIPE that would end the process.
    func testWriteAllDeliversEveryByteAndSurvivesAClosedPeer() throws {
        var pair: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        defer { POSIX.closeFD(pair[0]) }
        let sent = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let readFD = pair[1]
        let received = ReceivedBytes()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while case let count = read(readFD, &buffer, buffer.count), count > 0 {
                received.append(buffer[0..<count])
            }
            done.signal()
        }
        XCTAssertTrue(sent.withUnsafeBytes { POSIX.writeAll(pair[0], $0) })
        shutdown(pair[0], Int32(SHUT_WR))
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(received.bytes, sent)
        POSIX.closeFD(readFD)
        XCTAssertFalse(sent.withUnsafeBytes { POSIX.writeAll(pair[0], $0) }, "EPIPE is false, not a SIGPIPE")
    }
}

/// Bytes a reader thread collects.
final class ReceivedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [UInt8] = []
    func append(_ chunk: ArraySlice<UInt8>) { lock.withLock { collected += chunk } }
    var bytes: [UInt8] { lock.withLock { collected } }
}
