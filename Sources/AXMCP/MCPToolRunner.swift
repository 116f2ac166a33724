import AXJSON
import AXJSONRPC
import AXProtocol
import AXTrace
import Synchronization

/// What a tool call answers: MCP content items (text, image) and whether it is a tool error.
package struct MCPToolResult: Sendable, Equatable {
    package var content: [JSON]
    package var isError: Bool
    /// The server's error code behind a tool error (for traces; not sent to the host).
    package var errorCode: Int? = nil

    /// A text result.
    package static func text(_ text: String) -> MCPToolResult {
        MCPToolResult(content: [["type": "text", "text": .string(text)]], isError: false)
    }

    /// A tool error: the message, then `hint: …` lines when there are hints.
    package static func error(_ message: String, hints: [String] = []) -> MCPToolResult {
        var text = "error: " + message
        for hint in hints where !hint.isEmpty { text += "\nhint: " + hint }
        return MCPToolResult(content: [["type": "text", "text": .string(text)]], isError: true)
    }

    /// Equal content and error flag (the error code is a note for traces).
    package static func == (left: MCPToolResult, right: MCPToolResult) -> Bool {
        left.content == right.content && left.isError == right.isError
    }

    /// The first text item (for tests and logs).
    package var text: String { content.first?["text"]?.stringValue ?? "" }

    /// The `tools/call` result object.
    package var json: JSON {
        var object: JSONObject = ["content": .array(content)]
        if isError { object["isError"] = true }
        return .object(object)
    }
}

/// A tool's own refusal of its arguments (answered as a tool error naming what is accepted).
struct ToolArgumentError: Error {
    var message: String
    var hints: [String] = []
}

