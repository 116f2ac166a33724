import AXCore
import AXDBus
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// A decoded `Collection` match rule `(aiia{ss}iaiiasib)` (semantics of at-spi2-core's atk-adaptor
/// collection-adaptor: 1 ALL, 2 ANY, 3 NONE, 4 EMPTY; an empty criterion always matches; `invert` ignored).
package struct MatchRule {
    var states: UInt64 = 0
    var stateMatch: Int32 = 0
    var attributes: [(String, [String])] = []
    var attributeMatch: Int32 = 0
    var roles: [UInt32] = []  // bit words
    var roleMatch: Int32 = 0
    var interfaces: [(ATSPIInterfaces?, String?)] = []  // (interface, action name for "action(name)")
    var interfaceMatch: Int32 = 0

    /// Reads a match rule at the reader's position (the Collection methods' first argument).
    package static func read(_ r: DBusReader) throws(AXDBus.DBusError) -> MatchRule {
        var rule = MatchRule()
        try r.enterStruct()
        let sw = try r.readInt32Array()
        for (i, w) in sw.prefix(2).enumerated() { rule.states |= UInt64(UInt32(bitPattern: w)) << UInt64(32 * i) }
        rule.stateMatch = try r.readInt32()
        let attrs = try r.readStringDictionary()
        rule.attributes = attrs.sorted { $0.key < $1.key }.map { ($0.key.lowercased(), splitAlternatives($0.value)) }
        rule.attributeMatch = try r.readInt32()
        rule.roles = try r.readInt32Array().map { UInt32(bitPattern: $0) }
        rule.roleMatch = try r.readInt32()
        let ifs = try r.readStringArray()
        rule.interfaces = ifs.map { s in
            let l = s.lowercased()
            if l.hasPrefix("action(") && l.hasSuffix(")") {
                return (.action, String(s.dropFirst(7).dropLast()))
            }
            return (ATSPIInterfaces.shortNamed(l) ?? ATSPIInterfaces.named(s), nil)
        }
        rule.interfaceMatch = try r.readInt32()
        _ = try r.readBool()  // invert: read and ignored, like the reference implementation
        try r.leave()
        return rule
    }

    /// `a:b\:c` → ["a", "b:c"] (case-insensitive comparison later).
    static func splitAlternatives(_ v: String) -> [String] {
        var out: [String] = []
        var cur = ""
        var escape = false
        for ch in v {
            if escape {
                cur.append(ch)
                escape = false
                continue
            }
            if ch == "\\" {
                escape = true
                continue
            }
            if ch == ":" {
                out.append(cur.lowercased())
                cur = ""
                continue
            }
            cur.append(ch)
        }
        out.append(cur.lowercased())
        return out
    }

    var roleSet: [UInt32] {
        var out: [UInt32] = []
        for (w, bits) in roles.enumerated() where bits != 0 {
            for b in 0..<32 where bits & (1 << UInt32(b)) != 0 { out.append(UInt32(w * 32 + b)) }
        }
        return out
    }

    func matches(
        role: UInt32, states s: ATSPIStateSet, interfaces ifs: ATSPIInterfaces, actionNames: () -> [String],
        attributes attrs: () -> [(String, String)]
    ) -> Bool {
        // States
        if states != 0 {
            switch stateMatch {
            case 1: if s.bits & states != states { return false }
            case 2: if s.bits & states == 0 { return false }
            case 3: if s.bits & states != 0 { return false }
            default: return false
            }
        }
        // Roles
        let rs = roleSet
        if !rs.isEmpty {
            switch roleMatch {
            case 1: if !(rs.count == 1 && rs[0] == role) { return false }
            case 2: if !rs.contains(role) { return false }
            case 3: if rs.contains(role) { return false }
            default: return false
            }
        }
        // Interfaces
        if !interfaces.isEmpty {
            var names: [String]? = nil
            func has(_ x: (ATSPIInterfaces?, String?)) -> Bool {
                guard let i = x.0, ifs.contains(i) else { return false }
                if let a = x.1 {
                    if names == nil { names = actionNames() }
                    return names!.contains { $0.lowercased() == a.lowercased() }
                }
                return true
            }
            switch interfaceMatch {
            case 1: if !interfaces.allSatisfy(has) { return false }
            case 2: if !interfaces.contains(where: has) { return false }
            case 3: if interfaces.contains(where: has) { return false }
            default: return false
            }
        }
        // Attributes
        if !attributes.isEmpty {
            let mine = attrs()
            func has(_ x: (String, [String])) -> Bool {
                guard let v = mine.first(where: { $0.0.lowercased() == x.0 })?.1.lowercased() else { return false }
                return x.1.contains(v)
            }
            switch attributeMatch {
            case 1: if !self.attributes.allSatisfy(has) { return false }
            case 2: if !self.attributes.contains(where: has) { return false }
            case 3: if self.attributes.contains(where: has) { return false }
            default: return false
            }
        }
        return true
    }
}

