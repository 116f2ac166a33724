import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPCClient
import AXTrace
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The client's connection as the recorder's probe: observation calls bypass the trace.
struct ConnectionProbe: TraceProbe {
    let connection: RPCClient

    func call(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
        try await connection.call(method, params, timeout: timeout)
    }
}

/// A trace being recorded by a client: the recorder (writing to a file of its own until `stopTrace(path:)` moves
/// it) and the observer.
final class ClientTrace: Sendable {
    let recorder: TraceRecorder
    let observer: TraceObserver
    let scratch: String

    init(recorder: TraceRecorder, observer: TraceObserver, scratch: String) {
        self.recorder = recorder
        self.observer = observer
        self.scratch = scratch
    }

    /// Calls `method` through `send` and appends it as a step (Specs/trace-swift.md, D-TRACE-SWIFT-1).
    func record(
        _ method: String, _ params: JSONObject, send: () async throws(RPCError) -> JSON
    ) async throws(RPCError) -> JSON {
        let app = params[rpcAppParameter]?.stringValue
        var before: TraceBefore?
        if TraceCalls.observes(method) {
            before = await observer.before(
                app: app, target: params["target"], typesText: TraceSecrets.typesText(method))
        }
        let start = recorder.elapsedMs()
        let outcome: Result<JSON, RPCError>
        do { outcome = .success(try await send()) } catch { outcome = .failure(error) }
        let secure = before?.secureTarget ?? TraceSecrets.typesText(method)
        var step = TraceStep(
            kind: TraceCalls.kind(of: method), method: method,
            params: TraceSecrets.params(params, secureTarget: secure), startMs: start,
            durationMs: recorder.elapsedMs() - start)
        step.target = before?.target
        switch outcome {
        case .success(let result): step.result = result
        case .failure(let error): step.error = TraceError(code: error.code, message: error.message)
        }
        if let before { await observer.after(before.moment, app: app, step: &step, recorder: recorder) }
        recorder.append(step)
        return try outcome.get()
    }
}

extension AXClient {
    /// Starts recording every call this client makes as an accessibility trace (Specs/trace.md, source `swift`):
    /// the call, the element it aimed at, revision, diff and focus before and after, its answer or error, its time.
    /// Steps are written as they happen to a file in `$TMPDIR` that `stopTrace(path:)` moves to its place. A trace
    /// already running is replaced (its steps are dropped).
    /// - Throws: `AXClientError` (−32603) when the scratch file cannot be written.
    public func startTrace(title: String = "AXClient") throws(AXClientError) {
        let scratch = Self.scratchPath()
        let header = TraceHeader(
            source: .swift, title: title, started: TraceFile.rfc3339Now(), producer: "AXClient " + RPCServerInfo.version
        )
        let recorder: TraceRecorder
        do { recorder = try TraceRecorder(path: scratch, header: header) } catch {
            throw AXClientError(code: RPCError.Code.internalError, message: error.message, data: nil)
        }
        let trace = ClientTrace(
            recorder: recorder, observer: TraceObserver(probe: ConnectionProbe(connection: connection)),
            scratch: scratch)
        let previous = tracing.withLock { current in
            defer { current = trace }
            return current
        }
        if let previous {
            previous.recorder.finish()
            unlink(previous.scratch)
        }
    }

    /// Stops recording, writes the end line and moves the trace to `path`.
    /// - Throws: `AXClientError` (−32600) when no trace was started, (−32603) when it cannot be moved to `path`.
    public func stopTrace(path: String) throws(AXClientError) {
        guard
            let trace = tracing.withLock({ current in
                defer { current = nil }
                return current
            })
        else {
            throw AXClientError(
                code: RPCError.Code.invalidRequest, message: "stopTrace: no trace was started (call startTrace())",
                data: nil)
        }
        trace.recorder.finish()
        if rename(trace.scratch, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(trace.scratch)
            throw AXClientError(
                code: RPCError.Code.internalError, message: "stopTrace: cannot write '\(path)': \(reason)", data: nil)
        }
    }

    /// A scratch file for a trace in `$TMPDIR` (else /tmp).
    static func scratchPath() -> String {
        var directory = "/tmp"
        if let value = getenv("TMPDIR"), value.pointee != 0 { directory = String(cString: value) }
        let serial = traceSerial.add(1, ordering: .relaxed).newValue
        return directory + "/axclient-trace-\(getpid())-\(serial).axtrace"
    }
}

/// Numbers the scratch files of one process.
let traceSerial = Atomic<Int>(0)
