import AXCore
import AXJSON

/// `AtspiTextBoundaryType` (GetTextAtOffset/BeforeOffset/AfterOffset).
package enum ATSPITextBoundary: UInt32, Sendable, CaseIterable {
    case character = 0
    case wordStart = 1
    case wordEnd = 2
    case sentenceStart = 3
    case sentenceEnd = 4
    case lineStart = 5
    case lineEnd = 6

    /// The wire value's boundary; values past LINE_END count as LINE_START (as the bridge always did).
    package init(wireValue: UInt32) { self = ATSPITextBoundary(rawValue: wireValue) ?? .lineStart }
}

/// `AtspiTextGranularity` (GetStringAtOffset).
package enum ATSPITextGranularity: UInt32, Sendable, CaseIterable {
    case character = 0
    case word = 1
    case sentence = 2
    case line = 3
    case paragraph = 4

    /// The wire value's granularity; unknown values count as paragraphs.
    package init(wireValue: UInt32) { self = ATSPITextGranularity(rawValue: wireValue) ?? .paragraph }
}

/// A piece of text and its offsets (`(sii)` replies).
package struct ATSPITextRange: Sendable, Equatable {
    package var text: String
    package var start: Int32
    package var end: Int32

    package init(text: String, start: Int32, end: Int32) {
        self.text = text
        self.start = start
        self.end = end
    }
}