extension AppBridge {
    func nodeMatches(_ n: AXNode, _ rule: MatchRule) -> Bool {
        let pr = parentRole(n)
        return rule.matches(
            role: ATSPIMapping.role(n, parentRole: pr).rawValue,
            states: ATSPIMapping.states(n, parentRole: pr, focused: n.id == served.focusedID),
            interfaces: ATSPIMapping.interfaces(n, parentRole: pr),
            actionNames: { ATSPIMapping.actions(n).map(\.name) },
            attributes: { ATSPIMapping.attributes(n, parentRole: pr) })
    }

    /// Descendants of `t` in canonical (pre-order) order; only direct children when `traverse` is false.
    func descendants(_ t: Target, traverse: Bool) -> [AXNode] {
        var out: [AXNode] = []
        var stack: [String] = children(t).reversed()
        while let id = stack.popLast() {
            guard let n = served.tree[id] else { continue }
            out.append(n)
            if traverse { stack.append(contentsOf: n.children.reversed()) }
        }
        return out
    }

    func collection(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ t: Target)
        -> DBusMethodResult
    {
        let name = String(cString: member)
        if name == "GetActiveDescendant" {
            if let e = check(msg, m, "") { return e }
            sendReply(replyConn, to: m) { writeNullRef(&$0) }
            return .handled
        }
        let r = msg.reader()
        var matches: [String] = []
        do throws(DBusError) {
            switch name {
            case "GetMatches":
                if let e = check(msg, m, "(aiia{ss}iaiiasib)uib") { return e }
                let rule = try MatchRule.read(r)
                let sort = try r.readUInt32()
                let count = try r.readInt32()
                let traverse = try r.readBool()
                guard sort == 1 || sort == 4 else { break }
                matches = select(descendants(t, traverse: traverse), rule, count: count, reverse: sort == 4)
            case "GetMatchesTo", "GetMatchesFrom":
                let to = name == "GetMatchesTo"
                if to {
                    if let e = check(msg, m, "o(aiia{ss}iaiiasib)uubib") { return e }
                } else {
                    if let e = check(msg, m, "o(aiia{ss}iaiiasib)uuib") { return e }
                }
                let current = try r.readObjectPath()
                let rule = try MatchRule.read(r)
                let sort = try r.readUInt32()
                _ = try r.readUInt32()  // tree traversal type
                if to { _ = try r.readBool() }  // limit_scope
                let count = try r.readInt32()
                let traverse = try r.readBool()
                guard sort == 1 || sort == 4 else { break }
                let all = descendants(t, traverse: traverse)
                let curID: String? = current.withCString { p -> String? in
                    if case .node(let cn)? = resolve(p) { return cn.id }
                    return nil
                }
                guard let curID, let pos = all.firstIndex(where: { $0.id == curID }) else {
                    return .error(.unknownObject(path: current))
                }
                // Spec text is swapped: From = after the current object, To = before it.
                let slice = to ? Array(all[..<pos]) : Array(all[(pos + 1)...])
                matches = select(to ? slice.reversed() : slice, rule, count: count, reverse: sort == 4)
            default:
                return .error(.unknownMethod(for: msg))
            }
        } catch {
            return .error(error)
        }
        sendReply(replyConn, to: m) { o in o.array("(so)") { a in for id in matches { writeRef(&a, id) } } }
        return .handled
    }

    private func select(_ nodes: [AXNode], _ rule: MatchRule, count: Int32, reverse: Bool) -> [String] {
        var out: [String] = []
        let seq: [AXNode] = reverse ? nodes.reversed() : nodes
        for n in seq where nodeMatches(n, rule) {
            out.append(n.id)
            if count > 0 && out.count >= Int(count) { break }
        }
        return out
    }
}
