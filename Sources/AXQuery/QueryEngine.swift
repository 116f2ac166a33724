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

    /// Strict single-target resolution (Specs/selectors.md §6.6 Visibility and strictness): one match wins; several matches are
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
    func contains(_ position: Int) -> Bool { position >= lo && position < hi }
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
        guard let rootPosition = idx.byID[root] else { return nil }
        return Scope(lo: Int(rootPosition) + 1, hi: Int(idx.end[Int(rootPosition)]))
    }

    // MARK: - Selectors and chains

    func find(_ selector: CompiledSelector, scope: Scope, limit: Int?) -> [Int32] {
        if selector.chains.count == 1 {
            return evalChain(selector.chains[0], from: 0, initial: .range(scope), limit: limit, trace: nil)
        }
        var all: [Int32] = []
        for chain in selector.chains {
            all += evalChain(chain, from: 0, initial: .range(scope), limit: nil, trace: nil)
        }
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
        for stepIndex in from..<chain.steps.count {
            let step = chain.steps[stepIndex]
            let last = stepIndex == chain.steps.count - 1
            let stepLimit = last && step.positional.isEmpty ? limit : nil
            if stepIndex == from {
                current = firstStep(step, initial: initial, limit: stepLimit)
            } else if step.combinator == .within && chain.positionalFrom[stepIndex] {
                return positionalWithin(chain, from: stepIndex, anchors: current, limit: limit, trace: trace)
            } else if step.combinator == .descendant || step.combinator == .within {
                current = filterRanges(descendantRanges(current), step, limit: stepLimit)
            } else {
                current = filterCandidates(related(step.combinator, from: current), step, limit: stepLimit)
            }
            current = applyPositional(step.positional, current)
            trace?(stepIndex, current)
            if current.isEmpty {
                if let trace {
                    for laterStep in (stepIndex + 1)..<max(stepIndex + 1, chain.steps.count) { trace(laterStep, []) }
                }
                return []
            }
        }
        return current
    }

    /// The matches of the first evaluated step: within the scope, or related to the anchor of a relative chain.
    func firstStep(_ step: CStep, initial: Initial, limit: Int?) -> [Int32] {
        switch initial {
        case .range(let scope): return filterRanges([(scope.lo, scope.hi)], step, limit: limit)
        case .relative(let combinator, let anchor):
            if combinator == .descendant || combinator == .within {
                return filterRanges([(anchor + 1, Int(idx.end[anchor]))], step, limit: limit)
            }
            return filterCandidates(related(combinator, from: [Int32(anchor)]), step, limit: limit)
        }
    }

    /// A `>>` step whose positional pseudo-classes count per anchor: the rest of the chain is evaluated below each
    /// anchor on its own, the results merged in document order.
    func positionalWithin(_ chain: CChain, from stepIndex: Int, anchors: [Int32], limit: Int?, trace: Trace?)
        -> [Int32]
    {
        var matches: [Int32] = []
        for position in anchors {
            let start = Int(position)
            matches += evalChain(
                chain, from: stepIndex, initial: .range(Scope(lo: start + 1, hi: Int(idx.end[start]))),
                limit: nil,
                trace: trace)
        }
        var out = sortedUnique(matches)
        if let limit, out.count > limit { out.removeLast(out.count - limit) }
        return out
    }

    func applyPositional(_ pseudos: [Pseudo], _ list: [Int32]) -> [Int32] {
        var list = list
        for pseudo in pseudos {
            let pick: Int
            switch pseudo {
            case .nth(let offset): pick = offset < 0 ? list.count + offset : offset
            case .nthLast(let offset): pick = list.count - 1 - offset
            case .first: pick = 0
            case .last: pick = list.count - 1
            default: continue
            }
            list = (pick >= 0 && pick < list.count) ? [list[pick]] : []
        }
        return list
    }

    /// Disjoint descendant ranges of a document-ordered list.
    func descendantRanges(_ list: [Int32]) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        var covered = -1
        for position in list {
            let start = Int(position)
            if start < covered { continue }
            let end = Int(idx.end[start])
            if start + 1 < end { out.append((start + 1, end)) }
            covered = end
        }
        return out
    }

    /// Children / next sibling / later siblings (or descendants) of each node, sorted and unique.
    func related(_ combinator: Combinator, from list: [Int32]) -> [Int32] {
        var out: [Int32] = []
        var sorted = true
        func add(_ position: Int) {
            if let lastAdded = out.last, Int(lastAdded) >= position { sorted = false }
            out.append(Int32(position))
        }
        switch combinator {
        case .child:
            for anchor in list {
                let start = Int(anchor)
                let end = Int(idx.end[start])
                var child = start + 1
                while child < end {
                    add(child)
                    child = Int(idx.end[child])
                }
            }
        case .nextSibling:
            for anchor in list {
                let sibling = idx.nextSibling(Int(anchor))
                if sibling >= 0 { add(sibling) }
            }
        case .laterSibling:
            for anchor in list {
                var sibling = idx.nextSibling(Int(anchor))
                while sibling >= 0 {
                    add(sibling)
                    sibling = idx.nextSibling(sibling)
                }
            }
        case .descendant, .within:
            for (lo, hi) in descendantRanges(list) { for position in lo..<hi { add(position) } }
        }
        return sorted ? out : sortedUnique(out)
    }

    func sortedUnique(_ positions: [Int32]) -> [Int32] {
        if positions.count < 2 { return positions }
        let sortedPositions = positions.sorted()
        var out: [Int32] = [sortedPositions[0]]
        out.reserveCapacity(sortedPositions.count)
        for position in sortedPositions.dropFirst() where position != out[out.count - 1] { out.append(position) }
        return out
    }

    // MARK: - Candidate filtering

    /// First position in a sorted list that is >= x.
    @inline(__always) func lowerBound(_ sortedPositions: [Int32], _ target: Int) -> Int {
        var lo = 0
        var hi = sortedPositions.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if Int(sortedPositions[mid]) < target { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    func filterRanges(_ ranges: [(Int, Int)], _ step: CStep, limit: Int?) -> [Int32] {
        let cap = limit ?? Int.max
        if cap <= 0 { return [] }
        if let axid = step.axid {
            guard let position = idx.byID[axid] else { return [] }
            let index = Int(position)
            guard ranges.contains(where: { index >= $0.0 && index < $0.1 }), passes(step, index) else { return [] }
            return [position]
        }
        if let ident = step.identifier {
            return filterIndexed(idx.byIdentifier[ident] ?? [], ranges, step, cap: cap)
        }
        if let role = step.role {
            return filterIndexed(idx.byRole[TreeIndex.roleOrdinal[role]!], ranges, step, cap: cap)
        }
        return filterScan(ranges, step.tests, cap: cap)
    }

    /// The nodes of a sorted index (by identifier or role) inside the ranges that pass the step.
    func filterIndexed(_ source: [Int32], _ ranges: [(Int, Int)], _ step: CStep, cap: Int) -> [Int32] {
        var out: [Int32] = []
        for (lo, hi) in ranges {
            var cursor = lowerBound(source, lo)
            while cursor < source.count {
                let candidate = Int(source[cursor])
                if candidate >= hi { break }
                if passes(step, candidate) {
                    out.append(source[cursor])
                    if out.count >= cap { return out }
                }
                cursor += 1
            }
        }
        return out
    }

    /// Every node inside the ranges that passes the tests.
    func filterScan(_ ranges: [(Int, Int)], _ tests: [Test], cap: Int) -> [Int32] {
        var out: [Int32] = []
        for (lo, hi) in ranges {
            var candidate = lo
            while candidate < hi {
                if passesTests(tests, candidate) {
                    out.append(Int32(candidate))
                    if out.count >= cap { return out }
                }
                candidate += 1
            }
        }
        return out
    }

    func filterCandidates(_ candidates: [Int32], _ step: CStep, limit: Int?) -> [Int32] {
        var out: [Int32] = []
        let cap = limit ?? Int.max
        if cap <= 0 { return [] }
        for candidate in candidates where passes(step, Int(candidate)) {
            out.append(candidate)
            if out.count >= cap { break }
        }
        return out
    }

    @inline(__always) func passes(_ step: CStep, _ i: Int) -> Bool {
        if let role = step.role, !TreeIndex.hasRole(idx.nodes[i].value, role) { return false }
        return passesTests(step.tests, i)
    }

    @inline(__always) func passesTests(_ tests: [Test], _ i: Int) -> Bool {
        for condition in tests where !test(condition, i) { return false }
        return true
    }

    func matchesSimple(_ compound: SimpleCompound, _ i: Int) -> Bool {
        if let role = compound.role, !TreeIndex.hasRole(idx.nodes[i].value, role) { return false }
        return passesTests(compound.tests, i)
    }

    // MARK: - Tests

    func string(_ attribute: StrAttr, _ i: Int) -> String? {
        switch attribute {
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

    func number(_ attribute: NumAttr, _ i: Int) -> Double? {
        switch attribute {
        case .index: return Double(idx.indexInParent[i])
        case .depth: return Double(idx.depth[i])
        case .x: return idx.nodes[i].value.frame.x
        case .y: return idx.nodes[i].value.frame.y
        case .width: return idx.nodes[i].value.frame.width
        case .height: return idx.nodes[i].value.frame.height
        case .headingLevel: return idx.nodes[i].value.headingLevel.map(Double.init)
        case .row: return idx.nodes[i].value.cell.map { Double($0.row) }
        case .column: return idx.nodes[i].value.cell.map { Double($0.column) }
        case .tag: return idx.nodes[i].value.viewID.flatMap { ctx.views[$0] }.map { Double($0.tag) }
        case .string(let stringAttribute):
            if stringAttribute == .value, let numeric = idx.nodes[i].value.numeric { return numeric.current }
            guard let text = string(stringAttribute, i) else { return nil }
            return SelectorParser.number(StringMatcher.normalize(text))
        }
    }

    func traitNames(_ i: Int) -> [String] { idx.nodes[i].value.traits.names }

    func actionNames(_ i: Int, ids: Bool) -> [String] {
        let node = idx.nodes[i].value
        var out = node.actions.map(\.rawValue) + node.customActions.map(\.name)
        if ids { out += node.customActions.map(\.id) }
        return out
    }

    func test(_ condition: Test, _ i: Int) -> Bool {
        switch condition {
        case .string(let attribute, let matcher, let negate):
            return matcher.matches(string(attribute, i), budget: regexBudget) != negate
        case .number(let attribute, let op, let operand): return Self.compare(number(attribute, i), op, operand)
        case .exists(let attribute): return exists(attribute, i)
        case .traitsAll, .traitsExact, .traitNames, .statesAll, .statesNone: return testTraitsOrStates(condition, i)
        case .actionsAll, .actionsExact, .actionNames, .action: return testActions(condition, i)
        case .element(let isElement): return idx.nodes[i].value.isElement == isElement
        case .focused: return ctx.focusedID != nil && idx.ids[i] == ctx.focusedID
        case .hittable: return isHittable(i)
        case .rotor(let name): return hasRotor(name, i)
        case .text(let matcher): return textMatches(matcher, i)
        case .simple(let alts, let negate): return alts.contains { matchesSimple($0, i) } != negate
        case .set(let selector, let negate): return inSet(selector, i) != negate
        case .has(let selector): return has(selector, anchor: i)
        }
    }

    /// A numeric comparison; an attribute the node lacks only satisfies `!=`.
    @inline(__always) static func compare(_ actual: Double?, _ op: NumOp, _ operand: Double) -> Bool {
        guard let actual else { return op == .ne }
        switch op {
        case .eq: return actual == operand
        case .ne: return actual != operand
        case .lt: return actual < operand
        case .le: return actual <= operand
        case .gt: return actual > operand
        case .ge: return actual >= operand
        }
    }

    /// `[attribute]`: the node has a non-empty value for it.
    func exists(_ attribute: AttributeName, _ i: Int) -> Bool {
        let node = idx.nodes[i].value
        switch attribute.kind {
        case .string:
            // `[id]` asks whether an accessibility identifier is set, not for the element-id fallback.
            if attribute == .id { return !StringMatcher.normalize(node.identifier ?? "").isEmpty }
            return !StringMatcher.normalize(string(Test.strAttr(attribute)!, i) ?? "").isEmpty
        case .number:
            switch attribute {
            case .headingLevel: return node.headingLevel != nil
            case .row, .column: return node.cell != nil
            case .tag: return node.viewID.flatMap { ctx.views[$0] }.map { $0.tag != 0 } ?? false
            default: return true
            }
        case .set:
            return attribute == .traits
                ? !node.traits.isEmpty : !(node.actions.isEmpty && node.customActions.isEmpty)
        }
    }

    /// The trait and state tests (`[traits~=…]`, `[traits=…]`, trait-name patterns, `:enabled`-style state sets).
    func testTraitsOrStates(_ condition: Test, _ i: Int) -> Bool {
        let node = idx.nodes[i].value
        switch condition {
        case .traitsAll(let traits): return node.traits.isSuperset(of: traits)
        case .traitsExact(let traits, let negate): return (node.traits == traits) != negate
        case .traitNames(let matcher, _): return traitNames(i).contains { matcher.matches($0, budget: regexBudget) }
        case .statesAll(let states): return node.states.isSuperset(of: states)
        case .statesNone(let states): return node.states.isDisjoint(with: states)
        default: return false
        }
    }

    /// The action tests (`[actions~=…]`, `[actions=…]`, action-name patterns, `:action(name)`).
    func testActions(_ condition: Test, _ i: Int) -> Bool {
        switch condition {
        case .actionsAll(let names, let caseInsensitive):
            let have = actionNames(i, ids: true).map { caseInsensitive ? $0.lowercased() : $0 }
            return names.allSatisfy { have.contains($0) }
        case .actionsExact(let names, let negate, let caseInsensitive):
            let have = Array(Set(actionNames(i, ids: false).map { caseInsensitive ? $0.lowercased() : $0 })).sorted()
            return (have == Array(Set(names)).sorted()) != negate
        case .actionNames(let matcher, _):
            return actionNames(i, ids: true).contains { matcher.matches($0, budget: regexBudget) }
        case .action(let name):
            let node = idx.nodes[i].value
            return node.actions.contains { $0.rawValue == name }
                || node.customActions.contains { $0.name == name || $0.id == name }
        default: return false
        }
    }

    /// `:rotor(name)`: the node declares the rotor, or is a member of the derived rotor of that name (heading,
    /// link…; D-ROTOR-3).
    func hasRotor(_ name: String, _ i: Int) -> Bool {
        let node = idx.nodes[i].value
        if node.rotors.contains(where: {
            $0.name == name || ($0.systemType != .none && $0.systemType.rawValue == name)
        }) {
            return true
        }
        return SystemRotors.isMember(node, of: name)
    }

    /// `:text(…)`: label, value or text matches.
    func textMatches(_ matcher: StringMatcher, _ i: Int) -> Bool {
        let node = idx.nodes[i].value
        return matcher.matches(node.label, budget: regexBudget) || matcher.matches(node.value, budget: regexBudget)
            || matcher.matches(node.text, budget: regexBudget)
    }

    func isHittable(_ i: Int) -> Bool {
        if hittable.isEmpty { hittable = [UInt8](repeating: 0, count: idx.count) }
        if hittable[i] == 0 {
            hittable[i] = HitTesting.isHittable(idx.ids[i], tree: ctx.tree, views: ctx.views) ? 2 : 1
        }
        return hittable[i] == 2
    }

    /// `:is(S)` / `:not(S)` with a complex S: S is evaluated once over the whole tree.
    func inSet(_ selector: CompiledSelector, _ i: Int) -> Bool {
        let key = ObjectIdentifier(selector)
        if let bitmap = sets[key] { return bitmap[i] }
        var bitmap = [Bool](repeating: false, count: idx.count)
        for position in find(selector, scope: Scope(lo: 0, hi: idx.count), limit: nil) { bitmap[Int(position)] = true }
        sets[key] = bitmap
        return bitmap[i]
    }

    /// `:has(R)`: R evaluated relative to the anchor.
    /// The nodes matching a one-step `:has()` argument, as a bitmap and a sorted list, computed once per evaluation.
    @inline(__always) func hasSet(_ step: CStep, key: ObjectIdentifier) -> (bitmap: [Bool], sorted: [Int32]) {
        if let cached = hasSets[key] { return cached }
        let list = filterRanges([(0, idx.count)], step, limit: nil)
        var bitmap = [Bool](repeating: false, count: idx.count)
        for position in list { bitmap[Int(position)] = true }
        hasSets[key] = (bitmap, list)
        return (bitmap, list)
    }

    /// Whether a node of `pre` stands in the `combinator` relation to the anchor.
    @inline(__always) func anyRelated(_ pre: (bitmap: [Bool], sorted: [Int32]), _ combinator: Combinator, anchor: Int)
        -> Bool
    {
        switch combinator {
        case .descendant, .within:
            let cursor = lowerBound(pre.sorted, anchor + 1)
            return cursor < pre.sorted.count && Int(pre.sorted[cursor]) < Int(idx.end[anchor])
        case .child:
            let end = Int(idx.end[anchor])
            var child = anchor + 1
            while child < end {
                if pre.bitmap[child] { return true }
                child = Int(idx.end[child])
            }
            return false
        case .nextSibling:
            let sibling = idx.nextSibling(anchor)
            return sibling >= 0 && pre.bitmap[sibling]
        case .laterSibling:
            var sibling = idx.nextSibling(anchor)
            while sibling >= 0 {
                if pre.bitmap[sibling] { return true }
                sibling = idx.nextSibling(sibling)
            }
            return false
        }
    }

    func has(_ selector: CompiledSelector, anchor: Int) -> Bool {
        if let step = selector.singleStep {
            let pre = hasSet(step, key: ObjectIdentifier(selector))
            return anyRelated(pre, selector.chains[0].leading ?? .descendant, anchor: anchor)
        }
        for chain in selector.chains {
            let lastPositional = !(chain.steps.last?.positional.isEmpty ?? true)
            let matches = evalChain(
                chain, from: 0, initial: .relative(chain.leading ?? .descendant, anchor: anchor),
                limit: lastPositional ? nil : 1, trace: nil)
            if !matches.isEmpty { return true }
        }
        return false
    }
}
