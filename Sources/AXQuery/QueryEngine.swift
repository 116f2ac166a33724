import AXCore

/// The one selector engine (Specs/selectors.md §Evaluation), shared by the JSON-RPC server and the CLI.
package enum QueryEngine {
    /// Ids of the nodes matching `selector`, in document order, without duplicates.
    /// - Parameters:
    ///   - root: search only inside this node (its descendants; the root itself never matches). Unknown root: no matches.
    ///   - limit: at most this many results (the first ones in document order).
    /// - Throws: `SelectorError` with reason "regex too expensive" when the query's regex searches ran out of
    ///   their step budget (`RegexBudget`).
    package static func find(_ selector: Selector, in ctx: QueryContext, root: String? = nil, limit: Int? = nil)
        throws(SelectorError) -> [String]
    {
        let ev = Evaluator(ctx)
        guard let scope = ev.scope(root) else { return [] }
        let found = ev.find(selector.compiled, scope: scope, limit: limit)
        try ev.checkBudget()
        return found.map { ev.idx.ids[Int($0)] }
    }

    /// Number of matches (same rules as `find`).
    package static func count(_ selector: Selector, in ctx: QueryContext, root: String? = nil) throws(SelectorError)
        -> Int
    {
        let ev = Evaluator(ctx)
        guard let scope = ev.scope(root) else { return 0 }
        let found = ev.find(selector.compiled, scope: scope, limit: nil)
        try ev.checkBudget()
        return found.count
    }

    /// Whether the node is one of the matches of `selector` (inside `root`, when given).
    package static func matches(_ selector: Selector, id: String, in ctx: QueryContext, root: String? = nil)
        throws(SelectorError) -> Bool
    {
        let ev = Evaluator(ctx)
        guard let target = ev.idx.byID[id], let scope = ev.scope(root), scope.contains(Int(target)) else {
            return false
        }
        let result: Bool
        if let simple = selector.compiled.simple {
            result = simple.contains { ev.matchesSimple($0, Int(target)) }
        } else {
            result = ev.find(selector.compiled, scope: scope, limit: nil).contains(target)
        }
        try ev.checkBudget()
        return result
    }

    /// The outcome of a strict single-target resolution.
    package enum Resolution: Sendable, Equatable {
        case one(String)
        case none
        /// More than one candidate; all of them, in document order.
        case ambiguous([String])
    }

    /// Strict single-target resolution (Specs/selectors.md §Strictness): one match wins; several matches are
    /// narrowed to the visible (onscreen) ones, and exactly one visible match wins; otherwise ambiguous.
    package static func resolveOne(_ selector: Selector, in ctx: QueryContext, root: String? = nil)
        throws(SelectorError) -> Resolution
    {
        let all = try find(selector, in: ctx, root: root)
        if all.isEmpty { return .none }
        if all.count == 1 { return .one(all[0]) }
        let visible = all.filter { ctx.tree[$0]?.states.contains(.onscreen) == true }
        if visible.count == 1 { return .one(visible[0]) }
        return .ambiguous(visible.isEmpty ? all : visible)
    }
}

extension SelectorError {
    /// The evaluation's regex searches needed more than `steps` steps (`QueryContext.regexSteps`).
    static func regexTooExpensive(steps: Int) -> SelectorError {
        var error = SelectorError(
            position: 0, expected: "regex searches within \(steps) steps per query",
            found: "more (simplify the regex, anchor it, or narrow the query with a role or root)")
        error.reason = "regex too expensive"
        return error
    }
}

/// A half-open range of document positions.
struct Scope {
    var lo: Int
    var hi: Int
    func contains(_ i: Int) -> Bool { i >= lo && i < hi }
}

/// One evaluation: the index plus lazily computed per-query caches (hit tests, :is/:not sets, :has sets).
final class Evaluator {
    let idx: TreeIndex
    let ctx: QueryContext
    /// Regex steps left for this evaluation (one query, one explain).
    let regexBudget: RegexBudget
    private var hittable: [UInt8] = []
    private var sets: [ObjectIdentifier: [Bool]] = [:]
    private var hasSets: [ObjectIdentifier: (bitmap: [Bool], sorted: [Int32])] = [:]

