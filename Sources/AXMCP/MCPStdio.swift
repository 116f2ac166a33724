import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The MCP stdio transport: newline-delimited JSON-RPC on standard input and output. Only protocol messages go to
/// stdout; nothing else is ever printed there. Returns when standard input closes (the host went away), after the
/// calls still running have answered or `grace` has passed (then they are cancelled).
package enum MCPStdio {
    /// Reads `input` until end of file, feeding each line to the session made by `makeSession` (which is given the
    /// writer of `output`).
    package static func run(
        input: Int32 = 0, output: Int32 = 1, grace: Duration = .seconds(2),
        makeSession: (@escaping @Sendable ([UInt8]) -> Void) -> MCPSession
    ) {
        // A host that closes stdout must not kill the process with SIGPIPE: the write fails and is dropped.
        signal(SIGPIPE, SIG_IGN)
        let writer = LineWriter(fd: output)
        let session = makeSession { bytes in writer.write(bytes) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var discarding = false
        while true {
            let count = chunk.withUnsafeMutableBytes { readFD(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                break
            }
            if count == 0 { break }
            var start = 0
            for index in 0..<count where chunk[index] == 0x0A {
                if discarding {
                    discarding = false
                } else {
                    buffer.append(contentsOf: chunk[start..<index])
                    session.receive(buffer[...])
                }
                buffer.removeAll(keepingCapacity: buffer.count < 1 << 20)
                start = index + 1
            }
            if !discarding { buffer.append(contentsOf: chunk[start..<count]) }
            if buffer.count > MCPSession.maxLineBytes {
                // Too long to be a message: answered once, then skipped up to its end of line.
                session.receive(buffer[...])
                buffer.removeAll()
                discarding = true
            }
        }
        if !buffer.isEmpty && !discarding { session.receive(buffer[...]) }
        // Calls already running get `grace` to answer (so `printf … | axquery mcp` prints its answers), then the
        // rest are cancelled: the host has gone, nothing waits for them.
        let clock = ContinuousClock()
        let deadline = clock.now + grace
        while session.runningCount > 0 && clock.now < deadline { usleep(5_000) }
        session.cancelAll()
    }

    @inline(__always) static func readFD(_ fd: Int32, _ pointer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
            return Darwin.read(fd, pointer, count)
        #elseif canImport(Musl)
            return Musl.read(fd, pointer, count)
        #else
            return Glibc.read(fd, pointer, count)
        #endif
    }
}

/// Writes whole lines to a file descriptor, one writer at a time (messages never interleave).
final class LineWriter: Sendable {
    let fd: Int32
    let lock = Mutex(false)

    init(fd: Int32) { self.fd = fd }

    func write(_ bytes: [UInt8]) {
        var line = bytes
        line.append(0x0A)
        lock.withLock { broken in
            guard !broken else { return }
            var offset = 0
            while offset < line.count {
                let written = line.withUnsafeBytes { raw -> Int in
                    guard let base = raw.baseAddress else { return 0 }
                    return writeFD(fd, base + offset, line.count - offset)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    broken = true  // the host closed stdout: nothing more can be said
                    return
                }
                offset += written
            }
        }
    }

    @inline(__always) func writeFD(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
            return Darwin.write(fd, pointer, count)
        #elseif canImport(Musl)
            return Musl.write(fd, pointer, count)
        #else
            return Glibc.write(fd, pointer, count)
        #endif
    }
}
