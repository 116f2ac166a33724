import AXCore
import AXJSON

/// Why a selector (string or JSON form) was refused: where, what was expected there, and what was found.
package struct SelectorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 0-based character offset in the string form (for the JSON form: 0, see `path`).
    package var position: Int
    /// What the parser expected at `position` ("']'", "a role (button, …)").
    package var expected: String
    /// What it found ("end of input", "'x'").
    package var found: String
    /// For the JSON form: where in the document (`$.chain[1].attrs[0]`); nil for the string form.
    package var path: String?
    /// An optional suggestion ("did you mean 'button'?").
    package var hint: String?
    /// A machine-readable class of refusal for limits ("regex too long", "regex too expensive"); nil otherwise.
    package var reason: String?

    package init(position: Int, expected: String, found: String, hint: String? = nil) {
        self.position = position
        self.expected = expected
        self.found = found
        self.path = nil
        self.hint = hint
    }
    package init(path: String, expected: String, found: String, hint: String? = nil) {
        self.position = 0
        self.expected = expected
        self.found = found
        self.path = path
        self.hint = hint
    }

    /// `expected ']' at position 14, found end of input`
    package var message: String {
        let at = path.map { "at \($0)" } ?? "at position \(position)"
        var text = "expected \(expected) \(at), found \(found)"
        if let hint { text += " (\(hint))" }
        return text
    }
    package var description: String { message }
}

extension RegexLiteral {
    static let allowedFlags: [Character] = ["i", "s", "m"]

    /// Longest accepted pattern, in characters.
    static let maxPatternLength = 1_024

    /// Compiles the pattern for the linear-time engine (`LinearRegex`, syntax in Specs/selectors.md). Flags are
    /// i, s, m.
    func compile(path: String? = nil, position: Int = 0) throws(SelectorError) -> LinearRegex {
        func fail(_ expected: String, _ found: String, reason: String? = nil) -> SelectorError {
            var error =
                path.map { SelectorError(path: $0, expected: expected, found: found) }
                ?? SelectorError(position: position, expected: expected, found: found)
            error.reason = reason
            return error
        }
        for flag in flags where !RegexLiteral.allowedFlags.contains(flag) {
            throw fail("regex flags i, s or m", "'\(flag)'")
        }
        let length = pattern.unicodeScalars.count
        guard length <= RegexLiteral.maxPatternLength else {
            throw fail(
                "a regex of at most \(RegexLiteral.maxPatternLength) characters", "\(length) characters",
                reason: "regex too long")
        }
        do {
            return try LinearRegex(
                pattern: pattern, caseInsensitive: flags.contains("i"), dotAll: flags.contains("s"),
                multiline: flags.contains("m"))
        } catch {
            let expensive = error.reason.hasPrefix("regex too expensive")
            throw fail(
                expensive ? "a smaller regex" : "a valid regular expression (Specs/selectors.md §Regular expressions)",
                "/\(pattern)/: \(error.reason) at offset \(error.offset)",
                reason: expensive ? "regex too expensive" : nil)
        }
    }

    /// Flags in canonical order (i, s, m), without duplicates.
    var canonicalFlags: String { String(RegexLiteral.allowedFlags.filter { flags.contains($0) }) }
}

/// Role names and aliases accepted in selectors (case-insensitive; also `XCUIElementType<Name>`).
package enum RoleNames {
    package static let aliases: [String: AXRole] = {
        var byName: [String: AXRole] = [:]
        for role in AXRole.allCases { byName[role.rawValue.lowercased()] = role }
        let extra: [(String, AXRole)] = [
            ("heading", .header), ("text", .staticText), ("slider", .adjustable), ("stepper", .adjustable),
            ("securefield", .secureTextField), ("password", .secureTextField), ("search", .searchField),
            ("textarea", .textView), ("toggle", .switch), ("checkbox", .switch), ("navbar", .navigationBar),
            ("segmented", .segmentedControl), ("pickerwheel", .pickerItem), ("progress", .progressIndicator),
            ("progressbar", .progressIndicator), ("spinner", .activityIndicator), ("key", .keyboardKey),
            ("dialog", .alert), ("img", .image), ("row", .cell), ("collection", .list), ("collectionview", .list),
            ("tableview", .list), ("other", .group), ("pageindicator", .adjustable),
        ]
        for (alias, role) in extra { byName[alias] = role }
        return byName
    }()

    /// The role for a name or alias, or nil.
    package static func role(_ name: String) -> AXRole? {
        var n = name.lowercased()
        if n.hasPrefix("xcuielementtype") {
            n.removeFirst("xcuielementtype".count)
            // XCUITest's vocabulary where it differs from ours: its Table is a UITableView (our list; our
            // `table` is a data table) (Specs/axquery.md, XCUIElementType ↔ role).
            if let xcui = xcuiAliases[n] { return xcui }
        }
        return aliases[n]
    }

    /// `XCUIElementType<Name>` names whose meaning differs from the plain alias.
    static let xcuiAliases: [String: AXRole] = ["table": .list]

    static var known: String {
        AXRole.allCases.map(\.rawValue).joined(separator: ", ") + ", or an alias such as heading, text, slider"
    }
}

/// Levenshtein distance over Characters, or `limit + 1` when it exceeds `limit`. Banded: only cells within
/// `limit` of the diagonal are computed, so the cost is O(length × limit) rather than O(length²).
package func editDistance(_ a: String, _ b: String, limit: Int = .max) -> Int {
    let x = Array(a)
    let y = Array(b)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    if abs(x.count - y.count) > limit { return limit + 1 }
    let band = min(limit, max(x.count, y.count))
    let outside = band + 1  // any value above the band stands for "too far"
    var previous = [Int](repeating: outside, count: y.count + 1)
    var current = [Int](repeating: outside, count: y.count + 1)
    for j in 0...min(y.count, band) { previous[j] = j }
    for i in 1...x.count {
        let low = max(1, i - band)
        let high = min(y.count, i + band)
        current[low - 1] = low == 1 ? i : outside
        var rowMin = current[low - 1]
        if low <= high {
            for j in low...high {
                let substitution = previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution, outside)
                rowMin = min(rowMin, current[j])
            }
        }
        if high < y.count { current[high + 1] = outside }
        if rowMin > limit { return limit + 1 }
        swap(&previous, &current)
    }
    return previous[y.count] > limit ? limit + 1 : previous[y.count]
}

/// The closest candidate to `word` (for "did you mean" hints), if close enough.
func suggestion(_ word: String, among candidates: [String]) -> String? {
    let w = word.lowercased()
    var best: (String, Int)?
    for c in candidates {
        let d = editDistance(w, c.lowercased(), limit: 3)
        if d <= (w.count >= 4 ? max(2, min(3, w.count / 3)) : 1), d < (best?.1 ?? .max) { best = (c, d) }
    }
    return best?.0
}

extension SelectorError {
    /// `{"message", "position", "expected", "found", "path"?, "hint"?}` for error `data` in responses.
    package var json: JSON {
        var o: JSONObject = [
            "message": .string(message), "position": JSON(position), "expected": .string(expected),
            "found": .string(found),
        ]
        if let path { o["path"] = .string(path) }
        if let hint { o["hint"] = .string(hint) }
        if let reason { o["reason"] = .string(reason) }
        return .object(o)
    }
}
