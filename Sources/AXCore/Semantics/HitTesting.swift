/// UIKit hit testing over the mirrored views (seed 002 lines 3221–3283; R111–R116, A16–A20), and the
/// accessibility hit test built on it. One rule answers every route (D-HIT-1): `action.tap`, the `hittable`
/// state and `:hittable`, the `obscuredBy` of a refused `action.activate`, `element.atPoint` and AT-SPI
/// `GetAccessibleAtPoint`. The only difference between a finger and an exploring screen reader is R111's
/// `isUserInteractionEnabled` (a label is read under the finger although it takes no touches).
package enum HitTesting {
    /// Who asks: a touch (R111 skips views with user interaction off) or an assistive technology exploring the
    /// screen (X48: such views are still found, so a label can be read).
    package enum Purpose: Sendable {
        case touch
        case exploration
    }

    /// `hitTest(_:with:)` from the front-most window down: returns the deepest view that contains the screen
    /// point, skipping hidden views, views with user interaction off (touch only) and views with alpha < 0.01
    /// (R111), and never reporting a point outside a parent's bounds (R113). Front-most siblings win (R114).
    package static func viewAt(_ point: Point, in hierarchy: ViewHierarchy, purpose: Purpose = .touch) -> String? {
        let windows = hierarchy.roots.enumerated().sorted { lhs, rhs in
            let la = hierarchy.nodes[lhs.element]?.window.windowLevel ?? 0
            let lb = hierarchy.nodes[rhs.element]?.window.windowLevel ?? 0
            return la != lb ? la > lb : lhs.offset > rhs.offset
        }.map(\.element)
        for windowID in windows {
            if let hit = hit(windowID, point, parentMap: .identity, hierarchy, purpose) { return hit }
        }
        return nil
    }

    /// Whether `point` (screen coordinates) lies in some shown window (D-HIT-1): a point outside every window is bad
    /// input on every route that takes one (`action.tap`, `element.atPoint`), not a miss.
    package static func isInsideSomeWindow(_ point: Point, views: ViewHierarchy) -> Bool {
        viewAt(point, in: views, purpose: .exploration) != nil
    }

    private static func hit(
        _ id: String, _ point: Point, parentMap: AxisMap, _ hierarchy: ViewHierarchy, _ purpose: Purpose
    ) -> String? {
        guard let view = hierarchy.nodes[id] else { return nil }
        if view.isHidden || view.alpha < 0.01 { return nil }
        if purpose == .touch && !view.effectiveUserInteractionEnabled { return nil }
        let map = parentMap.composed(with: Deriver.localMap(view))
        guard let inv = map.inverse else { return nil }
        let local = inv.apply(point)
        let bounds = Rect(
            x: view.boundsOrigin.x, y: view.boundsOrigin.y, width: view.frame.width, height: view.frame.height)
        guard bounds.contains(local) else { return nil }  // R113: outside the receiver never hits
        for child in view.children.reversed() {
            // Cheap rejection first: a child whose rectangle in this view's coordinates (a little enlarged, for
            // rounding) misses the point cannot hit, so its map is never composed (wide lists stay linear).
            if let childView = hierarchy.nodes[child] {
                let rect = Deriver.rectInParent(childView)
                let slack = 0.001
                if local.x < rect.minX - slack || local.x > rect.maxX + slack || local.y < rect.minY - slack
                    || local.y > rect.maxY + slack
                {
                    continue
                }
            }
            if let found = hit(child, point, parentMap: map, hierarchy, purpose) { return found }
        }
        return view.id  // R115: transparent content still hits
    }

    /// The element a hit on `hitView` at `point` reaches (D-HIT-1): the nearest view, from the hit view up its
    /// superviews, that is an element; on the way, an element the view draws without a view of its own (a
    /// virtual `accessibilityElements` entry, a synthesized part such as `seg#1`) whose frame holds the point.
    /// A sibling view that merely lies *behind* the hit view is never reached: the touch travels up the
    /// responder chain of the view in front (R114), not sideways.
    package static func element(reachedFrom hitView: String, at point: Point, tree: AXTree, views: ViewHierarchy)
        -> String?
    {
        var walked: Set<String> = []
        var current: String? = hitView
        while let viewID = current {
            walked.insert(viewID)
            if let node = tree[viewID] {
                if node.isElement {
                    return viewID
                }
                if let drawn = drawnElement(in: node, at: point, walked: walked, tree: tree) {
                    return drawn
                }
            }
            current = views[viewID]?.parent
        }
        return nil
    }

    /// The front-most (later first), deepest element below `node` that has no view of its own (or whose view is
    /// on the walked chain) and whose frame holds the point.
    private static func drawnElement(in node: AXNode, at point: Point, walked: Set<String>, tree: AXTree)
        -> String?
    {
        for childID in node.children.reversed() {
            guard let child = tree[childID] else { continue }
            if let own = child.viewID, own != node.viewID, !walked.contains(own) { continue }
            guard child.frame.contains(point) else { continue }
            if child.isElement { return childID }
            if let deeper = drawnElement(in: child, at: point, walked: walked, tree: tree) { return deeper }
        }
        return nil
    }

    /// What a tap at `point` activates (R111–R114, D-HIT-1).
    package static func tapTarget(at point: Point, tree: AXTree, views: ViewHierarchy) -> TapTarget {
        guard let hitView = viewAt(point, in: views, purpose: .touch) else {
            return .nothing
        }
        guard let element = element(reachedFrom: hitView, at: point, tree: tree, views: views) else {
            return .notAnElement(view: hitView)
        }
        let receiver = automationOnlyView(touched: hitView, reached: element, tree: tree, views: views)
        return .element(receiver ?? element, view: hitView)
    }

    /// The view listed only in `automationElements` (D-AUTO-1, X18) that a touch on `hitView` lands in: the hit
    /// view or its nearest superview below the reached element's own view that the element lists and that is no
    /// node of the derived tree. A touch goes to the view it hits (R114), so a tap there is that view's, not the
    /// listing element's; nil when the touch is in no such view.
    package static func automationOnlyView(
        touched hitView: String, reached element: String, tree: AXTree, views: ViewHierarchy
    ) -> String? {
        guard let listing = tree[element], let listingView = listing.viewID,
            let listed = views[listingView]?.ax.automationElements, !listed.isEmpty
        else { return nil }
        var cursor: String? = hitView
        var steps = 0
        while let current = cursor, current != listingView, steps < 10_000 {
            if listed.contains(current), tree[current].map({ $0.states.contains(.automationOnly) }) ?? true {
                return current
            }
            cursor = views[current]?.parent
            steps += 1
        }
        return nil
    }

    /// Whether a tap at the element's activation point reaches it (D-HIT-1).
    package static func isHittable(_ id: String, tree: AXTree, views: ViewHierarchy) -> Bool {
        guard let node = tree[id], node.states.contains(.onscreen) else { return false }
        return reaches(node, at: node.activationPoint, tree: tree, views: views)
    }

    /// Whether a tap at `point` reaches the element (D-HIT-1): the tap resolves to it, or the hit view is the
    /// element's view or a descendant of it (for virtual elements: of the container, unless a sibling drawn over
    /// it takes the tap).
    package static func reaches(_ node: AXNode, at point: Point, tree: AXTree, views: ViewHierarchy) -> Bool {
        guard let hitView = viewAt(point, in: views, purpose: .touch) else { return false }
        let reached = element(reachedFrom: hitView, at: point, tree: tree, views: views)
        if reached == node.id { return true }
        guard let owner = node.viewID ?? node.parent else { return false }
        if node.viewID == nil, reached != nil {
            return false  // a virtual element: a sibling drawn over it takes the tap
        }
        return hitView == owner || views.isAncestor(owner, of: hitView)
            || (node.actionTarget != owner && hitView == node.actionTarget)
    }

    /// Whether no tap on the element reaches it (D-HIT-1, the audit's covered check): its centre and the centres
    /// of its four quarters all reach something else. Nil when it is partly reachable; else the view in front at
    /// its activation point (or "" when nothing takes touches there).
    package static func coveringView(of node: AXNode, tree: AXTree, views: ViewHierarchy) -> String? {
        let frame = node.frame
        guard !frame.isEmpty else { return nil }
        let samples = [
            node.activationPoint, Point(x: frame.midX, y: frame.midY),
            Point(x: frame.minX + frame.width / 4, y: frame.minY + frame.height / 4),
            Point(x: frame.maxX - frame.width / 4, y: frame.minY + frame.height / 4),
            Point(x: frame.minX + frame.width / 4, y: frame.maxY - frame.height / 4),
            Point(x: frame.maxX - frame.width / 4, y: frame.maxY - frame.height / 4),
        ]
        if samples.contains(where: { reaches(node, at: $0, tree: tree, views: views) }) { return nil }
        return viewAt(Point(x: frame.midX, y: frame.midY), in: views, purpose: .touch) ?? ""
    }

    /// The view a tap at the element's activation point reaches instead of it, for `obscuredBy` (D-HIT-1).
    package static func obscuringView(of id: String, tree: AXTree, views: ViewHierarchy) -> String? {
        guard let node = tree[id] else { return nil }
        return viewAt(node.activationPoint, in: views, purpose: .touch)
    }

    /// The accessibility hit test (X48; `element.atPoint`, AT-SPI `GetAccessibleAtPoint`): the element an
    /// exploring finger finds at the point, by the same rule as a tap (D-HIT-1) except that views with user
    /// interaction off are found. Nil when the point is outside every window or what is in front there is part
    /// of no element (a plain covering view hides what lies behind it).
    package static func elementAt(_ point: Point, tree: AXTree, views: ViewHierarchy) -> String? {
        guard let hitView = viewAt(point, in: views, purpose: .exploration) else { return nil }
        return element(reachedFrom: hitView, at: point, tree: tree, views: views)
    }

    /// The frame-only accessibility hit test, for trees served without their views: the deepest exposed node
    /// whose frame contains the point, searching front-most windows and later children first.
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
