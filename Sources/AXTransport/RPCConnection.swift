import AXJSON
import AXRPC
import Logging
import NIOCore
import Synchronization

/// Process-wide connection id counter (ids are never reused).
enum ConnectionIDs {
    static let next = Atomic<UInt64>(1)
    static func make() -> UInt64 { next.wrappingAdd(1, ordering: .relaxed).oldValue }
}

/// Timeouts on a NIO event loop (no Task per pending request).
struct EventLoopTimerScheduler: RPCTimerScheduler {
    let loop: any EventLoop
    func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> RPCTimerHandle {
        let c = delay.components
        let ns = c.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let total = ns.overflow ? Int64.max : ns.partialValue &+ c.attoseconds / 1_000_000_000
        let t = loop.scheduleTask(in: .nanoseconds(max(0, total))) { body() }
        return RPCTimerHandle { t.cancel() }
    }
}

/// The server side of one connection as an `RPCPeer`. All writes hop to the channel's event loop.
final class RPCConnectionPeer: RPCPeer {
    let connectionID: UInt64
    let channel: any Channel
    let pending: RPCPendingRequests
    private let handler: NIOLoopBound<RPCConnectionHandler>
    private struct State {
        var closed = false
        var closeHandlers: [@Sendable () -> Void] = []
    }
    private let state = Mutex(State())

    init(connectionID: UInt64, channel: any Channel, pending: RPCPendingRequests, handler: NIOLoopBound<RPCConnectionHandler>) {
        self.connectionID = connectionID
        self.channel = channel
        self.pending = pending
        self.handler = handler
    }

    /// Queues an already-encoded message (without framing). Returns false when the connection is closed.
    @discardableResult
    func send(_ payload: [UInt8]) -> Bool {
        if isClosed { return false }
        if channel.eventLoop.inEventLoop {
            handler.value.sendMessage(payload)
        } else {
            let h = handler
            channel.eventLoop.execute { h.value.sendMessage(payload) }
        }
        return true
    }

    func notify(_ method: String, _ params: JSON?) {
        send(RPCMessage.notification(method: method, params: params))
    }

