import NIOCore

/// The handlers of one server connection, in pipeline order: authentication first when the listener needs a
/// token (TCP), then framing (`RPCFrameDecodingHandler`), then the partial-frame timer (`RPCTimeoutHandler`), then
/// dispatch, fairness, back-pressure and write coalescing (`RPCConnectionHandler`, which tells the timer when it
/// pauses: `RPCDispatchFlow`). The server and the `EmbeddedChannel` tests build the pipeline from this one list.
enum RPCConnectionPipeline {
    static func handlers(_ context: RPCListenerContext) -> [any ChannelHandler] {
        var handlers: [any ChannelHandler] = []
        if let token = context.token {
            handlers.append(RPCAuthenticationHandler(token: token, context: context))
        }
        let frames = RPCFrameDecodingHandler(maxFrameBytes: context.router.limits.maxFrameBytes)
        handlers.append(frames)
        handlers.append(RPCTimeoutHandler(partialFrameTimeout: context.limits.partialFrameTimeout, frames: frames))
        handlers.append(RPCConnectionHandler(context: context, frames: frames))
        return handlers
    }
}
