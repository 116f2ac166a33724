import AXJSON
import AXJSONRPC
import AXMCP
import AXProtocol
import AXTrace
import ArgumentParser

/// `axquery trace replay FILE`: sends a trace's calls again and reports the first step that differs
/// (Specs/trace-swift.md §Replay, D-TRACE-REPLAY-1). The comparison is `TraceReplay` (AXTrace); this is the I/O.
struct TraceReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a trace's calls against a running app; report the first step that differs.",
        discussion: """
            Sends every recorded call, key and MCP tool call again, in order, on one connection, and compares each step with its recording: the error code; for steps that change the app, the diff (ids added, removed, moved and updated with the names of the changed fields, not their values) and the focus after (accessibility and engine). Read-only steps are sent again but differ only by their error. Elements that change by themselves (seen changing during --watch before step 1, or between two steps) and those --ignore names are left out of the diff.

            Exit status: 0 every step agrees; 1 a step differs (its number, what was expected, what happened); 5 the trace is unreadable (the reader's message) or the server cannot be reached; 7 a step's text was masked when recorded and cannot be sent again.

            Examples:
              axquery record run.axtrace -- axquery count tab
              axquery trace replay run.axtrace
              axquery trace replay run.axtrace --ignore '#uptime' --timeout 5
            """)

    /// A step differs from its recording.
    static let differs: Int32 = 1
    /// A step holds masked text.
    static let masked: Int32 = 7

    @Argument(help: ArgumentHelp("The trace file.", valueName: "file"), completion: .file(extensions: ["axtrace"]))
    var file: String

    @Option(
        name: .customLong("ignore"),
        help: ArgumentHelp(
            "Leave the elements this selector matches (on the replaying app, before step 1) out of every diff; repeatable.",
            valueName: "selector"))
    var ignore: [String] = []

    @Option(help: ArgumentHelp("Each step's timeout in seconds (a wait step adds its own timeoutMs).", valueName: "s"))
    var timeout: Double = 10

    @Option(
        help: ArgumentHelp(
            "Milliseconds to watch the app before step 1 for elements that change by themselves (0 to 10000).",
            valueName: "ms"))
    var watch: Int = 1_500

    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func validate() throws {
        guard timeout >= 0.1, timeout <= 600 else { throw ValidationError("--timeout takes 0.1 to 600 seconds") }
        guard (0...10_000).contains(watch) else { throw ValidationError("--watch takes 0 to 10000 ms") }
    }

    func run() throws {
        try runReporting(json: global.json) {
            let reading: TraceReading
            do { reading = try TraceFile.read(file) } catch let failure as TraceFileError {
                throw CLIFailure(Exit.connection, failure.message)
            }
            if let problem = reading.problem {
                if problem.isBroken { throw CLIFailure(Exit.connection, "'\(file)': " + problem.message) }
                Out.err("'\(file)': " + problem.message)
            }
            let (address, token) = try global.address()
            let replayer = Replayer(
                backend: LiveBackend(address: address, token: token, clientName: "axquery trace replay"),
                app: global.app, stepTimeout: .milliseconds(Int(timeout * 1_000)))
            let steps = reading.steps
            let options = (ignore: ignore, watch: watch)
            let report = Blocking.run {
                let report = await replayer.replay(steps, ignore: options.ignore, watchMs: options.watch)
                await replayer.backend.close()
                return report
            }
            guard let report else { throw CLIFailure(Exit.connection, "the replay did not finish") }
            for line in report.lines { Out.write(line + "\n") }
            for line in report.errors { Out.err(line) }
            if report.status != Exit.ok { throw ExitCode(report.status) }
        }
    }
}

/// What a replay printed and its exit status.
struct ReplayReport: Sendable {
    var lines: [String] = []
    var errors: [String] = []
    var status: Int32 = Exit.ok
}

/// Sends a trace's steps again over one connection and compares them (the comparison is `TraceReplay`).
struct Replayer: Sendable {
    let backend: LiveBackend
    let app: String?
    let stepTimeout: Duration
    /// Each observation call's timeout.
    static let observationTimeout: Duration = .seconds(5)

    var observer: TraceObserver { TraceObserver(probe: BackendProbe(backend: backend)) }