/// Answers of `org.a11y.atspi.Text` for one node. Offsets count Unicode scalars (what libatspi calls
/// characters).
package struct TextModel {
    /// The node's text content (`ATSPIMapping.text`) as scalars.
    package let content: [Unicode.Scalar]

    /// The text of `node`.
    package init(node: AXNode) { content = Array(ATSPIMapping.text(node).unicodeScalars) }

    /// Text given directly (tests, events).
    package init(text: String) { content = Array(text.unicodeScalars) }

    /// `CharacterCount`.
    package var characterCount: Int { content.count }

    /// The text between two offsets already within bounds (empty when `start >= end`).
    func substring(_ start: Int, _ end: Int) -> String {
        guard start < end else { return "" }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: content[start..<end])
        return String(scalars)
    }

    func range(_ bounds: (start: Int, end: Int)) -> ATSPITextRange {
        ATSPITextRange(
            text: substring(bounds.start, bounds.end), start: Int32(clamping: bounds.start),
            end: Int32(clamping: bounds.end))
    }

    /// `GetText(start, end)`: a negative end means the end of the text.
    package func text(from start: Int32, to end: Int32) -> String {
        let count = content.count
        let lower = start < 0 ? 0 : min(Int(start), count)
        let upper = end < 0 ? count : min(Int(end), count)
        return substring(lower, max(lower, upper))
    }

    /// `GetCharacterAtOffset`: the scalar's value, 0 outside the text.
    package func character(at offset: Int32) -> Int32 {
        guard offset >= 0, Int(offset) < content.count else { return 0 }
        return Int32(bitPattern: content[Int(offset)].value)
    }

    /// `GetStringAtOffset(offset, granularity)`.
    package func string(at offset: Int32, granularity: ATSPITextGranularity) -> ATSPITextRange {
        range(TextBoundaries.range(content, Int(offset), granularity: granularity))
    }

    /// The unit of `boundary` at `offset` (GTK 4's answers: units run from one boundary to the next; at the end
    /// of the text the last unit, or an empty range where the text ends on a boundary of that type).
    func boundaryRange(at offset: Int, boundary: ATSPITextBoundary) -> (start: Int, end: Int) {
        let count = content.count
        guard offset >= 0 else { return (0, 0) }
        guard offset <= count else { return (count, count) }
        switch boundary {
        case .character: return offset < count ? (offset, offset + 1) : (count, count)
        case .wordStart: return unit(around: offset, isBoundary: isWordStart)
        case .wordEnd: return unit(around: offset, isBoundary: isWordEnd)
        case .sentenceStart: return unit(around: offset, isBoundary: isSentenceStart)
        case .sentenceEnd: return unit(around: offset, isBoundary: isSentenceEnd)
        case .lineStart: return unit(around: offset, isBoundary: isLineStart)
        case .lineEnd:
            // From the end of the previous line (its newline included) to this line's end (newline excluded).
            let line = unit(around: offset, isBoundary: isLineStart)
            let start = line.start > 0 ? line.start - 1 : 0
            let end = line.end > line.start && content[line.end - 1] == "\n" ? line.end - 1 : line.end
            return (start, end)
        }
    }

    /// From the last boundary at or before `position` (the text's start when none) to the first boundary after
    /// it (the text's end when none).
    func unit(around position: Int, isBoundary: (Int) -> Bool) -> (start: Int, end: Int) {
        let count = content.count
        var start = position
        while start > 0 && !isBoundary(start) { start -= 1 }
        var end = position + 1
        while end < count && !isBoundary(end) { end += 1 }
        return (start, min(end, count))
    }

    /// Letters, digits and marks make words (punctuation and spaces separate them, as Pango's word breaks do).
    func isWordCharacter(_ index: Int) -> Bool {
        let properties = content[index].properties
        return properties.isAlphabetic || properties.numericType != nil
    }

    func isSpace(_ index: Int) -> Bool { content[index].properties.isWhitespace }

    func isSentenceTerminator(_ index: Int) -> Bool {
        let scalar = content[index]
        return scalar == "." || scalar == "!" || scalar == "?"
    }

    /// A word starts here: a word character after a non-word character (or the text's start).
    func isWordStart(_ position: Int) -> Bool {
        position < content.count && isWordCharacter(position) && (position == 0 || !isWordCharacter(position - 1))
    }

    /// A word ends here: after a word character, before a non-word character (or the text's end).
    func isWordEnd(_ position: Int) -> Bool {
        position > 0 && isWordCharacter(position - 1) && (position == content.count || !isWordCharacter(position))
    }

    /// A sentence starts at the first non-space character after a terminator and spaces, or after a newline.
    func isSentenceStart(_ position: Int) -> Bool {
        guard position > 0, position < content.count, !isSpace(position) else { return false }
        var index = position - 1
        var sawNewline = false
        while index >= 0 && isSpace(index) {
            if content[index] == "\n" { sawNewline = true }
            index -= 1
        }
        if sawNewline { return true }
        return index >= 0 && index < position - 1 && isSentenceTerminator(index)
    }

    /// A sentence ends after a terminator followed by a space, before a newline, or at the text's end.
    func isSentenceEnd(_ position: Int) -> Bool {
        let count = content.count
        guard position > 0, position <= count else { return false }
        if position == count { return true }
        if content[position] == "\n" && !isSpace(position - 1) { return true }
        return isSentenceTerminator(position - 1) && isSpace(position)
    }

    /// A line starts after a newline.
    func isLineStart(_ position: Int) -> Bool {
        position > 0 && position <= content.count && content[position - 1] == "\n"
    }

    /// `GetTextAtOffset(offset, boundary)`: the unit containing the offset.
    package func textAtOffset(_ offset: Int32, boundary: ATSPITextBoundary) -> ATSPITextRange {
        range(boundaryRange(at: Int(offset), boundary: boundary))
    }

    /// `GetTextBeforeOffset(offset, boundary)`: the unit before the one containing the offset.
    package func textBeforeOffset(_ offset: Int32, boundary: ATSPITextBoundary) -> ATSPITextRange {
        let current = boundaryRange(at: Int(offset), boundary: boundary)
        guard current.start > 0 else { return range((0, 0)) }
        return range(boundaryRange(at: current.start - 1, boundary: boundary))
    }

    /// `GetTextAfterOffset(offset, boundary)`: the unit after the one containing the offset.
    package func textAfterOffset(_ offset: Int32, boundary: ATSPITextBoundary) -> ATSPITextRange {
        let current = boundaryRange(at: Int(offset), boundary: boundary)
        guard current.end < content.count else { return range((content.count, content.count)) }
        var next = boundaryRange(at: current.end, boundary: boundary)
        // A line-end unit owns the newline that ends its line: step past it to reach the next unit.
        if next.start < current.end { next = boundaryRange(at: current.end + 1, boundary: boundary) }
        return range(next)
    }

    /// `GetCharacterExtents` / `GetRangeExtents`: the element's extents divided evenly among its characters (the
    /// mirror has no glyph metrics); zero width for an empty or inverted range and past the end.
    package func rangeExtents(from start: Int32, to end: Int32, elementExtents: ATSPIRect) -> ATSPIRect {
        rangeExtents(from: Int(start), to: Int(end), elementExtents: elementExtents)
    }

    /// `GetCharacterExtents`: the extents of the character at `offset`.
    package func characterExtents(at offset: Int32, elementExtents: ATSPIRect) -> ATSPIRect {
        rangeExtents(from: Int(offset), to: Int(offset) + 1, elementExtents: elementExtents)
    }

    /// The lines of a multi-line text: (first offset, length without the newline), in order.
    var lines: [(start: Int, length: Int)] {
        var out: [(start: Int, length: Int)] = []
        var start = 0
        for (index, scalar) in content.enumerated() where scalar == "\n" {
            out.append((start, index - start))
            start = index + 1
        }
        out.append((start, content.count - start))
        return out
    }

    /// D-TEXT-LINES-1: text with line breaks lays each line on its own row. The rows share the element's height
    /// evenly; within a row the characters share the width evenly by the longest line (so columns line up, as in a
    /// monospaced view: the mirror has no glyph metrics). A line's newline sits just after its last character. A
    /// range over several lines is the box around them: full width, from the first row to the last.
    func multiLineExtents(from start: Int, to end: Int, elementExtents: ATSPIRect) -> ATSPIRect {
        let rows = lines
        let longest = max(rows.map(\.length).max() ?? 1, 1)
        let rowHeight = Double(elementExtents.height) / Double(rows.count)
        let characterWidth = Double(elementExtents.width) / Double(longest)
        func position(_ offset: Int) -> (row: Int, column: Int) {
            let row = rows.lastIndex(where: { $0.start <= offset }) ?? 0
            return (row, min(offset - rows[row].start, longest))
        }
        let first = position(min(start, content.count))
        let last = position(min(max(end - 1, start), content.count))
        let top = Double(elementExtents.y) + rowHeight * Double(first.row)
        let bottom = Double(elementExtents.y) + rowHeight * Double(last.row + 1)
        if first.row == last.row {
            let left = Double(elementExtents.x) + characterWidth * Double(first.column)
            let right = Double(elementExtents.x) + characterWidth * Double(min(last.column + 1, longest))
            return ATSPIRect(
                x: clampedInt32(left), y: clampedInt32(top), width: clampedInt32(max(right - left, 0)),
                height: clampedInt32(bottom - top))
        }
        return ATSPIRect(
            x: elementExtents.x, y: clampedInt32(top), width: elementExtents.width, height: clampedInt32(bottom - top))
    }

    func rangeExtents(from start: Int, to end: Int, elementExtents: ATSPIRect) -> ATSPIRect {
        let count = content.count
        guard count > 0, start < end, start >= 0 else {
            return ATSPIRect(x: elementExtents.x, y: elementExtents.y, width: 0, height: elementExtents.height)
        }
        if start < count, content.contains("\n") {
            return multiLineExtents(from: start, to: end, elementExtents: elementExtents)
        }
        let characterWidth = Double(elementExtents.width) / Double(count)
        let left = Double(elementExtents.x) + characterWidth * Double(min(start, count))
        let right = Double(elementExtents.x) + characterWidth * Double(min(end, count))
        return ATSPIRect(
            x: clampedInt32(left), y: elementExtents.y, width: clampedInt32(right - left),
            height: elementExtents.height)
    }

    /// `GetOffsetAtPoint`: the character under a screen point (characters share the frame's width evenly); -1
    /// outside the element or for empty text.
    package func offset(atScreenPoint point: Point, in node: AXNode) -> Int32 {
        let count = content.count
        guard node.frame.contains(point), count > 0, node.frame.width > 0 else { return -1 }
        if content.contains("\n"), node.frame.height > 0 {
            // D-TEXT-LINES-1: the row under the point, then the column in it (its newline past the last character).
            let rows = lines
            let longest = max(rows.map(\.length).max() ?? 1, 1)
            let row = min(
                rows.count - 1, max(0, Int((point.y - node.frame.y) / node.frame.height * Double(rows.count))))
            let column = Int((point.x - node.frame.x) / node.frame.width * Double(longest))
            return Int32(clamping: rows[row].start + min(max(column, 0), rows[row].length))
        }
        let fraction = (point.x - node.frame.x) / node.frame.width * Double(count)
        return Int32(clamping: min(count - 1, max(0, Int(fraction))))
    }

    /// `CaretOffset`: text inputs have the caret at the end (the mirrored app reports no selection); labels 0.
    package static func caretOffset(of node: AXNode) -> Int32 {
        guard ATSPIMapping.isTextInput(node.role) else { return 0 }
        return Int32(clamping: ATSPIMapping.text(node).unicodeScalars.count)
    }

    /// `CaretOffset` with the server's caret for elements it edits by keys (D-KEYOP-5), else `caretOffset(of:)`.
    package static func caretOffset(of node: AXNode, in snapshot: ServedSnapshot) -> Int32 {
        // D-TEXT-APP-1: the caret the app reports wins over the server's.
        if let caret = node.textContent?.caret { return Int32(clamping: caret) }
        if ATSPIMapping.isReadOnlyTextView(node) {
            // A read-only text view's caret starts at 0 and moves with the caret keys (D-KEYOP-5).
            let count = Int32(clamping: ATSPIMapping.text(node).unicodeScalars.count)
            return min(Int32(clamping: snapshot.carets[node.id] ?? 0), count)
        }
        let end = caretOffset(of: node)
        guard let caret = snapshot.carets[node.id] else { return end }
        return min(Int32(clamping: caret), end)
    }

    /// `GetDefaultAttributes`: the node's language, if it has one.
    package static func defaultAttributes(of node: AXNode) -> [(String, String)] {
        guard let language = node.language else { return [] }
        return [("language", language)]
    }
}

