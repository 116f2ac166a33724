import AXJSON
import AXJSONRPC
import AXProtocol
import AXWire
import AXWireNIO
import NIOCore
import NIOPosix
import Synchronization

/// A JSON-RPC 2.0 client over NDJSON (used by axquery, the provider library and tests).
///
/// Addresses: `unix:PATH`, a bare absolute path, or `tcp:HOST:PORT`.
/// Incoming notifications go to `onNotification` (called in order on the connection's event loop — keep it
/// short); incoming requests go to `onRequest` (run in a Task; its result or error is sent back).
public final class RPCClient: Sendable {
    /// Receives a notification the server sent (method and params).
    public typealias NotificationHandler = @Sendable (_ method: String, _ params: JSON?) -> Void
    /// Answers a request the server sent (e.g. `action.perform`): return the result or throw an `RPCError`.
    public typealias RequestHandler = @Sendable (_ method: String, _ params: JSON?) async throws -> JSON

    /// Reads one incoming frame its own way (on the event loop): the JSON it answers stands for the frame; nil
    /// leaves the frame to the ordinary parser.
    public typealias FrameDecoder = @Sendable (_ frame: UnsafeRawBufferPointer) -> JSON?

    /// Nesting limit for messages the clients receive (`RPCClientLimits.maxReplyDepth`).
    public static let maxReplyDepth = RPCClientLimits.maxReplyDepth

    let channel: any Channel
    let pending: RPCPendingRequests
    /// Completes calls, answers the server's requests and keeps the handlers (the same for every client
    /// connection).
    private let inbox: RPCClientInbox
    /// The frame decoder set with `decodeFrames(with:)`.
    private let frameDecoderSlot = Mutex<FrameDecoder?>(nil)
    /// Requests whose result the caller reads as bytes (`callForBytes`) and the frames that answered them.
    private let byteResults = Mutex(ByteResults())

    private struct ByteResults {
        var wanted: Set<Int64> = []
        var arrived: [Int64: RPCResultBytes] = [:]
    }
    /// The largest frame this client reads.
    public let maxFrameBytes: Int

    private init(channel: any Channel, pending: RPCPendingRequests, maxFrameBytes: Int) {
        self.channel = channel
        self.pending = pending
        self.maxFrameBytes = maxFrameBytes
        self.inbox = RPCClientInbox(pending: pending) { payload in RPCClient.write(payload, to: channel) }
    }

