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
        // C27: a presented controller with restoresFocusAfterTransition false does not give focus back.
        if tree[container]?.focus.restoresFocusAfterTransition == false { return }
        if from == container || tree.ancestors(of: from).contains(container) { return }
        stack.removeAll { $0 == from }
        stack.append(from)
        if stack.count > limit { stack.removeFirst(stack.count - limit) }
    }

    /// What happens when the focused element `lost` left the tree (D-FOCUS-7): focus returns to the most recent
    /// remembered element that is an element of `tree` again (taken off the stack); remembered ids whose view
    /// is gone are dropped, hidden ones stay. When nothing returns and a modal container is in the tree now (it
    /// hid `lost`), `lost` is remembered while its view exists, so focus comes back to it when the modal goes.
    /// nil: focus is cleared (D-FOCUS-2).
    package static func focusAfterLoss(
        of lost: String, stack: inout [String], tree: AXTree, viewExists: (String) -> Bool
    ) -> String? {
        stack.removeAll { tree[$0] == nil && !viewExists($0) }
        if let at = stack.lastIndex(where: { tree[$0]?.isElement == true }) {
            return stack.remove(at: at)
        }
        if viewExists(lost), containsModal(tree, restoringFocus: true) {
            stack.removeAll { $0 == lost }
            stack.append(lost)
            if stack.count > limit { stack.removeFirst(stack.count - limit) }
        }
        return nil
    }

    /// Whether some node of `tree` is a modal container (an alert or a node with the modal state); with
    /// `restoringFocus`, only one that gives focus back when it goes (C27, `restoresFocusAfterTransition`).
    package static func containsModal(_ tree: AXTree, restoringFocus: Bool = false) -> Bool {
        var found = false
        tree.walk { node, _ in
            if found { return false }
            if node.role == .alert || node.states.contains(.modal) {
                found = !restoringFocus || node.focus.restoresFocusAfterTransition
                return false
            }
            return true
        }
        return found
    }
}
