// Traits and geometry declared once (issue 20 item 1): the trait names with their bits, and the wire forms of rects
// and points in a hierarchy. The server core (AXCore) builds its `Traits` option set and its rect and point decoders
// on these; the provider library (AXProvider) its `ViewRect` and `ViewPoint` codecs.
import AXJSON

/// One `UIAccessibilityTraits` member: its name on the wire and its bit in the integer form (Specs/hierarchy.md
/// §Traits).
public struct SchemaTrait: Sendable, Equatable {
    /// The name a hierarchy writes in `accessibilityTraits`.
    public let name: String
    /// The bit of the integer form (bits 0–16 follow the values iOS has shipped for years; 17–19 are this project's).
    public let bit: Int

    /// The trait `name` at `bit`.
    public init(_ name: String, bit: Int) {
        self.name = name
        self.bit = bit
    }
}

extension HierarchySchema {
    /// Every trait, in bit order. `none` (no bits) is accepted as a name too and is no row.
    public static let traits: [SchemaTrait] = [
        SchemaTrait("button", bit: 0),
        SchemaTrait("link", bit: 1),
        SchemaTrait("image", bit: 2),
        SchemaTrait("selected", bit: 3),
        SchemaTrait("playsSound", bit: 4),
        SchemaTrait("keyboardKey", bit: 5),
        SchemaTrait("staticText", bit: 6),
        SchemaTrait("summaryElement", bit: 7),
        SchemaTrait("notEnabled", bit: 8),
        SchemaTrait("updatesFrequently", bit: 9),
        SchemaTrait("searchField", bit: 10),
        SchemaTrait("startsMediaSession", bit: 11),
        SchemaTrait("adjustable", bit: 12),
        SchemaTrait("allowsDirectInteraction", bit: 13),
        SchemaTrait("causesPageTurn", bit: 14),
        SchemaTrait("header", bit: 16),
        SchemaTrait("tabBar", bit: 17),
        SchemaTrait("toggleButton", bit: 18),
        SchemaTrait("supportsZoom", bit: 19),
    ]

    /// The trait called `name`; nil when there is none (`none` is no row).
    public static func trait(named name: String) -> SchemaTrait? {
        traits.first { $0.name == name }
    }
}

/// The wire forms of geometry in a hierarchy: a rect is `[x, y, width, height]`, a point `[x, y]`, in points. The
/// provider library writes these arrays; the server also reads objects with the same member names
/// (`{x, y, width, height}`, `{x, y}`).
public enum SchemaGeometry {
    /// The numbers of a rect's array form, and its object form's member names, in order.
    public static let rectMembers = ["x", "y", "width", "height"]
    /// The numbers of a point's array form, and its object form's member names, in order.
    public static let pointMembers = ["x", "y"]

    /// How many numbers a rect's array form has (inlined: the server's decoder checks it for every frame).
    @inlinable public static var rectArity: Int { 4 }
    /// How many numbers a point's array form has.
    @inlinable public static var pointArity: Int { 2 }

    /// `[x, y, width, height]`.
    public static func rect(x originX: Double, y originY: Double, width: Double, height: Double) -> JSON {
        [.number(originX), .number(originY), .number(width), .number(height)]
    }

    /// `[x, y]`.
    public static func point(x pointX: Double, y pointY: Double) -> JSON {
        [.number(pointX), .number(pointY)]
    }

    /// The numbers of a rect's array form (four finite numbers); nil for any other form.
    public static func rectNumbers(_ json: JSON) -> [Double]? {
        finiteNumbers(json, count: rectArity)
    }

    /// The numbers of a point's array form (two finite numbers); nil for any other form.
    public static func pointNumbers(_ json: JSON) -> [Double]? {
        finiteNumbers(json, count: pointArity)
    }

    private static func finiteNumbers(_ json: JSON, count: Int) -> [Double]? {
        guard case .array(let items) = json, items.count == count else { return nil }
        var numbers: [Double] = []
        numbers.reserveCapacity(count)
        for item in items {
            guard case .number(let number) = item, number.isFinite else { return nil }
            numbers.append(number)
        }
        return numbers
    }
}
