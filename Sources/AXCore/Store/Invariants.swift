/// The store's contracts, checked in debug builds (`assert`; compiled out of release builds, so the measured
/// snapshot, patch and derive paths are unchanged): a patch keeps the views a tree, and every commit moves the
/// revision forward.
extension ViewHierarchy {
    /// The longest child list the debug tree check walks (see `isTree(around:)`).
    static let invariantListBound = 1_024

    /// Each view of `ids` that is in the hierarchy is in its parent's children (or, without a parent, is a root),
    /// each of its children names it as parent, and its ancestors end at a root within `Limits.maxDepth` levels (no
    /// cycle). Views of `ids` that are gone are not checked. The child-list checks are made where a list holds at
    /// most `invariantListBound` views: a debug check must not make a large parent's patches quadratic (issue 19
    /// item 5's linear inserts; LargeUpdateTests).
    func isTree(around ids: some Sequence<String>) -> Bool {
        ids.allSatisfy { id in
            guard let view = nodes[id] else { return true }
            if let parent = view.parent {
                guard let siblings = nodes[parent]?.children else { return false }
                guard siblings.count > Self.invariantListBound || siblings.contains(id) else { return false }
            } else if !roots.contains(id) {
                return false
            }
            if view.children.count <= Self.invariantListBound {
                guard view.children.allSatisfy({ nodes[$0]?.parent == id }) else { return false }
            }
            var ancestor = view.parent
            var levels = 1
            while let current = ancestor {
                levels += 1
                guard levels <= Limits.maxDepth + 1 else { return false }
                ancestor = nodes[current]?.parent
            }
            return true
        }
    }
}

extension HierarchyStore {
    /// A commit moved the revision forward by one and the tree and change set carry it.
    static func committed(_ changes: ChangeSet, tree: AXTree, revision: Int, previousRevision: Int) -> Bool {
        revision == previousRevision + 1 && tree.revision == revision && changes.toRevision == revision
            && changes.fromRevision <= previousRevision
    }
}
