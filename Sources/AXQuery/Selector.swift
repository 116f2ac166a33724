import AXCore

// The selector AST (Specs/selectors.md §8 JSON form). A `Selector` is a union of chains; a chain is a list of compounds
// joined by combinators; a compound is an optional role plus attribute tests and pseudo-classes.

/// A parsed, validated and compiled selector. Build one from the string form (`init(parsing:)`), the JSON form
/// (`init(json:)`) or an AST (`init(chains:)`); all three validate and compile the same way.
package struct Selector: Sendable, Hashable, CustomStringConvertible {
    /// The alternatives of the union (`a, b`), at least one.
    package let chains: [Chain]
    let compiled: CompiledSelector

    /// Builds a selector from an AST, validating it (regexes compile, nesting within limits, …).
    package init(chains: [Chain]) throws(SelectorError) {
        let chains = chains.map(\.normalized)
        try Selector.validate(chains, path: "$", depth: 0, relative: false)
        self.chains = chains
        self.compiled = try CompiledSelector(chains)
    }

    init(validated chains: [Chain]) throws(SelectorError) {
        let chains = chains.map(\.normalized)
        self.chains = chains
        self.compiled = try CompiledSelector(chains)
    }

    package static func == (lhs: Selector, rhs: Selector) -> Bool { lhs.chains == rhs.chains }
    package func hash(into hasher: inout Hasher) { hasher.combine(chains) }
    package var description: String { canonical }

    /// Maximum nesting of `:has()`, `:not()` and `:is()`.
    package static let maxNesting = 32
    /// Maximum length of the string form, in characters.
    package static let maxLength = 65_536

    static func validate(_ chains: [Chain], path: String, depth: Int, relative: Bool) throws(SelectorError) {
        guard !chains.isEmpty else {
            throw SelectorError(path: path, expected: "at least one selector", found: "an empty union")
        }
        guard depth <= maxNesting else {
            throw SelectorError(
                path: path, expected: "at most \(maxNesting) nested :has/:not/:is", found: "deeper nesting")
        }
        for (chainIndex, chain) in chains.enumerated() {
            let chainPath = chains.count == 1 ? path : "\(path).union[\(chainIndex)]"
            try validate(chain, path: chainPath, depth: depth, relative: relative)
        }
    }

    static func validate(_ chain: Chain, path chainPath: String, depth: Int, relative: Bool) throws(SelectorError) {
        guard !chain.steps.isEmpty else {
            throw SelectorError(path: chainPath, expected: "at least one compound", found: "an empty chain")
        }
        if chain.leading != nil && !relative {
            throw SelectorError(
                path: chainPath, expected: "a compound", found: "a leading combinator (only allowed inside :has())")
        }
        if chain.leading == .within {
            throw SelectorError(path: chainPath, expected: "'>', '+' or '~'", found: "a leading '>>'")
        }
        for (stepIndex, step) in chain.steps.enumerated() {
            let stepPath = chain.steps.count == 1 ? chainPath : "\(chainPath).chain[\(stepIndex)]"
            for (attributeIndex, attribute) in step.compound.attributes.enumerated() {
                try attribute.validate(path: "\(stepPath).attrs[\(attributeIndex)]")
            }
            for (pseudoIndex, pseudo) in step.compound.pseudos.enumerated() {
                try validate(pseudo, path: "\(stepPath).pseudos[\(pseudoIndex)]", depth: depth)
            }
        }
    }

    static func validate(_ pseudo: Pseudo, path pseudoPath: String, depth: Int) throws(SelectorError) {
        switch pseudo {
        case .has(let sub): try validate(sub.chains, path: pseudoPath, depth: depth + 1, relative: true)
        case .not(let sub), .is(let sub):
            try validate(sub.chains, path: pseudoPath, depth: depth + 1, relative: false)
        case .nthLast(let index) where index < 0:
            throw SelectorError(
                path: pseudoPath, expected: "a non-negative integer for :nth-last", found: "\(index)")
        case .trait(let names):
            guard !names.isEmpty else {
                throw SelectorError(path: pseudoPath, expected: "at least one trait name", found: "none")
            }
            for name in names where Traits.named(name) == nil {
                throw SelectorError(
                    path: pseudoPath,
                    expected: "a trait name (\(Traits.named.map(\.name).joined(separator: ", ")))",
                    found: "'\(name)'")
            }
        case .state(let names):
            guard !names.isEmpty else {
                throw SelectorError(path: pseudoPath, expected: "at least one state name", found: "none")
            }
            for name in names where AXStates.named.first(where: { $0.0 == name }) == nil {
                throw SelectorError(
                    path: pseudoPath,
                    expected: "a state name (\(AXStates.named.map(\.0).joined(separator: ", ")))",
                    found: "'\(name)'")
            }
        case .text(.regex(let regex)):
            _ = try regex.compile(path: pseudoPath)
        default: break
        }
    }
}

