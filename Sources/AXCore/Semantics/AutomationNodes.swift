/// Views that automation finds although assistive technologies do not (issue 25 item 2; R38, X18, seed 000:55436;
/// D-AUTO-1). A view an element lists explicitly in `automationElements` that is no node of the derived tree
/// becomes an *automation-only node*, built on lookup: parent the listing element, state
/// `automationOnly`, label, value, traits, role and actions by the rules `makeElement` applies, its frame on screen.
/// The derived tree itself (children, navigation order, AT-SPI, speech) is unchanged: the listing element's
/// `children` never name it.
package enum AutomationNodes {
    /// `tree` plus its automation-only nodes (the same tree when it has none). Cost: one pass over the nodes.
    package static func augment(_ tree: AXTree, views: ViewHierarchy) -> AXTree {
        var out = tree
        for (_, listing) in tree.nodes where !listing.automationElements.isEmpty {
            // Only what the app listed itself: X18's fallback names an element's identified subviews (the control
            // a cell acts for, which the cell already represents) or tree nodes.
            guard let explicit = listing.viewID.flatMap({ views[$0]?.ax.automationElements }) else { continue }
            for id in explicit where out[id] == nil {
                if let node = node(for: id, listedBy: listing, views: views) { out.nodes[id] = node }
            }
        }
        return out
    }

    /// The automation-only ids of `node` in an augmented tree, in the listing's order.
    package static func children(of node: AXNode, in tree: AXTree) -> [String] {
        node.automationElements.filter { id in
            guard let child = tree[id] else { return false }
            return child.states.contains(.automationOnly) && child.parent == node.id
        }
    }

    /// The automation-only node of view `id` listed by `listing`; nil when there is no such view or it is hidden.
    static func node(for id: String, listedBy listing: AXNode, views: ViewHierarchy) -> AXNode? {
        guard let view = views[id], !view.isHidden, view.alpha >= 0.01 else { return nil }
        let traits = view.ax.traits ?? ControlSemantics.traits(view)
        let role = ControlSemantics.elementRole(
            kind: view.kind, traits: traits, secure: false, editable: false, inTabBar: false)
        var node = AXNode(
            id: id, viewID: id, className: view.className, viewClass: view.kind, role: role, isElement: false,
            windowID: listing.windowID)
        node.label = view.ax.label ?? ControlSemantics.defaultLabel(view)
        node.value = view.ax.value
        node.identifier = view.ax.identifier
        node.traits = traits
        node.frame = screenRect(of: view, views: views)
        node.activationPoint = Point(x: node.frame.midX, y: node.frame.midY)
        node.parent = listing.id
        node.actions = ControlSemantics.actions(role: role, kind: view.kind, traits: traits, editable: false)
        var states: AXStates = [.automationOnly]
        if !traits.contains(.notEnabled) { states.insert(.enabled) }
        if listing.isOnscreen && !node.frame.isEmpty { states.insert(.onscreen) }
        node.states = states
        return node
    }

    /// The view's rect on screen: its rect in its superview, mapped up through every ancestor's bounds.
    static func screenRect(of view: ViewNode, views: ViewHierarchy) -> Rect {
        var rect = view.rectInSuperview
        var current = view.parent.flatMap { views[$0] }
        while let ancestor = current {
            rect = ancestor.boundsToSuperviewMap.apply(rect)
            current = ancestor.parent.flatMap { views[$0] }
        }
        return rect
    }
}
