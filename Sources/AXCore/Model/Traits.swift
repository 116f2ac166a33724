/// `UIAccessibilityTraits` as a stable option set. The bit layout is this project's own and is part of the
/// wire contract (Specs/hierarchy.md §Traits): bits 0–16 follow the values iOS has shipped for years,
/// the later traits take bits chosen here. On the wire traits travel by name; an integer mask is accepted too.
public struct Traits: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let button = Traits(rawValue: 1 << 0)
    public static let link = Traits(rawValue: 1 << 1)
    public static let image = Traits(rawValue: 1 << 2)
    public static let selected = Traits(rawValue: 1 << 3)
    public static let playsSound = Traits(rawValue: 1 << 4)
    public static let keyboardKey = Traits(rawValue: 1 << 5)
    public static let staticText = Traits(rawValue: 1 << 6)
    public static let summaryElement = Traits(rawValue: 1 << 7)
    public static let notEnabled = Traits(rawValue: 1 << 8)
    public static let updatesFrequently = Traits(rawValue: 1 << 9)
    public static let searchField = Traits(rawValue: 1 << 10)
    public static let startsMediaSession = Traits(rawValue: 1 << 11)
    public static let adjustable = Traits(rawValue: 1 << 12)
    public static let allowsDirectInteraction = Traits(rawValue: 1 << 13)
    public static let causesPageTurn = Traits(rawValue: 1 << 14)
    public static let header = Traits(rawValue: 1 << 16)
    public static let tabBar = Traits(rawValue: 1 << 17)
    public static let toggleButton = Traits(rawValue: 1 << 18)
    public static let supportsZoom = Traits(rawValue: 1 << 19)

    /// Every named trait in canonical (bit) order. `none` is the empty set and has no bit.
    public static let named: [(name: String, trait: Traits)] = [
        ("button", .button), ("link", .link), ("image", .image), ("selected", .selected),
        ("playsSound", .playsSound), ("keyboardKey", .keyboardKey), ("staticText", .staticText),
        ("summaryElement", .summaryElement), ("notEnabled", .notEnabled),
        ("updatesFrequently", .updatesFrequently), ("searchField", .searchField),
        ("startsMediaSession", .startsMediaSession), ("adjustable", .adjustable),
        ("allowsDirectInteraction", .allowsDirectInteraction), ("causesPageTurn", .causesPageTurn),
        ("header", .header), ("tabBar", .tabBar), ("toggleButton", .toggleButton), ("supportsZoom", .supportsZoom),
    ]
    public static let allKnown: Traits = named.reduce(into: Traits()) { $0.formUnion($1.trait) }

    public static func named(_ name: String) -> Traits? {
        if name == "none" { return [] }
        return named.first(where: { $0.name == name })?.trait
    }
    /// Names of the set bits, in canonical order.
    public var names: [String] { Traits.named.compactMap { contains($0.trait) ? $0.name : nil } }
}
