import AXMCP
import AXProtocol
import AXTrace
import ArgumentParser

/// `axquery mcp`: an MCP server on stdin/stdout for agent hosts (Specs/mcp.md), over the running axserver.
struct MCPServe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the Model Context Protocol on stdin/stdout for agents (tools: snapshot, find, click…).",
        discussion: """
            An agent host starts it as {"command": "axquery", "args": ["mcp"]}. It connects to the server like every axquery command (--socket, --tcp with --token-file) on the first tool call, and again after the server restarted. Only MCP messages are written to stdout; it exits when stdin closes. Tools and their schemas: Specs/mcp.md. With --trace FILE every tool call is appended to FILE as a step of an accessibility trace (Specs/trace.md): the tool and its arguments, revision, diff and focus before and after, its answer or error, its time; 'axquery trace show FILE' prints it.

            Examples:
              axquery mcp < /dev/null
              axquery mcp --app axserver-demo < /dev/null
              axquery mcp --trace session.axtrace < /dev/null
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        help: ArgumentHelp("Record every tool call into this trace file (Specs/trace.md).", valueName: "file"),
        completion: .file(extensions: ["axtrace"]))
    var trace: String?

    func run() throws {
        try runReporting(json: global.json) {
            let (address, token) = try global.address()
            let backend = LiveBackend(address: address, token: token)
            var recorder: TraceRecorder?
            if let trace {
                var header = TraceHeader(
                    source: .mcp, title: "axquery mcp" + (global.app.map { " --app " + $0 } ?? ""),
                    started: TraceFile.rfc3339Now(), producer: "axquery " + RPCServerInfo.version)
                header.pictures = false
                do { recorder = try TraceRecorder(path: trace, header: header) } catch {
                    throw CLIFailure(Exit.connection, "\(error)")
                }
            }
            let runner = MCPToolRunner(backend: backend, defaultApp: global.app, recorder: recorder)
            MCPStdio.run { write in MCPSession(runner: runner, serverVersion: RPCServerInfo.version, write: write) }
            recorder?.finish()
        }
    }
}
