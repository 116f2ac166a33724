import AXCore
import AXJSON

/// What `QueryEngine.explain` reports: the canonical selector, the match count after each compound of each
/// chain, and — for the first compound that matched nothing — near misses.
package struct QueryExplanation: Sendable, Equatable {
    package struct NearMiss: Sendable, Equatable {
        /// English description of the relaxed compound ("button with label \"Submit\"").
        package var description: String
        /// What was changed ("label \"Sumbit\" → \"Submit\"", "without :visible").
        package var change: String
        package var count: Int
        /// Up to 5 of the matching node ids.
        package var ids: [String]
    }

    package struct StepReport: Sendable, Equatable {
        /// The chain up to and including this compound, canonical.
        package var selector: String
        /// The combinator before this compound (nil for the first).
        package var combinator: String?
        package var compound: String
        /// English description of the compound.
        package var description: String
        package var count: Int
        package var nearMisses: [NearMiss]
    }

    package struct ChainReport: Sendable, Equatable {
        package var selector: String
        package var steps: [StepReport]
        package var count: Int
    }

    package var canonical: String
    package var count: Int
    /// The first matches (at most 20) in document order.
    package var matches: [String]
    package var chains: [ChainReport]

    /// One line: "0 button with label \"Sumbit\"; 1 button with label \"Submit\"" (the failing step and its near
    /// misses), or "3 matches for cell > button" when something matched.
    package var summary: String {
        if count > 0 { return "\(count) match\(count == 1 ? "" : "es") for \(canonical)" }
        for c in chains {
            guard let s = c.steps.first(where: { $0.count == 0 }) else { continue }
            var parts = ["0 \(s.description)"]
            for m in s.nearMisses { parts.append("\(m.count) \(m.description)") }
            return parts.joined(separator: "; ")
        }
        return "\(count) match\(count == 1 ? "" : "es") for \(canonical)"
    }

    package var json: JSON {
        func miss(_ m: NearMiss) -> JSON {
            [
                "description": .string(m.description), "change": .string(m.change), "count": JSON(m.count),
                "ids": JSON(m.ids),
            ]
        }
        func step(_ s: StepReport) -> JSON {
            var o: JSONObject = [
                "selector": .string(s.selector), "compound": .string(s.compound),
                "description": .string(s.description), "count": JSON(s.count),
            ]
            if let c = s.combinator { o["combinator"] = .string(c) }
            if !s.nearMisses.isEmpty { o["nearMisses"] = .array(s.nearMisses.map(miss)) }
            return .object(o)
        }
        return [
            "canonical": .string(canonical), "selector": .string(canonical), "count": JSON(count),
            "matches": JSON(matches), "summary": .string(summary),
            "chains": .array(
                chains.map { c in
                    ["selector": .string(c.selector), "count": JSON(c.count), "steps": .array(c.steps.map(step))]
                }),
        ]
    }
}

extension QueryEngine {
    /// Explains a query: per-step counts and near misses for the first step that matched nothing.
    /// - Throws: `SelectorError` with reason "regex too expensive" (see `find`).
    package static func explain(_ selector: Selector, in ctx: QueryContext, root: String? = nil) throws(SelectorError)
        -> QueryExplanation
    {
        let ev = Evaluator(ctx)
        let scope = ev.scope(root) ?? Scope(lo: 0, hi: 0)
        let all = ev.find(selector.compiled, scope: scope, limit: nil)
        var reports: [QueryExplanation.ChainReport] = []
        for (ci, chain) in selector.chains.enumerated() {
            let cc = selector.compiled.chains[ci]
            var perStep = [Set<Int32>](repeating: [], count: cc.steps.count)
            var lists = [[Int32]](repeating: [], count: cc.steps.count)
            let result = ev.evalChain(cc, from: 0, initial: .range(scope), limit: nil) { k, list in
                perStep[k].formUnion(list)
                lists[k] = list
            }
            var steps: [QueryExplanation.StepReport] = []
            var failedAt: Int?
            for (k, st) in chain.steps.enumerated() {
                let prefix = Chain(leading: chain.leading, steps: Array(chain.steps[0...k]))
                let count = perStep[k].count
                var misses: [QueryExplanation.NearMiss] = []
                if count == 0 && failedAt == nil {
                    failedAt = k
                    let before: [Int32]? = k == 0 ? nil : perStep[k - 1].sorted()
                    misses = nearMisses(ev, cc.steps[k], st.compound, before: before, scope: scope)
                }
                steps.append(
                    .init(
                        selector: prefix.canonical, combinator: k == 0 ? nil : st.combinator.rawValue,
                        compound: st.compound.canonical, description: describe(st.compound), count: count,
                        nearMisses: misses))
            }
            reports.append(.init(selector: chain.canonical, steps: steps, count: result.count))
        }
        try ev.checkBudget()
        return QueryExplanation(
            canonical: selector.canonical, count: all.count,
            matches: all.prefix(20).map { ev.idx.ids[Int($0)] }, chains: reports)
    }