    func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
        try await pending.perform(method: method, timeout: timeout) { id in
            send(RPCMessage.request(id: id, method: method, params: params))
        }
    }

    func close() {
        if isClosed { return }
        let h = handler
        channel.eventLoop.execute { h.value.closeAfterFlush() }
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = state.withLock { s in
            if s.closed { return true }
            s.closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Called once by the handler when the channel goes inactive.
    func markClosed() {
        let handlers: [@Sendable () -> Void] = state.withLock { s in
            if s.closed { return [] }
            s.closed = true
            defer { s.closeHandlers = [] }
            return s.closeHandlers
        }
        pending.failAll(.disconnected())
        for h in handlers { h() }
    }
}

/// Shared, immutable per-listener settings for connection handlers.
struct RPCListenerContext: Sendable {
    let router: RPCRouter
    /// When set, the first message must be `initialize` with `params.token` equal to this.
    let token: [UInt8]?
    let logger: Logger
    let registry: RPCConnectionRegistry
    let onSession: (@Sendable (RPCSession) -> Void)?
}

/// Live connections of a server (for `stop()` and counting).
final class RPCConnectionRegistry: Sendable {
    private let entries = Mutex<[UInt64: (peer: RPCConnectionPeer, session: RPCSession)]>([:])
    func add(_ p: RPCConnectionPeer, _ s: RPCSession) { entries.withLock { $0[p.connectionID] = (p, s) } }
    func remove(_ id: UInt64) { entries.withLock { _ = $0.removeValue(forKey: id) } }
    var all: [RPCConnectionPeer] { entries.withLock { $0.values.map(\.peer) } }
    var sessions: [RPCSession] { entries.withLock { $0.values.map(\.session) } }
    var count: Int { entries.withLock { $0.count } }
}

/// Framing, dispatch and write coalescing for one server connection. Lives on the channel's event loop.
///
/// Ordering: messages of one connection are processed in order. Synchronous frames are answered inline on
/// the event loop. The first frame that needs an async handler starts the connection's `RPCAsyncLane`
/// (one worker Task); while it is busy, later frames are parsed here (responses to server->client requests
/// complete at once, so a provider can answer while its own call is pending) and queued to the lane, which
/// runs them in order. Replies are written in order; those produced while reading are flushed once per read
/// batch (`channelReadComplete`), those from the lane are coalesced through its outbox.
final class RPCConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let ctx: RPCListenerContext
    private var decoder: RPCFrameDecoder
    private var context: ChannelHandlerContext?
    private var inbound: ByteBuffer?
    private var outbound: ByteBuffer?
    private var inReadBatch = false
    private var lane: RPCAsyncLane?
    private var closing = false
    private var pausedForQueue = false
    private var pausedForWrites = false
    private(set) var peer: RPCConnectionPeer?
    private(set) var session: RPCSession?

    /// Queue length (while an async call runs) at which reading from this client pauses.
    static let maxQueued = 4096

    init(context: RPCListenerContext) {
        self.ctx = context
        self.decoder = RPCFrameDecoder(maxFrameBytes: context.router.limits.maxFrameBytes)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let pending = RPCPendingRequests(scheduler: EventLoopTimerScheduler(loop: context.eventLoop))
        let peer = RPCConnectionPeer(connectionID: ConnectionIDs.make(), channel: context.channel, pending: pending,
                                     handler: NIOLoopBound(self, eventLoop: context.eventLoop))
        self.peer = peer
        let session = RPCSession(peer: peer, pendingRequests: pending, authenticated: ctx.token == nil)
        self.session = session
        self.lane = RPCAsyncLane(router: ctx.router, session: session, loop: context.eventLoop,
                                 handler: NIOLoopBound(self, eventLoop: context.eventLoop))
        ctx.registry.add(peer, session)
        ctx.onSession?(session)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    private func finish() {
        guard let peer else { return }
        closing = true
        lane?.close()
        ctx.registry.remove(peer.connectionID)
        peer.markClosed()
        // Break the handler <-> peer/lane reference cycles.
        self.lane = nil
        self.session = nil
        self.peer = nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        ctx.logger.debug("connection error: \(error)", metadata: ["conn": "\(peer?.connectionID ?? 0)"])
        context.close(promise: nil)
    }

    // MARK: reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if closing { return }
        if inbound == nil || inbound!.readableBytes == 0 {
            inbound = incoming
        } else {
            inbound!.writeBuffer(&incoming)
        }
        inReadBatch = true
        processInbound()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        inReadBatch = false
        flush()
        if let b = inbound {
            if b.readableBytes == 0 { inbound = nil } else if b.readerIndex > 65536 { inbound!.discardReadBytes() }
        }
        if !context.channel.isWritable && !pausedForWrites {
            pausedForWrites = true
            updateAutoRead()
        }
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable && pausedForWrites {
            pausedForWrites = false
            updateAutoRead()
        }
        context.fireChannelWritabilityChanged()
    }

    private func updateAutoRead() {
        guard let context else { return }
        let on = !(pausedForQueue || pausedForWrites)
        context.channel.setOption(ChannelOptions.autoRead, value: on).whenComplete { _ in }
        if on { context.read() }
    }

    private func processInbound() {
        guard inbound != nil else { return }
        while !closing {
            // Decode and handle as many frames as are complete, without copying them out of the buffer.
            let step: (consumed: Int, stop: Bool) = inbound!.withUnsafeReadableBytes { raw in
                var total = 0
                while !closing {
                    let rest = UnsafeRawBufferPointer(rebasing: raw[total...])
                    switch decoder.next(rest) {
                    case .needMore:
                        return (total, true)
                    case .skip(let c):
                        total += c
                    case .frame(let start, let length, let consumed):
                        handleFrame(UnsafeRawBufferPointer(rebasing: rest[start..<(start + length)]))
                        total += consumed
                    case .tooLarge(let size):
                        let max = ctx.router.limits.maxFrameBytes
                        sendMessage(RPCMessage.errorResponse(id: .null, .messageTooLarge(
                            "message of \(size) bytes exceeds the limit of \(max) bytes; closing the connection",
                            data: ["limit": "maxFrameBytes", "max": .number(Double(max)), "size": .number(Double(size))])))
                        closeAfterFlush()
                        return (total, true)
                    case .malformed(let why):
                        sendMessage(RPCMessage.errorResponse(id: .null, .parseError(
                            "malformed frame header: \(why); closing the connection")))
                        closeAfterFlush()
                        return (total, true)
                    }
                }
                return (total, true)
            }
            if closing { return }
            inbound!.moveReaderIndex(forwardBy: step.consumed)
            if step.stop { return }
        }
    }

    private func handleFrame(_ raw: UnsafeRawBufferPointer) {
        guard let session else { return }
        if !session.authenticated, let token = ctx.token {
            guard authenticate(raw, token: token, session: session) else { return }
        }
        guard let lane else { return }
        switch ctx.router.prepare(frame: raw, session: session) {
        case .noReply:
            return
        case .reply(let bytes):
            if lane.enqueueIfBusy(.reply(bytes)) { checkQueuePressure(lane); return }
            drainOutbox()
            sendMessage(bytes)
        case .needsAsync(let frame):
            // While the server waits for this peer to answer a server->client request (a provider performing an
            // action), the peer may need this call answered first (e.g. its hierarchy.update): run it now, out of
            // order, instead of queueing it behind the pending call — that would deadlock a connection that is
            // both an automation client and an app.
            if session.pendingRequests.count > 0, lane.isBusy {
                switch ctx.router.runSync(frame, session: session) {
                case .reply(let bytes): sendMessage(bytes)
                case .noReply: break
                case .needsAsync(let f):
                    let router = ctx.router, peer = self.peer
                    Task { if let b = await router.run(f, session: session) { peer?.send(b) } }
                }
                return
            }
            if lane.enqueueIfBusy(.frame(frame)) { checkQueuePressure(lane); return }
            drainOutbox()
            switch ctx.router.runSync(frame, session: session) {
            case .reply(let bytes): sendMessage(bytes)
            case .noReply: break
            case .needsAsync(let f): lane.start(f)
            }
        }
    }

    private func checkQueuePressure(_ lane: RPCAsyncLane) {
        if !pausedForQueue && lane.queuedCount >= Self.maxQueued {
            pausedForQueue = true
            updateAutoRead()
        }
    }

    /// Writes the replies the lane produced (on the event loop, in order).
    func drainOutbox() {
        guard let lane else { return }
        let replies = lane.takeOutbox()
        guard !replies.isEmpty else { return }
        for r in replies { sendMessage(r, flushNow: false) }
        if !inReadBatch { flush() }
        if pausedForQueue && lane.queuedCount < Self.maxQueued / 2 {
            pausedForQueue = false
            updateAutoRead()
        }
    }

    /// The lane ran out of work.
    func laneIdle() {
        drainOutbox()
        if pausedForQueue {
            pausedForQueue = false
            updateAutoRead()
        }
    }

    /// First message of a connection that needs a token: `initialize` with `params.token`.
    private func authenticate(_ raw: UnsafeRawBufferPointer, token: [UInt8], session: RPCSession) -> Bool {
        var id: JSON = .null
        var reason = "the first message must be 'initialize' with params.token"
        if let msg = try? JSON.parse(raw, limits: JSONParseLimits(maxDepth: ctx.router.limits.maxDepth,
                                                                  maxBytes: ctx.router.limits.maxFrameBytes)) {
            if let i = msg["id"], i.stringValue != nil || i.doubleValue != nil { id = i }
            if msg["method"]?.stringValue == "initialize" {
                if let given = msg["params"]?["token"]?.stringValue {
                    if constantTimeEqual(Array(given.utf8), token) {
                        session.authenticated = true
                        return true
                    }
                    reason = "invalid token"
                } else {
                    reason = "missing params.token in 'initialize'"
                }
            }
        } else {
            reason = "the first message must be a valid JSON 'initialize' request with params.token"
        }
        ctx.logger.notice("refusing unauthenticated connection: \(reason)", metadata: ["conn": "\(peer?.connectionID ?? 0)"])
        sendMessage(RPCMessage.errorResponse(id: id, .unauthorized("unauthorized: \(reason)")))
        closeAfterFlush()
        return false
    }

    // MARK: writing

    /// Frames and queues one message; flushed at the end of the read batch, or now when not reading.
    func sendMessage(_ payload: [UInt8], flushNow: Bool = true) {
        guard let context, context.channel.isActive else { return }
        if outbound == nil {
            outbound = context.channel.allocator.buffer(capacity: max(256, payload.count + 32))
        }
        decoder.framing.encode(payload, into: &outbound!)
        if flushNow && !inReadBatch { flush() }
    }

    private func flush() {
        guard let context, let out = outbound, out.readableBytes > 0 else { return }
        outbound = nil
        context.writeAndFlush(wrapOutboundOut(out), promise: nil)
    }

    /// How long a closing connection may take to flush its last replies to a client that does not read.
    static let closeGrace: TimeAmount = .seconds(1)

    /// Flushes what is queued, then closes the connection (at the latest after `closeGrace`).
    func closeAfterFlush() {
        guard let context else { return }
        if closing && outbound == nil { context.close(promise: nil); return }
        closing = true
        let out = outbound ?? context.channel.allocator.buffer(capacity: 0)
        outbound = nil
        let channel = context.channel
        let deadline = context.eventLoop.scheduleTask(in: Self.closeGrace) { channel.close(promise: nil) }
        context.writeAndFlush(wrapOutboundOut(out)).whenComplete { _ in
            deadline.cancel()
            channel.close(promise: nil)
        }
    }
}

