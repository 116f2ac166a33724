import AXJSON
import AXJSONRPC
import AXRPCRouter
import AXWire
import AXWireNIO
import Logging
import NIOCore
import Synchronization

/// Process-wide connection id counter (ids are never reused).
enum ConnectionIDs {
    static let next = Atomic<UInt64>(1)
    static func make() -> UInt64 { next.wrappingAdd(1, ordering: .relaxed).oldValue }
}

/// The server side of one connection as an `RPCPeer`. All writes hop to the channel's event loop.
final class RPCConnectionPeer: RPCPeer {
    let connectionID: UInt64
    let channel: any Channel
    let pending: RPCPendingRequests
    private let handler: NIOLoopBound<RPCConnectionHandler>
    private let closing = RPCCloseLatch()

    init(
        connectionID: UInt64, channel: any Channel, pending: RPCPendingRequests,
        handler: NIOLoopBound<RPCConnectionHandler>
    ) {
        self.connectionID = connectionID
        self.channel = channel
        self.pending = pending
        self.handler = handler
    }

    /// Queues an already-encoded message (without framing). Returns false when the connection is closed.
    /// `kind` tells replies (bounded by pausing reads) from output the server starts itself (bounded by
    /// closing a slow consumer).
    @discardableResult
    func send(_ payload: [UInt8], kind: RPCOutputKind = .unsolicited) -> Bool {
        if isClosed { return false }
        if channel.eventLoop.inEventLoop {
            handler.value.sendMessage(payload, kind: kind)
        } else {
            // Counted until the event loop takes it, so output waiting for a busy loop counts as pending too.
            hopping.add(payload.count, ordering: .relaxed)
            let boundHandler = handler
            channel.eventLoop.execute {
                self.hopping.subtract(payload.count, ordering: .relaxed)
                boundHandler.value.sendMessage(payload, kind: kind)
            }
        }
        return true
    }

    /// Bytes handed to `send` from other threads that the event loop has not taken yet.
    private let hopping = Atomic<Int>(0)
    var bytesWaitingForTheLoop: Int { hopping.load(ordering: .relaxed) }

    func notify(_ method: String, _ params: JSON?) {
        send(RPCMessage.notification(method: method, params: params), kind: .unsolicited)
    }

    func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
        try await pending.perform(method: method, timeout: timeout) { id in
            send(RPCMessage.request(id: id, method: method, params: params), kind: .unsolicited)
        }
    }

    func close() {
        if isClosed { return }
        let boundHandler = handler
        channel.eventLoop.execute { boundHandler.value.closeAfterFlush() }
    }

    var isClosed: Bool { closing.isClosed }

    func onClose(_ handler: @escaping @Sendable () -> Void) { closing.onClose(handler) }

    /// Called once by the handler when the channel goes inactive.
    func markClosed() { closing.close(failing: pending) }
}

/// What an outgoing message is, for the output limit.
enum RPCOutputKind: Sendable {
    /// An answer to a request this connection sent (bounded by not reading more requests).
    case reply
    /// A notification or server->client request the server starts (bounded by closing a slow consumer).
    case unsolicited
}

/// Shared, immutable per-listener settings for connection handlers.
struct RPCListenerContext: Sendable {
    let router: RPCRouter
    /// When set, the first message must be `initialize` with `params.token` equal to this.
    let token: [UInt8]?
    let logger: Logger
    let registry: RPCConnectionRegistry
    let limits: RPCConnectionLimits
    let onSession: (@Sendable (RPCSession) -> Void)?
}

