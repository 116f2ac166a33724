import AXCore

// Selectors compiled once (at parse time) into flat test lists the engine runs without allocating.

final class CompiledSelector: @unchecked Sendable {
    // @unchecked: immutable after init; compiled regexes are immutable values, safe to share for matching.
    let chains: [CChain]
    /// Non-nil when the selector is a union of single compounds without positional pseudo-classes or leading
    /// combinators: then "matches" is a per-node predicate.
    let simple: [SimpleCompound]?

    init(_ chains: [Chain]) throws(SelectorError) {
        var compiled: [CChain] = []
        for chain in chains {
            var steps: [CStep] = []
            for step in chain.steps { steps.append(try CStep(step)) }
            compiled.append(CChain(leading: chain.leading, steps: steps))
        }
        self.chains = compiled
        if compiled.allSatisfy({ $0.leading == nil && $0.steps.count == 1 && $0.steps[0].positional.isEmpty }) {
            simple = compiled.map { SimpleCompound(role: $0.steps[0].role, tests: $0.steps[0].tests) }
        } else {
            simple = nil
        }
    }

    /// Single chain, single compound, no positional: `:has()` can precompute the matching set once.
    var singleStep: CStep? {
        guard chains.count == 1, chains[0].steps.count == 1, chains[0].steps[0].positional.isEmpty else { return nil }
        return chains[0].steps[0]
    }
}

struct SimpleCompound {
    var role: AXRole?
    var tests: [Test]
}

struct CChain {
    var leading: Combinator?
    var steps: [CStep]
    /// Per step: whether a positional pseudo-class occurs at or after it. A `>>` step without one behaves exactly
    /// like a descendant step (the per-match lists would only be united), so the engine runs it as one.
    let positionalFrom: [Bool]

    init(leading: Combinator?, steps: [CStep]) {
        self.leading = leading
        self.steps = steps
        var flags = [Bool](repeating: false, count: steps.count)
        var seen = false
        for stepIndex in steps.indices.reversed() {
            seen = seen || !steps[stepIndex].positional.isEmpty
            flags[stepIndex] = seen
        }
        positionalFrom = flags
    }
}

struct CStep {
    var combinator: Combinator
    var role: AXRole?
    /// An exact `#id` test: candidates come from the identifier index.
    var identifier: String?
    /// An exact `[axid=…]` test: a direct lookup.
    var axid: String?
    var tests: [Test]
    var positional: [Pseudo]
    var source: Compound

    init(_ step: Step) throws(SelectorError) {
        combinator = step.combinator
        source = step.compound
        role = step.compound.role
        var tests: [Test] = []
        positional = []
        for attribute in step.compound.attributes {
            if attribute.op == .equals, !attribute.caseInsensitive, case .string(let text) = attribute.value {
                if attribute.name == .id, identifier == nil, text == StringMatcher.normalize(text) { identifier = text }
                if attribute.name == .axid, axid == nil { axid = text }
            }
            tests.append(try Test.attribute(attribute))
        }
        for pseudo in step.compound.pseudos {
            if pseudo.isPositional { positional.append(pseudo) } else { tests.append(try Test.pseudo(pseudo)) }
        }
        self.tests = tests.enumerated().sorted { lhs, rhs in
            lhs.element.cost != rhs.element.cost ? lhs.element.cost < rhs.element.cost : lhs.offset < rhs.offset
        }.map(\.element)
    }
}

enum StrAttr { case id, label, value, hint, placeholder, role, className, text, lang, axid, window, name }
enum NumAttr {
    case index, depth, x, y, width, height, headingLevel
    case row, column, tag
    case string(StrAttr)
}
enum NumOp { case eq, ne, lt, le, gt, ge }

enum Test {
    case string(StrAttr, StringMatcher, negate: Bool)
    case number(NumAttr, NumOp, Double)
    case exists(AttributeName)
    case traitsAll(Traits)
    case traitsExact(Traits, negate: Bool)
    case traitNames(StringMatcher, negate: Bool)
    case actionsAll([String], ci: Bool)
    case actionsExact([String], negate: Bool, ci: Bool)
    case actionNames(StringMatcher, negate: Bool)
    case statesAll(AXStates)
    case statesNone(AXStates)
    case element(Bool)
    case focused
    case hittable
    case action(String)
    case rotor(String)
    case text(StringMatcher)
    case simple([SimpleCompound], negate: Bool)
    case set(CompiledSelector, negate: Bool)
    case has(CompiledSelector)

