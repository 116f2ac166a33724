/// The four system rotors over text attributes (`boldText`, `italicText`, `underlineText`, `misspelledWord`; X27):
/// their items are the runs the apps report (D-TEXT-APP-3), `{target, range}` in document order then text order.
package enum TextAttributeRotors {
    /// Rotor name → the run attribute that makes a run an item.
    package static let attributeOfRotor: [String: String] = [
        "boldText": "bold", "italicText": "italic", "underlineText": "underline", "misspelledWord": "misspelled",
    ]

    /// The rotor names, in `rotor.list` order.
    package static let names = ["boldText", "italicText", "underlineText", "misspelledWord"]

    /// The items of rotor `name` in the tree (empty for another name).
    package static func items(_ name: String, index: RotorIndex) -> [RotorItem] {
        guard let attribute = attributeOfRotor[name] else { return [] }
        var items: [RotorItem] = []
        for id in index.order {
            guard let runs = index.tree[id]?.textContent?.runs, !runs.isEmpty else { continue }
            for run in runs where run.isOn(attribute) {
                items.append(RotorItem(target: id, range: run.range))
            }
        }
        return items
    }
}

extension RotorEngine {
    /// The text-attribute rotors with items, for `list` (D-TEXT-APP-3).
    func textAttributeRotorInfos(excluding custom: Set<String>) -> [RotorInfo] {
        TextAttributeRotors.names.compactMap { name in
            guard !custom.contains(name) else { return nil }
            let count = TextAttributeRotors.items(name, index: index).count
            guard count > 0 else { return nil }
            return RotorInfo(
                name: name, systemType: SystemRotors.systemType(of: name), source: .system, declaredBy: nil,
                count: count)
        }
    }

    /// A step of a text-attribute rotor, nil for another name: the run after (or before) the current item.
    func stepTextAttributeRotor(_ name: String, from current: RotorItem?, direction: RotorDirection) -> RotorStep? {
        guard TextAttributeRotors.attributeOfRotor[name] != nil else { return nil }
        let items = TextAttributeRotors.items(name, index: index)
        let info = RotorInfo(
            name: name, systemType: SystemRotors.systemType(of: name), source: .system, declaredBy: nil,
            count: items.count)
        return stepCustom(items, info: info, from: current, direction: direction)
    }
}
