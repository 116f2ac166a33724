/// Where accessibility focus returns when a modal presentation goes (D-FOCUS-7, after C27 for engine focus):
/// focus that moved into a modal container (an alert, or a view marked `accessibilityViewIsModal`) from an
/// element outside it remembers that element; when the focused element then leaves the tree (the alert was
/// dismissed by Escape or its button), focus returns to the most recent remembered element that is still an
/// element in the tree, instead of being cleared (D-FOCUS-2). Pure: the hub keeps the stack.
package enum FocusReturn {
    /// The most elements remembered per app (older ones are dropped).
    package static let limit = 16

    /// The nearest ancestor-or-self of `id` that is a modal container (role alert, or the modal state).
    package static func modalContainer(of id: String, in tree: AXTree) -> String? {
        var cursor: String? = id
        var steps = 0
        while let current = cursor, let node = tree[current], steps < 10_000 {
            if node.role == .alert || node.states.contains(.modal) { return current }
            cursor = node.parent
            steps += 1
        }
        return nil
    }

    /// Records a focus move from `from` to `to` on `stack`: `from` is remembered when `to` lies in a modal
    /// container that does not contain `from`.
    package static func record(from: String?, to: String?, tree: AXTree, stack: inout [String]) {
        guard let from, let to, from != to, tree[from] != nil else { return }
        guard let container = modalContainer(of: to, in: tree) else { return }
        if from == container || tree.ancestors(of: from).contains(container) { return }
        stack.removeAll { $0 == from }
        stack.append(from)
        if stack.count > limit { stack.removeFirst(stack.count - limit) }
    }

    /// The element focus returns to after the focused element left the tree: the most recent remembered one
    /// that is an element of `tree` now (popped, with the stale ones above it); nil when none is.
    package static func restore(stack: inout [String], tree: AXTree) -> String? {
        while let candidate = stack.popLast() {
            if let node = tree[candidate], node.isElement { return candidate }
        }
        return nil
    }
}
