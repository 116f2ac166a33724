/// UIKit hit testing over the mirrored views (seed 002 lines 3221–3283; R111–R116, A16–A20), and the
/// accessibility hit test built on the derived tree.
package enum HitTesting {
    /// `hitTest(_:with:)` from the front-most window down: returns the deepest view that contains the screen
    /// point, skipping hidden views, views with user interaction off and views with alpha < 0.01 (R111), and
    /// never reporting a point outside a parent's bounds (R113). Front-most siblings win (R114).
    package static func viewAt(_ point: Point, in hierarchy: ViewHierarchy) -> String? {
        let windows = hierarchy.roots.enumerated().sorted { lhs, rhs in
            let la = hierarchy.nodes[lhs.element]?.window.windowLevel ?? 0
            let lb = hierarchy.nodes[rhs.element]?.window.windowLevel ?? 0
            return la != lb ? la > lb : lhs.offset > rhs.offset
        }.map(\.element)
        for windowID in windows {
            if let hit = hit(windowID, point, parentMap: .identity, hierarchy) { return hit }
        }
        return nil
    }

    private static func hit(_ id: String, _ point: Point, parentMap: AxisMap, _ hierarchy: ViewHierarchy) -> String? {
        guard let view = hierarchy.nodes[id] else { return nil }
        if view.isHidden || !view.effectiveUserInteractionEnabled || view.alpha < 0.01 { return nil }
        let map = parentMap.composed(with: Deriver.localMap(view))
        guard let inv = map.inverse else { return nil }
        let local = inv.apply(point)
        let bounds = Rect(
            x: view.boundsOrigin.x, y: view.boundsOrigin.y, width: view.frame.width, height: view.frame.height)
        guard bounds.contains(local) else { return nil }  // R113: outside the receiver never hits
        for child in view.children.reversed() {
            if let found = hit(child, point, parentMap: map, hierarchy) { return found }
        }
        return view.id  // R115: transparent content still hits
    }

    /// Whether a tap at the element's activation point reaches it: the hit view is the element's view or a
    /// descendant of it (for virtual elements: of the container view).
    package static func isHittable(_ id: String, tree: AXTree, views: ViewHierarchy) -> Bool {
        guard let node = tree[id], node.states.contains(.onscreen) else { return false }
        guard let hitView = viewAt(node.activationPoint, in: views) else { return false }
        let owner = node.viewID ?? node.parent
        guard let owner else { return false }
        return hitView == owner || views.isAncestor(owner, of: hitView)
            || (node.actionTarget != owner && hitView == node.actionTarget)
    }

    /// The accessibility hit test (X48; AT-SPI GetAccessibleAtPoint): the deepest exposed node whose frame
    /// contains the point, searching front-most windows and later children first.
    package static func elementAt(_ point: Point, tree: AXTree) -> String? {
        for windowID in tree.windows.reversed() {
            if let found = deepest(windowID, point, tree) { return found }
        }
        return nil
    }

    private static func deepest(_ id: String, _ point: Point, _ tree: AXTree) -> String? {
        guard let node = tree[id] else { return nil }
        for child in node.children.reversed() {
            if let found = deepest(child, point, tree) { return found }
        }
        return node.frame.contains(point) ? id : nil
    }
}
