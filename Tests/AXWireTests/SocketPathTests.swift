import Foundation
import XCTest

@testable import AXWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private temporary directory, removed with what it holds.
final class WireTempDir {
    let path: String
    init() {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("axwire-" + UUID().uuidString).path
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
        chmod(base, 0o700)
        path = base
    }
    func file(_ name: String) -> String { path + "/" + name }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Where the socket lives and who may own it (`AXSocketPath`): moved here from AXTransportTests (issue 31 item 5).
final class SocketPathTests: XCTestCase {
    /// Issue 38 item 5: with almost no environment (an MCP host's), the runtime directory is derived as a
    /// desktop session's: `/run/user/$UID` when it is ours and private; never another user's or an open one.
    func testRuntimeDirectoryIsDerivedWhenTheEnvironmentLacksIt() throws {
        let base = WireTempDir()
        let uid = UInt32(geteuid())
        let mine = base.path + "/\(uid)"
        XCTAssertNil(AXSocketPath.runtimeDirectory(environment: nil, runUserBase: base.path))
        XCTAssertEqual(mkdir(mine, 0o700), 0)
        defer { rmdir(mine) }
        XCTAssertEqual(AXSocketPath.runtimeDirectory(environment: nil, runUserBase: base.path), mine)
        XCTAssertEqual(AXSocketPath.runtimeDirectory(environment: "", runUserBase: base.path), mine)
        XCTAssertEqual(AXSocketPath.runtimeDirectory(environment: "/elsewhere", runUserBase: base.path), "/elsewhere")
        chmod(mine, 0o755)
        XCTAssertNil(AXSocketPath.runtimeDirectory(environment: nil, runUserBase: base.path), "an open directory")
        chmod(mine, 0o700)
        XCTAssertNil(
            AXSocketPath.runtimeDirectory(environment: nil, runUserBase: base.path, ownerUID: uid + 1),
            "another user's directory")
    }

    /// Issue 12 item 8: the fallback directory is created 0700 and one that another user could have made
    /// (wrong owner, wrong mode, a symlink or a file) is refused with a message saying what to do.
    func testFallbackSocketDirectoryIsPrivateAndSquattersAreRefused() throws {
        let base = WireTempDir()
        let dir = AXSocketPath.fallbackDirectory(base: base.path)
        XCTAssertEqual(dir, base.path + "/axserver-\(getuid())")
        defer { rmdir(dir) }
        try AXSocketPath.prepareServerDirectory(for: dir + "/axserver.sock", fallbackBase: base.path)
        var st = stat()
        XCTAssertEqual(lstat(dir, &st), 0)
        XCTAssertEqual(st.st_mode & 0o7777, 0o700)
        XCTAssertEqual(st.st_uid, geteuid())
        // Existing and ours with 0700: accepted again.
        try AXSocketPath.prepareServerDirectory(for: dir + "/axserver.sock", fallbackBase: base.path)
        // Too open.
        chmod(dir, 0o755)
        XCTAssertThrowsError(try AXSocketPath.ensurePrivateDirectory(dir)) { error in
            XCTAssertTrue("\(error)".contains("must be 0700"), "\(error)")
        }
        chmod(dir, 0o700)
        // Owned by someone else.
        XCTAssertThrowsError(try AXSocketPath.ensurePrivateDirectory(dir, ownerUID: UInt32(geteuid()) &+ 1)) { error in
            XCTAssertTrue("\(error)".contains("not by this user"), "\(error)")
        }
        // A symlink planted where the directory should be.
        rmdir(dir)
        let target = base.file("elsewhere")
        mkdir(target, 0o700)
        defer { rmdir(target) }
        XCTAssertEqual(symlink(target, dir), 0)
        XCTAssertThrowsError(
            try AXSocketPath.prepareServerDirectory(for: dir + "/axserver.sock", fallbackBase: base.path)
        ) { error in
            XCTAssertTrue("\(error)".contains("not a directory"), "\(error)")
        }
        unlink(dir)
    }
}
