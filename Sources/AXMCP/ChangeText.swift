import AXJSON

/// The bounded text of a change set (`tree.diff` / `hierarchy.update`'s `changes`): one line per changed element,
/// `~` updated (with the changed attributes), `+` added, `-` removed, `>` moved, at most `maxLines` element lines and
/// about `maxBytes` bytes; the rest is counted with the `changes since=` call that lists it.
package enum ChangeText {
    /// One changed element: its id, the kind of change, the attributes that changed, and its line now (nil when
    /// it is gone or was not looked up).
    package struct Entry: Sendable, Equatable {
        package var id: String
        package var mark: Character
        package var attributes: [String]
        package var line: String?

        package init(id: String, mark: Character, attributes: [String] = [], line: String? = nil) {
            self.id = id
            self.mark = mark
            self.attributes = attributes
            self.line = line
        }
    }

    /// The entries of a change set, in the order shown: updated, added, moved, removed (each in the server's order).
    package static func entries(of changes: JSON) -> [Entry] {
        var out: [Entry] = []
        if let updated = changes["updated"]?.objectValue {
            for (id, attributes) in updated {
                let names = (attributes.arrayValue ?? []).compactMap(\.stringValue)
                out.append(Entry(id: id, mark: "~", attributes: names))
            }
        }
        for (key, mark) in [("added", Character("+")), ("moved", ">"), ("removed", "-")] {
            for id in (changes[key]?.arrayValue ?? []).compactMap(\.stringValue) {
                out.append(Entry(id: id, mark: mark))
            }
        }
        return out
    }

    /// The text: `headline`, then the entries (bounded), then what was left out and how to see it.
    package static func text(
        headline: String, entries: [Entry], windowsChanged: Bool, since: Int?, maxLines: Int, maxBytes: Int
    ) -> String {
        var out = headline
        if entries.isEmpty && !windowsChanged {
            out += "\nno change"
            return out
        }
        if windowsChanged { out += "\nwindows changed" }
        var shown = 0
        for entry in entries {
            var line = "\n\(entry.mark) "
            line += entry.line ?? entry.id
            let interesting = entry.attributes.filter { $0 != "states" || entry.attributes.count == 1 }
            if entry.mark == "~", !interesting.isEmpty {
                line += " {" + interesting.prefix(6).joined(separator: ",") + "}"
            }
            if shown >= maxLines || out.utf8.count + line.utf8.count > maxBytes { break }
            out += line
            shown += 1
        }
        if shown < entries.count {
            out += "\n… \(entries.count - shown) more"
            if let since { out += ": changes since=\(since)" }
        }
        return out
    }
}
