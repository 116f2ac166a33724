/// The indented text form of an accessibility tree (`axserver dump`, `tree.get` format "text").
package enum TreeText {
    package static func describe(_ n: AXNode) -> String {
        var s = n.role.rawValue
        if let l = n.label { s += " \"\(escape(l))\"" }
        if let v = n.value { s += " value=\"\(escape(v))\"" }
        if let h = n.hint { s += " hint=\"\(escape(h))\"" }
        if let i = n.identifier { s += " #\(i)" }
        if let p = n.placeholder { s += " placeholder=\"\(escape(p))\"" }
        var flags: [String] = []
        if !n.isEnabled { flags.append("disabled") }
        for (name, st) in AXStates.named
        where st != .enabled && st != .onscreen && st != .respondsToUserInteraction && st != .focusable
            && n.states.contains(st)
        {
            flags.append(name)
        }
        if !n.isOnscreen { flags.append("offscreen") }
        if !flags.isEmpty { s += " [" + flags.joined(separator: ",") + "]" }
        if let ps = n.positionInSet, let ss = n.sizeOfSet, n.value != "\(ps) of \(ss)" { s += " (\(ps) of \(ss))" }
        if let h = n.headingLevel { s += " level=\(h)" }
        if !n.customActions.isEmpty { s += " actions=[" + n.customActions.map(\.name).joined(separator: ", ") + "]" }
        return s
    }

    /// `depth` limits how deep below the roots the rendering goes; a node whose children are cut says how many.
    package static func render(_ tree: AXTree, root: String? = nil, frames: Bool = false, depth maxDepth: Int? = nil)
        -> String
    {
        var out = ""
        tree.walk(from: root) { n, depth in
            if let maxDepth, depth > maxDepth { return false }
            out += String(repeating: "  ", count: depth) + describe(n)
            if frames {
                let f = n.frame
                out +=
                    " @(\(ControlSemantics.formatNumber(f.x)),\(ControlSemantics.formatNumber(f.y)),\(ControlSemantics.formatNumber(f.width)),\(ControlSemantics.formatNumber(f.height)))"
            }
            if let maxDepth, depth == maxDepth, !n.children.isEmpty {
                out += " … (\(n.children.count) children not shown)"
            }
            out += "\n"
            return true
        }
        return out
    }

    static func escape(_ s: String) -> String {
        var o = ""
        for c in s {
            switch c {
            case "\"": o += "\\\""
            case "\n": o += "\\n"
            case "\\": o += "\\\\"
            default: o.append(c)
            }
        }
        return o
    }
}
