import AXProtocol
import ArgumentParser

/// `axquery protocol`: the JSON-RPC protocol as the catalog declares it (Sources/AXProtocol, D-CATALOG-1) —
/// Specs/protocol.json and the method index of Specs/protocol.md are this command's output.
struct ProtocolCatalog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "protocol",
        abstract: "Print the protocol catalog: every method with its params, roles and errors; the events.",
        discussion: """
            --json prints Specs/protocol.json; --markdown prints the generated method index of Specs/protocol.md \
            (between its BEGIN and END lines). Without either, one line per method: name, params, callers. \
            Regenerate the committed files after changing Sources/AXProtocol (a unit test fails until you do).

            Examples:
              axquery protocol
              axquery protocol --json
              axquery protocol --markdown
            """)

    @Flag(help: "Print Specs/protocol.json.")
    var json = false

    @Flag(help: "Print the method index of Specs/protocol.md.")
    var markdown = false

    func validate() throws {
        if json && markdown { throw ValidationError("choose one of --json and --markdown") }
    }

    func run() {
        if json {
            print(RPCCatalogDocument.jsonText, terminator: "")
        } else if markdown {
            print(RPCCatalogDocument.markdown)
        } else {
            for name in RPCMethodName.allCases {
                let entry = name.entry
                let params = entry.params.map(\.name).joined(separator: ", ")
                print("\(name.rawValue)(\(params)) — \(entry.callers.rawValue)")
            }
        }
    }
}
