import AXJSON
import AXSchema

/// A rectangle in points: `[x, y, width, height]` on the wire.
public struct ViewRect: Sendable, Equatable {
    /// The x coordinate, in points.
    public var x: Double
    /// The y coordinate, in points.
    public var y: Double
    /// The width, in points.
    public var width: Double
    /// The height, in points.
    public var height: Double

    /// A rectangle at (x, y) of the given size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Reads `[x, y, width, height]` (four finite numbers); nil for any other form.
    public init?(json: JSON) {
        guard let numbers = SchemaGeometry.rectNumbers(json) else { return nil }
        self.init(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// `[x, y, width, height]`.
    public var json: JSON { SchemaGeometry.rect(x: x, y: y, width: width, height: height) }
}

/// A point: `[x, y]` on the wire.
public struct ViewPoint: Sendable, Equatable {
    /// The x coordinate, in points.
    public var x: Double
    /// The y coordinate, in points.
    public var y: Double

    /// The point (x, y).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Reads `[x, y]` (two finite numbers); nil for any other form.
    public init?(json: JSON) {
        guard let numbers = SchemaGeometry.pointNumbers(json) else { return nil }
        self.init(x: numbers[0], y: numbers[1])
    }

    /// `[x, y]`.
    public var json: JSON { SchemaGeometry.point(x: x, y: y) }
}

/// A range of rows or columns: `[location, length]` on the wire.
public struct ViewRange: Sendable, Equatable {
    /// The first row or column.
    public var location: Int
    /// How many rows or columns.
    public var length: Int

    /// The range starting at `location` spanning `length`.
    public init(location: Int, length: Int) {
        self.location = location
        self.length = length
    }

    /// Reads `[location, length]` (two integers); nil for any other form.
    public init?(json: JSON) {
        guard let items = json.arrayValue, items.count == 2, let location = items[0].intValue,
            let length = items[1].intValue
        else { return nil }
        self.init(location: location, length: length)
    }

    /// `[location, length]`.
    public var json: JSON { [JSON(location), JSON(length)] }
}

/// One of an element's `accessibilityCustomActions` (`{id, name, category?, image?}`).
public struct CustomActionDescription: Sendable, Equatable {
    /// Unique per element; the server uses the name when it is nil.
    public var id: String?
    /// What VoiceOver speaks.
    public var name: String
    /// The category (`nil` is reported as `Actions`).
    public var category: String?
    /// An image name (recorded as present or absent only).
    public var image: String?

    /// A custom action named `name`.
    public init(id: String? = nil, name: String, category: String? = nil, image: String? = nil) {
        self.id = id
        self.name = name
        self.category = category
        self.image = image
    }

    /// The list in `value`, or nil when it is not an array of objects with exactly these string fields.
    static func list(_ value: JSON) -> [CustomActionDescription]? {
        guard let items = value.arrayValue else { return nil }
        var actions: [CustomActionDescription] = []
        for item in items {
            guard let object = item.objectValue, let name = object["name"]?.stringValue else { return nil }
            let known: Set<String> = ["id", "name", "category", "image"]
            guard object.keys.allSatisfy({ known.contains($0) }) else { return nil }
            let action = CustomActionDescription(
                id: object["id"]?.stringValue, name: name, category: object["category"]?.stringValue,
                image: object["image"]?.stringValue)
            guard action.json == item else { return nil }
            actions.append(action)
        }
        return actions
    }

    /// `{id?, name, category?, image?}`.
    public var json: JSON {
        var object: JSONObject = [:]
        if let id {
            object["id"] = .string(id)
        }
        object["name"] = .string(name)
        if let category {
            object["category"] = .string(category)
        }
        if let image {
            object["image"] = .string(image)
        }
        return .object(object)
    }
}

/// An item of `accessibilityElements`: a subview by id, or a virtual element.
public enum AccessibilityElementItem: Sendable, Equatable {
    /// A view of the hierarchy, by id.
    case view(String)
    /// A virtual element.
    case virtual(VirtualElementDescription)

    /// The list in `value`, or nil when an item is neither a string nor a virtual element.
    static func list(_ value: JSON) -> [AccessibilityElementItem]? {
        guard let items = value.arrayValue else { return nil }
        var elements: [AccessibilityElementItem] = []
        for item in items {
            if let id = item.stringValue {
                elements.append(.view(id))
            } else if let virtual = VirtualElementDescription(json: item) {
                elements.append(.virtual(virtual))
            } else {
                return nil
            }
        }
        return elements
    }

    /// A string id or a virtual element object.
    public var json: JSON {
        switch self {
        case .view(let id): .string(id)
        case .virtual(let element): element.json
        }
    }
}

/// A guided-access restriction the app declares (`guidedAccessRestrictions[]`, R84).
public struct GuidedAccessRestrictionDescription: Sendable, Equatable {
    /// The restriction's identifier.
    public var id: String
    /// Its text for the operator.
    public var text: String
    /// Its longer description.
    public var detailText: String?

    /// A restriction with an identifier and a text.
    public init(id: String, text: String, detailText: String? = nil) {
        self.id = id
        self.text = text
        self.detailText = detailText
    }

    /// `{id, text, detailText?}`.
    public var json: JSON {
        var object: JSONObject = ["id": .string(id), "text": .string(text)]
        if let detailText {
            object["detailText"] = .string(detailText)
        }
        return .object(object)
    }
}

/// A whole hierarchy as `hierarchy.set` takes it: the windows, front-most last, and the guided-access restrictions
/// (Specs/hierarchy.md). `Publisher.publish(_:)` takes it as well as the JSON form.
public struct HierarchyDescription: Sendable, Equatable {
    /// The windows (views of class `UIWindow` or a subclass).
    public var windows: [ViewDescription]
    /// The guided-access restrictions the app declares, in presentation order.
    public var guidedAccessRestrictions: [GuidedAccessRestrictionDescription]

    /// A hierarchy of these windows.
    public init(windows: [ViewDescription], guidedAccessRestrictions: [GuidedAccessRestrictionDescription] = []) {
        self.windows = windows
        self.guidedAccessRestrictions = guidedAccessRestrictions
    }

    /// `{windows, guidedAccessRestrictions?}`.
    public var json: JSON {
        var object: JSONObject = ["windows": .array(windows.map(\.json))]
        if !guidedAccessRestrictions.isEmpty {
            object["guidedAccessRestrictions"] = .array(guidedAccessRestrictions.map(\.json))
        }
        return .object(object)
    }
}

extension Publisher {
    /// Publishes a typed hierarchy (the same as publishing its `json`).
    @discardableResult
    public func publish(_ hierarchy: HierarchyDescription) async throws -> Int {
        try await publish(hierarchy.json)
    }
}

extension JSON {
    /// A number that is finite, or nil.
    var finiteNumber: Double? {
        guard case .number(let number) = self, number.isFinite else { return nil }
        return number
    }

    /// Every item as a string, or nil.
    var stringList: [String]? {
        guard let items = arrayValue else { return nil }
        var strings: [String] = []
        for item in items {
            guard let string = item.stringValue else { return nil }
            strings.append(string)
        }
        return strings
    }

    /// The value, or nil for null (an explicit null stays in `extra`).
    var nonNull: JSON? { isNull ? nil : self }
}