    var cost: Int {
        switch self {
        case .statesAll, .statesNone, .element, .focused, .traitsAll, .traitsExact, .number, .exists: return 0
        case .string(_, let matcher, _): return matcher.regex == nil ? 1 : 3
        case .actionsAll, .actionsExact, .action, .rotor: return 2
        case .traitNames, .actionNames, .text: return 3
        case .simple: return 4
        case .set: return 5
        case .has: return 6
        case .hittable: return 7
        }
    }

    /// The string attribute `name` names; nil for the number and set attributes. Exhaustive: a new attribute name
    /// does not compile until it is placed here and in `numAttr`.
    static func strAttr(_ name: AttributeName) -> StrAttr? {
        switch name {
        case .id: return .id
        case .label: return .label
        case .value: return .value
        case .hint: return .hint
        case .placeholder: return .placeholder
        case .role: return .role
        case .class: return .className
        case .text: return .text
        case .lang: return .lang
        case .axid: return .axid
        case .window: return .window
        case .name: return .name
        case .traits, .actions, .index, .depth, .x, .y, .width, .height, .headingLevel, .row, .column, .tag: return nil
        }
    }

    /// The number attribute `name` names; nil for the string and set attributes (exhaustive, as `strAttr`).
    static func numAttr(_ name: AttributeName) -> NumAttr? {
        switch name {
        case .index: return .index
        case .depth: return .depth
        case .x: return .x
        case .y: return .y
        case .width: return .width
        case .height: return .height
        case .headingLevel: return .headingLevel
        case .row: return .row
        case .column: return .column
        case .tag: return .tag
        case .id, .label, .value, .hint, .placeholder, .role, .class, .text, .lang, .axid, .window, .name, .traits,
            .actions:
            return nil
        }
    }

    static func numOp(_ op: AttributeOp) -> NumOp {
        switch op {
        case .notEquals: return .ne
        case .less: return .lt
        case .lessOrEqual: return .le
        case .greater: return .gt
        case .greaterOrEqual: return .ge
        default: return .eq
        }
    }

    static func matcher(_ op: AttributeOp, _ value: AttributeValue, ci caseInsensitive: Bool) throws(SelectorError)
        -> StringMatcher
    {
        switch value {
        case .regex(let regex): return StringMatcher(regex: try regex.compile())
        case .string(let text):
            switch op {
            case .matches:
                return StringMatcher(
                    regex: try RegexLiteral(pattern: text, flags: caseInsensitive ? "i" : "").compile())
            case .contains: return StringMatcher(.contains, text, ci: caseInsensitive)
            case .prefix: return StringMatcher(.prefix, text, ci: caseInsensitive)
            case .suffix: return StringMatcher(.suffix, text, ci: caseInsensitive)
            default: return StringMatcher(.equals, text, ci: caseInsensitive)
            }
        // [label*=3]: the number's text
        case .number(let number): return try matcher(op, .string(Canon.number(number)), ci: caseInsensitive)
        }
    }

    /// The test `[name op value]` compiles to: by the attribute's typed name (number, string, or else a set), with no
    /// unwrap a forgotten case could trap on.
    static func attribute(_ attribute: AttributeTest) throws(SelectorError) -> Test {
        guard let value = attribute.value else { return .exists(attribute.name) }
        if let numeric = numAttr(attribute.name) {
            // Validation lets only numbers through for a number attribute; anything else tests presence.
            guard case .number(let number) = value else { return .exists(attribute.name) }
            return .number(numeric, numOp(attribute.op), number)
        }
        if let stringAttribute = strAttr(attribute.name) {
            return try stringTest(stringAttribute, attribute, value)
        }
        return try setAttribute(attribute, value, negate: attribute.op == .notEquals)
    }

    /// A string attribute compared with a number (`[value>3]`, `[label=2]`) compares numerically; the text operators
    /// (`*=`, `^=`, `$=`, `~=`) and string values match the text.
    static func stringTest(_ stringAttribute: StrAttr, _ attribute: AttributeTest, _ value: AttributeValue)
        throws(SelectorError) -> Test
    {
        let textOperators: Set<AttributeOp> = [.contains, .prefix, .suffix, .matches]
        if case .number(let number) = value, !textOperators.contains(attribute.op) {
            return .number(.string(stringAttribute), numOp(attribute.op), number)
        }
        return .string(
            stringAttribute, try matcher(attribute.op, value, ci: attribute.caseInsensitive),
            negate: attribute.op == .notEquals)
    }

