/// Guided access (UIGuidedAccessRestrictionDelegate, reference §8): which restrictions guard an action.
///
/// A restriction guards the actions of every view that lists it in `restrictionIdentifiers` and of every view
/// inside it (R83, D-GA-1). The check follows the action to the view that finally handles it (D-GA-2): a table
/// cell that forwards `activate` to its switch is guarded by the switch's restrictions as well as its own, and an
/// `escape` that bubbles to an ancestor is guarded by that ancestor's.
package enum GuidedAccess {
    /// The restrictions guarding actions that reach `handler` (a view id, a virtual element id, or "" for the
    /// application itself), in order from the handler outwards, without duplicates.
    ///
    /// - Parameters:
    ///   - handler: the id an action request is sent to (`AXNode.actionTarget` or an ancestor on a bubbling route).
    ///   - element: the accessibility node the action was made on, whose derived restrictions also apply.
    package static func restrictions(guarding handler: String, element: AXNode?, tree: AXTree, views: ViewHierarchy)
        -> [String]
    {
        var found: [String] = []
        func add(_ identifiers: [String]) {
            for identifier in identifiers where !found.contains(identifier) {
                found.append(identifier)
            }
        }
        if views[handler] != nil {
            var current: String? = handler
            while let viewID = current, let view = views[viewID] {
                add(view.restrictionIdentifiers)
                current = view.parent
            }
        } else if let virtual = tree[handler] {
            add(virtual.restrictions)
        }
        if let element {
            add(element.restrictions)
        }
        return found
    }

    /// The first restriction in `denied` that guards an action reaching `handler`, or nil when it may proceed.
    package static func deniedRestriction(
        guarding handler: String, element: AXNode?, tree: AXTree, views: ViewHierarchy,
        denied: Set<String>
    ) -> String? {
        guard !denied.isEmpty else {
            return nil
        }
        return restrictions(guarding: handler, element: element, tree: tree, views: views).first { denied.contains($0) }
    }
}