    func replay(_ steps: [JSONObject], ignore: [String], watchMs: Int) async -> ReplayReport {
        var report = ReplayReport()
        var volatile: Set<String>
        do {
            var params: JSONObject = [:]
            if let app { params[rpcAppParameter] = .string(app) }
            _ = try await backend.call(
                RPCMethodName.treeRevision.rawValue, .object(params), timeout: Self.observationTimeout)
        } catch {
            report.errors.append("cannot reach the app: \(error.message)")
            report.status = Exit.connection
            return report
        }
        do { volatile = try await ignoredIds(ignore) } catch {
            report.errors.append("--ignore: \(error.message)")
            report.status = Exit.connection
            return report
        }
        volatile.formUnion(await watched(ms: watchMs))
        if !volatile.isEmpty { report.lines.append("ignored in diffs: " + volatile.sorted().joined(separator: ", ")) }
        var lastRevision: Int?
        var sent = 0
        var totalMs = 0.0
        for step in steps {
            let number = step["step"]?.intValue ?? 0
            let head = "step \(number) \(step["kind"]?.stringValue ?? "?") \(step["method"]?.stringValue ?? "?")"
            let plan = TraceReplay.plan(step, app: app)
            switch plan {
            case .skip(let why):
                report.lines.append("\(head): skipped (\(why))")
                continue
            case .masked:
                report.errors.append(
                    "step \(number) (\(step["method"]?.stringValue ?? "?")): its text was masked when recorded "
                        + "(\(TraceFormat.maskedText)), so it cannot be sent again; the steps before it agree")
                report.status = TraceReplayCommand.masked
                return report
            case .call(_, _, let observed), .tool(_, _, let observed):
                let started = ContinuousClock.now
                let outcome = await run(plan, observed: observed, lastRevision: &lastRevision, volatile: &volatile)
                let ms = Self.milliseconds(ContinuousClock.now - started)
                sent += 1
                totalMs += ms
                let differences = TraceReplay.compare(step, outcome, volatile: volatile)
                guard differences.isEmpty else {
                    report.lines.append("\(head) \(Self.paramsText(step)): differs from the recording")
                    for difference in differences {
                        report.lines.append(
                            "  \(difference.what): expected \(difference.expected); happened \(difference.happened)")
                    }
                    report.status = TraceReplayCommand.differs
                    return report
                }
                report.lines.append("\(head): agrees (\(Self.format(ms)) ms)")
            }
        }
        let mean = sent == 0 ? 0 : totalMs / Double(sent)
        report.lines.append(
            "every step agrees: \(sent) of \(steps.count) steps sent in \(Self.format(totalMs)) ms "
                + "(\(Self.format(mean)) ms a step)")
        return report
    }

    /// Sends one step and observes it: the revision and focus before, the call, then the diff and focus after.
    /// The tree's changes between the previous step and this one (no call in between) become volatile.
    func run(_ plan: TraceReplayPlan, observed: Bool, lastRevision: inout Int?, volatile: inout Set<String>) async
        -> TraceOutcome
    {
        var before: TraceMoment?
        if observed {
            let moment = await observer.moment(app: app)
            if let from = lastRevision, let to = moment.revision, to != from {
                let gap = try? await diff(from: from, to: to)
                volatile.formUnion(TraceReplay.volatileIds(inGap: gap))
            }
            before = moment
        }
        let errorCode = await send(plan)
        guard let before else { return TraceOutcome(errorCode: errorCode) }
        let after = await observer.moment(app: app)
        lastRevision = after.revision
        var shape: TraceDiffShape?
        if let from = before.revision, let to = after.revision {
            if to == from {
                shape = TraceDiffShape()
            } else if let changes = try? await diff(from: from, to: to) {
                shape = TraceDiffShape(changes)
            }
        }
        return TraceOutcome(errorCode: errorCode, diff: shape, focusAfter: after.focus)
    }

    /// Sends the step's call or tool; its error code, or nil when it succeeded.
    func send(_ plan: TraceReplayPlan) async -> Int? {
        switch plan {
        case .skip, .masked: return nil
        case .call(let method, let params, _):
            let waitMs = params["timeoutMs"]?.intValue ?? 0
            let timeout = stepTimeout + .milliseconds(method == RPCMethodName.waitFor.rawValue ? waitMs : 0)
            do {
                _ = try await backend.call(method, .object(params), timeout: timeout)
                return nil
            } catch {
                return error.code
            }
        case .tool(let name, let arguments, _):
            let runner = MCPToolRunner(backend: backend, defaultApp: app)
            let result = await Self.bounded(stepTimeout) { await runner.run(name, arguments: arguments) }
            guard let result else { return RPCError.Code.timeout }
            return result.isError ? result.errorCode ?? RPCError.Code.invalidParams : nil
        }
    }

    func diff(from: Int, to: Int) async throws(RPCError) -> JSON {
        var params: JSONObject = ["fromRevision": JSON(from), "toRevision": JSON(to)]
        if let app { params[rpcAppParameter] = .string(app) }
        return try await backend.call(
            RPCMethodName.treeDiff.rawValue, .object(params), timeout: Self.observationTimeout)
    }

    /// The ids the `--ignore` selectors match now.
    func ignoredIds(_ selectors: [String]) async throws(RPCError) -> Set<String> {
        var ids: Set<String> = []
        for selector in selectors {
            var params: JSONObject = ["selector": .string(selector)]
            if let app { params[rpcAppParameter] = .string(app) }
            let found = try await backend.call(
                RPCMethodName.queryFind.rawValue, .object(params), timeout: Self.observationTimeout)
            ids.formUnion((found["elements"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        }
        return ids
    }

    /// The elements that change while nothing is sent for `ms` milliseconds.
    func watched(ms: Int) async -> Set<String> {
        guard ms > 0, let from = await observer.moment(app: app).revision else { return [] }
        try? await Task.sleep(for: .milliseconds(ms))
        guard let to = await observer.moment(app: app).revision, to != from else { return [] }
        let gap = try? await diff(from: from, to: to)
        return TraceReplay.volatileIds(inGap: gap)
    }

    /// `body`'s value, or nil when it took longer than `limit` (then it is cancelled).
    static func bounded<Value: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async -> Value) async
        -> Value?
    {
        await withTaskGroup(of: Value?.self) { group in
            group.addTask { await body() }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    static func paramsText(_ step: JSONObject) -> String {
        let text = (step["params"] ?? .object([:])).jsonString
        return text.count > 160 ? String(text.prefix(159)) + "…" : text
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }

    static func format(_ ms: Double) -> String {
        let tenths = (ms * 10).rounded()
        guard tenths.isFinite, abs(tenths) < 1e15 else { return "?" }
        let value = Int(tenths)
        return "\(value / 10).\(abs(value % 10))"
    }
}
