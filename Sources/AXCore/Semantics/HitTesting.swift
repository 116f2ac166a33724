/// UIKit hit testing over the mirrored views (seed 002 lines 3221–3283; R111–R116, A16–A20), and the
/// accessibility hit test built on the derived tree.
package enum HitTesting {
    /// `hitTest(_:with:)` from the front-most window down: returns the deepest view that contains the screen
    /// point, skipping hidden views, views with user interaction off and views with alpha < 0.01 (R111), and
    /// never reporting a point outside a parent's bounds (R113). Front-most siblings win (R114).
    package static func viewAt(_ p: Point, in h: ViewHierarchy) -> String? {
        let windows = h.roots.enumerated().sorted { a, b in
            let la = h.nodes[a.element]?.window.windowLevel ?? 0
            let lb = h.nodes[b.element]?.window.windowLevel ?? 0
            return la != lb ? la > lb : a.offset > b.offset
        }.map(\.element)
        for w in windows {
            if let hit = hit(w, p, parentMap: .identity, h) { return hit }
        }
        return nil
    }

    private static func hit(_ id: String, _ p: Point, parentMap: AxisMap, _ h: ViewHierarchy) -> String? {
        guard let n = h.nodes[id] else { return nil }
        if n.isHidden || !n.effectiveUserInteractionEnabled || n.alpha < 0.01 { return nil }
        let map = parentMap.composed(with: Deriver.localMap(n))
        guard let inv = map.inverse else { return nil }
        let local = inv.apply(p)
        let bounds = Rect(x: n.boundsOrigin.x, y: n.boundsOrigin.y, width: n.frame.width, height: n.frame.height)
        guard bounds.contains(local) else { return nil }  // R113: outside the receiver never hits
        for c in n.children.reversed() {
            if let found = hit(c, p, parentMap: map, h) { return found }
        }
        return n.id  // R115: transparent content still hits
    }

    /// Whether a tap at the element's activation point reaches it: the hit view is the element's view or a
    /// descendant of it (for virtual elements: of the container view).
    package static func isHittable(_ id: String, tree: AXTree, views: ViewHierarchy) -> Bool {
        guard let n = tree[id], n.states.contains(.onscreen) else { return false }
        guard let hitView = viewAt(n.activationPoint, in: views) else { return false }
        let owner = n.viewID ?? n.parent
        guard let owner else { return false }
        return hitView == owner || views.isAncestor(owner, of: hitView)
            || (n.actionTarget != owner && hitView == n.actionTarget)
    }

    /// The accessibility hit test (X48; AT-SPI GetAccessibleAtPoint): the deepest exposed node whose frame
    /// contains the point, searching front-most windows and later children first.
    package static func elementAt(_ p: Point, tree: AXTree) -> String? {
        for w in tree.windows.reversed() {
            if let found = deepest(w, p, tree) { return found }
        }
        return nil
    }

    private static func deepest(_ id: String, _ p: Point, _ tree: AXTree) -> String? {
        guard let n = tree[id] else { return nil }
        for c in n.children.reversed() {
            if let f = deepest(c, p, tree) { return f }
        }
        return n.frame.contains(p) ? id : nil
    }
}
