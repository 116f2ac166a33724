// The payloads of the action vocabulary (ActionVocabulary.swift), declared once: each payload's fields, their kinds,
// their wire encoding and the one decoder that checks them. The hub encodes with them (`ActionRequest.value`), the
// provider library decodes with them (`ActionCall.kind`) and the JSON-RPC action methods read their params with them
// (`action.zoomIn`'s `point`, `action.drag`'s `name`, …), so a payload is refused with the same words on every route
// (D-ACT-PAYLOAD-1).
import AXJSON

/// Why an action's payload was refused: the field at fault and what it must be. The JSON-RPC action methods answer
/// −32602 naming `field` with `expected`; the provider library reads the request as `.unknown` and keeps this error.
public struct ActionPayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The param or `value` member at fault (`point`, `name`, `direction`, `value`, `contentOffset`, …).
    public var field: String
    /// What it must be ("must be {x, y} or [x, y] …").
    public var expected: String

    /// The error for `field`.
    public init(field: String, expected: String) {
        self.field = field
        self.expected = expected
    }

    /// `'field' expected`.
    public var description: String { "'\(field)' \(expected)" }
}

/// A point an action carries: a zoom's centre (D-ZOOM-1), a drag source's or drop point's location (D-DRAG-1), a
/// scroll view's content offset (C25). Written `{x, y}`; read from `{x, y}` or `[x, y]`, each coordinate a finite
/// number of magnitude below 10⁷ (the schema's coordinate limit, Specs/hierarchy.md §Limits).
public struct ActionPoint: Sendable, Equatable {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate.
    public var y: Double

    /// Each coordinate's magnitude stays below this.
    public static let coordinateLimit = 1.0e7

    /// The point (x, y).
    public init(x pointX: Double, y pointY: Double) {
        x = pointX
        y = pointY
    }

    /// Reads `{x, y}` or `[x, y]`; `field` names the param in the error.
    public init(json: JSON?, field: String) throws(ActionPayloadError) {
        let coordinates: (Double?, Double?)
        switch json {
        case .object?: coordinates = (json?["x"]?.doubleValue, json?["y"]?.doubleValue)
        case .array(let elements)? where elements.count == SchemaGeometry.pointArity:
            coordinates = (elements[0].doubleValue, elements[1].doubleValue)
        case .array?, .string?, .number?, .bool?, .null?, nil: coordinates = (nil, nil)
        }
        guard let pointX = coordinates.0, let pointY = coordinates.1, Self.isInRange(pointX), Self.isInRange(pointY)
        else {
            throw ActionPayloadError(field: field, expected: "must be {x, y} or [x, y], numbers of magnitude below 10⁷")
        }
        self.init(x: pointX, y: pointY)
    }

    private static func isInRange(_ coordinate: Double) -> Bool {
        coordinate.isFinite && abs(coordinate) < coordinateLimit
    }

    /// `{x, y}`: a zoom's `value`.
    public var json: JSON { ["x": .number(x), "y": .number(y)] }
    /// `[x, y]`: a content offset.
    public var array: JSON { [.number(x), .number(y)] }
}

/// The payloads of the actions that carry one, by action (`ActionName`), each with its fields, its wire form (`json`)
/// and its decoder.
public enum ActionPayload {
    /// `zoomIn` / `zoomOut`: `value` is the centre `{x, y}` in the element's coordinate space (D-ZOOM-1); the
    /// `action.zoomIn` / `action.zoomOut` methods take it as `point`, in screen coordinates.
    public static func zoomCentre(_ value: JSON?, field: String = "value") throws(ActionPayloadError) -> ActionPoint {
        try ActionPoint(json: value, field: field)
    }

    /// A drag source's or drop point's name: a non-empty string (D-DRAG-1); `action.drag` / `action.drop` take it as
    /// `name`.
    public static func descriptorName(_ value: JSON?, field: String = "name") throws(ActionPayloadError) -> String {
        guard let name = value?.stringValue, !name.isEmpty else {
            throw ActionPayloadError(
                field: field, expected: "must be a non-empty string (a drag source or drop point name)")
        }
        return name
    }

    /// `drag` / `drop`: `value` is `{name, x, y}`, the descriptor's name and its point in `target`'s coordinate space
    /// (D-DRAG-1).
    public struct DragDrop: Sendable, Equatable {
        /// The drag source's or drop point's name.
        public var name: String
        /// Its point in the target view's coordinate space.
        public var point: ActionPoint

