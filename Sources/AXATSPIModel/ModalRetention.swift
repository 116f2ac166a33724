import AXCore

/// D-ATSPI-MODAL-1: what the AT-SPI side serves while a modal view hides its siblings.
///
/// The core's tree follows UIKit: the front-most visible modal view (`accessibilityViewIsModal`, an alert by default)
/// hides its siblings (X10, D-MODAL-1), so the JSON-RPC tree loses them while it is shown. GTK keeps a modal
/// dialog's background widgets alive: they are not removed, nothing goes defunct, and clients holding references
/// keep them (atspi-bridge.md §4.4: Orca follows focus and the active window, not the tree's membership). The
/// bridge therefore keeps each hidden sibling's subtree as it last served it ("retained"), beside the modal view,
/// until the modal view goes away; then the core's tree (with the siblings back) replaces the retained copies and
/// the change set is adjusted so that only what really changed is announced.
///
/// The same holds one level up (X10 among windows, D-WINDOW-1): while the front-most visible modal window hides the
/// app's other windows, the bridge keeps serving them as the application's children (the modal window after them),
/// without their ACTIVE state (the modal window is the active surface, as a GTK modal dialog's parent window).
package struct ModalRetention: Sendable, Equatable {
    /// Parent id → the retained children (top of each retained subtree) under it.
    package var retainedChildren: [String: [String]] = [:]
    /// The windows a modal window hides, retained as the application's children, in their former order.
    package var retainedWindows: [String] = []

    package init() {}

    /// Whether anything is retained.
    package var isEmpty: Bool { retainedChildren.isEmpty && retainedWindows.isEmpty }

    /// The tree to serve for `next` (the core's new tree) after serving `previous`, and the change set the events
    /// are diffed with. `changes` is the core's change set from `previous`'s revision to `next`'s.
    package mutating func serve(previous: AXTree, next: AXTree, changes: ChangeSet) -> (AXTree, ChangeSet) {
        let candidates = modalParents(next: next, changes: changes)
        let windowIsModal = next.windows.contains { next[$0]?.states.contains(.modal) == true }
        if candidates.isEmpty && !windowIsModal && isEmpty { return (next, changes) }
        var tree = next
        var adjusted = changes
        // Windows first: a retained window brings its subtree as last served, retained siblings included.
        let keptWindows = windowIsModal ? retainWindows(previous: previous, into: &tree, changes: &adjusted) : []
        var kept: [String: [String]] = [:]
        for parent in candidates {
            let retained = retain(under: parent, previous: previous, into: &tree)
            if !retained.isEmpty { kept[parent] = retained }
        }
        let stillKept = Set(kept.values.joined()).union(keptWindows)
        restoreReleased(previous: previous, served: tree, stillKept: stillKept, changes: &adjusted)
        removeRetainedFromRemovals(served: tree, changes: &adjusted)
        retainedChildren = kept
        retainedWindows = keptWindows
        return (tree, adjusted)
    }

    /// Keeps the windows `previous` served that are gone from `tree` while a modal window is shown there (X10
    /// among windows): their subtrees as served, before the modal window in the window list, not active (their
    /// ACTIVE state going off is a change, so `window:deactivate` goes out). Returns the kept window ids.
    private func retainWindows(previous: AXTree, into tree: inout AXTree, changes: inout ChangeSet) -> [String] {
        let hidden = previous.windows.filter { tree[$0] == nil && previous[$0] != nil }
        guard !hidden.isEmpty else { return [] }
        for window in hidden {
            copySubtree(window, from: previous, into: &tree)
            guard var node = tree[window], node.states.contains(.activeWindow) else { continue }
            node.states.remove(.activeWindow)
            tree.nodes[window] = node
            changes.updated[window, default: []].insert("states")
        }
        let current = tree.windows
        let shown = Set(current).union(hidden)
        var merged = previous.windows.filter { shown.contains($0) && tree[$0] != nil }
        let placed = Set(merged)
        merged += current.filter { !placed.contains($0) }
        tree.windows = merged
        return hidden
    }

    /// Parents that may hide children behind a modal child now: the parents of modal nodes the change set adds,
    /// and the parents already retaining children.
    private func modalParents(next: AXTree, changes: ChangeSet) -> [String] {
        var parents = Array(retainedChildren.keys).sorted()
        for id in changes.added {
            guard let node = next[id], node.states.contains(.modal), let parent = node.parent,
                !parents.contains(parent)
            else { continue }
            parents.append(parent)
        }
        return parents
    }

    /// Keeps `parent`'s former children that are gone from `tree` while a modal child is shown there: their
    /// subtrees as `previous` served them, before the modal child in `parent`'s children. Returns the kept ids.
    private func retain(under parent: String, previous: AXTree, into tree: inout AXTree) -> [String] {
        guard var parentNode = tree[parent], let former = previous[parent]?.children,
            parentNode.children.contains(where: { tree[$0]?.states.contains(.modal) == true })
        else { return [] }
        let hidden = former.filter { tree[$0] == nil }
        guard !hidden.isEmpty else { return [] }
        for child in hidden { copySubtree(child, from: previous, into: &tree) }
        // The former order for what stays, then what the core shows now (the modal view) after it.
        let current = parentNode.children
        let shown = Set(current).union(hidden)
        var merged = former.filter { shown.contains($0) && tree[$0] != nil }
        let placed = Set(merged)
        merged += current.filter { !placed.contains($0) }
        parentNode.children = merged
        tree.nodes[parent] = parentNode
        return hidden
    }

    /// Copies `root`'s subtree from `source` into `tree`, skipping nodes `tree` already has (they moved).
    private func copySubtree(_ root: String, from source: AXTree, into tree: inout AXTree) {
        var stack = [root]
        while let id = stack.popLast() {
            guard tree[id] == nil, let box = source.nodes.box(id) else { continue }
            tree.nodes.setBox(box, for: id)
            stack.append(contentsOf: box.value.children)
        }
    }

    /// After the modal view (or window) went away: retained nodes the core's tree has again are updates (not
    /// additions); those it no longer has were removed meanwhile.
    private func restoreReleased(
        previous: AXTree, served: AXTree, stillKept: Set<String>, changes: inout ChangeSet
    ) {
        let released = (Array(retainedChildren.values.joined()) + retainedWindows).filter { !stillKept.contains($0) }
        guard !released.isEmpty else { return }
        var added = Set(changes.added)
        var removed = Set(changes.removed)
        for root in released {
            previous.walk(from: root) { node, _ in
                if served[node.id] != nil {
                    if added.remove(node.id) != nil { changes.updated[node.id] = changes.updated[node.id] ?? [] }
                } else if removed.insert(node.id).inserted {
                    changes.removed.append(node.id)
                }
                return true
            }
        }
        changes.added = changes.added.filter { added.contains($0) }
    }

    /// Nodes the core dropped but the bridge retains are not removed.
    private func removeRetainedFromRemovals(served: AXTree, changes: inout ChangeSet) {
        guard !changes.removed.isEmpty else { return }
        changes.removed = changes.removed.filter { served[$0] == nil }
    }
}