    init(_ ctx: QueryContext) {
        self.ctx = ctx
        self.idx = ctx.index
        self.regexBudget = RegexBudget(steps: ctx.regexSteps)
    }

    /// Throws "regex too expensive" when a regex search of this evaluation ran out of budget (its answers
    /// since then are not to be trusted).
    func checkBudget() throws(SelectorError) {
        if regexBudget.isExhausted { throw SelectorError.regexTooExpensive(steps: ctx.regexSteps) }
    }

    func scope(_ root: String?) -> Scope? {
        guard let root else { return Scope(lo: 0, hi: idx.count) }
        guard let r = idx.byID[root] else { return nil }
        return Scope(lo: Int(r) + 1, hi: Int(idx.end[Int(r)]))
    }

    // MARK: - Selectors and chains

    func find(_ cs: CompiledSelector, scope: Scope, limit: Int?) -> [Int32] {
        if cs.chains.count == 1 {
            return evalChain(cs.chains[0], from: 0, initial: .range(scope), limit: limit, trace: nil)
        }
        var all: [Int32] = []
        for c in cs.chains { all += evalChain(c, from: 0, initial: .range(scope), limit: nil, trace: nil) }
        var out = sortedUnique(all)
        if let limit, out.count > limit { out.removeLast(out.count - limit) }
        return out
    }

    enum Initial {
        case range(Scope)
        case relative(Combinator, anchor: Int)
    }

    /// Step callback for explain: (step index, nodes after the step).
    typealias Trace = (Int, [Int32]) -> Void

    /// Evaluates `chain.steps[from...]`. For `from == 0`, candidates come from `initial`.
    func evalChain(_ chain: CChain, from: Int, initial: Initial, limit: Int?, trace: Trace?) -> [Int32] {
        var current: [Int32] = []
        for k in from..<chain.steps.count {
            let step = chain.steps[k]
            let last = k == chain.steps.count - 1
            let stepLimit = last && step.positional.isEmpty ? limit : nil
            if k == from {
                switch initial {
                case .range(let s): current = filterRanges([(s.lo, s.hi)], step, limit: stepLimit)
                case .relative(let c, let a):
                    if c == .descendant || c == .within {
                        current = filterRanges([(a + 1, Int(idx.end[a]))], step, limit: stepLimit)
                    } else {
                        current = filterCandidates(related(c, from: [Int32(a)]), step, limit: stepLimit)
                    }
                }
            } else if step.combinator == .within && chain.positionalFrom[k] {
                var acc: [Int32] = []
                for p in current {
                    let pi = Int(p)
                    acc += evalChain(
                        chain, from: k, initial: .range(Scope(lo: pi + 1, hi: Int(idx.end[pi]))), limit: nil,
                        trace: trace)
                }
                var out = sortedUnique(acc)
                if let limit, out.count > limit { out.removeLast(out.count - limit) }
                return out
            } else if step.combinator == .descendant || step.combinator == .within {
                current = filterRanges(descendantRanges(current), step, limit: stepLimit)
            } else {
                current = filterCandidates(related(step.combinator, from: current), step, limit: stepLimit)
            }
            current = applyPositional(step.positional, current)
            trace?(k, current)
            if current.isEmpty {
                if let trace { for j in (k + 1)..<max(k + 1, chain.steps.count) { trace(j, []) } }
                return []
            }
        }
        return current
    }

    func applyPositional(_ ps: [Pseudo], _ list: [Int32]) -> [Int32] {
        var list = list
        for p in ps {
            let n: Int
            switch p {
            case .nth(let k): n = k < 0 ? list.count + k : k
            case .nthLast(let k): n = list.count - 1 - k
            case .first: n = 0
            case .last: n = list.count - 1
            default: continue
            }
            list = (n >= 0 && n < list.count) ? [list[n]] : []
        }
        return list
    }

