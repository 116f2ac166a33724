import AXJSON

/// A trace as text for terminals and CI logs (`axquery trace show`): the header, one block per step, the end.
/// Pure: the caller prints the lines.
package enum TraceText {
    /// Diff ids listed per kind of change before "… N more".
    static let idsShown = 8
    /// Characters of params and results shown.
    static let valueChars = 160

    /// The lines of `reading` (its problem is not among them: the caller says it where errors go).
    package static func lines(_ reading: TraceReading) -> [String] {
        var out: [String] = []
        if let header = reading.header { out.append(headerLine(header)) }
        for step in reading.steps { out += stepLines(step) }
        if let end = reading.end { out.append(endLine(end)) }
        return out
    }

    static func headerLine(_ header: JSONObject) -> String {
        let source = header["source"]?.stringValue ?? "?"
        let title = header["title"]?.stringValue ?? ""
        let started = header["started"]?.stringValue ?? "?"
        let producer = header["producer"]?.stringValue ?? "?"
        var line = "trace (format \(header["axtrace"]?.intValue ?? 0)) from \(source)"
        if !title.isEmpty { line += " " + JSON.string(title).jsonString }
        line += ", started \(started) by \(producer)"
        if let reader = header["screenReader"]?.stringValue { line += ", speech of \(reader)" }
        return line
    }

    static func stepLines(_ step: JSONObject) -> [String] {
        let number = step["step"]?.intValue ?? 0
        let kind = step["kind"]?.stringValue ?? "?"
        let method = step["method"]?.stringValue ?? "?"
        var head = "step \(number)  \(kind) \(method)"
        if let params = step["params"]?.objectValue, !params.isEmpty {
            head += " " + clipped(JSON.object(params).jsonString)
        }
        head += "  " + timing(step)
        var out = [head]
        if let target = step["target"]?.objectValue { out.append("  target: " + targetText(target)) }
        if let revision = step["revision"]?.arrayValue, revision.count == 2 {
            let before = revision[0].intValue.map(String.init) ?? "?"
            let after = revision[1].intValue.map(String.init) ?? "?"
            out.append("  revision: " + (before == after ? "\(before) (no change)" : "\(before) → \(after)"))
        }
        if step["snapshot"] != nil, let count = step["snapshot"]?["count"]?.intValue {
            out.append("  snapshot: \(count) elements")
        }
        out += diffLines(step)
        if let focus = step["focus"], case .object = focus { out.append("  focus: " + focusText(focus)) }
        out += eventLines(step)
        if let error = step["error"]?.objectValue {
            let code = error["code"]?.intValue.map(String.init) ?? "?"
            out.append("  error: \(code) \(error["message"]?.stringValue ?? "")")
        } else if let result = step["result"] {
            let text = result.stringValue ?? result.jsonString
            out.append("  result: " + clipped(text) + (step["resultCut"] == .bool(true) ? " (cut)" : ""))
        }
        return out
    }

    static func timing(_ step: JSONObject) -> String {
        let start = step["t"]?.doubleValue ?? 0
        let duration = step["ms"]?.doubleValue ?? 0
        return "at \(milliseconds(start)) ms, took \(milliseconds(duration)) ms"
    }

    /// A millisecond count with one decimal.
    static func milliseconds(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "?" }
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    static func targetText(_ target: JSONObject) -> String {
        var parts: [String] = []
        if let id = target["id"]?.stringValue { parts.append(id) }
        if let cls = target["class"]?.stringValue { parts.append(cls) }
        if let label = target["label"]?.stringValue { parts.append(JSON.string(label).jsonString) }
        if let selector = target["selector"]?.stringValue { parts.append("(" + selector + ")") }
        return parts.isEmpty ? "?" : parts.joined(separator: " ")
    }

    static func diffLines(_ step: JSONObject) -> [String] {
        guard let diff = step["diff"]?.objectValue else { return [] }
        var out: [String] = []
        for (key, mark) in [("added", "+"), ("removed", "-"), ("moved", ">")] {
            let ids = (diff[key]?.arrayValue ?? []).map(idOf)
            if !ids.isEmpty { out.append("  \(mark) \(key): " + listed(ids)) }
        }
        if let updated = diff["updated"]?.objectValue, !updated.isEmpty {
            let items = updated.map { key, value in
                let attributes = (value.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
                return attributes.isEmpty ? key : "\(key) {\(attributes)}"
            }
            out.append("  ~ updated: " + listed(items))
        }
        if let dropped = step["diffDropped"]?.intValue { out.append("  (\(dropped) diff ops dropped by the bound)") }
        return out
    }

    /// An element id from a diff entry (an id string, or an element object).
    static func idOf(_ entry: JSON) -> String {
        entry.stringValue ?? entry["id"]?.stringValue ?? entry.jsonString
    }

    static func listed(_ items: [String]) -> String {
        var text = items.prefix(idsShown).joined(separator: ", ")
        if items.count > idsShown { text += ", … \(items.count - idsShown) more" }
        return text
    }

    static func focusText(_ focus: JSON) -> String {
        func name(_ moment: JSON?, _ key: String) -> String { moment?[key]?.stringValue ?? "none" }
        let before = focus["before"]
        let after = focus["after"]
        var parts: [String] = []
        for key in ["accessibility", "engine"] {
            let from = name(before, key)
            let to = name(after, key)
            parts.append(from == to ? "\(key) \(to)" : "\(key) \(from) → \(to)")
        }
        return parts.joined(separator: "; ")
    }

    static func eventLines(_ step: JSONObject) -> [String] {
        let events = step["events"]?.arrayValue ?? []
        guard !events.isEmpty else { return [] }
        let types = events.map { $0["type"]?.stringValue ?? "?" }
        var line = "  events: " + listed(types)
        if let dropped = step["eventsDropped"]?.intValue { line += " (\(dropped) dropped)" }
        return [line]
    }

    static func endLine(_ end: JSONObject) -> String {
        let steps = end["steps"]?.intValue ?? 0
        let dropped = end["dropped"]
        let parts = ["steps", "diffOps", "events"].map { "\(dropped?[$0]?.intValue ?? 0) \($0)" }
        return "end: \(steps) steps (dropped: \(parts.joined(separator: ", ")))"
    }

    /// Text shortened to `valueChars` characters, one line.
    static func clipped(_ text: String) -> String {
        let flat = text.replacingNewlines()
        guard flat.count > valueChars else { return flat }
        return String(flat.prefix(valueChars)) + "…"
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
