import AXJSON
import AXProtocol

/// The names of the tools' arguments, declared once: the tool tables below and the runner's reads
/// (`ToolArguments`) both name them by case, so an argument the runner reads is one a table can show.
package enum MCPToolArgument: String, Sendable, CaseIterable {
    case app, ref, selector, maxNodes, maxBytes, text, key, modifiers, action, direction, name, state, value
    case timeoutMs, since, op
}

/// One MCP tool as `tools/list` shows it: a name, a short description, the JSON Schema of its arguments and its
/// annotations. Descriptions are kept short on purpose: every byte of them is read by the agent on every session.
package struct MCPToolSpec: Sendable {
    package enum Kind: Sendable {
        /// Reads only (`readOnlyHint: true`).
        case read
        /// Changes the app (`destructiveHint: true`): activations, typing, keys.
        case act
        /// Changes focus only (neither read-only nor destructive).
        case focus
    }

    package var name: String
    package var description: String
    /// Argument → `(JSON Schema type, description)`, in the order shown.
    package var arguments: [(name: MCPToolArgument, type: String, description: String)]
    package var required: [MCPToolArgument]
    package var kind: Kind

    /// The accepted argument names (for "unknown argument" errors).
    package var argumentNames: [String] { arguments.map(\.name.rawValue) }

    /// The tool object of `tools/list`.
    package var json: JSON {
        var properties = JSONObject()
        for argument in arguments {
            var property: JSONObject = ["type": .string(argument.type)]
            if argument.type == "array" { property["items"] = ["type": "string"] }
            if !argument.description.isEmpty { property["description"] = .string(argument.description) }
            properties[argument.name.rawValue] = .object(property)
        }
        var schema: JSONObject = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = JSON(required.map(\.rawValue)) }
        schema["additionalProperties"] = false
        let annotations: JSONObject
        switch kind {
        case .read: annotations = ["readOnlyHint": true]
        case .act: annotations = ["destructiveHint": true]
        case .focus: annotations = ["destructiveHint": false]
        }
        return [
            "name": .string(name), "description": .string(description), "inputSchema": .object(schema),
            "annotations": .object(annotations),
        ]
    }
}

/// The tools `axquery mcp` offers (Specs/mcp.md). Every tool that takes a target takes `ref` (the session's ref from
/// a snapshot or find, stable across revisions, or a server id: `RefTable`) or `selector` (Specs/selectors.md).
package enum MCPToolCatalog {
    static let app = (name: MCPToolArgument.app, type: "string", description: "")
    static let ref = (name: MCPToolArgument.ref, type: "string", description: "element ref")
    static let selector = (name: MCPToolArgument.selector, type: "string", description: "")

    /// Every tool, in the order `tools/list` gives them.
    package static let tools: [MCPToolSpec] = [
        MCPToolSpec(
            name: "snapshot",
            description:
                "The UI tree as text, a line per element: ref [role] label =value [states]; ref letter = role (b button s switch a adjustable t textField l link c cell n tab). Budgeted.",
            arguments: [
                app, (name: .ref, type: "string", description: "subtree root"),
                (name: .selector, type: "string", description: "only matching elements"),
                (name: .maxNodes, type: "integer", description: "default 300"),
                (name: .maxBytes, type: "integer", description: "default 16000"),
            ], required: [], kind: .read),
        MCPToolSpec(
            name: "find",
            description:
                "Elements matching a selector (e.g. switch[label=\"Wi-Fi\"], #id), with refs. No match: the closest candidates.",
            arguments: [selector, app], required: [.selector], kind: .read),
        MCPToolSpec(
            name: "click", description: "Activate an element (waits until actionable). Returns what changed.",
            arguments: [ref, selector, app], required: [], kind: .act),
        MCPToolSpec(
            name: "type_text", description: "Type text into an element (waits until actionable). Returns what changed.",
            arguments: [ref, selector, (name: .text, type: "string", description: ""), app], required: [.text],
            kind: .act),
        MCPToolSpec(
            name: "press_key",
            description: "Press a key (X keysym: Tab, Return, Escape, Down, a…). Returns what changed.",
            arguments: [
                (name: .key, type: "string", description: ""),
                (name: .modifiers, type: "array", description: "shift, control, alt, super"), app,
            ], required: [.key], kind: .act),
        MCPToolSpec(
            name: "act",
            description:
                "Perform increment, decrement, scroll, escape, magicTap, zoomIn, zoomOut, drag, drop or a custom action by name. Returns what changed.",
            arguments: [
                ref, selector, (name: .action, type: "string", description: ""),
                (name: .direction, type: "string", description: "scroll: up down left right next previous"),
                (name: .name, type: "string", description: "drag/drop: the drag source or drop point name"), app,
            ], required: [.action], kind: .act),
        MCPToolSpec(
            name: "wait_for",
            description:
                "Wait (woken by changes, not polling) until an element is \(waitStates(comparing: false)), or its \(waitStates(comparing: true)) equals value.",
            arguments: [
                ref, selector, (name: .state, type: "string", description: ""),
                (name: .value, type: "string", description: ""),
                (name: .timeoutMs, type: "integer", description: "default 5000, max 60000"), app,
            ], required: [.state], kind: .read),
        MCPToolSpec(
            name: "changes", description: "What changed since a revision (from a previous answer).",
            arguments: [(name: .since, type: "integer", description: "revision"), app], required: [.since],
            kind: .read),
        MCPToolSpec(
            name: "focus",
            description:
                "Keyboard focus: get; move or query (where it would go) with direction; explain why ref can or cannot take focus.",
            arguments: [
                (name: .op, type: "string", description: "get move query explain"),
                (name: .direction, type: "string", description: "up down left right next previous"), ref, selector,
                app,
            ], required: [.op], kind: .focus),
        MCPToolSpec(
            name: "audit", description: "Accessibility audit findings (element ref, check, reason, fix).",
            arguments: [app, (name: .ref, type: "string", description: "subtree root")], required: [], kind: .read),
        MCPToolSpec(
            name: "say", description: "What VoiceOver and Orca say for an element.",
            arguments: [ref, selector, app], required: [], kind: .read),
        MCPToolSpec(
            name: "picture", description: "A PNG wireframe of the windows (or of ref's subtree).",
            arguments: [app, (name: .ref, type: "string", description: "subtree root")], required: [], kind: .read),
    ]

    /// `wait.for`'s states as the catalog declares them, `|`-separated: those that compare with `value`, or the rest.
    static func waitStates(comparing: Bool) -> String {
        RPCCatalog.WaitFor.State.allCases.filter { $0.comparesValue == comparing }.map(\.rawValue).joined(
            separator: "|")
    }

    /// The tool named `name`.
    package static func tool(named name: String) -> MCPToolSpec? { tools.first { $0.name == name } }

    /// The tool names, in order.
    package static var names: [String] { tools.map(\.name) }
}
