import AXCore
import AXJSON
import AXJSONRPC
import AXProtocol
import AXQuery
import ArgumentParser
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The documented exit codes (Specs/axquery.md §Exit codes).
enum Exit {
    static let ok: Int32 = 0
    static let noMatch: Int32 = 1
    static let ambiguous: Int32 = 2
    static let invalidSelector: Int32 = 3
    static let timeout: Int32 = 4
    static let connection: Int32 = 5
    /// The server refused the request for another reason (not interactable, unsupported, policy, bad argument).
    static let refused: Int32 = 6
    /// ArgumentParser's own code for a command line that does not parse.
    static let usage: Int32 = 64

    /// Maps a JSON-RPC error to an exit code.
    static func code(for error: RPCError) -> Int32 {
        switch error.code {
        case RPCError.Code.noSuchElement, RPCError.Code.staleElement: return noMatch
        case RPCError.Code.ambiguousMatch: return ambiguous
        case RPCError.Code.invalidSelector: return invalidSelector
        case RPCError.Code.timeout: return timeout
        case RPCError.Code.unauthorized, RPCError.Code.appNotResponding, RPCError.Code.noServer: return connection
        case RPCError.Code.invalidParams where error.data?["param"]?.stringValue == "app": return connection
        default: return refused
        }
    }
}

/// Writes to stdout / stderr without Foundation. Lines go out whole (stdout is flushed per line when streaming).
enum Out {
    /// Writes all bytes to a file descriptor (unbuffered: nothing to flush at exit or on SIGINT).
    static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                #if canImport(Darwin)
                    let written = Darwin.write(fd, buf.baseAddress! + off, buf.count - off)
                #else
                    let written = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE && fd == 1 { stdoutClosed.store(true, ordering: .releasing) }
                    return
                }
                off += written
            }
        }
    }
    /// Set when a write to stdout failed with EPIPE: nobody reads it any more (`axquery watch | head -1`).
    static let stdoutClosed = Atomic<Bool>(false)

    /// Calls `closed` once stdout's reader goes away (a pipe whose read end closed reports POLLERR/POLLHUP on
    /// ours), so a streaming command ends even when it has nothing to write. Waits on a Dispatch thread in
    /// `poll`, woken only by that; a terminal or a file never reports it, and the wait ends with the process.
    static func whenStdoutCloses(_ closed: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async {
            var descriptor = pollfd(fd: 1, events: 0, revents: 0)
            while true {
                let ready = poll(&descriptor, 1, -1)
                if ready < 0 && errno == EINTR { continue }
                if ready < 0 { return }  // cannot watch stdout: the stream ends by its other rules
                if descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { break }
            }
            stdoutClosed.store(true, ordering: .releasing)
            closed()
        }
    }

    static func line(_ text: String) { writeAll(1, text + "\n") }
    static func flush() {}
    static func write(_ text: String) { writeAll(1, text) }
    static func err(_ text: String) { writeAll(2, "axquery: " + text + "\n") }
    static func errRaw(_ text: String) { writeAll(2, text + "\n") }
    static func json(_ json: JSON, pretty: Bool = true) {
        line(pretty ? json.prettyString(indent: 2) : json.jsonString)
    }
    /// A method's answer as it came.
    static func json<Member>(_ reply: RPCReply<Member>) { json(reply.json) }
}

