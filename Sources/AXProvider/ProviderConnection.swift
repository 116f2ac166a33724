import AXJSON
import AXJSONRPC
import AXWire
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The provider library's connection to the server (D-PROVIDER-WIRE-1): JSON-RPC over NDJSON on a plain POSIX
/// socket, so an app that links AXProvider builds no NIO.
///
/// One reader thread of its own reads the socket, splits it into frames (`RPCFrameDecoder`) and delivers each
/// message in order (`RPCClientInbox`): a response completes its call, a notification runs the notification handler
/// on that thread (keep it short), a request runs the request handler in a Task whose answer is written back.
/// A write goes to the socket at once, one at a time; the server reads whatever it is sent, so a write waits only
/// while the kernel's buffer drains.
final class ProviderConnection: Sendable {
    private struct Handlers {
        var notification: RPCClientInbox.NotificationHandler?
        var request: RPCClientInbox.RequestHandler?
        var close: [@Sendable () -> Void] = []
        var closed = false
    }

    /// The socket, -1 once closed. Writes hold the lock, so it is never closed (and its number reused) under one.
    private let socket: Mutex<Int32>
    private let pending = RPCPendingRequests()
    private let handlers = Mutex(Handlers())
    private let maxFrameBytes: Int

    private init(socket: Int32, maxFrameBytes: Int) {
        self.socket = Mutex(socket)
        self.maxFrameBytes = maxFrameBytes
    }

    /// Connects to `address` (`unix:PATH`, `/abs/path` or `tcp:HOST:PORT`) and starts reading.
    static func connect(_ address: String, maxFrameBytes: Int = 64 << 20) throws(RPCTransportError)
        -> ProviderConnection
    {
        let connection = ProviderConnection(socket: try RPCAddress.connect(address), maxFrameBytes: maxFrameBytes)
        try connection.startReading()
        return connection
    }

    /// Calls `method` and waits for its result: the server's error as is; −32020 on timeout or when the connection
    /// closes first; −32800 when the calling task is cancelled.
    func call(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
        try await pending.perform(method: method, timeout: timeout) { id in
            send(RPCMessage.request(id: id, method: method, params: params))
        }
    }

    /// Sets the handler of the server's notifications (run on the reader thread, in order).
    func onNotification(_ handler: @escaping RPCClientInbox.NotificationHandler) {
        handlers.withLock { $0.notification = handler }
    }

    /// Sets the handler of the server's requests (each runs in a Task; its answer is sent back).
    func onRequest(_ handler: @escaping RPCClientInbox.RequestHandler) {
        handlers.withLock { $0.request = handler }
    }

    /// Adds a handler run once when the connection closes (at once when it already has).
    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let now: Bool = handlers.withLock { locked in
            if locked.closed { return true }
            locked.close.append(handler)
            return false
        }
        if now { handler() }
    }

    /// Closes the connection: the server sees it end at once; pending calls fail with −32020 (disconnected).
    func close() {
        socket.withLock { descriptor in
            if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
        didClose()
    }

    /// Writes `payload` and its newline; false when the connection is closed or the write failed.
    private func send(_ payload: [UInt8]) -> Bool {
        socket.withLock { descriptor in
            guard descriptor >= 0 else { return false }
            let newline: [UInt8] = [0x0A]
            return payload.withUnsafeBytes { POSIX.writeAll(descriptor, $0) }
                && newline.withUnsafeBytes { POSIX.writeAll(descriptor, $0) }
        }
    }

    /// Starts the reader thread; it holds the connection until the socket ends.
    private func startReading() throws(RPCTransportError) {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<ProviderConnection>.fromOpaque(context).takeRetainedValue().readUntilClosed()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<ProviderConnection>.fromOpaque(context).release()
            closeSocket()
            throw RPCTransportError("cannot start the connection's reader thread: \(String(cString: strerror(status)))")
        }
        pthread_detach(thread)
    }

    /// The reader thread: reads and delivers until the server closes, `close()` shuts the socket, or a frame is over
    /// `maxFrameBytes`; then closes the socket and fails what is pending.
    private func readUntilClosed() {
        let descriptor = socket.withLock { $0 }
        var decoder = RPCFrameDecoder(maxFrameBytes: maxFrameBytes, framing: .ndjson)
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var open = descriptor >= 0
        while open {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.append(contentsOf: chunk[0..<count])
            let (messages, consumed, fatal) = frames(in: buffer, decoder: &decoder)
            buffer.removeFirst(consumed)
            let (notification, request) = handlers.withLock { ($0.notification, $0.request) }
            let inbox = RPCClientInbox(pending: pending) { [self] payload in send(payload) }
            for message in messages { inbox.deliver(message, notification: notification, request: request) }
            open = !fatal
        }
        closeSocket()
        didClose()
    }

    /// The messages of the complete frames at the start of `buffer`, the bytes they took, and whether the stream
    /// broke (a frame over the limit). A frame that does not parse is dropped, as `RPCClient` drops it.
    private func frames(in buffer: [UInt8], decoder: inout RPCFrameDecoder) -> ([JSON], Int, Bool) {
        let limits = JSONParseLimits(maxDepth: RPCClientLimits.maxReplyDepth, maxBytes: maxFrameBytes)
        return buffer.withUnsafeBytes { raw in
            var messages: [JSON] = []
            var consumed = 0
            while true {
                let rest = UnsafeRawBufferPointer(rebasing: raw[consumed...])
                switch decoder.next(rest) {
                case .needMore: return (messages, consumed, false)
                case .skip(let count): consumed += count
                case .frame(let start, let length, let frameBytes):
                    let frame = UnsafeRawBufferPointer(rebasing: rest[start..<(start + length)])
                    if let message = try? JSON.parse(frame, limits: limits) { messages.append(message) }
                    consumed += frameBytes
                case .tooLarge, .malformed: return (messages, consumed, true)
                }
            }
        }
    }

    private func closeSocket() {
        socket.withLock { descriptor in
            if descriptor >= 0 { POSIX.closeFD(descriptor) }
            descriptor = -1
        }
    }

    private func didClose() {
        let closeHandlers: [@Sendable () -> Void] = handlers.withLock { locked in
            if locked.closed { return [] }
            locked.closed = true
            defer { locked.close = [] }
            return locked.close
        }
        pending.failAll(.disconnected())
        for handler in closeHandlers { handler() }
    }
}
