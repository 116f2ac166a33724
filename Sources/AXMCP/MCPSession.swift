import AXJSON
import AXJSONRPC
import Synchronization

/// The MCP side of `axquery mcp` (Specs/mcp.md): JSON-RPC 2.0 messages from the host, one per line, answered
/// through `write`. Implements `initialize`, `ping`, `tools/list`, `tools/call` and the notifications
/// `notifications/initialized` and `notifications/cancelled` (a cancelled call is not answered, and its server call
/// is cancelled too). Framing-free and I/O-free: the stdio loop (`MCPStdio`) and the unit tests feed it lines.
///
/// Bounded (D-MCP-CONN-1): at most `maxRunning` tool calls run at once; later ones wait in arrival order, at most
/// `maxQueued` of them and `maxQueuedBytes` of their lines; a call beyond that is answered −32023 `busy` at once.
/// Cancelling a waiting call removes it without an answer.
package final class MCPSession: Sendable {
    /// Protocol revisions this server speaks, newest first; `initialize` echoes the host's when listed.
    package static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The longest line accepted (larger ones are answered −32600 and dropped).
    package static let maxLineBytes = 4 << 20
    /// Tool calls running at once (their server calls are bounded again by `LiveBackend`).
    package static let maxRunning = 1_024
    /// Tool calls waiting for a place to run.
    package static let maxQueued = 4_096
    /// Bytes of the lines of the waiting tool calls.
    package static let maxQueuedBytes = 32 << 20
    /// After a burst of at least this many calls, the freed heap is handed back once the session is idle.
    static let trimAfterCalls = 256

    let runner: MCPToolRunner
    let serverVersion: String
    let write: @Sendable ([UInt8]) -> Void
    /// A tool call waiting for a place to run.
    private struct Queued {
        var id: JSON
        var name: String
        var arguments: JSONObject
        var bytes: Int
    }
    private struct State {
        var running: [String: Task<Void, Never>] = [:]
        var cancelled: Set<String> = []
        /// Waiting calls by id key, and their order (keys of calls cancelled meanwhile are skipped).
        var queued: [String: Queued] = [:]
        var order: [String] = []
        var orderHead = 0
        var queuedBytes = 0
        var initialized = false
        /// Calls that ended and whose answer is being written.
        var answering = 0
        /// Calls started since the session was last idle.
        var burst = 0
    }
    private let state = Mutex(State())

    /// `write` receives each outgoing message (one JSON text, without the newline).
    package init(runner: MCPToolRunner, serverVersion: String, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.runner = runner
        self.serverVersion = serverVersion
        self.write = write
    }

    /// Takes one line from the host. Requests run in their own task (answered when done, in any order);
    /// notifications take effect before this returns.
    package func receive(_ line: ArraySlice<UInt8>) {
        if line.count > Self.maxLineBytes {
            send(
                RPCMessage.errorResponse(
                    id: .null,
                    .invalidRequest(
                        "message of \(line.count) bytes; at most \(Self.maxLineBytes)",
                        data: ["limit": .number(Double(Self.maxLineBytes))])))
            return
        }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let message: JSON
        do { message = try JSON.parse(Array(line)) } catch {
            send(RPCMessage.errorResponse(id: .null, .parseError("invalid JSON: \(error)", offset: error.offset)))
            return
        }
        if case .array = message {
            send(
                RPCMessage.errorResponse(
                    id: .null, .invalidRequest("JSON-RPC batches are not part of MCP; send one message a line")))
            return
        }
        switch RPCInbound.classify(message) {
        case .invalid(let id, let error):
            send(RPCMessage.errorResponse(id: id, error))
        case .response:
            break  // this server sends no requests; stray responses are ignored
        case .notification(let method, let params):
            notification(method, params)
        case .request(let id, let method, let params):
            start(id: id, method: method, params: params, bytes: line.count)
        }
    }

    func notification(_ method: String, _ params: JSON?) {
        switch method {
        case "notifications/initialized":
            state.withLock { $0.initialized = true }
        case "notifications/cancelled":
            guard let requestID = params?["requestId"], requestID.stringValue != nil || requestID.doubleValue != nil
            else { return }
            let key = requestID.jsonString
            let task: Task<Void, Never>? = state.withLock { locked in
                if let waiting = locked.queued.removeValue(forKey: key) {
                    locked.queuedBytes -= waiting.bytes
                    Self.compactOrder(&locked)
                    return nil
                }
                guard let task = locked.running[key] else { return nil }
                locked.cancelled.insert(key)
                return task
            }
            task?.cancel()
        default:
            break  // unknown notifications are ignored (JSON-RPC 2.0)
        }
    }

    func start(id: JSON, method: String, params: JSON?, bytes: Int = 0) {
        let key = id.jsonString
        let duplicate = state.withLock { $0.running[key] != nil || $0.queued[key] != nil }
        if duplicate {
            send(RPCMessage.errorResponse(id: id, .invalidRequest("request id \(key) is already in use")))
            return
        }
        // Synchronous methods are answered at once, in order.
        switch method {
        case "initialize", "ping", "tools/list":
            send(RPCMessage.response(id: id, result: answerNow(method, params)))
            return
        case "tools/call":
            break
        default:
            send(RPCMessage.errorResponse(id: id, .methodNotFound(method)))
            return
        }
        switch Self.toolCall(params) {
        case .failure(let error):
            send(RPCMessage.errorResponse(id: id, error))
        case .success(let (name, arguments)):
            let call = Queued(id: id, name: name, arguments: arguments, bytes: bytes)
            if let refusal = admit(call, key: key) { send(RPCMessage.errorResponse(id: id, refusal)) }
        }
    }

    /// Runs `call` now, or queues it behind the running ones; the error to answer when neither fits.
    private func admit(_ call: Queued, key: String) -> RPCError? {
        state.withLock { locked -> RPCError? in
            if locked.running.count < Self.maxRunning && locked.queued.isEmpty {
                launch(call, key: key, in: &locked)
                return nil
            }
            guard locked.queued.count < Self.maxQueued, locked.queuedBytes + call.bytes <= Self.maxQueuedBytes else {
                return RPCError.make(
                    RPCError.Code.busy,
                    "\(locked.running.count) tool calls run and \(locked.queued.count) wait; retry after some are answered",
                    [
                        "running": JSON(locked.running.count), "queued": JSON(locked.queued.count),
                        "maxRunning": JSON(Self.maxRunning), "maxQueued": JSON(Self.maxQueued),
                        "maxQueuedBytes": JSON(Self.maxQueuedBytes),
                    ])
            }
            locked.queued[key] = call
            locked.order.append(key)
            locked.queuedBytes += call.bytes
            return nil
        }
    }

    /// Starts `call` in its own task (under the lock, so a cancellation that follows finds it).
    private func launch(_ call: Queued, key: String, in locked: inout State) {
        locked.burst += 1
        let task = Task {
            let result = await self.runner.run(call.name, arguments: call.arguments)
            self.finished(key: key, id: call.id, result: result)
        }
        locked.running[key] = task
    }

    /// A call ended: answered unless it was cancelled (MCP cancellation); the next waiting call starts.
    private func finished(key: String, id: JSON, result: MCPToolResult) {
        // The id is free again at once; the call counts as running until its answer is written, so the stdio loop,
        // which exits once nothing runs, never exits before the answer is out.
        let (wasCancelled, idle) = state.withLock { locked -> (Bool, Bool) in
            locked.running[key] = nil
            let wasCancelled = locked.cancelled.remove(key) != nil
            if !wasCancelled { locked.answering += 1 }
            while locked.running.count < Self.maxRunning, locked.orderHead < locked.order.count {
                let next = locked.order[locked.orderHead]
                locked.orderHead += 1
                guard let call = locked.queued.removeValue(forKey: next) else { continue }
                locked.queuedBytes -= call.bytes
                launch(call, key: next, in: &locked)
            }
            Self.compactOrder(&locked)
            let idle = locked.running.isEmpty && locked.queued.isEmpty && locked.burst >= Self.trimAfterCalls
            if locked.running.isEmpty && locked.queued.isEmpty { locked.burst = 0 }
            return (wasCancelled, idle)
        }
        if !wasCancelled {
            send(RPCMessage.response(id: id, result: .success(result.json)))
            state.withLock { $0.answering -= 1 }
        }
        if idle { HeapTrim.release() }
    }

    /// Drops the consumed or cancelled front of the waiting order (memory follows the waiting calls).
    private static func compactOrder(_ locked: inout State) {
        if locked.queued.isEmpty {
            locked.order.removeAll(keepingCapacity: locked.order.count < 1_024)
            locked.orderHead = 0
        } else if locked.orderHead > 64 && locked.orderHead * 2 > locked.order.count {
            locked.order.removeFirst(locked.orderHead)
            locked.orderHead = 0
        }
        if locked.order.count > 2 * locked.queued.count + 64 {
            locked.order = locked.order[locked.orderHead...].filter { locked.queued[$0] != nil }
            locked.orderHead = 0
        }
    }

    /// `tools/call`'s params: `{name, arguments?}`. An unknown tool is a protocol error listing the tools.
    static func toolCall(_ params: JSON?) -> Result<(String, JSONObject), RPCError> {
        guard let name = params?["name"]?.stringValue else {
            return .failure(.invalidParams("tools/call needs 'name' (a string)", data: ["param": "name"]))
        }
        guard MCPToolCatalog.tool(named: name) != nil else {
            return .failure(
                .invalidParams(
                    "unknown tool '\(name)'; tools: \(MCPToolCatalog.names.joined(separator: ", "))",
                    data: ["param": "name", "accepted": JSON(MCPToolCatalog.names)]))
        }
        let arguments = params?["arguments"] ?? .null
        switch arguments {
        case .null: return .success((name, [:]))
        case .object(let object): return .success((name, object))
        default:
            return .failure(
                .invalidParams(
                    "tools/call 'arguments' must be an object, got \(arguments.typeName)", data: ["param": "arguments"])
            )
        }
    }

    func answerNow(_ method: String, _ params: JSON?) -> Result<JSON, RPCError> {
        switch method {
        case "initialize":
            let asked = params?["protocolVersion"]?.stringValue
            let version = asked.flatMap { Self.protocolVersions.contains($0) ? $0 : nil } ?? Self.protocolVersions[0]
            return .success([
                "protocolVersion": .string(version),
                "capabilities": ["tools": ["listChanged": false]],
                "serverInfo": ["name": "axquery", "version": .string(serverVersion)],
                "instructions": .string(Self.instructions),
            ])
        case "ping":
            return .success([:])
        default:
            return .success(["tools": .array(MCPToolCatalog.tools.map(\.json))])
        }
    }

    /// What `initialize` tells the agent (kept short: it is read on every session).
    static let instructions = """
        Drives UIs mirrored by axserver. Start with snapshot or find; act with click/type_text/act by ref (stable \
        across changes). Actions wait until the target is actionable and answer only what changed.
        """

    /// Cancels every running call and drops the waiting ones (stdin closed).
    package func cancelAll() {
        let tasks = state.withLock { locked in
            defer {
                locked.cancelled.formUnion(locked.running.keys)
                locked.queued.removeAll()
                locked.queuedBytes = 0
                Self.compactOrder(&locked)
            }
            return Array(locked.running.values)
        }
        for task in tasks { task.cancel() }
    }

    /// Calls still running.
    package var runningCount: Int { state.withLock { $0.running.count + $0.answering } }
    /// Calls waiting for a place to run.
    package var queuedCount: Int { state.withLock { $0.queued.count } }

    func send(_ bytes: [UInt8]) { write(bytes) }
}
