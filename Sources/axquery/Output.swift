import AXJSON
import AXQuery
import AXRPC
import ArgumentParser

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
    static func code(for e: RPCError) -> Int32 {
        switch e.code {
        case RPCError.Code.noSuchElement, RPCError.Code.staleElement: return noMatch
        case RPCError.Code.ambiguousMatch: return ambiguous
        case RPCError.Code.invalidSelector: return invalidSelector
        case RPCError.Code.timeout: return timeout
        case RPCError.Code.unauthorized, RPCError.Code.appNotResponding: return connection
        case RPCError.Code.invalidParams where e.data?["param"]?.stringValue == "app": return connection
        default: return refused
        }
    }
}

/// Writes to stdout / stderr without Foundation. Lines go out whole (stdout is flushed per line when streaming).
enum Out {
    /// Writes all bytes to a file descriptor (unbuffered: nothing to flush at exit or on SIGINT).
    static func writeAll(_ fd: Int32, _ s: String) {
        var s = s
        s.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                #if canImport(Darwin)
                    let n = Darwin.write(fd, buf.baseAddress! + off, buf.count - off)
                #else
                    let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                #endif
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                off += n
            }
        }
    }
    static func line(_ s: String) { writeAll(1, s + "\n") }
    static func flush() {}
    static func write(_ s: String) { writeAll(1, s) }
    static func err(_ s: String) { writeAll(2, "axquery: " + s + "\n") }
    static func errRaw(_ s: String) { writeAll(2, s + "\n") }
    static func json(_ j: JSON, pretty: Bool = true) {
        line(pretty ? j.prettyString(indent: 2) : j.jsonString)
    }
}

/// ANSI colours for the text tree (only when stdout is a terminal, unless --no-color).
struct Palette: Sendable {
    var on: Bool
    func wrap(_ s: String, _ code: String) -> String { on ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
    func role(_ s: String) -> String { wrap(s, "1;36") }
    func label(_ s: String) -> String { wrap(s, "32") }
    func value(_ s: String) -> String { wrap(s, "33") }
    func ident(_ s: String) -> String { wrap(s, "35") }
    func dim(_ s: String) -> String { wrap(s, "2") }
    func flag(_ s: String) -> String { wrap(s, "31") }

    static func auto(noColor: Bool) -> Palette {
        if noColor { return Palette(on: false) }
        if let v = getenv("NO_COLOR"), v.pointee != 0 { return Palette(on: false) }
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
        var e: JSONObject = ["message": .string(message), "exitCode": JSON(Int(exitCode))]
        if let rpc {
            e["code"] = JSON(rpc.code)
            if let k = rpc.kind { e["kind"] = .string(k) }
            if let d = rpc.data { e["data"] = d }
        } else {
            e["kind"] = .string(Exit.kindName(exitCode))
        }
        return ["error": .object(e)]
    }

    func report(json: Bool) -> ExitCode {
        if json && !suppressJSON { Out.json(self.json) }
        Out.err(message)
        for d in details { Out.errRaw("  " + d) }
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
    static func quoted(_ s: String) -> String {
        var o = "\""
        for c in s {
            switch c {
            case "\"": o += "\\\""
            case "\\": o += "\\\\"
            case "\n": o += "\\n"
            case "\t": o += "\\t"
            default: o.append(c)
            }
        }
        return o + "\""
    }

    /// Integers bare, other numbers to at most 2 decimals (frames from layout maths: 135.33333333333331 → 135.33).
    static func number(_ d: Double) -> String {
        guard d.isFinite else { return String(d) }
        let r = (d * 100).rounded() / 100
        if r == r.rounded(), abs(r) < 1e15 { return String(Int(r)) }
        return String(r)
    }

    /// `#name`, or `#"a.b"` when the identifier needs quoting, so the output can be pasted into a selector.
    static func idSelector(_ ident: String) -> String {
        let bare =
            ident.unicodeScalars.allSatisfy {
                ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
            }
            && !(ident.unicodeScalars.first.map { ("0"..."9").contains($0) || $0 == "-" } ?? true)
        return "#" + (bare ? ident : quoted(ident))
    }

    static func frame(_ f: JSON?) -> String {
        guard let f else { return "" }
        let x = f["x"]?.doubleValue ?? 0
        let y = f["y"]?.doubleValue ?? 0
        let w = f["width"]?.doubleValue ?? 0
        let h = f["height"]?.doubleValue ?? 0
        return "(\(number(x)),\(number(y)) \(number(w))x\(number(h)))"
    }

    static let quietStates: Set<String> = ["enabled", "onscreen", "respondsToUserInteraction", "focusable"]

    /// `button "Wi-Fi" value="on" #cell.wifi [selected]` from an element's wire JSON.
    static func describe(_ e: JSON, _ p: Palette) -> String {
        var s = p.role(e["role"]?.stringValue ?? "?")
        if let l = e["label"]?.stringValue { s += " " + p.label(quoted(l)) }
        if let v = e["value"]?.stringValue { s += " value=" + p.value(quoted(v)) }
        if let i = e["identifier"]?.stringValue, !i.isEmpty { s += " " + p.ident(idSelector(i)) }
        if let ph = e["placeholder"]?.stringValue { s += " placeholder=" + quoted(ph) }
        var flags: [String] = []
        let states = (e["states"]?.arrayValue ?? []).compactMap(\.stringValue)
        if !states.contains("enabled") { flags.append("disabled") }
        for st in states where !quietStates.contains(st) { flags.append(st) }
        if !states.contains("onscreen") { flags.append("offscreen") }
        if !flags.isEmpty { s += " " + p.flag("[" + flags.joined(separator: ",") + "]") }
        if let h = e["headingLevel"]?.intValue { s += " level=\(h)" }
        if let ca = e["customActions"]?.arrayValue, !ca.isEmpty {
            s += " actions=[" + ca.compactMap { $0["name"]?.stringValue }.joined(separator: ", ") + "]"
        }
        return s
    }

    /// One line per element in lists: `id  description  (frame)`.
    static func listLine(_ e: JSON, _ p: Palette) -> String {
        let id = e["id"]?.stringValue ?? "?"
        return p.dim(id) + "  " + describe(e, p) + "  " + p.dim(frame(e["frame"]))
    }
}
