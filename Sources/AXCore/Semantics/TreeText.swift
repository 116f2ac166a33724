/// The indented text form of an accessibility tree (`axserver dump`, `tree.get` format "text").
package enum TreeText {
    package static func describe(_ node: AXNode) -> String {
        var text = node.role.rawValue
        if let label = node.label { text += " \"\(escape(label))\"" }
        if let value = node.value { text += " value=\"\(escape(value))\"" }
        if let hint = node.hint { text += " hint=\"\(escape(hint))\"" }
        if let identifier = node.identifier { text += " " + idSelector(identifier) }
        if let placeholder = node.placeholder { text += " placeholder=\"\(escape(placeholder))\"" }
        let flags = stateFlags(node)
        if !flags.isEmpty { text += " [" + flags.joined(separator: ",") + "]" }
        if let position = node.positionInSet, let size = node.sizeOfSet, node.value != "\(position) of \(size)" {
            text += " (\(position) of \(size))"
        }
        if let level = node.headingLevel { text += " level=\(level)" }
        if !node.customActions.isEmpty {
            text += " actions=[" + node.customActions.map(\.name).joined(separator: ", ") + "]"
        }
        return text
    }

    /// The states worth showing: disabled, offscreen, and every state other than the usual enabled, onscreen,
    /// responds-to-user-interaction and focusable.
    private static func stateFlags(_ node: AXNode) -> [String] {
        let usual: AXStates = [.enabled, .onscreen, .respondsToUserInteraction, .focusable]
        var flags: [String] = []
        if !node.isEnabled { flags.append("disabled") }
        for (name, state) in AXStates.named where !usual.contains(state) && node.states.contains(state) {
            flags.append(name)
        }
        if !node.isOnscreen { flags.append("offscreen") }
        return flags
    }

    /// `depth` limits how deep below the roots the rendering goes; a node whose children are cut says how many.
    package static func render(_ tree: AXTree, root: String? = nil, frames: Bool = false, depth maxDepth: Int? = nil)
        -> String
    {
        var out = ""
        tree.walk(from: root) { node, depth in
            if let maxDepth, depth > maxDepth { return false }
            out += String(repeating: "  ", count: depth) + describe(node)
            if frames {
                let frame = node.frame
                out +=
                    " @(\(ControlSemantics.formatNumber(frame.x)),\(ControlSemantics.formatNumber(frame.y)),\(ControlSemantics.formatNumber(frame.width)),\(ControlSemantics.formatNumber(frame.height)))"
            }
            if let maxDepth, depth == maxDepth, !node.children.isEmpty {
                out += " … (\(node.children.count) children not shown)"
            }
            out += "\n"
            return true
        }
        return out
    }

    /// `#name`, or `#"a.b"` when the identifier is not a bare selector name (letters, digits, `_`, `-`; not
    /// starting with a digit or `-`), so the text can be pasted into a selector (Specs/selectors.md). `axserver
    /// dump`, `tree.get` format "text" and `axquery` print identifiers this way.
    package static func idSelector(_ identifier: String) -> String {
        let bare =
            identifier.unicodeScalars.allSatisfy {
                ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
            }
            && !(identifier.unicodeScalars.first.map { ("0"..."9").contains($0) || $0 == "-" } ?? true)
        return "#" + (bare ? identifier : "\"" + escape(identifier) + "\"")
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\\": escaped += "\\\\"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The word with its indefinite article, for messages: "a button", "an adjustable", "an image" (issue 25
    /// item 8: was "is a adjustable"). Decided by the first letter's sound; role and class names only. A class
    /// prefix in capitals is read letter by letter: "a UIButton" (you-eye), "an NSView", "an MKMapView".
    package static func withArticle(_ word: String) -> String {
        guard let first = word.first else { return word }
        let spelledOut = word.dropFirst().first?.isUppercase == true && first.isUppercase
        let vowelSound = spelledOut ? "AEFHILMNORSX".contains(first) : "aeiou".contains(first.lowercased())
        return (vowelSound ? "an " : "a ") + word
    }
}
