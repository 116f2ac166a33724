import AXJSON

// The nested shapes of Specs/hierarchy.schema.json, typed. Each `init?(json:)` accepts exactly the form its
// `json` produces (anything else stays in the view's `extra`, sent as given).

/// `transform`: a scale and a translation (`scaleX`, `scaleY`, `translateX`, `translateY`) or the affine
/// components `a`, `d`, `tx`, `ty`.
public struct ViewTransform: Sendable, Equatable {
    /// The horizontal scale.
    public var scaleX: Double?
    /// The vertical scale.
    public var scaleY: Double?
    /// The horizontal translation, in points.
    public var translateX: Double?
    /// The vertical translation, in points.
    public var translateY: Double?
    /// The affine `a` component (horizontal scale).
    public var a: Double?
    /// The affine `d` component (vertical scale).
    public var d: Double?
    /// The affine `tx` component (horizontal translation).
    public var tx: Double?
    /// The affine `ty` component (vertical translation).
    public var ty: Double?

    /// A transform with the given scale and translation.
    public init(scaleX: Double? = nil, scaleY: Double? = nil, translateX: Double? = nil, translateY: Double? = nil) {
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.translateX = translateX
        self.translateY = translateY
    }

    /// Reads the object form; nil for any other.
    public init?(json: JSON) {
        guard let object = json.objectValue else { return nil }
        self.init()
        scaleX = object["scaleX"]?.finiteNumber
        scaleY = object["scaleY"]?.finiteNumber
        translateX = object["translateX"]?.finiteNumber
        translateY = object["translateY"]?.finiteNumber
        a = object["a"]?.finiteNumber
        d = object["d"]?.finiteNumber
        tx = object["tx"]?.finiteNumber
        ty = object["ty"]?.finiteNumber
        guard self.json == json else { return nil }
    }

    /// The fields that are set.
    public var json: JSON {
        let fields: [(String, Double?)] = [
            ("scaleX", scaleX), ("scaleY", scaleY), ("translateX", translateX), ("translateY", translateY), ("a", a),
            ("d", d), ("tx", tx), ("ty", ty),
        ]
        var object = JSONObject()
        for (key, value) in fields {
            if let value {
                object[key] = .number(value)
            }
        }
        return .object(object)
    }
}

/// A picker component (`components[]`): its label and hint, its rows and the selected row.
public struct PickerComponentDescription: Sendable, Equatable {
    /// The component's accessibility label.
    public var label: String?
    /// The component's accessibility hint.
    public var hint: String?
    /// The rows' titles.
    public var rows: [String]?
    /// The selected row's index.
    public var selectedRow: Int?

    /// A component with these rows.
    public init(label: String? = nil, hint: String? = nil, rows: [String]? = nil, selectedRow: Int? = nil) {
        self.label = label
        self.hint = hint
        self.rows = rows
        self.selectedRow = selectedRow
    }

    /// Reads the object form; nil for any other.
    public init?(json: JSON) {
        guard let object = json.objectValue else { return nil }
        self.init(
            label: object["label"]?.stringValue, hint: object["hint"]?.stringValue, rows: object["rows"]?.stringList,
            selectedRow: object["selectedRow"]?.intValue)
        guard self.json == json else { return nil }
    }

    static func list(_ value: JSON) -> [PickerComponentDescription]? {
        value.typedList(PickerComponentDescription.init(json:))
    }

    /// `{label?, hint?, rows?, selectedRow?}`.
    public var json: JSON {
        var object = JSONObject()
        if let label {
            object["label"] = .string(label)
        }
        if let hint {
            object["hint"] = .string(hint)
        }
        if let rows {
            object["rows"] = JSON(rows)
        }
        if let selectedRow {
            object["selectedRow"] = JSON(selectedRow)
        }
        return .object(object)
    }
}

/// A focus guide (`focusGuides[]`): a layout guide that redirects focus (C18).
public struct FocusGuideDescription: Sendable, Equatable {
    /// The guide's id.
    public var id: String
    /// Its frame in its view's coordinates.
    public var frame: ViewRect
    /// Where focus goes when it enters the guide, in priority order.
    public var preferredFocusEnvironments: [String]?
    /// Whether the guide is active.
    public var isEnabled: Bool?

    /// A guide with an id and a frame.
    public init(id: String, frame: ViewRect, preferredFocusEnvironments: [String]? = nil, isEnabled: Bool? = nil) {
        self.id = id
        self.frame = frame
        self.preferredFocusEnvironments = preferredFocusEnvironments
        self.isEnabled = isEnabled
    }

