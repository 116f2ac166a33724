/// App-defined rotors for screen readers that have no rotor (AT-SPI: atspi-bridge.md §4.6; D-ROTOR-6, D-ROTOR-7):
/// membership as object attributes, and `next-<rotor>` / `previous-<rotor>` actions on the node that declares the
/// rotor. Pure; the bridge maps these onto attributes and actions.
package enum RotorExposure {
    /// Attribute key prefix of rotor membership: `rotor-<slug>` = `true` for every rotor that lists the element.
    package static let memberKeyPrefix = "rotor-"
    /// Attribute listing every rotor an element belongs to, by name, in declaration order, joined with `,`.
    package static let listKey = "rotors"

    /// The rotor name as an attribute key or action suffix: lowercase letters and digits, every other run of
    /// characters one `-`, no leading or trailing `-` ("Form Controls" → `form-controls`); an empty result is
    /// `rotor`.
    package static func slug(_ name: String) -> String {
        var out = ""
        var pendingDash = false
        for scalar in name.lowercased().unicodeScalars {
            let isWordCharacter = scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            if isWordCharacter {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return out.isEmpty ? "rotor" : out
    }

    /// One rotor action on the node that declares the rotor.
    package struct Action: Sendable, Equatable {
        /// The rotor's name as the app declared it (what `RotorEngine.step` takes).
        package var rotor: String
        package var direction: RotorDirection
        /// Stable machine name: `next-<slug>` / `previous-<slug>` (a repeated slug on one node gets `-2`, `-3`…).
        package var name: String
        /// "Next Warnings" / "Previous Warnings".
        package var localizedName: String
    }

    /// The rotor actions of `node`: for each custom rotor it declares (in its order), next then previous.
    package static func actions(of node: AXNode) -> [Action] {
        var out: [Action] = []
        var used = Set<String>()
        for rotor in node.rotors {
            let base = slug(rotor.name)
            var suffix = base
            var repeatCount = 1
            while !used.insert(suffix).inserted {
                repeatCount += 1
                suffix = "\(base)-\(repeatCount)"
            }
            out.append(
                Action(rotor: rotor.name, direction: .next, name: "next-" + suffix, localizedName: "Next " + rotor.name)
            )
            out.append(
                Action(
                    rotor: rotor.name, direction: .previous, name: "previous-" + suffix,
                    localizedName: "Previous " + rotor.name))
        }
        return out
    }

    /// The membership attributes of an element that belongs to the rotors `names` (from
    /// `RotorIndex.customRotors(listing:)`): `rotors` = the names joined with `,`, and one `rotor-<slug>` = `true`
    /// per rotor, so one Collection attribute rule (`rotor-warnings: true`) finds every member.
    package static func attributes(forRotors names: [String]) -> [(String, String)] {
        guard !names.isEmpty else { return [] }
        var out: [(String, String)] = [(listKey, names.joined(separator: ","))]
        var seen = Set<String>()
        for name in names {
            let key = memberKeyPrefix + slug(name)
            if seen.insert(key).inserted { out.append((key, "true")) }
        }
        return out
    }
}

extension RotorIndex {
    /// The custom rotors (static item lists, D-ROTOR-1) that list `element` as an item target, by name, in document
    /// order of their declaring nodes; each name once. Rotors the app searches (D-ROTOR-5) have no known members.
    package func customRotors(listing element: String) -> [String] {
        customMembership()[element] ?? []
    }
}
