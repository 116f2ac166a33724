import AXJSON
import AXProtocol
import ArgumentParser

// MARK: - find / one / count

struct Find: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the elements matching a selector (the default command).",
        discussion: """
            Prints one line per match in document order: id, role, label, value, #identifier, flags, frame. Exits 1 when nothing matches (with near misses on stderr).

            Examples:
              axquery find button
              axquery find 'list > switch[value="on"]'
              axquery find 'switch[label*="wi" i]' --limit 5 --json
              axquery find '#edit' --file snapshot.json
            """)
    @Argument(help: "The selector.") var selector: String
    @Option(help: "Search only inside the element this selector resolves to.") var root: String?
    @Option(help: "At most this many results.") var limit: Int?
    @OptionGroup var offline: FileOption
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            try Context.validate(selector)
            if let root { try Context.validate(root) }
            let ctx = try Context(global, file: offline.file)
            var params: RPCParams<RPCCatalog.QueryFind.Param> = [.selector: .string(selector)]
            var explainParams: RPCParams<RPCCatalog.QueryExplain.Param> = [.selector: .string(selector)]
            if let root {
                params[.root] = ["selector": .string(root)]
                explainParams[.root] = ["selector": .string(root)]
            }
            if let limit { params[.limit] = JSON(limit) }
            let result = try ctx.call(.queryFind, params)
            let els = result[.elements]?.arrayValue ?? []
            if ctx.json {
                Out.json(result)
            } else {
                var text = ""
                for element in els {
                    text += Render.listLine(element, ctx.palette)
                    text += "\n"
                }
                Out.write(text)
                if let truncation = result[.truncated], let limit = truncation["limit"]?.intValue {
                    Out.err("showing the first \(limit) matches (--limit)")
                }
            }
            if els.isEmpty {
                var details: [String] = []
                if !ctx.json, let ex = try? ctx.call(.queryExplain, explainParams) {
                    details = Context.nearMissLines(ex.json)
                }
                throw CLIFailure(
                    Exit.noMatch, "no element matches \(result[.selector]?.stringValue ?? selector)", details: details
                )
                .quiet(ctx.json)
            }
        }
    }
}

struct One: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Resolve a selector to exactly one element (strict).",
        discussion: """
            More than one match exits 2 and lists the candidates on stderr (narrow the selector, e.g. with :visible, :first or --root). No match exits 1 with near misses.

            Examples:
              axquery one '#"cell.wifi"'
              axquery one 'button[label="Edit"]' --json
              axquery one switch      # exit 2: two switches
            """)
    @Argument(help: "The selector.") var selector: String
    @Option(help: "Search only inside the element this selector resolves to.") var root: String?
    @OptionGroup var offline: FileOption
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            try Context.validate(selector)
            let ctx = try Context(global, file: offline.file)
            var params: RPCParams<RPCCatalog.QueryOne.Param> = [.selector: .string(selector)]
            if let root { params[.root] = ["selector": .string(root)] }
            let result = try ctx.call(.queryOne, params)
            if ctx.json { Out.json(result) } else { Out.line(Render.listLine(result.json, ctx.palette)) }
        }
    }
}

struct Count: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the number of elements matching a selector.",
        discussion: """
            Like grep -c: prints the count, and exits 1 when it is 0.

            Examples:
              axquery count cell
              axquery count ':trait(header)' --json
            """)
    @Argument(help: "The selector.") var selector: String
    @Option(help: "Count only inside the element this selector resolves to.") var root: String?
    @OptionGroup var offline: FileOption
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            try Context.validate(selector)
            let ctx = try Context(global, file: offline.file)
            var params: RPCParams<RPCCatalog.QueryCount.Param> = [.selector: .string(selector)]
            if let root { params[.root] = ["selector": .string(root)] }
            let result = try ctx.call(.queryCount, params)
            let count = result[.count]?.intValue ?? 0
            if ctx.json { Out.json(result) } else { Out.line(String(count)) }
            if count == 0 { throw ExitCode(Exit.noMatch) }
        }
    }
}

// MARK: - tree / get / explain

enum TreeFormat: String, ExpressibleByArgument, CaseIterable, Sendable { case text, json, xml }

