import AXCore

extension Selector {
    /// Parses the string form (Specs/selectors.md §Grammar).
    package init(parsing text: String) throws(SelectorError) {
        var p = SelectorParser(text)
        let chains = try p.parseTop()
        try self.init(validated: chains)
    }
}

struct SelectorParser {
    let s: [Character]
    var i = 0
    var depth = 0

    init(_ text: String) { s = Array(text) }

    // MARK: - Helpers

    var atEnd: Bool { i >= s.count }
    func peek(_ k: Int = 0) -> Character? { i + k < s.count ? s[i + k] : nil }

    func foundHere(_ at: Int? = nil) -> String {
        let p = at ?? i
        guard p < s.count else { return "end of input" }
        return describe(s[p])
    }

    func describe(_ c: Character) -> String {
        if c == " " { return "' ' (space)" }
        if c.isWhitespace { return "whitespace" }
        return "'\(c)'"
    }

    func fail(_ expected: String, at: Int? = nil, found: String? = nil, hint: String? = nil) -> SelectorError {
        let p = at ?? i
        return SelectorError(position: p, expected: expected, found: found ?? foundHere(p), hint: hint)
    }

    @discardableResult
    mutating func skipWS() -> Bool {
        let start = i
        while let c = peek(), c.isWhitespace { i += 1 }
        return i > start
    }

    mutating func expect(_ c: Character) throws(SelectorError) {
        guard peek() == c else { throw fail("'\(c)'") }
        i += 1
    }

    static func isIdentStart(_ c: Character) -> Bool { c.isLetter || c == "_" }
    static func isIdentChar(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "-" }
    static func startsCompound(_ c: Character) -> Bool {
        isIdentStart(c) || c == "*" || c == "#" || c == "[" || c == ":"
    }

    mutating func ident() -> String {
        let start = i
        while let c = peek(), SelectorParser.isIdentChar(c) { i += 1 }
        return String(s[start..<i])
    }

    // MARK: - Selector lists and chains

    mutating func parseTop() throws(SelectorError) -> [Chain] {
        guard s.count <= Selector.maxLength else {
            throw SelectorError(
                position: Selector.maxLength, expected: "at most \(Selector.maxLength) characters",
                found: "\(s.count) characters")
        }
        skipWS()
        if peek() == "~" {
            return [try accessibilityID()]
        }
        let chains = try selectorList(relative: false)
        skipWS()
        guard atEnd else {
            if peek() == ")" { throw fail("end of input", hint: "unbalanced ')'") }
            throw fail("a combinator (' ', '>', '+', '~', '>>'), ',' or end of input")
        }
        return chains
    }

    mutating func selectorList(relative: Bool) throws(SelectorError) -> [Chain] {
        skipWS()
        var out = [try chain(relative: relative)]
        skipWS()
        while peek() == "," {
            i += 1
            skipWS()
            out.append(try chain(relative: relative))
            skipWS()
        }
        return out
    }

    mutating func combinatorToken() -> Combinator? {
        switch peek() {
        case ">":
            if peek(1) == ">" {
                i += 2
                return .within
            }
            i += 1
            return .child
        case "+":
            i += 1
            return .nextSibling
        case "~":
            i += 1
            return .laterSibling
        default: return nil
        }
    }

    mutating func chain(relative: Bool) throws(SelectorError) -> Chain {
        var leading: Combinator?
        if relative {
            let at = i
            if let c = combinatorToken() {
                if c == .within {
                    throw fail(
                        "'>', '+', '~' or a selector", at: at, found: "'>>'",
                        hint: "'>>' cannot start a :has() argument")
                }
                leading = c
                skipWS()
            }
        }
        guard let first = try compound() else {
            throw fail(
                relative
                    ? "a selector (role, '*', '#', '[', ':') or '>', '+', '~'"
                    : "a selector (role, '*', '#', '[' or ':')")
        }
        var steps = [Step(.descendant, first)]
        while true {
            let save = i
            let hadWS = skipWS()
            var comb: Combinator
            if let c = combinatorToken() {
                comb = c
                skipWS()
            } else if hadWS, let c = peek(), SelectorParser.startsCompound(c) {
                comb = .descendant
            } else {
                i = save
                break
            }
            guard let next = try compound() else {
                throw fail(comb == .descendant ? "a selector" : "a selector after '\(comb.token)'")
            }
            steps.append(Step(comb, next))
        }
        return Chain(leading: leading, steps: steps)
    }

    // MARK: - Compounds

