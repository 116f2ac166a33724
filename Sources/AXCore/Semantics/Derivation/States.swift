/// The states of derived nodes (A27, X13, C17).
extension Deriver {
    func states(for view: ViewNode, frame: Rect, ctx: Ctx, traits: Traits, role: AXRole) -> AXStates {
        var nodeStates = AXStates()
        if !traits.contains(.notEnabled) { nodeStates.insert(.enabled) }
        if traits.contains(.selected) { nodeStates.insert(.selected) }
        if traits.contains(.updatesFrequently) { nodeStates.insert(.updatesFrequently) }
        if let visible = ctx.clip.intersection(frame), !frame.isEmpty {
            nodeStates.insert(.onscreen)
            if visible != frame && !ctx.clip.containsRect(frame) { nodeStates.insert(.clipped) }
        }
        switch view.ax.expandedStatus {
        case "expanded": nodeStates.insert(.expanded)
        case "collapsed": nodeStates.insert(.collapsed)
        default: break
        }
        return nodeStates
    }

    /// An element's states: the common ones, then what its control says (X13: responds to user interaction;
    /// C17: focusable).
    func elementStates(
        for view: ViewNode, frame: Rect, ctx: Ctx, traits: Traits, role: AXRole, isOn: Bool, secure: Bool,
        editable: Bool
    ) -> AXStates {
        var elementStates = states(for: view, frame: frame, ctx: ctx, traits: traits, role: role)
        if isOn { elementStates.insert(.checked) }
        if secure { elementStates.insert(.secure) }
        if editable { elementStates.insert(.editable) }
        if view.kind == .textView { elementStates.insert(.multiLine) }
        if view.kind == .activityIndicator && view.control.isAnimating { elementStates.insert(.busy) }
        if view.ax.respondsToUserInteraction ?? Deriver.respondsByDefault(role: role, traits: traits) {
            elementStates.insert(.respondsToUserInteraction)
        }
        let focusableDefault =
            elementStates.contains(.enabled)
            && [
                AXRole.button, .textField, .secureTextField, .searchField, .textView, .cell,
                .switch, .adjustable, .tab, .link,
            ].contains(role)
        if view.focus.canBecomeFocused ?? focusableDefault { elementStates.insert(.focusable) }  // C17
        return elementStates
    }

    /// X13: an enabled element responds to user interaction unless it only shows something (text, an image, a
    /// header, progress).
    static func respondsByDefault(role: AXRole, traits: Traits) -> Bool {
        if traits.contains(.notEnabled) {
            return false
        }
        switch role {
        case .staticText, .image, .header, .progressIndicator, .activityIndicator: return false
        default: return true
        }
    }
}
