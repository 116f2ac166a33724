import AXDBus
import Foundation
import Synchronization
import XCTest

/// End-to-end: an AXDBus connection registers a tiny AT-SPI application with the real registry of a
/// private accessibility stack (Tools/a11y-stack.sh), and the real libatspi client (pyatspi) walks it and
/// performs an action on it. Skipped when at-spi2-core / python3-pyatspi are missing.
final class ATSPIRegistryTests: XCTestCase {
    static let toolsDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tools").path

    var stackDir: String?
    var env: [String: String] = [:]

    override func setUpWithError() throws {
        let stack = Self.toolsDir + "/a11y-stack.sh"
        guard FileManager.default.isExecutableFile(atPath: stack) else {
            throw XCTSkip("Tools/a11y-stack.sh not found")
        }
        guard
            FileManager.default.isExecutableFile(atPath: "/usr/libexec/at-spi2-registryd")
                || FileManager.default.isExecutableFile(atPath: "/usr/lib/at-spi2-core/at-spi2-registryd")
        else {
            throw XCTSkip("at-spi2-core not installed")
        }
        let probe = try run(["/usr/bin/python3", "-c", "import pyatspi"], env: nil)
        guard probe.status == 0 else { throw XCTSkip("python3-pyatspi not installed for /usr/bin/python3") }
        let out = try run([stack, "start"], env: nil)
        guard out.status == 0 else {
            XCTFail("a11y-stack start failed: \(out.stderr)")
            return
        }
        for line in out.stdout.split(separator: "\n") where line.hasPrefix("export ") {
            let kv = line.dropFirst("export ".count)
            guard let eq = kv.firstIndex(of: "=") else { continue }
            env[String(kv[..<eq])] = String(kv[kv.index(after: eq)...]).trimmingCharacters(
                in: CharacterSet(charactersIn: "'"))
        }
        stackDir = env["A11Y_STACK_DIR"]
    }