struct Tree: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the accessibility tree.",
        discussion: """
            text (the default) is one element per line, indented by depth, coloured on a terminal. json is tree.get's result; xml is the Appium XCUITest-style page source of the whole tree.

            Examples:
              axquery tree
              axquery tree --depth 1 --no-color
              axquery tree --root '#settingsTable' --frames
              axquery tree --format xml > page.xml
              axquery tree --file page.xml
            """)
    @Option(help: "text, json or xml.") var format: TreeFormat = .text
    @Option(help: "Start at the element this selector resolves to.") var root: String?
    @Option(help: "Levels below the root(s) to include (0 = the root only).") var depth: Int?
    @Flag(help: "Show screen frames.") var frames = false
    @OptionGroup var offline: FileOption
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func validate() throws {
        if let depth, depth < 0 { throw ValidationError("--depth must not be negative") }
        if format == .xml && (root != nil || depth != nil) {
            throw ValidationError(
                "--root and --depth apply to the text and json formats (xml is always the whole tree)")
        }
    }

    func run() throws {
        try runReporting(json: global.json) {
            if let root { try Context.validate(root) }
            let ctx = try Context(global, file: offline.file)
            var params: RPCParams<RPCCatalog.TreeGet.Param> = [.format: .string(format == .xml ? "xml" : "json")]
            if let root { params[.root] = ["selector": .string(root)] }
            if let depth { params[.depth] = JSON(depth) }
            let result = try ctx.call(.treeGet, params)
            if ctx.json || format == .json {
                Out.json(result)
                return
            }
            if format == .xml {
                fputsOut(result[.xml]?.stringValue ?? "")
                return
            }
            var out = ""
            func walk(_ node: JSON, _ depth: Int) {
                out += String(repeating: "  ", count: depth) + Render.describe(node, ctx.palette)
                if frames { out += " " + ctx.palette.dim(Render.frame(node["frame"])) }
                out += "\n"
                for child in node["children"]?.arrayValue ?? [] { walk(child, depth + 1) }
                if let truncation = node["truncated"], let omitted = truncation["omitted"]?.intValue {
                    out +=
                        String(repeating: "  ", count: depth + 1)
                        + ctx.palette.dim("… \(omitted) more (\(truncation["kind"]?.stringValue ?? "truncated"))")
                        + "\n"
                }
            }
            for window in result[.windows]?.arrayValue ?? [] { walk(window, 0) }
            fputsOut(out)
        }
    }
}

func fputsOut(_ text: String) { Out.write(text) }

struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show every attribute of one element (by selector, strict, or by --id).",
        discussion: """
            Examples:
              axquery get '#"cell.wifi"'
              axquery get --id cellWifi --json
              axquery get 'segmentedControl > button[label="Dark"]'
            """)
    @Argument(help: "The selector (omit with --id).") var selector: String?
    @Option(help: "The element id instead of a selector.") var id: String?
    @OptionGroup var offline: FileOption
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func validate() throws {
        if (selector == nil) == (id == nil) { throw ValidationError("give either a selector or --id") }
    }

    func run() throws {
        try runReporting(json: global.json) {
            let target = try targetJSON(selector: selector, id: id)
            let ctx = try Context(global, file: offline.file)
            let result = try ctx.call(.elementGet, [.target: target])
            if ctx.json {
                Out.json(result)
                return
            }
            Out.line(Render.describe(result.json, ctx.palette))
            for (key, value) in result.json.objectValue ?? [:] {
                Out.line(ctx.palette.dim(key + ":") + " " + Render.attribute(value))
            }
        }
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain a selector: match counts after each step, and near misses where it fails.",
        discussion: """
            Exits 1 when the selector matches nothing (the explanation is still printed).

            Examples:
              axquery explain 'list > switch[label="Wifi"]'  # exit 1, near miss Wi-Fi
              axquery explain 'button[label="Edit"]' --json
            """)
    @Argument(help: "The selector.") var selector: String
    @OptionGroup var offline: FileOption
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            try Context.validate(selector)
            let ctx = try Context(global, file: offline.file)
            let result = try ctx.call(.queryExplain, [.selector: .string(selector)])
            let count = result[.count]?.intValue ?? 0
            if ctx.json {
                Out.json(result)
            } else {
                let palette = ctx.palette
                Out.line(result[.summary]?.stringValue ?? "")
                for chain in result[.chains]?.arrayValue ?? [] {
                    Out.line(
                        palette.role(chain["selector"]?.stringValue ?? "") + "  "
                            + palette.dim("(\(chain["count"]?.intValue ?? 0) matches)"))
                    for step in chain["steps"]?.arrayValue ?? [] {
                        let comb = step["combinator"]?.stringValue.map { Render.combinator($0) } ?? ""
                        let count = step["count"]?.intValue ?? 0
                        Out.line(
                            "  " + String(count).leftPad(5) + "  " + comb + (step["description"]?.stringValue ?? ""))
                        for miss in step["nearMisses"]?.arrayValue ?? [] {
                            let ids = (miss["ids"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
                            Out.line(
                                "         "
                                    + palette.value(
                                        "~ \(miss["count"]?.intValue ?? 0) \(miss["description"]?.stringValue ?? "")")
                                    + palette.dim("  (\(miss["change"]?.stringValue ?? ""): \(ids))"))
                        }
                    }
                }
                let ms = (result[.matches]?.arrayValue ?? []).compactMap(\.stringValue)
                if !ms.isEmpty { Out.line("matches: " + ms.joined(separator: ", ") + (count > ms.count ? ", …" : "")) }
            }
            if count == 0 { throw ExitCode(Exit.noMatch) }
        }
    }
}

