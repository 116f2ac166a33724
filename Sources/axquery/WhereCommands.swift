import AXJSON
import AXProtocol
import ArgumentParser

/// The script queries (Specs/protocol.md §Script queries): `at`, `cell`, `next`, `previous`. Each prints the
/// element found (as `find` lists it) and exits 1 when there is none.
enum WhereOutput {
    static func print(_ result: JSON, _ ctx: Context) throws {
        if ctx.json {
            Out.json(result)
        } else if let node = result["node"], !node.isNull {
            Out.line(Render.listLine(node, ctx.palette))
        } else {
            Out.line("(no element)")
        }
        if result["element"]?.stringValue == nil { throw ExitCode(Exit.noMatch) }
    }
}

struct At: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The element at a screen point, as an exploring finger finds it (element.atPoint).",
        discussion: """
            Uses the hit-testing rule a tap uses (D-HIT-1): a plain view in front hides what lies behind it. Exits 1 when no element is there, 6 when the point is outside every window.

            Examples:
              axquery at 60,140                  # the demo's Wi-Fi switch
              axquery at 60,140 --json
              axquery at 5000,5000               # outside every window: exit 6
            """)
    @Argument(help: "The point: X,Y in screen points.") var point: String
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            let parts = point.split(separator: ",").map { Double(String($0.filter { $0 != " " })) }
            guard parts.count == 2, let x = parts[0], let y = parts[1] else {
                throw CLIFailure(Exit.usage, "the point must be X,Y (two numbers)")
            }
            let ctx = try Context(global)
            try WhereOutput.print(try ctx.call(.elementAtPoint, [.point: [.number(x), .number(y)]]).json, ctx)
        }
    }
}

struct Cell: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The cell at (row, column) of a data table (element.cell).",
        discussion: """
            Exits 1 for a hole (no cell covers the position), 6 when the position is outside the table or the element is not a data table. Selectors also take [row=n] and [column=n].

            Examples:
              axquery cell '#settingsTable' --row 1 --column 0   # a list: exit 6
            """)
    @Argument(help: "The data table (a selector; omit with --id).") var selector: String?
    @Option(help: "The table's element id instead of a selector.") var id: String?
    @Option(help: "The row, from 0.") var row: Int
    @Option(help: "The column, from 0.") var column: Int
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            let target = try targetJSON(selector: selector, id: id)
            let ctx = try Context(global)
            let result = try ctx.call(.elementCell, [.target: target, .row: JSON(row), .column: JSON(column)])
            try WhereOutput.print(result.json, ctx)
        }
    }
}

/// `next` and `previous`: the VoiceOver swipe (D-QUERY-1).
struct Swipe: ParsableArguments {
    @Option(help: "Start from this element (a selector) instead of the accessibility focus.") var from: String?
    @Flag(help: "Move the accessibility focus to the element found, as the swipe does.") var moveFocus = false
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    /// `element.next` or `element.previous` (they share their keys).
    func run(_ method: RPCMethodName) throws {
        try runReporting(json: global.json) {
            var typed: RPCParams<RPCCatalog.ElementNext.Param> = [:]
            if let from { typed[.from] = try targetJSON(selector: from, id: nil) }
            if moveFocus { typed[.moveFocus] = true }
            let params = typed.object
            let ctx = try Context(global)
            try WhereOutput.print(try ctx.call(method, object: params), ctx)
        }
    }
}

struct Next: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The next element in reading order: a VoiceOver swipe right (element.next).",
        discussion: """
            Starts from the accessibility focus (or --from); exits 1 at the end (no wrap).

            Examples:
              axquery next
              axquery next --from '#showAlert' --move-focus
            """)
    @OptionGroup var swipe: Swipe

    func run() throws { try swipe.run(.elementNext) }
}

struct Previous: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The previous element in reading order: a VoiceOver swipe left (element.previous).",
        discussion: """
            Starts from the accessibility focus (or --from); exits 1 at the start (no wrap).

            Examples:
              axquery previous --from '#showAlert'
            """)
    @OptionGroup var swipe: Swipe

    func run() throws { try swipe.run(.elementPrevious) }
}