        /// The payload of the descriptor `name` at `point`.
        public init(name: String, point: ActionPoint) {
            self.name = name
            self.point = point
        }

        /// Reads `{name, x, y}`.
        public init(json: JSON?) throws(ActionPayloadError) {
            name = try ActionPayload.descriptorName(json?["name"], field: "value.name")
            point = try ActionPoint(json: json, field: "value")
        }

        /// `{name, x, y}`.
        public var json: JSON { ["name": .string(name), "x": .number(point.x), "y": .number(point.y)] }
    }

    /// `scrollToVisible`: `value` is `{contentOffset: [x, y]}`, the offset that shows the item (C25).
    public static func contentOffset(_ value: JSON?) throws(ActionPayloadError) -> ActionPoint {
        try ActionPoint(json: value?["contentOffset"], field: "value.contentOffset")
    }

    /// `scrollToVisible`'s `value` for `offset`.
    public static func contentOffsetJSON(_ offset: ActionPoint) -> JSON { ["contentOffset": offset.array] }

    /// `setSelectedTextRange`: `value` is `[location, length]` in Unicode scalars, both whole numbers ≥ 0
    /// (D-TEXT-APP-2).
    public struct SelectedTextRange: Sendable, Equatable {
        /// The first scalar.
        public var location: Int
        /// How many scalars (0: a caret).
        public var length: Int

        /// The range at `location` of `length` scalars.
        public init(location: Int, length: Int) {
            self.location = location
            self.length = length
        }

        /// Reads `[location, length]`.
        public init(json: JSON?) throws(ActionPayloadError) {
            guard let location = json?[0]?.intValue, let length = json?[1]?.intValue, location >= 0, length >= 0
            else { throw ActionPayloadError(field: "value", expected: "must be [location, length], whole numbers ≥ 0") }
            self.init(location: location, length: length)
        }

        /// `[location, length]`.
        public var json: JSON { [.number(Double(location)), .number(Double(length))] }
    }

    /// `select`: `value` is `{row, section}` of the cell focus moved to, both whole numbers ≥ 0 (D-FOCUS-SEL-1).
    public struct SelectedCell: Sendable, Equatable {
        /// The cell's row in its section.
        public var row: Int
        /// The cell's section.
        public var section: Int

        /// The cell at (row, section).
        public init(row: Int, section: Int) {
            self.row = row
            self.section = section
        }

        /// Reads `{row, section}`.
        public init(json: JSON?) throws(ActionPayloadError) {
            guard let row = json?["row"]?.intValue, let section = json?["section"]?.intValue, row >= 0, section >= 0
            else { throw ActionPayloadError(field: "value", expected: "must be {row, section}, whole numbers ≥ 0") }
            self.init(row: row, section: section)
        }

        /// `{row, section}`.
        public var json: JSON { ["row": .number(Double(row)), "section": .number(Double(section))] }
    }

    /// `scroll`: the `direction`, one of `ScrollDirection` (X40).
    public static func direction(_ value: JSON?) throws(ActionPayloadError) -> ScrollDirection {
        guard let direction = value?.stringValue.flatMap(ScrollDirection.init(rawValue:)) else {
            let names = ScrollDirection.allCases.map(\.rawValue).joined(separator: ", ")
            throw ActionPayloadError(field: "direction", expected: "must be one of \(names) (X40)")
        }
        return direction
    }

    /// `custom`: the custom action's id (`customAction`; the `action.custom` method takes an id or a name as
    /// `name`), a string.
    public static func customAction(_ value: JSON?, field: String = "customAction") throws(ActionPayloadError)
        -> String
    {
        guard let id = value?.stringValue else {
            throw ActionPayloadError(field: field, expected: "is required (a custom action id or name)")
        }
        return id
    }

    /// `typeText`: the text, a string.
    public static func text(_ value: JSON?, field: String = "value") throws(ActionPayloadError) -> String {
        guard let text = value?.stringValue else {
            throw ActionPayloadError(field: field, expected: "is required (a string)")
        }
        return text
    }

    /// `setValue`: the value, any JSON value but absent.
    public static func value(_ value: JSON?, field: String = "value") throws(ActionPayloadError) -> JSON {
        guard let value else { throw ActionPayloadError(field: field, expected: "is required") }
        return value
    }
}