/// Text boundaries over Unicode scalars.
package enum TextBoundaries {
    /// The unit of `granularity` containing `offset` (half-open scalar offsets); an empty range at the clamped
    /// offset when it lies outside the text.
    package static func range(_ text: [Unicode.Scalar], _ offset: Int, granularity: ATSPITextGranularity) -> (
        start: Int, end: Int
    ) {
        let count = text.count
        guard offset >= 0, offset < count else {
            let clamped = min(max(offset, 0), count)
            return (clamped, clamped)
        }
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace }
        func endsSentence(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "." || scalar == "!" || scalar == "?" || scalar == "\n"
        }
        switch granularity {
        case .character: return (offset, offset + 1)
        case .word:
            // A word plus its trailing whitespace (ATK's WORD_START convention).
            var start = offset
            if isSpace(text[start]) {
                while start > 0 && isSpace(text[start - 1]) { start -= 1 }
                while start > 0 && !isSpace(text[start - 1]) { start -= 1 }
            } else {
                while start > 0 && !isSpace(text[start - 1]) { start -= 1 }
            }
            var end = max(offset, start)
            while end < count && !isSpace(text[end]) { end += 1 }
            while end < count && isSpace(text[end]) { end += 1 }
            return (start, end)
        case .sentence:
            var start = offset
            while start > 0 && !endsSentence(text[start - 1]) { start -= 1 }
            while start < offset && isSpace(text[start]) { start += 1 }
            var end = offset
            while end < count && !endsSentence(text[end]) { end += 1 }
            if end < count { end += 1 }
            while end < count && text[end] == " " { end += 1 }
            return (start, end)
        case .line, .paragraph:
            var start = offset
            while start > 0 && text[start - 1] != "\n" { start -= 1 }
            var end = offset
            while end < count && text[end] != "\n" { end += 1 }
            if end < count { end += 1 }
            return (start, end)
        }
    }
}

