import AXATSPI
import AXConformance
import AXCore
import AXDemo
import AXDemoHost
import AXHub
import AXInProcess
import AXJSON
import AXProvider
import AXRPC
import AXRasterizer
import AXSettings
import AXTransport
import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

@main
struct AXServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "axserver",
        abstract:
            "Mirror live view hierarchies as UIKit accessibility trees, for screen readers (AT-SPI2) and test scripts (JSON-RPC).",
        discussion: """
            Without a subcommand, axserver serves (see 'axserver serve --help'). Once the socket is open and every app is registered on the accessibility bus, it prints one line starting with READY.

            Examples:
              axserver --demo
              axserver dump --demo
              axserver conformance Specs/conformance
              axserver --version
            """,
        version: AXMethods.serverVersion,
        subcommands: [Serve.self, Dump.self, Conformance.self, DemoApp.self],
        defaultSubcommand: Serve.self)
}

/// Writes one line to stdout immediately (scripts wait for READY).
func say(_ message: String) {
    FileHandle.standardOutput.write(Data((message + "\n").utf8))
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data(("axserver: " + message + "\n").utf8))
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server (the default subcommand).",
        discussion: """
            Prints one line 'READY socket=PATH [tcp=PORT] apps=… atspi=…' once it is serving; stops cleanly on SIGTERM or SIGINT (and SIGHUP without --policy), removing its socket.

            Examples:
              axserver --demo
              axserver --demo --socket /tmp/ax-demo/ax.sock --no-atspi
              axserver --bench-tree 5000
              axserver --demo --listen tcp:127.0.0.1:7777 --token-file ~/.axtoken
              axserver --demo --policy ~/.config/axserver/policy.json --operator-token-file ~/.config/axserver/operator.token
            """)

    @Flag(help: "Serve the built-in demo app (application 'axserver-demo').") var demo = false
    @Flag(
        name: .customLong("demo-audit"),
        help:
            "Also serve the audit demo screen, which gets one thing wrong per audit check (application 'axserver-audit-demo')."
    ) var demoAudit = false
    @Option(
        name: .customLong("bench-tree"),
        help: "Serve a generated tree of N leaf controls (application 'axserver-bench').") var benchTree: Int?
    @Option(
        help:
            "Unix socket path (default: $XDG_RUNTIME_DIR/axserver.sock, else /tmp/axserver-$UID/axserver.sock in a private 0700 directory)."
    ) var socket: String?
    @Option(help: "Also listen on TCP, e.g. tcp:127.0.0.1:7777 (needs --token-file).") var listen: String?
    @Option(name: .customLong("token-file"), help: "File whose first line is the TCP token (mode 0600).") var tokenFile:
        String?
    @Flag(name: .customLong("allow-non-loopback"), help: "Allow --listen on a non-loopback address.")
    var allowNonLoopback = false
    @Flag(name: .customLong("no-atspi"), help: "Do not serve the accessibility bus.") var noATSPI = false
    @Flag(
        name: .customLong("no-settings"),
        help:
            "Do not read the desktop's accessibility settings (GSettings); a11y.settings then reports UIKit's defaults."
    )
    var noSettings = false
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error, critical") var logLevel:
        String = "notice"
    @Option(name: .customLong("action-timeout-ms"), help: "How long an app may take to answer an action.")
    var actionTimeoutMs: Int = 5000
    @Option(
        help:
            "Guided-access policy file (JSON, Specs/protocol.md §Kiosk policy): loaded at start, written back on every operator change, re-read on SIGHUP."
    ) var policy: String?
    @Option(
        name: .customLong("operator-token-file"),
        help:
            "File whose first line is the kiosk operator's token (mode 0600): a connection that initializes with role 'operator' and this token may change guided access."
    ) var operatorTokenFile: String?
    @Option(
        name: .customLong("max-output-bytes"),
        help: "Pending output per connection before its reads pause / a slow subscriber is closed.") var maxOutputBytes:
        Int = 8 << 20
    @Option(
        name: .customLong("max-queued-input-bytes"),
        help: "Requests queued per connection behind a running call before its reads pause.") var maxQueuedInputBytes:
        Int = 16 << 20
    @Option(name: .customLong("max-connections"), help: "Connections open at the same time (one more is refused).")
    var maxConnections: Int = 1024
    @Option(name: .customLong("frame-timeout-ms"), help: "How long an incomplete message may stay incomplete.")
    var frameTimeoutMs: Int = 30_000
    @Option(name: .customLong("auth-timeout-ms"), help: "How long a TCP connection may take to authenticate.")
    var authTimeoutMs: Int = 10_000

    func validate() throws {
        let positive: [(String, Int)] = [
            ("--max-output-bytes", maxOutputBytes),
            ("--max-queued-input-bytes", maxQueuedInputBytes), ("--max-connections", maxConnections),
            ("--frame-timeout-ms", frameTimeoutMs), ("--auth-timeout-ms", authTimeoutMs),
        ]
        for (flag, value) in positive where value <= 0 {
            throw ValidationError("\(flag) must be a positive integer (got \(value))")
        }
    }

    /// The per-connection limits from the flags (Specs/protocol.md §Limits).
    var connectionLimits: RPCConnectionLimits {
        RPCConnectionLimits(
            maxPendingOutputBytes: maxOutputBytes, maxQueuedInputBytes: maxQueuedInputBytes,
            partialFrameTimeout: .milliseconds(frameTimeoutMs), authenticationTimeout: .milliseconds(authTimeoutMs),
            maxConnections: maxConnections)
    }

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = Logger.Level(rawValue: logLevel) ?? .notice
            return handler
        }
        let logger = Logger(label: "axserver")
        var startPolicy = GuidedAccessPolicy()
        var options = MethodOptions()
        if let rasterizer = SVGRasterizer.find() { options.rasterizePNG = { svg throws in try rasterizer.png(svg) } }
        do {
            if let policy {
                startPolicy = try OperatorFiles.loadPolicy(policy)
                let path = policy
                options.persistPolicy = { updated throws in try OperatorFiles.savePolicy(updated, to: path) }
            }
            if let operatorTokenFile {
                options.operatorToken = try OperatorFiles.loadOperatorToken(operatorTokenFile)
            }
        } catch {
            warn("cannot start: \(error)")
            throw ExitCode(1)
        }
        let hub = Hub(actionTimeout: .milliseconds(actionTimeoutMs), policy: startPolicy)
        // The audit trail: every change of a restriction's state, with who made it (D-GA-3).
        hub.subscribe { event in
            if case .restrictionChanged(let app, let id, let denied, let source, let actor) = event {
                logger.notice(
                    "policy: app '\(app)' restriction '\(id)' is now \(denied ? "deny" : "allow") (source \(source.rawValue), by \(actor))"
                )
            }
        }
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub, options: options)
        let config = RPCServer.Configuration(
            unixSocketPath: socket ?? RPCServer.defaultSocketPath(), tcp: listen,
            tokenFile: tokenFile, allowNonLoopback: allowNonLoopback, limits: connectionLimits)
        let server = RPCServer(router: router, configuration: config, logger: logger)
        let service = ServerService(
            hub: hub, server: server, logger: logger, demo: demo, benchTree: benchTree, atspi: !noATSPI,
            auditDemo: demoAudit, settings: !noSettings)
        // SIGHUP re-reads the policy file when there is one (a refused file leaves the running policy in force);
        // without one it is a hang-up and shuts the server down cleanly, removing its socket (D-GA-3).
        var shutdownSignals: [UnixSignal] = [.sigterm, .sigint]
        var services: [any Service] = [service]
        if let policy {
            services.append(PolicyReloadService(hub: hub, path: policy, logger: logger))
        } else {
            shutdownSignals.append(.sighup)
        }
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: shutdownSignals, logger: logger))
        try await group.run()
    }
}