    /// Connects to `address` (`unix:PATH`, `/abs/path`, or `tcp:HOST:PORT`).
    public static func connect(
        _ address: String, maxFrameBytes: Int = 64 << 20,
        group: (any EventLoopGroup)? = nil
    ) async throws -> RPCClient {
        let group = group ?? MultiThreadedEventLoopGroup.singleton
        let box = ClientBox()
        let bootstrap = ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        RPCClientHandler(box: box, maxFrameBytes: maxFrameBytes))
                }
            }
        let channel: any Channel
        do {
            switch try RPCAddress(address) {
            case .unix(let path):
                try AXSocketPath.verifySocketOwner(path)
                channel = try await bootstrap.connect(unixDomainSocketPath: path).get()
            case .tcp(let host, let port):
                channel = try await bootstrap.channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                    .connect(host: host, port: port).get()
            }
        } catch let transportError as RPCTransportError {
            throw transportError
        } catch let systemError as IOError {
            // The system's reason alone: IOError's description ("connect(descriptor:addr:size:): …) (errno: 2)")
            // names NIO's internal call and has an unbalanced parenthesis.
            let reason = String(cString: strerror(systemError.errnoCode))
            throw RPCTransportError("cannot connect to '\(address)': \(reason)")
        } catch {
            throw RPCTransportError("cannot connect to '\(address)': \(error)")
        }
        let client = RPCClient(
            channel: channel, pending: RPCPendingRequests(scheduler: EventLoopTimerScheduler(loop: channel.eventLoop)),
            maxFrameBytes: maxFrameBytes)
        box.set(client)
        channel.closeFuture.whenComplete { _ in client.didClose() }
        return client
    }

    /// Calls `method` and waits for its result. Errors: the server's error as is; -32020 on timeout or
    /// when the connection closes first. Cancelling the calling task fails the call with -32800 and tells the
    /// server with `$/cancelRequest {id}` (which ends a running `wait.for` there, Specs/protocol.md D-PROTO-1).
    public func call(_ method: String, _ params: JSON? = nil, timeout: Duration = .seconds(30)) async throws(RPCError)
        -> JSON
    {
        try await request(method, params, timeout: timeout, asBytes: false).json
    }

    /// Calls `method` as `call(_:_:timeout:)` does, but hands its result on as the server's bytes when the answer is
    /// a result frame of the server's shape (`{"jsonrpc":"2.0","id":N,"result":…}`, `RPCResultBytes`), unparsed: the
    /// caller decodes what it reads (the Swift client's `tree.get`, issue 35 item 3, D-CLIENT-TREE-2). Any other
    /// answer is parsed as usual and comes as `.parsed`; errors are thrown as `call` throws them.
    public func callForBytes(_ method: String, _ params: JSON? = nil, timeout: Duration = .seconds(30))
        async throws(RPCError) -> RPCResult
    {
        let (id, answer) = try await request(method, params, timeout: timeout, asBytes: true)
        let bytes = byteResults.withLock { state -> RPCResultBytes? in
            guard let id else { return nil }
            state.wanted.remove(id)
            return state.arrived.removeValue(forKey: id)
        }
        return bytes.map(RPCResult.bytes) ?? .parsed(answer)
    }

    /// Takes `frame` as the answer of a `callForBytes` request when it is one (its id wanted, its shape the server's
    /// result frame); false leaves the frame to the ordinary parser.
    func takeBytes(_ frame: UnsafeRawBufferPointer) -> Int64? {
        guard let (id, result) = RPCResultBytes.peek(frame) else { return nil }
        let taken = byteResults.withLock { state -> Bool in
            guard state.wanted.remove(id) != nil else { return false }
            state.arrived[id] = RPCResultBytes(frame: Array(frame.bindMemory(to: UInt8.self)), result: result)
            return true
        }
        return taken ? id : nil
    }

    /// Requests waiting for their bytes and bytes not yet taken (for tests: both are 0 between calls).
    var byteResultsPending: Int { byteResults.withLock { $0.wanted.count + $0.arrived.count } }

    private func request(_ method: String, _ params: JSON?, timeout: Duration, asBytes: Bool) async throws(RPCError)
        -> (id: Int64?, json: JSON)
    {
        // The id once the request is written, and whether the caller cancelled: whichever of the two comes second
        // sends `$/cancelRequest`, so a request written while its caller is being cancelled is still cancelled
        // on the server (and one cancelled before it was written is never sent: `perform` checks first).
        let sent = Mutex<(id: JSON?, cancelled: Bool)>((nil, false))
        let result: Result<JSON, RPCError> = await withTaskCancellationHandler {
            do throws(RPCError) {
                return .success(
                    try await pending.perform(method: method, timeout: timeout) { id in
                        if asBytes, let number = id.intValue {
                            byteResults.withLock { _ = $0.wanted.insert(Int64(number)) }
                        }
                        let written = send(RPCMessage.request(id: id, method: method, params: params))
                        let cancelledMeanwhile = sent.withLock { state -> Bool in
                            state.id = id
                            return state.cancelled
                        }
                        if written && cancelledMeanwhile { notify(RPCMethod.cancelRequest.request([.id: id])) }
                        return written
                    })
            } catch {
                return .failure(error)
            }
        } onCancel: {
            let id = sent.withLock { state -> JSON? in
                state.cancelled = true
                return state.id
            }
            if let id { notify(RPCMethod.cancelRequest.request([.id: id])) }
        }
        let id = sent.withLock { $0.id?.intValue.map(Int64.init) }
        switch result {
        case .success(let answer): return (id, answer)
        case .failure(let error):
            if let id {
                byteResults.withLock { state in
                    state.wanted.remove(id)
                    state.arrived.removeValue(forKey: id)
                }
            }
            throw error
        }
    }

    /// Sends a notification (no answer).
    public func notify(_ method: String, _ params: JSON? = nil) {
        send(RPCMessage.notification(method: method, params: params))
    }

    /// Calls a request built from the catalog's typed keys (`RPCMethod.x.request(…)`, D-CATALOG-3).
    public func call(_ request: RPCRequest, timeout: Duration = .seconds(30)) async throws(RPCError) -> JSON {
        try await call(request.method, request.json, timeout: timeout)
    }

    /// Sends a request built from the catalog's typed keys as a notification (no answer).
    public func notify(_ request: RPCRequest) {
        notify(request.method, request.json)
    }

    /// Sends raw bytes followed by a newline (for tests of malformed input).
    public func sendRaw(_ payload: [UInt8]) { send(payload) }

    /// Sets the handler of incoming notifications (called in order on the event loop; keep it short).
    public func onNotification(_ handler: @escaping NotificationHandler) { inbox.onNotification(handler) }

    /// Sets a decoder that sees each incoming frame before the ordinary parser (for replies the owner reads its own
    /// way: axdriver hands the page source on as the JSON string literal it arrived as, issue 35 item 5).
    public func decodeFrames(with decoder: @escaping FrameDecoder) {
        frameDecoderSlot.withLock { $0 = decoder }
    }

    /// The frame decoder, if one is set.
    var frameDecoder: FrameDecoder? { frameDecoderSlot.withLock { $0 } }

    /// Sets the handler of incoming requests (each runs in a Task; its answer is sent back).
    public func onRequest(_ handler: @escaping RequestHandler) { inbox.onRequest(handler) }

    /// Adds a handler run once when the connection closes (at once when it already has).
    public func onClose(_ handler: @escaping @Sendable () -> Void) { inbox.onClose(handler) }

    /// True once the connection has closed.
    public var isClosed: Bool { inbox.isClosed }

    /// Closes the connection; pending calls fail with -32020 (disconnected).
    public func close() async {
        try? await channel.close()
        didClose()
    }

    @discardableResult
    func send(_ payload: [UInt8]) -> Bool { RPCClient.write(payload, to: channel) }

    /// Writes `payload` and its newline to `channel`; false when it is closed.
    private static func write(_ payload: [UInt8], to channel: any Channel) -> Bool {
        guard channel.isActive else { return false }
        var buf = channel.allocator.buffer(capacity: payload.count + 1)
        buf.writeBytes(payload)
        buf.writeInteger(UInt8(0x0A))
        channel.writeAndFlush(buf, promise: nil)
        return true
    }

    func didClose() { inbox.didClose() }

    /// Dispatches one incoming message (on the event loop).
    func received(_ message: JSON) {
        // The contract the handler relies on (notifications are delivered in order): checked in debug builds.
        channel.eventLoop.assertInEventLoop()
        inbox.deliver(message)
    }
}