/// A text edit between two versions of a text: the common prefix and suffix kept, the middle deleted and
/// inserted (what `TextChanged` delete/insert events carry).
package struct TextEdit: Sendable, Equatable {
    /// Offset where the texts first differ.
    package var offset: Int
    /// The removed middle part (empty when nothing was removed).
    package var deleted: String
    package var deletedLength: Int
    /// The inserted middle part (empty when nothing was inserted).
    package var inserted: String
    package var insertedLength: Int
    /// Length of the new text (where the caret goes).
    package var newLength: Int

    /// The edit that turns `old` into `new`.
    package init(from old: String, to new: String) {
        let oldScalars = Array(old.unicodeScalars)
        let newScalars = Array(new.unicodeScalars)
        var prefix = 0
        while prefix < oldScalars.count && prefix < newScalars.count && oldScalars[prefix] == newScalars[prefix] {
            prefix += 1
        }
        var suffix = 0
        while suffix < oldScalars.count - prefix && suffix < newScalars.count - prefix
            && oldScalars[oldScalars.count - 1 - suffix] == newScalars[newScalars.count - 1 - suffix]
        {
            suffix += 1
        }
        func string(_ slice: ArraySlice<Unicode.Scalar>) -> String {
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: slice)
            return String(scalars)
        }
        offset = prefix
        deletedLength = max(0, oldScalars.count - suffix - prefix)
        insertedLength = max(0, newScalars.count - suffix - prefix)
        deleted = deletedLength > 0 ? string(oldScalars[prefix..<(oldScalars.count - suffix)]) : ""
        inserted = insertedLength > 0 ? string(newScalars[prefix..<(newScalars.count - suffix)]) : ""
        newLength = newScalars.count
    }
}

