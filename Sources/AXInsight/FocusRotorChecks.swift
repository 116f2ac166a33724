import AXCore

/// The checks decided by the focus engine and the rotors (D-AUDIT-14…16): an interactive element the app made
/// unfocusable, a focus group with no reachable item, a custom rotor that returns nothing. The focus engine's index
/// is built only when a candidate exists (an interactive element without the `focusable` state, or a view that
/// declares a focus group); the node walk (NodeChecks) collects the candidates and the rotor holders.
enum FocusRotorChecks {
    /// The actions that make an element a control a keyboard user must reach (D-AUDIT-14).
    static let reachActions: Set<AXAction> = [.activate, .increment, .decrement]

    static func run(
        tree: AXTree, views: ViewHierarchy, root: String?, walk: NodeChecks.WalkResult,
        into collector: inout Collector
    ) {
        let wantsFocusable = collector.wants(AuditCatalog.focusable)
        let wantsGroups = collector.wants(AuditCatalog.focusGroup)
        let wantsRotors = collector.wants(AuditCatalog.emptyRotor)
        guard wantsFocusable || wantsGroups || wantsRotors else { return }
        if wantsRotors {
            for node in walk.rotorHolders {
                checkRotors(node, tree: tree, into: &collector)
            }
        }
        let unfocusableCandidates = wantsFocusable ? walk.unfocusableCandidates : []
        var declaresGroup = false
        if wantsGroups {
            for (_, view) in views.nodes where view.focus.groupIdentifier != nil {
                declaresGroup = true
                break
            }
        }
        guard !unfocusableCandidates.isEmpty || declaresGroup else { return }
        let engine = FocusEngine(index: FocusIndex(views: views, tree: tree))
        for node in unfocusableCandidates {
            checkFocusable(node, engine: engine, into: &collector)
        }
        if declaresGroup {
            checkGroups(
                engine: engine, tree: tree, rootView: root.flatMap { tree[$0]?.viewID }, scoped: root != nil,
                into: &collector)
        }
    }

    /// An enabled interactive element backed by its own view, with an action a keyboard user needs, that the
    /// derivation did not mark focusable (the `focusable` state is canBecomeFocused ∧ enabled, C17).
    static func isUnfocusableCandidate(_ node: AXNode) -> Bool {
        guard let viewID = node.viewID, viewID == node.id else { return false }
        guard Interactivity.isInteractive(node), !node.states.contains(.focusable) else { return false }
        return node.actions.contains { reachActions.contains($0) }
    }

    /// D-AUDIT-14: fires only when the engine's first failing focusability check is `canBecomeFocused` — the app's
    /// choice. Disabled, hidden, off-screen, modal and covered views are legitimately unfocusable.
    static func checkFocusable(_ node: AXNode, engine: FocusEngine, into collector: inout Collector) {
        guard let viewID = node.viewID else { return }
        let checks = engine.checks(viewID)
        guard let failed = checks.first(where: { !$0.passed }), failed.name == "canBecomeFocused" else { return }
        let actions = node.actions.filter { reachActions.contains($0) }.map(\.rawValue).joined(separator: ", ")
        collector.add(
            AuditCatalog.focusable, node: node,
            reason:
                "has \(actions) but its view cannot become focused (canBecomeFocused is false), so a keyboard user never reaches it",
            fix: "Let the view return true from canBecomeFocused, as UIKit's own controls do (C2, C17)",
            rules: ["C2", "C17"])
    }

    /// D-AUDIT-15: a `focusGroupIdentifier` none of whose members the engine can focus. A member counts as
    /// reachable when it passes every focusability check, or fails only because its window is not key (the user
    /// makes a window key, not the app). A group whose members are all hidden is not on screen: silent.
    static func checkGroups(
        engine: FocusEngine, tree: AXTree, rootView: String?, scoped: Bool,
        into collector: inout Collector
    ) {
        if scoped && rootView == nil { return }
        let index = engine.index
        let rootPosition = rootView.flatMap { index.position[$0] }
        if scoped && rootPosition == nil { return }
        struct GroupState {
            var declaredBy: Int
            var reachable = false
            var anyVisible = false
        }
        var order: [String] = []
        var states: [String: GroupState] = [:]
        for position in index.entries.indices {
            let entry = index.entries[position]
            guard let group = entry.group else { continue }
            if states[group] == nil {
                order.append(group)
                states[group] = GroupState(declaredBy: position)
            }
            guard var state = states[group], !state.reachable else { continue }
            if entry.hiddenBy < 0 { state.anyVisible = true }
            let failed = engine.checks(entry.id).first { !$0.passed }
            if failed == nil || failed?.name == "keyWindow" { state.reachable = true }
            states[group] = state
        }
        for group in order {
            guard let state = states[group], !state.reachable, state.anyVisible else { continue }
            if let rootPosition, !index.isInSubtree(state.declaredBy, of: rootPosition) { continue }
            let declarer = index.entries[state.declaredBy]
            let node = tree[declarer.id]
            collector.add(
                AuditCatalog.focusGroup, element: declarer.id, role: node?.role.rawValue, label: node?.label,
                frame: declarer.frame,
                reason:
                    "focus group \(AuditText.quoted(group)) has no member that can become focused, so Tab and the arrows skip it",
                fix: "Put a focusable, enabled view in the group, or remove the focusGroupIdentifier (C24, C22)",
                rules: ["C24", "C22"])
        }
    }

    /// D-AUDIT-16: a rotor with static items that is empty or whose every item names an element not in the tree.
    /// Rotors the app searches itself (`"search": "app"`, R58) are skipped: the server cannot know what they return.
    static func checkRotors(_ node: AXNode, tree: AXTree, into collector: inout Collector) {
        for rotor in node.rotors where !rotor.searchedByApp {
            let reason: String
            if rotor.items.isEmpty {
                reason =
                    "custom rotor \(AuditText.quoted(rotor.name)) has no items, so VoiceOver offers a rotor that finds nothing"
            } else if rotor.items.allSatisfy({ tree[$0.target] == nil }) {
                reason = "every item of custom rotor \(AuditText.quoted(rotor.name)) names an element not in the tree"
            } else {
                continue
            }
            collector.add(
                AuditCatalog.emptyRotor, node: node, reason: reason,
                fix: "Give the rotor items that are elements on screen, or remove it while it has none (R57, R58)",
                rules: ["R57", "R58"])
        }
    }
}
