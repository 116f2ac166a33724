import AXJSON

/// Where and why a trace stops being readable (Specs/trace.md, section Readers). Every step before it was read.
package enum TraceProblem: Error, Sendable, Equatable {
    /// An empty file, or line 1 is not a header.
    case notATrace
    /// The header's `axtrace` is newer than this reader's format.
    case newerVersion(Int)
    /// Line `line` does not parse or is out of sequence.
    case badLine(line: Int, why: String)
    /// No end line: the recorder stopped mid-run after `afterStep` steps.
    case noEnd(afterStep: Int)
    /// The file is larger than a reader reads; lines up to `line` were read.
    case tooLarge(line: Int, limit: Int)

    /// The reader's message, as Specs/trace.md words it.
    package var message: String {
        switch self {
        case .notATrace: "not an AXServer trace (no header line)"
        case .newerVersion(let version):
            "trace format \(version) is newer than this reader (\(TraceFormat.version)): update axclient / axquery"
        case .badLine(let line, let why): "line \(line): \(why)"
        case .noEnd(let step):
            "the trace ends after step \(step) without its end line (the recorder stopped mid-run)"
        case .tooLarge(let line, let limit):
            "line \(line): the file is larger than \(limit >> 20) MiB; the steps before it are shown"
        }
    }

    /// Whether the trace is broken (not merely unfinished).
    package var isBroken: Bool {
        if case .noEnd = self { return false }
        return true
    }
}

/// A trace as read: the header, the steps before the first problem, the end line, and the problem.
package struct TraceReading: Sendable {
    package var header: JSONObject?
    package var steps: [JSONObject] = []
    package var end: JSONObject?
    package var problem: TraceProblem?

    /// Reads a whole trace file's bytes. Never traps: every line is bounded and checked, and the first problem
    /// ends the reading (lines after it are not read).
    package init(bytes: [UInt8], truncatedAt limit: Int? = nil) {
        // A file read only up to `limit`: its last, cut line is not read.
        let whole = limit == nil ? bytes : Array(bytes[..<((bytes.lastIndex(of: 0x0A) ?? -1) + 1)])
        var reader = LineCursor(bytes: whole)
        var number = 0
        while let line = reader.next() {
            number += 1
            if let problem = take(line, number: number, complete: line.hasNewline) {
                self.problem = problem
                return
            }
        }
        if let limit {
            problem = .tooLarge(line: number + 1, limit: limit)
        } else if header == nil {
            problem = .notATrace
        } else if end == nil {
            problem = .noEnd(afterStep: steps.count)
        }
    }

    /// Takes one line; the problem it is, if any.
    private mutating func take(_ line: Line, number: Int, complete: Bool) -> TraceProblem? {
        if line.bytes.count > TraceFormat.maxLineBytes {
            return header == nil
                ? .notATrace
                : .badLine(line: number, why: "longer than \(TraceFormat.maxLineBytes >> 20) MiB")
        }
        let parsed: JSON
        do { parsed = try JSON.parse(Array(line.bytes)) } catch {
            if header == nil { return .notATrace }
            let cut = complete ? "" : " (the line is cut off: the file ends inside it)"
            return .badLine(line: number, why: "not JSON: \(error)\(cut)")
        }
        guard case .object(let object) = parsed else {
            return header == nil ? .notATrace : .badLine(line: number, why: "not a JSON object")
        }
        guard header != nil else { return takeHeader(object) }
        if end != nil { return .badLine(line: number, why: "a line after the end line") }
        if object["end"] == .bool(true) {
            end = object
            return nil
        }
        return takeStep(object, number: number)
    }

    private mutating func takeHeader(_ object: JSONObject) -> TraceProblem? {
        guard let version = object["axtrace"]?.intValue, version >= 1 else { return .notATrace }
        if version > TraceFormat.version { return .newerVersion(version) }
        header = object
        return nil
    }

    private mutating func takeStep(_ object: JSONObject, number: Int) -> TraceProblem? {
        guard let step = object["step"]?.intValue else {
            return .badLine(line: number, why: "neither a step (no integer \"step\") nor the end line")
        }
        let expected = steps.count + 1
        guard step == expected else {
            return .badLine(line: number, why: "step \(step) where step \(expected) was expected")
        }
        guard let kind = object["kind"]?.stringValue, TraceStepKind(rawValue: kind) != nil else {
            let accepted = TraceStepKind.allCases.map(\.rawValue).joined(separator: ", ")
            return .badLine(line: number, why: "step \(step) has no kind of \(accepted)")
        }
        steps.append(object)
        return nil
    }
}

/// One line of a file, without its `\n` (and a trailing `\r`).
struct Line {
    var bytes: ArraySlice<UInt8>
    var hasNewline: Bool
    var isEmpty: Bool { bytes.isEmpty }
}

/// Splits bytes into lines.
struct LineCursor {
    let bytes: [UInt8]
    var offset = 0
    var atEnd: Bool { offset >= bytes.count }

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> Line? {
        guard offset < bytes.count else { return nil }
        let start = offset
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        let hasNewline = end < bytes.count
        offset = hasNewline ? end + 1 : end
        var lineEnd = end
        if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        return Line(bytes: bytes[start..<lineEnd], hasNewline: hasNewline)
    }
}
