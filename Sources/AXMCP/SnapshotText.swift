import AXJSON

/// The compact text of elements for agents (Specs/mcp.md §Text formats): one element a line,
/// `ref role "label" =value [states]`, indented one space per level. The ref is the server's element id, stable
/// across revisions. Only the states an agent acts on are shown, and `offscreen`/`disabled` only where they start
/// (a descendant of an offscreen or disabled element is too; the line does not repeat it).
package enum ElementLine {
    /// The states shown when present, in this order.
    static let shownStates = ["checked", "selected", "focused", "expanded", "collapsed", "secure", "busy", "modal"]

    /// The line of one element (without indentation): `ref role "label" =value [states]`, the ref being the
    /// server id. `parentStates` are the parent's states (nil for a root): `offscreen` and `disabled` are printed
    /// only where they begin.
    package static func line(_ element: JSON, parentStates: Set<String>? = nil) -> String {
        line(element, parentStates: parentStates, refs: nil)
    }

    /// The line of one element with the session's ref (Specs/mcp.md §Text formats): `ref [role] label =value
    /// [states]`, the role left out when the ref's letter names it (the label then bare when it can be read
    /// back), said once (`snapshotBody`). Without `refs`, the server id with the role word.
    package static func line(_ element: JSON, parentStates: Set<String>?, refs: RefTable?) -> String {
        let id = element["id"]?.stringValue ?? "?"
        guard let refs else {
            return id + " " + body(element, parentStates: parentStates, roleImplied: false, fullRole: true)
        }
        let (ref, minted) = refs.ref(for: id, role: element["role"]?.stringValue)
        let implied = minted && RefTable.impliedRole(of: ref) == (element["role"]?.stringValue ?? "element")
        let text = body(element, parentStates: parentStates, roleImplied: implied, fullRole: false)
        return text.isEmpty ? ref : ref + " " + text
    }

    /// A switch's values that only restate its `checked` state.
    static let switchValues: Set<String> = ["0", "1", "on", "off"]

    /// The snapshot's form of a line without its ref (Specs/mcp.md §Text formats, snapshot): static text as its
    /// quoted label alone; a value equal to the label, a switch's on/off value (its `checked` flag says it) and a
    /// place in a set (`2 of 3`: the lines' order says it) left out.
    static func snapshotBody(_ element: JSON, parentStates: Set<String>?) -> String {
        body(element, parentStates: parentStates, roleImplied: false, fullRole: false)
    }

    /// The line after the ref. `roleImplied`: the ref's letter names the role (left out, the label bare when it
    /// can be read back). `fullRole`: every part as the server has it (the role word even for static text).
    static func body(_ element: JSON, parentStates: Set<String>?, roleImplied: Bool, fullRole: Bool) -> String {
        let role = element["role"]?.stringValue ?? "element"
        let label = element["label"]?.stringValue ?? ""
        var parts: [String] = []
        if !roleImplied && (fullRole || role != "staticText" || label.isEmpty) { parts.append(role) }
        var quoted = ""
        if roleImplied && isBareLabel(label) {
            quoted = label
        } else if !label.isEmpty {
            appendQuoted(label, to: &quoted)
        } else if let placeholder = element["placeholder"]?.stringValue, !placeholder.isEmpty {
            quoted = "placeholder="
            appendQuoted(placeholder, to: &quoted)
        }
        if !quoted.isEmpty { parts.append(quoted) }
        if let value = element["value"]?.stringValue, fullRole ? !value.isEmpty : saysSomething(value, role, label) {
            var text = "="
            appendQuoted(value, to: &text, bare: true)
            parts.append(text)
        }
        let flags = states(of: element, parentStates: parentStates)
        if !flags.isEmpty { parts.append("[" + flags.joined(separator: " ") + "]") }
        return parts.joined(separator: " ")
    }

    /// Whether a value says what the rest of the line does not: not empty, not the label, not a switch's on/off
    /// (its `checked` flag), not a place in a set.
    static func saysSomething(_ value: String, _ role: String, _ label: String) -> Bool {
        !value.isEmpty && value != label && (role != "switch" || !switchValues.contains(value)) && !isPosition(value)
    }

    /// Whether a value only says the element's place among its siblings (`2 of 3`, as UIKit gives segments and
    /// tabs): the order of the lines says it.
    static func isPosition(_ value: String) -> Bool {
        let parts = value.split(separator: " ", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[1] == "of" && parts[0].utf8.count <= 6 && parts[2].utf8.count <= 6
            && Int(parts[0]) != nil && Int(parts[2]) != nil
    }

    /// Whether a label reads back unquoted after a ref that names the role: printable, no quote, backslash,
    /// bracket, `=` or `+`, no space at either end, not `placeholder=…`, at most 200 characters.
    static func isBareLabel(_ label: String) -> Bool {
        guard let first = label.unicodeScalars.first, let last = label.unicodeScalars.last, first != " ",
            last != " ", label.utf8.count <= 200
        else { return false }
        return label.unicodeScalars.allSatisfy { scalar in
            scalar.value >= 0x20 && scalar.value != 0x7F && !"\"\\[]=+".unicodeScalars.contains(scalar)
        }
    }

    /// The element's `states` as a set.
    package static func stateSet(_ element: JSON) -> Set<String> {
        Set((element["states"]?.arrayValue ?? []).compactMap(\.stringValue))
    }

    /// The flags printed for an element: the shown states plus `disabled` and `offscreen` where they begin.
    static func states(of element: JSON, parentStates: Set<String>?) -> [String] {
        let own = stateSet(element)
        var flags = shownStates.filter { own.contains($0) }
        let isElement = element["isElement"]?.boolValue ?? true
        let parentEnabled = parentStates.map { $0.contains("enabled") } ?? true
        let parentOnscreen = parentStates.map { $0.contains("onscreen") } ?? true
        if isElement && !own.contains("enabled") && parentEnabled { flags.append("disabled") }
        if !own.contains("onscreen") && parentOnscreen { flags.append("offscreen") }
        return flags
    }

    /// Appends `text` in double quotes (JSON escapes for quotes, backslashes and control characters), or bare when
    /// `bare` and the text has no space, quote or bracket. Texts over 200 characters are cut with `…(+N)`.
    static func appendQuoted(_ text: String, to out: inout String, bare: Bool = false) {
        var text = text
        var cut = 0
        if text.count > 200 {
            cut = text.count - 200
            text = String(text.prefix(200))
        }
        let plain = text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "\\" && $0 != "[" }
        if bare && plain {
            out += text
        } else {
            out += "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 {
                        out += "\\u00" + String(scalar.value, radix: 16).leftPadded(to: 2)
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            out += "\""
        }
        if cut > 0 { out += "…(+\(cut))" }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// A snapshot of a tree (the `windows` of `tree.get` in JSON form) cut to a budget: breadth first, so the top of
/// the tree is always shown and the cut falls on the deepest, widest parts; every element whose children were
/// left out says how many (` +N`), and a last line says how many elements were left out in all and how to narrow.
///
/// Nothing is said twice and refs stand only where an agent can act (issue 35 item 4, Specs/mcp.md): a line
/// starts with the element's ref when it has actions or hides children (` +N`, the ref to narrow to); static text
/// is its quoted label; a container with nothing to say (no label, value, flags or actions) has no line, its
/// children taking its place one level up.
package struct SnapshotText {
    /// The default number of elements (about 8–20 KB of text).
    package static let defaultMaxNodes = 300
    /// The default size of the text in bytes (UTF-8).
    package static let defaultMaxBytes = 16_000
    /// The smallest `maxBytes` accepted (the header and the truncation line must fit).
    package static let minimumMaxBytes = 200
    /// The largest budget accepted (either kind).
    package static let maximumBudget = 10_000_000

    struct Node {
        var element: JSON
        var parent: Int
        var depth: Int
        var children: [Int] = []
        /// Children the server itself left out (`truncated.omitted` of a depth or children cut).
        var serverOmitted: Int
        /// The element's server id.
        var id = ""
        /// The element's ref when its line carries one (actions): the session's, else the server id.
        var ref = ""
        /// The line without indentation and ref (`ElementLine.snapshotBody`).
        var body = ""
        /// Whether the line carries the ref: the element has actions.
        var actionable = false
        /// Whether the line is left out unless it hides children: a container (not a window) with nothing to say.
        var silent = false

        var role: String { element["role"]?.stringValue ?? "element" }

        /// The ref the line starts with: the one set for an actionable node, else (a node hiding children) the
        /// session's ref minted now, else the server id.
        func lineRef(_ refs: RefTable?) -> String {
            actionable ? ref : refs?.ref(for: id, role: role).ref ?? id
        }

        /// Sets the id, ref, body, actionable and silent of a node whose `children` are set.
        mutating func prepare(parentStates: Set<String>?, refs: RefTable?) {
            let body = ElementLine.snapshotBody(element, parentStates: parentStates)
            id = element["id"]?.stringValue ?? "?"
            ref = id
            self.body = body
            actionable = !(element["actions"]?.arrayValue ?? []).isEmpty
            if actionable, let refs {
                let (minted, isSessionRef) = refs.ref(for: id, role: role)
                ref = minted
                if isSessionRef, RefTable.impliedRole(of: minted) == role {
                    self.body = ElementLine.body(
                        element, parentStates: parentStates, roleImplied: true, fullRole: false)
                }
            }
            silent = parent >= 0 && !actionable && body == role && (!children.isEmpty || serverOmitted > 0)
        }
    }

    /// The text.
    package var text: String
    /// Elements in the tree (including those the server left out).
    package var total: Int
    /// Elements shown.
    package var shown: Int

    /// Formats `windows` (nested elements with `children` arrays of elements) within `maxNodes` elements and
    /// `maxBytes` bytes. `header` is the first line (not counted in maxNodes, counted in maxBytes). `knownTotal`:
    /// the number of elements in the whole tree when the server cut it (else counted: the shown tree plus the
    /// children the server says it left out).
    /// With `refs`, lines carry the session's short refs (their letter naming the role, which the line then leaves
    /// out); without, the server ids.
    package init(
        windows: [JSON], header: String, maxNodes: Int, maxBytes: Int, knownTotal: Int? = nil, refs: RefTable? = nil
    ) {
        var nodes: [Node] = []
        var stack: [(JSON, Int, Int)] = windows.reversed().map { ($0, -1, 0) }
        // Depth-first, pre-order: the document order of the lines.
        var childLists: [[Int]] = []
        while let (element, parent, depth) = stack.popLast() {
            let index = nodes.count
            let omitted = element["truncated"]?["omitted"]?.intValue ?? 0
            nodes.append(Node(element: element, parent: parent, depth: depth, serverOmitted: max(0, omitted)))
            childLists.append([])
            if parent >= 0 { childLists[parent].append(index) }
            if let kids = element["children"]?.arrayValue {
                for kid in kids.reversed() where kid.objectValue != nil { stack.append((kid, index, depth + 1)) }
            }
        }
        for index in nodes.indices {
            nodes[index].children = childLists[index]
            let parent = nodes[index].parent
            let parentStates = parent >= 0 ? ElementLine.stateSet(nodes[parent].element) : nil
            nodes[index].prepare(parentStates: parentStates, refs: refs)
        }
        // Breadth-first order: which nodes a budget of n keeps.
        var breadth: [Int] = []
        breadth.reserveCapacity(nodes.count)
        var queue = nodes.indices.filter { nodes[$0].parent < 0 }
        var head = 0
        while head < queue.count {
            let index = queue[head]
            head += 1
            breadth.append(index)
            queue.append(contentsOf: nodes[index].children)
        }
        let total = max(knownTotal ?? 0, nodes.count + nodes.reduce(0) { $0 + $1.serverOmitted })
        let budget = min(max(0, maxNodes), nodes.count)
        // Each line is made once; a budget only chooses which lines are joined.
        let render = { (count: Int) -> (String, Int) in
            Self.render(
                nodes: nodes, keep: breadth.prefix(count), total: total, header: header, maxNodes: maxNodes,
                maxBytes: maxBytes, refs: refs)
        }
        var (text, shown) = render(budget)
        if text.utf8.count > maxBytes { (text, shown) = Self.largestFitting(budget, maxBytes: maxBytes, render) }
        self.text = text
        self.total = total
        self.shown = shown
    }

    /// The largest count (at most `budget`) whose text fits in `maxBytes` (the text grows with the count).
    static func largestFitting(_ budget: Int, maxBytes: Int, _ render: (Int) -> (String, Int)) -> (String, Int) {
        var low = 0
        var high = budget
        var best = render(0)
        while low <= high {
            let middle = (low + high) / 2
            let attempt = render(middle)
            if attempt.0.utf8.count <= maxBytes {
                best = attempt
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best
    }

    static func render(
        nodes: [Node], keep: ArraySlice<Int>, total: Int, header: String, maxNodes: Int, maxBytes: Int,
        refs: RefTable?
    ) -> (String, Int) {
        var kept = [Bool](repeating: false, count: nodes.count)
        for index in keep { kept[index] = true }
        // The indentation of each kept line: one space per shown ancestor (parents precede their children).
        var indent = [Int](repeating: 0, count: nodes.count)
        var shownLine = [Bool](repeating: false, count: nodes.count)
        var out = header
        out += "\n"
        var suggestion: (rank: (Int, Int), ref: String)?
        for index in nodes.indices where kept[index] {
            let node = nodes[index]
            if node.parent >= 0 { indent[index] = indent[node.parent] + (shownLine[node.parent] ? 1 : 0) }
            let hidden = node.children.reduce(node.serverOmitted) { $0 + (kept[$1] ? 0 : 1) }
            if node.silent && hidden == 0 { continue }
            shownLine[index] = true
            out += String(repeating: " ", count: indent[index])
            if node.actionable || hidden > 0 {
                out += node.lineRef(refs)
                if !node.body.isEmpty { out += " " }
            }
            out += node.body
            if hidden > 0 {
                out += " +\(hidden)"
                suggestion = preferred(suggestion, node: node, hidden: hidden, refs: refs)
            }
            out += "\n"
        }
        let shown = keep.count
        if shown < total {
            let limit = shown < min(maxNodes, nodes.count) ? "maxBytes \(maxBytes)" : "maxNodes \(maxNodes)"
            out += truncationLine(hidden: total - shown, of: total, limit: limit, narrow: suggestion?.ref)
        }
        return (out, shown)
    }

    /// The element the truncation line suggests narrowing to: the one hiding the most children, below the
    /// windows when there is one.
    static func preferred(_ current: (rank: (Int, Int), ref: String)?, node: Node, hidden: Int, refs: RefTable?)
        -> (rank: (Int, Int), ref: String)
    {
        let rank = (node.depth > 0 ? 1 : 0, hidden)
        if let current, current.rank >= rank { return current }
        return (rank, node.lineRef(refs))
    }

    /// The last line of a cut snapshot: how many elements are not shown, which budget cut them, how to narrow.
    static func truncationLine(hidden: Int, of total: Int, limit: String, narrow: String?) -> String {
        "[truncated: \(hidden) of \(total) elements not shown (\(limit)); \"+N\" = N children not shown. "
            + "Narrow: snapshot ref=\(narrow ?? "<ref>"), snapshot selector=…, or find]\n"
    }
}
