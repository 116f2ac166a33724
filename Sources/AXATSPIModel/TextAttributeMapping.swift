import AXCore

/// The attribute runs of an element's text on AT-SPI (D-TEXT-APP-3): `Text.GetAttributeRun` / `GetAttributes` /
/// `GetAttributeValue` with GTK's attribute names and values (what Orca's text attribute presentation reads).
package enum TextAttributeMapping {
    /// GTK's name and value of a run attribute (`weight:700`, `style:italic`, `underline:single`,
    /// `strikethrough:true`, `invalid:spelling`, `language`, `size`, `family-name`, `fg-color`/`bg-color` as
    /// `r,g,b`); nil for the speech-only attributes (spellOut, punctuation, pitch: no AT-SPI counterpart).
    package static func gtk(_ attribute: TextAttribute) -> (String, String)? {
        switch attribute.value {
        case .bool(let on):
            guard let (name, onValue, offValue) = booleanNames[attribute.key] else { return nil }
            return (name, on ? onValue : offValue)
        case .string(let text):
            if attribute.key.hasSuffix("Color") {
                guard let color = RGBColor(hex: text) else { return nil }
                let name = attribute.key == "foregroundColor" ? "fg-color" : "bg-color"
                return (name, "\(color.red),\(color.green),\(color.blue)")
            }
            return stringNames[attribute.key].map { ($0, text) }
        case .number(let number):
            return attribute.key == "fontSize" ? ("size", formatted(number)) : nil
        }
    }

    /// The Boolean run attributes: GTK's name, its value when on, when off.
    static let booleanNames: [String: (String, String, String)] = [
        "bold": ("weight", "700", "400"), "italic": ("style", "italic", "normal"),
        "underline": ("underline", "single", "none"), "strikethrough": ("strikethrough", "true", "false"),
        "misspelled": ("invalid", "spelling", "none"),
    ]

    /// The string run attributes GTK names as they are.
    static let stringNames: [String: String] = ["language": "language", "fontFamily": "family-name"]

    /// A point size without a needless fraction (`12`, `10.5`).
    static func formatted(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e9 ? String(Int(number)) : String(number)
    }

    /// The AT-SPI attributes of one run.
    package static func attributes(of run: TextAttributeRun) -> [(String, String)] {
        run.attributes.compactMap(gtk)
    }

    /// `GetAttributeRun(offset, includeDefaults)`: the attributes at `offset` and the range over which they hold —
    /// a run, or the gap between two runs (no attributes of its own); with `includeDefaults` the element's default
    /// attributes come first and the run's override them. An offset outside the text: its clamped position.
    package static func run(at offset: Int32, of node: AXNode, count: Int, includeDefaults: Bool)
        -> (attributes: [(String, String)], start: Int32, end: Int32)
    {
        let position = min(max(Int(offset), 0), count)
        let runs = node.textContent?.runs ?? []
        var start = 0
        var end = count
        var own: [(String, String)] = []
        for run in runs {
            let runEnd = run.range.location + run.range.length
            if run.range.location <= position && position < runEnd {
                (start, end, own) = (run.range.location, runEnd, attributes(of: run))
                break
            }
            if runEnd <= position { start = max(start, runEnd) } else { end = min(end, run.range.location) }
        }
        let defaults = includeDefaults ? TextModel.defaultAttributes(of: node) : []
        let merged = defaults.filter { name, _ in !own.contains { $0.0 == name } } + own
        return (merged, Int32(clamping: start), Int32(clamping: end))
    }

    /// `GetAttributeValue(offset, name)`: the run's (or default) value of the GTK attribute `name`, "" when unset.
    package static func value(at offset: Int32, named name: String, of node: AXNode, count: Int) -> String {
        run(at: offset, of: node, count: count, includeDefaults: true).attributes.first { $0.0 == name }?.1 ?? ""
    }
}