/// Runs a connection's frames that need async handlers, in order, on one worker Task at a time.
/// Shared between the event loop (enqueue, outbox drain) and the worker (run, post replies).
final class RPCAsyncLane: Sendable {
    enum Item: Sendable {
        case reply([UInt8])
        case frame(RPCPreparedFrame)
    }
    private struct State {
        var queue = CircularBuffer<Item>()
        var running = false
        var closed = false
        var outbox: [[UInt8]] = []
        var drainScheduled = false
    }
    private let state = Mutex(State())
    private let router: RPCRouter
    private let session: RPCSession
    private let loop: any EventLoop
    private let handler: NIOLoopBound<RPCConnectionHandler>

    init(router: RPCRouter, session: RPCSession, loop: any EventLoop, handler: NIOLoopBound<RPCConnectionHandler>) {
        self.router = router; self.session = session; self.loop = loop; self.handler = handler
    }

    /// (Event loop) Queues `item` behind the running work; false when the lane is idle.
    func enqueueIfBusy(_ item: Item) -> Bool {
        state.withLock { s in
            guard s.running else { return false }
            s.queue.append(item)
            return true
        }
    }

    var queuedCount: Int { state.withLock { $0.queue.count } }
    var isBusy: Bool { state.withLock { $0.running } }

    /// (Event loop) Starts the worker with `frame` (the lane must be idle).
    func start(_ frame: RPCPreparedFrame) {
        let ok: Bool = state.withLock { s in
            if s.closed { return false }
            s.running = true
            s.queue.append(.frame(frame))
            return true
        }
        guard ok else { return }
        Task { await self.work() }
    }

