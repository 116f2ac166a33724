extension ViewNode {
    /// Maps this view's bounds coordinates into its superview's bounds coordinates (frame, bounds origin and
    /// transform, as the derivation applies them: A2, A14, R22). Compose from the window down for screen
    /// coordinates.
    package var boundsToSuperviewMap: AxisMap { Deriver.localMap(self) }

    /// The view's rect in its superview's bounds space (frame scaled around its center, then translated).
    package var rectInSuperview: Rect { Deriver.rectInParent(self) }
}
