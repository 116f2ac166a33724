import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPCRouter
import AXWire
import AXWireNIO
import Logging
import NIOCore

/// Authentication of a connection whose listener needs a token: the bytes are held here until the first message
/// is a complete `initialize` with `params.token` equal to the token. Then the handler tells the next one
/// (`Authenticated`), passes on everything it held (that `initialize` included) and removes itself from the
/// pipeline. Any other first message is answered with −32019 and the connection is closed; so is a connection
/// that does not authenticate within `authenticationTimeout`. Lives on the channel's event loop.
final class RPCAuthenticationHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The inbound user event sent on before the held bytes: the connection is authenticated.
    struct Authenticated: Sendable {}

    private enum Phase {
        /// Holding bytes until the first message is complete.
        case waiting
        /// Refused (or handed a framing error on to the next handler, which closes): further input is dropped.
        case refused
    }

    private let token: [UInt8]
    private let ctx: RPCListenerContext
    private var decoder: RPCFrameDecoder
    private var phase = Phase.waiting
    private var held: ByteBuffer?
    private var timer: Scheduled<Void>?

    init(token: [UInt8], context: RPCListenerContext) {
        self.token = token
        self.ctx = context
        self.decoder = RPCFrameDecoder(maxFrameBytes: context.router.limits.maxFrameBytes)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let boundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(
            in: RPCConnectionHandler.timeAmount(ctx.limits.authenticationTimeout)
        ) {
            bound.value.timedOut(context: boundContext.value)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .waiting = phase else { return }
        var incoming = unwrapInboundIn(data)
        if held == nil {
            held = incoming
        } else {
            held!.writeBuffer(&incoming)
        }
        examine(context: context)
    }

    /// Looks for the first message in what is held: waits for more, passes it on when it authenticates, refuses
    /// anything else.
    private func examine(context: ChannelHandlerContext) {
        guard let buffer = held else { return }
        enum Outcome {
            case needMore
            case frame(start: Int, length: Int)
            /// A framing error: the next handler reports it (−32021 or −32700) exactly as without a token.
            case framingError
        }
        let outcome: Outcome = buffer.withUnsafeReadableBytes { raw in
            var offset = 0
            while true {
                switch decoder.next(UnsafeRawBufferPointer(rebasing: raw[offset...])) {
                case .needMore: return .needMore
                case .skip(let count): offset += count
                case .frame(let start, let length, _): return .frame(start: offset + start, length: length)
                case .tooLarge, .malformed: return .framingError
                }
            }
        }
        switch outcome {
        case .needMore:
            return
        case .framingError:
            phase = .refused
            held = nil
            context.fireChannelRead(wrapInboundOut(buffer))
        case .frame(let start, let length):
            let verdict = buffer.withUnsafeReadableBytes { raw in
                check(UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)]))
            }
            if let refusal = verdict {
                refuse(refusal, context: context)
                return
            }
            timer?.cancel()
            timer = nil
            held = nil
            context.fireUserInboundEventTriggered(Authenticated())
            context.fireChannelRead(wrapInboundOut(buffer))
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    /// Nil when `frame` is `initialize` with the right `params.token`; else the id to answer and the reason.
    private func check(_ frame: UnsafeRawBufferPointer) -> (id: JSON, reason: String)? {
        var id: JSON = .null
        let limits = JSONParseLimits(maxDepth: ctx.router.limits.maxDepth, maxBytes: ctx.router.limits.maxFrameBytes)
        guard let message = try? JSON.parse(frame, limits: limits) else {
            return (id, "the first message must be a valid JSON 'initialize' request with params.token")
        }
        if let requestID = message["id"], requestID.stringValue != nil || requestID.doubleValue != nil {
            id = requestID
        }
        guard message["method"]?.stringValue == RPCMethodName.initialize.rawValue else {
            return (id, "the first message must be 'initialize' with params.token")
        }
        guard let given = message["params"]?["token"]?.stringValue else {
            return (id, "missing params.token in 'initialize'")
        }
        return constantTimeEqual(Array(given.utf8), token) ? nil : (id, "invalid token")
    }

    private func refuse(_ refusal: (id: JSON, reason: String), context: ChannelHandlerContext) {
        ctx.logger.notice("refusing unauthenticated connection: \(refusal.reason)")
        closeWithError(
            RPCMessage.errorResponse(id: refusal.id, .unauthorized("unauthorized: \(refusal.reason)")),
            context: context)
    }

    private func timedOut(context: ChannelHandlerContext) {
        timer = nil
        guard case .waiting = phase else { return }
        let seconds = ctx.limits.authenticationTimeout.components.seconds
        ctx.logger.notice("closing unauthenticated connection: no 'initialize' with the token within \(seconds) s")
        closeWithError(
            RPCMessage.errorResponse(
                id: .null,
                .unauthorized(
                    "unauthorized: no 'initialize' with params.token within \(seconds) s; closing the connection",
                    data: ["limit": "authenticationTimeout"])),
            context: context)
    }

    /// Writes `payload` framed like the client's input (newline-delimited until it sent a header), then closes
    /// the connection (at the latest after `RPCConnectionHandler.closeGrace`).
    private func closeWithError(_ payload: [UInt8], context: ChannelHandlerContext) {
        phase = .refused
        held = nil
        timer?.cancel()
        timer = nil
        guard context.channel.isActive else { return }
        var out = context.channel.allocator.buffer(capacity: payload.count + 32)
        decoder.framing.encode(payload, into: &out)
        let channel = context.channel
        let deadline = context.eventLoop.scheduleTask(in: RPCConnectionHandler.closeGrace) {
            channel.close(promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(out)).whenComplete { _ in
            deadline.cancel()
            channel.close(promise: nil)
        }
    }
}
