import AXCore

extension Selector {
    /// Parses the string form (Specs/selectors.md §Grammar).
    package init(parsing text: String) throws(SelectorError) {
        var parser = SelectorParser(text)
        let chains = try parser.parseTop()
        try self.init(validated: chains)
    }
}

struct SelectorParser {
    let characters: [Character]
    var position = 0
    var depth = 0

    init(_ text: String) { characters = Array(text) }

    // MARK: - Helpers

    var atEnd: Bool { position >= characters.count }
    func peek(_ offset: Int = 0) -> Character? {
        position + offset < characters.count ? characters[position + offset] : nil
    }

    func foundHere(_ at: Int? = nil) -> String {
        let offset = at ?? position
        guard offset < characters.count else { return "end of input" }
        return describe(characters[offset])
    }

    func describe(_ character: Character) -> String {
        if character == " " { return "' ' (space)" }
        if character.isWhitespace { return "whitespace" }
        return "'\(character)'"
    }

    func fail(_ expected: String, at: Int? = nil, found: String? = nil, hint: String? = nil) -> SelectorError {
        let offset = at ?? position
        return SelectorError(position: offset, expected: expected, found: found ?? foundHere(offset), hint: hint)
    }

    @discardableResult
    mutating func skipWS() -> Bool {
        let start = position
        while let character = peek(), character.isWhitespace { position += 1 }
        return position > start
    }

    mutating func expect(_ character: Character) throws(SelectorError) {
        guard peek() == character else { throw fail("'\(character)'") }
        position += 1
    }

    static func isIdentStart(_ character: Character) -> Bool { character.isLetter || character == "_" }
    static func isIdentChar(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-"
    }
    static func startsCompound(_ character: Character) -> Bool {
        isIdentStart(character) || character == "*" || character == "#" || character == "[" || character == ":"
    }

    mutating func ident() -> String {
        let start = position
        while let character = peek(), SelectorParser.isIdentChar(character) { position += 1 }
        return String(characters[start..<position])
    }

    // MARK: - Selector lists and chains

