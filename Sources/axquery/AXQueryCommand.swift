import AXJSON
import AXJSONRPC
import AXProtocol
import AXQuery
import AXRPCClient
import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@main
struct AXQueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "axquery",
        abstract:
            "Query and drive the accessibility trees an axserver mirrors (or a saved hierarchy / Appium page source).",
        discussion: """
            Selectors are the CSS-like language of Specs/selectors.md: roles, #identifier, [attribute op value], :pseudo-classes and the combinators ' ', '>', '+', '~', '>>'.

            The server is found at --socket PATH, else $AXSERVER_SOCKET, else $XDG_RUNTIME_DIR (else /run/user/$UID when private)/axserver.sock, else /tmp/axserver-$UID/axserver.sock; --tcp HOST:PORT --token-file F connects over loopback TCP instead. find, one, count, tree, get and explain also work offline on a file (--file): a JSON hierarchy snapshot (e.g. from 'axserver dump --demo --snapshot > snapshot.json') or an Appium XCUITest XML page source.

            Exit codes: 0 ok, 1 no match, 2 ambiguous, 3 invalid selector, 4 timeout, 5 connection or auth error (also an unknown --app, or an unreadable --file), 6 refused by the server (not interactable, unsupported, policy, bad argument), 64 bad command line.

            Examples:
              axquery 'button[label="Edit"]'               (same as: axquery find ...)
              axquery one '#"cell.wifi"'
              axquery tree --depth 2
              axquery do activate 'segmentedControl > button[label="Dark"]'
              axquery wait '#showAlert' --state hittable --timeout 5s
              axquery count button --file snapshot.json
            """,
        version: RPCServerInfo.version,
        subcommands: [
            Find.self, One.self, Count.self, Tree.self, Get.self, Wait.self, DoAction.self, Focus.self,
            Watch.self, Diff.self, Explain.self, Apps.self, Audit.self, Say.self, RenderPicture.self, Rotor.self,
            Key.self, TypeText.self, MCPServe.self, At.self, Cell.self, Next.self, Previous.self, Listen.self,
            Policy.self, ProtocolCatalog.self, Record.self, Trace.self,
        ],
        defaultSubcommand: Find.self)

    static let subcommandNames = [
        "find", "one", "count", "tree", "get", "wait", "do", "focus", "watch", "diff", "explain", "apps", "audit",
        "say", "render", "rotor", "key", "type", "mcp", "at", "cell", "next", "previous", "listen", "policy",
        "protocol", "record", "trace",
        "help",
    ]

    /// `axquery --socket S count tab` → `axquery count --socket S tab`: global options may come before the command.
    static func hoistSubcommand(_ args: [String]) -> [String] {
        let valued: Set<String> = ["--socket", "--tcp", "--token-file", "--app", "--file"]
        let flags: Set<String> = ["--json", "--no-color"]
        var index = 0
        while index < args.count {
            let argument = args[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if valued.contains(name) {
                index += argument.contains("=") ? 1 : 2
                continue
            }
            if flags.contains(argument) {
                index += 1
                continue
            }
            break
        }
        guard index > 0, index < args.count, subcommandNames.contains(args[index]) else { return args }
        var out = args
        let sub = out.remove(at: index)
        out.insert(sub, at: 0)
        return out
    }

    /// As ArgumentParser's main, except: no arguments prints the help, and a command line that does not parse
    /// is reported as the parser's whole message (a wrong value lists the accepted ones below it), then the
    /// "see --help" hint, with exit code 64.
    static func main() {
        let args = Array(CommandLine.arguments.dropFirst())
        if args.isEmpty {
            Out.write(helpMessage() + "\n")
            exit(withError: nil)
        }
        do {
            var command = try parseAsRoot(hoistSubcommand(args))
            try command.run()
        } catch {
            let code = exitCode(for: error)
            guard code == .validationFailure else { exit(withError: error) }
            var msg = message(for: error)
            if msg.hasPrefix("Error: ") { msg.removeFirst("Error: ".count) }
            Out.err(msg.trimmingCharacters())
            let full = fullMessage(for: error, columns: 1000)
            if let hint = full.split(separator: "\n").last(where: { $0.contains("--help") }) {
                Out.errRaw("  " + String(hint).trimmingCharacters())
            }
            Self.exit(withError: ExitCode(Exit.usage))
        }
    }
}

// MARK: - Options shared by every command

struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Server Unix socket (default: $AXSERVER_SOCKET, else $XDG_RUNTIME_DIR (else /run/user/$UID when private)/axserver.sock, else /tmp/axserver-$UID/axserver.sock).",
            valueName: "path"), completion: .file())
    var socket: String?

    @Option(help: ArgumentHelp("Connect over loopback TCP instead of the Unix socket.", valueName: "host:port"))
    var tcp: String?

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp("File whose first line is the TCP token.", valueName: "file"),
        completion: .file())
    var tokenFile: String?

    @Option(help: ArgumentHelp("The app to query (id or name; default: the first registered app).", valueName: "id"))
    var app: String?

    @Flag(help: "Print machine-readable JSON: the server's result, or {\"error\": {...}} on failure.")
    var json = false

    @Flag(name: .customLong("no-color"), help: "No ANSI colours (also: $NO_COLOR, or stdout not a terminal).")
    var noColor = false

    func validate() throws {
        if tcp != nil && socket != nil { throw ValidationError("use either --socket or --tcp, not both") }
        if tokenFile != nil && tcp == nil { throw ValidationError("--token-file goes with --tcp") }
    }

    /// The address to connect to and the TCP token, if any.
    func address() throws(CLIFailure) -> (String, String?) {
        if let tcp {
            let hp = tcp.hasPrefix("tcp:") ? String(tcp.dropFirst(4)) : tcp
            var token: String?
            if let tf = tokenFile {
                token = try FileIO.token(tf)
            } else if let environmentToken = getenv("AXSERVER_TOKEN"), environmentToken.pointee != 0 {
                token = String(cString: environmentToken)
            } else {
                throw CLIFailure(Exit.connection, "--tcp needs --token-file (or $AXSERVER_TOKEN)")
            }
            return ("tcp:" + hp, token)
        }
        if let socket { return (socket.hasPrefix("unix:") ? socket : "unix:" + socket, nil) }
        if let socket = getenv("AXSERVER_SOCKET"), socket.pointee != 0 {
            let socketPath = String(cString: socket)
            return (
                socketPath.hasPrefix("unix:") || socketPath.hasPrefix("tcp:") ? socketPath : "unix:" + socketPath, nil
            )
        }
        return ("unix:" + AXSocketPath.defaultPath(), nil)
    }
}

struct FileOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Work offline on a file: a JSON hierarchy snapshot or an Appium XCUITest XML page source.",
            valueName: "path"), completion: .file(extensions: ["json", "xml"]))
    var file: String?
}

// MARK: - The context a command runs in

final class Context {
    let global: GlobalOptions
    let backend: any Backend
    let palette: Palette
    var json: Bool { global.json }

    /// `operatorToken`: connect as the kiosk's operator (`axquery policy set`).
    init(_ global: GlobalOptions, file: String? = nil, operatorToken: String? = nil) throws(CLIFailure) {
        self.global = global
        self.palette = global.json ? Palette(on: false) : Palette.auto(noColor: global.noColor)
        if let file {
            backend = try Context.offline(file)
        } else {
            let (address, token) = try global.address()
            backend = try RemoteBackend(address: address, token: token, operatorToken: operatorToken)
        }
    }