/// Re-reads the policy file on every SIGHUP; a file that does not parse is refused whole and logged.
struct PolicyReloadService: Service {
    let hub: Hub
    let path: String
    let logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            do {
                let reloaded = try OperatorFiles.loadPolicy(path)
                hub.replacePolicy(reloaded.marked(.file), actor: "policy file reload (SIGHUP)")
                logger.notice("policy: reloaded \(path)")
            } catch {
                logger.error("policy: reload refused, the running policy stays in force: \(error)")
            }
        }
    }
}

struct ServerService: Service {
    let hub: Hub
    let server: RPCServer
    let logger: Logger
    let demo: Bool
    let benchTree: Int?
    let atspi: Bool
    var auditDemo = false
    var settings = true

    func run() async throws {
        do { try await server.start() } catch {
            warn("cannot start: \(error)")
            throw ExitCode(1)
        }
        var host: DemoHost?
        if demo {
            // The demo app reaches the server through the real router, like an app on the socket.
            let demoHost = DemoHost(transport: InProcessProviderTransport(router: server.router))
            try await demoHost.start()
            host = demoHost
        }
        if let leafCount = benchTree {
            let id = hub.registerApp(name: BenchTree.appName, provider: nil)
            try hub.setSnapshot(app: id, BenchTree.snapshot(leaves: leafCount))
        }
        if auditDemo {
            let id = hub.registerApp(name: AuditDemo.appName, provider: nil)
            try hub.setSnapshot(app: id, AuditDemo.snapshot())
        }
        // The desktop's accessibility settings (D-SET-1); a reader that cannot start leaves UIKit's defaults.
        var settingsReader: GSettingsReader?
        if settings {
            let reader = GSettingsReader(hub: hub)
            do {
                try reader.start()
                settingsReader = reader
            } catch { logger.warning("accessibility settings are not read: \(error)") }
        }
        defer { settingsReader?.stop() }
        let bridge = atspi ? await startBridge(hub: hub, logger: logger) : nil
        var parts: [String] = []
        if let path = server.unixSocketPath { parts.append("socket=\(path)") }
        if let port = server.tcpPort { parts.append("tcp=\(port)") }
        parts.append("apps=\(hub.appIDs.joined(separator: ","))")
        parts.append("atspi=\(bridge?.status ?? "off")")
        // Building the initial trees leaves freed transient memory (parsed JSON, decode buffers) in the heap;
        // give it back to the system so the resident size reflects what the server keeps.
        HeapTrim.trimNow()
        say("READY " + parts.joined(separator: " "))
        try? await gracefulShutdown()
        await host?.stop()
        bridge?.stop()
        await server.stop()
    }
}

