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
        var memo: [String: SiblingFacts] = [:]
        return relations(of: id, in: tree, memo: &memo)
    }

    /// `relations(of:in:)` with the facts about each parent's children kept in `memo` (one memo per tree), so the
    /// relations of all n children of one parent cost O(n), not O(n²) (D-ATSPI-PING-1).
    static func relations(of id: String, in tree: AXTree, memo: inout [String: SiblingFacts]) -> [AXRelation] {
        guard let node = tree[id] else { return [] }
        let parent = node.parent.flatMap { tree[$0] }
        let siblings = parent?.children ?? (node.parent == nil ? tree.windows : [])
        let key = node.parent ?? ""
        let facts = memo[key] ?? SiblingFacts(parent: parent, siblings: siblings, tree: tree)
        memo[key] = facts
        var out: [AXRelation] = []
        if let title = labellingChild(of: node, in: tree) {
            out.append(AXRelation(type: .labelledBy, targets: [title]))
        }
        if let parent, facts.labellingChild == id {
            out.append(AXRelation(type: .labelFor, targets: [parent.id]))
        }
        if let description = describingChild(of: node, in: tree) {
            out.append(AXRelation(type: .describedBy, targets: [description]))
        }
        if let parent, facts.describingChild == id {
            out.append(AXRelation(type: .descriptionFor, targets: [parent.id]))
        }
        appendPagingRelations(of: node, parent: parent, tree: tree, into: &out)
        if let parent, isSetMember(node, parentRole: parent.role) {
            out.append(AXRelation(type: .memberOf, targets: facts.setMembers))
        }
        if siblings.count > 1, facts.hasAuthoredOrder, let at = siblings.firstIndex(of: id) {
            if at + 1 < siblings.count { out.append(AXRelation(type: .flowsTo, targets: [siblings[at + 1]])) }
            if at > 0 { out.append(AXRelation(type: .flowsFrom, targets: [siblings[at - 1]])) }
        }
        appendOutlineRelations(of: node, parent: parent, parentIsOutline: facts.isOutline, tree: tree, into: &out)
        return out
    }

    /// D-REL-7: a page control's CONTROLLER_FOR and the paging view's CONTROLLED_BY.
    private static func appendPagingRelations(
        of node: AXNode, parent: AXNode?, tree: AXTree, into out: inout [AXRelation]
    ) {
        guard let parent, node.viewClass == .pageControl || node.isPagingEnabled else { return }
        if node.viewClass == .pageControl, let paged = pagedSibling(in: parent, tree: tree) {
            out.append(AXRelation(type: .controllerFor, targets: [paged]))
        }
        if node.isPagingEnabled, pagedSibling(in: parent, tree: tree) == node.id {
            let controllers = parent.children.filter { tree[$0]?.viewClass == .pageControl }
            if !controllers.isEmpty { out.append(AXRelation(type: .controlledBy, targets: controllers)) }
        }
    }

    /// D-REL-8: an outline row's NODE_CHILD_OF and NODE_PARENT_OF, or an outline list's NODE_PARENT_OF.
    private static func appendOutlineRelations(
        of node: AXNode, parent: AXNode?, parentIsOutline: Bool, tree: AXTree, into out: inout [AXRelation]
    ) {
        if let parent, outlineLevel(node) != nil, parentIsOutline, let at = parent.children.firstIndex(of: node.id) {
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
        // Each parent's children join once per tree (n changed siblings would otherwise add them n times).
        var expanded: [Set<String>] = [[], []]
        func addNeighbourhood(_ id: String, _ tree: AXTree, _ which: Int) {
            candidates.insert(id)
            guard let node = tree[id] else { return }
            candidates.formUnion(node.children)
            if let parentID = node.parent, let parent = tree[parentID] {
                if expanded[which].insert(parentID).inserted {
                    candidates.insert(parentID)
                    candidates.formUnion(parent.children)
                }
            } else if node.parent == nil, expanded[which].insert("").inserted {
                candidates.formUnion(tree.windows)
            }
        }
        for id in changed {
            addNeighbourhood(id, old, 0)
            addNeighbourhood(id, new, 1)
        }
        var out: [String] = []
        var oldMemo: [String: SiblingFacts] = [:]
        var newMemo: [String: SiblingFacts] = [:]
        for id in candidates where new[id] != nil {
            if relations(of: id, in: old, memo: &oldMemo) != relations(of: id, in: new, memo: &newMemo) {
                out.append(id)
            }
        }
        return out.sorted()
    }
}

/// What the relations of every child of one parent read about the parent and the siblings (computed once per
/// parent when many children are related at once).
struct SiblingFacts {
    /// The parent's labelling child (D-REL-1).
    var labellingChild: String?
    /// The parent's describing child (D-REL-2).
    var describingChild: String?
    /// The members of the parent's set of mutually exclusive items (D-REL-3).
    var setMembers: [String]
    /// The siblings' order was authored against the geometry (D-REL-4).
    var hasAuthoredOrder: Bool
    /// The parent is an outline (D-REL-8).
    var isOutline: Bool

    init(parent: AXNode?, siblings: [String], tree: AXTree) {
        labellingChild = parent.flatMap { Relations.labellingChild(of: $0, in: tree) }
        describingChild = parent.flatMap { Relations.describingChild(of: $0, in: tree) }
        if let parent, parent.role == .segmentedControl || parent.role == .tabBar {
            setMembers = parent.children.filter { sibling in
                tree[sibling].map { Relations.isSetMember($0, parentRole: parent.role) } ?? false
            }
        } else {
            setMembers = []
        }
        hasAuthoredOrder = siblings.count > 1 && Relations.hasAuthoredOrder(siblings, in: tree)
        isOutline = parent.map { Relations.isOutline($0, in: tree) } ?? false
    }
}
