import AXJSON
import AXJSONRPC
import AXProtocol
import AXWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reusable transport measurements (called by tests and by `axbench`).
enum TransportBenchmark {
    struct Result: Sendable, CustomStringConvertible {
        var requests: Int
        var seconds: Double
        var requestsPerSecond: Double { Double(requests) / seconds }
        var description: String {
            "\(requests) pipelined requests in \(String(format3(seconds))) s = \(Int(requestsPerSecond)) req/s"
        }
    }

    /// Sends `count` requests of `method` back to back over one Unix-socket connection (NDJSON), reading
    /// responses concurrently, and returns requests per second (time from the first byte sent to the last
    /// response received). `setup` calls (e.g. `initialize`) are made first, one at a time, untimed.
    /// Throws when a response is missing or any response is an error.
    static func pipelined(
        socketPath: String, count: Int, method: String = RPCMethodName.ping.rawValue, params: JSON? = nil,
        setup: [(method: String, params: JSON?)] = []
    ) async throws -> Double {
        try run(socketPath: socketPath, count: count, method: method, params: params, setup: setup).requestsPerSecond
    }

    /// As `pipelined`, returning the details.
    static func run(
        socketPath: String, count: Int, method: String = RPCMethodName.ping.rawValue, params: JSON? = nil,
        setup: [(method: String, params: JSON?)] = []
    ) throws -> Result {
        precondition(count > 0)
        let fd: Int32
        do { fd = try POSIX.connectUnix(socketPath) } catch { throw RPCTransportError(error.message) }
        defer { close(fd) }
        let pendingIn = try setUp(fd, calls: setup)
        var client = PipelinedClient(fd: fd, requests: encode(count: count, method: method, params: params))
        client.carry = pendingIn
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let start = ContinuousClock.now
        try client.exchange(count: count, start: start)
        let elapsed = ContinuousClock.now - start
        if client.errors > 0 {
            throw RPCTransportError(
                "\(client.errors) of \(count) responses were errors (is '\(method)' registered and initialized?)")
        }
        let secs = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Result(requests: count, seconds: secs)
    }

    /// The setup calls, one at a time (blocking); the bytes read past the last reply.
    static func setUp(_ fd: Int32, calls setup: [(method: String, params: JSON?)]) throws -> [UInt8] {
        var pendingIn: [UInt8] = []
        for (i, call) in setup.enumerated() {
            var line = RPCMessage.request(id: .string("setup-\(i)"), method: call.method, params: call.params)
            line.append(0x0A)
            guard line.withUnsafeBytes({ POSIX.writeAll(fd, $0) }) else {
                throw RPCTransportError("write failed during setup")
            }
            var got: [UInt8] = []
            while !got.contains(0x0A) {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let bytesRead = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if bytesRead <= 0 { throw RPCTransportError("connection closed during setup") }
                got.append(contentsOf: chunk[0..<bytesRead])
            }
            let nl = got.firstIndex(of: 0x0A)!
            if let reply = try? JSON.parse(Array(got[..<nl])), let err = reply["error"] {
                throw RPCTransportError("setup call '\(call.method)' failed: \(err.jsonString)")
            }
            pendingIn = Array(got[(nl + 1)...])
        }
        return pendingIn
    }

    /// All requests pre-encoded, one per line.
    static func encode(count: Int, method: String, params: JSON?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count * 48)
        for i in 0..<count {
            out.append(contentsOf: RPCMessage.request(id: .number(Double(i)), method: method, params: params))
            out.append(0x0A)
        }
        return out
    }
}

/// One pipelined run on a non-blocking socket: writes the requests as the socket takes them and counts the
/// response lines (and the error responses) as they arrive.
private struct PipelinedClient {
    let fd: Int32
    let out: [UInt8]
    var written = 0
    var lines = 0
    var errors = 0
    /// The partial line at the end of the previous read.
    var carry: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 1 << 18)
    let errorNeedle = Array(#""error":"#.utf8)
    var lastProgress = ContinuousClock.now

    init(fd: Int32, requests: [UInt8]) {
        self.fd = fd
        self.out = requests
    }

    /// Until `count` responses have arrived; stalls of 10 s, closes and socket errors throw.
    mutating func exchange(count: Int, start: ContinuousClock.Instant) throws {
        lastProgress = start
        while lines < count {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN) | (written < out.count ? Int16(POLLOUT) : 0), revents: 0)
            let pr = poll(&pfd, 1, 1000)
            if pr < 0 {
                if errno == EINTR { continue }
                throw RPCTransportError("poll failed: \(POSIX.errnoString)")
            }
            if pr == 0 {
                if ContinuousClock.now - lastProgress > .seconds(10) {
                    throw RPCTransportError(
                        "benchmark stalled: \(lines) of \(count) responses after 10 s without progress")
                }
                continue
            }
            if pfd.revents & Int16(POLLOUT) != 0 && written < out.count { try writeSome() }
            if pfd.revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 { try readSome(count: count) }
        }
    }

    mutating func writeSome() throws {
        let bytesWritten = out.withUnsafeBytes { raw in
            POSIX.sendNoSignal(fd, raw.baseAddress! + written, min(raw.count - written, 1 << 16))
        }
        if bytesWritten > 0 {
            written += bytesWritten
            lastProgress = ContinuousClock.now
        } else if bytesWritten < 0 && errno != EAGAIN && errno != EINTR {
            throw RPCTransportError("write failed: \(POSIX.errnoString)")
        }
    }

    mutating func readSome(count: Int) throws {
        let fd = self.fd
        let bytesRead = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if bytesRead == 0 {
            throw RPCTransportError("server closed the connection after \(lines) of \(count) responses")
        }
        if bytesRead < 0 {
            if errno == EAGAIN || errno == EINTR { return }
            throw RPCTransportError("read failed: \(POSIX.errnoString)")
        }
        lastProgress = ContinuousClock.now
        carry.append(contentsOf: buf[0..<bytesRead])
        countLines()
    }

    /// Counts complete lines and the error responses among them; keeps the partial last line.
    mutating func countLines() {
        var lineStart = 0
        var (lines, errors) = (self.lines, self.errors)
        let errorNeedle = self.errorNeedle
        carry.withUnsafeBufferPointer { buffer in
            var offset = 0
            while let hit = memchr(buffer.baseAddress! + offset, 0x0A, buffer.count - offset) {
                let nl = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - buffer.baseAddress!
                if contains(buffer.baseAddress! + lineStart, nl - lineStart, errorNeedle) { errors += 1 }
                lines += 1
                offset = nl + 1
                lineStart = offset
            }
        }
        (self.lines, self.errors) = (lines, errors)
        carry.removeFirst(lineStart)
    }
}

/// Naive substring search (responses are short).
private func contains(_ bytes: UnsafePointer<UInt8>, _ count: Int, _ needle: [UInt8]) -> Bool {
    let needleCount = needle.count
    guard count >= needleCount, let first = needle.first else { return false }
    var start = 0
    while start <= count - needleCount {
        if bytes[start] == first {
            var matched = 1
            while matched < needleCount && bytes[start + matched] == needle[matched] { matched += 1 }
            if matched == needleCount { return true }
        }
        start += 1
    }
    return false
}

private func format3(_ seconds: Double) -> String {
    let ms = Int((seconds * 1000).rounded())
    let frac = ms % 1000
    return "\(ms / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
}
