import AXJSON

/// `UIAccessibilityLocationDescriptor` (seed 000:56685–56747): a named point of interest in a view. `point` is in
/// the view's own coordinate space (R53); nil means the view's activation point (R52, `init(name:view:)`). `view`
/// nil means the view that lists the descriptor. Only the plain `name` is mirrored (R54: `attributedName`'s string
/// equals it; attributed strings, D-NA-1).
package struct LocationDescriptor: Sendable, Hashable {
    package var name: String
    package var point: Point?
    package var view: String?

    package init(name: String, point: Point? = nil, view: String? = nil) {
        self.name = name
        self.point = point
        self.view = view
    }
}

/// An element's `accessibilityDragSourceDescriptors` and `accessibilityDropPointDescriptors` (D-DRAG-1). X39: nil
/// means automatic discovery, an empty array means none. A mirror has no drag interactions to discover, so nil
/// exposes nothing, but the two states stay apart on the wire (the key is absent, or an empty list).
package struct DragDropDescriptors: Sendable, Equatable {
    package var dragSources: [LocationDescriptor]?
    package var dropPoints: [LocationDescriptor]?

    package init(dragSources: [LocationDescriptor]? = nil, dropPoints: [LocationDescriptor]? = nil) {
        self.dragSources = dragSources
        self.dropPoints = dropPoints
    }

    /// Neither list set (UIKit's default).
    package var isUnset: Bool { dragSources == nil && dropPoints == nil }

    /// The list a drag (`drop == false`) or a drop action reads.
    package func descriptors(forDrop drop: Bool) -> [LocationDescriptor] {
        (drop ? dropPoints : dragSources) ?? []
    }
}

/// The drag and drop rules of the core (D-DRAG-1): descriptors resolved at derivation, the named actions they give
/// an element, and where a drag or drop is sent.
package enum DragDrop {
    /// Resolves the view's descriptors onto its element: each descriptor names its view (default: the element's
    /// own) and its point (default: that view's activation point in its own coordinates, R52). Adds the named
    /// actions `drag` / `drop` when the lists are not empty.
    static func attach(
        _ properties: AccessibilityProperties, defaultView: String, to node: inout AXNode, views: ViewHierarchy
    ) {
        let given = properties.dragDrop
        guard !given.isUnset else { return }
        let resolved = DragDropDescriptors(
            dragSources: given.dragSources.map { resolve($0, defaultView: defaultView, owner: node, views: views) },
            dropPoints: given.dropPoints.map { resolve($0, defaultView: defaultView, owner: node, views: views) })
        node.dragDrop = resolved
        if !resolved.descriptors(forDrop: false).isEmpty { node.actions.append(.drag) }
        if !resolved.descriptors(forDrop: true).isEmpty { node.actions.append(.drop) }
    }

    private static func resolve(
        _ descriptors: [LocationDescriptor], defaultView: String, owner: AXNode, views: ViewHierarchy
    ) -> [LocationDescriptor] {
        descriptors.map { descriptor in
            var out = descriptor
            let viewID = descriptor.view ?? defaultView
            out.view = viewID
            // R55: a descriptor whose view is gone has no position (never a made-up (0, 0)); using it is refused
            // (`descriptorViewGone`).
            guard views[viewID] != nil else {
                out.point = nil
                return out
            }
            if out.point == nil { out.point = defaultPoint(viewID, owner: owner, views: views) }
            return out
        }
    }

    /// R52: the view's activation point in its own coordinates — the element's own activation point when the view
    /// is the element's, else the centre of the view's bounds.
    private static func defaultPoint(_ viewID: String, owner: AXNode, views: ViewHierarchy) -> Point {
        if viewID == owner.viewID {
            return Point(x: owner.activationPoint.x - owner.frame.x, y: owner.activationPoint.y - owner.frame.y)
        }
        guard let frame = views[viewID]?.frame else { return Point(x: 0, y: 0) }
        return Point(x: frame.width / 2, y: frame.height / 2)
    }

    /// The route of a drag (`drop == false`) or a drop named `name` on `node`: the descriptor's view, asked with
    /// the descriptor's name and point. No descriptors of that kind → not supported (naming what the element
    /// takes); an unknown name → not supported, naming the descriptors; a descriptor whose view left the hierarchy
    /// (R55: its `view` became nil) → `viewGone`.
    static func route(name: String, drop: Bool, node: AXNode, views: ViewHierarchy) throws(ActionRouteFailure)
        -> ActionRoute
    {
        let kind = drop ? "drop" : "drag"
        let descriptors = node.dragDrop?.descriptors(forDrop: drop) ?? []
        guard !descriptors.isEmpty else {
            throw .notSupported(action: kind, supported: ActionRouting.supportedActions(of: node))
        }
        guard let descriptor = descriptors.first(where: { $0.name == name }) else {
            throw .notSupported(action: "\(kind):\(name)", supported: descriptors.map { "\(kind):\($0.name)" })
        }
        guard node.isEnabled else { throw .disabled }
        let viewID = descriptor.view ?? node.actionTarget
        guard views[viewID] != nil else { throw .descriptorViewGone(view: viewID) }
        let point = descriptor.point ?? Point(x: 0, y: 0)
        let routed: ElementAction = drop ? .drop(name, at: point) : .drag(name, at: point)
        return ActionRoute(action: routed, handlers: [ActionHandler(target: viewID, element: node.id)])
    }

    /// Element JSON of one list: `[{name, point: {x, y}, view}]`.
    package static func json(_ descriptors: [LocationDescriptor]) -> JSON {
        .array(
            descriptors.map { descriptor in
                var object: JSONObject = ["name": .string(descriptor.name)]
                if let point = descriptor.point { object["point"] = ["x": JSON(point.x), "y": JSON(point.y)] }
                if let view = descriptor.view { object["view"] = .string(view) }
                return .object(object)
            })
    }
}