// MARK: - wait / do / focus

struct Wait: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Wait until an element reaches a state (event-driven on the server, no polling).",
        discussion: """
            States: attached, detached, visible, hidden, hittable, enabled, disabled, focused, value, label (value and label need --value). Exits 4 on timeout, printing the last state seen.

            Examples:
              axquery wait alert --state visible --timeout 5s  # exit 4: no alert
              axquery wait '#alert' --state detached --timeout 500ms
              axquery wait '#"cell.bluetooth"' --state value --value off
            """)
    enum State: String, ExpressibleByArgument, CaseIterable, Sendable {
        case attached, detached, visible, hidden, hittable, enabled, disabled, focused, value, label
    }
    @Argument(help: "The selector.") var selector: String
    @Option(help: "The state to wait for.") var state: State = .attached
    @Option(help: "The expected value (for --state value or label).") var value: String?
    @Option(help: "How long to wait: 500ms, 5s, 1m (a bare number is seconds; at most 10m).") var timeout =
        DurationArg(milliseconds: 5_000)
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func validate() throws {
        if (state == .value || state == .label) && value == nil {
            throw ValidationError("--state \(state.rawValue) needs --value")
        }
    }

    func run() throws {
        try runReporting(json: global.json) {
            try Context.validate(selector)
            let ctx = try Context(global)
            var params: RPCParams<RPCCatalog.WaitFor.Param> = [
                .target: ["selector": .string(selector)], .state: .string(state.rawValue),
                .timeoutMs: JSON(timeout.milliseconds),
            ]
            if let value { params[.value] = .string(value) }
            let result = try ctx.call(.waitFor, params, timeout: .milliseconds(timeout.milliseconds + 10_000))
            if ctx.json {
                Out.json(result)
                return
            }
            var line = "\(state.rawValue) after \(result[.waitedMs]?.intValue ?? 0) ms"
            if let element = result[.element] { line += ": " + Render.listLine(element, ctx.palette) }
            Out.line(line)
        }
    }
}

