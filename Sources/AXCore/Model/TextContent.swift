import AXJSON

// What an app reports about its text beyond the text itself (Specs/decisions.md §Text the app owns: caret,
// attributes, lines; D-TEXT-APP-1…): the caret and selection it keeps. Offsets count Unicode scalars, as AT-SPI's
// Text interface does (libatspi "characters"), and as a Python `str` indexes; UIKit's NSRange counts UTF-16 units, so
// a Swift app converts (`String.unicodeScalars`).

/// The text state of an element that its app reports (D-TEXT-APP-1), clamped to the element's text.
package struct AXTextContent: Sendable, Equatable {
    /// `selectedTextRange`: the app's caret (length 0) or selection, within the element's text; nil when the app
    /// reports none (then the server's caret, D-KEYOP-5, or the default: the end of a text input).
    package var selectedRange: TextRange?

    package init(selectedRange: TextRange? = nil) {
        self.selectedRange = selectedRange
    }

    /// Nothing reported.
    package var isEmpty: Bool { selectedRange == nil }

    /// The caret: the end of the selection (UITextRange has no direction; D-TEXT-APP-1), nil when none reported.
    package var caret: Int? { selectedRange.map { $0.location + $0.length } }

    /// The selected scalars, nil when there is no selection (a caret only, or nothing reported).
    package var selection: Range<Int>? {
        guard let range = selectedRange, range.length > 0 else { return nil }
        return range.location..<(range.location + range.length)
    }

    /// The text content of a view whose element shows `text` (nil when the view reports nothing): the range is
    /// clamped to the text (an app that shortens its text before moving its caret never shows a caret past the end).
    static func resolve(_ view: ViewNode, text: String?) -> AXTextContent? {
        guard let range = view.control.selectedTextRange else { return nil }
        let count = text?.unicodeScalars.count ?? 0
        let location = min(max(range.location, 0), count)
        let length = min(max(range.length, 0), count - location)
        return AXTextContent(selectedRange: TextRange(location: location, length: length))
    }
}

extension AXNode {
    /// What the app reports about the element's text (D-TEXT-APP-1), nil when nothing.
    package var textContent: AXTextContent? {
        _read { yield extras.textContent }
        set { extras.textContent = newValue }
    }
}

/// The attribute names of the change log (`tree.changed` `updated`) for the text content.
func changedTextContentAttributes(_ old: AXNode, _ new: AXNode, into changed: inout Set<String>) {
    guard old.textContent != new.textContent else { return }
    if old.textContent?.selectedRange != new.textContent?.selectedRange { changed.insert("selectedTextRange") }
}

/// `selectedTextRange`: `[location, length]` (or `{location, length}`), both ≥ 0; null is none (D-TEXT-APP-1).
func decodeSelectedTextRange(_ value: JSON, field: Field) throws(SchemaError) -> TextRange? {
    guard let range = try field.optionalRange(value) else { return nil }
    guard range.location >= 0, range.length >= 0 else {
        throw field.fail("selectedTextRange is [location, length] with both ≥ 0 (Unicode scalars of the text)")
    }
    return range
}
