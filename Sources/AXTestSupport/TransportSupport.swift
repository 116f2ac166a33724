import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPCRouter
import AXTransport
import AXWire
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private temp directory (mode 0700) removed at the end.
package final class TransportTempDir {
    package let path: String
    package init() {
        var template = Array("/tmp/axrpc-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = String(cString: created!)
    }
    package func file(_ name: String) -> String { path + "/" + name }
    deinit {
        if let d = opendir(path) {
            while let e = readdir(d) {
                let name = withUnsafeBytes(of: e.pointee.d_name) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(d)
        }
        rmdir(path)
    }
}

/// A raw blocking client socket for byte-exact tests.
package final class TransportRawConn {
    package let fd: Int32
    private var buf: [UInt8] = []

    package init(unix path: String) throws {
        do { fd = try POSIX.connectUnix(path) } catch { throw RPCTransportError(error.message) }
    }
    package init(tcpPort: Int) throws {
        do { fd = try POSIX.connectTCP(host: "127.0.0.1", port: tcpPort) } catch {
            throw RPCTransportError(error.message)
        }
    }
    deinit { close(fd) }

    package func send(_ s: String) { send(Array(s.utf8)) }
    package func send(_ b: [UInt8]) {
        _ = b.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let sent = Glibc.send(fd, raw.baseAddress! + off, raw.count - off, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                off += sent
            }
            return true
        }
    }

    /// Reads more bytes; false on EOF / timeout.
    private func fill(timeoutMs: Int32) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, timeoutMs) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if received <= 0 { return false }
        buf.append(contentsOf: chunk[0..<received])
        return true
    }

    /// Next NDJSON line, parsed; nil on timeout/EOF.
    package func readLine(timeoutMs: Int32 = 5000) -> JSON? {
        while true {
            if let nl = buf.firstIndex(of: 0x0A) {
                let line = Array(buf[..<nl])
                buf.removeFirst(nl + 1)
                return try? JSON.parse(line)
            }
            if !fill(timeoutMs: timeoutMs) { return nil }
        }
    }

    /// Next LSP-framed message: (raw header block, parsed body); nil on timeout/EOF.
    package func readLSP(timeoutMs: Int32 = 5000) -> (header: String, body: JSON)? {
        while true {
            if let end = findHeaderEnd() {
                let header = String(decoding: buf[..<end], as: UTF8.self)
                guard
                    let lenLine = header.split(separator: "\r\n").first(where: {
                        $0.lowercased().hasPrefix("content-length:")
                    }),
                    let len = Int(lenLine.split(separator: ":")[1].transportTrimmed(" "))
                else { return nil }
                if buf.count >= end + 4 + len {
                    let body = Array(buf[(end + 4)..<(end + 4 + len)])
                    buf.removeFirst(end + 4 + len)
                    guard let json = try? JSON.parse(body) else { return nil }
                    return (header, json)
                }
            }
            if !fill(timeoutMs: timeoutMs) { return nil }
        }
    }

    private func findHeaderEnd() -> Int? {
        guard buf.count >= 4 else { return nil }
        for i in 0...(buf.count - 4) where buf[i] == 13 && buf[i + 1] == 10 && buf[i + 2] == 13 && buf[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// True when the server closed the connection (EOF) within the timeout (after draining pending data).
    package func waitClosed(timeoutMs: Int32 = 5000) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeoutMs))
        while ContinuousClock.now < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if received == 0 { return true }
            if received < 0 { return errno == ECONNRESET }
        }
        return false
    }
}

extension Substring {
    package func transportTrimmed(_ set: String) -> String {
        var state = self
        while let first = state.first, set.contains(first) { state.removeFirst() }
        while let last = state.last, set.contains(last) { state.removeLast() }
        return String(state)
    }
}

/// The router used by the transport tests.
package func transportTestRouter(limits: RPCLimits = RPCLimits(maxFrameBytes: 64 * 1024)) -> RPCRouter {
    let router = RPCRouter(limits: limits)
    router.registerSync(RPCMethodName.initialize.rawValue, requiresInit: false) { _, session in
        ["server": "axserver-test", "conn": .number(Double(session.connectionID))]
    }
    router.registerSync(RPCMethodName.ping.rawValue, requiresInit: false) { _, _ in "pong" }
    router.registerSync("echo", requiresInit: false) { params, _ in params ?? .null }
    router.registerSync("add", requiresInit: false) { params, _ in
        guard let first = params?["a"]?.doubleValue, let second = params?["b"]?.doubleValue else {
            throw RPCError.invalidParams("params must be {a: number, b: number}", data: ["got": params ?? .null])
        }
        return .number(first + second)
    }
    router.register("slow", requiresInit: false) { params, _ in
        try await Task.sleep(for: .milliseconds(params?["ms"]?.intValue ?? 20))
        return "slow-done"
    }
    router.register("askBack", requiresInit: false) { params, session in
        let ms = params?["timeoutMs"]?.intValue ?? 2000
        return try await session.peer.request("client.compute", ["x": params?["x"] ?? 0], timeout: .milliseconds(ms))
    }
    router.registerSync("notifyMe", requiresInit: false) { params, session in
        session.peer.notify("server.event", ["n": params?["n"] ?? 0])
        return true
    }
    router.registerSync("whoami", requiresInit: false) { _, session in
        ["authenticated": .bool(session.authenticated), "conn": .number(Double(session.connectionID))]
    }
    return router
}

package func transportStartServer(
    _ dir: TransportTempDir, router: RPCRouter = transportTestRouter(),
    tcp: String? = nil, tokenFile: String? = nil,
    onSession: (@Sendable (RPCSession) -> Void)? = nil
) async throws -> RPCServer {
    let server = RPCServer(
        router: router,
        configuration: .init(unixSocketPath: dir.file("s.sock"), tcp: tcp, tokenFile: tokenFile),
        onSession: onSession)
    try await server.start()
    return server
}

package func transportRequest(_ method: String, _ params: JSON? = nil, id: JSON = 1) -> String {
    String(decoding: RPCMessage.request(id: id, method: method, params: params), as: UTF8.self)
}