extension Chain {
    /// Positional pseudo-classes moved last in each compound (their meaning does not depend on where they are
    /// written); an explicit leading descendant and the ignored first combinator made canonical.
    var normalized: Chain {
        var chain = self
        if chain.leading == .descendant { chain.leading = nil }
        if !chain.steps.isEmpty { chain.steps[0].combinator = .descendant }
        for stepIndex in chain.steps.indices {
            let pseudos = chain.steps[stepIndex].compound.pseudos
            chain.steps[stepIndex].compound.pseudos =
                pseudos.filter { !$0.isPositional } + pseudos.filter(\.isPositional)
        }
        return chain
    }
}

/// One alternative of a union: compounds joined by combinators.
package struct Chain: Sendable, Hashable {
    /// Inside `:has()` only: the relation of the first compound to the anchor (`:has(> button)`); nil means descendant.
    package var leading: Combinator?
    /// The compounds; the first step's combinator is ignored (it is always `.descendant`).
    package var steps: [Step]
    package init(leading: Combinator? = nil, steps: [Step]) {
        self.leading = leading
        self.steps = steps
    }
}

package struct Step: Sendable, Hashable {
    package var combinator: Combinator
    package var compound: Compound
    package init(_ combinator: Combinator = .descendant, _ compound: Compound) {
        self.combinator = combinator
        self.compound = compound
    }
}

package enum Combinator: String, Sendable, Hashable, CaseIterable {
    /// whitespace: any descendant of a match of the left side
    case descendant
    /// `>`: a child
    case child
    /// `+`: the next sibling
    case nextSibling
    /// `~`: any later sibling
    case laterSibling
    /// `>>`: re-root: the right side is a fresh query inside each match of the left side
    case within

    package var token: String {
        switch self {
        case .descendant: return " "
        case .child: return ">"
        case .nextSibling: return "+"
        case .laterSibling: return "~"
        case .within: return ">>"
        }
    }
}

/// A role (or any role) plus tests. Non-positional tests are a conjunction; positional pseudo-classes
/// (`:nth`, `:nth-last`, `:first`, `:last`) then pick from the resulting list, in the order written.
package struct Compound: Sendable, Hashable {
    /// nil is `*` (any role).
    package var role: AXRole?
    package var attributes: [AttributeTest]
    package var pseudos: [Pseudo]
    package init(role: AXRole? = nil, attributes: [AttributeTest] = [], pseudos: [Pseudo] = []) {
        self.role = role
        self.attributes = attributes
        self.pseudos = pseudos
    }
    package var isEmpty: Bool { role == nil && attributes.isEmpty && pseudos.isEmpty }
}

