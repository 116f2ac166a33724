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
        for chain in chains {
            guard let failedStep = chain.steps.first(where: { $0.count == 0 }) else { continue }
            var parts = ["0 \(failedStep.description)"]
            for miss in failedStep.nearMisses { parts.append("\(miss.count) \(miss.description)") }
            return parts.joined(separator: "; ")
        }
        return "\(count) match\(count == 1 ? "" : "es") for \(canonical)"
    }

    package var json: JSON {
        func miss(_ miss: NearMiss) -> JSON {
            [
                "description": .string(miss.description), "change": .string(miss.change), "count": JSON(miss.count),
                "ids": JSON(miss.ids),
            ]
        }
        func step(_ stepReport: StepReport) -> JSON {
            var object: JSONObject = [
                "selector": .string(stepReport.selector), "compound": .string(stepReport.compound),
                "description": .string(stepReport.description), "count": JSON(stepReport.count),
            ]
            if let chain = stepReport.combinator { object["combinator"] = .string(chain) }
            if !stepReport.nearMisses.isEmpty { object["nearMisses"] = .array(stepReport.nearMisses.map(miss)) }
            return .object(object)
        }
        return [
            "canonical": .string(canonical), "selector": .string(canonical), "count": JSON(count),
            "matches": JSON(matches), "summary": .string(summary),
            "chains": .array(
                chains.map { chain in
                    [
                        "selector": .string(chain.selector), "count": JSON(chain.count),
                        "steps": .array(chain.steps.map(step)),
                    ]
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
    static func candidates(_ evaluator: Evaluator, _ step: CStep, before: [Int32]?, scope: Scope) -> [Int32] {
        guard let before else { return (scope.lo..<scope.hi).map { Int32($0) } }
        let combinator: Combinator = step.combinator == .within ? .descendant : step.combinator
        return evaluator.related(combinator, from: before)
    }

    static func nearMisses(_ evaluator: Evaluator, _ step: CStep, _ compound: Compound, before: [Int32]?, scope: Scope)
        -> [QueryExplanation.NearMiss]
    {
        var collector = NearMissCollector(
            evaluator: evaluator, step: step, candidates: candidates(evaluator, step, before: before, scope: scope))
        collector.addSimilarValues(compound)
        collector.addSubstituteAttributes(compound)
        collector.addRelaxedConstraints(compound)
        return Array(collector.out.prefix(6))
    }

    /// Collects the near misses of one compound: variants that would match, each described once.
    struct NearMissCollector {
        let evaluator: Evaluator
        let step: CStep
        let candidates: [Int32]
        var out: [QueryExplanation.NearMiss] = []

        func run(_ variant: Compound) -> [Int32]? {
            guard let compiled = try? CStep(Step(step.combinator, variant)) else { return nil }
            return evaluator.applyPositional(
                compiled.positional, evaluator.filterCandidates(candidates, compiled, limit: nil))
        }

        mutating func add(_ variant: Compound, _ change: String) {
            guard let matches = run(variant), !matches.isEmpty else { return }
            let description = QueryEngine.describe(variant)
            if out.contains(where: { $0.description == description }) { return }
            out.append(
                .init(
                    description: description, change: change, count: matches.count,
                    ids: matches.prefix(5).map { evaluator.idx.ids[Int($0)] }))
        }

        /// 1. Similar string values among nodes that pass every other test.
        mutating func addSimilarValues(_ compound: Compound) {
            for (attributeIndex, attribute) in compound.attributes.enumerated() {
                guard [.equals, .contains, .prefix, .suffix].contains(attribute.op),
                    case .string(let needle) = attribute.value,
                    let stringAttribute = Test.strAttr(attribute.name), attribute.name != .role
                else { continue }
                var others = compound
                others.attributes.remove(at: attributeIndex)
                others.pseudos = compound.pseudos.filter { !$0.isPositional }
                guard let pool = run(others) else { continue }
                let limit = max(3, StringMatcher.normalize(needle).lowercased().count / 3 + 1)
                for (score, candidateValue) in scoredValues(pool, stringAttribute, attribute, needle: needle)
                where score <= limit {
                    var variant = compound
                    variant.attributes[attributeIndex].value = .string(candidateValue)
                    variant.attributes[attributeIndex].op = attribute.op == .notEquals ? .notEquals : .equals
                    add(variant, "\(attribute.name.rawValue) \(Canon.quoted(needle)) → \(Canon.quoted(candidateValue))")
                }
            }
        }

        /// The three closest distinct values of `stringAttribute` in `pool` (closest first, then by value).
        func scoredValues(_ pool: [Int32], _ stringAttribute: StrAttr, _ attribute: AttributeTest, needle: String)
            -> ArraySlice<(Int, String)>
        {
            var seen = Set<String>()
            var scored: [(Int, String)] = []
            let exact = StringMatcher.normalize(needle)
            for position in pool {
                guard let candidateValue = evaluator.string(stringAttribute, Int(position)), !candidateValue.isEmpty,
                    seen.insert(candidateValue).inserted
                else { continue }
                let normalizedValue = StringMatcher.normalize(candidateValue)
                let score = QueryEngine.distance(
                    exact, normalizedValue, op: attribute.op, caseInsensitive: attribute.caseInsensitive)
                if score > 0 { scored.append((score, candidateValue)) }
            }
            return scored.sorted(by: { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }).prefix(3)
        }

        /// 2. The same value under another attribute: the attribute that *would* have matched (`#remember` when the
        /// element's id is "remember", `[label="On"]` when "On" is the value).
        mutating func addSubstituteAttributes(_ compound: Compound) {
            let substitutes: [AttributeName] = [.id, .label, .value, .name, .placeholder, .hint, .text, .axid]
            for (attributeIndex, attribute) in compound.attributes.enumerated() {
                guard [.equals, .contains, .prefix, .suffix].contains(attribute.op), case .string = attribute.value,
                    substitutes.contains(attribute.name)
                else { continue }
                for other in substitutes
                where other != attribute.name && !(attribute.name == .name && (other == .id || other == .label)) {
                    var variant = compound
                    variant.attributes[attributeIndex].name = other
                    add(variant, "attribute \(attribute.name.rawValue) → \(other.rawValue)")
                }
            }
        }

        /// 3. Relax one constraint at a time.
        mutating func addRelaxedConstraints(_ compound: Compound) {
            addOtherRoles(compound)
            for attributeIndex in compound.attributes.indices {
                var variant = compound
                let removed = variant.attributes.remove(at: attributeIndex)
                add(variant, "without \(removed.canonical)")
            }
            for pseudoIndex in compound.pseudos.indices {
                var variant = compound
                let removed = variant.pseudos.remove(at: pseudoIndex)
                add(variant, "without \(removed.canonical)")
            }
        }

        /// Without the role: the roles that do match, one near miss per role.
        mutating func addOtherRoles(_ compound: Compound) {
            guard let matches = compound.role else { return }
            var variant = compound
            variant.role = nil
            guard let res = run(variant), !res.isEmpty else { return }
            var roles: [AXRole] = []
            for position in res {
                let matchedRole = evaluator.idx.nodes[Int(position)].value.role
                if !roles.contains(matchedRole) { roles.append(matchedRole) }
            }
            for matchedRole in roles.prefix(3) {
                var roleVariant = compound
                roleVariant.role = matchedRole
                add(roleVariant, "role \(matches.rawValue) → \(matchedRole.rawValue)")
            }
        }
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
    static func distance(_ needle: String, _ value: String, op: AttributeOp, caseInsensitive: Bool) -> Int {
        switch op {
        case .prefix, .suffix: return affixDistance(needle, value, op: op, caseInsensitive: caseInsensitive)
        case .contains: return containedDistance(needle, value, caseInsensitive: caseInsensitive)
        default: return equalityDistance(needle, value, caseInsensitive: caseInsensitive)
        }
    }

    /// `^=` / `$=`: the value's prefix or suffix of the needle's length against the needle.
    static func affixDistance(_ needle: String, _ value: String, op: AttributeOp, caseInsensitive: Bool) -> Int {
        let needleLength = needle.count
        guard needleLength <= maxComparedCharacters else { return Int.max }
        let window = op == .prefix ? String(value.prefix(needleLength)) : String(value.suffix(needleLength))
        if window == needle { return 0 }
        let loweredNeedle = needle.lowercased()
        let loweredWindow = window.lowercased()
        if loweredWindow == loweredNeedle { return caseInsensitive ? 0 : 1 }
        return editDistance(loweredNeedle, loweredWindow, limit: maxDistance) + 1
    }

    /// `*=`: the closest substring of the value's first `maxScannedCharacters` characters.
    static func containedDistance(_ needle: String, _ value: String, caseInsensitive: Bool) -> Int {
        if value.contains(needle) { return 0 }
        let needleLength = needle.count
        guard needleLength <= maxContainedCharacters else { return Int.max }
        let loweredNeedle = needle.lowercased()
        let scanned = Array(String(value.prefix(maxScannedCharacters)).lowercased())
        let target = Array(loweredNeedle)
        if needleLength > scanned.count {
            return editDistance(loweredNeedle, String(scanned), limit: maxDistance) + 1
        }
        let substringDistance = substringEditDistance(target, in: scanned, limit: maxDistance)
        return substringDistance == 0 ? (caseInsensitive ? 0 : 1) : substringDistance + 1
    }

    /// `=` and the other operators: the whole value against the needle.
    static func equalityDistance(_ needle: String, _ value: String, caseInsensitive: Bool) -> Int {
        if value == needle { return 0 }
        let loweredNeedle = needle.lowercased()
        let loweredValue = value.lowercased()
        if loweredValue == loweredNeedle { return caseInsensitive ? 0 : 1 }
        guard needle.count <= maxComparedCharacters, abs(value.count - needle.count) <= maxDistance else {
            return Int.max
        }
        return editDistance(loweredNeedle, loweredValue, limit: maxDistance) + 1
    }

    /// The smallest edit distance between `needle` and any substring of `text` (Sellers' algorithm: a free start
    /// in the text), or `limit + 1` when above `limit`. O(|needle| × |text|) time, O(|needle|) memory.
    static func substringEditDistance(_ needle: [Character], in text: [Character], limit: Int) -> Int {
        let needleLength = needle.count
        if needleLength == 0 { return 0 }
        // distances for needle[0..<i] against a substring ending at the current text position
        var column = Array(0...needleLength)
        var best = column[needleLength]
        for character in text {
            var diagonal = column[0]  // the free start: 0 for every text position
            column[0] = 0
            for i in 1...needleLength {
                let above = column[i]
                column[i] = min(above + 1, column[i - 1] + 1, diagonal + (needle[i - 1] == character ? 0 : 1))
                diagonal = above
            }
            best = min(best, column[needleLength])
            if best == 0 { return 0 }
        }
        return best > limit ? limit + 1 : best
    }

    /// English description of a compound: `button with label "Submit"`.
    package static func describe(_ compound: Compound) -> String {
        var head = compound.role?.rawValue ?? "element"
        for pseudo in compound.pseudos { head += pseudo.canonical }
        var parts: [String] = []
        for attribute in compound.attributes {
            let name = attribute.name.rawValue
            guard let value = attribute.value else {
                parts.append("a \(name)")
                continue
            }
            let valueText = value.canonical + (attribute.caseInsensitive ? " (any case)" : "")
            switch attribute.op {
            case .equals: parts.append("\(name) \(valueText)")
            case .notEquals: parts.append("\(name) not \(valueText)")
            case .contains: parts.append("\(name) containing \(valueText)")
            case .prefix: parts.append("\(name) starting with \(valueText)")
            case .suffix: parts.append("\(name) ending with \(valueText)")
            case .matches: parts.append("\(name) matching \(value.canonical)")
            case .includes: parts.append("\(name) including \(valueText)")
            case .exists: parts.append("a \(name)")
            default: parts.append("\(name) \(attribute.op.rawValue) \(valueText)")
            }
        }
        return parts.isEmpty ? head : head + " with " + parts.joined(separator: " and ")
    }
}
