import AXJSON
import AXRPCRouter
import AXWire
import Logging
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resource limits of each connection of an `RPCServer` (Specs/protocol.md §Limits). The frame size and
/// nesting limits are the router's (`RPCLimits`).
package struct RPCConnectionLimits: Sendable, Equatable {
    /// Output queued for one connection (encoded but not yet taken by the kernel) above which the server stops
    /// reading that connection's requests, and closes it as a slow consumer when an event notification or a
    /// server->client request would go over it (after a last `connection.closing` notification). Default 8 MiB.
    package var maxPendingOutputBytes: Int
    /// Bytes of requests queued behind a running asynchronous call above which reading pauses. Default 16 MiB.
    package var maxQueuedInputBytes: Int
    /// How long an incomplete frame may stay incomplete (counted from the last complete frame) before the
    /// connection is closed with −32021 (`data.limit == "partialFrameTimeout"`). Default 30 s.
    package var partialFrameTimeout: Duration
    /// How long a TCP connection may take to send its `initialize` with the token before it is closed with
    /// −32019. Default 10 s.
    package var authenticationTimeout: Duration
    /// Connections open at the same time (all listeners together); one more gets −32017 and is closed.
    /// Default 1,024.
    package var maxConnections: Int
    /// Frames one connection may have answered on the event loop in one turn before it yields the loop to
    /// the other connections. Default 4,096.
    package var maxFramesPerTurn: Int
    /// Event-loop time one connection may use in one turn before it yields to the others (for 1 ms). Default 5 ms.
    package var maxTurnTime: Duration

    package init(
        maxPendingOutputBytes: Int = 8 << 20, maxQueuedInputBytes: Int = 16 << 20,
        partialFrameTimeout: Duration = .seconds(30), authenticationTimeout: Duration = .seconds(10),
        maxConnections: Int = 1024, maxFramesPerTurn: Int = 4096, maxTurnTime: Duration = .milliseconds(5)
    ) {
        self.maxPendingOutputBytes = maxPendingOutputBytes
        self.maxQueuedInputBytes = maxQueuedInputBytes
        self.partialFrameTimeout = partialFrameTimeout
        self.authenticationTimeout = authenticationTimeout
        self.maxConnections = maxConnections
        self.maxFramesPerTurn = maxFramesPerTurn
        self.maxTurnTime = maxTurnTime
    }
}

