import AXCore

/// `AtspiCoordType`: the space a position is given in.
package enum ATSPICoordinateType: UInt32, Sendable {
    case screen = 0
    case window = 1
    case parent = 2

    /// The wire value's coordinate type; unknown values count as screen coordinates (as GTK does).
    package init(wireValue: UInt32) { self = ATSPICoordinateType(rawValue: wireValue) ?? .screen }
}

/// An integer rectangle as AT-SPI sends it (`(iiii)`).
package struct ATSPIRect: Sendable, Equatable {
    package var x: Int32
    package var y: Int32
    package var width: Int32
    package var height: Int32

    package init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// Rounds to the nearest Int32 (saturating; non-finite values become 0): frames come from the provider (D-REL-2).
@inline(__always) package func clampedInt32(_ value: Double) -> Int32 {
    guard value.isFinite else { return 0 }
    return value.saturatingInt32
}

/// Answers of `org.a11y.atspi.Component` over a served snapshot (frames are screen coordinates).
package struct ComponentModel {
    /// The snapshot answered from.
    package let snapshot: ServedSnapshot

    package init(snapshot: ServedSnapshot) { self.snapshot = snapshot }

    /// Screen origin of the node's window (the node's own for a window).
    func windowOrigin(of node: AXNode) -> (x: Double, y: Double) {
        if node.role == .window { return (node.frame.x, node.frame.y) }
        if let window = snapshot.tree[node.windowID] { return (window.frame.x, window.frame.y) }
        return (0, 0)
    }

    /// Origin of the space `coordinateType` names, in screen coordinates (parent space falls back to the window
    /// for a node without a parent).
    func origin(of coordinateType: ATSPICoordinateType, for node: AXNode) -> (x: Double, y: Double) {
        switch coordinateType {
        case .screen: return (0, 0)
        case .window: return windowOrigin(of: node)
        case .parent:
            if let parent = node.parent, let parentNode = snapshot.tree[parent] {
                return (parentNode.frame.x, parentNode.frame.y)
            }
            return windowOrigin(of: node)
        }
    }

    /// `GetExtents` (also `GetPosition`, `GetSize` and the Image twins).
    package func extents(of node: AXNode, coordinateType: ATSPICoordinateType) -> ATSPIRect {
        let origin = origin(of: coordinateType, for: node)
        return ATSPIRect(
            x: clampedInt32(node.frame.x - origin.x), y: clampedInt32(node.frame.y - origin.y),
            width: clampedInt32(node.frame.width), height: clampedInt32(node.frame.height))
    }

    /// A point given in `coordinateType` relative to `node`, in screen coordinates.
    package func screenPoint(x: Int32, y: Int32, coordinateType: ATSPICoordinateType, relativeTo node: AXNode)
        -> Point
    {
        let origin = origin(of: coordinateType, for: node)
        return Point(x: Double(x) + origin.x, y: Double(y) + origin.y)
    }

    /// `Contains`.
    package func contains(_ node: AXNode, x: Int32, y: Int32, coordinateType: ATSPICoordinateType) -> Bool {
        node.frame.contains(screenPoint(x: x, y: y, coordinateType: coordinateType, relativeTo: node))
    }

    /// `GetAccessibleAtPoint`: the core's accessibility hit test (D-HIT-1, the rule `action.tap` uses) when it
    /// lands inside `node`; nil when `node` itself, or a plain view inside it that covers what lies behind, is
    /// what is in front there; else (no views given, or the hit lies outside `node`) the deepest descendant
    /// containing the point (later children first); nil when nothing below `node` contains it.
    package func accessibleAtPoint(
        in node: AXNode, x: Int32, y: Int32, coordinateType: ATSPICoordinateType, views: ViewHierarchy? = nil
    ) -> String? {
        let point = screenPoint(x: x, y: y, coordinateType: coordinateType, relativeTo: node)
        let tree = snapshot.tree
        if let views {
            let hit = HitTesting.elementAt(point, tree: tree, views: views)
            if let hit, hit != node.id, tree.ancestors(of: hit).contains(node.id) { return hit }
            if hit == node.id { return nil }
            if hit == nil, let viewID = node.viewID,
                let front = HitTesting.viewAt(point, in: views, purpose: .exploration),
                front == viewID || views.isAncestor(viewID, of: front)
            {
                return nil
            }
        } else if let hit = HitTesting.elementAt(point, tree: tree), hit != node.id,
            tree.ancestors(of: hit).contains(node.id)
        {
            return hit
        }
        return deepestDescendant(of: node, containing: point)
    }

    /// Deepest descendant of `node` (not `node` itself) containing `point`; later children first.
    func deepestDescendant(of node: AXNode, containing point: Point) -> String? {
        for child in node.children.reversed() {
            guard let childNode = snapshot.tree[child] else { continue }
            if let deeper = deepestDescendant(of: childNode, containing: point) { return deeper }
            if childNode.frame.contains(point) { return child }
        }
        return nil
    }

    /// `GetLayer` (`AtspiComponentLayer`): 7 window, 5 popup (alerts), 3 widget.
    package func layer(of node: AXNode) -> UInt32 {
        switch node.role {
        case .window: return 7
        case .alert: return 5
        default: return 3
        }
    }

    /// `GetMDIZOrder`: a window's position among the app's windows, -1 for everything else.
    package func mdiZOrder(of node: AXNode) -> Int16 {
        guard node.role == .window else { return -1 }
        return Int16(clamping: snapshot.tree.windows.firstIndex(of: node.id) ?? -1)
    }

    /// `ScrollTo`: the mirror cannot scroll, so it succeeds only when the node is already on screen.
    package func scrollTo(_ node: AXNode) -> Bool { node.isOnscreen }

    /// `GrabFocus` may move focus only to focusable nodes.
    package func canGrabFocus(_ node: AXNode) -> Bool {
        AccessibleModel(snapshot: snapshot).states(of: .node(node)).contains(.focusable)
    }
}

/// Answers of `org.a11y.atspi.Image`: the node's extents, its label as the image description.
package struct ImageModel {
    /// The snapshot answered from.
    package let snapshot: ServedSnapshot

    package init(snapshot: ServedSnapshot) { self.snapshot = snapshot }

    /// `GetImageExtents` (also `GetImagePosition`, `GetImageSize`): the element's own extents.
    package func imageExtents(of node: AXNode, coordinateType: ATSPICoordinateType) -> ATSPIRect {
        ComponentModel(snapshot: snapshot).extents(of: node, coordinateType: coordinateType)
    }

    /// `ImageDescription`.
    package func imageDescription(of node: AXNode) -> String { node.label ?? "" }

    /// `ImageLocale`: the node's language, else the process locale.
    package func imageLocale(of node: AXNode) -> String { node.language ?? ApplicationModel.localeString }
}