struct DoAction: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "do",
        abstract: "Perform an accessibility action on one element.",
        discussion: """
            Actions: activate, increment, decrement, scroll (--direction), escape, magic-tap, custom (--name), set-value (--value), type (--text), tap (through hit testing, or --point X,Y), zoom-in / zoom-out (--point X,Y), drag / drop (--name). The target must resolve to exactly one element; escape and magic-tap default to the focused element. Exits 6 when the element is not interactable, does not support the action, or did not handle it.

            Examples:
              axquery do activate '#"cell.wifi"'
              axquery do activate 'segmentedControl > button[label="Dark"]'
              axquery do increment '#copies'
              axquery do set-value '#textSize' --value 0.8
              axquery do type '#deviceName' --text 'Kitchen'
              axquery do custom '#"cell.display"' --name 'Add to Favorites'
              axquery do drag '#copies' --name Photo   # exit 6: no drag source
              axquery do escape      # exit 6: nothing to dismiss
              axquery do tap --point 195,143
            """)
    enum Action: String, ExpressibleByArgument, CaseIterable, Sendable {
        case activate, increment, decrement, scroll, escape
        case magicTap = "magic-tap"
        case custom
        case setValue = "set-value"
        case type, tap
        case zoomIn = "zoom-in"
        case zoomOut = "zoom-out"
        case drag, drop

        var method: RPCMethodName {
            switch self {
            case .activate: .actionActivate
            case .increment: .actionIncrement
            case .decrement: .actionDecrement
            case .scroll: .actionScroll
            case .escape: .actionEscape
            case .magicTap: .actionMagicTap
            case .custom: .actionCustom
            case .setValue: .actionSetValue
            case .type: .actionTypeText
            case .tap: .actionTap
            case .zoomIn: .actionZoomIn
            case .zoomOut: .actionZoomOut
            case .drag: .actionDrag
            case .drop: .actionDrop
            }
        }

        /// The CLI's name (`set-value`), or the protocol's for the same action (`setValue`, `action.setValue`).
        init?(argument: String) {
            if let action = Action(rawValue: argument) {
                self = action
                return
            }
            let prefix = RPCSection.actions.methodPrefix
            let method = argument.hasPrefix(prefix) ? argument : prefix + argument
            guard let action = Action.allCases.first(where: { $0.method.rawValue == method }) else { return nil }
            self = action
        }
    }
    enum Direction: String, ExpressibleByArgument, CaseIterable, Sendable { case up, down, left, right, next, previous }

    @Argument(help: "The action.") var action: Action
    @Argument(help: "The selector of the target element.") var selector: String?
    @Option(help: "The target's element id instead of a selector.") var id: String?
    @Option(help: "scroll: up, down, left, right, next or previous.") var direction: Direction?
    @Option(help: "custom: the custom action's name or id; drag, drop: the descriptor's name.") var name: String?
    @Option(help: "set-value: the new value (sent as a number when it is one, unless --string).") var value: String?
    @Flag(help: "set-value: send --value as a string even when it looks like a number.") var string = false
    @Option(help: "type: the text to type.") var text: String?
    @Option(help: "tap: screen coordinates X,Y instead of a target; zoom-in, zoom-out: the zoom's centre (D-ZOOM-1).")
    var point: String?
    @Flag(help: "Skip the visible/enabled/hittable checks.") var force = false
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func validate() throws {
        switch action {
        case .scroll where direction == nil: throw ValidationError("scroll needs --direction")
        case .custom where name == nil: throw ValidationError("custom needs --name")
        case .drag where name == nil, .drop where name == nil:
            throw ValidationError("\(action.rawValue) needs --name (a drag source or drop point, D-DRAG-1)")
        case .setValue where value == nil: throw ValidationError("set-value needs --value")
        case .type where text == nil: throw ValidationError("type needs --text")
        case .tap where point == nil && selector == nil && id == nil:
            throw ValidationError("tap needs a selector, --id or --point")
        case .escape, .magicTap, .tap: break
        default:
            if selector == nil && id == nil { throw ValidationError("\(action.rawValue) needs a selector or --id") }
        }
        if selector != nil && id != nil { throw ValidationError("give a selector or --id, not both") }
        if let point, parsePoint(point) == nil { throw ValidationError("--point must be X,Y (numbers)") }
    }

    func parsePoint(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",")
        guard parts.count == 2, let x = Double(parts[0].trimmingCharacters()),
            let y = Double(parts[1].trimmingCharacters()),
            x.isFinite, y.isFinite
        else { return nil }
        return (x, y)
    }

    func run() throws {
        try runReporting(json: global.json) {
            var params: JSONObject = [:]
            if selector != nil || id != nil { params["target"] = try targetJSON(selector: selector, id: id) }
            if let point, let (x, y) = parsePoint(point) { params["point"] = ["x": .number(x), "y": .number(y)] }
            if let direction { params["direction"] = .string(direction.rawValue) }
            if let name { params["name"] = .string(name) }
            if let value {
                if !string, let number = Double(value), number.isFinite {
                    params["value"] = .number(number)
                } else {
                    params["value"] = .string(value)
                }
            }
            if let text { params["text"] = .string(text) }
            if force { params["force"] = true }
            let ctx = try Context(global)
            let result = try ctx.call(action.method, object: params)
            if ctx.json { Out.json(result) }
            let element = result["element"]?.stringValue ?? "the app"
            guard result["performed"]?.boolValue == true else {
                throw CLIFailure(Exit.refused, "\(element) did not handle '\(action.rawValue)'").quiet(ctx.json)
            }
            if !ctx.json {
                var line = "\(action.rawValue): \(element)"
                if let before = result["revisionBefore"]?.intValue, let after = result["revisionAfter"]?.intValue {
                    line += "  (revision \(before) → \(after))"
                }
                Out.line(line)
            }
        }
    }
}

