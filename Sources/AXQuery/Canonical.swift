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
        case .string(let text): return Canon.quoted(text)
        case .number(let number): return Canon.number(number)
        case .regex(let regex): return Canon.regex(regex)
        }
    }
}

/// The canonical spelling of selector values: string literals the parser reads back exactly, numbers. Other modules that
/// write selectors (axdriver's locators) use it rather than an escaping of their own.
package enum Canon {
    static func list(_ chains: [Chain]) -> String { chains.map(chain).joined(separator: ", ") }

    static func chain(_ chain: Chain) -> String {
        var out = ""
        if let leading = chain.leading, leading != .descendant { out = leading.token + " " }
        for (k, st) in chain.steps.enumerated() {
            if k > 0 { out += st.combinator == .descendant ? " " : " \(st.combinator.token) " }
            out += compound(st.compound)
        }
        return out
    }

    static func compound(_ compound: Compound) -> String {
        var out = compound.role?.rawValue ?? (compound.attributes.isEmpty && compound.pseudos.isEmpty ? "*" : "")
        for test in compound.attributes { out += attribute(test) }
        for test in compound.pseudos where !test.isPositional { out += pseudo(test) }
        for test in compound.pseudos where test.isPositional { out += pseudo(test) }
        return out
    }

    static func isIdent(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy(SelectorParser.isIdentChar) && standsAlone(text)
    }

    /// Whether `s` can be printed between syntax characters without fusing with them (see `quoted`).
    static func standsAlone(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return true }
        return !extendsPrevious(first) && !fusesWithNext(last)
    }

    static func attribute(_ attribute: AttributeTest) -> String {
        guard let value = attribute.value else { return "[\(attribute.name.rawValue)]" }
        if attribute.name == .id, attribute.op == .equals, !attribute.caseInsensitive, case .string(let text) = value {
            return isIdent(text) ? "#\(text)" : "#\(quoted(text))"
        }
        var text: String
        switch value {
        case .string(let bare) where (attribute.name.kind == .set || attribute.name == .role) && isBare(bare):
            text = bare
        default: text = value.canonical
        }
        if attribute.caseInsensitive { text += " i" }
        return "[\(attribute.name.rawValue)\(attribute.op.rawValue)\(text)]"
    }

    /// Set and role values print bare when they are plain names (`[traits&=header,button]`).
    static func isBare(_ text: String) -> Bool {
        !text.isEmpty && SelectorParser.number(text) == nil && standsAlone(text)
            && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." || $0 == "," }
    }

    static func pseudo(_ pseudo: Pseudo) -> String {
        switch pseudo {
        case .has(let selector): return ":has(\(list(selector.chains)))"
        case .not(let selector): return ":not(\(list(selector.chains)))"
        case .is(let selector): return ":is(\(list(selector.chains)))"
        case .nth(let index): return ":nth(\(index))"
        case .nthLast(let index): return ":nth-last(\(index))"
        case .first: return ":first"
        case .last: return ":last"
        case .flag(let flag): return ":\(flag.rawValue)"
        case .state(let names): return ":state(\(names.joined(separator: ", ")))"
        case .trait(let names): return ":trait(\(names.joined(separator: ", ")))"
        case .action(let name): return ":action(\(quoted(name)))"
        case .rotor(let name): return ":rotor(\(quoted(name)))"
        case .text(.substring(let text)): return ":text(\(quoted(text)))"
        case .text(.regex(let pattern)): return ":text(\(regex(pattern)))"
        }
    }

    /// A double-quoted string the parser reads back to `text`. The parser reads grapheme clusters, so a scalar that
    /// would fuse with the syntax next to it is written as `\u{…}`: a combining mark (or other extender) right
    /// after the opening quote or an escape sequence (`"\u{301}"`, `\"\u{301}`), and a prepend character, which
    /// would fuse with whatever follows it (the closing quote, a backslash).
    package static func quoted(_ text: String) -> String {
        var out = "\""
        var afterSyntax = true  // the opening quote, or the end of an escape sequence
        for scalar in text.unicodeScalars {
            var escaped = true
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.properties.generalCategory == .format
                    || scalar.properties.generalCategory == .lineSeparator
                    || (afterSyntax && extendsPrevious(scalar)) || fusesWithNext(scalar)
                {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                    escaped = false
                }
            }
            afterSyntax = escaped
        }
        return out + "\""
    }

    /// Whether `u` joins the grapheme cluster of the character before it (combining marks, ZWJ, variation
    /// selectors, spacing marks…).
    static func extendsPrevious(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return false }
        var probe = "\""
        probe.unicodeScalars.append(scalar)
        return probe.count == 1
    }

    /// Whether `u` joins the grapheme cluster of the character after it (prepend characters).
    static func fusesWithNext(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return false }
        var probe = ""
        probe.unicodeScalars.append(scalar)
        probe.unicodeScalars.append("\"")
        return probe.count == 1
    }

    static func number(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return "\(number)"
    }

    static func regex(_ regex: RegexLiteral) -> String {
        var out = "/"
        // A pattern that starts with an extender (or ends with a prepend character) would fuse with the slash:
        // an empty group `(?:)` keeps them apart and matches the same strings.
        if let first = regex.pattern.unicodeScalars.first, extendsPrevious(first) { out += "(?:)" }
        var backslashes = 0
        for character in regex.pattern {
            if character == "/" && backslashes % 2 == 0 { out += "\\/" } else { out.append(character) }
            backslashes = character == "\\" ? backslashes + 1 : 0
        }
        if let last = regex.pattern.unicodeScalars.last, fusesWithNext(last) { out += "(?:)" }
        return out + "/" + regex.canonicalFlags
    }
}
