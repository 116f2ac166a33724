/// The states every derived node starts from: enabled, selected, on screen, clipped, expanded (element- and
/// container-specific states are added by ElementBuilding.swift: X13, C17, A27).
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
}