    /// A test on a set attribute (traits, actions): `&=` all of, `=`/`!=` exactly, other operators on the names.
    static func setAttribute(_ attribute: AttributeTest, _ value: AttributeValue, negate: Bool) throws(SelectorError)
        -> Test
    {
        let names: [String]
        if case .string(let text) = value { names = AttributeTest.splitNames(text) } else { names = [] }
        if attribute.name == .traits {
            switch attribute.op {
            case .includes:
                return .traitsAll(names.reduce(into: Traits()) { $0.formUnion(Traits.named($1) ?? []) })
            case .equals, .notEquals:
                return .traitsExact(
                    names.reduce(into: Traits()) { $0.formUnion(Traits.named($1) ?? []) }, negate: negate)
            default:
                return .traitNames(try matcher(attribute.op, value, ci: attribute.caseInsensitive), negate: false)
            }
        }
        let folded = attribute.caseInsensitive ? names.map { $0.lowercased() } : names
        switch attribute.op {
        case .includes: return .actionsAll(folded, ci: attribute.caseInsensitive)
        case .equals, .notEquals:
            return .actionsExact(folded.sorted(), negate: negate, ci: attribute.caseInsensitive)
        default: return .actionNames(try matcher(attribute.op, value, ci: attribute.caseInsensitive), negate: false)
        }
    }

    /// The test of a flag pseudo-class (`:enabled`, `:visible`…).
    static func flagTest(_ flag: StatePseudo) -> Test {
        switch flag {
        case .visible, .onscreen: return .statesAll(.onscreen)
        case .hidden, .offscreen: return .statesNone(.onscreen)
        case .hittable: return .hittable
        case .enabled: return .statesAll(.enabled)
        case .disabled: return .statesNone(.enabled)
        case .selected: return .statesAll(.selected)
        case .checked: return .statesAll(.checked)
        case .focused: return .focused
        case .focusable: return .statesAll(.focusable)
        case .editable: return .statesAll(.editable)
        case .modal: return .statesAll(.modal)
        case .element: return .element(true)
        case .container: return .element(false)
        }
    }

    static func pseudo(_ pseudo: Pseudo) throws(SelectorError) -> Test {
        switch pseudo {
        case .has(let selector): return .has(selector.compiled)
        case .not(let selector), .is(let selector):
            let negate: Bool
            if case .not = pseudo { negate = true } else { negate = false }
            if let simple = selector.compiled.simple { return .simple(simple, negate: negate) }
            return .set(selector.compiled, negate: negate)
        case .flag(let flag): return flagTest(flag)
        case .state(let names):
            return .statesAll(
                names.reduce(into: AXStates()) { acc, name in
                    if let state = AXStates.named.first(where: { $0.0 == name })?.1 { acc.formUnion(state) }
                })
        case .trait(let names): return .traitsAll(names.reduce(into: Traits()) { $0.formUnion(Traits.named($1) ?? []) })
        case .action(let name): return .action(name)
        case .rotor(let name): return .rotor(name)
        case .text(.substring(let text)): return .text(StringMatcher(.contains, text, ci: true))
        case .text(.regex(let regex)): return .text(StringMatcher(regex: try regex.compile()))
        case .nth, .nthLast, .first, .last:
            return .element(true)  // positional pseudo-classes never become tests (CStep separates them)
        }
    }
}

/// String comparison after whitespace normalization (trim, collapse runs to one space), optionally
/// case-insensitive; or a regex search on the raw string. Works on UTF-8 bytes, allocation-free for ASCII.
final class StringMatcher {
    enum Kind { case equals, contains, prefix, suffix, regex }
    let kind: Kind
    let needle: [UInt8]
    let needleString: String
    let ci: Bool
    let regex: LinearRegex?

    init(_ kind: Kind, _ text: String, ci: Bool) {
        self.kind = kind
        self.ci = ci
        let normalized = StringMatcher.normalize(text)
        needleString = ci ? normalized.lowercased() : normalized
        needle = Array(needleString.utf8)
        regex = nil
    }

    init(regex: LinearRegex) {
        kind = .regex
        ci = false
        needle = []
        needleString = ""
        self.regex = regex
    }