    private func work() async {
        while true {
            let next: Item? = state.withLock { s in
                if s.closed { s.queue.removeAll(); s.running = false; return nil }
                if let i = s.queue.popFirst() { return i }
                s.running = false
                return nil
            }
            guard let item = next else { break }
            switch item {
            case .reply(let b):
                post(b)
            case .frame(let f):
                switch router.runSync(f, session: session) {
                case .reply(let b): post(b)
                case .noReply: break
                case .needsAsync(let f):
                    if let b = await router.run(f, session: session) { post(b) }
                }
            }
        }
        let h = handler
        loop.execute { h.value.laneIdle() }
    }

    /// (Worker) Hands a reply to the event loop; one wake-up per batch of replies.
    private func post(_ reply: [UInt8]) {
        let schedule: Bool = state.withLock { s in
            s.outbox.append(reply)
            if s.drainScheduled { return false }
            s.drainScheduled = true
            return true
        }
        if schedule {
            let h = handler
            loop.execute { h.value.drainOutbox() }
        }
    }

    /// (Event loop) Takes the replies posted so far.
    func takeOutbox() -> [[UInt8]] {
        state.withLock { s in
            s.drainScheduled = false
            if s.outbox.isEmpty { return [] }
            defer { s.outbox = [] }
            return s.outbox
        }
    }

    /// Drops queued work; the worker stops after its current item.
    func close() {
        state.withLock { s in
            s.closed = true
            s.queue.removeAll()
            s.outbox = []
        }
    }
}

/// Compares two byte strings in time independent of where they differ.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var diff: UInt8 = a.count == b.count ? 0 : 1
    let n = max(a.count, b.count)
    for i in 0..<n {
        let x = i < a.count ? a[i] : 0
        let y = i < b.count ? b[i] : 0
        diff |= x ^ y
    }
    return diff == 0
}