    /// Candidates a compound is tested against: reached from `before` via its combinator (or the scope).
    static func candidates(_ ev: Evaluator, _ step: CStep, before: [Int32]?, scope: Scope) -> [Int32] {
        guard let before else { return (scope.lo..<scope.hi).map { Int32($0) } }
        let comb: Combinator = step.combinator == .within ? .descendant : step.combinator
        return ev.related(comb, from: before)
    }

    static func nearMisses(_ ev: Evaluator, _ step: CStep, _ compound: Compound, before: [Int32]?, scope: Scope)
        -> [QueryExplanation.NearMiss]
    {
        let cands = candidates(ev, step, before: before, scope: scope)
        var out: [QueryExplanation.NearMiss] = []
        func run(_ c: Compound) -> [Int32]? {
            guard let cs = try? CStep(Step(step.combinator, c)) else { return nil }
            return ev.applyPositional(cs.positional, ev.filterCandidates(cands, cs, limit: nil))
        }
        func add(_ c: Compound, _ change: String) {
            guard let r = run(c), !r.isEmpty else { return }
            let d = describe(c)
            if out.contains(where: { $0.description == d }) { return }
            out.append(
                .init(description: d, change: change, count: r.count, ids: r.prefix(5).map { ev.idx.ids[Int($0)] }))
        }
        // 1. Similar string values among nodes that pass every other test.
        for (ai, a) in compound.attributes.enumerated() {
            guard [.equals, .contains, .prefix, .suffix].contains(a.op), case .string(let needle) = a.value,
                let sa = Test.strAttr(a.name), a.name != .role
            else { continue }
            var others = compound
            others.attributes.remove(at: ai)
            others.pseudos = compound.pseudos.filter { !$0.isPositional }
            guard let pool = run(others) else { continue }
            var seen = Set<String>()
            var scored: [(Int, String)] = []
            let exact = StringMatcher.normalize(needle)
            let n = exact.lowercased()
            for x in pool {
                guard let v = ev.string(sa, Int(x)), !v.isEmpty, seen.insert(v).inserted else { continue }
                let vn = StringMatcher.normalize(v)
                let d = distance(exact, vn, op: a.op, caseInsensitive: a.caseInsensitive)
                if d > 0 { scored.append((d, v)) }
            }
            let limit = max(3, n.count / 3 + 1)
            for (d, v) in scored.sorted(by: { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }).prefix(3) where d <= limit {
                var c = compound
                c.attributes[ai].value = .string(v)
                c.attributes[ai].op = a.op == .notEquals ? .notEquals : .equals
                add(c, "\(a.name.rawValue) \(Canon.quoted(needle)) → \(Canon.quoted(v))")
            }
        }
        // 2. The same value under another attribute: the attribute that *would* have matched (`#remember` when the
        // element's id is "remember", `[label="On"]` when "On" is the value).
        let substitutes: [AttributeName] = [.id, .label, .value, .name, .placeholder, .hint, .text, .axid]
        for (ai, a) in compound.attributes.enumerated() {
            guard [.equals, .contains, .prefix, .suffix].contains(a.op), case .string = a.value,
                substitutes.contains(a.name)
            else { continue }
            for other in substitutes where other != a.name && !(a.name == .name && (other == .id || other == .label)) {
                var c = compound
                c.attributes[ai].name = other
                add(c, "attribute \(a.name.rawValue) → \(other.rawValue)")
            }
        }
        // 3. Relax one constraint at a time.
        if let r = compound.role {
            var c = compound
            c.role = nil
            if let res = run(c), !res.isEmpty {
                // Report the roles that do match, one near miss per role.
                var roles: [AXRole] = []
                for x in res {
                    let rr = ev.idx.nodes[Int(x)].value.role
                    if !roles.contains(rr) { roles.append(rr) }
                }
                for rr in roles.prefix(3) {
                    var c2 = compound
                    c2.role = rr
                    add(c2, "role \(r.rawValue) → \(rr.rawValue)")
                }
            }
        }
        for ai in compound.attributes.indices {
            var c = compound
            let removed = c.attributes.remove(at: ai)
            add(c, "without \(removed.canonical)")
        }
        for pi in compound.pseudos.indices {
            var c = compound
            let removed = c.pseudos.remove(at: pi)
            add(c, "without \(removed.canonical)")
        }
        return Array(out.prefix(6))
    }

