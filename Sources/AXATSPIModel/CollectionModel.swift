import AXCore

/// `AtspiCollectionMatchType`: how the values of one criterion combine.
package enum CollectionMatchType: Int32, Sendable {
    case invalid = 0
    /// Every listed value must match.
    case all = 1
    /// At least one listed value must match.
    case any = 2
    /// No listed value may match.
    case none = 3
    /// (Only meaningful with an empty list.)
    case empty = 4

    /// The wire value's match type; unknown values are invalid (the criterion then never matches).
    package init(wireValue: Int32) { self = CollectionMatchType(rawValue: wireValue) ?? .invalid }
}

/// `AtspiCollectionSortOrder`: the orders the bridge supports (others answer no matches, like atk-adaptor).
package enum CollectionSortOrder: UInt32, Sendable {
    case invalid = 0
    case canonical = 1
    case flow = 2
    case tab = 3
    case reverseCanonical = 4
    case reverseFlow = 5
    case reverseTab = 6

    /// The wire value's sort order (unknown values are invalid).
    package init(wireValue: UInt32) { self = CollectionSortOrder(rawValue: wireValue) ?? .invalid }

    /// Canonical and reverse canonical are served.
    package var isSupported: Bool { self == .canonical || self == .reverseCanonical }
}

/// A decoded `Collection` match rule `(aiia{ss}iaiiasib)` (semantics of at-spi2-core's atk-adaptor
/// collection-adaptor: an empty criterion always matches; `invert` is ignored, like the reference).
package struct MatchRule: Sendable {
    /// State bits (the rule's first two words).
    package var states: UInt64 = 0
    package var stateMatch: CollectionMatchType = .invalid
    /// (lowercased attribute name, lowercased accepted values) — `a:b\:c` lists alternatives.
    package var attributes: [(name: String, values: [String])] = []
    package var attributeMatch: CollectionMatchType = .invalid
    /// Role bit words (bit n of word w = role w·32+n).
    package var roleWords: [UInt32] = []
    package var roleMatch: CollectionMatchType = .invalid
    /// (interface, action name for "action(name)"); a nil interface names none the bridge knows.
    package var interfaces: [(interface: ATSPIInterfaces?, actionName: String?)] = []
    package var interfaceMatch: CollectionMatchType = .invalid

    package init() {}

    /// Sets the attribute criterion from the wire dictionary (sorted by name, values split on unescaped ':').
    package mutating func setAttributes(_ dictionary: [String: String]) {
        attributes = dictionary.sorted { $0.key < $1.key }.map {
            (name: $0.key.lowercased(), values: MatchRule.splitAlternatives($0.value))
        }
    }

    /// Sets the interface criterion from the wire names: short names ("text"), full D-Bus names, or
    /// "action(name)" for an action of that name.
    package mutating func setInterfaces(_ names: [String]) {
        interfaces = names.map { name in
            let lowercased = name.lowercased()
            if lowercased.hasPrefix("action(") && lowercased.hasSuffix(")") {
                return (interface: .action, actionName: String(name.dropFirst(7).dropLast()))
            }
            return (
                interface: ATSPIInterfaces.shortNamed(lowercased) ?? ATSPIInterfaces.named(name), actionName: nil
            )
        }
    }

    /// `a:b\:c` → ["a", "b:c"] (lowercased: compared case-insensitively).
    package static func splitAlternatives(_ value: String) -> [String] {
        var alternatives: [String] = []
        var current = ""
        var escaped = false
        for character in value {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if character == "\\" {
                escaped = true
                continue
            }
            if character == ":" {
                alternatives.append(current.lowercased())
                current = ""
                continue
            }
            current.append(character)
        }
        alternatives.append(current.lowercased())
        return alternatives
    }

    /// The roles the rule lists.
    package var roles: [UInt32] {
        var listed: [UInt32] = []
        for (word, bits) in roleWords.enumerated() where bits != 0 {
            for bit in 0..<32 where bits & (1 << UInt32(bit)) != 0 { listed.append(UInt32(word * 32 + bit)) }
        }
        return listed
    }

    /// Combines the per-value results of one criterion.
    static func combine(_ matchType: CollectionMatchType, count: Int, _ matches: (Int) -> Bool) -> Bool {
        switch matchType {
        case .all: return (0..<count).allSatisfy(matches)
        case .any: return (0..<count).contains(where: matches)
        case .none: return !(0..<count).contains(where: matches)
        case .invalid, .empty: return false
        }
    }

    /// Whether an object with these properties matches every criterion of the rule. `actionNames` and
    /// `attributes` are asked only when a criterion needs them.
    package func matches(
        role: UInt32, states objectStates: ATSPIStateSet, interfaces objectInterfaces: ATSPIInterfaces,
        actionNames: () -> [String], attributes objectAttributes: () -> [(String, String)]
    ) -> Bool {
        matchesStates(objectStates) && matchesRole(role)
            && matchesInterfaces(objectInterfaces, actionNames: actionNames)
            && matchesAttributes(objectAttributes)
    }

    private func matchesStates(_ objectStates: ATSPIStateSet) -> Bool {
        guard states != 0 else { return true }
        switch stateMatch {
        case .all: return objectStates.bits & states == states
        case .any: return objectStates.bits & states != 0
        case .none: return objectStates.bits & states == 0
        case .invalid, .empty: return false
        }
    }

    private func matchesRole(_ role: UInt32) -> Bool {
        let listedRoles = roles
        guard !listedRoles.isEmpty else { return true }
        switch roleMatch {
        // ALL with several roles can never hold (an object has one role).
        case .all: return listedRoles.count == 1 && listedRoles[0] == role
        case .any: return listedRoles.contains(role)
        case .none: return !listedRoles.contains(role)
        case .invalid, .empty: return false
        }
    }

    private func matchesInterfaces(_ objectInterfaces: ATSPIInterfaces, actionNames: () -> [String]) -> Bool {
        guard !interfaces.isEmpty else { return true }
        var names: [String]? = nil
        return MatchRule.combine(interfaceMatch, count: interfaces.count) { index in
            let wanted = interfaces[index]
            guard let interface = wanted.interface, objectInterfaces.contains(interface) else { return false }
            guard let actionName = wanted.actionName?.lowercased() else { return true }
            if names == nil { names = actionNames() }
            return names?.contains { $0.lowercased() == actionName } ?? false
        }
    }

    private func matchesAttributes(_ objectAttributes: () -> [(String, String)]) -> Bool {
        guard !attributes.isEmpty else { return true }
        let own = objectAttributes()
        return MatchRule.combine(attributeMatch, count: attributes.count) { index in
            let wanted = attributes[index]
            guard let value = own.first(where: { $0.0.lowercased() == wanted.name })?.1.lowercased() else {
                return false
            }
            return wanted.values.contains(value)
        }
    }
}

