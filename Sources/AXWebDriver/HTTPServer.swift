import AXJSON
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The HTTP/1.1 server (SwiftNIO's NIOHTTP1): request deadlines, bounded bodies, the trust checks, then
/// `WebDriverService`.
package enum WebDriverHTTPServer {
    /// Binds `host:port` (port 0: any free port) and serves until the returned channel closes.
    package static func start(
        service: WebDriverService, trust: WebDriverTrust, host: String, port: Int,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> any Channel {
        let limits = service.limits
        let connections = ConnectionTable()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                guard let slot = connections.open(channel, limit: limits.maxConnections) else {
                    return channel.close()
                }
                channel.closeFuture.whenComplete { _ in connections.close(slot) }
                return channel.eventLoop.makeCompletedFuture {
                    try configure(
                        channel.pipeline.syncOperations, limits: limits,
                        clock: RequestClock(table: connections, slot: slot, limits: limits),
                        dispatch: { method, path, body, loop in
                            loop.makeFutureWithTask { await service.handle(method: method, path: path, body: body) }
                        }, trust: trust)
                }
            }
        return try await bootstrap.bind(host: host, port: port).get()
    }

    /// Answers one request (method, path, body) on the connection's event loop.
    package typealias Dispatch =
        @Sendable (String, String, [UInt8], any EventLoop) -> EventLoopFuture<WebDriverResponse>

    /// Adds axdriver's handlers to a connection's pipeline: the request deadlines (before the HTTP decoder, so they
    /// see every byte), SwiftNIO's HTTP/1.1 server codec with pipelining, the idle timeout, and the handler that
    /// checks trust and dispatches. Also used by the fuzz target, on an embedded channel.
    package static func configure(
        _ pipeline: ChannelPipeline.SynchronousOperations, limits: WebDriverLimits, clock: RequestClock,
        dispatch: @escaping Dispatch, trust: WebDriverTrust
    ) throws {
        try pipeline.addHandler(IdleStateHandler(readTimeout: TimeAmount(limits.connectionIdleTimeout)))
        try pipeline.addHandler(clock)
        try pipeline.configureHTTPServerPipeline(withErrorHandling: false)
        try pipeline.addHandler(
            WebDriverHTTPHandler(dispatch: dispatch, trust: trust, maxBodyBytes: limits.maxBodyBytes, clock: clock))
    }
}

/// Where a connection is in its request cycle.
package enum ConnectionPhase: Sendable {
    /// No request has begun since the last answer (a fresh or keep-alive connection).
    case idle
    /// Bytes of a request head arrived, the head is not complete.
    case head
    /// The head is complete, the body is not.
    case body
    /// The request is whole and being answered.
    case answering

    /// Which connection gives way first at the connection limit (lowest first); nil: never (a request of it is
    /// being answered).
    var evictionRank: Int? {
        switch self {
        case .head: return 0
        case .body: return 1
        case .idle: return 2
        case .answering: return nil
        }
    }
}

/// The open HTTP connections (at most `WebDriverLimits.maxConnections`) and their phases. At the limit a new
/// connection takes the place of one that holds a slot without a whole request: the one part-way through a
/// request head longest, else part-way through a body, else idle longest (Specs/webdriver.md §Limits). Only when
/// every connection has a request being answered is the new one closed. So connections that trickle bytes
/// (slowloris) or sit idle cannot lock legitimate clients out.
package final class ConnectionTable: Sendable {
    struct Entry: Sendable {
        var channel: any Channel
        var phase: ConnectionPhase
        var since: ContinuousClock.Instant
    }

    struct State {
        var nextSlot = 0
        var open: [Int: Entry] = [:]
    }

    let state = Mutex(State())

    /// Registers `channel` and returns its slot, evicting a connection without a whole request when `limit` are
    /// open; nil when none can give way (the caller closes `channel`).
    func open(_ channel: any Channel, limit: Int) -> Int? {
        let (slot, evicted) = state.withLock { state -> (Int?, (any Channel)?) in
            var evicted: (any Channel)?
            if state.open.count >= limit {
                guard let victim = ConnectionTable.victim(in: state.open) else { return (nil, nil) }
                evicted = state.open.removeValue(forKey: victim)?.channel
            }
            state.nextSlot += 1
            state.open[state.nextSlot] = Entry(channel: channel, phase: .idle, since: .now)
            return (state.nextSlot, evicted)
        }
        evicted?.close(promise: nil)
        return slot
    }

    /// The slot to evict: lowest `evictionRank`, then the longest in that phase.
    static func victim(in open: [Int: Entry]) -> Int? {
        var best: (slot: Int, rank: Int, since: ContinuousClock.Instant)?
        for (slot, entry) in open {
            guard let rank = entry.phase.evictionRank else { continue }
            if let current = best, (current.rank, current.since) <= (rank, entry.since) { continue }
            best = (slot, rank, entry.since)
        }
        return best?.slot
    }

    func set(_ slot: Int, _ phase: ConnectionPhase) {
        state.withLock { state in
            guard state.open[slot]?.phase != phase else { return }
            state.open[slot]?.phase = phase
            state.open[slot]?.since = .now
        }
    }

    func close(_ slot: Int) { state.withLock { _ = $0.open.removeValue(forKey: slot) } }

    /// The number of open connections.
    var count: Int { state.withLock { $0.open.count } }
}

/// The request deadlines of one connection (Specs/webdriver.md §Limits), in front of the HTTP decoder: from the
/// first byte of a request its head must be complete within `headTimeout`, and from the head its body within
/// `bodyTimeout`; otherwise the connection gets 408 and is closed. Unlike an idle timer, trickling bytes does not
/// extend them. It also keeps the connection's phase in the `ConnectionTable`.
package final class RequestClock: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = ByteBuffer
    package typealias OutboundOut = ByteBuffer

    let table: ConnectionTable?
    let slot: Int
    let headTimeout: TimeAmount
    let bodyTimeout: TimeAmount
    /// Where the connection is in its request cycle.
    package private(set) var phase = ConnectionPhase.idle
    /// A deadline passed and its 408 was sent: nothing else is answered on this connection.
    private(set) var timedOut = false
    /// Whole requests received (each must get exactly one answer, or the connection closes).
    package private(set) var requestsReceived = 0
    /// Bytes of a next request arrived while one was being answered (pipelining).
    var pendingBytes = false
    var deadline: Scheduled<Void>?
    var context: ChannelHandlerContext?

    /// The clock of the connection in `slot` of `table` (nil: not counted, as in the fuzz target).
    package init(table: ConnectionTable?, slot: Int, limits: WebDriverLimits = WebDriverLimits()) {
        self.table = table
        self.slot = slot
        headTimeout = TimeAmount(limits.requestHeadTimeout)
        bodyTimeout = TimeAmount(limits.requestBodyTimeout)
    }

    package func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    package func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        self.context = nil
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .idle: enter(.head)
        case .answering: pendingBytes = true
        case .head, .body: break
        }
        context.fireChannelRead(data)
    }

    /// The request head is complete: the body deadline starts.
    func headReceived() { enter(.body) }

    /// The request is complete: no deadline while it is answered.
    func requestReceived() {
        requestsReceived += 1
        enter(.answering)
    }

    /// The answer is being sent: the connection is idle again, or its next request's head deadline starts now
    /// when bytes of it came in the meantime.
    func answered() {
        if pendingBytes {
            pendingBytes = false
            enter(.head)
        } else {
            enter(.idle)
        }
    }

    func enter(_ next: ConnectionPhase) {
        guard next != phase else { return }
        phase = next
        table?.set(slot, next)
        deadline?.cancel()
        deadline = nil
        guard let context else { return }
        let timeout: TimeAmount
        switch next {
        case .head: timeout = headTimeout
        case .body: timeout = bodyTimeout
        case .idle, .answering: return
        }
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) { bound.value.expired() }
    }

    /// The head or body did not arrive in time: 408 and close (no answer of this connection is being sent in the
    /// head and body phases, so the 408 cannot interleave with one).
    func expired() {
        guard let context, phase == .head || phase == .body else { return }
        timedOut = true
        let which = phase == .head ? "request head" : "request body"
        let seconds = (phase == .head ? headTimeout : bodyTimeout).nanoseconds / 1_000_000_000
        let body = WebDriverError(
            "timeout", "the \(which) did not arrive within \(seconds) s", data: ["limit": .string(which)]
        ).body.serialized()
        var buffer = context.channel.allocator.buffer(capacity: body.count + 128)
        buffer.writeString(
            "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        )
        buffer.writeBytes(body)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Checks each request (body limit, trust) and answers it through `dispatch`; malformed HTTP (SwiftNIO's decoder
/// errors) gets one 400 and the connection is closed.
final class WebDriverHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let dispatch: WebDriverHTTPServer.Dispatch
    let trust: WebDriverTrust
    let maxBodyBytes: Int
    let clock: RequestClock
    var head: HTTPRequestHead?
    var body: [UInt8] = []
    /// The request was refused before its end (too large): the rest of it is ignored, then the connection closes.
    var discarding = false
    /// Requests being answered (a long implicit wait keeps the client silent without making it idle).
    var inFlight = 0
    /// The connection is being closed: nothing more is read or answered.
    var closing = false

    init(
        dispatch: @escaping WebDriverHTTPServer.Dispatch, trust: WebDriverTrust, maxBodyBytes: Int, clock: RequestClock
    ) {
        self.dispatch = dispatch
        self.trust = trust
        self.maxBodyBytes = maxBodyBytes
        self.clock = clock
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            discarding = false
            clock.headReceived()
            if let length = head.headers["content-length"].first.flatMap({ Int($0) }), length > maxBodyBytes {
                tooLarge(context, head)
            }
        case .body(var buffer):
            guard !discarding, let head else { return }
            if body.count + buffer.readableBytes > maxBodyBytes {
                tooLarge(context, head)
                return
            }
            body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .end:
            guard let head, !discarding else { return }
            self.head = nil
            clock.requestReceived()
            answer(context, head)
        }
    }

    /// Checks trust, then dispatches the whole request and writes its answer when it comes.
    func answer(_ context: ChannelHandlerContext, _ head: HTTPRequestHead) {
        if let refusal = trust.check(headers: head.headers.map { ($0.name, $0.value) }) {
            respond(context, head, refusal, close: refusal.status == 400)
            return
        }
        let requestBody = body
        body = []
        inFlight += 1
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        dispatch(head.method.rawValue, head.uri, requestBody, context.eventLoop).whenSuccess { response in
            let (handler, context) = bound.value
            handler.inFlight -= 1
            handler.respond(context, head, response, close: false)
        }
    }

    /// Malformed HTTP (the decoder's `HTTPParserError`: a garbage request line, HTTP/0.9, two or invalid
    /// Content-Lengths, a NUL in a header…): one 400 `invalid argument`, then the connection closes. SwiftNIO's
    /// pipelining handler delivers the error once no answer is being written, so the 400 follows any answer due.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !closing, !clock.timedOut else { return }
        if error is HTTPParserError, !discarding {
            let refusal = WebDriverError(
                "invalid argument", "malformed HTTP request (\(error)); the connection is closed",
                data: ["reason": "malformed HTTP"])
            let head = self.head ?? HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")
            respond(context, head, WebDriverResponse(refusal), close: true)
        } else {
            closing = true
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            if inFlight == 0 && head == nil { context.close(promise: nil) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func tooLarge(_ context: ChannelHandlerContext, _ head: HTTPRequestHead) {
        discarding = true
        body = []
        let error = WebDriverError(
            "invalid argument", "the request body is larger than \(maxBodyBytes) bytes",
            data: ["limit": "maxBodyBytes", "max": JSON(maxBodyBytes)])
        respond(context, head, WebDriverResponse(status: 413, body: error.body), close: true)
    }

    func respond(_ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ response: WebDriverResponse, close: Bool)
    {
        guard !closing, !clock.timedOut else { return }
        clock.answered()
        let bytes = response.bodyBytes
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: String(bytes.count))
        headers.add(name: "Cache-Control", value: "no-cache")
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        let keepAlive = head.isKeepAlive && !close
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        if !keepAlive { closing = true }
        let status = HTTPResponseStatus(statusCode: response.status)
        let version = head.version.major == 1 ? head.version : .http1_1
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))),
            promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        let done = context.writeAndFlushPromise(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

extension ChannelHandlerContext {
    fileprivate func writeAndFlushPromise(_ data: NIOAny) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        writeAndFlush(data, promise: promise)
        return promise.futureResult
    }
}
