import AXJSON

/// The content of text views and fields: a bounded, larger string limit than other properties, and the `splice`
/// patch op that edits it by range (Specs/hierarchy.md §Patches and §Limits, D-TEXT-SPLICE-1).
package enum EditableTextContent {
    /// The largest `text` of a text input view (`UITextView`, `UITextField`, `UISearchBar`): an editor's whole
    /// file (a 10,000-line source file is about 400 KB), still far below the 16 MiB frame limit.
    package static let maxBytes = 4 << 20

    /// Whether views of `kind` hold editable content whose `text` may reach `maxBytes`.
    package static func allowsLongText(_ kind: ViewClass) -> Bool {
        switch kind {
        case .textView, .textField, .searchBar: return true
        default: return false
        }
    }

    /// `text` replaced in the Unicode-scalar range `location ..< location + length` (AT-SPI's character offsets)
    /// by `replacement`; nil text is empty. Throws `indexOutOfRange` when the range is not inside the text.
    package static func splice(_ text: String?, location: Int, length: Int, replacement: String)
        throws(PatchError) -> String
    {
        let text = text ?? ""
        let scalars = text.unicodeScalars
        guard location >= 0, length >= 0,
            let start = scalars.index(scalars.startIndex, offsetBy: location, limitedBy: scalars.endIndex),
            let end = scalars.index(start, offsetBy: length, limitedBy: scalars.endIndex)
        else {
            throw PatchError(
                kind: .indexOutOfRange, property: "text",
                message: "range {location: \(location), length: \(length)} is outside the text "
                    + "(\(scalars.count) characters)")
        }
        // Whole-substring appends copy UTF-8 bytes; only the offsets are walked character by character.
        var edited = String()
        edited.reserveCapacity(text.utf8.count - text.utf8.distance(from: start, to: end) + replacement.utf8.count)
        edited.append(contentsOf: text[..<start])
        edited.append(contentsOf: replacement)
        edited.append(contentsOf: text[end...])
        return edited
    }
}

extension Field {
    /// The `text` property: `EditableTextContent.maxBytes` for text inputs, the ordinary string limit for other views.
    func textContent(_ value: JSON, of kind: ViewClass) throws(SchemaError) -> String? {
        guard EditableTextContent.allowsLongText(kind), case .string(let text) = value else {
            return try optionalString(value)
        }
        guard text.utf8.count <= EditableTextContent.maxBytes else {
            throw fail("text longer than \(EditableTextContent.maxBytes) bytes (the limit for a text view's content)")
        }
        return text
    }
}
