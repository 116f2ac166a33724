import AXCore

// Canonical string form (Specs/selectors.md §Canonical form): parsing it yields the same AST.

extension Selector {
    /// The canonical string form: roles by their canonical names, strings double-quoted, single spaces around
    /// combinators other than descendant, positional pseudo-classes last in each compound.
    package var canonical: String { Canon.list(chains) }
}

extension Chain {
    package var canonical: String { Canon.chain(self) }
}

extension Compound {
    package var canonical: String { Canon.compound(self) }
}

extension AttributeTest {
    package var canonical: String { Canon.attribute(self) }
}

extension Pseudo {
    package var canonical: String { Canon.pseudo(self) }
}

extension AttributeValue {
    var canonical: String {
        switch self {
        case .string(let s): return Canon.quoted(s)
        case .number(let d): return Canon.number(d)
        case .regex(let r): return Canon.regex(r)
        }
    }
}

enum Canon {
    static func list(_ chains: [Chain]) -> String { chains.map(chain).joined(separator: ", ") }

    static func chain(_ c: Chain) -> String {
        var out = ""
        if let l = c.leading, l != .descendant { out = l.token + " " }
        for (k, st) in c.steps.enumerated() {
            if k > 0 { out += st.combinator == .descendant ? " " : " \(st.combinator.token) " }
            out += compound(st.compound)
        }
        return out
    }

    static func compound(_ c: Compound) -> String {
        var out = c.role?.rawValue ?? (c.attributes.isEmpty && c.pseudos.isEmpty ? "*" : "")
        for a in c.attributes { out += attribute(a) }
        for p in c.pseudos where !p.isPositional { out += pseudo(p) }
        for p in c.pseudos where p.isPositional { out += pseudo(p) }
        return out
    }

    static func isIdent(_ s: String) -> Bool {
        !s.isEmpty && s.allSatisfy(SelectorParser.isIdentChar) && standsAlone(s)
    }

    /// Whether `s` can be printed between syntax characters without fusing with them (see `quoted`).
    static func standsAlone(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last else { return true }
        return !extendsPrevious(first) && !fusesWithNext(last)
    }

    static func attribute(_ a: AttributeTest) -> String {
        guard let v = a.value else { return "[\(a.name.rawValue)]" }
        if a.name == .id, a.op == .equals, !a.caseInsensitive, case .string(let s) = v {
            return isIdent(s) ? "#\(s)" : "#\(quoted(s))"
        }
        var text: String
        switch v {
        case .string(let s) where (a.name.kind == .set || a.name == .role) && isBare(s): text = s
        default: text = v.canonical
        }
        if a.caseInsensitive { text += " i" }
        return "[\(a.name.rawValue)\(a.op.rawValue)\(text)]"
    }

    /// Set and role values print bare when they are plain names (`[traits&=header,button]`).
    static func isBare(_ s: String) -> Bool {
        !s.isEmpty && SelectorParser.number(s) == nil && standsAlone(s)
            && s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." || $0 == "," }
    }

    static func pseudo(_ p: Pseudo) -> String {
        switch p {
        case .has(let s): return ":has(\(list(s.chains)))"
        case .not(let s): return ":not(\(list(s.chains)))"
        case .is(let s): return ":is(\(list(s.chains)))"
        case .nth(let n): return ":nth(\(n))"
        case .nthLast(let n): return ":nth-last(\(n))"
        case .first: return ":first"
        case .last: return ":last"
        case .flag(let f): return ":\(f.rawValue)"
        case .state(let names): return ":state(\(names.joined(separator: ", ")))"
        case .trait(let names): return ":trait(\(names.joined(separator: ", ")))"
        case .action(let s): return ":action(\(quoted(s)))"
        case .rotor(let s): return ":rotor(\(quoted(s)))"
        case .text(.substring(let s)): return ":text(\(quoted(s)))"
        case .text(.regex(let r)): return ":text(\(regex(r)))"
        }
    }

    /// A double-quoted string the parser reads back to `s`. The parser reads grapheme clusters, so a scalar that
    /// would fuse with the syntax next to it is written as `\u{…}`: a combining mark (or other extender) right
    /// after the opening quote or an escape sequence (`"\u{301}"`, `\"\u{301}`), and a prepend character, which
    /// would fuse with whatever follows it (the closing quote, a backslash).
    static func quoted(_ s: String) -> String {
        var out = "\""
        var afterSyntax = true  // the opening quote, or the end of an escape sequence
        for u in s.unicodeScalars {
            var escaped = true
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 || u.value == 0x7F || u.properties.generalCategory == .format
                    || u.properties.generalCategory == .lineSeparator
                    || (afterSyntax && extendsPrevious(u)) || fusesWithNext(u)
                {
                    out += "\\u{\(String(u.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(u)
                    escaped = false
                }
            }
            afterSyntax = escaped
        }
        return out + "\""
    }

    /// Whether `u` joins the grapheme cluster of the character before it (combining marks, ZWJ, variation
    /// selectors, spacing marks…).
    static func extendsPrevious(_ u: Unicode.Scalar) -> Bool {
        if u.isASCII { return false }
        var probe = "\""
        probe.unicodeScalars.append(u)
        return probe.count == 1
    }

    /// Whether `u` joins the grapheme cluster of the character after it (prepend characters).
    static func fusesWithNext(_ u: Unicode.Scalar) -> Bool {
        if u.isASCII { return false }
        var probe = ""
        probe.unicodeScalars.append(u)
        probe.unicodeScalars.append("\"")
        return probe.count == 1
    }

    static func number(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    static func regex(_ r: RegexLiteral) -> String {
        var out = "/"
        // A pattern that starts with an extender (or ends with a prepend character) would fuse with the slash:
        // an empty group `(?:)` keeps them apart and matches the same strings.
        if let first = r.pattern.unicodeScalars.first, extendsPrevious(first) { out += "(?:)" }
        var backslashes = 0
        for c in r.pattern {
            if c == "/" && backslashes % 2 == 0 { out += "\\/" } else { out.append(c) }
            backslashes = c == "\\" ? backslashes + 1 : 0
        }
        if let last = r.pattern.unicodeScalars.last, fusesWithNext(last) { out += "(?:)" }
        return out + "/" + r.canonicalFlags
    }
}
