import AXTrace
import ArgumentParser

/// `axquery trace`: read accessibility traces (Specs/trace.md).
struct Trace: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read an accessibility trace: print its steps as text, or replay it against a running app.",
        discussion: """
            A trace (*.axtrace, Specs/trace.md) is written by 'axquery record', 'axquery mcp --trace', the pytest plugin (--ax-trace) and the clients' start_trace/stop_trace. 'python3 -m axclient.trace view FILE' makes its HTML viewer.

            Examples:
              axquery record run.axtrace -- axquery count tab
              axquery trace show run.axtrace
              axquery trace replay run.axtrace
            """,
        subcommands: [TraceShow.self, TraceReplayCommand.self])
}

/// `axquery trace show FILE`.
struct TraceShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a trace's steps as text (for terminals and CI logs).",
        discussion: """
            One block per step: the kind, method and params, when and how long, the element it aimed at, the revision before → after, the diff (+ added, - removed, > moved, ~ updated), focus before → after (accessibility and engine), the events, the error or the result. A trace that breaks (a line that does not parse, a step out of sequence, a newer format, not a trace) is shown up to where it breaks, and the place and reason go to stderr (exit 5). A trace without its end line (the recorder stopped mid-run) is shown whole with a note on stderr (exit 0).

            Examples:
              axquery record run.axtrace -- axquery count tab
              axquery trace show run.axtrace
            """)

    @Argument(help: ArgumentHelp("The trace file.", valueName: "file"), completion: .file(extensions: ["axtrace"]))
    var file: String

    func run() throws {
        let reading: TraceReading
        do { reading = try TraceFile.read(file) } catch {
            Out.err(error.message)
            throw ExitCode(Exit.connection)
        }
        for line in TraceText.lines(reading) { Out.write(line + "\n") }
        guard let problem = reading.problem else { return }
        Out.err("'\(file)': " + problem.message)
        if problem.isBroken { throw ExitCode(Exit.connection) }
    }
}