    override func tearDown() {
        if let stackDir { _ = try? run([Self.toolsDir + "/a11y-stack.sh", "stop", stackDir], env: nil) }
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// posix_spawn + waitpid, output captured in temp files. (Foundation.Process is not used: its
    /// waitUntilExit hung here, and the stack's daemons would inherit and hold open any output pipe.)
    func run(_ argv: [String], env extra: [String: String]?) throws -> Output {
        var info = ProcessInfo.processInfo.environment
        for (k, value) in extra ?? [:] { info[k] = value }
        let tmp = NSTemporaryDirectory() + "axdbus-e2e-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let outPath = tmp + ".out"
        let errPath = tmp + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let cargv: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cenv: [UnsafeMutablePointer<CChar>?] = info.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in cargv { free(pointer) }
            for pointer in cenv { free(pointer) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cargv, cenv)
        guard rc == 0 else { throw DBusError.failed("posix_spawn \(argv[0]) failed: \(rc)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        func read(_ p: String) -> String { (try? String(contentsOfFile: p, encoding: .utf8)) ?? "" }
        return Output(status: code, stdout: read(outPath), stderr: read(errPath))
    }

    func testRegisterWithRealRegistryAndPyatspiWalksIt() throws {
        guard let address = env["AT_SPI_BUS_ADDRESS"] else { return XCTFail("no AT_SPI_BUS_ADDRESS from a11y-stack") }
        let conn = try DBusConnection.open(address: address)
        defer { conn.close() }
        let me = conn.uniqueName
        let rootPath = "/org/a11y/atspi/accessible/root"
        let buttonPath = "/org/a11y/atspi/accessible/1"
        let desktop = Mutex<(String, String)>(("", "/org/a11y/atspi/null"))
        let appId = Mutex<Int32>(0)
        let actions = Collector<String>()
        let calls = Collector<String>()

        let props = DBusProperties(
            get: { msg, iface, name in
                let isRoot = msg.hasPath(rootPath)
                guard isRoot || msg.hasPath(buttonPath) else { throw DBusError.unknownObject(path: msg.path) }
                switch (iface, name) {
                case ("org.a11y.atspi.Accessible", "Name"): return .string(isRoot ? "axdbus-e2e" : "Hello button")
                case ("org.a11y.atspi.Accessible", "Description"): return .string("")
                case ("org.a11y.atspi.Accessible", "Locale"): return .string("C")
                case ("org.a11y.atspi.Accessible", "AccessibleId"): return .string(isRoot ? "" : "hello")
                case ("org.a11y.atspi.Accessible", "HelpText"): return .string("")
                case ("org.a11y.atspi.Accessible", "ChildCount"): return .int32(isRoot ? 1 : 0)
                case ("org.a11y.atspi.Accessible", "Parent"):
                    let reference = desktop.withLock { $0 }
                    return isRoot ? .reference(reference.0, reference.1) : .reference(me, rootPath)
                case ("org.a11y.atspi.Application", "ToolkitName") where isRoot: return .string("AXDBusTest")
                case ("org.a11y.atspi.Application", "Version") where isRoot: return .string("1")
                case ("org.a11y.atspi.Application", "AtspiVersion") where isRoot: return .string("2.1")
                case ("org.a11y.atspi.Application", "Id") where isRoot: return .int32(appId.withLock { $0 })
                case ("org.a11y.atspi.Action", "NActions") where !isRoot: return .int32(1)
                default: throw DBusError.unknownProperty(name, interface: iface)
                }
            },
            getAll: { _, _ in [] },
            set: { msg, iface, name, value in
                guard msg.hasPath(rootPath), iface == "org.a11y.atspi.Application", name == "Id",
                    let int32Value = value.int32Value
                else {
                    throw DBusError.propertyReadOnly(name, interface: iface)
                }
                appId.withLock { $0 = int32Value }
            })
        try conn.export(
            path: "/org/a11y/atspi/accessible", fallback: true, standard: DBusStandardInterfaces(properties: props)
        ) { msg in
            let isRoot = msg.hasPath(rootPath)
            guard isRoot || msg.hasPath(buttonPath) else { return .error(.unknownObject(path: msg.path)) }
            calls.add(msg.member ?? "")
            let iface = msg.interface ?? ""
            switch (iface, msg.member ?? "") {
            case ("org.a11y.atspi.Accessible", "GetRole"):
                return .reply(msg.makeReply { $0.append(UInt32(isRoot ? 75 : 43)) })
            case ("org.a11y.atspi.Accessible", "GetState"):
                // enabled(8) sensitive(24) showing(25) visible(30); the button is also focusable(11)
                let w0: UInt32 = (1 << 8) | (1 << 24) | (1 << 25) | (1 << 30) | (isRoot ? 0 : 1 << 11)
                return .reply(msg.makeReply { $0.appendArray([w0, 0] as [UInt32]) })
            case ("org.a11y.atspi.Accessible", "GetInterfaces"):
                let list =
                    isRoot
                    ? ["org.a11y.atspi.Accessible", "org.a11y.atspi.Application"]
                    : ["org.a11y.atspi.Accessible", "org.a11y.atspi.Action"]
                return .reply(
                    msg.makeReply { writer in writer.array("s") { for state in list { writer.append(state) } } })
            case ("org.a11y.atspi.Accessible", "GetChildAtIndex"):
                try msg.requireSignature("i")
                let reader = try msg.reader().readInt32()
                guard isRoot, reader == 0 else { throw DBusError.invalidArgs("index \(reader) out of range") }
                return .reply(msg.makeReply { $0.appendReference(bus: me, path: buttonPath) })
            case ("org.a11y.atspi.Accessible", "GetChildren"):
                return .reply(
                    msg.makeReply { writer in
                        writer.array("(so)") { if isRoot { writer.appendReference(bus: me, path: buttonPath) } }
                    })
            case ("org.a11y.atspi.Accessible", "GetIndexInParent"):
                return .reply(msg.makeReply { $0.append(Int32(isRoot ? -1 : 0)) })
            case ("org.a11y.atspi.Accessible", "GetAttributes"):
                return .reply(
                    msg.makeReply { writer in
                        writer.array("{ss}") {
                            writer.dictEntry {
                                writer.append("toolkit")
                                writer.append("AXDBusTest")
                            }
                        }
                    })
            case ("org.a11y.atspi.Accessible", "GetRelationSet"):
                return .reply(msg.makeReply { $0.array("(ua(so))") {} })
            case ("org.a11y.atspi.Accessible", "GetApplication"):
                return .reply(msg.makeReply { $0.appendReference(bus: me, path: rootPath) })
            case ("org.a11y.atspi.Action", "GetName") where !isRoot,
                ("org.a11y.atspi.Action", "GetLocalizedName") where !isRoot:
                return .reply(msg.makeReply { $0.append("click") })
            case ("org.a11y.atspi.Action", "GetDescription") where !isRoot,
                ("org.a11y.atspi.Action", "GetKeyBinding") where !isRoot:
                return .reply(msg.makeReply { $0.append("") })
            case ("org.a11y.atspi.Action", "DoAction") where !isRoot:
                try msg.requireSignature("i")
                actions.add("DoAction \(try msg.reader().readInt32())")
                return .reply(msg.makeReply { $0.append(true) })
            default:
                return .error(.unknownMethod(for: msg))
            }
        }
        // Embed (what every toolkit does after exporting its root).
        let embed = try conn.call(
            destination: "org.a11y.atspi.Registry", path: rootPath, interface: "org.a11y.atspi.Socket",
            member: "Embed", timeoutMilliseconds: 5_000
        ) { $0.appendReference(bus: me, path: rootPath) }
        try embed.requireSignature("(so)")
        let reference = try embed.reader().readReference()
        XCTAssertFalse(reference.bus.isEmpty)
        XCTAssertEqual(reference.path, rootPath)
        desktop.withLock { $0 = (reference.bus, reference.path) }

        let script = """
            import pyatspi
            d = pyatspi.Registry.getDesktop(0)
            app = next(a for a in d if a and a.name == 'axdbus-e2e')
            print('APP', app.name, app.getRoleName(), app.childCount)
            b = app.getChildAtIndex(0)
            print('CHILD', b.name, b.getRoleName(), b.getIndexInParent(), b.parent.name)
            print('STATES', sorted(s.value_nick for s in b.getState().getStates()))
            act = b.queryAction()
            print('ACTION', act.nActions, act.getName(0), act.doAction(0))
            """
        let out = try run(["/usr/bin/python3", "-c", script], env: env)
        XCTAssertEqual(out.status, 0, out.stderr)
        let lines = out.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("APP axdbus-e2e application 1"), out.stdout + out.stderr)
        XCTAssertTrue(lines.contains("CHILD Hello button push button 0 axdbus-e2e"), out.stdout + out.stderr)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("STATES") && $0.contains("'focusable'") && $0.contains("'showing'") },
            out.stdout)
        XCTAssertTrue(lines.contains("ACTION 1 click True"), out.stdout + out.stderr)
        XCTAssertEqual(actions.all, ["DoAction 0"])
        // The registry's desktop lists our root among its children (a(so) read from a real peer).
        let kids = try conn.call(
            destination: "org.a11y.atspi.Registry", path: rootPath, interface: "org.a11y.atspi.Accessible",
            member: "GetChildren", timeoutMilliseconds: 5_000
        ).reader().readReferences()
        XCTAssertTrue(kids.contains { $0.bus == me && $0.path == rootPath }, "\(kids)")
        // Newer registries (2.5x+) also Set Application.Id fire-and-forget; the 2.46 one may not.
        if appId.withLock({ $0 }) != 0 { print("registry set Application.Id = \(appId.withLock { $0 })") }
        XCTAssertTrue(calls.all.contains("GetRole"))
    }
}