    mutating func compound() throws(SelectorError) -> Compound? {
        var c = Compound()
        var consumed = false
        var positional: [Pseudo] = []
        if let ch = peek(), SelectorParser.isIdentStart(ch) {
            let at = i
            let name = ident()
            guard let r = RoleNames.role(name) else {
                throw fail(
                    "a role (\(RoleNames.known))", at: at, found: "'\(name)'",
                    hint: suggestion(name, among: AXRole.allCases.map(\.rawValue) + ["heading", "text", "slider"]).map {
                        "did you mean '\($0)'?"
                    })
            }
            c.role = r
            consumed = true
        } else if peek() == "*" {
            i += 1
            consumed = true
        }
        loop: while let ch = peek() {
            switch ch {
            case "#":
                i += 1
                c.attributes.append(try idSelector())
            case "[":
                c.attributes.append(try attribute())
            case ":":
                let p = try pseudo()
                if p.isPositional { positional.append(p) } else { c.pseudos.append(p) }
            default:
                break loop
            }
            consumed = true
        }
        c.pseudos += positional
        return consumed ? c : nil
    }

    /// Appium's accessibility-id strategy as a whole selector (D-SEL-2): `~General` or `~"Wi-Fi settings"` is
    /// `*[name="General"]` — the accessibility identifier when set, else the label, as XCUITest's `name`.
    mutating func accessibilityID() throws(SelectorError) -> Chain {
        let at = i
        i += 1
        skipWS()
        let value: String
        if peek() == "\"" || peek() == "'" {
            value = try stringLiteral()
            skipWS()
            guard atEnd else {
                throw fail("end of input after an accessibility id (a '~' selector is the whole selector)")
            }
        } else {
            value = String(s[i...]).trimmingCharacters()
            i = s.count
        }
        guard !value.isEmpty else { throw fail("an accessibility id after '~' (e.g. ~General)", at: at) }
        return Chain(steps: [Step(.descendant, Compound(attributes: [AttributeTest(.name, .equals, .string(value))]))])
    }

    mutating func idSelector() throws(SelectorError) -> AttributeTest {
        let at = i
        if peek() == "\"" || peek() == "'" {
            let v = try stringLiteral()
            return AttributeTest(.id, .equals, .string(v))
        }
        // idchars, with CSS-style escapes: `\` makes the next character literal (`#toolbar\.share`).
        var v = ""
        while let c = peek() {
            if SelectorParser.isIdentChar(c) {
                v.append(c)
                i += 1
                continue
            }
            if c == "\\" {
                guard let e = peek(1) else {
                    i += 1
                    throw fail("a character after '\\'")
                }
                v.append(e)
                i += 2
                continue
            }
            break
        }
        guard !v.isEmpty else { throw fail("an identifier or a quoted string after '#'", at: at) }
        if peek() == "." {
            throw fail("the end of the identifier", hint: "quote identifiers that contain '.': #\"\(v)….\"")
        }
        return AttributeTest(.id, .equals, .string(v))
    }

    static let operators: [String] = ["!=", "*=", "^=", "$=", "~=", "&=", "<=", ">=", "=", "<", ">"]

