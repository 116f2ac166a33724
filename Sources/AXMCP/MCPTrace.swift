import AXJSON
import AXJSONRPC
import AXTrace

/// The session's backend as the recorder's probe: observation calls share the session's one connection.
package struct BackendProbe: TraceProbe {
    let backend: any MCPBackend

    package init(backend: any MCPBackend) { self.backend = backend }

    package func call(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
        try await backend.call(method, params, timeout: timeout)
    }
}

extension MCPToolRunner {
    /// Runs a tool and appends it to `recorder` as a `tool` step (`axquery mcp --trace`, Specs/trace-swift.md):
    /// its arguments (typed text into a secure element masked), the element it aims at, revision, diff and focus
    /// before and after, its answer or error and its time. Tools that only read (except `wait_for`) are recorded
    /// without the before/after observation.
    func traced(_ name: String, arguments: JSONObject, recorder: TraceRecorder) async -> MCPToolResult {
        let observer = TraceObserver(probe: BackendProbe(backend: backend))
        let app = arguments[rpcAppArgument]?.stringValue ?? defaultApp
        let observes = MCPToolCatalog.tool(named: name).map { $0.kind != .read || name == "wait_for" } ?? false
        var before: TraceBefore?
        if observes {
            let target: JSON? =
                arguments["ref"]?.stringValue.map { ["id": .string($0)] }
                ?? arguments["selector"]?.stringValue.map { ["selector": .string($0)] }
            before = await observer.before(app: app, target: target, typesText: name == "type_text")
        }
        let start = recorder.elapsedMs()
        let result = await runUntraced(name, arguments: arguments)
        let duration = recorder.elapsedMs() - start
        var step = TraceStep(
            kind: .tool, method: name,
            params: TraceSecrets.params(arguments, secureTarget: before?.secureTarget ?? false),
            startMs: start, durationMs: duration)
        step.target = before?.target
        if result.isError {
            step.error = TraceError(code: result.errorCode ?? RPCError.Code.invalidParams, message: result.text)
        } else {
            step.result = result.json
        }
        if let before { await observer.after(before.moment, app: app, step: &step, recorder: recorder) }
        recorder.append(step)
        return result
    }

    /// The tools' app argument.
    var rpcAppArgument: String { "app" }
}
