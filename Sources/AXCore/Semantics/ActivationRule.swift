/// Which elements list the standard action `activate` (issue 25 item 8, X13; D-ACT-3).
///
/// `accessibilityRespondsToUserInteraction` says whether an element performs an action when the user interacts with
/// it — "a button yes, an informational label no" (uikit-accessibility-semantics.md, the property's row; X13: false
/// for `notEnabled` unless set). Static text, headers and images that do not respond to user interaction therefore
/// do not list `activate`: the element JSON's `actions`, `action.activate` (−32014) and the AT-SPI Action interface
/// (no `click`) agree. Setting `accessibilityRespondsToUserInteraction: true` (or a `button` trait, which makes the
/// role a button) restores it. A tap through hit testing (`action.tap`, R111–R114) is a touch, not an accessibility
/// action, and still reaches a label's view.
package enum ActivationRule {
    /// Whether `node`'s role takes `activate` only when it responds to user interaction.
    package static func isInformational(_ role: AXRole) -> Bool {
        role == .staticText || role == .header || role == .image
    }

    /// Drops `activate` from an informational element that does not respond to user interaction.
    static func apply(to node: inout AXNode) {
        guard isInformational(node.role), !node.states.contains(.respondsToUserInteraction),
            let index = node.actions.firstIndex(of: .activate)
        else { return }
        node.actions.remove(at: index)
    }
}