struct Dump: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print an accessibility tree as indented text and exit.",
        discussion: """
            Examples:
              axserver dump --demo
              axserver dump --demo --alert --frames
              axserver dump --demo --snapshot > snapshot.json
              axserver dump --file snapshot.json
            """)
    @Flag(help: "The built-in demo app.") var demo = false
    @Option(name: .customLong("bench-tree"), help: "A generated tree of N leaf controls.") var benchTree: Int?
    @Option(help: "A hierarchy snapshot file (JSON).") var file: String?
    @Flag(help: "Show screen frames.") var frames = false
    @Flag(help: "Show the demo with its alert presented.") var alert = false
    @Flag(name: .customLong("demo-audit"), help: "The audit demo screen (one mistake per audit check).") var demoAudit =
        false
    @Flag(help: "Print the view-hierarchy snapshot the app pushes (JSON, Specs/hierarchy.md) instead of the tree.")
    var snapshot = false

    func run() async throws {
        let json: JSON
        if let leafCount = benchTree {
            json = BenchTree.snapshot(leaves: leafCount)
        } else if demoAudit {
            json = AuditDemo.snapshot()
        } else if let path = file {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ValidationError("cannot read \(path)")
            }
            json = try JSON.parse(Array(data))
        } else {
            var app = AXDemo.DemoApp()
            app.alertShown = alert
            json = app.snapshot()
        }
        if snapshot {
            print(json.prettyString())
            return
        }
        let store = HierarchyStore()
        do { try store.setSnapshot(json) } catch {
            warn("invalid hierarchy: \(error)")
            throw ExitCode(1)
        }
        print(TreeText.render(store.tree, frames: frames), terminator: "")
    }
}

