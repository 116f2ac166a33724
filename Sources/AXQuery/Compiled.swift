import AXCore

// Selectors compiled once (at parse time) into flat test lists the engine runs without allocating.

final class CompiledSelector: @unchecked Sendable {
    // @unchecked: immutable after init; compiled regexes are immutable values, safe to share for matching.
    let chains: [CChain]
    /// Non-nil when the selector is a union of single compounds without positional pseudo-classes or leading
    /// combinators: then "matches" is a per-node predicate.
    let simple: [SimpleCompound]?

    init(_ chains: [Chain]) throws(SelectorError) {
        var cc: [CChain] = []
        for c in chains {
            var steps: [CStep] = []
            for st in c.steps { steps.append(try CStep(st)) }
            cc.append(CChain(leading: c.leading, steps: steps))
        }
        self.chains = cc
        if cc.allSatisfy({ $0.leading == nil && $0.steps.count == 1 && $0.steps[0].positional.isEmpty }) {
            simple = cc.map { SimpleCompound(role: $0.steps[0].role, tests: $0.steps[0].tests) }
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
        for k in steps.indices.reversed() {
            seen = seen || !steps[k].positional.isEmpty
            flags[k] = seen
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

    init(_ st: Step) throws(SelectorError) {
        combinator = st.combinator
        source = st.compound
        role = st.compound.role
        var tests: [Test] = []
        positional = []
        for a in st.compound.attributes {
            if a.op == .equals, !a.caseInsensitive, case .string(let v) = a.value {
                if a.name == .id, identifier == nil, v == StringMatcher.normalize(v) { identifier = v }
                if a.name == .axid, axid == nil { axid = v }
            }
            tests.append(try Test.attribute(a))
        }
        for p in st.compound.pseudos {
            if p.isPositional { positional.append(p) } else { tests.append(try Test.pseudo(p)) }
        }
        self.tests = tests.enumerated().sorted { a, b in
            a.element.cost != b.element.cost ? a.element.cost < b.element.cost : a.offset < b.offset
        }.map(\.element)
    }
}

enum StrAttr { case id, label, value, hint, placeholder, role, className, text, lang, axid, window, name }
enum NumAttr {
    case index, depth, x, y, width, height, headingLevel
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
        case .string(_, let m, _): return m.regex == nil ? 1 : 3
        case .actionsAll, .actionsExact, .action, .rotor: return 2
        case .traitNames, .actionNames, .text: return 3
        case .simple: return 4
        case .set: return 5
        case .has: return 6
        case .hittable: return 7
        }
    }

    static func strAttr(_ n: AttributeName) -> StrAttr? {
        switch n {
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
        default: return nil
        }
    }

    static func numAttr(_ n: AttributeName) -> NumAttr {
        switch n {
        case .index: return .index
        case .depth: return .depth
        case .x: return .x
        case .y: return .y
        case .width: return .width
        case .height: return .height
        case .headingLevel: return .headingLevel
        default: return .string(strAttr(n)!)
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

    static func matcher(_ op: AttributeOp, _ v: AttributeValue, ci: Bool) throws(SelectorError) -> StringMatcher {
        switch v {
        case .regex(let r): return StringMatcher(regex: try r.compile())
        case .string(let s):
            switch op {
            case .matches: return StringMatcher(regex: try RegexLiteral(pattern: s, flags: ci ? "i" : "").compile())
            case .contains: return StringMatcher(.contains, s, ci: ci)
            case .prefix: return StringMatcher(.prefix, s, ci: ci)
            case .suffix: return StringMatcher(.suffix, s, ci: ci)
            default: return StringMatcher(.equals, s, ci: ci)
            }
        case .number(let d): return try matcher(op, .string(Canon.number(d)), ci: ci)  // [label*=3]: the number's text
        }
    }

    static func attribute(_ a: AttributeTest) throws(SelectorError) -> Test {
        guard let v = a.value else { return .exists(a.name) }
        let negate = a.op == .notEquals
        switch a.name.kind {
        case .number:
            guard case .number(let d) = v else { return .exists(a.name) }  // unreachable after validation
            return .number(numAttr(a.name), numOp(a.op), d)
        case .string:
            if case .number(let d) = v, a.op != .contains, a.op != .prefix, a.op != .suffix, a.op != .matches {
                return .number(numAttr(a.name), numOp(a.op), d)
            }
            return .string(strAttr(a.name)!, try matcher(a.op, v, ci: a.caseInsensitive), negate: negate)
        case .set:
            let names: [String]
            if case .string(let s) = v { names = AttributeTest.splitNames(s) } else { names = [] }
            if a.name == .traits {
                switch a.op {
                case .includes:
                    return .traitsAll(names.reduce(into: Traits()) { $0.formUnion(Traits.named($1) ?? []) })
                case .equals, .notEquals:
                    return .traitsExact(
                        names.reduce(into: Traits()) { $0.formUnion(Traits.named($1) ?? []) }, negate: negate)
                default:
                    return .traitNames(try matcher(a.op, v, ci: a.caseInsensitive), negate: false)
                }
            }
            let folded = a.caseInsensitive ? names.map { $0.lowercased() } : names
            switch a.op {
            case .includes: return .actionsAll(folded, ci: a.caseInsensitive)
            case .equals, .notEquals: return .actionsExact(folded.sorted(), negate: negate, ci: a.caseInsensitive)
            default: return .actionNames(try matcher(a.op, v, ci: a.caseInsensitive), negate: false)
            }
        }
    }

    static func pseudo(_ p: Pseudo) throws(SelectorError) -> Test {
        switch p {
        case .has(let s): return .has(s.compiled)
        case .not(let s), .is(let s):
            let negate: Bool
            if case .not = p { negate = true } else { negate = false }
            if let simple = s.compiled.simple { return .simple(simple, negate: negate) }
            return .set(s.compiled, negate: negate)
        case .flag(let f):
            switch f {
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
        case .state(let names):
            return .statesAll(
                names.reduce(into: AXStates()) { acc, n in
                    if let s = AXStates.named.first(where: { $0.0 == n })?.1 { acc.formUnion(s) }
                })
        case .trait(let names): return .traitsAll(names.reduce(into: Traits()) { $0.formUnion(Traits.named($1) ?? []) })
        case .action(let s): return .action(s)
        case .rotor(let s): return .rotor(s)
        case .text(.substring(let s)): return .text(StringMatcher(.contains, s, ci: true))
        case .text(.regex(let r)): return .text(StringMatcher(regex: try r.compile()))
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

    init(_ kind: Kind, _ s: String, ci: Bool) {
        self.kind = kind
        self.ci = ci
        let n = StringMatcher.normalize(s)
        needleString = ci ? n.lowercased() : n
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
    static func normalize(_ s: String) -> String {
        guard needsNormalization(s) else { return s }
        var out = ""
        var pendingSpace = false
        for u in s.unicodeScalars {
            if u.properties.isWhitespace {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace {
                    out.unicodeScalars.append(" ")
                    pendingSpace = false
                }
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    @inline(__always) static func needsNormalization(_ s: String) -> Bool {
        var prevSpace = true  // leading space needs work
        var any = false
        for b in s.utf8 {
            any = true
            if b == 0x20 {
                if prevSpace { return true }
                prevSpace = true
            } else if b < 0x20 || b == 0xC2 || b == 0xE1 || b == 0xE2 || b == 0xE3 {
                // control/whitespace bytes, or lead bytes of possible non-ASCII spaces (U+0085, U+00A0, U+1680, U+2000…, U+3000)
                if b == 0x09 || b == 0x0A || b == 0x0B || b == 0x0C || b == 0x0D || b >= 0xC2 { return true }
                prevSpace = false
            } else {
                prevSpace = false
            }
        }
        return any && prevSpace  // trailing space
    }

    /// Whether `s` matches. A regex search spends steps from `budget`; once it is exhausted every regex test
    /// answers false at once and the evaluation reports "regex too expensive".
    func matches(_ s: String?, budget: RegexBudget) -> Bool {
        if let regex {
            guard budget.remaining >= 0 else { return false }
            guard let answer = regex.search(s ?? "", budget: &budget.remaining) else {
                budget.remaining = -1
                return false
            }
            return answer
        }
        guard var hay = s, !hay.isEmpty else { return needle.isEmpty }
        if !ci {
            // Fast path: a haystack that needs no normalization is compared as is, without allocating.
            if let r = hay.utf8.withContiguousStorageIfAvailable({ buf -> Bool? in
                let m = compare(buf, fold: false)
                if m { return true }
                return StringMatcher.needsNormalization(hay) ? nil : false
            }), let r {
                return r
            }
        }
        hay = StringMatcher.normalize(hay)
        if ci {
            var ascii = true
            for b in hay.utf8 where b >= 0x80 {
                ascii = false
                break
            }
            if !ascii { hay = hay.lowercased() }
            return hay.withUTF8 { compare($0, fold: ascii) }
        }
        return hay.withUTF8 { compare($0, fold: false) }
    }

    @inline(__always) private func compare(_ h: UnsafeBufferPointer<UInt8>, fold: Bool) -> Bool {
        needle.withUnsafeBufferPointer { n in
            switch kind {
            case .equals: return h.count == n.count && StringMatcher.eq(h, 0, n, fold)
            case .prefix: return h.count >= n.count && StringMatcher.eq(h, 0, n, fold)
            case .suffix: return h.count >= n.count && StringMatcher.eq(h, h.count - n.count, n, fold)
            case .contains:
                if n.isEmpty { return true }
                guard h.count >= n.count else { return false }
                let first = n[0]
                for start in 0...(h.count - n.count) {
                    let c = fold ? StringMatcher.lower(h[start]) : h[start]
                    if c == first && StringMatcher.eq(h, start, n, fold) { return true }
                }
                return false
            case .regex: return false
            }
        }
    }

    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    @inline(__always) static func eq(
        _ h: UnsafeBufferPointer<UInt8>, _ at: Int, _ n: UnsafeBufferPointer<UInt8>, _ fold: Bool
    ) -> Bool {
        var k = 0
        if fold {
            while k < n.count {
                if lower(h[at + k]) != n[k] { return false }
                k += 1
            }
        } else {
            while k < n.count {
                if h[at + k] != n[k] { return false }
                k += 1
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