/// Answers of `org.a11y.atspi.Collection` over a served snapshot.
package struct CollectionModel {
    /// The snapshot answered from.
    package let snapshot: ServedSnapshot

    package init(snapshot: ServedSnapshot) { self.snapshot = snapshot }

    /// Whether a node matches a rule (with the role, states, interfaces and attributes the bridge serves).
    package func node(_ node: AXNode, matches rule: MatchRule) -> Bool {
        let context = snapshot.context(of: node)
        return rule.matches(
            role: ATSPIMapping.role(node, context: context).rawValue,
            states: ATSPIMapping.states(node, context: context, focused: node.id == snapshot.focusedID),
            interfaces: ATSPIMapping.interfaces(node, context: context),
            actionNames: { ATSPIMapping.actions(node, context: context).map(\.name) },
            attributes: { ATSPIMapping.attributes(node, context: context, rotors: snapshot.rotorNames(of: node)) })
    }

    /// Descendants of an object in canonical (pre-order) order; only the direct children when `traverse` is
    /// false.
    package func descendants(of object: ServedObject, traverse: Bool) -> [AXNode] {
        var found: [AXNode] = []
        var stack: [String] = AccessibleModel(snapshot: snapshot).children(of: object).reversed()
        while let id = stack.popLast() {
            guard let node = snapshot.tree[id] else { continue }
            found.append(node)
            if traverse { stack.append(contentsOf: node.children.reversed()) }
        }
        return found
    }

    /// The matching nodes of `candidates` in sort order (reverse canonical walks them backwards), at most
    /// `count` when it is positive.
    package func select(_ candidates: [AXNode], rule: MatchRule, sortOrder: CollectionSortOrder, count: Int32)
        -> [String]
    {
        var selected: [String] = []
        guard sortOrder.isSupported else { return selected }
        let ordered: [AXNode] = sortOrder == .reverseCanonical ? candidates.reversed() : candidates
        for node in ordered where self.node(node, matches: rule) {
            selected.append(node.id)
            if count > 0 && selected.count >= Int(count) { break }
        }
        return selected
    }

    /// `GetMatches(rule, sortOrder, count, traverse)`.
    package func matches(
        in object: ServedObject, rule: MatchRule, sortOrder: CollectionSortOrder, count: Int32, traverse: Bool
    ) -> [String] {
        guard sortOrder.isSupported else { return [] }
        return select(descendants(of: object, traverse: traverse), rule: rule, sortOrder: sortOrder, count: count)
    }

    /// `GetMatchesFrom` (`before` false: the objects after `current`) and `GetMatchesTo` (`before` true: the
    /// objects before it, nearest first). Nil when `current` is not among the candidates. (The spec text is
    /// swapped: From = after the current object, To = before it.)
    package func matches(
        in object: ServedObject, relativeTo current: String, before: Bool, rule: MatchRule,
        sortOrder: CollectionSortOrder, count: Int32, traverse: Bool
    ) -> [String]? {
        guard sortOrder.isSupported else { return [] }
        let candidates = descendants(of: object, traverse: traverse)
        guard let position = candidates.firstIndex(where: { $0.id == current }) else { return nil }
        let slice = before ? Array(candidates[..<position].reversed()) : Array(candidates[(position + 1)...])
        return select(slice, rule: rule, sortOrder: sortOrder, count: count)
    }
}
