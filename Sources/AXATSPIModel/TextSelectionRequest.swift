import AXCore

/// The caret or selection an AT asks for with `SetCaretOffset`, `SetSelection`, `AddSelection` or
/// `RemoveSelection` (D-TEXT-APP-2): read from the call's arguments, as the range to select (empty: the caret).
package enum TextSelectionRequest {
    /// The D-Bus signature of a selection-changing member, nil for another member.
    package static func signature(of member: String) -> StaticString? {
        switch member {
        case "SetCaretOffset", "RemoveSelection": return "i"
        case "AddSelection": return "ii"
        case "SetSelection": return "iii"
        default: return nil
        }
    }

    /// The range `member` asks for, nil when it asks for nothing the text has: a selection index other than 0 (a
    /// text element has at most one selection), a negative offset, `AddSelection` while a selection exists,
    /// `RemoveSelection` with none. `next` reads the call's next `i` argument; `caret` and `selection` are now's.
    package static func read(
        _ member: String, next: () -> Int32, caret: Int32, selection: Range<Int>?
    ) -> Range<Int>? {
        switch member {
        case "SetCaretOffset":
            let offset = Int(next())
            return offset >= 0 ? offset..<offset : nil
        case "AddSelection":
            guard selection == nil else { return nil }
            return ordered(Int(next()), Int(next()))
        case "SetSelection":
            guard next() == 0 else { return nil }
            return ordered(Int(next()), Int(next()))
        case "RemoveSelection":
            guard next() == 0, selection != nil else { return nil }
            return Int(caret)..<Int(caret)
        default:
            return nil
        }
    }

    /// `start..<end` with the ends in order; nil when one is negative.
    static func ordered(_ start: Int, _ end: Int) -> Range<Int>? {
        guard start >= 0, end >= 0 else { return nil }
        return min(start, end)..<max(start, end)
    }
}

extension TextModel {
    /// `GetTextAtOffset` / `GetTextBeforeOffset` / `GetTextAfterOffset`, by member name (at, for any other).
    package func textRange(_ member: String, _ offset: Int32, boundary: ATSPITextBoundary) -> ATSPITextRange {
        switch member {
        case "GetTextBeforeOffset": return textBeforeOffset(offset, boundary: boundary)
        case "GetTextAfterOffset": return textAfterOffset(offset, boundary: boundary)
        default: return textAtOffset(offset, boundary: boundary)
        }
    }
}
