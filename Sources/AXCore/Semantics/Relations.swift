/// The typed relations between nodes of one tree, as UIKit's model implies them (Specs/atspi-mapping.md
/// §Relations; decisions D-REL-1…D-REL-8). UIKit has no relation API: every relation here is read off something the
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
    /// The node (a page control) switches the target (the paging scroll view beside it; D-REL-7). Reciprocal:
    /// `controlledBy`.
    case controllerFor
    case controlledBy
    /// The node belongs to a set of mutually exclusive siblings (segments, tabs); targets = every member.
    case memberOf
    /// The next (previous) item in the reading order the app chose against the geometric order.
    case flowsTo
    case flowsFrom
    /// An outline row's parent row, or its list for a top-level row (D-REL-8). Reciprocal: `nodeParentOf`.
    case nodeChildOf
    /// The rows one level below this row (or the top-level rows of an outline list).
    case nodeParentOf
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
        appendLabelRelations(of: node, parent: parent, in: tree, into: &out)
        if let parent { appendPagingAndSetRelations(of: node, parent: parent, in: tree, into: &out) }
        let siblings = parent?.children ?? (node.parent == nil ? tree.windows : [])
        if siblings.count > 1, hasAuthoredOrder(siblings, in: tree), let at = siblings.firstIndex(of: id) {
            if at + 1 < siblings.count { out.append(AXRelation(type: .flowsTo, targets: [siblings[at + 1]])) }
            if at > 0 { out.append(AXRelation(type: .flowsFrom, targets: [siblings[at - 1]])) }
        }
        appendOutlineRelations(of: node, parent: parent, in: tree, into: &out)
        return out
    }

    /// labelledBy, labelFor, describedBy, descriptionFor.
    private static func appendLabelRelations(
        of node: AXNode, parent: AXNode?, in tree: AXTree, into out: inout [AXRelation]
    ) {
        if let title = labellingChild(of: node, in: tree) {
            out.append(AXRelation(type: .labelledBy, targets: [title]))
        }
        if let parent, labellingChild(of: parent, in: tree) == node.id {
            out.append(AXRelation(type: .labelFor, targets: [parent.id]))
        }
        if let description = describingChild(of: node, in: tree) {
            out.append(AXRelation(type: .describedBy, targets: [description]))
        }
        if let parent, describingChild(of: parent, in: tree) == node.id {
            out.append(AXRelation(type: .descriptionFor, targets: [parent.id]))
        }
    }

    /// controllerFor, controlledBy (D-REL-7), memberOf.
    private static func appendPagingAndSetRelations(
        of node: AXNode, parent: AXNode, in tree: AXTree, into out: inout [AXRelation]
    ) {
        if node.viewClass == .pageControl, let paged = pagedSibling(in: parent, tree: tree) {
            out.append(AXRelation(type: .controllerFor, targets: [paged]))
        }
        if node.isPagingEnabled, pagedSibling(in: parent, tree: tree) == node.id {
            let controllers = parent.children.filter { tree[$0]?.viewClass == .pageControl }
            if !controllers.isEmpty { out.append(AXRelation(type: .controlledBy, targets: controllers)) }
        }
        if isSetMember(node, parentRole: parent.role) {
            let members = parent.children.filter { sibling in
                tree[sibling].map { isSetMember($0, parentRole: parent.role) } ?? false
            }
            out.append(AXRelation(type: .memberOf, targets: members))
        }
    }

    /// nodeChildOf, nodeParentOf (D-REL-8).
    private static func appendOutlineRelations(
        of node: AXNode, parent: AXNode?, in tree: AXTree, into out: inout [AXRelation]
    ) {
        if let parent, outlineLevel(node) != nil, isOutline(parent, in: tree),
            let at = parent.children.firstIndex(of: node.id)
        {
            let rowParent = outlineParent(ofRowAt: at, in: parent, tree: tree)
            out.append(AXRelation(type: .nodeChildOf, targets: [rowParent ?? parent.id]))
            let rows = outlineChildren(ofRowAt: at, in: parent, tree: tree)
            if !rows.isEmpty { out.append(AXRelation(type: .nodeParentOf, targets: rows)) }
        } else if isOutline(node, in: tree) {
            let rows = outlineChildren(ofRowAt: nil, in: node, tree: tree)
            if !rows.isEmpty { out.append(AXRelation(type: .nodeParentOf, targets: rows)) }
        }
    }

    /// D-REL-7: the one child of `parent` backed by a paging scroll view (`isPagingEnabled`), which the page
    /// controls among the same children switch; nil when there is none or more than one (which one a page control
    /// pages would be a guess).
    static func pagedSibling(in parent: AXNode, tree: AXTree) -> String? {
        var found: String?
        for childID in parent.children where tree[childID]?.isPagingEnabled == true {
            if found != nil { return nil }
            found = childID
        }
        return found
    }

    /// D-REL-8: the outline level of a child of a list — a table or list cell's `indentationLevel` (0 when a cell
    /// does not set it); nil for a child that is not a cell (a section header, a footer), which is no outline row.
    static func outlineLevel(_ node: AXNode) -> Int? {
        guard node.viewClass == .tableViewCell || node.viewClass == .collectionViewCell else { return nil }
        return node.indentationLevel ?? 0
    }

    /// D-REL-8: a container is an outline when one of its cells is indented (`indentationLevel` > 0) or shows an
    /// outline disclosure (expanded or collapsed, `accessibilityExpandedStatus`); a flat list is not.
    package static func isOutline(_ container: AXNode, in tree: AXTree) -> Bool {
        guard container.role.isContainerRole, container.role != .window else { return false }
        for childID in container.children {
            guard let child = tree[childID], let level = outlineLevel(child) else { continue }
            if level > 0 || child.states.contains(.expanded) || child.states.contains(.collapsed) { return true }
        }
        return false
    }

    /// The row that `list.children[at]` is a node child of: the nearest preceding row with a lower level; nil for
    /// a top-level row (its node parent is the list) or a child that is not a row.
    static func outlineParent(ofRowAt at: Int, in list: AXNode, tree: AXTree) -> String? {
        guard let row = tree[list.children[at]], let level = outlineLevel(row) else { return nil }
        var index = at - 1
        while index >= 0 {
            let candidateID = list.children[index]
            if let candidate = tree[candidateID], let candidateLevel = outlineLevel(candidate), candidateLevel < level {
                return candidateID
            }
            index -= 1
        }
        return nil
    }

    /// The rows whose node parent is `list.children[at]` (or, for `at == nil`, the list's top-level rows): the
    /// following rows until one at the row's level or above, each one no deeper than the shallowest row seen so
    /// far (a row deeper than that belongs to an earlier child).
    static func outlineChildren(ofRowAt at: Int?, in list: AXNode, tree: AXTree) -> [String] {
        var ownLevel = -1
        if let at {
            guard let row = tree[list.children[at]], let level = outlineLevel(row) else { return [] }
            ownLevel = level
        }
        var rows: [String] = []
        var shallowest = Int.max
        for childID in list.children[((at ?? -1) + 1)...] {
            guard let child = tree[childID], let level = outlineLevel(child) else { continue }
            if level <= ownLevel { break }
            if level <= shallowest {
                rows.append(childID)
                shallowest = level
            }
        }
        return rows
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