/// Serves an `RPCRouter` over a Unix socket and, optionally, loopback TCP.
///
/// - Unix socket: created with mode 0600 in a directory owned by this user (or a root-owned sticky
///   directory such as /tmp); the default fallback directory `/tmp/axserver-$UID` is created 0700 and
///   verified (`AXSocketPath`). A stale socket file (connect refused) is replaced; a live one makes `start`
///   fail. Unix sessions are authenticated (file permissions protect them).
/// - TCP (`tcp:HOST:PORT`): refuses non-loopback hosts unless `allowNonLoopback`; needs a token file (first
///   line = token; the file must not be accessible by group/others). Each TCP connection must start with
///   `initialize` carrying `params.token`; otherwise it gets -32019 and is closed.
/// - Framing per connection: LSP `Content-Length` headers or newline-delimited JSON (see `RPCFraming`).
package final class RPCServer: Sendable {
    package struct Configuration: Sendable {
        /// The Unix socket path, or nil for none. `RPCServer.defaultSocketPath()` is the usual choice.
        package var unixSocketPath: String?
        /// "tcp:HOST:PORT" (or "HOST:PORT"); port 0 picks a free port (see `tcpPort`).
        package var tcp: String?
        /// Token file for TCP (required when `tcp` is set).
        package var tokenFile: String?
        /// Allow TCP on a non-loopback address (the token is still required).
        package var allowNonLoopback: Bool
        /// Per-connection resource limits (output, input, timeouts, connection count, fairness).
        package var limits: RPCConnectionLimits

        package init(
            unixSocketPath: String? = RPCServer.defaultSocketPath(), tcp: String? = nil,
            tokenFile: String? = nil, allowNonLoopback: Bool = false,
            limits: RPCConnectionLimits = RPCConnectionLimits()
        ) {
            self.unixSocketPath = unixSocketPath
            self.tcp = tcp
            self.tokenFile = tokenFile
            self.allowNonLoopback = allowNonLoopback
            self.limits = limits
        }
    }

    /// `$XDG_RUNTIME_DIR/axserver.sock`, else `/tmp/axserver-$UID/axserver.sock` (see `AXSocketPath`).
    package static func defaultSocketPath() -> String {
        AXSocketPath.defaultPath()
    }

    package let router: RPCRouter
    package let configuration: Configuration
    private let group: any EventLoopGroup
    private let logger: Logger
    private let onSession: (@Sendable (RPCSession) -> Void)?
    private let registry = RPCConnectionRegistry()

    private struct State {
        var started = false
        var listeners: [any Channel] = []
        var unixPath: String?
        var tcpPort: Int?
    }
    private let state = Mutex(State())

    /// - Parameters:
    ///   - group: event loops to use (default: NIO's shared singleton group).
    ///   - onSession: called on the event loop for every new connection's session (before its first message).
    package init(
        router: RPCRouter, configuration: Configuration = Configuration(),
        group: (any EventLoopGroup)? = nil, logger: Logger = Logger(label: "axserver.transport"),
        onSession: (@Sendable (RPCSession) -> Void)? = nil
    ) {
        self.router = router
        self.configuration = configuration
        self.group = group ?? MultiThreadedEventLoopGroup.singleton
        self.logger = logger
        self.onSession = onSession
    }

    /// The bound Unix socket path (after `start`).
    package var unixSocketPath: String? { state.withLock { $0.unixPath } }
    /// The bound TCP port (after `start`; the real port when 0 was asked for).
    package var tcpPort: Int? { state.withLock { $0.tcpPort } }
    /// Number of open connections.
    package var connectionCount: Int { registry.count }
    /// Sessions of the open connections.
    package var sessions: [RPCSession] { registry.sessions }

    /// Binds the listeners. Throws `RPCTransportError` with a clear message on any setup problem
    /// (nothing stays bound then).
    package func start() async throws {
        let already = state.withLock { locked -> Bool in
            defer { locked.started = true }
            return locked.started
        }
        if already { throw RPCTransportError("server already started") }
        var listeners: [any Channel] = []
        var boundPath: String?
        do {
            // Validate TCP settings first so a bad config binds nothing.
            var tcpTarget: (host: String, port: Int)?
            var token: [UInt8]?
            if let spec = configuration.tcp {
                let endpoint = try AXSocketPath.parseTCP(spec)
                if !Self.isLoopback(endpoint.host) && !configuration.allowNonLoopback {
                    throw RPCTransportError(
                        "refusing to listen on non-loopback address '\(endpoint.host)' (pass --allow-non-loopback to override)"
                    )
                }
                guard let tokenFile = configuration.tokenFile else {
                    throw RPCTransportError(
                        "a TCP listener needs a token file: pass --token-file FILE (its first line is the token; mode 0600)"
                    )
                }
                token = try POSIX.readTokenFile(tokenFile)
                tcpTarget = endpoint
            }
            if let path = configuration.unixSocketPath {
                try AXSocketPath.prepareServerDirectory(for: path)
                let fd = try POSIX.listenUnix(path: path)
                boundPath = path
                let ctx = RPCListenerContext(
                    router: router, token: nil, logger: logger, registry: registry,
                    limits: configuration.limits, onSession: onSession)
                let ch: any Channel
                do {
                    ch = try await makeBootstrap(ctx).withBoundSocket(fd).get()
                } catch {
                    close(fd)
                    throw error
                }
                listeners.append(ch)
            }
            var port: Int?
            if let endpoint = tcpTarget, let token {
                let ctx = RPCListenerContext(
                    router: router, token: token, logger: logger, registry: registry,
                    limits: configuration.limits, onSession: onSession)
                let ch = try await makeBootstrap(ctx)
                    .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                    .bind(host: endpoint.host, port: endpoint.port).get()
                port = ch.localAddress?.port
                listeners.append(ch)
            }
            if listeners.isEmpty {
                throw RPCTransportError("no listener configured (neither a Unix socket path nor tcp)")
            }
            state.withLock { locked in
                locked.listeners = listeners
                locked.unixPath = boundPath
                locked.tcpPort = port
            }
            logger.debug(
                "listening", metadata: ["unix": "\(boundPath ?? "-")", "tcpPort": "\(port.map(String.init) ?? "-")"])
        } catch {
            for listener in listeners { try? await listener.close() }
            if let boundPath { unlink(boundPath) }
            state.withLock { $0.started = false }
            if let transportError = error as? RPCTransportError { throw transportError }
            throw RPCTransportError("cannot start the RPC server: \(error)")
        }
    }

    /// Closes the listeners and every connection (pending server->client requests fail as disconnected),
    /// and removes the socket file.
    package func stop() async {
        let (listeners, path) = state.withLock { locked -> ([any Channel], String?) in
            defer {
                locked.listeners = []
                locked.unixPath = nil
                locked.tcpPort = nil
                locked.started = false
            }
            return (locked.listeners, locked.unixPath)
        }
        for listener in listeners { try? await listener.close() }
        let conns = registry.all
        for connection in conns { connection.channel.close(promise: nil) }
        for connection in conns { try? await connection.channel.closeFuture.get() }
        if let path { unlink(path) }
    }

    private func makeBootstrap(_ ctx: RPCListenerContext) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.maxMessagesPerRead, value: 16)
            .childChannelOption(
                ChannelOptions.recvAllocator,
                value: AdaptiveRecvByteBufferAllocator(minimum: 1024, initial: 16384, maximum: 1 << 20)
            )
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(RPCConnectionPipeline.handlers(ctx))
                }
            }
    }

    // MARK: address helpers

    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }), parts[0] == "127" { return true }
        return false
    }
}
