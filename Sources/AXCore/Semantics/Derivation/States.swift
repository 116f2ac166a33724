/// The states of derived nodes (A27, X13, C17).
extension Deriver {
    func states(for n: ViewNode, frame: Rect, ctx: Ctx, traits: Traits, role: AXRole) -> AXStates {
        var s = AXStates()
        if !traits.contains(.notEnabled) { s.insert(.enabled) }
        if traits.contains(.selected) { s.insert(.selected) }
        if traits.contains(.updatesFrequently) { s.insert(.updatesFrequently) }
        if let vis = ctx.clip.intersection(frame), !frame.isEmpty {
            s.insert(.onscreen)
            if vis != frame && !ctx.clip.containsRect(frame) { s.insert(.clipped) }
        }
        switch n.ax.expandedStatus {
        case "expanded": s.insert(.expanded)
        case "collapsed": s.insert(.collapsed)
        default: break
        }
        return s
    }
}