    /// Reads the object form (frame as `[x, y, width, height]`); nil for any other.
    public init?(json: JSON) {
        guard let object = json.objectValue, let id = object["id"]?.stringValue,
            let frame = object["frame"].flatMap(ViewRect.init(json:))
        else { return nil }
        self.init(
            id: id, frame: frame, preferredFocusEnvironments: object["preferredFocusEnvironments"]?.stringList,
            isEnabled: object["isEnabled"]?.boolValue)
        guard self.json == json else { return nil }
    }

    static func list(_ value: JSON) -> [FocusGuideDescription]? {
        value.typedList(FocusGuideDescription.init(json:))
    }

    /// `{id, frame, preferredFocusEnvironments?, isEnabled?}`.
    public var json: JSON {
        var object: JSONObject = ["id": .string(id), "frame": frame.json]
        if let preferredFocusEnvironments {
            object["preferredFocusEnvironments"] = JSON(preferredFocusEnvironments)
        }
        if let isEnabled {
            object["isEnabled"] = .bool(isEnabled)
        }
        return .object(object)
    }
}

/// An item of a custom rotor: an element id, or a target with a text range.
public enum RotorItemDescription: Sendable, Equatable {
    /// An element, by id.
    case element(String)
    /// An element and, optionally, a range of its text.
    case target(String, range: ViewRange?)

    /// Reads a string or `{target, range?}`; nil for any other form.
    public init?(json: JSON) {
        if let id = json.stringValue {
            self = .element(id)
            return
        }
        guard let object = json.objectValue, let target = object["target"]?.stringValue else { return nil }
        let range = object["range"].flatMap(ViewRange.init(json:))
        self = .target(target, range: range)
        guard self.json == json else { return nil }
    }

    /// A string, or `{target, range?}`.
    public var json: JSON {
        switch self {
        case .element(let id):
            return .string(id)
        case .target(let target, let range):
            var object: JSONObject = ["target": .string(target)]
            if let range {
                object["range"] = range.json
            }
            return .object(object)
        }
    }
}

/// A custom rotor (`accessibilityCustomRotors[]`): a name or a system type, and its items or `search: "app"`
/// (the app computes the items, R58).
public struct CustomRotorDescription: Sendable, Equatable {
    /// The rotor's name.
    public var name: String?
    /// A system rotor type (`heading`, `link`, …).
    public var systemType: String?
    /// The items, in order.
    public var items: [RotorItemDescription]?
    /// `items` (the default) or `app`.
    public var search: String?

    /// A rotor with a name and items.
    public init(
        name: String? = nil, systemType: String? = nil, items: [RotorItemDescription]? = nil, search: String? = nil
    ) {
        self.name = name
        self.systemType = systemType
        self.items = items
        self.search = search
    }

    /// Reads the object form; nil for any other.
    public init?(json: JSON) {
        guard let object = json.objectValue else { return nil }
        var items: [RotorItemDescription]?
        if let list = object["items"] {
            guard let typed = list.typedList(RotorItemDescription.init(json:)) else { return nil }
            items = typed
        }
        self.init(
            name: object["name"]?.stringValue, systemType: object["systemType"]?.stringValue, items: items,
            search: object["search"]?.stringValue)
        guard self.json == json else { return nil }
    }

    static func list(_ value: JSON) -> [CustomRotorDescription]? {
        value.typedList(CustomRotorDescription.init(json:))
    }

    /// `{name?, systemType?, items?, search?}`.
    public var json: JSON {
        var object = JSONObject()
        if let name {
            object["name"] = .string(name)
        }
        if let systemType {
            object["systemType"] = .string(systemType)
        }
        if let items {
            object["items"] = .array(items.map(\.json))
        }
        if let search {
            object["search"] = .string(search)
        }
        return .object(object)
    }
}

/// `accessibilityDataTable`: the table's size and its header cells by column and by row.
public struct DataTableDescription: Sendable, Equatable {
    /// Number of rows.
    public var rows: Int
    /// Number of columns.
    public var columns: Int
    /// Header element ids by column index.
    public var columnHeaders: [Int: [String]]?
    /// Header element ids by row index.
    public var rowHeaders: [Int: [String]]?

    /// A table of this size.
    public init(rows: Int, columns: Int, columnHeaders: [Int: [String]]? = nil, rowHeaders: [Int: [String]]? = nil) {
        self.rows = rows
        self.columns = columns
        self.columnHeaders = columnHeaders
        self.rowHeaders = rowHeaders
    }

