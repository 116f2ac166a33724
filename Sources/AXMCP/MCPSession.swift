import AXJSON
import AXJSONRPC
import Synchronization

/// The MCP side of `axquery mcp` (Specs/mcp.md): JSON-RPC 2.0 messages from the host, one per line, answered
/// through `write`. Implements `initialize`, `ping`, `tools/list`, `tools/call` and the notifications
/// `notifications/initialized` and `notifications/cancelled` (a cancelled call is not answered, and its server call
/// is cancelled too). Framing-free and I/O-free: the stdio loop (`MCPStdio`) and the unit tests feed it lines.
package final class MCPSession: Sendable {
    /// Protocol revisions this server speaks, newest first; `initialize` echoes the host's when listed.
    package static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The longest line accepted (larger ones are answered −32600 and dropped).
    package static let maxLineBytes = 4 << 20

    let runner: MCPToolRunner
    let serverVersion: String
    let write: @Sendable ([UInt8]) -> Void
    private struct State {
        var running: [String: Task<Void, Never>] = [:]
        var cancelled: Set<String> = []
        var initialized = false
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
            start(id: id, method: method, params: params)
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
                guard let task = locked.running[key] else { return nil }
                locked.cancelled.insert(key)
                return task
            }
            task?.cancel()
        default:
            break  // unknown notifications are ignored (JSON-RPC 2.0)
        }
    }

    func start(id: JSON, method: String, params: JSON?) {
        let key = id.jsonString
        let duplicate = state.withLock { $0.running[key] != nil }
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
        let name: String
        let arguments: JSONObject
        switch Self.toolCall(params) {
        case .failure(let error):
            send(RPCMessage.errorResponse(id: id, error))
            return
        case .success(let call):
            (name, arguments) = call
        }
        // Registered before the task starts, so a cancellation that follows finds it.
        state.withLock { locked in
            let task = Task {
                let result = await self.runner.run(name, arguments: arguments)
                let wasCancelled = self.state.withLock { locked -> Bool in
                    locked.running[key] = nil
                    return locked.cancelled.remove(key) != nil
                }
                // A cancelled request is not answered (MCP cancellation).
                if !wasCancelled { self.send(RPCMessage.response(id: id, result: .success(result.json))) }
            }
            locked.running[key] = task
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

    /// Cancels every running call (stdin closed).
    package func cancelAll() {
        let tasks = state.withLock { locked in
            defer {
                locked.cancelled.formUnion(locked.running.keys)
            }
            return Array(locked.running.values)
        }
        for task in tasks { task.cancel() }
    }

    /// Calls still running.
    package var runningCount: Int { state.withLock { $0.running.count } }

    func send(_ bytes: [UInt8]) { write(bytes) }
}