    /// Needles longer than this are only compared for equality and case (banded edit distance: O(length × 17)).
    static let maxComparedCharacters = 4_096
    /// `*=` needles longer than this are only compared for equality and case.
    static let maxContainedCharacters = 256
    /// A `*=` near miss is looked for in the first this many characters of a value.
    static let maxScannedCharacters = 1_024
    /// Edit distances above this are not near misses.
    static let maxDistance = 8

    /// How far a value is from matching `needle` under `op`: 0 = matches, 1 = differs only in case, else edit
    /// distance + 1; `Int.max` when not close. Bounded work whatever the lengths: a banded edit distance (at most
    /// `maxComparedCharacters` × 17 cells) or, for `*=`, at most `maxContainedCharacters` × `maxScannedCharacters`.
    static func distance(_ needle: String, _ v: String, op: AttributeOp, caseInsensitive: Bool) -> Int {
        let nl = needle.lowercased()
        let needleLength = needle.count
        switch op {
        case .prefix, .suffix:
            guard needleLength <= maxComparedCharacters else { return Int.max }
            let window = op == .prefix ? String(v.prefix(needleLength)) : String(v.suffix(needleLength))
            if window == needle { return 0 }
            let wl = window.lowercased()
            if wl == nl { return caseInsensitive ? 0 : 1 }
            return editDistance(nl, wl, limit: maxDistance) + 1
        case .contains:
            if v.contains(needle) { return 0 }
            guard needleLength <= maxContainedCharacters else { return Int.max }
            let scanned = Array(String(v.prefix(maxScannedCharacters)).lowercased())
            let target = Array(nl)
            if needleLength > scanned.count { return editDistance(nl, String(scanned), limit: maxDistance) + 1 }
            let d = substringEditDistance(target, in: scanned, limit: maxDistance)
            return d == 0 ? (caseInsensitive ? 0 : 1) : d + 1
        default:
            if v == needle { return 0 }
            let vl = v.lowercased()
            if vl == nl { return caseInsensitive ? 0 : 1 }
            guard needleLength <= maxComparedCharacters, abs(v.count - needleLength) <= maxDistance else {
                return Int.max
            }
            return editDistance(nl, vl, limit: maxDistance) + 1
        }
    }

    /// The smallest edit distance between `needle` and any substring of `text` (Sellers' algorithm: a free start
    /// in the text), or `limit + 1` when above `limit`. O(|needle| × |text|) time, O(|needle|) memory.
    static func substringEditDistance(_ needle: [Character], in text: [Character], limit: Int) -> Int {
        let m = needle.count
        if m == 0 { return 0 }
        // distances for needle[0..<i] against a substring ending at the current text position
        var column = Array(0...m)
        var best = column[m]
        for c in text {
            var diagonal = column[0]  // the free start: 0 for every text position
            column[0] = 0
            for i in 1...m {
                let above = column[i]
                column[i] = min(above + 1, column[i - 1] + 1, diagonal + (needle[i - 1] == c ? 0 : 1))
                diagonal = above
            }
            best = min(best, column[m])
            if best == 0 { return 0 }
        }
        return best > limit ? limit + 1 : best
    }

    /// English description of a compound: `button with label "Submit"`.
    package static func describe(_ c: Compound) -> String {
        var head = c.role?.rawValue ?? "element"
        for p in c.pseudos { head += p.canonical }
        var parts: [String] = []
        for a in c.attributes {
            let name = a.name.rawValue
            guard let v = a.value else {
                parts.append("a \(name)")
                continue
            }
            let val = v.canonical + (a.caseInsensitive ? " (any case)" : "")
            switch a.op {
            case .equals: parts.append("\(name) \(val)")
            case .notEquals: parts.append("\(name) not \(val)")
            case .contains: parts.append("\(name) containing \(val)")
            case .prefix: parts.append("\(name) starting with \(val)")
            case .suffix: parts.append("\(name) ending with \(val)")
            case .matches: parts.append("\(name) matching \(v.canonical)")
            case .includes: parts.append("\(name) including \(val)")
            case .exists: parts.append("a \(name)")
            default: parts.append("\(name) \(a.op.rawValue) \(val)")
            }
        }
        return parts.isEmpty ? head : head + " with " + parts.joined(separator: " and ")
    }
}