    /// Disjoint descendant ranges of a document-ordered list.
    func descendantRanges(_ list: [Int32]) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        var covered = -1
        for p in list {
            let pi = Int(p)
            if pi < covered { continue }
            let e = Int(idx.end[pi])
            if pi + 1 < e { out.append((pi + 1, e)) }
            covered = e
        }
        return out
    }

    /// Children / next sibling / later siblings (or descendants) of each node, sorted and unique.
    func related(_ c: Combinator, from list: [Int32]) -> [Int32] {
        var out: [Int32] = []
        var sorted = true
        func add(_ x: Int) {
            if let l = out.last, Int(l) >= x { sorted = false }
            out.append(Int32(x))
        }
        switch c {
        case .child:
            for p in list {
                let pi = Int(p)
                let e = Int(idx.end[pi])
                var ch = pi + 1
                while ch < e {
                    add(ch)
                    ch = Int(idx.end[ch])
                }
            }
        case .nextSibling:
            for p in list {
                let s = idx.nextSibling(Int(p))
                if s >= 0 { add(s) }
            }
        case .laterSibling:
            for p in list {
                var s = idx.nextSibling(Int(p))
                while s >= 0 {
                    add(s)
                    s = idx.nextSibling(s)
                }
            }
        case .descendant, .within:
            for (lo, hi) in descendantRanges(list) { for x in lo..<hi { add(x) } }
        }
        return sorted ? out : sortedUnique(out)
    }

    func sortedUnique(_ a: [Int32]) -> [Int32] {
        if a.count < 2 { return a }
        let s = a.sorted()
        var out: [Int32] = [s[0]]
        out.reserveCapacity(s.count)
        for x in s.dropFirst() where x != out[out.count - 1] { out.append(x) }
        return out
    }

    // MARK: - Candidate filtering

    /// First position in a sorted list that is >= x.
    @inline(__always) func lowerBound(_ a: [Int32], _ x: Int) -> Int {
        var lo = 0
        var hi = a.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if Int(a[mid]) < x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    func filterRanges(_ ranges: [(Int, Int)], _ step: CStep, limit: Int?) -> [Int32] {
        var out: [Int32] = []
        let cap = limit ?? Int.max
        if cap <= 0 { return [] }
        if let axid = step.axid {
            guard let j = idx.byID[axid] else { return [] }
            let ji = Int(j)
            if ranges.contains(where: { ji >= $0.0 && ji < $0.1 }), passes(step, ji) { out.append(j) }
            return out
        }
        let source: [Int32]?
        if let ident = step.identifier {
            source = idx.byIdentifier[ident] ?? []
        } else if let r = step.role {
            source = idx.byRole[TreeIndex.roleOrdinal[r]!]
        } else {
            source = nil
        }
        if let source {
            for (lo, hi) in ranges {
                var k = lowerBound(source, lo)
                while k < source.count {
                    let x = Int(source[k])
                    if x >= hi { break }
                    if passes(step, x) {
                        out.append(source[k])
                        if out.count >= cap { return out }
                    }
                    k += 1
                }
            }
            return out
        }
        let tests = step.tests
        for (lo, hi) in ranges {
            var x = lo
            while x < hi {
                if passesTests(tests, x) {
                    out.append(Int32(x))
                    if out.count >= cap { return out }
                }
                x += 1
            }
        }
        return out
    }

    func filterCandidates(_ cands: [Int32], _ step: CStep, limit: Int?) -> [Int32] {
        var out: [Int32] = []
        let cap = limit ?? Int.max
        if cap <= 0 { return [] }
        for c in cands where passes(step, Int(c)) {
            out.append(c)
            if out.count >= cap { break }
        }
        return out
    }

    @inline(__always) func passes(_ step: CStep, _ i: Int) -> Bool {
        if let r = step.role, !TreeIndex.hasRole(idx.nodes[i].value, r) { return false }
        return passesTests(step.tests, i)
    }

    @inline(__always) func passesTests(_ tests: [Test], _ i: Int) -> Bool {
        for t in tests where !test(t, i) { return false }
        return true
    }

    func matchesSimple(_ s: SimpleCompound, _ i: Int) -> Bool {
        if let r = s.role, !TreeIndex.hasRole(idx.nodes[i].value, r) { return false }
        return passesTests(s.tests, i)
    }

    // MARK: - Tests

    func string(_ a: StrAttr, _ i: Int) -> String? {
        switch a {
        case .id:
            // `#x` / `[id=x]`: the accessibility identifier, or — for an element that has none — its element id, the
            // `id` every result shows (D-SEL-1).
            if let identifier = idx.nodes[i].value.identifier, !identifier.isEmpty { return identifier }
            return idx.ids[i]
        case .name:
            // Appium's XCUITest `name`: the accessibility identifier when set, else the label (D-SEL-2).
            if let identifier = idx.nodes[i].value.identifier, !identifier.isEmpty { return identifier }
            return idx.nodes[i].value.label
        case .label: return idx.nodes[i].value.label
        case .value: return idx.nodes[i].value.value
        case .hint: return idx.nodes[i].value.hint
        case .placeholder: return idx.nodes[i].value.placeholder
        case .role: return idx.nodes[i].value.role.rawValue
        case .className: return idx.nodes[i].value.className
        case .text: return idx.nodes[i].value.text
        case .lang: return idx.nodes[i].value.language
        case .axid: return idx.ids[i]
        case .window: return idx.nodes[i].value.windowID
        }
    }

    func number(_ a: NumAttr, _ i: Int) -> Double? {
        switch a {
        case .index: return Double(idx.indexInParent[i])
        case .depth: return Double(idx.depth[i])
        case .x: return idx.nodes[i].value.frame.x
        case .y: return idx.nodes[i].value.frame.y
        case .width: return idx.nodes[i].value.frame.width
        case .height: return idx.nodes[i].value.frame.height
        case .headingLevel: return idx.nodes[i].value.headingLevel.map(Double.init)
        case .string(let s):
            if s == .value, let n = idx.nodes[i].value.numeric { return n.current }
            guard let str = string(s, i) else { return nil }
            return SelectorParser.number(StringMatcher.normalize(str))
        }
    }

    func traitNames(_ i: Int) -> [String] { idx.nodes[i].value.traits.names }

    func actionNames(_ i: Int, ids: Bool) -> [String] {
        let n = idx.nodes[i].value
        var out = n.actions.map(\.rawValue) + n.customActions.map(\.name)
        if ids { out += n.customActions.map(\.id) }
        return out
    }

    func test(_ t: Test, _ i: Int) -> Bool {
        switch t {
        case .string(let a, let m, let negate):
            return m.matches(string(a, i), budget: regexBudget) != negate
        case .number(let a, let op, let v):
            guard let x = number(a, i) else { return op == .ne }
            switch op {
            case .eq: return x == v
            case .ne: return x != v
            case .lt: return x < v
            case .le: return x <= v
            case .gt: return x > v
            case .ge: return x >= v
            }
        case .exists(let a):
            switch a.kind {
            case .string:
                // `[id]` asks whether an accessibility identifier is set, not for the element-id fallback.
                if a == .id { return !StringMatcher.normalize(idx.nodes[i].value.identifier ?? "").isEmpty }
                return !StringMatcher.normalize(string(Test.strAttr(a)!, i) ?? "").isEmpty
            case .number: return a == .headingLevel ? idx.nodes[i].value.headingLevel != nil : true
            case .set:
                return a == .traits
                    ? !idx.nodes[i].value.traits.isEmpty
                    : !(idx.nodes[i].value.actions.isEmpty && idx.nodes[i].value.customActions.isEmpty)
            }
        case .traitsAll(let t): return idx.nodes[i].value.traits.isSuperset(of: t)
        case .traitsExact(let t, let negate): return (idx.nodes[i].value.traits == t) != negate
        case .traitNames(let m, _): return traitNames(i).contains { m.matches($0, budget: regexBudget) }
        case .actionsAll(let names, let ci):
            let have = actionNames(i, ids: true).map { ci ? $0.lowercased() : $0 }
            return names.allSatisfy { have.contains($0) }
        case .actionsExact(let names, let negate, let ci):
            let have = Array(Set(actionNames(i, ids: false).map { ci ? $0.lowercased() : $0 })).sorted()
            return (have == Array(Set(names)).sorted()) != negate
        case .actionNames(let m, _): return actionNames(i, ids: true).contains { m.matches($0, budget: regexBudget) }
        case .statesAll(let s): return idx.nodes[i].value.states.isSuperset(of: s)
        case .statesNone(let s): return idx.nodes[i].value.states.isDisjoint(with: s)
        case .element(let e): return idx.nodes[i].value.isElement == e
        case .focused: return ctx.focusedID != nil && idx.ids[i] == ctx.focusedID
        case .hittable: return isHittable(i)
        case .action(let name):
            let n = idx.nodes[i].value
            return n.actions.contains { $0.rawValue == name }
                || n.customActions.contains { $0.name == name || $0.id == name }
        case .rotor(let name):
            let n = idx.nodes[i].value
            // The node declares the rotor, or is a member of the derived rotor of that name (heading, link…;
            // D-ROTOR-3).
            if n.rotors.contains(where: {
                $0.name == name || ($0.systemType != .none && $0.systemType.rawValue == name)
            }) {
                return true
            }
            return SystemRotors.isMember(n, of: name)
        case .text(let m):
            let n = idx.nodes[i].value
            return m.matches(n.label, budget: regexBudget) || m.matches(n.value, budget: regexBudget)
                || m.matches(n.text, budget: regexBudget)
        case .simple(let alts, let negate):
            return alts.contains { matchesSimple($0, i) } != negate
        case .set(let cs, let negate):
            return inSet(cs, i) != negate
        case .has(let cs):
            return has(cs, anchor: i)
        }
    }

    func isHittable(_ i: Int) -> Bool {
        if hittable.isEmpty { hittable = [UInt8](repeating: 0, count: idx.count) }
        if hittable[i] == 0 {
            hittable[i] = HitTesting.isHittable(idx.ids[i], tree: ctx.tree, views: ctx.views) ? 2 : 1
        }
        return hittable[i] == 2
    }

    /// `:is(S)` / `:not(S)` with a complex S: S is evaluated once over the whole tree.
    func inSet(_ cs: CompiledSelector, _ i: Int) -> Bool {
        let key = ObjectIdentifier(cs)
        if let b = sets[key] { return b[i] }
        var b = [Bool](repeating: false, count: idx.count)
        for x in find(cs, scope: Scope(lo: 0, hi: idx.count), limit: nil) { b[Int(x)] = true }
        sets[key] = b
        return b[i]
    }

    /// `:has(R)`: R evaluated relative to the anchor.
    func has(_ cs: CompiledSelector, anchor a: Int) -> Bool {
        if let step = cs.singleStep {
            let key = ObjectIdentifier(cs)
            let pre: (bitmap: [Bool], sorted: [Int32])
            if let p = hasSets[key] {
                pre = p
            } else {
                let list = filterRanges([(0, idx.count)], step, limit: nil)
                var b = [Bool](repeating: false, count: idx.count)
                for x in list { b[Int(x)] = true }
                pre = (b, list)
                hasSets[key] = pre
            }
            switch cs.chains[0].leading ?? .descendant {
            case .descendant, .within:
                let k = lowerBound(pre.sorted, a + 1)
                return k < pre.sorted.count && Int(pre.sorted[k]) < Int(idx.end[a])
            case .child:
                let e = Int(idx.end[a])
                var ch = a + 1
                while ch < e {
                    if pre.bitmap[ch] { return true }
                    ch = Int(idx.end[ch])
                }
                return false
            case .nextSibling:
                let s = idx.nextSibling(a)
                return s >= 0 && pre.bitmap[s]
            case .laterSibling:
                var s = idx.nextSibling(a)
                while s >= 0 {
                    if pre.bitmap[s] { return true }
                    s = idx.nextSibling(s)
                }
                return false
            }
        }
        for c in cs.chains {
            let lastPositional = !(c.steps.last?.positional.isEmpty ?? true)
            let r = evalChain(
                c, from: 0, initial: .relative(c.leading ?? .descendant, anchor: a),
                limit: lastPositional ? nil : 1, trace: nil)
            if !r.isEmpty { return true }
        }
        return false
    }
}
