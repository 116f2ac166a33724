import NIOCore

/// The dispatcher's signal to the handlers before it (a user outbound event from `RPCConnectionHandler`): it stopped
/// handling frames for a reason of the server's own — frames still queued, output or the async lane's queue over
/// their bounds, the socket not writable, the turn given to other connections, closing — or handles them again.
/// A client is not timed out while the server itself keeps it waiting.
enum RPCDispatchFlow: Sendable, Equatable {
    case paused
    case resumed
}

/// The connection's timers, between framing and dispatch (see `RPCConnectionPipeline`): the partial-frame timer.
/// It runs while bytes of an incomplete message wait in the framing handler and the dispatcher is not paused
/// (`RPCDispatchFlow`); a complete message passing through starts the clock again. When
/// `RPCConnectionLimits.partialFrameTimeout` passes it sends `PartialFrameTimedOut` to the dispatcher, which answers
/// with -32021 and closes (it owns the replies' framing, pending output and closing). The authentication timer stays
/// with `RPCAuthenticationHandler`, which removes itself with it. Lives on the channel's event loop.
final class RPCTimeoutHandler: ChannelDuplexHandler {
    typealias InboundIn = RPCInboundFrame
    typealias InboundOut = RPCInboundFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// A user inbound event: an incomplete message of `bufferedBytes` did not complete within the timeout.
    struct PartialFrameTimedOut: Sendable, Equatable {
        let bufferedBytes: Int
    }

    private let timeout: TimeAmount
    /// The framing handler before this one: its buffered bytes are the incomplete message.
    private let frames: RPCFrameDecodingHandler
    private var context: ChannelHandlerContext?
    private var dispatcherPaused = false
    private var timer: Scheduled<Void>?

    init(partialFrameTimeout: Duration, frames: RPCFrameDecodingHandler) {
        self.timeout = RPCConnectionHandler.timeAmount(partialFrameTimeout)
        self.frames = frames
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    /// A complete message (or a framing error): the partial-frame clock starts again.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        disarm()
        context.fireChannelRead(data)
    }

    /// After the dispatcher handled the batch (it signals a pause on the way), arms the timer if bytes wait.
    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        update()
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let flow = event as? RPCDispatchFlow else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        dispatcherPaused = flow == .paused
        update()
        promise?.succeed(())
    }

    /// Arms the timer while bytes of an incomplete message wait and the dispatcher takes frames; disarms it
    /// otherwise. An armed timer keeps its deadline.
    private func update() {
        guard let context, context.channel.isActive, frames.bufferedBytes > 0, !dispatcherPaused else {
            disarm()
            return
        }
        if timer != nil { return }
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: timeout) { bound.value.timedOut() }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }

    private func timedOut() {
        timer = nil
        let buffered = frames.bufferedBytes
        guard let context, buffered > 0, !dispatcherPaused else { return }
        context.fireUserInboundEventTriggered(PartialFrameTimedOut(bufferedBytes: buffered))
    }
}