/// Answers of `org.a11y.atspi.EditableText`: every edit becomes a request for the app's new text.
package struct EditableTextModel {
    /// The node's current text (its `text`, unmasked).
    package let current: [Unicode.Scalar]

    package init(node: AXNode) { current = Array((node.text ?? "").unicodeScalars) }

    func string(_ slice: ArraySlice<Unicode.Scalar>) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: slice)
        return String(scalars)
    }

    /// `InsertText(position, text, length)`: the first `length` scalars of `text` (all when `length` is negative
    /// or too long) at `position`; typed at the caret when the position is outside the text.
    package func insertText(at position: Int32, text: String, length: Int32) -> ElementAction {
        var inserted = Array(text.unicodeScalars)
        if length >= 0 && Int(length) < inserted.count { inserted = Array(inserted[0..<Int(length)]) }
        let insertion = string(inserted[...])
        guard position >= 0, Int(position) < current.count else { return .typeText(insertion) }
        let index = Int(position)
        return .setValue(.string(string(current[0..<index]) + insertion + string(current[index...])))
    }

    /// `DeleteText(start, end)` / `CutText`: a negative end means the end of the text.
    package func deleteText(from start: Int32, to end: Int32) -> ElementAction {
        let lower = max(0, min(Int(start), current.count))
        let upper = end < 0 ? current.count : max(lower, min(Int(end), current.count))
        return .setValue(.string(string(current[0..<lower]) + string(current[upper...])))
    }
}
