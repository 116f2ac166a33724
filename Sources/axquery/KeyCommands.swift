import AXJSON
import AXProtocol
import ArgumentParser

// MARK: - key / type

struct Key: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send a key (press and release) to the app: the screen reader hears it first (input.key).",
        discussion: """
            KEY is an X keysym name: Tab, ISO_Left_Tab, Return, KP_Enter, Escape, space, Up, Down, Left, Right, Home, End, Insert, KP_Insert, a letter, a digit, F1-F12, ... A listening assistive technology (Orca) gets the key first; a key it does not consume goes to the app, or, when the app lets the server handle navigation keys, Tab/Shift-Tab and arrows move the engine focus, Escape performs escape and Return/space activate. Prints who handled it and the focused element.

            Examples:
              axquery key Tab
              axquery key Tab --modifiers shift
              axquery key KP_Insert --phase press
              axquery key Escape --json
            """)
    @Argument(help: "The X keysym name.") var key: String
    @Option(help: "Comma-separated modifiers: shift, control, alt, super.") var modifiers: String?
    @Option(help: "press, release or both (the default).") var phase: String?
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            let ctx = try Context(global)
            var p: RPCParams<RPCCatalog.InputKey.Param> = [.key: .string(key)]
            if let modifiers {
                let names = modifiers.split(separator: ",").map { JSON(String($0).trimmingCharacters()) }
                p[.modifiers] = .array(names)
            }
            if let phase { p[.phase] = .string(phase) }
            let r = try ctx.call(.inputKey, p)
            if ctx.json {
                Out.json(r)
                return
            }
            let handledBy = r[.handledBy]?.stringValue ?? "none"
            let focus = r[.focus]?.stringValue ?? "nothing"
            Out.line("\(key): handled by \(handledBy); focus: \(focus)")
        }
    }
}

struct TypeText: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "type",
        abstract: "Type text into the focused text element, or the one a selector names (input.type).",
        discussion: """
            Examples:
              axquery type ' TV' --target '#deviceName'
              axquery focus '#deviceName' && axquery type ' 2'
            """)
    @Argument(help: "The text.") var text: String
    @Option(help: "A selector naming the text element (default: the focused element).") var target: String?
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            if let target { try Context.validate(target) }
            let ctx = try Context(global)
            var p: RPCParams<RPCCatalog.InputType.Param> = [.text: .string(text)]
            if let target { p[.target] = ["selector": .string(target)] }
            let r = try ctx.call(.inputType, p)
            if ctx.json {
                Out.json(r)
                return
            }
            let element = r[.element]?.stringValue ?? "?"
            Out.line(r[.typed]?.boolValue == true ? "typed into \(element)" : "\(element) did not take the text")
        }
    }
}