struct Focus: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or move the accessibility focus; move, query, explain and show the engine (keyboard) focus.",
        discussion: """
            focus [SELECTOR | --clear] reads or sets the accessibility focus. The engine focus (Specs/protocol.md §Focus engine):
              focus move DIRECTION          up, down, left, right, next (Tab), previous (Shift-Tab); exit 1 when nothing is there
              focus query DIRECTION [--from SELECTOR]   where focus would go, without moving it
              focus explain SELECTOR        why the item can or cannot take focus (the first failed check and the view responsible)
              focus status                  engine and accessibility focus, groups in Tab order, guides

            Examples:
              axquery focus
              axquery focus '#deviceName'
              axquery focus --clear
              axquery focus move next
              axquery focus query down --from '#"cell.wifi"'
              axquery focus explain '#"cell.wifi"'
            """)
    @Argument(help: "A selector (accessibility focus), or move | query | explain | status.") var selector: String?
    @Argument(help: "The direction (move, query) or the selector (explain).") var operand: String?
    @Option(help: "query: start from this element instead of the engine focus.") var from: String?
    @Flag(help: "Clear the accessibility focus.") var clear = false
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    static let engineVerbs = ["move", "query", "explain", "status"]

    func run() throws {
        try runReporting(json: global.json) {
            if let verb = selector, Self.engineVerbs.contains(verb) {
                try runEngine(verb)
                return
            }
            if let selector { try Context.validate(selector) }
            let ctx = try Context(global)
            if selector != nil || clear {
                var params: RPCParams<RPCCatalog.FocusSet.Param> = [:]
                if let selector { params[.target] = ["selector": .string(selector)] }
                let result = try ctx.call(.focusSet, params)
                if ctx.json {
                    Out.json(result)
                } else {
                    Out.line("focused: " + (result[.focused]?.stringValue ?? "nothing"))
                }
                return
            }
            let result = try ctx.call(.focusGet)
            if ctx.json {
                Out.json(result)
                return
            }
            if let element = result[.element], !element.isNull {
                Out.line(Render.listLine(element, ctx.palette))
            } else {
                Out.line("(nothing focused)")
            }
        }
    }

    private func runEngine(_ verb: String) throws {
        if let from { try Context.validate(from) }
        if verb == "explain", let operand { try Context.validate(operand) }
        let ctx = try Context(global)
        switch verb {
        case "status": try engineStatus(ctx)
        case "explain": try engineExplain(ctx)
        default: try engineMove(ctx, verb)
        }
    }

    /// `focus status`: the focus engine, the accessibility focus and the focus groups.
    private func engineStatus(_ ctx: Context) throws {
        let result = try ctx.call(.focusStatus)
        if ctx.json {
            Out.json(result)
            return
        }
        Out.line("engine: " + (result[.engine]?["id"]?.stringValue ?? "nothing"))
        Out.line("accessibility: " + (result[.accessibility]?.stringValue ?? "nothing"))
        if let group = result[.group]?.stringValue { Out.line("group: " + group) }
        for group in result[.groups]?.arrayValue ?? [] {
            let items = (group["items"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: " ")
            Out.line("  " + (group["identifier"]?.stringValue ?? "-") + ": " + items)
        }
    }

    /// `focus explain SELECTOR`: whether the element can take focus, or the first check it fails.
    private func engineExplain(_ ctx: Context) throws {
        guard let operand else { throw CLIFailure(Exit.usage, "focus explain needs a selector") }
        let result = try ctx.call(.focusExplain, [.target: ["selector": .string(operand)]])
        if ctx.json {
            Out.json(result)
            return
        }
        let target = result[.target]?.stringValue ?? operand
        if result[.focusable]?.boolValue == true {
            Out.line("\(target): focusable")
        } else {
            let failed = result[.failed]
            Out.line(
                "\(target): not focusable — \(failed?["check"]?.stringValue ?? "?"): \(failed?["message"]?.stringValue ?? "")"
            )
        }
    }

    /// `focus move|query DIRECTION`: where focus goes (exit 1 when it does not move).
    private func engineMove(_ ctx: Context, _ verb: String) throws {
        guard let operand else {
            throw CLIFailure(Exit.usage, "focus \(verb) needs a direction: up, down, left, right, next, previous")
        }
        let result: JSON
        if verb == "move" {
            result = try ctx.call(.focusMove, [.direction: .string(operand)]).json
        } else {
            var params: RPCParams<RPCCatalog.FocusQuery.Param> = [.direction: .string(operand)]
            if let from { params[.from] = ["selector": .string(from)] }
            result = try ctx.call(.focusQuery, params).json
        }
        if ctx.json { Out.json(result) }
        guard let to = result["to"]?.stringValue else {
            if !ctx.json {
                Out.line(
                    "no move: "
                        + (result["message"]?.stringValue ?? result["cancelledBy"].map {
                            "cancelled by \($0.stringValue ?? "")"
                        } ?? ""))
            }
            throw ExitCode(Exit.noMatch)
        }
        if !ctx.json { Out.line((verb == "move" ? "focused: " : "would focus: ") + to) }
    }
}

