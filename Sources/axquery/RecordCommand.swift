import AXJSON
import AXMCP
import AXProtocol
import AXRPCClient
import AXTrace
import ArgumentParser
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `axquery record FILE -- COMMAND…`: runs any client with `$AXSERVER_SOCKET` pointing at a recording proxy in
/// front of the server, and writes the server's view of its session as a trace (Specs/trace-swift.md).
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a command (a test suite, a script, any client) and record its calls to the server as a trace.",
        discussion: """
            COMMAND runs with $AXSERVER_SOCKET set to a private proxy socket in front of the server (found like every axquery command: --socket, $AXSERVER_SOCKET, the default socket). Every request a client sends through it becomes a step of FILE (Specs/trace.md): the method, its params (tokens left out, text typed into a secure element masked), the element it aimed at, revision, diff and focus before and after, the answer or error, the time. Clients that take the socket from the environment are recorded: the Python and Swift clients, axdriver, axquery. Exits with COMMAND's exit code; 'axquery trace show FILE' prints the trace.

            Examples:
              axquery record run.axtrace -- axquery do activate '#"cell.wifi"'
              axquery record keys.axtrace --title keys -- axquery key Tab
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The trace file to write.", valueName: "file"), completion: .file())
    var file: String

    @Option(
        help: ArgumentHelp(
            "The trace's title (default: the program's name; its arguments are not recorded).", valueName: "text"))
    var title: String?

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The command to run, after '--'.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        if command.isEmpty { throw ValidationError("give the command to record after '--'") }
    }

    /// The default title: the program's name without its arguments (a command line can carry a secret).
    static func programName(_ command: [String]) -> String {
        String(command.first?.split(separator: "/").last ?? "command")
    }

    func run() throws {
        var status: Int32 = 0
        try runReporting(json: global.json) {
            let (address, token) = try global.address()
            guard address.hasPrefix("unix:") else {
                throw CLIFailure(
                    Exit.usage, "record proxies the server's Unix socket; give --socket PATH (not --tcp)")
            }
            var header = TraceHeader(
                source: .record, title: title ?? Self.programName(command), started: TraceFile.rfc3339Now(),
                producer: "axquery " + RPCServerInfo.version)
            header.pictures = false
            let recorder: TraceRecorder
            do { recorder = try TraceRecorder(path: file, header: header) } catch {
                throw CLIFailure(Exit.connection, "\(error)")
            }
            let probe = LiveBackend(address: address, token: token, clientName: "axquery record")
            let proxy = try RecordProxy(
                upstream: String(address.dropFirst("unix:".count)), recorder: recorder, probe: probe)
            status = proxy.run(command)
            Out.errRaw("axquery: trace \(file): \(recorder.stepCount) steps")
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// The recording proxy: a private Unix socket whose connections are forwarded byte for byte to the server, each
/// request and its answer recorded on the way. Bounded: at most `maxConnections` clients; each direction moves
/// one 64 KiB chunk at a time (a client that floods waits for the server, nothing piles up here); messages are
/// kept for the trace up to `maxFrameBytes` (a longer one is forwarded, not recorded).
final class RecordProxy: Sendable {
    static let maxConnections = 16
    static let maxFrameBytes = 4 << 20
    static let chunkBytes = 1 << 16
    /// Requests awaiting their answer per connection (a client that never reads answers is not remembered
    /// beyond this; those steps count as dropped).
    static let maxPending = 4_096

    let upstream: String
    let directory: String
    let socketPath: String
    let listenFD: Int32
    let recorder: TraceRecorder
    let observer: TraceObserver
    private let links = Mutex<[Int32: ProxyLink]>([:])
    private let stopping = Atomic<Bool>(false)
    private let pumps = Atomic<Int>(0)

    init(upstream: String, recorder: TraceRecorder, probe: LiveBackend) throws(CLIFailure) {
        self.upstream = upstream
        self.recorder = recorder
        observer = TraceObserver(probe: BackendProbe(backend: probe))
        var template = Array("/tmp/axrecord-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> UnsafeMutablePointer<CChar>? in
            guard let base = buffer.baseAddress else { return nil }
            return mkdtemp(base)
        }
        guard let made else {
            throw CLIFailure(Exit.connection, "cannot make a private directory: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        socketPath = directory + "/axserver.sock"
        do { listenFD = try POSIX.listenUnix(path: socketPath) } catch {
            rmdir(directory)
            throw CLIFailure(Exit.connection, "cannot listen on '\(socketPath)': \(error.message)")
        }
    }

    /// Runs `command` with `$AXSERVER_SOCKET` set to the proxy until it exits; its exit status.
    func run(_ command: [String]) -> Int32 {
        let acceptor = Thread { [self] in acceptLoop() }
        acceptor.start()
        var environment = ProcessInfo.processInfo.environment
        environment["AXSERVER_SOCKET"] = socketPath
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--"] + command
        process.environment = environment
        var status: Int32
        do {
            try process.run()
            process.waitUntilExit()
            status =
                process.terminationReason == .uncaughtSignal
                ? 128 + process.terminationStatus : process.terminationStatus
        } catch {
            Out.err("cannot run '\(command.first ?? "")': \(error)")
            status = 127
        }
        stop()
        return status
    }

    /// Stops accepting, ends every connection, waits (bounded) for the pumps, ends the trace.
    private func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        let open = links.withLock { Array($0.values) }
        for link in open { link.endBoth() }
        let deadline = ContinuousClock.now + .seconds(2)
        while pumps.load(ordering: .sequentiallyConsistent) > 0 && ContinuousClock.now < deadline {
            usleep(2_000)
        }
        for link in open { link.countUnanswered(recorder) }
        close(listenFD)
        unlink(socketPath)
        rmdir(directory)
        recorder.finish()
    }

    private func acceptLoop() {
        var poller = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
        while !stopping.load(ordering: .sequentiallyConsistent) {
            guard poll(&poller, 1, 100) > 0 else { continue }
            let client = accept(listenFD, nil, nil)
            guard client >= 0 else { continue }
            let count = links.withLock { $0.count }
            guard count < Self.maxConnections, let server = try? POSIX.connectUnix(upstream) else {
                close(client)
                continue
            }
            let link = ProxyLink(client: client, server: server)
            links.withLock { $0[client] = link }
            startPump(link, requests: true)
            startPump(link, requests: false)
        }
    }

    private func startPump(_ link: ProxyLink, requests: Bool) {
        pumps.add(1, ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in
            pump(link, requests: requests)
            if link.pumpEnded() {
                links.withLock { $0[link.client] = nil }
                link.closeBoth()
            }
            pumps.subtract(1, ordering: .sequentiallyConsistent)
        }
        thread.start()
    }

    /// Moves one direction: reads a chunk, records the messages that end in it (a request before it reaches the
    /// server, an answer before it reaches the client), forwards it.
    private func pump(_ link: ProxyLink, requests: Bool) {
        let from = requests ? link.client : link.server
        let to = requests ? link.server : link.client
        var splitter = TraceFrameSplitter(maxFrameBytes: Self.maxFrameBytes)
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var sent = 0
            for frame in splitter.feed(chunk[0..<count]) {
                if let bytes = frame.bytes {
                    if requests { request(bytes, link) } else { answer(bytes, link) }
                }
                guard forward(chunk, sent..<frame.end, to) else { return link.halfClose(to) }
                sent = frame.end
            }
            guard forward(chunk, sent..<count, to) else { return link.halfClose(to) }
        }
        link.halfClose(to)
    }

    private func forward(_ chunk: [UInt8], _ range: Range<Int>, _ fd: Int32) -> Bool {
        guard !range.isEmpty else { return true }
        return chunk.withUnsafeBytes { POSIX.writeAll(fd, UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// A request on its way: what it is, and the moment before it (for calls that change things).
    private func request(_ bytes: [UInt8], _ link: ProxyLink) {
        guard case .object(let message)? = try? JSON.parse(bytes), let method = message["method"]?.stringValue,
            let id = message["id"], !id.isNull
        else { return }
        let params = message["params"]?.objectValue ?? [:]
        let app = params[rpcAppParameter]?.stringValue
        var before: TraceBefore?
        if TraceCalls.observes(method) {
            let observer = observer
            let target = params["target"]
            before = Blocking.run {
                await observer.before(app: app, target: target, typesText: TraceSecrets.typesText(method))
            }
        }
        let pending = PendingCall(
            method: method, params: params, app: app, before: before, start: recorder.elapsedMs())
        if !link.remember(id.jsonString, pending) { recorder.countDroppedStep() }
    }

    /// An answer on its way back: its request becomes a step.
    private func answer(_ bytes: [UInt8], _ link: ProxyLink) {
        guard case .object(let message)? = try? JSON.parse(bytes), message["method"] == nil,
            let id = message["id"], let pending = link.take(id.jsonString)
        else { return }
        let secure = pending.before?.secureTarget ?? TraceSecrets.typesText(pending.method)
        var step = TraceStep(
            kind: TraceCalls.kind(of: pending.method), method: pending.method,
            params: TraceSecrets.params(pending.params, secureTarget: secure), startMs: pending.start,
            durationMs: recorder.elapsedMs() - pending.start)
        step.target = pending.before?.target
        if let error = message["error"] {
            step.error = TraceError(
                code: error["code"]?.intValue ?? 0, message: error["message"]?.stringValue ?? "")
        } else {
            step.result = message["result"]
        }
        if let before = pending.before {
            let observer = observer
            let recorder = recorder
            let unobserved = step
            step =
                Blocking.run {
                    var observed = unobserved
                    await observer.after(before.moment, app: pending.app, step: &observed, recorder: recorder)
                    return observed
                } ?? unobserved
        }
        recorder.append(step)
    }
}

/// A request waiting for its answer.
struct PendingCall: Sendable {
    var method: String
    var params: JSONObject
    var app: String?
    var before: TraceBefore?
    var start: Double
}

/// One client connection and its server connection.
final class ProxyLink: Sendable {
    let client: Int32
    let server: Int32
    private let pending = Mutex<[String: PendingCall]>([:])
    private let ended = Atomic<Int>(0)

    init(client: Int32, server: Int32) {
        self.client = client
        self.server = server
    }

    /// Remembers a request; false when too many await their answer.
    func remember(_ key: String, _ call: PendingCall) -> Bool {
        pending.withLock { calls in
            guard calls.count < RecordProxy.maxPending else { return false }
            calls[key] = call
            return true
        }
    }

    func take(_ key: String) -> PendingCall? { pending.withLock { $0.removeValue(forKey: key) } }

    /// Requests never answered count as dropped steps.
    func countUnanswered(_ recorder: TraceRecorder) {
        let count = pending.withLock { calls in
            defer { calls.removeAll() }
            return calls.count
        }
        for _ in 0..<count { recorder.countDroppedStep() }
    }

    /// No more bytes go to `fd` (its peer sees the end of the stream).
    func halfClose(_ fd: Int32) { socketShutdown(fd, Int32(SHUT_WR)) }

    /// Ends both directions (the pumps' reads return).
    func endBoth() {
        socketShutdown(client, Int32(SHUT_RDWR))
        socketShutdown(server, Int32(SHUT_RDWR))
    }

    /// A pump ended; true for the second one (which closes the descriptors).
    func pumpEnded() -> Bool { ended.add(1, ordering: .sequentiallyConsistent).newValue == 2 }

    func closeBoth() {
        close(client)
        close(server)
    }
}

/// Runs async work from a plain thread and waits for it (the proxy's pumps are threads, the probe is async).
enum Blocking {
    static func run<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value? {
        let box = Box<Value>()
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            box.value.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return box.value.withLock { $0 }
    }

    /// The value handed from the task to the waiting thread.
    final class Box<Value: Sendable>: Sendable {
        let value = Mutex<Value?>(nil)
    }
}

/// `shutdown(2)`.
private func socketShutdown(_ fd: Int32, _ how: Int32) {
    _ = shutdown(fd, how)
}