package enum AttributeName: String, Sendable, Hashable, CaseIterable {
    case id, label, value, hint, placeholder, role, `class`, traits, actions, text, index, depth, name
    case x, y, width, height, lang, headingLevel, axid, window
    /// A data-table cell's first row and column, and the view's `tag` (issue 25: D-QUERY-2, D-NA-23 rewritten).
    case row, column, tag

    package enum Kind: Sendable { case string, number, set }
    package var kind: Kind {
        switch self {
        case .traits, .actions: return .set
        case .index, .depth, .x, .y, .width, .height, .headingLevel, .row, .column, .tag: return .number
        default: return .string
        }
    }
}

package enum AttributeOp: String, Sendable, Hashable, CaseIterable {
    /// `[name]`: the attribute is set (non-empty)
    case exists = ""
    case equals = "="
    case notEquals = "!="
    case contains = "*="
    case prefix = "^="
    case suffix = "$="
    case matches = "~="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// `&=`: the set contains every listed member
    case includes = "&="

    var isNumeric: Bool { self == .less || self == .lessOrEqual || self == .greater || self == .greaterOrEqual }
}

package struct RegexLiteral: Sendable, Hashable {
    package var pattern: String
    /// Any of `i` (ignore case), `s` (dot matches newlines), `m` (^ and $ match at line ends), in that order.
    package var flags: String
    package init(pattern: String, flags: String = "") {
        self.pattern = pattern
        self.flags = flags
    }
}

package enum AttributeValue: Sendable, Hashable {
    case string(String)
    case number(Double)
    case regex(RegexLiteral)
}

package struct AttributeTest: Sendable, Hashable {
    package var name: AttributeName
    package var op: AttributeOp
    /// nil only for `.exists`.
    package var value: AttributeValue?
    /// The `i` flag (string operators only).
    package var caseInsensitive: Bool
    package init(
        _ name: AttributeName, _ op: AttributeOp = .exists, _ value: AttributeValue? = nil,
        caseInsensitive: Bool = false
    ) {
        self.name = name
        self.op = op
        self.value = value
        self.caseInsensitive = caseInsensitive
    }

    func validate(path: String) throws(SelectorError) {
        guard let checkedValue = try validateValuePresence(path: path) else { return }
        if case .regex(let regex) = checkedValue {
            guard op == .matches else { throw fail(path, "'~=' before a /regex/", "'\(op.rawValue)'") }
            guard !caseInsensitive else {
                throw fail(path, "regex flags inside the literal (/…/i)", "an 'i' flag after a regex")
            }
            _ = try regex.compile(path: path)
            return
        }
        if op == .matches { return try validateMatches(checkedValue, path: path) }
        switch name.kind {
        case .number: try validateNumeric(checkedValue, path: path)
        case .set: try validateSet(checkedValue, path: path)
        case .string: try validateString(checkedValue, path: path)
        }
    }

    func fail(_ path: String, _ expected: String, _ found: String) -> SelectorError {
        SelectorError(path: path, expected: expected, found: found)
    }

    /// A bare `[name]` has no value (and no flag), every other operator one; nil for a valid bare test.
    func validateValuePresence(path: String) throws(SelectorError) -> AttributeValue? {
        switch (op, value) {
        case (.exists, nil):
            guard !caseInsensitive else {
                throw fail(path, "a value before the 'i' flag", "'i' on a bare [\(name.rawValue)]")
            }
            return nil
        case (.exists, .some): throw fail(path, "no value for a bare [\(name.rawValue)]", "a value")
        case (_, nil): throw fail(path, "a value after '\(op.rawValue)'", "none")
        case (_, .some(let checkedValue)): return checkedValue
        }
    }

    /// `~=` with a string or number: the text is compiled as a regex.
    func validateMatches(_ checkedValue: AttributeValue, path: String) throws(SelectorError) {
        guard name.kind != .number else {
            throw fail(path, "=, !=, <, <=, > or >= for the numeric attribute '\(name.rawValue)'", "'~='")
        }
        let text: String
        switch checkedValue {
        case .string(let string): text = string
        case .number(let number): text = Canon.number(number)
        case .regex: return
        }
        _ = try RegexLiteral(pattern: text, flags: caseInsensitive ? "i" : "").compile(path: path)
    }

    func validateNumeric(_ checkedValue: AttributeValue, path: String) throws(SelectorError) {
        guard case .number = checkedValue else {
            throw fail(path, "a number for the numeric attribute '\(name.rawValue)'", "\(checkedValue.canonical)")
        }
        guard op == .equals || op == .notEquals || op.isNumeric else {
            throw fail(
                path, "=, !=, <, <=, > or >= for the numeric attribute '\(name.rawValue)'", "'\(op.rawValue)'")
        }
        guard !caseInsensitive else { throw fail(path, "no 'i' flag on a numeric comparison", "'i'") }
    }

    func validateSet(_ checkedValue: AttributeValue, path: String) throws(SelectorError) {
        guard case .string(let text) = checkedValue else {
            throw fail(path, "names for the set attribute '\(name.rawValue)'", "a number")
        }
        guard !op.isNumeric else {
            throw fail(
                path, "&=, =, !=, *=, ^=, $= or ~= for the set attribute '\(name.rawValue)'", "'\(op.rawValue)'")
        }
        if name == .traits && (op == .includes || op == .equals || op == .notEquals) {
            for traitName in AttributeTest.splitNames(text) where Traits.named(traitName) == nil {
                throw fail(
                    path, "a trait name (\(Traits.named.map(\.name).joined(separator: ", ")))", "'\(traitName)'")
            }
        }
    }

    func validateString(_ checkedValue: AttributeValue, path: String) throws(SelectorError) {
        if op == .includes {
            throw fail(path, "'&=' only on the set attributes traits and actions", "'&=' on '\(name.rawValue)'")
        }
        if op.isNumeric {
            guard case .number = checkedValue else {
                throw fail(path, "a number after '\(op.rawValue)'", checkedValue.canonical)
            }
        }
        if case .number = checkedValue, caseInsensitive {
            throw fail(path, "no 'i' flag on a numeric comparison", "'i'")
        }
        if name == .role, op == .equals || op == .notEquals, case .string(let text) = checkedValue,
            AXRole(rawValue: text) == nil
        {
            throw fail(path, "a role (\(RoleNames.known))", "'\(text)'")
        }
    }

    /// Splits a set value (`"header, button"`) into names.
    static func splitNames(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }
}