    mutating func parseTop() throws(SelectorError) -> [Chain] {
        guard characters.count <= Selector.maxLength else {
            throw SelectorError(
                position: Selector.maxLength, expected: "at most \(Selector.maxLength) characters",
                found: "\(characters.count) characters")
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
            position += 1
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
                position += 2
                return .within
            }
            position += 1
            return .child
        case "+":
            position += 1
            return .nextSibling
        case "~":
            position += 1
            return .laterSibling
        default: return nil
        }
    }

    mutating func chain(relative: Bool) throws(SelectorError) -> Chain {
        var leading: Combinator?
        if relative {
            let at = position
            if let combinator = combinatorToken() {
                if combinator == .within {
                    throw fail(
                        "'>', '+', '~' or a selector", at: at, found: "'>>'",
                        hint: "'>>' cannot start a :has() argument")
                }
                leading = combinator
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
            let save = position
            let hadWS = skipWS()
            var comb: Combinator
            if let combinator = combinatorToken() {
                comb = combinator
                skipWS()
            } else if hadWS, let combinator = peek(), SelectorParser.startsCompound(combinator) {
                comb = .descendant
            } else {
                position = save
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
        var compound = Compound()
        var consumed = false
        var positional: [Pseudo] = []
        if let ch = peek(), SelectorParser.isIdentStart(ch) {
            let at = position
            let name = ident()
            guard let role = RoleNames.role(name) else {
                throw fail(
                    "a role (\(RoleNames.known))", at: at, found: "'\(name)'",
                    hint: suggestion(name, among: AXRole.allCases.map(\.rawValue) + ["heading", "text", "slider"]).map {
                        "did you mean '\($0)'?"
                    })
            }
            compound.role = role
            consumed = true
        } else if peek() == "*" {
            position += 1
            consumed = true
        }
        loop: while let ch = peek() {
            switch ch {
            case "#":
                position += 1
                compound.attributes.append(try idSelector())
            case "[":
                compound.attributes.append(try attribute())
            case ":":
                let pseudo = try pseudo()
                if pseudo.isPositional { positional.append(pseudo) } else { compound.pseudos.append(pseudo) }
            default:
                break loop
            }
            consumed = true
        }
        compound.pseudos += positional
        return consumed ? compound : nil
    }

    /// Appium's accessibility-id strategy as a whole selector (D-SEL-2): `~General` or `~"Wi-Fi settings"` is
    /// `*[name="General"]` — the accessibility identifier when set, else the label, as XCUITest's `name`.
    mutating func accessibilityID() throws(SelectorError) -> Chain {
        let at = position
        position += 1
        skipWS()
        let value: String
        if peek() == "\"" || peek() == "'" {
            value = try stringLiteral()
            skipWS()
            guard atEnd else {
                throw fail("end of input after an accessibility id (a '~' selector is the whole selector)")
            }
        } else {
            value = String(characters[position...]).trimmingCharacters()
            position = characters.count
        }
        guard !value.isEmpty else { throw fail("an accessibility id after '~' (e.g. ~General)", at: at) }
        return Chain(steps: [Step(.descendant, Compound(attributes: [AttributeTest(.name, .equals, .string(value))]))])
    }

    mutating func idSelector() throws(SelectorError) -> AttributeTest {
        let at = position
        if peek() == "\"" || peek() == "'" {
            let value = try stringLiteral()
            return AttributeTest(.id, .equals, .string(value))
        }
        // idchars, with CSS-style escapes: `\` makes the next character literal (`#toolbar\.share`).
        var value = ""
        while let character = peek() {
            if SelectorParser.isIdentChar(character) {
                value.append(character)
                position += 1
                continue
            }
            if character == "\\" {
                guard let escaped = peek(1) else {
                    position += 1
                    throw fail("a character after '\\'")
                }
                value.append(escaped)
                position += 2
                continue
            }
            break
        }
        guard !value.isEmpty else { throw fail("an identifier or a quoted string after '#'", at: at) }
        if peek() == "." {
            throw fail("the end of the identifier", hint: "quote identifiers that contain '.': #\"\(value)….\"")
        }
        return AttributeTest(.id, .equals, .string(value))
    }

    static let operators: [String] = ["!=", "*=", "^=", "$=", "~=", "&=", "<=", ">=", "=", "<", ">"]

    mutating func attribute() throws(SelectorError) -> AttributeTest {
        try expect("[")
        skipWS()
        let attr = try attributeName()
        skipWS()
        if peek() == "]" {
            position += 1
            return AttributeTest(attr)
        }
        let opAt = position
        var op = try attributeOperator()
        skipWS()
        let valueAt = position
        var value = try attributeValue(after: op)
        let ci = try attributeFlagAndClose()
        if op == .equals, case .regex = value { op = .matches }  // [label=/re/] is a regex match
        if attr == .role, op == .equals || op == .notEquals, case .string(let roleName) = value {
            value = .string(try canonicalRole(roleName, at: valueAt))
        }
        let test = AttributeTest(attr, op, value, caseInsensitive: ci)
        do { try test.validate(path: "") } catch {
            throw positioned(error, op: op, opAt: opAt, valueAt: valueAt)
        }
        return test
    }

    /// The attribute name after `[`, matched without regard to case.
    mutating func attributeName() throws(SelectorError) -> AttributeName {
        let nameAt = position
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
        return attr
    }

    /// The longest operator at the cursor (`SelectorParser.operators` lists the two-character ones first).
    mutating func attributeOperator() throws(SelectorError) -> AttributeOp {
        for candidate in SelectorParser.operators {
            let chars = Array(candidate)
            if position + chars.count <= characters.count,
                Array(characters[position..<(position + chars.count)]) == chars,
                let op = AttributeOp(rawValue: candidate)
            {
                position += chars.count
                return op
            }
        }
        throw fail("an operator (=, !=, *=, ^=, $=, ~=, &=, <, <=, >, >=) or ']'")
    }

    /// A quoted string, a regex literal, or a bare word (a number when it reads as one).
    mutating func attributeValue(after op: AttributeOp) throws(SelectorError) -> AttributeValue {
        switch peek() {
        case "\"", "'": return .string(try stringLiteral())
        case "/": return .regex(try regexLiteral())
        case nil, "]": throw fail("a value after '\(op.rawValue)'")
        default:
            let start = position
            while let character = peek(), !character.isWhitespace, character != "]", character != "\"", character != "'"
            { position += 1 }
            let raw = String(characters[start..<position])
            if let number = SelectorParser.number(raw) { return .number(number) }
            return .string(raw)
        }
    }

    /// The optional ` i` / ` s` flag and the closing `]`; true for case-insensitive.
    mutating func attributeFlagAndClose() throws(SelectorError) -> Bool {
        let hadWS = skipWS()
        var ci = false
        if hadWS, let flag = peek(), flag == "i" || flag == "s" || flag == "I" || flag == "S",
            peek(1).map({ $0 == "]" || $0.isWhitespace }) ?? false
        {
            ci = (flag == "i" || flag == "I")
            position += 1
            skipWS()
        }
        guard peek() == "]" else {
            throw fail(hadWS ? "']' or a flag (i, s)" : "']'")
        }
        position += 1
        return ci
    }

    /// `[role=…]` names a role by any of its accepted names; the canonical raw value is compared.
    func canonicalRole(_ roleName: String, at valueAt: Int) throws(SelectorError) -> String {
        guard let role = RoleNames.role(roleName) else {
            throw fail(
                "a role (\(RoleNames.known))", at: valueAt, found: "'\(roleName)'",
                hint: suggestion(roleName, among: AXRole.allCases.map(\.rawValue)).map { "did you mean '\($0)'?" })
        }
        return role.rawValue
    }

    /// A validation error of an attribute test placed at the operator or the offending value, with a suggestion for
    /// a misspelt trait name.
    func positioned(_ error: SelectorError, op: AttributeOp, opAt: Int, valueAt: Int) -> SelectorError {
        var positioned = SelectorError(position: valueAt, expected: error.expected, found: error.found)
        if error.found == "'\(op.rawValue)'" || error.found.hasPrefix("'&=' on") { positioned.position = opAt }
        if error.expected.hasPrefix("a trait name") {
            let bad = error.found.trimmingQuotes
            positioned.hint = suggestion(bad, among: Traits.named.map(\.name)).map { "did you mean '\($0)'?" }
            let src = String(characters[valueAt..<position])
            if let badRange = src.firstRange(of: bad) {
                positioned.position = valueAt + src.distance(from: src.startIndex, to: badRange.lowerBound)
            }
        }
        return positioned
    }

    /// A strict decimal number: -?digits(.digits)?([eE][+-]?digits)?
    static func number(_ raw: String) -> Double? {
        var it = Array(raw.utf8)[...]
        guard !it.isEmpty else { return nil }
        if it.first == UInt8(ascii: "-") || it.first == UInt8(ascii: "+") { it = it.dropFirst() }
        func digits(_ bytes: inout ArraySlice<UInt8>) -> Int {
            var value = 0
            while let byte = bytes.first, byte >= 48, byte <= 57 {
                bytes = bytes.dropFirst()
                value += 1
            }
            return value
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
        guard it.isEmpty, let number = Double(raw), number.isFinite else { return nil }
        return number
    }

    mutating func stringLiteral() throws(SelectorError) -> String {
        let quote = characters[position]
        let start = position
        position += 1
        var out = ""
        while true {
            guard let character = peek() else {
                throw fail("\(quote == "\"" ? "'\"'" : "\"'\"") to close the string opened at position \(start)")
            }
            position += 1
            if character == quote { return out }
            if character == "\\" {
                try appendEscape(to: &out)
            } else {
                out.append(character)
            }
        }
    }

    /// The escape after a `\` in a string literal: `\n`, `\t`, `\r`, an escaped quote, slash or backslash, or a
    /// unicode escape.
    mutating func appendEscape(to out: inout String) throws(SelectorError) {
        guard let escaped = peek() else { throw fail("an escaped character after '\\'") }
        position += 1
        switch escaped {
        case "n": out.append("\n")
        case "t": out.append("\t")
        case "r": out.append("\r")
        case "\\", "\"", "'", "/": out.append(escaped)
        case "u": out.unicodeScalars.append(try unicodeEscape())
        default:
            throw fail(
                "an escape (\\\\, \\\", \\', \\n, \\t, \\r, \\uXXXX)", at: position - 2, found: "'\\\(escaped)'"
            )
        }
    }

    /// `\uXXXX` or `\u{X…}` (the cursor after the `u`).
    mutating func unicodeEscape() throws(SelectorError) -> Unicode.Scalar {
        let at = position - 2
        var hex = ""
        if peek() == "{" {
            position += 1
            while let hexDigit = peek(), hexDigit != "}" {
                hex.append(hexDigit)
                position += 1
                if hex.count > 8 { break }
            }
            guard peek() == "}" else { throw fail("'}' closing a \\u{…} escape") }
            position += 1
        } else {
            for _ in 0..<4 {
                if let hexDigit = peek() {
                    hex.append(hexDigit)
                    position += 1
                }
            }
        }
        guard let codePoint = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(codePoint) else {
            throw fail("a unicode escape (\\uXXXX or \\u{X…})", at: at, found: "'\\u\(hex)'")
        }
        return scalar
    }

    mutating func regexLiteral() throws(SelectorError) -> RegexLiteral {
        let start = position
        position += 1
        var pattern = ""
        while true {
            guard let character = peek() else { throw fail("'/' to close the regex opened at position \(start)") }
            position += 1
            if character == "/" { break }
            if character == "\\" {
                guard let escaped = peek() else { throw fail("an escaped character after '\\'") }
                position += 1
                if escaped == "/" {
                    pattern.append("/")
                } else {
                    pattern.append("\\")
                    pattern.append(escaped)
                }
            } else {
                pattern.append(character)
            }
        }
        var flags = ""
        while let flag = peek(), flag.isLetter {
            guard RegexLiteral.allowedFlags.contains(flag) else { throw fail("regex flags i, s or m") }
            if !flags.contains(flag) { flags.append(flag) }
            position += 1
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
        let at = position
        let name = ident()
        guard !name.isEmpty else { throw fail("a pseudo-class name after ':'") }
        switch name {
        case "has", "not", "is": return try nestedPseudo(name, at: at)
        case "nth", "nth-last": return try nthPseudo(name)
        case "first", "last":
            if peek() == "(" { throw fail("no argument after :\(name)", hint: "use :nth(n) to pick by position") }
            return name == "first" ? .first : .last
        case "state", "trait": return try namesPseudo(name)
        case "action", "rotor", "text": return try argumentPseudo(name)
        default: return try flagPseudo(name, at: at)
        }
    }

    /// `:has(…)`, `:not(…)`, `:is(…)`: a selector list, nested at most `Selector.maxNesting` deep.
    mutating func nestedPseudo(_ name: String, at: Int) throws(SelectorError) -> Pseudo {
        try expectOpen(name)
        depth += 1
        guard depth <= Selector.maxNesting else {
            throw fail("at most \(Selector.maxNesting) nested :has/:not/:is", at: at, found: "deeper nesting")
        }
        let list = try selectorList(relative: name == "has")
        try expectClose(name)
        depth -= 1
        let sub = try Selector(validated: list)
        switch name {
        case "has": return .has(sub)
        case "not": return .not(sub)
        default: return .is(sub)
        }
    }

    /// `:nth(n)` (negative counts from the end) and `:nth-last(n)` (non-negative).
    mutating func nthPseudo(_ name: String) throws(SelectorError) -> Pseudo {
        try expectOpen(name)
        skipWS()
        let nAt = position
        var raw = ""
        if let sign = peek(), sign == "-" || sign == "+" {
            raw.append(sign)
            position += 1
        }
        while let character = peek(), character.isASCII, character.isNumber {
            raw.append(character)
            position += 1
        }
        guard let index = Int(raw), abs(index) < 1_000_000_000 else {
            throw fail(
                name == "nth" ? "an integer (0-based; negative counts from the end)" : "a non-negative integer",
                at: nAt)
        }
        if name == "nth-last" && index < 0 { throw fail("a non-negative integer", at: nAt, found: "'\(raw)'") }
        try expectClose(name)
        return name == "nth" ? .nth(index) : .nthLast(index)
    }

    /// `:state(a, b…)` and `:trait(a, b…)`: a comma-separated list of known names.
    mutating func namesPseudo(_ name: String) throws(SelectorError) -> Pseudo {
        try expectOpen(name)
        var names: [String] = []
        let known = name == "trait" ? Traits.named.map(\.name) : AXStates.named.map(\.0)
        while true {
            skipWS()
            let nAt = position
            let itemName = ident()
            guard !itemName.isEmpty else { throw fail("a \(name) name (\(known.joined(separator: ", ")))") }
            guard known.contains(itemName) else {
                throw fail(
                    "a \(name) name (\(known.joined(separator: ", ")))", at: nAt, found: "'\(itemName)'",
                    hint: suggestion(itemName, among: known).map { "did you mean '\($0)'?" })
            }
            names.append(itemName)
            skipWS()
            guard peek() == "," else { break }
            position += 1
        }
        guard peek() == ")" else { throw fail("',' or ')'") }
        position += 1
        return name == "trait" ? .trait(names) : .state(names)
    }

    /// `:action(…)`, `:rotor(…)`, `:text(…)`: a quoted string, a bare name, or (`:text` only) a regex literal.
    mutating func argumentPseudo(_ name: String) throws(SelectorError) -> Pseudo {
        try expectOpen(name)
        skipWS()
        let result: Pseudo
        switch peek() {
        case "\"", "'":
            result = Self.argumentPseudo(name, try stringLiteral())
        case "/" where name == "text":
            result = .text(.regex(try regexLiteral()))
        default:
            let start = position
            while let character = peek(), character != ")", character != "\"", character != "'" { position += 1 }
            var raw = String(characters[start..<position])
            while raw.last?.isWhitespace == true { raw.removeLast() }
            guard !raw.isEmpty else { throw fail("a name or a quoted string", at: start) }
            result = Self.argumentPseudo(name, raw)
        }
        try expectClose(name)
        return result
    }

    static func argumentPseudo(_ name: String, _ text: String) -> Pseudo {
        name == "action" ? .action(text) : name == "rotor" ? .rotor(text) : .text(.substring(text))
    }

    /// A state flag without argument (`:enabled`…), or the error naming every pseudo-class.
    mutating func flagPseudo(_ name: String, at: Int) throws(SelectorError) -> Pseudo {
        if let flag = StatePseudo(rawValue: name) {
            if peek() == "(" { throw fail("no argument after :\(name)") }
            return .flag(flag)
        }
        throw fail(
            "a pseudo-class (\(SelectorParser.pseudoNames.joined(separator: ", ")))", at: at, found: "':\(name)'",
            hint: suggestion(name, among: SelectorParser.pseudoNames).map { "did you mean ':\($0)'?" })
    }

    /// The `)` closing `:name(`, after optional whitespace.
    mutating func expectClose(_ name: String) throws(SelectorError) {
        skipWS()
        guard peek() == ")" else { throw fail("')' closing :\(name)(") }
        position += 1
    }

    mutating func expectOpen(_ name: String) throws(SelectorError) {
        guard peek() == "(" else { throw fail("'(' after :\(name)") }
        position += 1
    }
}

extension String {
    var trimmingQuotes: String {
        var trimmed = self
        if trimmed.hasPrefix("'") { trimmed.removeFirst() }
        if trimmed.hasSuffix("'") { trimmed.removeLast() }
        return trimmed
    }
}
