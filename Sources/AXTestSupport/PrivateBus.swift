import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A private `dbus-daemon --session` on a unix socket in a temp dir, started by PID and killed by PID.
/// Test support shared by the D-Bus and AT-SPI test targets (not part of the server).
package final class PrivateBus: @unchecked Sendable {
    package let pid: pid_t
    package let address: String
    package let directory: String

    package static func daemonPath() -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") + ["/usr/bin", "/bin"] {
            let candidate = "\(dir)/dbus-daemon"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// - Parameter purpose: said in the skip message when dbus-daemon is missing; names the temp directory too.
    package init(purpose: String = "these tests", tag: String = "axtest") throws {
        guard let daemon = PrivateBus.daemonPath() else {
            throw XCTSkip("dbus-daemon not found (apt-get install dbus): \(purpose) need a real bus")
        }
        var template = Array("/tmp/\(tag).XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw NSError(domain: "PrivateBus", code: 1, userInfo: [NSLocalizedDescriptionKey: "mkdtemp failed"])
        }
        directory = String(cString: created)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw NSError(domain: "PrivateBus", code: 2) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        var args = [
            daemon, "--session", "--nofork", "--nopidfile", "--nosyslog",
            "--address=unix:path=\(directory)/bus", "--print-address=1",
        ]
        // If the test process dies (crash), the daemon gets SIGTERM instead of leaking.
        // setpriv execs dbus-daemon in place, so the PID we record is the daemon's.
        if access("/usr/bin/setpriv", X_OK) == 0 { args = ["/usr/bin/setpriv", "--pdeathsig", "TERM"] + args }
        var cargs: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        var childPID: pid_t = 0
        let rc = posix_spawn(&childPID, args[0], &actions, nil, &cargs, environ)
        for pointer in cargs { free(pointer) }
        posix_spawn_file_actions_destroy(&actions)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw NSError(domain: "PrivateBus", code: Int(rc))
        }
        pid = childPID
        // First stdout line is the address.
        var line = [UInt8]()
        var byte: UInt8 = 0
        var pfd = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if poll(&pfd, 1, 100) > 0 {
                if read(fds[0], &byte, 1) != 1 { break }
                if byte == 10 { break }
                line.append(byte)
            }
        }
        close(fds[0])
        address = String(decoding: line, as: UTF8.self)
        if address.isEmpty {
            kill(pid, SIGKILL)
            var st: Int32 = 0
            waitpid(pid, &st, 0)
            throw NSError(
                domain: "PrivateBus", code: 3, userInfo: [NSLocalizedDescriptionKey: "dbus-daemon printed no address"])
        }
    }

    package func stop() {
        kill(pid, SIGTERM)
        var st: Int32 = 0
        var reaped = false
        for _ in 0..<100 {
            let waited = waitpid(pid, &st, WNOHANG)
            if waited == pid || waited < 0 {
                reaped = true
                break
            }
            usleep(10_000)
        }
        if !reaped {
            kill(pid, SIGKILL)
            waitpid(pid, &st, 0)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