package enum TextMatch: Sendable, Hashable {
    /// Case-insensitive substring after whitespace normalization.
    case substring(String)
    case regex(RegexLiteral)
}

package enum StatePseudo: String, Sendable, Hashable, CaseIterable {
    case visible, hidden, onscreen, offscreen, hittable, enabled, disabled, selected, checked
    case focused, focusable, editable, modal, element, container
}

package indirect enum Pseudo: Sendable, Hashable {
    /// `:has(rel)`: some node related to this one (descendant by default, or `>`, `+`, `~`) matches.
    case has(Selector)
    case not(Selector)
    case `is`(Selector)
    /// 0-based; negative counts from the end (`-1` is the last).
    case nth(Int)
    /// 0-based from the end (`0` is the last).
    case nthLast(Int)
    case first
    case last
    case flag(StatePseudo)
    /// `:state(a, b)`: every named AXStates bit is set.
    case state([String])
    /// `:trait(a, b)`: every named trait is set.
    case trait([String])
    /// `:action(name)`: a standard action (by wire name) or a custom action (by name or id).
    case action(String)
    /// `:rotor(name)`: a custom rotor with that name, or a system rotor type.
    case rotor(String)
    /// `:text(str)`: label, value or text contains str (case-insensitive), or matches a regex.
    case text(TextMatch)

    package var isPositional: Bool {
        switch self {
        case .nth, .nthLast, .first, .last: return true
        default: return false
        }
    }
}