    /// Trims and collapses whitespace. Returns the input itself when nothing changes.
    static func normalize(_ text: String) -> String {
        guard needsNormalization(text) else { return text }
        var out = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace {
                    out.unicodeScalars.append(" ")
                    pendingSpace = false
                }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A whitespace control byte (tab, line feed, vertical tab, form feed, carriage return) or the lead byte of a
    /// possible non-ASCII space (U+0085, U+00A0, U+1680, U+2000…, U+3000).
    @inline(__always) static func mayBeWhitespace(_ byte: UInt8) -> Bool {
        (byte >= 0x09 && byte <= 0x0D) || byte == 0xC2 || byte == 0xE1 || byte == 0xE2 || byte == 0xE3
    }

    @inline(__always) static func needsNormalization(_ text: String) -> Bool {
        var prevSpace = true  // leading space needs work
        var any = false
        for byte in text.utf8 {
            any = true
            if byte == 0x20 {
                if prevSpace { return true }
                prevSpace = true
            } else if mayBeWhitespace(byte) {
                return true
            } else {
                prevSpace = false
            }
        }
        return any && prevSpace  // trailing space
    }

    /// Whether `s` matches. A regex search spends steps from `budget`; once it is exhausted every regex test
    /// answers false at once and the evaluation reports "regex too expensive".
    func matches(_ candidate: String?, budget: RegexBudget) -> Bool {
        if let regex {
            guard budget.remaining >= 0 else { return false }
            guard let answer = regex.search(candidate ?? "", budget: &budget.remaining) else {
                budget.remaining = -1
                return false
            }
            return answer
        }
        guard var hay = candidate, !hay.isEmpty else { return needle.isEmpty }
        if !ci {
            // Fast path: a haystack that needs no normalization is compared as is, without allocating.
            if let fastAnswer = hay.utf8.withContiguousStorageIfAvailable({ buffer -> Bool? in
                let matched = compare(buffer, fold: false)
                if matched { return true }
                return StringMatcher.needsNormalization(hay) ? nil : false
            }), let fastAnswer {
                return fastAnswer
            }
        }
        hay = StringMatcher.normalize(hay)
        if ci {
            var ascii = true
            for byte in hay.utf8 where byte >= 0x80 {
                ascii = false
                break
            }
            if !ascii { hay = hay.lowercased() }
            return hay.withUTF8 { compare($0, fold: ascii) }
        }
        return hay.withUTF8 { compare($0, fold: false) }
    }

    @inline(__always) private func compare(_ haystack: UnsafeBufferPointer<UInt8>, fold: Bool) -> Bool {
        needle.withUnsafeBufferPointer { needleBytes in
            switch kind {
            case .equals: return haystack.count == needleBytes.count && StringMatcher.eq(haystack, 0, needleBytes, fold)
            case .prefix: return haystack.count >= needleBytes.count && StringMatcher.eq(haystack, 0, needleBytes, fold)
            case .suffix:
                return haystack.count >= needleBytes.count
                    && StringMatcher.eq(haystack, haystack.count - needleBytes.count, needleBytes, fold)
            case .contains:
                if needleBytes.isEmpty { return true }
                guard haystack.count >= needleBytes.count else { return false }
                let first = needleBytes[0]
                for start in 0...(haystack.count - needleBytes.count) {
                    let byte = fold ? StringMatcher.lower(haystack[start]) : haystack[start]
                    if byte == first && StringMatcher.eq(haystack, start, needleBytes, fold) { return true }
                }
                return false
            case .regex: return false
            }
        }
    }

    @inline(__always) static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    @inline(__always) static func eq(
        _ haystack: UnsafeBufferPointer<UInt8>, _ at: Int, _ needleBytes: UnsafeBufferPointer<UInt8>, _ fold: Bool
    ) -> Bool {
        var offset = 0
        if fold {
            while offset < needleBytes.count {
                if lower(haystack[at + offset]) != needleBytes[offset] { return false }
                offset += 1
            }
        } else {
            while offset < needleBytes.count {
                if haystack[at + offset] != needleBytes[offset] { return false }
                offset += 1
            }
        }
        return true
    }
}

/// The regex steps one query evaluation may spend (Specs/selectors.md §Regular expressions). Linear-time matching
/// bounds each search by (program size × text length); this bounds their sum over a whole tree.
final class RegexBudget {
    /// Steps left; negative once exhausted.
    var remaining: Int

    init(steps: Int) { remaining = steps }

    var isExhausted: Bool { remaining < 0 }
}
