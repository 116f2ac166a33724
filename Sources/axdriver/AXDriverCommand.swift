import AXWebDriver
import AXWire
import ArgumentParser
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `axdriver`: a W3C WebDriver endpoint (HTTP/1.1 + JSON) over a running axserver, in the manner of
/// chromedriver and safaridriver. Specs/webdriver.md is its contract.
@main
struct AXDriverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "axdriver",
        abstract: "Serve the W3C WebDriver protocol for the apps of a running axserver (Selenium and Appium clients).",
        discussion: """
            Listens on loopback (127.0.0.1) and drives the apps of the axserver found at --socket PATH, else \
            $AXSERVER_SOCKET, else $XDG_RUNTIME_DIR/axserver.sock, else /tmp/axserver-$UID/axserver.sock; --tcp \
            HOST:PORT --token-file F connects over loopback TCP instead. Prints 'READY port=N' when it listens.
            Examples:
              axdriver
              axdriver --port 4723 --socket /tmp/ax-demo/ax.sock
              axdriver --port 0 --auth-token-file ~/.config/axdriver/token
            """)

    @Option(help: "HTTP port (0: any free port, printed in the READY line).") var port: Int = 4723
    @Option(help: "Address to listen on (loopback unless --allow-non-loopback).") var host: String = "127.0.0.1"
    @Flag(
        name: .customLong("allow-non-loopback"),
        help: "Allow --host to be a non-loopback address (needs --auth-token-file).")
    var allowNonLoopback = false
    @Option(name: .customLong("allowed-host"), help: "A host name accepted in Host and Origin headers (repeatable).")
    var allowedHosts: [String] = []
    @Option(
        name: .customLong("auth-token-file"),
        help: "File whose first line is the HTTP basic-auth password every request must carry.")
    var authTokenFile: String?
    @Option(help: "The axserver Unix socket.") var socket: String?
    @Option(help: ArgumentHelp("Connect to axserver over loopback TCP.", valueName: "host:port")) var tcp: String?
    @Option(name: .customLong("token-file"), help: "File whose first line is axserver's TCP token (with --tcp).")
    var tokenFile: String?
    @Option(
        name: .customLong("max-sessions"),
        help:
            "Sessions open at once (at most \(WebDriverLimits.maxSessionsCeiling): each holds one axserver connection)."
    )
    var maxSessions: Int = 64
    @Option(name: .customLong("session-timeout-s"), help: "Delete a session idle this many seconds.")
    var sessionTimeout: Int = 600
    @Option(name: .customLong("max-body-bytes"), help: "The largest request body.") var maxBodyBytes: Int = 1 << 20
    @Option(name: .customLong("max-connections"), help: "HTTP connections open at once.") var maxConnections: Int = 512
    @Option(
        name: .customLong("idle-timeout-s"),
        help: "Close a connection that sends nothing for this many seconds while no request of it is in progress.")
    var idleTimeout: Int = 300
    @Option(
        name: .customLong("header-timeout-s"),
        help: "Close a connection whose request head is not complete this many seconds after its first byte (408).")
    var headerTimeout: Int = 10
    @Option(
        name: .customLong("body-timeout-s"),
        help: "Close a connection whose request body is not complete this many seconds after its head (408).")
    var bodyTimeout: Int = 60

    func validate() throws {
        if tcp != nil && socket != nil { throw ValidationError("use either --socket or --tcp, not both") }
        if tokenFile != nil && tcp == nil { throw ValidationError("--token-file goes with --tcp") }
        let ranges: [(flag: String, value: Int, range: ClosedRange<Int>, note: String)] = [
            ("--port", port, 0...65535, ""),
            (
                "--max-sessions", maxSessions, 1...WebDriverLimits.maxSessionsCeiling,
                " (each session holds one axserver connection)"
            ),
            ("--header-timeout-s", headerTimeout, 1...600, ""), ("--body-timeout-s", bodyTimeout, 1...3_600, ""),
            ("--session-timeout-s", sessionTimeout, 1...86_400, ""),
            ("--max-connections", maxConnections, 1...100_000, ""), ("--idle-timeout-s", idleTimeout, 1...86_400, ""),
            ("--max-body-bytes", maxBodyBytes, 1_024...(256 << 20), ""),
        ]
        for check in ranges where !check.range.contains(check.value) {
            throw ValidationError(
                "\(check.flag) must be in \(check.range.lowerBound)…\(check.range.upperBound)\(check.note)")
        }
        let loopback = host == "localhost" || host == "::1" || host.hasPrefix("127.")
        if !loopback && !allowNonLoopback {
            throw ValidationError("--host \(host) is not a loopback address; add --allow-non-loopback to listen on it")
        }
        if !loopback && authTokenFile == nil {
            throw ValidationError(
                "--host \(host) is reachable from the network: add --auth-token-file F (every request then needs the token as its basic-auth password); without a token anyone who can reach the port could drive your apps"
            )
        }
    }

    func run() async throws {
        var address: ServerAddress
        if let tcp {
            guard let tokenFile else { throw ValidationError("--tcp needs --token-file") }
            address = ServerAddress(address: "tcp:" + (tcp.hasPrefix("tcp:") ? String(tcp.dropFirst(4)) : tcp))
            address.token = try Self.firstLine(tokenFile)
        } else if let socket {
            address = ServerAddress(address: socket.hasPrefix("unix:") ? socket : "unix:" + socket)
        } else if let environment = getenv("AXSERVER_SOCKET"), environment.pointee != 0 {
            let path = String(cString: environment)
            address = ServerAddress(address: path.hasPrefix("unix:") || path.hasPrefix("tcp:") ? path : "unix:" + path)
        } else {
            address = ServerAddress(address: "unix:" + AXSocketPath.defaultPath())
        }
        var limits = WebDriverLimits()
        limits.maxSessions = maxSessions
        limits.sessionIdleTimeout = .seconds(sessionTimeout)
        limits.maxBodyBytes = maxBodyBytes
        limits.maxConnections = maxConnections
        limits.connectionIdleTimeout = .seconds(idleTimeout)
        limits.requestHeadTimeout = .seconds(headerTimeout)
        limits.requestBodyTimeout = .seconds(bodyTimeout)
        let service = WebDriverService(server: address, limits: limits)
        let trust = WebDriverTrust(
            authToken: try authTokenFile.map(Self.firstLine), allowedHosts: Set(allowedHosts))
        let channel: any Channel
        do {
            channel = try await WebDriverHTTPServer.start(service: service, trust: trust, host: host, port: port)
        } catch {
            Self.say("cannot start: cannot listen on \(host):\(port): \(error)", fd: 2)
            throw ExitCode(1)
        }
        let boundPort = channel.localAddress?.port ?? port
        Self.say("READY port=\(boundPort) server=\(address.address)", fd: 1)
        let sweeper = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(10))
                await service.expireIdleSessions()
            }
        }
        try await channel.closeFuture.get()
        sweeper.cancel()
        await service.closeAll()
    }

    /// Writes one line to a file descriptor (1: stdout, 2: stderr), unbuffered.
    static func say(_ line: String, fd: Int32) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// The first line of a secret file (which must not be readable by group or others).
    static func firstLine(_ path: String) throws -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { throw ValidationError("cannot read '\(path)'") }
        guard info.st_mode & 0o077 == 0 else {
            throw ValidationError("'\(path)' is readable by group or others; chmod 600 it")
        }
        guard let file = fopen(path, "r") else { throw ValidationError("cannot read '\(path)'") }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { throw ValidationError("'\(path)' is empty") }
        var line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while let last = line.last, last.isWhitespace { line.removeLast() }
        guard !line.isEmpty else { throw ValidationError("'\(path)' is empty") }
        return line
    }
}