/// ANSI colours for the text tree (only when stdout is a terminal, unless --no-color).
struct Palette: Sendable {
    var on: Bool
    func wrap(_ text: String, _ code: String) -> String { on ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func role(_ text: String) -> String { wrap(text, "1;36") }
    func label(_ text: String) -> String { wrap(text, "32") }
    func value(_ text: String) -> String { wrap(text, "33") }
    func ident(_ text: String) -> String { wrap(text, "35") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func flag(_ text: String) -> String { wrap(text, "31") }

    static func auto(noColor: Bool) -> Palette {
        if noColor { return Palette(on: false) }
        if let noColorValue = getenv("NO_COLOR"), noColorValue.pointee != 0 { return Palette(on: false) }
        return Palette(on: isatty(1) != 0)
    }
}

/// A failure the CLI reports: one line on stderr (plus optional detail lines), an exit code, and — with
/// --json — a structured error object on stdout.
struct CLIFailure: Error {
    var exitCode: Int32
    var message: String
    var details: [String] = []
    var rpc: RPCError?
    /// The JSON result was printed already (--json): report on stderr only.
    var suppressJSON = false

    init(_ exitCode: Int32, _ message: String, details: [String] = [], rpc: RPCError? = nil) {
        self.exitCode = exitCode
        self.message = message
        self.details = details
        self.rpc = rpc
    }

    var json: JSON {
        var error: JSONObject = ["message": .string(message), "exitCode": JSON(Int(exitCode))]
        if let rpc {
            error["code"] = JSON(rpc.code)
            if let kind = rpc.kind { error["kind"] = .string(kind) }
            if let data = rpc.data { error["data"] = data }
        } else {
            error["kind"] = .string(Exit.kindName(exitCode))
        }
        return ["error": .object(error)]
    }

    func report(json: Bool) -> ExitCode {
        if json && !suppressJSON { Out.json(self.json) }
        Out.err(message)
        for detail in details { Out.errRaw("  " + detail) }
        return ExitCode(exitCode)
    }
}

extension Exit {
    static func kindName(_ code: Int32) -> String {
        switch code {
        case noMatch: return "no match"
        case ambiguous: return "ambiguous"
        case invalidSelector: return "invalid selector"
        case timeout: return "timeout"
        case connection: return "connection"
        case usage: return "usage"
        default: return "refused"
        }
    }
}

/// Human-readable pieces shared by the commands.
enum Render {
    static func quoted(_ text: String) -> String {
        var quotedText = "\""
        for character in text {
            switch character {
            case "\"": quotedText += "\\\""
            case "\\": quotedText += "\\\\"
            case "\n": quotedText += "\\n"
            case "\t": quotedText += "\\t"
            default: quotedText.append(character)
            }
        }
        return quotedText + "\""
    }

    /// Integers bare, other numbers to at most 2 decimals (frames from layout maths: 135.33333333333331 → 135.33).
    static func number(_ number: Double) -> String {
        guard number.isFinite else { return String(number) }
        let rounded = (number * 100).rounded() / 100
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }

    /// `#name`, or `#"a.b"` when the identifier needs quoting, so the output can be pasted into a selector.
    static func idSelector(_ ident: String) -> String { TreeText.idSelector(ident) }

    static func frame(_ frame: JSON?) -> String {
        guard let frame else { return "" }
        let x = frame["x"]?.doubleValue ?? 0
        let y = frame["y"]?.doubleValue ?? 0
        let width = frame["width"]?.doubleValue ?? 0
        let height = frame["height"]?.doubleValue ?? 0
        return "(\(number(x)),\(number(y)) \(number(width))x\(number(height)))"
    }

    static let quietStates: Set<String> = ["enabled", "onscreen", "respondsToUserInteraction", "focusable"]

    /// `button "Wi-Fi" value="on" #cell.wifi [selected]` from an element's wire JSON.
    static func describe(_ element: JSON, _ palette: Palette) -> String {
        var text = palette.role(element["role"]?.stringValue ?? "?")
        if let label = element["label"]?.stringValue { text += " " + palette.label(quoted(label)) }
        if let value = element["value"]?.stringValue { text += " value=" + palette.value(quoted(value)) }
        if let identifier = element["identifier"]?.stringValue, !identifier.isEmpty {
            text += " " + palette.ident(idSelector(identifier))
        }
        if let ph = element["placeholder"]?.stringValue { text += " placeholder=" + quoted(ph) }
        var flags: [String] = []
        // An element without `states` (a rotor item, a focus answer) says nothing about them: no flags, rather than
        // reading the absence as "neither enabled nor on screen".
        if let stateList = element["states"]?.arrayValue {
            let states = stateList.compactMap(\.stringValue)
            if !states.contains("enabled") { flags.append("disabled") }
            for st in states where !quietStates.contains(st) { flags.append(st) }
            if !states.contains("onscreen") { flags.append("offscreen") }
        }
        if !flags.isEmpty { text += " " + palette.flag("[" + flags.joined(separator: ",") + "]") }
        if let level = element["headingLevel"]?.intValue { text += " level=\(level)" }
        if let ca = element["customActions"]?.arrayValue, !ca.isEmpty {
            text += " actions=[" + ca.compactMap { $0["name"]?.stringValue }.joined(separator: ", ") + "]"
        }
        return text
    }

    /// One line per element in lists: `id  description  (frame)`.
    static func listLine(_ element: JSON, _ palette: Palette) -> String {
        let id = element["id"]?.stringValue ?? "?"
        return palette.dim(id) + "  " + describe(element, palette) + "  " + palette.dim(frame(element["frame"]))
    }
}
