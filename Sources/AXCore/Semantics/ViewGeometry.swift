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
    static func rectInParent(_ view: ViewNode) -> Rect {
        let transform = view.transform
        let width = view.frame.width * abs(transform.scaleX)
        let height = view.frame.height * abs(transform.scaleY)
        let centerX = view.frame.midX + transform.translateX
        let centerY = view.frame.midY + transform.translateY
        return Rect(x: centerX - width / 2, y: centerY - height / 2, width: width, height: height)
    }

    /// Maps the view's own bounds coordinates into its parent's bounds coordinates.
    static func localMap(_ view: ViewNode) -> AxisMap {
        let transform = view.transform
        let boundsCenterX = view.boundsOrigin.x + view.frame.width / 2
        let boundsCenterY = view.boundsOrigin.y + view.frame.height / 2
        let centerX = view.frame.midX + transform.translateX
        let centerY = view.frame.midY + transform.translateY
        return AxisMap(
            sx: transform.scaleX, sy: transform.scaleY, dx: centerX - transform.scaleX * boundsCenterX,
            dy: centerY - transform.scaleY * boundsCenterY)
    }

    func screenRect(_ view: ViewNode, map: AxisMap) -> Rect { map.apply(Deriver.rectInParent(view)) }
}
