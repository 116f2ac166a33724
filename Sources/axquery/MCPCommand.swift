import AXMCP
import AXProtocol
import ArgumentParser

/// `axquery mcp`: an MCP server on stdin/stdout for agent hosts (Specs/mcp.md), over the running axserver.
struct MCPServe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the Model Context Protocol on stdin/stdout for agents (tools: snapshot, find, click…).",
        discussion: """
            An agent host starts it as {"command": "axquery", "args": ["mcp"]}. It connects to the server like every axquery command (--socket, --tcp with --token-file) on the first tool call, and again after the server restarted. Only MCP messages are written to stdout; it exits when stdin closes. Tools and their schemas: Specs/mcp.md.

            Examples:
              axquery mcp < /dev/null
              axquery mcp --app axserver-demo < /dev/null
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            let (address, token) = try global.address()
            let backend = LiveBackend(address: address, token: token)
            let runner = MCPToolRunner(backend: backend, defaultApp: global.app)
            MCPStdio.run { write in MCPSession(runner: runner, serverVersion: RPCServerInfo.version, write: write) }
        }
    }
}
