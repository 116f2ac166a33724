extension ViewNode {
    /// Maps this view's bounds coordinates into its superview's bounds coordinates (frame, bounds origin and
    /// transform, as the derivation applies them: A2, A14, R22). Compose from the window down for screen
    /// coordinates.
    package var boundsToSuperviewMap: AxisMap { Deriver.localMap(self) }

    /// The view's rect in its superview's bounds space (frame scaled around its center, then translated).
    package var rectInSuperview: Rect { Deriver.rectInParent(self) }
}

extension Deriver {
    /// The view's rect in its parent's bounds space: frame size scaled around the center, then translated (A2, A14).
    static func rectInParent(_ n: ViewNode) -> Rect {
        let t = n.transform
        let w = n.frame.width * abs(t.scaleX)
        let h = n.frame.height * abs(t.scaleY)
        let cx = n.frame.midX + t.translateX
        let cy = n.frame.midY + t.translateY
        return Rect(x: cx - w / 2, y: cy - h / 2, width: w, height: h)
    }

    /// Maps the view's own bounds coordinates into its parent's bounds coordinates.
    static func localMap(_ n: ViewNode) -> AxisMap {
        let t = n.transform
        let bx = n.boundsOrigin.x + n.frame.width / 2
        let by = n.boundsOrigin.y + n.frame.height / 2
        let cx = n.frame.midX + t.translateX
        let cy = n.frame.midY + t.translateY
        return AxisMap(sx: t.scaleX, sy: t.scaleY, dx: cx - t.scaleX * bx, dy: cy - t.scaleY * by)
    }

    func screenRect(_ n: ViewNode, map: AxisMap) -> Rect { map.apply(Deriver.rectInParent(n)) }
}
