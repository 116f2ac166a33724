import AXSchema

/// `UIAccessibilityTraits` as a stable option set. The bit layout is this project's own and is part of the
/// wire contract (Specs/hierarchy.md §Traits): bits 0–16 follow the values iOS has shipped for years,
/// the later traits take bits chosen here. On the wire traits travel by name; an integer mask is accepted too.
package struct Traits: OptionSet, Sendable, Hashable {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }

    // The Swift names of the traits: compile-time constants (the derivation tests them on every element), each
    // checked against its row of the schema table (AXSchema's `HierarchySchema.traits`) when `named` is built.
    package static let button = Traits(rawValue: 1 << 0)
    package static let link = Traits(rawValue: 1 << 1)
    package static let image = Traits(rawValue: 1 << 2)
    package static let selected = Traits(rawValue: 1 << 3)
    package static let playsSound = Traits(rawValue: 1 << 4)
    package static let keyboardKey = Traits(rawValue: 1 << 5)
    package static let staticText = Traits(rawValue: 1 << 6)
    package static let summaryElement = Traits(rawValue: 1 << 7)
    package static let notEnabled = Traits(rawValue: 1 << 8)
    package static let updatesFrequently = Traits(rawValue: 1 << 9)
    package static let searchField = Traits(rawValue: 1 << 10)
    package static let startsMediaSession = Traits(rawValue: 1 << 11)
    package static let adjustable = Traits(rawValue: 1 << 12)
    package static let allowsDirectInteraction = Traits(rawValue: 1 << 13)
    package static let causesPageTurn = Traits(rawValue: 1 << 14)
    package static let header = Traits(rawValue: 1 << 16)
    package static let tabBar = Traits(rawValue: 1 << 17)
    package static let toggleButton = Traits(rawValue: 1 << 18)
    package static let supportsZoom = Traits(rawValue: 1 << 19)

    /// Every named trait in canonical (bit) order, from the schema table. `none` is the empty set and has no bit.
    package static let named: [(name: String, trait: Traits)] = {
        let constants: [Traits] = [
            .button, .link, .image, .selected, .playsSound, .keyboardKey, .staticText, .summaryElement, .notEnabled,
            .updatesFrequently, .searchField, .startsMediaSession, .adjustable, .allowsDirectInteraction,
            .causesPageTurn, .header, .tabBar, .toggleButton, .supportsZoom,
        ]
        let table = HierarchySchema.traits.map { (name: $0.name, trait: Traits(rawValue: 1 << UInt64($0.bit))) }
        // The constants in bit order are the table's rows, one for one.
        precondition(
            table.map(\.trait) == constants, "the Traits constants and HierarchySchema.traits disagree (bit order)")
        return table
    }()
    package static let allKnown: Traits = named.reduce(into: Traits()) { $0.formUnion($1.trait) }

    package static func named(_ name: String) -> Traits? {
        if name == "none" { return [] }
        return named.first(where: { $0.name == name })?.trait
    }
    /// Names of the set bits, in canonical order.
    package var names: [String] { Traits.named.compactMap { contains($0.trait) ? $0.name : nil } }
}