struct Conformance: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the conformance cases (in-process, or against a live server with --socket).",
        discussion: """
            Ends with one line 'N passed, M failed'; exits 1 when a case failed, 2 when the cases cannot be read.

            Examples:
              axserver conformance Specs/conformance
              axserver conformance --verbose Specs/conformance
              axserver conformance --socket /tmp/ax-demo/ax.sock Specs/conformance
            """)
    @Argument(
        help:
            "Directory (or file) of cases; a relative path missing here is looked up next to the binary (its checkout, or PREFIX/share/axserver)."
    ) var dir: String = "Specs/conformance"
    @Option(help: "Run black-box against the server at this socket (unix:PATH, PATH, or tcp:HOST:PORT).") var socket:
        String?
    @Option(help: "Token for a TCP server.") var token: String?
    @Option(
        name: .customLong("operator-token-file"),
        help: "The server's operator token file: guided-access changes run as the operator.") var operatorTokenFile:
        String?
    @Flag(help: "Print every passing case too.") var verbose = false

    func run() async throws {
        let cases: [ConformanceCase]
        guard let casesPath = ConformanceCasesLocation.resolve(dir) else {
            warn(
                "no such directory: \(dir) (not in \(FileManager.default.currentDirectoryPath), nor next to the binary); pass the path of the checkout's Specs/conformance"
            )
            throw ExitCode(2)
        }
        do { cases = try ConformanceRunner.loadCases(casesPath) } catch {
            warn("\(error)")
            throw ExitCode(2)
        }
        let runner: ConformanceRunner
        if let socket {
            let address = socket.hasPrefix("unix:") || socket.hasPrefix("tcp:") ? socket : "unix:" + socket
            let token = self.token
            var operatorToken: String?
            if let operatorTokenFile {
                do {
                    operatorToken = try OperatorFiles.loadOperatorToken(operatorTokenFile)
                } catch {
                    warn("\(error)")
                    throw ExitCode(2)
                }
            }
            runner = ConformanceRunner(
                operatorToken: operatorToken, connect: { try await SocketConnection.connect(address, token: token) })
        } else {
            runner = ConformanceRunner(
                operatorToken: InProcessConnection.operatorToken, server: { InProcessConnection.freshServer() })
        }
        let results = await runner.runAll(cases, verbose: verbose) { say($0) }
        if results.contains(where: { !$0.passed }) { throw ExitCode(1) }
    }
}

struct DemoApp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-app",
        abstract: "Run the demo app as a separate provider process connected to a server's socket.",
        discussion: """
            Prints 'READY app=ID' once registered; runs until the server closes the connection.

            Examples:
              axserver demo-app
              axserver demo-app --socket /tmp/ax-demo/ax.sock --name kitchen-panel
            """)
    @Option(
        help: "Server socket (unix:PATH, PATH or tcp:HOST:PORT; default: $AXSERVER_SOCKET, else the default socket).")
    var socket: String?
    @Option(help: "Token for a TCP server.") var token: String?
    @Option(help: "Application name.") var name: String = AXDemo.DemoApp.appName

    func run() async throws {
        let environmentSocket = ProcessInfo.processInfo.environment["AXSERVER_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let path = socket ?? environmentSocket ?? RPCServer.defaultSocketPath()
        let address = path.hasPrefix("unix:") || path.hasPrefix("tcp:") ? path : "unix:" + path
        let transport = try await SocketProviderTransport(address: address, token: token)
        let host = DemoHost(transport: transport)
        try await host.start(name: name)
        say("READY app=\(await host.appID)")
        let closed = AsyncStream<Void> { cont in transport.onClose { cont.finish() } }
        for await _ in closed {}
        await host.stop()
    }
}