    mutating func attribute() throws(SelectorError) -> AttributeTest {
        try expect("[")
        skipWS()
        let nameAt = i
        let name = ident()
        guard !name.isEmpty else {
            throw fail("an attribute name (\(AttributeName.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let attr = AttributeName.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
            throw fail(
                "an attribute name (\(AttributeName.allCases.map(\.rawValue).joined(separator: ", ")))", at: nameAt,
                found: "'\(name)'",
                hint: suggestion(name, among: AttributeName.allCases.map(\.rawValue)).map { "did you mean '\($0)'?" })
        }
        skipWS()
        if peek() == "]" {
            i += 1
            return AttributeTest(attr)
        }
        let opAt = i
        var op: AttributeOp?
        for o in SelectorParser.operators {
            let chars = Array(o)
            if i + chars.count <= s.count, Array(s[i..<(i + chars.count)]) == chars {
                op = AttributeOp(rawValue: o)
                i += chars.count
                break
            }
        }
        guard var op else { throw fail("an operator (=, !=, *=, ^=, $=, ~=, &=, <, <=, >, >=) or ']'") }
        skipWS()
        let valueAt = i
        var value: AttributeValue
        switch peek() {
        case "\"", "'": value = .string(try stringLiteral())
        case "/": value = .regex(try regexLiteral())
        case nil, "]": throw fail("a value after '\(op.rawValue)'")
        default:
            let start = i
            while let c = peek(), !c.isWhitespace, c != "]", c != "\"", c != "'" { i += 1 }
            let raw = String(s[start..<i])
            if let d = SelectorParser.number(raw) { value = .number(d) } else { value = .string(raw) }
        }
        let hadWS = skipWS()
        var ci = false
        if hadWS, let f = peek(), f == "i" || f == "s" || f == "I" || f == "S",
            peek(1).map({ $0 == "]" || $0.isWhitespace }) ?? false
        {
            ci = (f == "i" || f == "I")
            i += 1
            skipWS()
        }
        guard peek() == "]" else {
            throw fail(hadWS ? "']' or a flag (i, s)" : "']'")
        }
        i += 1
        if op == .equals, case .regex = value { op = .matches }  // [label=/re/] is a regex match
        if attr == .role, op == .equals || op == .notEquals, case .string(let r) = value {
            guard let role = RoleNames.role(r) else {
                throw fail(
                    "a role (\(RoleNames.known))", at: valueAt, found: "'\(r)'",
                    hint: suggestion(r, among: AXRole.allCases.map(\.rawValue)).map { "did you mean '\($0)'?" })
            }
            value = .string(role.rawValue)
        }
        let test = AttributeTest(attr, op, value, caseInsensitive: ci)
        do { try test.validate(path: "") } catch {
            var e = SelectorError(position: valueAt, expected: error.expected, found: error.found)
            if error.found == "'\(op.rawValue)'" || error.found.hasPrefix("'&=' on") { e.position = opAt }
            if error.expected.hasPrefix("a trait name") {
                let bad = error.found.trimmingQuotes
                e.hint = suggestion(bad, among: Traits.named.map(\.name)).map { "did you mean '\($0)'?" }
                let src = String(s[valueAt..<i])
                if let r = src.firstRange(of: bad) {
                    e.position = valueAt + src.distance(from: src.startIndex, to: r.lowerBound)
                }
            }
            throw e
        }
        return test
    }

    /// A strict decimal number: -?digits(.digits)?([eE][+-]?digits)?
    static func number(_ raw: String) -> Double? {
        var it = Array(raw.utf8)[...]
        guard !it.isEmpty else { return nil }
        if it.first == UInt8(ascii: "-") || it.first == UInt8(ascii: "+") { it = it.dropFirst() }
        func digits(_ x: inout ArraySlice<UInt8>) -> Int {
            var n = 0
            while let c = x.first, c >= 48, c <= 57 {
                x = x.dropFirst()
                n += 1
            }
            return n
        }
        guard digits(&it) > 0 else { return nil }
        if it.first == UInt8(ascii: ".") {
            it = it.dropFirst()
            guard digits(&it) > 0 else { return nil }
        }
        if it.first == UInt8(ascii: "e") || it.first == UInt8(ascii: "E") {
            it = it.dropFirst()
            if it.first == UInt8(ascii: "-") || it.first == UInt8(ascii: "+") { it = it.dropFirst() }
            guard digits(&it) > 0 else { return nil }
        }
        guard it.isEmpty, let d = Double(raw), d.isFinite else { return nil }
        return d
    }

    mutating func stringLiteral() throws(SelectorError) -> String {
        let q = s[i]
        let start = i
        i += 1
        var out = ""
        while true {
            guard let c = peek() else {
                throw fail("\(q == "\"" ? "'\"'" : "\"'\"") to close the string opened at position \(start)")
            }
            i += 1
            if c == q { return out }
            if c == "\\" {
                guard let e = peek() else { throw fail("an escaped character after '\\'") }
                i += 1
                switch e {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "\\", "\"", "'", "/": out.append(e)
                case "u":
                    let at = i - 2
                    var hex = ""
                    if peek() == "{" {
                        i += 1
                        while let h = peek(), h != "}" {
                            hex.append(h)
                            i += 1
                            if hex.count > 8 { break }
                        }
                        guard peek() == "}" else { throw fail("'}' closing a \\u{…} escape") }
                        i += 1
                    } else {
                        for _ in 0..<4 {
                            if let h = peek() {
                                hex.append(h)
                                i += 1
                            }
                        }
                    }
                    guard let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else {
                        throw fail("a unicode escape (\\uXXXX or \\u{X…})", at: at, found: "'\\u\(hex)'")
                    }
                    out.unicodeScalars.append(scalar)
                default:
                    throw fail("an escape (\\\\, \\\", \\', \\n, \\t, \\r, \\uXXXX)", at: i - 2, found: "'\\\(e)'")
                }
            } else {
                out.append(c)
            }
        }
    }

    mutating func regexLiteral() throws(SelectorError) -> RegexLiteral {
        let start = i
        i += 1
        var pattern = ""
        while true {
            guard let c = peek() else { throw fail("'/' to close the regex opened at position \(start)") }
            i += 1
            if c == "/" { break }
            if c == "\\" {
                guard let e = peek() else { throw fail("an escaped character after '\\'") }
                i += 1
                if e == "/" {
                    pattern.append("/")
                } else {
                    pattern.append("\\")
                    pattern.append(e)
                }
            } else {
                pattern.append(c)
            }
        }
        var flags = ""
        while let f = peek(), f.isLetter {
            guard RegexLiteral.allowedFlags.contains(f) else { throw fail("regex flags i, s or m") }
            if !flags.contains(f) { flags.append(f) }
            i += 1
        }
        let lit = RegexLiteral(pattern: pattern, flags: flags)
        _ = try lit.compile(position: start)
        return RegexLiteral(pattern: pattern, flags: lit.canonicalFlags)
    }

    // MARK: - Pseudo-classes

    static let pseudoNames: [String] =
        ["has", "not", "is", "nth", "nth-last", "first", "last", "state", "trait", "action", "rotor", "text"]
        + StatePseudo.allCases.map(\.rawValue)

    mutating func pseudo() throws(SelectorError) -> Pseudo {
        try expect(":")
        let at = i
        let name = ident()
        guard !name.isEmpty else { throw fail("a pseudo-class name after ':'") }
        switch name {
        case "has", "not", "is":
            try expectOpen(name)
            depth += 1
            guard depth <= Selector.maxNesting else {
                throw fail("at most \(Selector.maxNesting) nested :has/:not/:is", at: at, found: "deeper nesting")
            }
            let list = try selectorList(relative: name == "has")
            skipWS()
            guard peek() == ")" else { throw fail("')' closing :\(name)(") }
            i += 1
            depth -= 1
            let sub = try Selector(validated: list)
            switch name {
            case "has": return .has(sub)
            case "not": return .not(sub)
            default: return .is(sub)
            }
        case "nth", "nth-last":
            try expectOpen(name)
            skipWS()
            let nAt = i
            var raw = ""
            if peek() == "-" || peek() == "+" {
                raw.append(peek()!)
                i += 1
            }
            while let c = peek(), c.isASCII, c.isNumber {
                raw.append(c)
                i += 1
            }
            guard let n = Int(raw), abs(n) < 1_000_000_000 else {
                throw fail(
                    name == "nth" ? "an integer (0-based; negative counts from the end)" : "a non-negative integer",
                    at: nAt)
            }
            if name == "nth-last" && n < 0 { throw fail("a non-negative integer", at: nAt, found: "'\(raw)'") }
            skipWS()
            guard peek() == ")" else { throw fail("')' closing :\(name)(") }
            i += 1
            return name == "nth" ? .nth(n) : .nthLast(n)
        case "first", "last":
            if peek() == "(" { throw fail("no argument after :\(name)", hint: "use :nth(n) to pick by position") }
            return name == "first" ? .first : .last
        case "state", "trait":
            try expectOpen(name)
            var names: [String] = []
            let known = name == "trait" ? Traits.named.map(\.name) : AXStates.named.map(\.0)
            while true {
                skipWS()
                let nAt = i
                let n = ident()
                guard !n.isEmpty else { throw fail("a \(name) name (\(known.joined(separator: ", ")))") }
                guard known.contains(n) else {
                    throw fail(
                        "a \(name) name (\(known.joined(separator: ", ")))", at: nAt, found: "'\(n)'",
                        hint: suggestion(n, among: known).map { "did you mean '\($0)'?" })
                }
                names.append(n)
                skipWS()
                guard peek() == "," else { break }
                i += 1
            }
            guard peek() == ")" else { throw fail("',' or ')'") }
            i += 1
            return name == "trait" ? .trait(names) : .state(names)
        case "action", "rotor", "text":
            try expectOpen(name)
            skipWS()
            var result: Pseudo
            switch peek() {
            case "\"", "'":
                let v = try stringLiteral()
                result = name == "action" ? .action(v) : name == "rotor" ? .rotor(v) : .text(.substring(v))
            case "/" where name == "text":
                result = .text(.regex(try regexLiteral()))
            default:
                let start = i
                while let c = peek(), c != ")", c != "\"", c != "'" { i += 1 }
                var raw = String(s[start..<i])
                while raw.last?.isWhitespace == true { raw.removeLast() }
                guard !raw.isEmpty else { throw fail("a name or a quoted string", at: start) }
                result = name == "action" ? .action(raw) : name == "rotor" ? .rotor(raw) : .text(.substring(raw))
            }
            skipWS()
            guard peek() == ")" else { throw fail("')' closing :\(name)(") }
            i += 1
            return result
        default:
            if let f = StatePseudo(rawValue: name) {
                if peek() == "(" { throw fail("no argument after :\(name)") }
                return .flag(f)
            }
            throw fail(
                "a pseudo-class (\(SelectorParser.pseudoNames.joined(separator: ", ")))", at: at, found: "':\(name)'",
                hint: suggestion(name, among: SelectorParser.pseudoNames).map { "did you mean ':\($0)'?" })
        }
    }

    mutating func expectOpen(_ name: String) throws(SelectorError) {
        guard peek() == "(" else { throw fail("'(' after :\(name)") }
        i += 1
    }
}

extension String {
    var trimmingQuotes: String {
        var s = self
        if s.hasPrefix("'") { s.removeFirst() }
        if s.hasSuffix("'") { s.removeLast() }
        return s
    }
}