struct Rotor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the rotors at an element, or step one (rotor.list, rotor.next, rotor.previous).",
        discussion: """
            rotor list [--target SELECTOR]            the rotors available at the element (default: the accessibility focus)
            rotor next|previous ROTOR [--from SELECTOR | --from-start] [--no-move]
                                                      the next/previous item; accessibility focus moves to it unless --no-move.
                                                      Exit 1 at the end of the rotor.

            Examples:
              axquery rotor list
              axquery rotor next heading
              axquery rotor previous heading --from '#"cell.wifi"'
              axquery rotor next headingLevel2 --from-start
            """)
    @Argument(help: "list, next or previous.") var verb: String
    @Argument(help: "The rotor's name (next, previous).") var rotor: String?
    @Option(help: "The current item (default: the accessibility focus).") var from: String?
    @Flag(help: "Start from the empty item: the first (next) or last (previous) item.") var fromStart = false
    @Option(help: "Where rotors are looked up (list; custom rotors of the element and its ancestors).") var target:
        String?
    @Flag(help: "Do not move the accessibility focus to the item.") var noMove = false
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            guard ["list", "next", "previous"].contains(verb) else {
                throw CLIFailure(Exit.usage, "rotor takes list, next or previous, not '\(verb)'")
            }
            if let from { try Context.validate(from) }
            if let target { try Context.validate(target) }
            let ctx = try Context(global)
            let targetJSON: JSON? = target.map { ["selector": .string($0)] }
            if verb == "list" {
                try list(ctx, targetJSON.map { [.target: $0] } ?? [:])
            } else {
                try step(ctx, targetJSON.map { [.target: $0] } ?? [:])
            }
        }
    }

    /// `rotor list`: each rotor with its item count and where it is declared.
    private func list(_ ctx: Context, _ params: RPCParams<RPCCatalog.RotorList.Param>) throws {
        let result = try ctx.call(.rotorList, params)
        if ctx.json {
            Out.json(result)
            return
        }
        for rotor in result[.rotors]?.arrayValue ?? [] {
            let declared = rotor["declaredBy"]?.stringValue.map { " (declared by \($0))" } ?? ""
            Out.line("\(rotor["name"]?.stringValue ?? "?")  \(rotor["count"]?.intValue ?? 0) item(s)\(declared)")
        }
    }

    /// `rotor next|previous ROTOR`: the item (exit 1 at the end of the rotor).
    private func step(_ ctx: Context, _ params: RPCParams<RPCCatalog.RotorNext.Param>) throws {
        guard let rotor else {
            throw CLIFailure(Exit.usage, "rotor \(verb) needs a rotor name (see: axquery rotor list)")
        }
        var params = params
        params[.rotor] = .string(rotor)
        if fromStart { params[.from] = .null } else if let from { params[.from] = ["selector": .string(from)] }
        if noMove { params[.moveFocus] = false }
        let result = try verb == "next" ? ctx.call(.rotorNext, params) : ctx.call(.rotorPrevious, params)
        if ctx.json { Out.json(result) }
        guard let item = result[.item], !item.isNull else {
            if !ctx.json { Out.line("end of rotor '\(rotor)'") }
            throw ExitCode(Exit.noMatch)
        }
        guard !ctx.json else { return }
        if let element = item["element"], !element.isNull {
            Out.line(Render.listLine(element, ctx.palette))
        } else {
            Out.line(item["target"]?.stringValue ?? "")
        }
    }
}