/// Lets the channel handler reach the client once it exists.
final class ClientBox: Sendable {
    private let client = Mutex<RPCClient?>(nil)
    func set(_ newClient: RPCClient) { client.withLock { $0 = newClient } }
    var value: RPCClient? { client.withLock { $0 } }
}

final class RPCClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let box: ClientBox
    private var decoder: RPCFrameDecoder
    private var inbound: ByteBuffer?
    private var early: [JSON] = []
    private let maxFrameBytes: Int

    init(box: ClientBox, maxFrameBytes: Int) {
        self.box = box
        self.maxFrameBytes = maxFrameBytes
        self.decoder = RPCFrameDecoder(maxFrameBytes: maxFrameBytes, framing: .ndjson)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if inbound == nil || inbound!.readableBytes == 0 { inbound = incoming } else { inbound!.writeBuffer(&incoming) }
        var messages: [JSON] = []
        var fatal = false
        let frameDecoder = box.value?.frameDecoder
        let consumed: Int = inbound!.withUnsafeReadableBytes { raw in
            let (taken, broken) = decoder.split(raw) { frame in
                if let message = message(of: frame, frameDecoder) { messages.append(message) }
            }
            fatal = broken
            return taken
        }
        inbound!.moveReaderIndex(forwardBy: consumed)
        if inbound!.readableBytes == 0 { inbound = nil }
        if let client = box.value {
            for message in early { client.received(message) }
            early = []
            for message in messages { client.received(message) }
        } else {
            early.append(contentsOf: messages)
        }
        if fatal { context.close(promise: nil) }
    }

    /// The message one frame stands for: a `callForBytes` answer (its bytes kept by the client) completes its
    /// request with `null`, in order with the other messages; else the frame decoder's reading or the parsed frame
    /// (nil when it does not parse).
    private func message(of frame: UnsafeRawBufferPointer, _ frameDecoder: RPCClient.FrameDecoder?) -> JSON? {
        if let id = box.value?.takeBytes(frame) {
            return ["jsonrpc": "2.0", "id": .number(Double(id)), "result": .null]
        }
        return frameDecoder?(frame)
            ?? (try? JSON.parse(
                frame, limits: JSONParseLimits(maxDepth: RPCClient.maxReplyDepth, maxBytes: maxFrameBytes)))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
