import AXJSON
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Who may talk to axdriver over HTTP (Specs/webdriver.md §Trust): the Host header must name a loopback host or
/// an IP literal (a DNS name could be rebound to 127.0.0.1 by a web page), an Origin header must be a loopback
/// origin (browsers send one on cross-site requests), and with a token every request needs HTTP basic auth with
/// the token as password (`http://user:TOKEN@127.0.0.1:4723`, as Appium clients send).
package struct WebDriverTrust: Sendable {
    /// The basic-auth password every request must carry, or nil.
    package var authToken: String?
    /// Extra host names accepted in Host and Origin (`--allowed-host`), lowercased.
    package var allowedHosts: Set<String>

    package init(authToken: String? = nil, allowedHosts: Set<String> = []) {
        self.authToken = authToken
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    }

    /// The refusal for a request with these headers, or nil when it may proceed.
    package func check(headers: [(String, String)]) -> WebDriverResponse? {
        func header(_ name: String) -> [String] {
            headers.filter { $0.0.lowercased() == name }.map(\.1)
        }
        let hosts = header("host")
        guard hosts.count == 1, let host = WebDriverTrust.hostName(hosts[0]) else {
            return refuse(400, "a request needs exactly one Host header naming the driver's host")
        }
        guard WebDriverTrust.isLiteralOrLoopback(host) || allowedHosts.contains(host) else {
            return refuse(
                403,
                "Host '\(hosts[0])' is not a loopback host or an IP address (DNS rebinding protection; see --allowed-host)"
            )
        }
        for origin in header("origin") {
            guard let originHost = WebDriverTrust.originHost(origin),
                WebDriverTrust.isLoopback(originHost) || allowedHosts.contains(originHost)
            else {
                return refuse(403, "Origin '\(origin)' is not allowed (only loopback origins may call axdriver)")
            }
        }
        if let authToken {
            let given = header("authorization").first.flatMap(WebDriverTrust.basicPassword)
            guard let given, WebDriverTrust.constantTimeEqual(given, authToken) else {
                var response = refuse(401, "axdriver needs HTTP basic authentication with its token as the password")
                response.headers.append(("WWW-Authenticate", "Basic realm=\"axdriver\""))
                return response
            }
        }
        return nil
    }

    func refuse(_ status: Int, _ message: String) -> WebDriverResponse {
        WebDriverResponse(
            status: status, body: WebDriverError("unknown error", message, data: ["httpStatus": JSON(status)]).body)
    }

    /// The host of a Host header value (`name`, `name:port`, `[v6]`, `[v6]:port`), lowercased.
    static func hostName(_ value: String) -> String? {
        let text = value.trimmingCharacters().lowercased()
        guard !text.isEmpty else { return nil }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            return String(text[...close])
        }
        if let colon = text.lastIndex(of: ":") {
            let port = text[text.index(after: colon)...]
            guard port.allSatisfy(\.isNumber) else { return nil }
            return String(text[..<colon])
        }
        return text
    }

    /// The host of an Origin header (`scheme://host[:port]`); nil for `null` and anything else.
    static func originHost(_ origin: String) -> String? {
        guard let schemeEnd = origin.firstRange(of: "://") else { return nil }
        return hostName(String(origin[schemeEnd.upperBound...]))
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "[::1]" || host.hasPrefix("127.") && isIPv4(host)
    }

    static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && Int($0)! <= 255 }
    }

    static func isLiteralOrLoopback(_ host: String) -> Bool {
        isLoopback(host) || isIPv4(host) || (host.hasPrefix("[") && host.hasSuffix("]"))
    }

    /// The password of a `Basic` Authorization header.
    static func basicPassword(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic", let decoded = base64Decode(String(parts[1])) else {
            return nil
        }
        let text = String(decoding: decoded, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return text }
        return String(text[text.index(after: colon)...])
    }

    static func base64Decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text.utf8 {
            let value: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "="): continue
            default: return nil
            }
            accumulator = (accumulator << 6) | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((accumulator >> UInt32(bits)) & 0xFF))
            }
        }
        return out
    }

    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }
}

/// The HTTP/1.1 server (SwiftNIO's NIOHTTP1): bounded bodies, the trust checks, then `WebDriverService`.
package enum WebDriverHTTPServer {
    /// Binds `host:port` (port 0: any free port) and serves until the returned channel closes.
    package static func start(
        service: WebDriverService, trust: WebDriverTrust, host: String, port: Int,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> any Channel {
        let limits = service.limits
        let connections = ConnectionCounter()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                guard connections.open(limit: limits.maxConnections) else {
                    return channel.close()
                }
                channel.closeFuture.whenComplete { _ in connections.close() }
                return channel.eventLoop.makeCompletedFuture {
                    let idle = limits.connectionIdleTimeout.components
                    try channel.pipeline.syncOperations.addHandler(
                        IdleStateHandler(
                            readTimeout: .milliseconds(idle.seconds * 1000 + idle.attoseconds / 1_000_000_000_000_000)))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(
                        WebDriverHTTPHandler(service: service, trust: trust, maxBodyBytes: limits.maxBodyBytes))
                }
            }
        return try await bootstrap.bind(host: host, port: port).get()
    }
}

/// The number of open HTTP connections (bounded by `WebDriverLimits.maxConnections`).
final class ConnectionCounter: Sendable {
    let count = Mutex(0)

    /// Counts one more connection, or false when `limit` are open.
    func open(limit: Int) -> Bool {
        count.withLock { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    func close() { count.withLock { $0 -= 1 } }
}

final class WebDriverHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let service: WebDriverService
    let trust: WebDriverTrust
    let maxBodyBytes: Int
    var head: HTTPRequestHead?
    var body: [UInt8] = []
    /// The request was refused before its end (too large): the rest of it is ignored, then the connection closes.
    var discarding = false
    /// Requests being answered (a long implicit wait keeps the client silent without making it idle).
    var inFlight = 0

    init(service: WebDriverService, trust: WebDriverTrust, maxBodyBytes: Int) {
        self.service = service
        self.trust = trust
        self.maxBodyBytes = maxBodyBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            discarding = false
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
            if let refusal = trust.check(headers: head.headers.map { ($0.name, $0.value) }) {
                respond(context, head, refusal, close: false)
                return
            }
            let service = self.service
            let method = head.method.rawValue
            let uri = head.uri
            let requestBody = body
            body = []
            inFlight += 1
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let promise = context.eventLoop.makePromise(of: WebDriverResponse.self)
            promise.completeWithTask { await service.handle(method: method, path: uri, body: requestBody) }
            promise.futureResult.whenSuccess { response in
                let (handler, context) = bound.value
                handler.inFlight -= 1
                handler.respond(context, head, response, close: false)
            }
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
        let bytes = response.body.serialized()
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: String(bytes.count))
        headers.add(name: "Cache-Control", value: "no-cache")
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        let keepAlive = head.isKeepAlive && !close
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
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
