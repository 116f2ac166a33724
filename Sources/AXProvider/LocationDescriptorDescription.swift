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

/// `accessibilityReadingContent` (UIAccessibilityReadingContent, seed 000:55696–55714; D-READ-1): each line's text
/// and on-screen frame, and the page's text (nil: the lines joined).
public struct ReadingContentDescription: Sendable, Equatable {
    /// One line: its text and its frame in screen coordinates.
    public struct Line: Sendable, Equatable {
        /// The line's text (`accessibilityContent(forLineNumber:)`).
        public var text: String
        /// The line's frame on screen (`accessibilityFrame(forLineNumber:)`).
        public var frame: ViewRect

        /// A line.
        public init(text: String, frame: ViewRect) {
            self.text = text
            self.frame = frame
        }
    }

    /// The lines, in reading order.
    public var lines: [Line]
    /// `accessibilityPageContent()`; nil: the lines' texts joined by newlines.
    public var pageContent: String?

    /// Reading content with these lines.
    public init(lines: [Line], pageContent: String? = nil) {
        self.lines = lines
        self.pageContent = pageContent
    }

    /// Reads `{lines: [{text, frame}], pageContent?}`; nil for any other form.
    public init?(json: JSON) {
        guard let object = json.objectValue, object.keys.allSatisfy({ ["lines", "pageContent"].contains($0) }),
            let items = object["lines"]?.arrayValue
        else { return nil }
        var lines: [Line] = []
        for item in items {
            guard let line = item.objectValue, line.keys.count == 2, let text = line["text"]?.stringValue,
                let frame = line["frame"].flatMap(ViewRect.init(json:))
            else { return nil }
            lines.append(Line(text: text, frame: frame))
        }
        self.init(lines: lines, pageContent: object["pageContent"]?.stringValue)
        guard self.json == json else { return nil }
    }

    /// `{lines: [{text, frame}], pageContent?}`.
    public var json: JSON {
        var object: JSONObject = [
            "lines": .array(lines.map { ["text": .string($0.text), "frame": $0.frame.json] })
        ]
        if let pageContent { object["pageContent"] = .string(pageContent) }
        return .object(object)
    }
}

extension ReadingContentDescription: SchemaRepresentable {
    package static var schemaForm: SchemaForm { .object }
}
