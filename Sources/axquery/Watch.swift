import AXJSON
import AXProtocol
import AXRPCClient
import ArgumentParser
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stream events (tree.changed, focus.changed, announcements, …) until Ctrl-C, --count or --timeout.",
        discussion: """
            Each event is one line (`tree.changed app=… revision=N added=[…] updated=[…]`), or with --json one JSON object per line: {"event": NAME, "params": {...}}. Exits 0 when stopped by SIGINT, after --count events, when nobody reads its output any more (`axquery watch | head -1`), or when --timeout passes (4 if --timeout passes before any event arrived).

            Events: tree.changed, focus.changed, a11y.announcement, a11y.layoutChanged, a11y.screenChanged, a11y.pageScrolled, a11y.pauseAssistiveTechnology, a11y.resumeAssistiveTechnology, app.added, app.removed, policy.changed, a11y.guidedAccessStatusChanged.

            Examples:
              axquery watch
              axquery watch --events tree.changed,focus.changed --json
              axquery watch --count 1 --timeout 10s
            """)
    @Option(
        help: ArgumentHelp("Comma-separated event names (default: all).", valueName: "names"),
        completion: .list(
            [
                RPCEvent.treeChanged, .focusChanged, .announcement, .appAdded, .appRemoved, .policyChanged,
            ].map(\.rawValue)))
    var events: String?
    @Option(help: "Stop after this many events.") var count: Int?
    @Option(help: "Stop after this long: 500ms, 5s, 1m.") var timeout: DurationArg?
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func validate() throws {
        if let count, count <= 0 { throw ValidationError("--count must be positive") }
    }

    /// The root command is synchronous (no concurrency runtime for the one-shot commands); watch runs its
    /// NIO client in a task and blocks the main thread until it ends.
    func run() throws {
        let json = global.json
        let outcome = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let command = self
        Task {
            do { try await command.stream() } catch { outcome.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        if let error = outcome.withLock({ $0 }) {
            if let f = error as? CLIFailure { throw f.report(json: json) }
            throw error
        }
    }

    /// A connection initialized as automation.
    func connect() async throws -> RPCClient {
        let (address, token) = try global.address()
        let client: RPCClient
        do { client = try await RPCClient.connect(address) } catch {
            throw CLIFailure(
                Exit.connection, "cannot connect to the server: \(error)",
                details: [AXSocketPath.noServerHint])
        }
        var ip: RPCParams<RPCCatalog.Initialize.Param> = [.role: "automation", .clientInfo: ["name": "axquery"]]
        if let token { ip[.token] = .string(token) }
        do {
            _ = try await client.call(RPCMethodName.initialize.rawValue, .object(ip.object), timeout: .seconds(10))
        } catch {
            throw CLIFailure(Exit.connection, "the server refused the connection: \(error.message)", rpc: error)
        }
        return client
    }

    /// `events.subscribe` with the chosen events and app.
    func subscribe(_ client: RPCClient) async throws {
        var typed: RPCParams<RPCCatalog.EventsSubscribe.Param> = [:]
        if let events {
            typed[.events] = JSON(
                events.split(separator: ",").map { String($0.trimmingCharacters()) }.filter { !$0.isEmpty })
        }
        var p = typed.object
        if let app = global.app {
            // An unknown app exits 5 like everywhere else (the subscription filter itself accepts any name).
            do {
                _ = try await client.call(RPCMethodName.treeRevision.rawValue, [rpcAppParameter: .string(app)])
            } catch {
                throw Context.failure(error)
            }
            p[rpcAppParameter] = .string(app)
        }
        do { _ = try await client.call(RPCMethodName.eventsSubscribe.rawValue, .object(p)) } catch {
            throw Context.failure(error)
        }
    }

    func stream() async throws {
        let client = try await connect()
        let state = WatchState(
            limit: count, json: global.json,
            palette: global.json ? Palette(on: false) : Palette.auto(noColor: global.noColor))
        let (done, doneCont) = AsyncStream<Int32>.makeStream()
        client.onNotification { method, params in
            if state.deliver(method, params) { doneCont.yield(Exit.ok) }
        }
        client.onClose { doneCont.yield(Exit.connection) }
        // Nobody reads stdout any more (`axquery watch | head -1`): stop cleanly, exit 0, as after --count.
        Out.whenStdoutCloses {
            state.finish()
            doneCont.yield(Exit.ok)
        }
        try await subscribe(client)
        // Ctrl-C ends the stream normally; every line is already flushed.
        signal(SIGINT) { _ in _exit(0) }
        if let timeout {
            let ms = timeout.milliseconds
            Task {
                try? await Task.sleep(for: .milliseconds(ms))
                doneCont.yield(state.delivered == 0 ? Exit.timeout : Exit.ok)
            }
        }
        var code = Exit.ok
        for await c in done {
            code = c
            break
        }
        if code == Exit.connection && !state.finished {
            throw CLIFailure(Exit.connection, "the server closed the connection")
        }
        if code == Exit.timeout {
            throw CLIFailure(Exit.timeout, "no event within \(timeout?.milliseconds ?? 0) ms")
        }
        await client.close()
    }
}

/// Prints events as they come (on the connection's event loop) and counts them.
final class WatchState: Sendable {
    struct S {
        var delivered = 0
        var finished = false
    }
    let limit: Int?
    let json: Bool
    let palette: Palette
    private let s = Mutex(S())

    init(limit: Int?, json: Bool, palette: Palette) {
        self.limit = limit
        self.json = json
        self.palette = palette
    }

    var delivered: Int { s.withLock { $0.delivered } }
    var finished: Bool { s.withLock { $0.finished } }

    /// Returns true when the limit was reached with this event.
    func deliver(_ method: String, _ params: JSON?) -> Bool {
        let go: Bool = s.withLock { st in
            if st.finished { return false }
            st.delivered += 1
            if let limit, st.delivered >= limit { st.finished = true }
            return true
        }
        guard go else { return false }
        if json {
            Out.line(JSON.object(["event": .string(method), "params": params ?? .null]).jsonString)
        } else {
            Out.line(WatchState.describe(method, params ?? .null, palette))
        }
        Out.flush()
        if Out.stdoutClosed.load(ordering: .acquiring) { finish() }
        return finished
    }

    /// Ends the stream: no more events are printed.
    func finish() { s.withLock { $0.finished = true } }

    static func describe(_ method: String, _ p: JSON, _ pal: Palette) -> String {
        var s = pal.role(method)
        for (k, v) in p.objectValue ?? [:] where k != "subscription" {
            if case .array(let a) = v, a.isEmpty { continue }
            s += " \(k)=" + (v.stringValue ?? v.jsonString)
        }
        return s
    }
}