    static func offline(_ path: String) throws(CLIFailure) -> OfflineBackend {
        let raw = try FileIO.read(path)
        // Page sources saved on Windows or by some Appium clients are UTF-16: read them as their text.
        let bytes: [UInt8]
        do { bytes = try TextEncoding.utf8(raw) } catch {
            throw CLIFailure(Exit.connection, "'\(path)': \(error.message)")
        }
        var offset = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
        while offset < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
        let name = String(path.split(separator: "/").last ?? "file")
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "<") {
            let snapshot: JSON
            do { snapshot = try AppiumConverter.convert(bytes) } catch {
                throw CLIFailure(Exit.connection, error.message)
            }
            return try OfflineBackend(snapshot: snapshot, appName: name)
        }
        let json: JSON
        do { json = try JSON.parse(bytes) } catch {
            throw CLIFailure(Exit.connection, "'\(path)' is neither JSON nor XML: \(error)")
        }
        // Accept a snapshot, or a saved hierarchy.set request / params.
        var snap = json
        if let params = json["params"], params["windows"] != nil { snap = params }
        guard snap["windows"] != nil else {
            throw CLIFailure(
                Exit.connection, "'\(path)' is not a hierarchy snapshot (no \"windows\" array; see Specs/hierarchy.md)")
        }
        return try OfflineBackend(snapshot: snap, appName: name)
    }

    /// Calls a method with `app` filled in; maps errors to CLI failures.
    /// Calls a catalog method (Sources/AXProtocol) with `--app`, when given.
    func call<Spec>(
        _ method: RPCMethod<Spec>, _ params: RPCParams<Spec.Param> = [:], timeout: Duration = .seconds(30)
    ) throws(CLIFailure) -> RPCReply<Spec.Member> {
        RPCReply(try call(method.name, object: params.object, timeout: timeout))
    }

    /// Calls `method` with params built at run time (`axquery do` maps its flags onto the action's params; the
    /// server refuses one the action does not take, naming it).
    func call(_ method: RPCMethodName, object params: JSONObject, timeout: Duration = .seconds(30))
        throws(CLIFailure) -> JSON
    {
        let method = method.rawValue
        var requestParams = params
        if let app = global.app, requestParams[rpcAppParameter] == nil { requestParams[rpcAppParameter] = .string(app) }
        do { return try backend.call(method, .object(requestParams), timeout: timeout) } catch {
            var failure = Context.failure(error)
            // A --root that resolves to nothing (or to several elements) says so.
            if let root = requestParams[RPCCatalog.TreeGet.Param.root.rawValue]?["selector"]?.stringValue,
                let sel = error.data?["selector"]?.stringValue,
                (try? Selector(parsing: root))?.canonical == sel,
                error.code == RPCError.Code.noSuchElement || error.code == RPCError.Code.ambiguousMatch
            {
                failure.message = "--root: " + failure.message
            }
            throw failure
        }
    }

    /// Turns a server error into one clear line plus useful details.
    static func failure(_ error: RPCError) -> CLIFailure {
        let code = Exit.code(for: error)
        var details: [String] = []
        switch error.code {
        case RPCError.Code.invalidSelector:
            if let sel = error.data?["selector"]?.stringValue, let pos = error.data?["position"]?.intValue {
                details = Context.caret(sel, pos)
            }
        case RPCError.Code.ambiguousMatch:
            for candidate in error.data?["candidates"]?.arrayValue ?? [] {
                var line = (candidate["id"]?.stringValue ?? "?") + "  " + (candidate["role"]?.stringValue ?? "")
                if let label = candidate["label"]?.stringValue { line += " " + Render.quoted(label) }
                if let identifier = candidate["identifier"]?.stringValue { line += " " + Render.idSelector(identifier) }
                line += "  " + Render.frame(candidate["frame"])
                details.append(line)
            }
            if let count = error.data?["count"]?.intValue, count > details.count {
                details.append("… and \(count - details.count) more")
            }
        case RPCError.Code.noSuchElement:
            details = Context.nearMissLines(error.data?["explain"])
        case RPCError.Code.timeout:
            if let last = error.data?["lastState"], !last.isNull {
                details.append("last state: " + Render.describe(last, Palette(on: false)))
            } else if error.data?["lastState"] != nil {
                details.append("last state: no element")
            }
        default:
            break
        }
        return CLIFailure(code, error.message, details: details, rpc: error)
    }

    /// `did you mean` lines from a query.explain result.
    static func nearMissLines(_ explain: JSON?) -> [String] {
        guard let explain else { return [] }
        var out: [String] = []
        for chain in explain["chains"]?.arrayValue ?? [] {
            for step in chain["steps"]?.arrayValue ?? [] {
                guard let misses = step["nearMisses"]?.arrayValue, !misses.isEmpty else { continue }
                out.append(
                    "no \(step["description"]?.stringValue ?? "match") at \(step["selector"]?.stringValue ?? "")")
                for miss in misses {
                    let ids = (miss["ids"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
                    out.append(
                        "did you mean: \(miss["description"]?.stringValue ?? "")  (\(miss["change"]?.stringValue ?? ""); \(miss["count"]?.intValue ?? 0) match\(miss["count"]?.intValue == 1 ? "" : "es"): \(ids))"
                    )
                }
            }
        }
        return out
    }

    /// The selector with a caret under the offending character.
    static func caret(_ selector: String, _ position: Int) -> [String] {
        let shown = selector.map { $0 == "\n" || $0 == "\t" ? " " : $0 }
        return [String(shown), String(repeating: " ", count: max(0, min(position, shown.count))) + "^"]
    }

    /// Parses a selector locally (same parser as the server): exit 3 with a caret before any connection.
    static func validate(_ selector: String) throws(CLIFailure) {
        do { _ = try Selector(parsing: selector) } catch {
            throw CLIFailure(
                Exit.invalidSelector, "invalid selector: \(error.message)", details: caret(selector, error.position),
                rpc: RPCError.invalidSelector(
                    error.description,
                    data: [
                        "position": JSON(error.position), "expected": .string(error.expected),
                        "found": .string(error.found), "selector": .string(selector),
                    ]))
        }
    }
}

/// Runs a command body with uniform error reporting.
func runReporting(json: Bool, _ body: () throws -> Void) throws {
    do { try body() } catch let failure as CLIFailure {
        throw failure.report(json: json)
    }
}

/// Parses durations like `5s`, `500ms`, `1.5s`, `2m` (a bare number is seconds).
struct DurationArg: ExpressibleByArgument, CustomStringConvertible, Sendable {
    var milliseconds: Int
    init?(argument: String) {
        let s = argument.lowercased()
        var num = Substring(s)
        var scale = 1000.0
        if s.hasSuffix("ms") {
            num = num.dropLast(2)
            scale = 1
        } else if s.hasSuffix("s") {
            num = num.dropLast(1)
        } else if s.hasSuffix("m") {
            num = num.dropLast(1)
            scale = 60_000
        }
        guard let d = Double(num), d.isFinite, d >= 0, d * scale <= 600_000 else { return nil }
        milliseconds = Int((d * scale).rounded())
    }
    static var defaultCompletionKind: CompletionKind { .list(["500ms", "1s", "5s", "30s"]) }
    var description: String { milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms" }
    var defaultValueDescription: String { description }
}

/// The target of single-element commands: a selector, or `--id`.
func targetJSON(selector: String?, id: String?) throws(CLIFailure) -> JSON {
    if let id { return ["id": .string(id)] }
    guard let selector else { throw CLIFailure(Exit.usage, "give a selector or --id") }
    try Context.validate(selector)
    return ["selector": .string(selector)]
}
