/// UIKit's action semantics over a served tree: which views an action is sent to and in what order (X30, X32,
/// X33), whether an element can take it (D-ACT-1, D-ACT-2), and which element a tap at a point reaches (R111–R114).
/// Pure functions; the hub sends the requests and the method layer reports the failures.

/// One request of an action's route: the id the app handles (a view, a virtual element, or "" for the app itself)
/// and the accessibility node it is made on, if any.
package struct ActionHandler: Sendable, Equatable {
    /// The view or virtual-element id the app is asked to handle the action on; "" is the application itself.
    package var target: String
    /// The accessibility node the request concerns (`element` of `action.perform`), nil for an ancestor view.
    package var element: String?

    package init(target: String, element: String?) {
        self.target = target
        self.element = element
    }
}

/// Where an action goes: the action as the app is told it and the handlers, tried in order until one answers true.
package struct ActionRoute: Sendable, Equatable {
    /// The action as sent (a custom action named by its name is sent by its id).
    package var action: ElementAction
    /// The handlers, in the order they are asked.
    package var handlers: [ActionHandler]
}

/// Why an action has no route.
package enum ActionRouteFailure: Error, Sendable, Equatable {
    /// The action needs an element and none was given.
    case noElement
    /// The element does not take the action; `supported` lists what it takes (standard actions, then
    /// `custom:<id>`; for a custom action, the custom action ids) (D-ACT-1).
    case notSupported(action: String, supported: [String])
    /// The element is disabled (`isEnabled == false`).
    case disabled
    /// The drag source or drop point's view left the hierarchy (R55: its `view` became nil; D-DRAG-1).
    case descriptorViewGone(view: String)
}

/// Why an element fails the actionability checks (D-ACT-2), in the order they are made.
package enum ActionabilityFailure: Sendable, Equatable {
    /// Not visible on screen (off screen or an empty frame).
    case offscreen
    /// Disabled.
    case disabled
    /// A tap at the activation point does not reach the element's view; `obscuredBy` is the view it reaches.
    case notHittable(obscuredBy: String?)
}

/// What a tap at a point reaches (R111–R114).
package enum TapTarget: Sendable, Equatable {
    /// The accessibility element that takes the tap, and the view the hit test returned.
    case element(String, view: String)
    /// No view at the point receives touches.
    case nothing
    /// The view at the point is part of no accessibility element.
    case notAnElement(view: String)
}

