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
    /// The socket, -1 once closed. Writes hold the lock, so it is never closed (and its number reused) under one.
    private final class Socket: Sendable {
        let descriptor: Mutex<Int32>

        init(_ descriptor: Int32) { self.descriptor = Mutex(descriptor) }

        /// Writes `payload` and its newline; false when the socket is closed or the write failed.
        func write(_ payload: [UInt8]) -> Bool {
            descriptor.withLock { descriptor in
                guard descriptor >= 0 else { return false }
                let newline: [UInt8] = [0x0A]
                return payload.withUnsafeBytes { POSIX.writeAll(descriptor, $0) }
                    && newline.withUnsafeBytes { POSIX.writeAll(descriptor, $0) }
            }
        }

        /// Ends the stream both ways: the peer sees it end, and the reader's `recv` returns.
        func shutDown() {
            descriptor.withLock { descriptor in
                if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
            }
        }

        func close() {
            descriptor.withLock { descriptor in
                if descriptor >= 0 { POSIX.closeFD(descriptor) }
                descriptor = -1
            }
        }
    }

    private let socket: Socket
    /// Completes calls, answers the server's requests and keeps the handlers (shared with `RPCClient`).
    private let inbox: RPCClientInbox
    private let maxFrameBytes: Int

    private init(socket descriptor: Int32, maxFrameBytes: Int) {
        let socket = Socket(descriptor)
        self.socket = socket
        self.inbox = RPCClientInbox(pending: RPCPendingRequests()) { socket.write($0) }
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
        try await inbox.pending.perform(method: method, timeout: timeout) { id in
            socket.write(RPCMessage.request(id: id, method: method, params: params))
        }
    }

    /// Sets the handler of the server's notifications (run on the reader thread, in order).
    func onNotification(_ handler: @escaping RPCClientInbox.NotificationHandler) { inbox.onNotification(handler) }

    /// Sets the handler of the server's requests (each runs in a Task; its answer is sent back).
    func onRequest(_ handler: @escaping RPCClientInbox.RequestHandler) { inbox.onRequest(handler) }

    /// Adds a handler run once when the connection closes (at once when it already has).
    func onClose(_ handler: @escaping @Sendable () -> Void) { inbox.onClose(handler) }

    /// Closes the connection: the server sees it end at once; pending calls fail with −32020 (disconnected).
    func close() {
        socket.shutDown()
        inbox.didClose()
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
            socket.close()
            throw RPCTransportError("cannot start the connection's reader thread: \(String(cString: strerror(status)))")
        }
        pthread_detach(thread)
    }

    /// The reader thread: reads and delivers until the server closes, `close()` shuts the socket, or a frame is over
    /// `maxFrameBytes` (a frame that does not parse is dropped, as `RPCClient` drops it); then closes the socket and
    /// fails what is pending.
    private func readUntilClosed() {
        let descriptor = socket.descriptor.withLock { $0 }
        let limits = JSONParseLimits(maxDepth: RPCClientLimits.maxReplyDepth, maxBytes: maxFrameBytes)
        var decoder = RPCFrameDecoder(maxFrameBytes: maxFrameBytes, framing: .ndjson)
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var open = descriptor >= 0
        while open {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.append(contentsOf: chunk[0..<count])
            var messages: [JSON] = []
            let (consumed, broken) = buffer.withUnsafeBytes { raw in
                decoder.split(raw) { frame in
                    if let message = try? JSON.parse(frame, limits: limits) { messages.append(message) }
                }
            }
            buffer.removeFirst(consumed)
            for message in messages { inbox.deliver(message) }
            open = !broken
        }
        socket.close()
        inbox.didClose()
    }
}
