/// The typed relations between nodes of one tree, as UIKit's model implies them (Specs/atspi-mapping.md
/// §Relations; decisions D-REL-1…D-REL-6). UIKit has no relation API: every relation here is read off something the
/// model already says — a container titled by its own heading, an alert whose message is its hint, segments and tabs
/// that form one set, a container whose order the app chose against the geometry. Every rule is local (a node, its
/// parent, its siblings, its children), so a node's relations cost O(fan-out) and need no index.
package enum AXRelationType: String, Sendable, CaseIterable {
    /// The node is named by the target (the target's text is the node's label). Reciprocal: `labelFor`.
    case labelledBy
    case labelFor
    /// The node's hint is the target's text. Reciprocal: `descriptionFor`.
    case describedBy
    case descriptionFor
    /// The node belongs to a set of mutually exclusive siblings (segments, tabs); targets = every member.
    case memberOf
    /// The next (previous) item in the reading order the app chose against the geometric order.
    case flowsTo
    case flowsFrom
}

/// One relation of a node: its type and its targets (node ids, in order; never empty).
package struct AXRelation: Sendable, Equatable {
    package var type: AXRelationType
    package var targets: [String]
    package init(type: AXRelationType, targets: [String]) {
        self.type = type
        self.targets = targets
    }
}

/// Computes relations from the tree alone (pure).
package enum Relations {
    /// The relations of `id` in `tree`, in `AXRelationType` order; empty for an id not in the tree. Targets are
    /// always nodes of the same tree (a relation naming a node that left is never produced: D-REL-6).
    package static func relations(of id: String, in tree: AXTree) -> [AXRelation] {
        guard let node = tree[id] else { return [] }
        let parent = node.parent.flatMap { tree[$0] }
        var out: [AXRelation] = []
        if let title = labellingChild(of: node, in: tree) {
            out.append(AXRelation(type: .labelledBy, targets: [title]))
        }
        if let parent, labellingChild(of: parent, in: tree) == id {
            out.append(AXRelation(type: .labelFor, targets: [parent.id]))
        }
        if let description = describingChild(of: node, in: tree) {
            out.append(AXRelation(type: .describedBy, targets: [description]))
        }
        if let parent, describingChild(of: parent, in: tree) == id {
            out.append(AXRelation(type: .descriptionFor, targets: [parent.id]))
        }
        if let parent, isSetMember(node, parentRole: parent.role) {
            let members = parent.children.filter { sibling in
                tree[sibling].map { isSetMember($0, parentRole: parent.role) } ?? false
            }
            out.append(AXRelation(type: .memberOf, targets: members))
        }
        let siblings = parent?.children ?? (node.parent == nil ? tree.windows : [])
        if siblings.count > 1, hasAuthoredOrder(siblings, in: tree), let at = siblings.firstIndex(of: id) {
            if at + 1 < siblings.count { out.append(AXRelation(type: .flowsTo, targets: [siblings[at + 1]])) }
            if at > 0 { out.append(AXRelation(type: .flowsFrom, targets: [siblings[at - 1]])) }
        }
        return out
    }

    /// D-REL-1: the child that titles a container — the first child heading or static text whose text is the
    /// container's label (a semantic group or landmark whose heading repeats its name), or, for a navigation bar
    /// without a label, its title heading (UIKit's bar has no label of its own; its title names it). Elements have
    /// no exposed children, so only containers are labelled this way.
    package static func labellingChild(of container: AXNode, in tree: AXTree) -> String? {
        guard container.role.isContainerRole, container.role != .window else { return nil }
        let label = container.label ?? ""
        for childID in container.children {
            guard let child = tree[childID], child.role == .header || child.role == .staticText else { continue }
            let text = child.text ?? child.label ?? ""
            if label.isEmpty {
                if container.role == .navigationBar && child.role == .header && !text.isEmpty { return childID }
            } else if text == label {
                return childID
            }
        }
        return nil
    }

    /// D-REL-2: the child whose text is the node's hint (an alert's message: its hint, and a child label).
    package static func describingChild(of node: AXNode, in tree: AXTree) -> String? {
        guard let hint = node.hint, !hint.isEmpty else { return nil }
        for childID in node.children {
            guard let child = tree[childID], child.role == .staticText || child.role == .header else { continue }
            if (child.text ?? child.label) == hint { return childID }
        }
        return nil
    }

    /// D-REL-3: segments of a segmented control and tabs of a tab bar form one set of mutually exclusive items.
    static func isSetMember(_ node: AXNode, parentRole: AXRole) -> Bool {
        switch parentRole {
        case .segmentedControl: return node.role == .button
        case .tabBar: return node.role == .tab
        default: return false
        }
    }

    /// D-REL-4: the children's order is not their geometric reading order (D-ORDER-1) in either writing direction
    /// — the app listed them in `accessibilityElements` (R37) or UIKit put a title first (R13).
    package static func hasAuthoredOrder(_ children: [String], in tree: AXTree) -> Bool {
        var frames: [Rect] = []
        frames.reserveCapacity(children.count)
        for childID in children {
            guard let child = tree[childID] else { return false }
            frames.append(child.frame)
        }
        return !isGeometricOrder(frames, rightToLeft: false) && !isGeometricOrder(frames, rightToLeft: true)
    }

    /// The derivation's row rule (D-ORDER-1): centres never go up, and within a row (items whose centre lies within
    /// half the height of the row's first item, at least 0.5 pt) items never go back toward the leading edge.
    static func isGeometricOrder(_ frames: [Rect], rightToLeft: Bool) -> Bool {
        guard var anchor = frames.first else { return true }
        var last = anchor
        for frame in frames.dropFirst() {
            if frame.midY < last.midY { return false }
            if abs(frame.midY - anchor.midY) <= max(anchor.height / 2, 0.5) {
                let backwards = rightToLeft ? frame.maxX > last.maxX : frame.minX < last.minX
                if backwards { return false }
            } else {
                anchor = frame
            }
            last = frame
        }
        return true
    }

    /// D-REL-6: the nodes of `new` whose relation sets may differ from `old`'s after a change that touched
    /// `changed` (added, removed, moved or updated ids): each changed node, its parent and children in both trees,
    /// and the parents' children. Returns those present in `new` whose relations differ, sorted.
    package static func changedRelations(old: AXTree, new: AXTree, changed: some Sequence<String>) -> [String] {
        var candidates = Set<String>()
        func addNeighbourhood(_ id: String, _ tree: AXTree) {
            candidates.insert(id)
            guard let node = tree[id] else { return }
            candidates.formUnion(node.children)
            if let parentID = node.parent, let parent = tree[parentID] {
                candidates.insert(parentID)
                candidates.formUnion(parent.children)
            } else if node.parent == nil {
                candidates.formUnion(tree.windows)
            }
        }
        for id in changed {
            addNeighbourhood(id, old)
            addNeighbourhood(id, new)
        }
        var out: [String] = []
        for id in candidates where new[id] != nil {
            if relations(of: id, in: old) != relations(of: id, in: new) { out.append(id) }
        }
        return out.sorted()
    }
}