/// Decodes `accessibilityDragSourceDescriptors` / `accessibilityDropPointDescriptors`: `null` (automatic
/// discovery, X39) or `[{name, point?, view?}]`. Names are non-empty and unique in their list (actions name them);
/// a point is `[x, y]` or `{x, y}` with |coordinate| < 10⁷.
func decodeLocationDescriptors(_ value: JSON, field: Field) throws(SchemaError) -> [LocationDescriptor]? {
    if value.isNull { return nil }
    var out: [LocationDescriptor] = []
    var seen = Set<String>()
    for (index, element) in try field.array(value).enumerated() {
        let object = try field.object(element)
        let elementField = field.element(index)
        guard let name = try elementField.member(object, "name", elementField.string), !name.isEmpty else {
            throw elementField.fail("a location descriptor needs a non-empty 'name'")
        }
        guard seen.insert(name).inserted else { throw elementField.fail("duplicate descriptor name '\(name)'") }
        var point: Point?
        if let given = object["point"], !given.isNull {
            let decoded = try elementField.point(given)
            guard abs(decoded.x) < Limits.maxCoordinate, abs(decoded.y) < Limits.maxCoordinate else {
                throw elementField.fail("point out of range (|v| < \(Int(Limits.maxCoordinate)))")
            }
            point = decoded
        }
        let view = try elementField.member(object, "view", elementField.optionalString) ?? nil
        out.append(LocationDescriptor(name: name, point: point, view: view))
    }
    return out
}

/// The two descriptor properties of `applyAccessibilityProperty` (D-DRAG-1).
func applyDragDropProperty(
    _ property: AccessibilityPropertyKey.DragDrop, _ value: JSON, to ax: inout AccessibilityProperties, field: Field
) throws(SchemaError) {
    let descriptors = try decodeLocationDescriptors(value, field: field)
    switch property {
    case .accessibilityDragSourceDescriptors: ax.dragDrop.dragSources = descriptors
    case .accessibilityDropPointDescriptors: ax.dragDrop.dropPoints = descriptors
    }
}