// MARK: - diff / apps

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what changed in the tree between two revisions (tree.diff).",
        discussion: """
            TO defaults to the current revision. Lines: '+ id' added, '- id' removed, '> id' moved, '~ id: attributes' updated.

            Examples:
              axquery diff 1
              axquery diff 3 5 --json
            """)
    @Argument(help: "The older revision.") var from: Int
    @Argument(help: "The newer revision (default: current).") var to: Int?
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            let ctx = try Context(global)
            var params: RPCParams<RPCCatalog.TreeDiff.Param> = [.fromRevision: JSON(from)]
            if let to { params[.toRevision] = JSON(to) }
            let result = try ctx.call(.treeDiff, params)
            if ctx.json {
                Out.json(result)
                return
            }
            let pal = ctx.palette
            Out.line("revision \(result[.fromRevision]?.intValue ?? from) → \(result[.toRevision]?.intValue ?? 0)")
            var any = false
            for id in (result[.added]?.arrayValue ?? []).compactMap(\.stringValue) {
                Out.line(pal.label("+ " + id))
                any = true
            }
            for id in (result[.removed]?.arrayValue ?? []).compactMap(\.stringValue) {
                Out.line(pal.flag("- " + id))
                any = true
            }
            for id in (result[.moved]?.arrayValue ?? []).compactMap(\.stringValue) {
                Out.line("> " + id)
                any = true
            }
            for (id, attrs) in result[.updated]?.objectValue ?? [:] {
                Out.line(
                    pal.value("~ " + id) + ": "
                        + (attrs.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", "))
                any = true
            }
            if result[.windowsChanged]?.boolValue == true {
                Out.line("windows changed")
                any = true
            }
            if !any { Out.line("no changes") }
        }
    }
}

struct Apps: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the apps the server mirrors.",
        discussion: """
            Examples:
              axquery apps
              axquery apps --json
            """)
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            let ctx = try Context(global)
            let result = try ctx.call(.appsList)
            if ctx.json {
                Out.json(result)
                return
            }
            for app in result.json.arrayValue ?? [] {
                var line = (app["id"]?.stringValue ?? "?")
                if let name = app["name"]?.stringValue, name != app["id"]?.stringValue { line += "  (\(name))" }
                line += "  revision=\(app["revision"]?.intValue ?? 0) elements=\(app["elements"]?.intValue ?? 0)"
                if let focused = app["focused"]?.stringValue { line += " focused=\(focused)" }
                Out.line(line)
            }
        }
    }
}

extension CLIFailure {
    /// With --json the result was already printed: only the stderr line, no second JSON document.
    func quiet(_ json: Bool) -> CLIFailure {
        var failure = self
        failure.suppressJSON = json
        return failure
    }
}

extension String {
    func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

extension Render {
    /// The selector token for a combinator's name in explain output.
    static func combinator(_ name: String) -> String {
        switch name {
        case "child": return "> "
        case "nextSibling": return "+ "
        case "laterSibling": return "~ "
        case "within": return ">> "
        default: return ""
        }
    }

    /// An attribute value for `get`: strings bare, string lists comma-joined, the rest compact JSON.
    static func attribute(_ value: JSON) -> String {
        switch value {
        case .string(let text): return text
        case .number(let number): return Render.number(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array(let elements) where elements.allSatisfy({ $0.stringValue != nil }):
            return elements.compactMap(\.stringValue).joined(separator: ", ")
        case .object where value["x"] != nil && value["width"] != nil: return frame(value)
        case .object(let object)
        where object.count == 2 && value["x"]?.doubleValue != nil && value["y"]?.doubleValue != nil:
            return "(\(Render.number(value["x"]!.doubleValue!)),\(Render.number(value["y"]!.doubleValue!)))"
        default: return value.jsonString
        }
    }
}

extension DurationArg {
    /// A duration known when the program is written (a default), without parsing text.
    init(milliseconds: Int) { self.milliseconds = milliseconds }
}