package enum ActionRouting {
    /// The route of `action` made on `node` (nil: no element, as for escape or magic tap with nothing focused).
    ///
    /// - escape and magic tap: the element (its action target), then every ancestor view, exposed or not, then the
    ///   application (X32, X33). A cell acting for its control (its action target is another view) is asked next.
    /// - scroll: every view ancestor from the element's own view up (X30); an element with no view is asked itself.
    /// - custom: the element's view (or the element); the custom action is named by its id (D-ACT-1).
    /// - the others: the element's action target, if the element lists the action and is enabled.
    package static func route(_ action: ElementAction, from node: AXNode?, tree: AXTree, views: ViewHierarchy)
        throws(ActionRouteFailure) -> ActionRoute
    {
        if action.bubblesToApp {
            var handlers: [ActionHandler] = []
            if let node {
                handlers = bubblingHandlers(from: node, tree: tree, views: views)
            }
            handlers.append(ActionHandler(target: "", element: nil))
            return ActionRoute(action: action, handlers: handlers)
        }
        guard let node else { throw .noElement }
        switch action {
        case .scroll: return scrollRoute(action, from: node, views: views)
        case .custom(let idOrName): return try customRoute(idOrName, on: node)
        case .zoomIn(let point), .zoomOut(let point):
            return try zoomRoute(zoomIn: action.actionName == .zoomIn, point, on: node)
        case .tap:
            // R111–R114: the touch reaches the view hit testing chose; the element need not list `activate`.
            guard node.isEnabled else { throw .disabled }
            return ActionRoute(
                action: .activate, handlers: [ActionHandler(target: node.actionTarget, element: node.id)])
        case .drag(let name, _), .drop(let name, _):
            return try DragDrop.route(name: name, drop: action.actionName == .drop, node: node, views: views)
        case .activate, .increment, .decrement, .escape, .magicTap, .setValue, .typeText:
            guard let standard = action.standardAction, node.actions.contains(standard) else {
                throw .notSupported(action: action.name, supported: supportedActions(of: node))
            }
            guard node.isEnabled else { throw .disabled }
            let handler = ActionHandler(target: node.actionTarget, element: node.id)
            return ActionRoute(action: action, handlers: [handler])
        }
    }

    /// What an element takes, for a refusal: its standard actions, then `custom:<id>` (D-ACT-1).
    static func supportedActions(of node: AXNode) -> [String] {
        node.actions.map(\.rawValue) + node.customActions.map { "custom:" + $0.id }
    }

    /// X30: every view ancestor from the element's own view up; an element with no view is asked itself.
    static func scrollRoute(_ action: ElementAction, from node: AXNode, views: ViewHierarchy) -> ActionRoute {
        var handlers: [ActionHandler] = []
        var current: String? = node.viewID ?? node.parent
        while let viewID = current {
            handlers.append(ActionHandler(target: viewID, element: nil))
            current = views[viewID]?.parent
        }
        if handlers.isEmpty {
            handlers.append(ActionHandler(target: node.actionTarget, element: node.id))
        }
        return ActionRoute(action: action, handlers: handlers)
    }

    /// D-ACT-1: the element's view (or the element); the custom action, named by id or name, is sent by its id.
    static func customRoute(_ idOrName: String, on node: AXNode) throws(ActionRouteFailure) -> ActionRoute {
        let custom = node.customActions.first { $0.id == idOrName || $0.name == idOrName }
        guard let custom else {
            throw .notSupported(action: "custom:\(idOrName)", supported: node.customActions.map(\.id))
        }
        let handler = ActionHandler(target: node.viewID ?? node.id, element: node.id)
        return ActionRoute(action: .custom(custom.id), handlers: [handler])
    }

    /// D-ZOOM-1: only a `supportsZoom` element takes it; the centre goes to the app in the element's own coordinate
    /// space (accessibilityZoomIn(at:)), its frame's centre when the client named none.
    static func zoomRoute(zoomIn: Bool, _ point: Point?, on node: AXNode) throws(ActionRouteFailure) -> ActionRoute {
        guard node.actions.contains(.zoomIn) else {
            throw .notSupported(action: zoomIn ? "zoomIn" : "zoomOut", supported: supportedActions(of: node))
        }
        guard node.isEnabled else { throw .disabled }
        let screen = point ?? Point(x: node.frame.midX, y: node.frame.midY)
        let local = Point(x: screen.x - node.frame.x, y: screen.y - node.frame.y)
        let routed: ElementAction = zoomIn ? .zoomIn(at: local) : .zoomOut(at: local)
        return ActionRoute(action: routed, handlers: [ActionHandler(target: node.actionTarget, element: node.id)])
    }

    /// D-ZOOM-1: the screen point a zoom names when it lies outside the element's frame (edges included) —
    /// `accessibilityZoomIn(at:)` takes a point in the element, so such a point is bad input; nil otherwise.
    package static func zoomPointOutside(_ action: ElementAction, of node: AXNode) -> Point? {
        guard let point = action.zoomPoint else { return nil }
        let frame = node.frame
        let inside =
            point.x >= frame.minX && point.x <= frame.maxX && point.y >= frame.minY && point.y <= frame.maxY
        return inside ? nil : point
    }

    /// X32, X33: the element, then every ancestor view (exposed or not), without the application.
    static func bubblingHandlers(from node: AXNode, tree: AXTree, views: ViewHierarchy) -> [ActionHandler] {
        var handlers = [ActionHandler(target: node.actionTarget, element: node.id)]
        var current: String? = node.viewID.flatMap { views[$0]?.parent } ?? node.parent
        // A cell acting for its control: the cell is asked next.
        if node.actionTarget != node.id, let viewID = node.viewID {
            current = viewID
        }
        while let viewID = current {
            if !handlers.contains(where: { $0.target == viewID }) {
                let element = tree[viewID] != nil ? viewID : nil
                handlers.append(ActionHandler(target: viewID, element: element))
            }
            current = views[viewID]?.parent
        }
        return handlers
    }

    /// The actionability checks before an element action (D-ACT-2): visible, enabled, and for activate (when the
    /// element lists it) hittable.
    /// Escape and magic tap are not checked (they bubble to whoever handles them). Nil: the element passes.
    package static func actionabilityFailure(
        of node: AXNode, for action: ElementAction, tree: AXTree, views: ViewHierarchy
    ) -> ActionabilityFailure? {
        if action.bubblesToApp {
            return nil
        }
        if !node.isOnscreen || node.frame.isEmpty {
            return .offscreen
        }
        if !node.isEnabled {
            return .disabled
        }
        // Hittable only matters for an element that takes activate; one that does not is refused as not
        // supporting it (D-ACT-3) rather than as covered.
        if action == .activate && node.actions.contains(.activate)
            && !HitTesting.isHittable(node.id, tree: tree, views: views)
        {
            return .notHittable(obscuredBy: HitTesting.obscuringView(of: node.id, tree: tree, views: views))
        }
        return nil
    }

    /// The element a tap at `point` activates: HitTesting's one rule (R111–R114, D-HIT-1).
    package static func tapTarget(at point: Point, tree: AXTree, views: ViewHierarchy) -> TapTarget {
        HitTesting.tapTarget(at: point, tree: tree, views: views)
    }
}
