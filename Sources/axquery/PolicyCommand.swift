import AXJSON
import AXProtocol
import ArgumentParser

/// `axquery policy get|set`: the kiosk's guided-access restrictions from a shell (Specs/axquery.md §policy).
/// One command with an operation argument (not nested subcommands), so the global options may stand anywhere:
/// `axquery --socket S policy get`.
struct Policy: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read or set the kiosk's guided-access restrictions (set: the operator, with its token file).",
        discussion: """
            get: one line per restriction of the app (policy.get; any client may read it): `deny|allow  ID  "text"  (source)`.
            set ID allow|deny: connects with the operator role, the token being the first line of --operator-token-file (the file the server was started with: axserver --operator-token-file), and calls policy.set for --app (a running app; default: the first) or --app-name (any app name, running or not). The server writes the change back to its policy file. Exits 5 when no server answers or the token is wrong, 6 when the server refuses (an undeclared restriction).

            The operator (a kiosk's): axquery policy set org.axserver.demo.wifi allow --operator-token-file ~/.config/axserver/operator.token

            Examples:
              axquery policy get
              axquery policy get --json
            """)

    /// What to do.
    enum Operation: String, ExpressibleByArgument, CaseIterable {
        case get
        case set
    }

    @Argument(help: "get or set.") var operation: Operation
    @Argument(help: "set: the restriction's id (see: axquery policy get).") var restriction: String?
    @Argument(help: "set: allow or deny.") var state: RestrictionState?
    @Option(
        name: .customLong("operator-token-file"),
        help: ArgumentHelp(
            "set: file whose first line is the operator token (the server's --operator-token-file).",
            valueName: "file"),
        completion: .file())
    var operatorTokenFile: String?
    @Option(
        name: .customLong("app-name"),
        help: ArgumentHelp("set: an app name, running or not (instead of --app).", valueName: "name"))
    var appName: String?
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func validate() throws {
        switch operation {
        case .get:
            if restriction != nil || state != nil || operatorTokenFile != nil || appName != nil {
                throw ValidationError("policy get takes no restriction, state, --operator-token-file or --app-name")
            }
        case .set:
            if restriction == nil || state == nil { throw ValidationError("policy set needs ID and allow|deny") }
            if operatorTokenFile == nil { throw ValidationError("policy set needs --operator-token-file FILE") }
            if appName != nil && global.app != nil {
                throw ValidationError("use either --app or --app-name, not both")
            }
        }
    }

    func run() throws {
        try runReporting(json: global.json) {
            switch operation {
            case .get: try get()
            case .set: try set()
            }
        }
    }

    func get() throws {
        let ctx = try Context(global)
        // Context.call adds --app.
        let result = try ctx.call(.policyGet)
        if ctx.json {
            Out.json(result)
            return
        }
        let name = result[.name]?.stringValue ?? result[.app]?.stringValue ?? "?"
        let enabled = result[.guidedAccessEnabled]?.boolValue == true
        Out.line("\(name): guided access \(enabled ? "on (a restriction is denied)" : "off")")
        for restriction in result[.restrictions]?.arrayValue ?? [] {
            let state = restriction["state"]?.stringValue ?? "?"
            let id = restriction["id"]?.stringValue ?? "?"
            let text = restriction["text"]?.stringValue ?? ""
            let source = restriction["source"]?.stringValue ?? "?"
            Out.line("\(state.padding(5))  \(id)  \"\(text)\"  (\(source))")
        }
    }

    func set() throws {
        guard let restriction, let state, let operatorTokenFile else { return }  // validate() required them
        let token = try FileIO.token(operatorTokenFile)
        let ctx = try Context(global, operatorToken: token)
        var params: RPCParams<RPCCatalog.PolicySet.Param> = [
            .restriction: .string(restriction), .state: .string(state.rawValue),
        ]
        if let appName { params[.appName] = .string(appName) }
        let result = try ctx.call(.policySet, params)
        if ctx.json {
            Out.json(result)
            return
        }
        let app = result[.app]?.stringValue ?? result[.appName]?.stringValue ?? "?"
        Out.line("\(app): \(restriction) \(state.rawValue)")
    }
}

/// A restriction's state (policy.set).
enum RestrictionState: String, ExpressibleByArgument, CaseIterable {
    case allow
    case deny
}

extension String {
    /// Pads with spaces on the right to `width` characters.
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