/// Live connections of a server (for `stop()` and counting).
final class RPCConnectionRegistry: Sendable {
    private let entries = Mutex<[UInt64: (peer: RPCConnectionPeer, session: RPCSession)]>([:])
    func add(_ peer: RPCConnectionPeer, _ session: RPCSession) {
        entries.withLock { $0[peer.connectionID] = (peer, session) }
    }
    /// Adds the connection unless `limit` connections are already open; false when refused.
    func tryAdd(_ peer: RPCConnectionPeer, _ session: RPCSession, limit: Int) -> Bool {
        entries.withLock { entries in
            if entries.count >= limit { return false }
            entries[peer.connectionID] = (peer, session)
            return true
        }
    }
    func remove(_ id: UInt64) { entries.withLock { _ = $0.removeValue(forKey: id) } }
    var all: [RPCConnectionPeer] { entries.withLock { $0.values.map(\.peer) } }
    var sessions: [RPCSession] { entries.withLock { $0.values.map(\.session) } }
    var count: Int { entries.withLock { $0.count } }
}

/// Dispatch, fairness, back-pressure and write coalescing for one server connection; it receives complete
/// messages from `RPCFrameDecodingHandler` through `RPCTimeoutHandler` (and, with a token, only after
/// `RPCAuthenticationHandler` let the first one through; see `RPCConnectionPipeline`). Lives on the channel's event
/// loop.
///
/// Ordering: messages of one connection are processed in order. Synchronous frames are answered inline on
/// the event loop. The first frame that needs an async handler starts the connection's `RPCAsyncLane`
/// (one worker Task); while it is busy, later frames are parsed here (responses to server->client requests
/// complete at once, so a provider can answer while its own call is pending) and queued to the lane, which
/// runs them in order. Replies are written in order; those produced while reading are flushed once per read
/// batch (`channelReadComplete`), those from the lane are coalesced through its outbox.
final class RPCConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = RPCInboundFrame
    typealias OutboundOut = ByteBuffer

    private let ctx: RPCListenerContext
    /// The framing handler before this one: its framing for the replies.
    private let frames: RPCFrameDecodingHandler
    private var context: ChannelHandlerContext?
    /// Messages (and a framing error) received but not handled yet: frame handling is paused or yielded.
    private var inbound = CircularBuffer<RPCInboundFrame>()
    private var outbound: ByteBuffer?
    private var inReadBatch = false
    private var lane: RPCAsyncLane?
    private var closing = false
    private var pausedForQueue = false
    private var pausedForWrites = false
    /// Reading and frame handling stop while more than `maxPendingOutputBytes` of output is pending.
    private var pausedForOutput = false
    /// Frame handling gave the event loop to other connections; a task resumes it.
    private var yieldScheduled = false
    /// Output handed to the channel whose write has not completed yet.
    private var inFlightOutputBytes = 0
    /// Frames handled and when the current turn on the event loop started (fairness).
    private var framesThisTurn = 0
    private var turnStart = NIODeadline.now()
    /// Now on this connection's event loop: the wall clock on a real loop, the test's clock on an `EmbeddedEventLoop`
    /// — the clock the yield after a turn is scheduled on, so a turn and its yield are measured alike.
    private var loopNow: NIODeadline { context?.eventLoop.now ?? .now() }
    /// The last `RPCDispatchFlow` signalled to `RPCTimeoutHandler`.
    private var signalledPaused = false
    /// Over the connection limit: answered with an error and closed.
    private var refused = false
    private(set) var peer: RPCConnectionPeer?
    private(set) var session: RPCSession?

    /// Queue length (while an async call runs) at which reading from this client pauses.
    static let maxQueued = 4096

    init(context: RPCListenerContext, frames: RPCFrameDecodingHandler) {
        self.ctx = context
        self.frames = frames
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let pending = RPCPendingRequests(scheduler: EventLoopTimerScheduler(loop: context.eventLoop))
        let peer = RPCConnectionPeer(
            connectionID: ConnectionIDs.make(), channel: context.channel, pending: pending,
            handler: NIOLoopBound(self, eventLoop: context.eventLoop))
        self.peer = peer
        let session = RPCSession(peer: peer, pendingRequests: pending, authenticated: ctx.token == nil)
        self.session = session
        self.lane = RPCAsyncLane(
            router: ctx.router, session: session, loop: context.eventLoop,
            handler: NIOLoopBound(self, eventLoop: context.eventLoop))
        guard ctx.registry.tryAdd(peer, session, limit: ctx.limits.maxConnections) else {
            refused = true
            if context.channel.isActive { refuseOverLimit() }
            return
        }
        ctx.onSession?(session)
    }

    /// `RPCAuthenticationHandler` (before this one in the pipeline when the listener needs a token) found the
    /// first message to be `initialize` with the token.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is RPCAuthenticationHandler.Authenticated {
            session?.authenticated = true
            return
        }
        if let timeout = event as? RPCTimeoutHandler.PartialFrameTimedOut {
            partialFrameTimedOut(bufferedBytes: timeout.bufferedBytes)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelActive(context: ChannelHandlerContext) {
        if refused { refuseOverLimit() }
        context.fireChannelActive()
    }

    /// Answers a connection over `maxConnections` with -32017 and closes it.
    private func refuseOverLimit() {
        guard !closing else { return }
        let max = ctx.limits.maxConnections
        ctx.logger.warning("refusing connection: \(max) connections are open (the limit)")
        sendMessage(
            RPCMessage.errorResponse(
                id: .null,
                .policyDenied(
                    "too many connections: the server already has \(max) open; close some or retry later",
                    data: ["limit": "maxConnections", "max": .number(Double(max))])))
        closeAfterFlush()
    }

    /// `RPCTimeoutHandler` found an incomplete message waiting too long: answers -32021 and closes (unless frames
    /// are still queued here or the server keeps the client waiting itself).
    private func partialFrameTimedOut(bufferedBytes buffered: Int) {
        guard !closing, inbound.isEmpty, !flowPaused else { return }
        let seconds = ctx.limits.partialFrameTimeout.components.seconds
        ctx.logger.notice(
            "closing connection: an incomplete message (\(buffered) bytes) did not complete within \(seconds) s",
            metadata: ["conn": "\(peer?.connectionID ?? 0)"])
        sendMessage(
            RPCMessage.errorResponse(
                id: .null,
                .messageTooLarge(
                    "incomplete message: \(buffered) bytes received but the message did not complete within \(seconds) s; closing the connection",
                    data: [
                        "limit": "partialFrameTimeout", "seconds": .number(Double(seconds)),
                        "size": .number(Double(buffered)),
                    ])))
        closeAfterFlush()
    }

    /// Whether frame handling stopped for a reason of the server's own (see `RPCDispatchFlow`).
    private var flowPaused: Bool {
        !inbound.isEmpty || closing || pausedForOutput || pausedForQueue || pausedForWrites || yieldScheduled
    }

    /// Tells the handlers before this one (`RPCTimeoutHandler`) when frame handling pauses or resumes.
    private func signalFlow() {
        guard let context else { return }
        let paused = flowPaused
        guard paused != signalledPaused else { return }
        signalledPaused = paused
        context.triggerUserOutboundEvent(paused ? RPCDispatchFlow.paused : .resumed, promise: nil)
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let components = duration.components
        let ns = components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let total = ns.overflow ? Int64.max : ns.partialValue &+ components.attoseconds / 1_000_000_000
        return .nanoseconds(max(0, total))
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
        inbound.removeAll()
        lane?.close()
        session?.inFlight.cancelAll()
        if !refused { ctx.registry.remove(peer.connectionID) }
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
        if closing || refused { return }
        inbound.append(unwrapInboundIn(data))
        inReadBatch = true
        processInbound()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        inReadBatch = false
        flush()
        if !context.channel.isWritable && !pausedForWrites {
            pausedForWrites = true
            updateAutoRead()
        }
        // The next read batch is a new turn (fairness).
        if !yieldScheduled { startTurn() }
        signalFlow()
        context.fireChannelReadComplete()
    }

    /// The next frame starts a new turn on the event loop (its clock starts at that frame).
    private func startTurn() {
        framesThisTurn = 0
    }

    /// Output encoded for this connection that the kernel has not taken yet.
    var pendingOutputBytes: Int {
        (outbound?.readableBytes ?? 0) + inFlightOutputBytes + (peer?.bytesWaitingForTheLoop ?? 0)
    }

    /// (Event loop) A write completed: `bytes` left the process. Resumes a connection paused for output.
    private func outputWritten(_ bytes: Int) {
        assertOnEventLoop()
        inFlightOutputBytes -= bytes
        if pausedForOutput && pendingOutputBytes <= ctx.limits.maxPendingOutputBytes / 2 {
            pausedForOutput = false
            resumeInbound()
        }
    }

    /// Handles frames that arrived while frame handling was paused or yielded, then reads again.
    private func resumeInbound() {
        guard !closing, context != nil else { return }
        startTurn()
        let wasInBatch = inReadBatch
        inReadBatch = true
        processInbound()
        inReadBatch = wasInBatch
        if !wasInBatch { flush() }
        updateAutoRead()
        signalFlow()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable && pausedForWrites {
            pausedForWrites = false
            updateAutoRead()
        }
        context.fireChannelWritabilityChanged()
    }

    private func updateAutoRead() {
        guard let context, !closing else { return }
        let on = !(pausedForQueue || pausedForWrites || pausedForOutput || yieldScheduled)
        context.channel.setOption(ChannelOptions.autoRead, value: on).whenComplete { _ in }
        if on { context.read() }
    }

    /// Whether frame handling must stop for now: too much output pending (this client does not read its
    /// replies), or this connection used its turn on the event loop (the others get theirs first).
    private func shouldPauseFrames() -> Bool {
        if pendingOutputBytes > ctx.limits.maxPendingOutputBytes {
            if !pausedForOutput {
                pausedForOutput = true
                ctx.logger.debug(
                    "pausing reads: \(pendingOutputBytes) bytes of replies pending",
                    metadata: ["conn": "\(peer?.connectionID ?? 0)"])
            }
            return true
        }
        if framesThisTurn == 0 {
            turnStart = loopNow
            return false
        }
        if framesThisTurn >= ctx.limits.maxFramesPerTurn
            || loopNow - turnStart >= Self.timeAmount(ctx.limits.maxTurnTime)
        {
            scheduleYield()
            return true
        }
        return false
    }

    /// How long a connection that used its turn waits before it continues. A task run with no delay would
    /// run before the loop polls its sockets again (NIO drains its task queue first, including scheduled
    /// tasks that fall due meanwhile: 100 µs was measured to be too short in a debug build), so the others'
    /// I/O would still wait; 1 ms lets the loop poll and serve them first. Costs at most 1 ms per
    /// `maxTurnTime` (5 ms) of work when one connection alone keeps the loop busy.
    static let yieldDelay: TimeAmount = .milliseconds(1)

    /// Lets the event loop serve the other connections, then continues with this one's frames.
    private func scheduleYield() {
        guard !yieldScheduled, let context else { return }
        yieldScheduled = true
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: Self.yieldDelay) {
            let handler = bound.value
            handler.yieldScheduled = false
            handler.resumeInbound()
        }
    }

    private func processInbound() {
        guard !inbound.isEmpty else { return }
        if pausedForOutput || yieldScheduled {
            updateAutoRead()
            return
        }
        while !closing, let item = inbound.first {
            switch item {
            case .frame(let frame):
                if shouldPauseFrames() {
                    if pausedForOutput || yieldScheduled { updateAutoRead() }
                    return
                }
                inbound.removeFirst()
                framesThisTurn += 1
                frame.withUnsafeReadableBytes { handleFrame($0) }
            case .tooLarge(let size):
                inbound.removeAll()
                let max = ctx.router.limits.maxFrameBytes
                sendMessage(
                    RPCMessage.errorResponse(
                        id: .null,
                        .messageTooLarge(
                            "message of \(size) bytes exceeds the limit of \(max) bytes; closing the connection",
                            data: [
                                "limit": "maxFrameBytes", "max": .number(Double(max)),
                                "size": .number(Double(size)),
                            ])))
                closeAfterFlush()
                return
            case .malformed(let why):
                inbound.removeAll()
                sendMessage(
                    RPCMessage.errorResponse(
                        id: .null, .parseError("malformed frame header: \(why); closing the connection")))
                closeAfterFlush()
                return
            }
        }
    }

    private func handleFrame(_ raw: UnsafeRawBufferPointer) {
        guard let session, let lane else { return }
        switch ctx.router.prepare(frame: raw, session: session) {
        case .noReply:
            return
        case .reply(let bytes):
            if lane.enqueueIfBusy(.reply(bytes), inputBytes: raw.count) {
                checkQueuePressure(lane)
                return
            }
            drainOutbox()
            sendMessage(bytes, kind: .reply)
        case .needsAsync(let frame):
            handleAsync(frame, inputBytes: raw.count, session: session, lane: lane)
        }
    }

    /// A frame with asynchronous calls: started beside the others (a concurrent method), run out of order (the
    /// peer owes this server an answer), queued behind the lane's work, or started on the idle lane.
    private func handleAsync(_ frame: RPCPreparedFrame, inputBytes: Int, session: RPCSession, lane: RPCAsyncLane) {
        // A request to a concurrent method (wait.for) runs beside this connection's other requests, so "start
        // waiting, then act" works on one connection; its reply comes when it is done (D-PROTO-1).
        if let requestID = frame.concurrentRequestID {
            let router = ctx.router
            let peer = self.peer
            let started = session.inFlight.start(id: requestID) {
                if let bytes = await router.run(frame, session: session) {
                    peer?.send(bytes, kind: .reply)
                }
            }
            if started {
                return
            }
            // Full: refused at once rather than queued on the lane, where a long wait would hold up every later
            // request of the connection and `$/cancelRequest` could not reach it (issue 30 item 5, D-PROTO-1).
            if session.inFlight.count >= RPCInFlightRequests.maxConcurrent {
                drainOutbox()
                sendMessage(
                    RPCMessage.errorResponse(
                        id: requestID,
                        RPCError.make(
                            RPCError.Code.busy,
                            "\(RPCInFlightRequests.maxConcurrent) concurrent requests (wait.for) already run on this connection; retry when one has answered",
                            ["limit": JSON(RPCInFlightRequests.maxConcurrent)])),
                    kind: .reply)
                return
            }
        }
        // While the server waits for this peer to answer a server->client request (a provider performing an
        // action), the peer may need this call answered first (e.g. its hierarchy.update): run it now, out of
        // order, instead of queueing it behind the pending call — that would deadlock a connection that is
        // both an automation client and an app.
        if session.pendingRequests.count > 0, lane.isBusy {
            runOutOfOrder(frame, session: session)
            return
        }
        if lane.enqueueIfBusy(.frame(frame), inputBytes: inputBytes) {
            checkQueuePressure(lane)
            return
        }
        drainOutbox()
        switch ctx.router.runSync(frame, session: session) {
        case .reply(let bytes): sendMessage(bytes, kind: .reply)
        case .noReply: break
        case .needsAsync(let asyncFrame): lane.start(asyncFrame, inputBytes: inputBytes)
        }
    }

    /// Runs `frame` now, ahead of the lane's queue, answering when it is done.
    private func runOutOfOrder(_ frame: RPCPreparedFrame, session: RPCSession) {
        switch ctx.router.runSync(frame, session: session) {
        case .reply(let bytes): sendMessage(bytes, kind: .reply)
        case .noReply: break
        case .needsAsync(let asyncFrame):
            let router = ctx.router
            let peer = self.peer
            Task {
                if let reply = await router.run(asyncFrame, session: session) {
                    peer?.send(reply, kind: .reply)
                }
            }
        }
    }

    private func checkQueuePressure(_ lane: RPCAsyncLane) {
        if !pausedForQueue
            && (lane.queuedCount >= Self.maxQueued || lane.queuedInputBytes > ctx.limits.maxQueuedInputBytes)
        {
            pausedForQueue = true
            updateAutoRead()
        }
    }

    /// Writes the replies the lane produced (on the event loop, in order).
    func drainOutbox() {
        assertOnEventLoop()
        guard let lane else { return }
        let replies = lane.takeOutbox()
        guard !replies.isEmpty else { return }
        for reply in replies { sendMessage(reply, flushNow: false, kind: .reply) }
        if !inReadBatch { flush() }
        if pausedForQueue && lane.queuedCount < Self.maxQueued / 2
            && lane.queuedInputBytes <= ctx.limits.maxQueuedInputBytes / 2
        {
            pausedForQueue = false
            updateAutoRead()
        }
    }

    /// The lane ran out of work.
    func laneIdle() {
        assertOnEventLoop()
        drainOutbox()
        if pausedForQueue {
            pausedForQueue = false
            updateAutoRead()
        }
    }

    /// The handler's contract: its state is touched on its channel's event loop only (other threads reach it
    /// through `NIOLoopBound`, which hops). Checked in debug builds, like swift-nio's own handlers.
    private func assertOnEventLoop() {
        context?.eventLoop.assertInEventLoop()
    }

    // MARK: writing

    /// Frames and queues one message; flushed at the end of the read batch, or now when not reading.
    /// Output the server starts itself (`.unsolicited`) that would take the pending output over
    /// `maxPendingOutputBytes` closes the connection as a slow consumer instead.
    func sendMessage(_ payload: [UInt8], flushNow: Bool = true, kind: RPCOutputKind = .reply) {
        assertOnEventLoop()
        guard let context, context.channel.isActive, !closing else { return }
        if kind == .unsolicited && pendingOutputBytes + payload.count > ctx.limits.maxPendingOutputBytes {
            closeSlowConsumer(pendingBytes: pendingOutputBytes + payload.count)
            return
        }
        if outbound == nil {
            outbound = context.channel.allocator.buffer(capacity: max(256, payload.count + 32))
        }
        frames.framing.encode(payload, into: &outbound!)
        if flushNow && !inReadBatch { flush() }
    }

    /// Closes a connection that does not read what it is sent: logs why, queues a last
    /// `connection.closing` notification (it arrives if the client ever reads) and closes.
    private func closeSlowConsumer(pendingBytes: Int) {
        guard let context, !closing else { return }
        let limit = ctx.limits.maxPendingOutputBytes
        ctx.logger.notice(
            "closing slow consumer: \(pendingBytes) bytes of output pending (limit \(limit))",
            metadata: ["conn": "\(peer?.connectionID ?? 0)"])
        let last = RPCMessage.notification(
            method: "connection.closing",
            params: [
                "reason": "slow consumer", "pendingBytes": .number(Double(pendingBytes)),
                "limit": .number(Double(limit)),
            ])
        if outbound == nil { outbound = context.channel.allocator.buffer(capacity: last.count + 32) }
        frames.framing.encode(last, into: &outbound!)
        closeAfterFlush()
    }

    private func flush() {
        guard let context, let out = outbound, out.readableBytes > 0 else { return }
        outbound = nil
        let size = out.readableBytes
        inFlightOutputBytes += size
        let promise = context.eventLoop.makePromise(of: Void.self)
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        promise.futureResult.whenComplete { _ in bound.value.outputWritten(size) }
        context.writeAndFlush(wrapOutboundOut(out), promise: promise)
    }

    /// How long a closing connection may take to flush its last replies to a client that does not read.
    static let closeGrace: TimeAmount = .seconds(1)

    /// Flushes what is queued, then closes the connection (at the latest after `closeGrace`).
    func closeAfterFlush() {
        guard let context else { return }
        if closing && outbound == nil {
            context.close(promise: nil)
            return
        }
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
        var queue = CircularBuffer<(item: Item, inputBytes: Int)>()
        var queuedInputBytes = 0
        var running = false
        var closed = false
        var outbox: [[UInt8]] = []
        var drainScheduled = false
        /// The running worker, cancelled when the connection closes: a request it runs (a key waiting for its
        /// turn) must not act for a client that is gone (issue 19 item 7).
        var worker: Task<Void, Never>?
    }
    private let state = Mutex(State())
    private let router: RPCRouter
    private let session: RPCSession
    private let loop: any EventLoop
    private let handler: NIOLoopBound<RPCConnectionHandler>

    init(router: RPCRouter, session: RPCSession, loop: any EventLoop, handler: NIOLoopBound<RPCConnectionHandler>) {
        self.router = router
        self.session = session
        self.loop = loop
        self.handler = handler
    }

    /// (Event loop) Queues `item` (from a frame of `inputBytes`) behind the running work; false when the lane
    /// is idle.
    func enqueueIfBusy(_ item: Item, inputBytes: Int) -> Bool {
        // Frames keep their order only because a single thread enqueues them: checked in debug builds.
        loop.assertInEventLoop()
        return state.withLock { locked in
            guard locked.running else { return false }
            locked.queue.append((item, inputBytes))
            locked.queuedInputBytes += inputBytes
            return true
        }
    }

    var queuedCount: Int { state.withLock { $0.queue.count } }
    /// Bytes of the frames waiting in the queue.
    var queuedInputBytes: Int { state.withLock { $0.queuedInputBytes } }
    var isBusy: Bool { state.withLock { $0.running } }

    /// (Event loop) Starts the worker with `frame` (the lane must be idle).
    func start(_ frame: RPCPreparedFrame, inputBytes: Int) {
        loop.assertInEventLoop()
        let ok: Bool = state.withLock { locked in
            if locked.closed { return false }
            locked.running = true
            locked.queue.append((.frame(frame), inputBytes))
            locked.queuedInputBytes += inputBytes
            return true
        }
        guard ok else { return }
        let worker = Task { await self.work() }
        state.withLock { locked in
            if locked.running { locked.worker = worker }
        }
    }

    private func work() async {
        while true {
            let next: Item? = state.withLock { locked in
                if locked.closed {
                    locked.queue.removeAll()
                    locked.queuedInputBytes = 0
                    locked.running = false
                    return nil
                }
                if let entry = locked.queue.popFirst() {
                    locked.queuedInputBytes -= entry.inputBytes
                    return entry.item
                }
                locked.running = false
                return nil
            }
            guard let item = next else { break }
            switch item {
            case .reply(let reply):
                post(reply)
            case .frame(let frame):
                switch router.runSync(frame, session: session) {
                case .reply(let reply): post(reply)
                case .noReply: break
                case .needsAsync(let asyncFrame):
                    if let reply = await router.run(asyncFrame, session: session) { post(reply) }
                }
            }
        }
        let boundHandler = handler
        loop.execute { boundHandler.value.laneIdle() }
    }

    /// (Worker) Hands a reply to the event loop; one wake-up per batch of replies.
    private func post(_ reply: [UInt8]) {
        let schedule: Bool = state.withLock { locked in
            locked.outbox.append(reply)
            if locked.drainScheduled { return false }
            locked.drainScheduled = true
            return true
        }
        if schedule {
            let boundHandler = handler
            loop.execute { boundHandler.value.drainOutbox() }
        }
    }

    /// (Event loop) Takes the replies posted so far.
    func takeOutbox() -> [[UInt8]] {
        loop.assertInEventLoop()
        return state.withLock { locked in
            locked.drainScheduled = false
            if locked.outbox.isEmpty { return [] }
            defer { locked.outbox = [] }
            return locked.outbox
        }
    }

    /// Drops queued work; the worker stops after its current item.
    func close() {
        let worker: Task<Void, Never>? = state.withLock { locked in
            locked.closed = true
            locked.queue.removeAll()
            locked.queuedInputBytes = 0
            locked.outbox = []
            defer { locked.worker = nil }
            return locked.worker
        }
        worker?.cancel()
    }
}
