import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `axquery listen`: a real screen reader in the loop from the command line. It runs the Python client's
/// `python3 -m axclient.listen` (the same code as the pytest fixture `screen_reader`, Specs/python-client.md
/// §Screen reader), with the package, `axserver` and `Tools/a11y-stack.sh` found next to this binary.
struct Listen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a private AT-SPI stack, an axserver and a headless Orca; press keys; print what Orca said.",
        discussion: """
            Everything runs on its own session bus, accessibility bus, X display and HOME: the user's own Orca and desktop bus are not touched, and everything started is stopped by PID at the end (also on Ctrl-C). Keys go through input.key, so Orca hears each one first, as from a keyboard. Prints 'READY socket=PATH', then one line per key: the chord and Orca's utterances. With --seconds, keeps printing Orca's speech while another shell drives the socket (axquery --socket PATH key Tab). Needs Orca and Xvfb (Tools/install-deps.sh) and the checkout's Sources/PythonClient (or $AXCLIENT_PATH). Exits 5 when the screen reader cannot start.

            Examples:
              axquery listen --keys Tab,Tab,space
              axquery listen --keys 'Tab,Orca+Shift+A' --json
              axquery listen --orca 48 --keys Tab,Tab,KP_Enter
            """)
    @Option(help: "Comma-separated key chords to press in order (Tab, Shift+Tab, space, Orca+Shift+A, ...).")
    var keys: String = ""
    @Option(help: "Then keep printing Orca's speech this many seconds (0: stop after the keys).")
    var seconds: Double = 0
    @Flag(name: .customLong("no-demo"), help: "Serve no app (connect your own provider to the printed socket).")
    var noDemo = false
    @Flag(help: "Print the transcript as JSON.") var json = false
    @Option(name: .customLong("orca-timeout"), help: "How long Orca may take to start, in seconds.")
    var orcaTimeout: Double = 20
    @Option(
        help: """
            Which Orca: 43 (the system's, default), 48 (Orca 48 on at-spi2-core 2.56, Tools/install-orca48.sh) or an \
            install-orca48 prefix (Specs/decisions.md D-ORCA48-1).
            """)
    var orca: String?

    func run() throws {
        let executable = ListenLocations.executablePath()
        let binDirectory = (executable as NSString).deletingLastPathComponent
        guard let package = ListenLocations.pythonPackage(from: binDirectory) else {
            Out.err(
                "cannot find the Python client (axclient): set AXCLIENT_PATH to the checkout's Sources/PythonClient")
            throw ExitCode(Exit.connection)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = package + (environment["PYTHONPATH"].map { ":" + $0 } ?? "")
        if environment["AXSERVER_BIN"] == nil { environment["AXSERVER_BIN"] = binDirectory }
        if environment["AXSERVER_A11Y_STACK"] == nil, let stack = ListenLocations.stackScript(from: binDirectory) {
            environment["AXSERVER_A11Y_STACK"] = stack
        }
        guard let python = ListenLocations.python(environment["PATH"] ?? "/usr/bin:/bin") else {
            Out.err("cannot find python3 (Debian's /usr/bin/python3, or python3 on PATH)")
            throw ExitCode(Exit.connection)
        }
        var arguments = [python, "-m", "axclient.listen", "--keys", keys, "--seconds", String(seconds)]
        arguments += ["--orca-timeout", String(orcaTimeout)]
        if let orca { arguments += ["--orca", orca] }
        if noDemo { arguments.append("--no-demo") }
        if json { arguments.append("--json") }
        let cArguments = arguments.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve(python, cArguments, cEnvironment)
        Out.err("cannot run \(python): \(String(cString: strerror(errno)))")
        throw ExitCode(Exit.connection)
    }
}

/// Where `axquery listen` finds what it runs: in the checkout that built the binary, or in an installed tree.
enum ListenLocations {
    /// This process's executable with symlinks resolved.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Debian's `/usr/bin/python3` (it has what the stack needs), else the first `python3` on `searchPath`.
    static func python(_ searchPath: String) -> String? {
        let candidates = ["/usr/bin"] + searchPath.split(separator: ":").map(String.init)
        return candidates.map { $0 + "/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `$AXCLIENT_PATH`, else `Sources/PythonClient` (or `share/axserver/python`) in an ancestor of `start`.
    static func pythonPackage(from start: String) -> String? {
        if let explicit = ProcessInfo.processInfo.environment["AXCLIENT_PATH"], !explicit.isEmpty { return explicit }
        return ancestor(of: start, holding: ["Sources/PythonClient", "share/axserver/python"]) {
            FileManager.default.fileExists(atPath: $0 + "/axclient/listen.py")
        }
    }

    /// `Tools/a11y-stack.sh` (or `share/axserver/Tools/a11y-stack.sh`) in an ancestor of `start`.
    static func stackScript(from start: String) -> String? {
        ancestor(of: start, holding: ["Tools/a11y-stack.sh", "share/axserver/Tools/a11y-stack.sh"]) {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    static func ancestor(of start: String, holding paths: [String], accept: (String) -> Bool) -> String? {
        var folder = start
        while !folder.isEmpty {
            for path in paths where accept(folder + "/" + path) { return folder + "/" + path }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder { break }
            folder = parent
        }
        return nil
    }
}
