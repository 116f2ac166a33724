import AXJSON
import AXJSONRPC

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking JSON-RPC client over plain POSIX sockets (no NIO, no threads), NDJSON framing.
/// For command-line tools. Not thread-safe: use from one thread at a time.
///
/// Notifications that arrive while waiting for a response go to `onNotification`; server->client requests
/// are answered with -32601 (a CLI does not serve methods).
public final class SyncRPCClient {
    private var fd: Int32
    private var nextID: Int64 = 1
    /// A call is in progress (the debug check of the one-thread contract).
    private var inCall = false
    private var buffer: [UInt8] = []
    private var consumed = 0
    /// The largest frame this client reads.
    public let maxFrameBytes: Int
    /// Receives notifications that arrive while a call waits for its response.
    public var onNotification: ((String, JSON?) -> Void)?

    /// Connects to `unix:PATH`, `/abs/path` or `tcp:HOST:PORT`.
    public init(address: String, maxFrameBytes: Int = 64 << 20) throws(RPCTransportError) {
        self.maxFrameBytes = maxFrameBytes
        fd = try RPCAddress.connect(address)
    }

    deinit { close() }

    /// True once `close()` ran or the connection failed.
    public var isClosed: Bool { fd < 0 }

    /// Closes the socket.
    public func close() {
        if fd >= 0 {
            POSIX.closeFD(fd)
            fd = -1
        }
    }

    /// Sends a request and blocks until its response (or `timeout`: -32020; connection loss: -32020 disconnected).
    public func call(_ method: String, _ params: JSON? = nil, timeout: Duration = .seconds(30)) throws(RPCError) -> JSON
    {
        // Not thread-safe (see the type): debug builds catch a second call overlapping this one.
        assert(!inCall, "SyncRPCClient.call('\(method)') overlaps another call; use one client per thread")
        inCall = true
        defer { inCall = false }
        let id = nextID
        nextID += 1
        try sendLine(RPCMessage.request(id: .number(Double(id)), method: method, params: params), method: method)
        let deadline = ContinuousClock.now + timeout
        while true {
            let line = try readLine(deadline: deadline, method: method, timeout: timeout)
            guard
                let msg = try? JSON.parse(
                    line, limits: JSONParseLimits(maxDepth: RPCClient.maxReplyDepth, maxBytes: maxFrameBytes))
            else {
                continue
            }
            switch RPCInbound.classify(msg) {
            case .response(let rid, let result):
                if rid == .number(Double(id)) { return try result.get() }
            case .notification(let notificationMethod, let notificationParams):
                onNotification?(notificationMethod, notificationParams)
            case .request(let rid, let requestMethod, _):
                try sendLine(RPCMessage.errorResponse(id: rid, .methodNotFound(requestMethod)), method: method)
            case .invalid:
                continue
            }
        }
    }

    /// Sends a notification.
    public func notify(_ method: String, _ params: JSON? = nil) throws(RPCError) {
        try sendLine(RPCMessage.notification(method: method, params: params), method: method)
    }

    private func sendLine(_ payload: [UInt8], method: String) throws(RPCError) {
        guard fd >= 0 else { throw .disconnected(method: method) }
        var bytes = payload
        bytes.append(0x0A)
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            var off = 0
            while off < raw.count {
                let sent = POSIX.sendNoSignal(fd, raw.baseAddress! + off, raw.count - off)
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                off += sent
            }
            return true
        }
        if !ok {
            close()
            throw .disconnected(method: method)
        }
    }

    /// The next non-blank line already received (without its CR LF), or nil when no complete one is buffered.
    private func takeBufferedLine() -> [UInt8]? {
        while let newline = buffer[consumed...].firstIndex(of: 0x0A) {
            var end = newline
            if end > consumed && buffer[end - 1] == 0x0D { end -= 1 }
            let line = Array(buffer[consumed..<end])
            consumed = newline + 1
            if consumed > 65536 && consumed * 2 > buffer.count {
                buffer.removeFirst(consumed)
                consumed = 0
            }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            return line
        }
        return nil
    }

    private func readLine(deadline: ContinuousClock.Instant, method: String, timeout: Duration) throws(RPCError)
        -> [UInt8]
    {
        while true {
            if let line = takeBufferedLine() {
                return line
            }
            if buffer.count - consumed > maxFrameBytes {
                close()
                throw .messageTooLarge("response larger than \(maxFrameBytes) bytes", data: ["limit": "maxFrameBytes"])
            }
            guard fd >= 0 else { throw .disconnected(method: method) }
            let left = deadline - ContinuousClock.now
            if left <= .zero {
                throw .appNotResponding(
                    "no response to '\(method)' within \(timeout)",
                    data: ["method": .string(method), "reason": "timeout"])
            }
            var pollDescriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let waitMilliseconds = Int32(
                min(
                    Int64(left.components.seconds) * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1,
                    60_000))
            let ready = poll(&pollDescriptor, 1, waitMilliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                close()
                throw .disconnected(method: method)
            }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if received < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                close()
                throw .disconnected(method: method)
            }
            if received == 0 {
                close()
                throw .disconnected(method: method)
            }
            buffer.append(contentsOf: chunk[0..<received])
        }
    }
}