/// Runs the tools of `MCPToolCatalog` against a backend: validates arguments, calls the server's methods
/// (Specs/protocol.md), and turns answers into compact text (Specs/mcp.md).
package final class MCPToolRunner: Sendable {
    /// How long an action waits for its target to become actionable (as the Python client's default).
    package static let actionWait: Duration = .seconds(5)
    /// The longest `wait_for` (MCP hosts time out long calls; an agent can call again).
    package static let maxWaitMs = 60_000
    /// The longest selector accepted (the server has its own limits; this keeps echoes in errors short).
    package static let maxSelectorLength = 8_192
    /// Element lines in an action's answer.
    package static let actionChangeLines = 8
    /// Bytes of an action's answer (about; the headline is not cut).
    package static let actionChangeBytes = 900

    let backend: any MCPBackend
    /// What each ref looked like when last shown (role, label, identifier), to name the nearest current element
    /// when a ref went stale. Bounded: cleared when it grows past `maxRemembered`.
    let remembered = Mutex<[String: (role: String, label: String?)]>([:])
    static let maxRemembered = 50_000
    /// The session's short refs (D-MCP-REF-1): what every answer names elements by, and what tools accept.
    let refs = RefTable()

    /// The app a tool call without `app` addresses (nil: the server's default, the first app).
    let defaultApp: String?

    /// Where every tool call is recorded (`axquery mcp --trace FILE`), if anywhere.
    let recorder: TraceRecorder?

    package init(backend: any MCPBackend, defaultApp: String? = nil, recorder: TraceRecorder? = nil) {
        self.backend = backend
        self.defaultApp = defaultApp
        self.recorder = recorder
    }

    /// Runs tool `name` with `arguments` (recorded as a trace step when the runner has a recorder). Never throws:
    /// server errors and bad arguments are tool errors.
    package func run(_ name: String, arguments: JSONObject) async -> MCPToolResult {
        guard let recorder else { return await runUntraced(name, arguments: arguments) }
        return await traced(name, arguments: arguments, recorder: recorder)
    }

    /// Runs tool `name` with `arguments`.
    func runUntraced(_ name: String, arguments: JSONObject) async -> MCPToolResult {
        guard let spec = MCPToolCatalog.tool(named: name) else {
            return .error(
                "unknown tool '\(name)'", hints: ["tools: " + MCPToolCatalog.names.joined(separator: ", ")])
        }
        if let invalid = Self.argumentError(name, spec: spec, arguments: arguments) { return invalid }
        let args = ToolArguments(tool: name, object: arguments, refs: refs)
        do {
            return try await dispatch(name, args)
        } catch let failure as ToolArgumentError {
            return .error(failure.message, hints: failure.hints)
        } catch let error as RPCError {
            var result = await describe(error, tool: name, args: args)
            result.errorCode = error.code
            return result
        } catch {
            return .error("\(name): \(error)")
        }
    }

    /// An unknown or missing argument as a tool error; nil when the arguments fit the tool.
    static func argumentError(_ name: String, spec: MCPToolSpec, arguments: JSONObject) -> MCPToolResult? {
        let unknown = arguments.keys.filter { !spec.argumentNames.contains($0) }
        if !unknown.isEmpty {
            return .error(
                "\(name): unknown argument\(unknown.count > 1 ? "s" : "") \(unknown.map { "'\($0)'" }.joined(separator: ", "))",
                hints: ["accepted: " + spec.argumentNames.joined(separator: ", ")])
        }
        for required in spec.required.map(\.rawValue) where arguments[required] == nil || arguments[required] == .null {
            return .error(
                "\(name): '\(required)' is required", hints: ["accepted: " + spec.argumentNames.joined(separator: ", ")]
            )
        }
        return nil
    }

    /// The tool's implementation.
    func dispatch(_ name: String, _ args: ToolArguments) async throws -> MCPToolResult {
        switch name {
        case "snapshot": return try await snapshot(args)
        case "find": return try await find(args)
        case "click": return try await act(args, verb: "click", method: .actionActivate, extra: [:])
        case "type_text": return try await typeText(args)
        case "press_key": return try await pressKey(args)
        case "act": return try await customAct(args)
        case "wait_for": return try await waitFor(args)
        case "changes": return try await changes(args)
        case "focus": return try await focus(args)
        case "audit": return try await audit(args)
        case "say": return try await say(args)
        case "picture": return try await picture(args)
        default: return .error("unknown tool '\(name)'")
        }
    }

    // MARK: - Calls

    /// Calls a catalog method (Sources/AXProtocol) with `app` (else the session's default app).
    func call<Spec>(
        _ method: RPCMethod<Spec>, _ params: RPCParams<Spec.Param>, app: String?, timeout: Duration = .seconds(30)
    ) async throws(RPCError) -> RPCReply<Spec.Member> {
        var params = params.object
        if let app = app ?? defaultApp { params[rpcAppParameter] = .string(app) }
        return RPCReply(try await backend.call(method.wireName, .object(params), timeout: timeout))
    }

    func remember(_ element: JSON) {
        guard let id = element["id"]?.stringValue else { return }
        let role = element["role"]?.stringValue ?? "element"
        let label = element["label"]?.stringValue
        remembered.withLock { memory in
            if memory.count >= Self.maxRemembered { memory.removeAll(keepingCapacity: true) }
            memory[id] = (role, label)
        }
    }

    func rememberTree(_ elements: [JSON]) {
        var stack = elements
        while let element = stack.popLast() {
            remember(element)
            if let kids = element["children"]?.arrayValue { stack.append(contentsOf: kids) }
        }
    }

    // MARK: - Reading

    func snapshot(_ args: ToolArguments) async throws -> MCPToolResult {
        let app = try args.string(.app)
        let maxNodes = try args.integer(
            .maxNodes, default: SnapshotText.defaultMaxNodes, in: 0...SnapshotText.maximumBudget)
        let maxBytes = try args.integer(
            .maxBytes, default: SnapshotText.defaultMaxBytes,
            in: SnapshotText.minimumMaxBytes...SnapshotText.maximumBudget)
        if let selector = try args.selector() {
            if try args.ref() != nil {
                throw ToolArgumentError(message: "snapshot: give ref or selector, not both")
            }
            let found = try await call(
                .queryFind, [.selector: .string(selector), .limit: .number(Double(maxNodes + 1))], app: app)
            let elements = found[.elements]?.arrayValue ?? []
            elements.forEach(remember)
            let count = found[.count]?.intValue ?? elements.count
            let header = "revision \(found[.revision]?.intValue ?? 0): \(count) match \(selector)"
            let text = SnapshotText(
                windows: elements.map { Self.withoutChildren($0) }, header: header, maxNodes: maxNodes,
                maxBytes: maxBytes, refs: refs)
            return .text(text.text)
        }
        let root: JSON? = try args.ref().map { ["id": .string($0)] }
        let tree = try await fetchTree(root: root, maxNodes: maxNodes, app: app)
        let windows = tree["windows"]?.arrayValue ?? []
        rememberTree(windows)
        let appName = tree["app"]?.stringValue ?? "?"
        let revision = tree["revision"]?.intValue ?? 0
        var knownTotal: Int?
        if root == nil, !(tree["truncated"]?.arrayValue ?? []).isEmpty {
            // The server cut the tree: the app's element count gives the whole (one cheap call).
            let apps = try await call(.appsList, [:], app: nil).json
            knownTotal = apps.arrayValue?.first { $0["id"]?.stringValue == appName }?["elements"]?.intValue
        }
        let header = "app \(appName) revision \(revision)"
        let text = SnapshotText(
            windows: windows, header: header, maxNodes: maxNodes, maxBytes: maxBytes, knownTotal: knownTotal,
            refs: refs)
        return .text(text.text)
    }

    /// The tree down to the depth a budget of `maxNodes` can show: fetched 3 levels deep first, twice as deep
    /// again while nothing was cut by the budget yet, so a snapshot of a huge tree never serialises all of it
    /// (breadth-first, the first `maxNodes` elements lie within the levels fetched once they hold more than that).
    func fetchTree(root: JSON?, maxNodes: Int, app: String?) async throws(RPCError) -> JSON {
        var params: RPCParams<RPCCatalog.TreeGet.Param> = [.format: "json"]
        if let root { params[.root] = root }
        if maxNodes >= Self.fullTreeNodes { return try await call(.treeGet, params, app: app).json }
        params[.maxChildren] = .number(Double(maxNodes + 1))
        var depth = 3
        while true {
            params[.depth] = .number(Double(depth))
            let tree = try await call(.treeGet, params, app: app)
            let cut = (tree[.truncated]?.arrayValue ?? []).contains { $0["kind"]?.stringValue == "depth" }
            if !cut || (tree[.count]?.intValue ?? 0) > maxNodes || depth >= 1 << 16 { return tree.json }
            depth *= 2
        }
    }

    /// From this budget on, the snapshot asks for the whole tree at once.
    static let fullTreeNodes = 100_000

    static func withoutChildren(_ element: JSON) -> JSON {
        guard var object = element.objectValue else { return element }
        object["children"] = nil
        return .object(object)
    }

    func find(_ args: ToolArguments) async throws -> MCPToolResult {
        let app = try args.string(.app)
        guard let selector = try args.selector() else {
            throw ToolArgumentError(message: "find: 'selector' is required")
        }
        let found = try await call(.queryFind, [.selector: .string(selector), .limit: 51], app: app)
        let elements = found[.elements]?.arrayValue ?? []
        let count = found[.count]?.intValue ?? elements.count
        if elements.isEmpty {
            let explain = try await call(.queryExplain, [.selector: .string(selector)], app: app)
            var text = "0 match \(found[.selector]?.stringValue ?? selector)"
            if let summary = explain[.summary]?.stringValue { text += "\nclosest: " + summary }
            for line in Self.nearMissLines(explain.json, refs: refs).prefix(5) { text += "\n" + line }
            return .text(text)
        }
        elements.forEach(remember)
        var text = "\(count) match (revision \(found[.revision]?.intValue ?? 0))"
        for element in elements.prefix(50) { text += "\n" + line(element) }
        if count > 50 { text += "\n… \(count - 50) more: narrow the selector" }
        return .text(text)
    }

    /// `query.explain`'s near misses as lines: what to change, how many it would match, their refs.
    static func nearMissLines(_ explain: JSON, refs: RefTable?) -> [String] {
        var lines: [String] = []
        for chain in explain["chains"]?.arrayValue ?? [] {
            for step in chain["steps"]?.arrayValue ?? [] {
                for miss in step["nearMisses"]?.arrayValue ?? [] {
                    var line = "  " + (miss["change"]?.stringValue ?? miss["description"]?.stringValue ?? "")
                    if let count = miss["count"]?.intValue { line += " → \(count)" }
                    let ids = (miss["ids"]?.arrayValue ?? []).compactMap(\.stringValue).prefix(5).map {
                        refs?.ref(for: $0, role: nil).ref ?? $0
                    }
                    if !ids.isEmpty { line += " (ref " + ids.joined(separator: ", ") + ")" }
                    lines.append(line)
                }
            }
        }
        return lines
    }

    func changes(_ args: ToolArguments) async throws -> MCPToolResult {
        let app = try args.string(.app)
        let since = try args.integer(.since, default: 0, in: 0...9_007_199_254_740_991)
        let diff = try await call(.treeDiff, [.fromRevision: .number(Double(since))], app: app)
        let to = diff[.toRevision]?.intValue ?? since
        return .text(
            await changeText(
                diff.json, headline: "revision \(since)→\(to)", since: since, app: app, maxLines: 60, maxBytes: 12_000))
    }

    /// The change set as text, with the current line of each changed element (looked up for the first few);
    /// `headline` is made after the lookups (the refs they mint are then known).
    func changeText(
        _ changes: JSON, headline: @autoclosure () -> String, since: Int?, app: String?, maxLines: Int, maxBytes: Int
    ) async -> String {
        var entries = ChangeText.entries(of: changes)
        for index in entries.indices.prefix(maxLines) where entries[index].mark != "-" {
            if let element = try? await call(.elementGet, [.target: ["id": .string(entries[index].id)]], app: app) {
                remember(element.json)
                entries[index].line = line(element.json)
            }
        }
        for index in entries.indices { entries[index].id = refs.existingRef(for: entries[index].id) }
        return ChangeText.text(
            headline: headline(), entries: entries, windowsChanged: changes["windowsChanged"]?.boolValue ?? false,
            since: since, maxLines: maxLines, maxBytes: maxBytes)
    }

    func waitFor(_ args: ToolArguments) async throws -> MCPToolResult {
        let app = try args.string(.app)
        let target = try args.requiredTarget()
        let state = try args.string(.state) ?? RPCCatalog.WaitFor.State.attached.rawValue
        let timeoutMs = try args.integer(.timeoutMs, default: 5_000, in: 0...Self.maxWaitMs)
        var params: RPCParams<RPCCatalog.WaitFor.Param> = [
            .target: target, .state: .string(state), .timeoutMs: .number(Double(timeoutMs)),
        ]
        if let value = try args.string(.value) { params[.value] = .string(value) }
        let result = try await call(.waitFor, params, app: app, timeout: .milliseconds(timeoutMs) + .seconds(10))
        var text =
            "\(state): yes after \(result[.waitedMs]?.intValue ?? 0) ms (revision \(result[.revision]?.intValue ?? 0))"
        if let element = result[.element], element.objectValue != nil {
            remember(element)
            text += "\n" + line(element)
        }
        return .text(text)
    }

    func focus(_ args: ToolArguments) async throws -> MCPToolResult {
        let app = try args.string(.app)
        let op = try args.string(.op) ?? "get"
        switch op {
        case "get":
            let result = try await call(.focusGet, [:], app: app)
            var focused = result[.element] ?? .null
            if let id = focused.stringValue {
                focused = try await call(.elementGet, [.target: ["id": .string(id)]], app: app).json
            }
            guard let element = Optional(focused), element.objectValue != nil else { return .text("focus: none") }
            remember(element)
            return .text("focus: " + line(element))
        case "move", "query":
            return try await focusMove(args, op: op, app: app)
        case "explain":
            let target = try args.requiredTarget()
            let result = try await call(.focusExplain, [.target: target], app: app)
            let shown = result[.target]?.stringValue.map { refs.existingRef(for: $0) } ?? "?"
            var text = "\(shown): focusable \(result[.focusable]?.boolValue ?? false)"
            text += ", focused \(result[.focused]?.boolValue ?? false)"
            for check in result[.checks]?.arrayValue ?? [] {
                let passed = check["passed"]?.boolValue ?? false
                text += "\n \(passed ? "ok" : "FAIL") \(check["check"]?.stringValue ?? "")"
                if !passed, let message = check["message"]?.stringValue { text += ": " + message }
            }
            return .text(text)
        default:
            throw ToolArgumentError(message: "focus: unknown op '\(op)'", hints: ["op: get, move, query, explain"])
        }
    }

    /// `focus` with op move or query: where focus moves (or would move) in a direction.
    func focusMove(_ args: ToolArguments, op: String, app: String?) async throws -> MCPToolResult {
        guard let direction = try args.string(.direction) else {
            throw ToolArgumentError(
                message: "focus \(op): 'direction' is required",
                hints: ["direction: up, down, left, right, next, previous"])
        }
        let result: JSON
        if op == "move" {
            result = try await call(.focusMove, [.direction: .string(direction)], app: app).json
        } else {
            var params: RPCParams<RPCCatalog.FocusQuery.Param> = [.direction: .string(direction)]
            if let from = try args.target(required: false) { params[.from] = from }
            result = try await call(.focusQuery, params, app: app).json
        }
        // The element's line first: its ref is minted with its role.
        var elementLine = ""
        if let element = result["element"], element.objectValue != nil {
            remember(element)
            elementLine = "\n" + line(element)
        }
        let from = result["from"]?.stringValue.map { refs.ref(for: $0, role: nil).ref } ?? "none"
        guard let to = result["to"]?.stringValue.map({ refs.ref(for: $0, role: nil).ref }) else {
            let failure = result["failure"]?.stringValue ?? "noCandidate"
            return .text("focus \(op) \(direction): no move (\(failure)) \(result["message"]?.stringValue ?? "")")
        }
        return .text("focus \(op == "move" ? "moved" : "would move") \(direction): \(from) → \(to)" + elementLine)
    }

    func audit(_ args: ToolArguments) async throws -> MCPToolResult {
        let app = try args.string(.app)
        var params: RPCParams<RPCCatalog.AuditRun.Param> = [.maxFindings: 40]
        if let ref = try args.ref() { params[.root] = ["id": .string(ref)] }
        let result = try await call(.auditRun, params, app: app)
        let findings = result[.findings]?.arrayValue ?? []
        var text = "audit (revision \(result[.revision]?.intValue ?? 0)): errors \(result[.errors]?.intValue ?? 0), "
        text += "warnings \(result[.warnings]?.intValue ?? 0)"
        for finding in findings {
            let element = finding["element"]?.stringValue.map { refs.ref(for: $0, role: nil).ref } ?? "?"
            var line = "\n\(element) \(finding["check"]?.stringValue ?? "")"
            line += " (\(finding["severity"]?.stringValue ?? "")): \(finding["reason"]?.stringValue ?? "")"
            if let fix = finding["fix"]?.stringValue, !fix.isEmpty { line += " Fix: " + fix }
            if text.utf8.count + line.utf8.count > 12_000 {
                text += "\n… more findings: audit ref=<subtree>"
                break
            }
            text += line
        }
        if let omitted = result[.truncated]?["omitted"]?.intValue { text += "\n… \(omitted) more findings" }
        return .text(text)
    }

    func say(_ args: ToolArguments) async throws -> MCPToolResult {
        let app = try args.string(.app)
        let target = try args.requiredTarget()
        let result = try await call(.speechDescribe, [.target: target], app: app)
        var text = result[.element]?.stringValue.map { refs.existingRef(for: $0) } ?? "?"
        if let voiceOver = result[.voiceOver]?["text"]?.stringValue { text += "\nVoiceOver: " + voiceOver }
        if let hint = result[.voiceOver]?["hint"]?.stringValue, !hint.isEmpty { text += " … " + hint }
        if let lines = result[.orca]?["utterances"]?.arrayValue {
            text += "\nOrca: " + lines.compactMap(\.stringValue).joined(separator: " | ")
        }
        return .text(text)
    }

    func picture(_ args: ToolArguments) async throws -> MCPToolResult {
        let app = try args.string(.app)
        var params: RPCParams<RPCCatalog.TreeRender.Param> = [.format: "png", .maxNodes: 2_000]
        if let ref = try args.ref() { params[.root] = ["id": .string(ref)] }
        let result = try await call(.treeRender, params, app: app)
        guard let data = result[.data]?.stringValue else {
            return .error("picture: the server sent no PNG data")
        }
        var caption = "\(result[.width]?.intValue ?? 0)×\(result[.height]?.intValue ?? 0) px, "
        caption += "\(result[.drawn]?.intValue ?? 0) elements drawn (revision \(result[.revision]?.intValue ?? 0))"
        if let omitted = result[.truncated]?["omitted"]?.intValue { caption += ", \(omitted) left out: use ref" }
        return MCPToolResult(
            content: [
                ["type": "image", "data": .string(data), "mimeType": "image/png"],
                ["type": "text", "text": .string(caption)],
            ], isError: false)
    }

    // MARK: - Acting

    func typeText(_ args: ToolArguments) async throws -> MCPToolResult {
        let text = try args.string(.text) ?? ""
        if try args.target(required: false) == nil {
            let app = try args.string(.app)
            let before = try await call(.treeRevision, [:], app: app)[.revision]?.intValue ?? 0
            let result = try await call(.inputType, [.text: .string(text)], app: app)
            return try await answer(
                verb: "type_text", element: result[.element]?.stringValue, performed: true, before: before,
                after: nil, app: app)
        }
        return try await act(args, verb: "type_text", method: .actionTypeText, extra: [.text: .string(text)])
    }

    func pressKey(_ args: ToolArguments) async throws -> MCPToolResult {
        let app = try args.string(.app)
        guard let key = try args.string(.key) else { throw ToolArgumentError(message: "press_key: 'key' is required") }
        var params: RPCParams<RPCCatalog.InputKey.Param> = [.key: .string(key)]
        if let modifiers = try args.strings(.modifiers) { params[.modifiers] = JSON(modifiers) }
        let before = try await call(.treeRevision, [:], app: app)[.revision]?.intValue ?? 0
        let result = try await call(.inputKey, params, app: app)
        let handledBy = result[.handledBy]?.stringValue ?? "none"
        var text = try await answer(
            verb: "press_key \(key)", element: nil, performed: handledBy != "none", before: before, after: nil,
            app: app
        ).text
        let focused = result[.focus]?.stringValue.map { refs.ref(for: $0, role: nil).ref } ?? "none"
        text += "\nhandled by \(handledBy); focus \(focused)"
        return .text(text)
    }

    func customAct(_ args: ToolArguments) async throws -> MCPToolResult {
        guard let action = try args.string(.action) else {
            throw ToolArgumentError(message: "act: 'action' is required")
        }
        switch action {
        case "increment":
            return try await act(args, verb: action, method: .actionIncrement, extra: [:], targetOptional: true)
        case "decrement":
            return try await act(args, verb: action, method: .actionDecrement, extra: [:], targetOptional: true)
        case "escape":
            return try await act(args, verb: action, method: .actionEscape, extra: [:], targetOptional: true)
        case "magicTap":
            return try await act(args, verb: action, method: .actionMagicTap, extra: [:], targetOptional: true)
        case "scroll":
            let direction = try args.string(.direction) ?? "down"
            return try await act(args, verb: "scroll", method: .actionScroll, extra: [.direction: .string(direction)])
        case "activate", "click":
            return try await act(args, verb: "click", method: .actionActivate, extra: [:])
        case "zoomIn", "zoomOut":
            // D-ZOOM-1: at the element's centre (the app gets it in the element's own coordinate space).
            if action == "zoomIn" {
                return try await act(args, verb: action, method: .actionZoomIn, extra: [:])
            }
            return try await act(args, verb: action, method: .actionZoomOut, extra: [:])
        case "drag", "drop":
            // D-DRAG-1: the descriptor named by `name`.
            guard let name = try args.string(.name) else {
                throw ToolArgumentError(message: "act: '\(action)' needs 'name' (a drag source or drop point)")
            }
            if action == "drag" {
                return try await act(args, verb: action, method: .actionDrag, extra: [.name: .string(name)])
            }
            return try await act(args, verb: action, method: .actionDrop, extra: [.name: .string(name)])
        default:
            return try await act(args, verb: action, method: .actionCustom, extra: [.name: .string(action)])
        }
    }

    /// Acts on the target like the Python client's locators: when it is not attached, visible, enabled (or, for
    /// activate, hittable) it waits server-side for that state and tries again, within `actionWait`. Then answers
    /// what changed between the revisions before and after the action.
    func act<Spec>(
        _ args: ToolArguments, verb: String, method: RPCMethod<Spec>, extra: RPCParams<Spec.Param>,
        targetOptional: Bool = false
    ) async throws -> MCPToolResult where Spec.Param: RPCTargetParameterKey {
        let app = try args.string(.app)
        let target = try args.target(required: !targetOptional)
        var typed = extra
        if let target { typed[.target] = target }
        var params = typed.object
        if let app = app ?? defaultApp { params[rpcAppParameter] = .string(app) }
        let clock = ContinuousClock()
        let deadline = clock.now + Self.actionWait
        var previousState: RPCCatalog.WaitFor.State?
        var result: JSON
        while true {
            do {
                result = try await backend.call(method.wireName, .object(params), timeout: .seconds(30))
                break
            } catch {
                guard let target, let state = Self.stateToWaitFor(error, target: target), state != previousState,
                    clock.now < deadline
                else { throw error }
                previousState = state
                let remaining = deadline - clock.now
                let ms = max(
                    0,
                    Int(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
                do {
                    _ = try await call(
                        .waitFor, [.target: target, .state: .string(state.rawValue), .timeoutMs: .number(Double(ms))],
                        app: app, timeout: remaining + .seconds(5))
                } catch let waitError {
                    if waitError.code == RPCError.Code.timeout { throw error }
                    throw waitError
                }
            }
        }
        return try await answer(
            verb: verb, element: result["element"]?.stringValue, performed: result["performed"]?.boolValue ?? true,
            before: result["revisionBefore"]?.intValue ?? 0, after: result["revisionAfter"]?.intValue, app: app)
    }

    /// The state to wait for before trying an action again, or nil when waiting cannot help.
    static func stateToWaitFor(_ error: RPCError, target: JSON) -> RPCCatalog.WaitFor.State? {
        switch error.code {
        case RPCError.Code.noSuchElement:
            // A ref that is not in the tree will not come back by waiting (stale or unknown): only selectors wait.
            if error.data?["reason"]?.stringValue == "hidden" { return .visible }
            return target["selector"] != nil ? .attached : nil
        case RPCError.Code.notInteractable:
            switch error.data?["reason"]?.stringValue {
            case "offscreen", "hidden": return .visible
            case "disabled": return .enabled
            case "not hittable": return .hittable
            default: return nil
            }
        default:
            return nil
        }
    }

    /// An action's answer: one headline and the bounded change set since `before`.
    func answer(verb: String, element: String?, performed: Bool, before: Int, after: Int?, app: String?)
        async throws -> MCPToolResult
    {
        let diff = try await call(.treeDiff, [.fromRevision: .number(Double(before))], app: app)
        let to = diff[.toRevision]?.intValue ?? after ?? before
        // The headline is made after the changed elements' lines: the target's ref is then minted with its role.
        let headline = {
            verb + (element.map { " " + self.refs.existingRef(for: $0) } ?? "")
                + (performed ? ": done" : ": not handled by the app") + ", revision \(before)→\(to)"
        }
        return .text(
            await changeText(
                diff.json, headline: headline(), since: before, app: app, maxLines: Self.actionChangeLines,
                maxBytes: Self.actionChangeBytes))
    }

    // MARK: - Errors

    /// A server error as a tool error: the server's message and what to do about it.
    func describe(_ error: RPCError, tool: String, args: ToolArguments) async -> MCPToolResult {
        let kind = error.kind ?? RPCError.kind(forCode: error.code) ?? "error"
        var hints: [String] = []
        let data = error.data
        let ref = args.object[MCPToolArgument.ref.rawValue]?.stringValue
        if let ref,
            error.code == RPCError.Code.staleElement
                || (error.code == RPCError.Code.noSuchElement && data?["id"] != nil && data?["reason"] == nil)
        {
            return await staleRef(ref, error: error, app: args.object[MCPToolArgument.app.rawValue]?.stringValue)
        }
        if let hint = data?["hint"]?.stringValue { hints.append(hint) }
        hints += Self.hints(forCode: error.code, data: data, refs: refs)
        return .error("\(tool): \(error.message) (\(error.code) \(kind))", hints: hints)
    }

    /// What to do about an error, from its code and data.
    static func hints(forCode code: Int, data: JSON?, refs: RefTable? = nil) -> [String] {
        switch code {
        case RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.notInteractable,
            RPCError.Code.timeout:
            return elementHints(forCode: code, data: data, refs: refs)
        default:
            return requestHints(forCode: code, data: data)
        }
    }

    /// Hints for errors about finding or reaching an element.
    static func elementHints(forCode code: Int, data: JSON?, refs: RefTable?) -> [String] {
        var hints: [String] = []
        switch code {
        case RPCError.Code.noSuchElement:
            if let summary = data?["explain"]?["summary"]?.stringValue { hints.append("closest: " + summary) }
            if let reason = data?["reason"]?.stringValue { hints.append("reason: " + reason) }
        case RPCError.Code.ambiguousMatch:
            let candidates = (data?["candidates"]?.arrayValue ?? []).prefix(5).map {
                ElementLine.line($0, parentStates: nil, refs: refs)
            }
            if !candidates.isEmpty { hints.append("candidates: " + candidates.joined(separator: "; ")) }
            hints.append("use a ref, or narrow the selector")
        case RPCError.Code.notInteractable:
            var reason = data?["reason"]?.stringValue ?? ""
            if let obscuredBy = data?["obscuredBy"]?.stringValue { reason += " (covered by \(obscuredBy))" }
            hints.append("reason: \(reason); waited \(Int(Self.actionWait.components.seconds)) s")
        case RPCError.Code.timeout:
            if let last = data?["lastState"], last.objectValue != nil {
                hints.append("last seen: " + ElementLine.line(last, parentStates: nil, refs: refs))
            } else {
                hints.append("last seen: not in the tree")
            }
        default:
            break
        }
        return hints
    }

    /// Hints for errors about the request: policy, unsupported actions, arguments, the app's connection.
    static func requestHints(forCode code: Int, data: JSON?) -> [String] {
        var hints: [String] = []
        switch code {
        case RPCError.Code.policyDenied:
            if let restriction = data?["restriction"]?.stringValue {
                hints.append("guided access denies '\(restriction)'; an operator can allow it (policy.set)")
            }
        case RPCError.Code.actionNotSupported:
            let supported = (data?["supported"]?.arrayValue ?? []).compactMap(\.stringValue)
            hints.append("supported: " + supported.joined(separator: ", "))
        case RPCError.Code.invalidParams, RPCError.Code.invalidSelector:
            if let accepted = data?["accepted"]?.arrayValue {
                hints.append("accepted: " + accepted.compactMap(\.stringValue).joined(separator: ", "))
            }
            if let expected = data?["expected"]?.stringValue { hints.append("expected " + expected) }
        case RPCError.Code.appNotResponding:
            if data?["reason"]?.stringValue == "disconnected", data?["hint"] == nil {
                hints.append("the app or the server went away; the next call reconnects")
            }
        default:
            break
        }
        return hints
    }

    /// A ref that is no longer in the tree: what happened to it, and the element that now looks most like it.
    func staleRef(_ ref: String, error: RPCError, app: String?) async -> MCPToolResult {
        var message = "ref '\(ref)' is stale: "
        if let removedAt = error.data?["removedAtRevision"]?.intValue {
            message += "it left the tree at revision \(removedAt)"
        } else if !refs.isSessionRef(ref) {
            message = "ref '\(ref)' is unknown: this session gave no such ref and no element has that id"
        } else {
            message += "no element '\(ref)' is in the tree (\(error.message))"
        }
        var hints: [String] = []
        let seen = remembered.withLock { $0[refs.id(for: ref)] }
        var found = false
        if let seen {
            var selector = seen.role
            if let label = seen.label, !label.isEmpty { selector += "[label=\"\(Self.escape(label))\"]" }
            if let result = try? await call(.queryFind, [.selector: .string(selector), .limit: 3], app: app),
                let first = result[.elements]?.arrayValue?.first
            {
                remember(first)
                hints.append("nearest current element: " + line(first))
                found = true
            } else {
                hints.append("it was: \(seen.role) \"\(seen.label ?? "")\"; nothing like it is in the tree now")
            }
        }
        if !found, let removedAt = error.data?["removedAtRevision"]?.intValue, removedAt > 0 {
            // Not seen in this session (or nothing like it): what entered the tree when it left — an app that
            // rebuilds a view gives the new one a new id in the same update.
            let lines = await addedLines(at: removedAt, app: app)
            if !lines.isEmpty { hints.append("added when it left: " + lines.joined(separator: "; ")) }
        }
        hints.append("take a new snapshot or find")
        return .error(message, hints: hints)
    }

    /// The lines of (up to 3) elements added at `revision` that are still in the tree.
    func addedLines(at revision: Int, app: String?) async -> [String] {
        let range: RPCParams<RPCCatalog.TreeDiff.Param> = [
            .fromRevision: .number(Double(revision - 1)), .toRevision: .number(Double(revision)),
        ]
        guard let diff = try? await call(.treeDiff, range, app: app) else { return [] }
        var lines: [String] = []
        for id in (diff[.added]?.arrayValue ?? []).compactMap(\.stringValue).prefix(3) {
            if let element = try? await call(.elementGet, [.target: ["id": .string(id)]], app: app) {
                remember(element.json)
                lines.append(line(element.json))
            }
        }
        return lines
    }

    /// The element's line with the session's ref (`ElementLine.line`).
    func line(_ element: JSON) -> String {
        ElementLine.line(element, parentStates: nil, refs: refs)
    }

    /// `text` escaped for a double-quoted selector string.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out
    }
}

/// A tool's arguments with typed accessors whose errors say what was expected.
struct ToolArguments: Sendable {
    var tool: String
    var object: JSONObject
    /// The session's refs, which `ref` names elements by (a ref not among them is passed on as a server id).
    var refs: RefTable?

    /// The server id `ref` names (the session's short ref resolved, else the text as a server id).
    func ref() throws(ToolArgumentError) -> String? {
        guard let ref = try string(.ref) else { return nil }
        guard ref.utf8.count <= MCPToolRunner.maxSelectorLength else {
            throw ToolArgumentError(
                message: "\(tool): the ref is \(ref.utf8.count) bytes; refs are short (b1, s2f)",
                hints: ["take a snapshot or find for current refs"])
        }
        return refs?.id(for: ref) ?? ref
    }

    func string(_ argument: MCPToolArgument) throws(ToolArgumentError) -> String? {
        let name = argument.rawValue
        guard let value = object[name], value != .null else { return nil }
        guard let text = value.stringValue else {
            throw ToolArgumentError(message: "\(tool): '\(name)' must be a string, got \(value.typeName)")
        }
        return text
    }

    func strings(_ argument: MCPToolArgument) throws(ToolArgumentError) -> [String]? {
        let name = argument.rawValue
        guard let value = object[name], value != .null else { return nil }
        guard let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }), items.count <= 16 else {
            throw ToolArgumentError(message: "\(tool): '\(name)' must be an array of at most 16 strings")
        }
        return items.compactMap(\.stringValue)
    }

    func integer(_ argument: MCPToolArgument, default fallback: Int, in range: ClosedRange<Int>)
        throws(ToolArgumentError)
        -> Int
    {
        let name = argument.rawValue
        guard let value = object[name], value != .null else { return fallback }
        guard let number = value.doubleValue, number.rounded() == number, number >= Double(range.lowerBound),
            number <= Double(range.upperBound)
        else {
            throw ToolArgumentError(
                message:
                    "\(tool): '\(name)' must be an integer in \(range.lowerBound)…\(range.upperBound), got \(value.jsonString.prefix(40))"
            )
        }
        return Int(number)
    }

    func selector() throws(ToolArgumentError) -> String? {
        guard let selector = try string(.selector) else { return nil }
        if selector.utf8.count > MCPToolRunner.maxSelectorLength {
            throw ToolArgumentError(
                message:
                    "\(tool): the selector is \(selector.utf8.count) bytes; at most \(MCPToolRunner.maxSelectorLength)")
        }
        return selector
    }

    /// `{"id": ref}` or `{"selector": s}`; exactly one of `ref` and `selector` when `required`.
    /// `target(required: true)`, which never answers nil.
    func requiredTarget() throws(ToolArgumentError) -> JSON {
        guard let target = try target(required: true) else {
            throw ToolArgumentError(message: "\(tool): 'ref' or 'selector' is required")
        }
        return target
    }

    func target(required: Bool) throws(ToolArgumentError) -> JSON? {
        let ref = try ref()
        let selector = try selector()
        switch (ref, selector) {
        case (let ref?, nil): return ["id": .string(ref)]
        case (nil, let selector?): return ["selector": .string(selector)]
        case (.some, .some): throw ToolArgumentError(message: "\(tool): give ref or selector, not both")
        case (nil, nil):
            if required {
                throw ToolArgumentError(
                    message: "\(tool): 'ref' or 'selector' is required",
                    hints: ["ref: from snapshot or find; selector: Specs/selectors.md, e.g. button[label=\"OK\"]"])
            }
            return nil
        }
    }
}
