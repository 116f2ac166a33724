// Drag sources and drop points of the provider library's model (D-DRAG-1).
import AXJSON
import AXSchema

/// One `UIAccessibilityLocationDescriptor` of `accessibilityDragSourceDescriptors` /
/// `accessibilityDropPointDescriptors`: `{name, point?, view?}` (seed 000:56685–56747).
public struct LocationDescriptorDescription: Sendable, Equatable {
    /// What VoiceOver offers ("Drag Photo"); unique in its list, the name a drag or drop action asks for.
    public var name: String
    /// The point in `view`'s own coordinate space (R53); nil is that view's activation point (R52).
    public var point: ViewPoint?
    /// The view the point is in; nil is the view that lists the descriptor.
    public var view: String?

    /// A descriptor named `name`.
    public init(name: String, point: ViewPoint? = nil, view: String? = nil) {
        self.name = name
        self.point = point
        self.view = view
    }

    /// The list in `value`, or nil when it is not an array of objects in exactly this form.
    static func list(_ value: JSON) -> [LocationDescriptorDescription]? {
        guard let items = value.arrayValue else { return nil }
        var descriptors: [LocationDescriptorDescription] = []
        for item in items {
            guard let object = item.objectValue, let name = object["name"]?.stringValue else { return nil }
            guard object.keys.allSatisfy({ ["name", "point", "view"].contains($0) }) else { return nil }
            let descriptor = LocationDescriptorDescription(
                name: name, point: object["point"].flatMap(ViewPoint.init(json:)), view: object["view"]?.stringValue)
            guard descriptor.json == item else { return nil }
            descriptors.append(descriptor)
        }
        return descriptors
    }

    /// `{name, point?, view?}`.
    public var json: JSON {
        var object: JSONObject = ["name": .string(name)]
        if let point { object["point"] = point.json }
        if let view { object["view"] = .string(view) }
        return .object(object)
    }
}

extension LocationDescriptorDescription: SchemaListItem {
    package static func schemaList(_ value: JSON) -> [LocationDescriptorDescription]? { list(value) }
}