    /// Reads the object form (header keys are decimal indices); nil for any other.
    public init?(json: JSON) {
        guard let object = json.objectValue, let rows = object["rows"]?.intValue,
            let columns = object["columns"]?.intValue
        else { return nil }
        self.init(rows: rows, columns: columns)
        columnHeaders = object["columnHeaders"].flatMap(Self.headers)
        rowHeaders = object["rowHeaders"].flatMap(Self.headers)
        guard self.json == json else { return nil }
    }

    private static func headers(_ value: JSON) -> [Int: [String]]? {
        guard let object = value.objectValue else { return nil }
        var headers: [Int: [String]] = [:]
        for (key, ids) in object {
            guard let index = Int(key), let list = ids.stringList else { return nil }
            headers[index] = list
        }
        return headers
    }

    private static func headersJSON(_ headers: [Int: [String]]) -> JSON {
        var object = JSONObject()
        for index in headers.keys.sorted() {
            object.appendUnchecked(String(index), JSON(headers[index] ?? []))  // a dictionary's keys: unique
        }
        return .object(object)
    }

    /// `{rows, columns, columnHeaders?, rowHeaders?}`.
    public var json: JSON {
        var object: JSONObject = ["rows": JSON(rows), "columns": JSON(columns)]
        if let columnHeaders {
            object["columnHeaders"] = Self.headersJSON(columnHeaders)
        }
        if let rowHeaders {
            object["rowHeaders"] = Self.headersJSON(rowHeaders)
        }
        return .object(object)
    }
}

/// `focusGroupPriority` (R122): a named level or an integer.
public enum FocusGroupPriority: Sendable, Equatable {
    /// Never chosen as the group's entry.
    case ignored
    /// Chosen when it was focused last.
    case previouslyFocused
    /// Preferred.
    case prioritized
    /// Chosen as the group's entry while focused.
    case currentlyFocused
    /// An explicit priority.
    case level(Int)

    /// Reads a name or an integer; nil for any other form.
    public init?(json: JSON) {
        if let level = json.intValue {
            self = .level(level)
            return
        }
        switch json.stringValue {
        case "ignored": self = .ignored
        case "previouslyFocused": self = .previouslyFocused
        case "prioritized": self = .prioritized
        case "currentlyFocused": self = .currentlyFocused
        default: return nil
        }
    }

    /// The name, or the integer.
    public var json: JSON {
        switch self {
        case .ignored: "ignored"
        case .previouslyFocused: "previouslyFocused"
        case .prioritized: "prioritized"
        case .currentlyFocused: "currentlyFocused"
        case .level(let level): JSON(level)
        }
    }
}

/// `accessibilityContainerType` by name (the integer form 0…4 is sent as given; `menu`/`menuBar` by name only).
public enum AccessibilityContainerType: String, Sendable, CaseIterable {
    case none
    case dataTable
    case list
    case landmark
    case semanticGroup
    /// A menu of items (AXServer's extension, D-MENU-1: UIKit has none): AT-SPI menu, its buttons menu items.
    case menu
    /// A menu bar (AXServer's extension, D-MENU-1): AT-SPI menu bar, its cascade buttons menus.
    case menuBar
}

/// `imageOrientation` of an image view: `UIImage.Orientation` (SwiftUI `Image.Orientation`); drawing only.
public enum ImageOrientation: String, Sendable, CaseIterable {
    /// The default orientation.
    case up
    /// Rotated 180°.
    case down
    /// Rotated 90° counterclockwise.
    case left
    /// Rotated 90° clockwise.
    case right
    /// `up`, flipped horizontally.
    case upMirrored
    /// `down`, flipped horizontally.
    case downMirrored
    /// `left`, flipped vertically.
    case leftMirrored
    /// `right`, flipped vertically.
    case rightMirrored
}

/// `preferredStyle` of an alert controller.
public enum AlertStyle: String, Sendable, CaseIterable {
    case alert
    case actionSheet
}

/// `accessibilityNavigationStyle`.
public enum NavigationStyle: String, Sendable, CaseIterable {
    case automatic
    case separate
    case combined
}

extension JSON {
    /// Every item read by `make`, or nil when this is not an array or an item does not read.
    func typedList<Item>(_ make: (JSON) -> Item?) -> [Item]? {
        guard let items = arrayValue else { return nil }
        var list: [Item] = []
        for item in items {
            guard let typed = make(item) else { return nil }
            list.append(typed)
        }
        return list
    }
}
