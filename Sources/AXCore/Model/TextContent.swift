import AXJSON
import AXSchema

// What an app reports about its text beyond the text itself (Specs/decisions.md §Text the app owns: caret,
// attributes, lines; D-TEXT-APP-1…5): the caret and selection it keeps, the attribute runs of its attributed strings
// and the line boxes of text it draws. Offsets count Unicode scalars, as AT-SPI's Text interface does (libatspi
// "characters"), and as a Python `str` indexes; UIKit's NSRange counts UTF-16 units, so a Swift app converts
// (`String.unicodeScalars`).

/// The value of one text attribute, in the form its row of `TextAttributeSchema` declares.
package enum TextAttributeValue: Sendable, Equatable {
    case bool(Bool)
    case string(String)
    case number(Double)

    /// The JSON form.
    package var json: JSON {
        switch self {
        case .bool(let flag): .bool(flag)
        case .string(let text): .string(text)
        case .number(let number): .number(number)
        }
    }
}

/// One attribute of a run: its `TextAttributeSchema` key and value.
package struct TextAttribute: Sendable, Equatable {
    package var key: String
    package var value: TextAttributeValue
    package init(_ key: String, _ value: TextAttributeValue) {
        self.key = key
        self.value = value
    }
}

/// A run of attributed text: a range of Unicode scalars and its attributes, in the schema table's order
/// (D-TEXT-APP-3).
package struct TextAttributeRun: Sendable, Equatable {
    package var range: TextRange
    package var attributes: [TextAttribute]
    package init(range: TextRange, attributes: [TextAttribute]) {
        self.range = range
        self.attributes = attributes
    }

    /// The value of `key`, nil when the run does not set it.
    package func value(_ key: String) -> TextAttributeValue? { attributes.first { $0.key == key }?.value }

    /// Whether the run sets the Boolean attribute `key` to true (bold, italic, underline, misspelled…).
    package func isOn(_ key: String) -> Bool { value(key) == .bool(true) }
}

/// One line of text a view draws itself (`UIAccessibilityReadingContent`, R93; D-TEXT-APP-4).
package struct ReadingLine: Sendable, Equatable {
    /// `accessibilityLineNumber(for:)`: the line's number (its position when the app sends none).
    package var lineNumber: Int
    /// `accessibilityContent(forLineNumber:)`.
    package var content: String
    /// `accessibilityFrame(forLineNumber:)`: as sent, relative to the element's frame; in the tree, in screen
    /// coordinates.
    package var frame: Rect
    package init(lineNumber: Int, content: String, frame: Rect) {
        self.lineNumber = lineNumber
        self.content = content
        self.frame = frame
    }
}

/// `UIAccessibilityReadingContent` as a view sends it (R93; D-TEXT-APP-4).
package struct ReadingContent: Sendable, Equatable {
    package var lines: [ReadingLine]
    /// `accessibilityPageContent()`.
    package var pageContent: String?
    package init(lines: [ReadingLine], pageContent: String? = nil) {
        self.lines = lines
        self.pageContent = pageContent
    }
}

/// The text state of an element that its app reports (D-TEXT-APP-1…4), clamped to the element's text.
package struct AXTextContent: Sendable, Equatable {
    /// `selectedTextRange`: the app's caret (length 0) or selection, within the element's text; nil when the app
    /// reports none (then the server's caret, D-KEYOP-5, or the default: the end of a text input).
    package var selectedRange: TextRange?
    /// The attribute runs of the element's text (the attributed form of the string its Text interface shows),
    /// in order, clamped to the text, without empty runs (D-TEXT-APP-3).
    package var runs: [TextAttributeRun] = []
    /// The lines the view draws, in line-number order, frames in screen coordinates (D-TEXT-APP-4).
    package var lines: [ReadingLine] = []
    /// The page's text (`accessibilityPageContent`), when sent.
    package var pageContent: String?

    package init(selectedRange: TextRange? = nil) {
        self.selectedRange = selectedRange
    }

    /// Nothing reported.
    package var isEmpty: Bool { selectedRange == nil && runs.isEmpty && lines.isEmpty && pageContent == nil }

    /// The line the app numbered `number` (`accessibilityContent(forLineNumber:)`, R93): the app's own line
    /// numbers, which need not start at 0 nor be contiguous; nil when no line has it (UIKit's nil content).
    package func line(numbered number: Int) -> ReadingLine? { lines.first { $0.lineNumber == number } }

    /// The line whose frame holds `point` (`accessibilityLineNumber(for:)`, R93); nil is UIKit's NSNotFound.
    package func line(at point: Point) -> ReadingLine? { lines.first { $0.frame.contains(point) } }

    /// The caret: the end of the selection (UITextRange has no direction; D-TEXT-APP-1), nil when none reported.
    package var caret: Int? { selectedRange.map { $0.location + $0.length } }

    /// The selected scalars, nil when there is no selection (a caret only, or nothing reported).
    package var selection: Range<Int>? {
        guard let range = selectedRange, range.length > 0 else { return nil }
        return range.location..<(range.location + range.length)
    }

    /// Adds what `view` reports about its text to its element `node` (nothing when it reports nothing). An element
    /// whose text is empty but which sends reading content shows the page (or its lines, one per line) as its text.
    static func apply(_ view: ViewNode, to node: inout AXNode) {
        if view.control.isSecureTextEntry {
            // D-SECURE-1: a secure entry's text is bullets; its runs, reading content and attributed strings
            // would carry the secret, so only the caret and selection (offsets into the bullets) are kept.
            guard let range = view.control.selectedTextRange else { return }
            let count = node.text?.unicodeScalars.count ?? 0
            node.textContent = AXTextContent(selectedRange: clamp(range, to: count))
            return
        }
        apply(view.ax, control: view.control, to: &node)
    }

    /// The same for a virtual element (its accessibility properties only: attributed label and value, reading
    /// content) or a view (`control`: its selected range and `attributedText` too).
    static func apply(_ ax: AccessibilityProperties, control: ControlState?, to node: inout AXNode) {
        let reading = ax.readingContent
        guard
            control?.selectedTextRange != nil || control?.attributedText != nil || ax.attributedLabel != nil
                || ax.attributedValue != nil || reading != nil
        else { return }
        // The reading content is the element's text (D-TEXT-APP-4) unless the element has text of its own: a text
        // derived from its label alone (every element that is not a text input or text view) gives way, so a
        // labelled page ("Page 12") still shows its lines to AT-SPI's Text, and the label stays its name.
        if let reading, (node.text ?? "").isEmpty || node.text == ax.label {
            node.text = reading.pageContent ?? reading.lines.map(\.content).joined(separator: "\n")
        }
        let count = node.text?.unicodeScalars.count ?? 0
        var content = AXTextContent(selectedRange: control?.selectedTextRange.map { clamp($0, to: count) })
        content.runs = (attributeRuns(ax, control: control, node: node) ?? []).compactMap { run in
            let range = clamp(run.range, to: count)
            return range.length > 0 ? TextAttributeRun(range: range, attributes: run.attributes) : nil
        }.sorted { $0.range.location < $1.range.location }
        if let reading {
            content.lines = reading.lines.map { line in
                ReadingLine(
                    lineNumber: line.lineNumber, content: line.content, frame: screenFrame(line.frame, in: node))
            }.sorted { $0.lineNumber < $1.lineNumber }
            content.pageContent = reading.pageContent
        }
        if !content.isEmpty { node.textContent = content }
    }

    /// The runs of the string the element's Text interface shows: for a text input or a read-only text view (whose
    /// text is the value) `accessibilityAttributedValue`, for any other element `accessibilityAttributedLabel` —
    /// else `attributedText` when that string is the view's `text` (no label or value of its own).
    static func attributeRuns(_ ax: AccessibilityProperties, control: ControlState?, node: AXNode)
        -> [TextAttributeRun]?
    {
        let showsValue =
            [.textField, .secureTextField, .searchField, .textView].contains(node.role)
            || (node.viewClass == .textView && node.role == .staticText)
        if showsValue { return ax.attributedValue ?? (ax.value == nil ? control?.attributedText : nil) }
        return ax.attributedLabel ?? (ax.label == nil ? control?.attributedText : nil)
    }

    static func clamp(_ range: TextRange, to count: Int) -> TextRange {
        let location = min(max(range.location, 0), count)
        return TextRange(location: location, length: min(max(range.length, 0), count - location))
    }

    /// A line frame sent relative to the element's frame, in screen coordinates.
    static func screenFrame(_ frame: Rect, in node: AXNode) -> Rect {
        Rect(x: node.frame.x + frame.x, y: node.frame.y + frame.y, width: frame.width, height: frame.height)
    }
}

extension AXNode {
    /// What the app reports about the element's text (D-TEXT-APP-1…4), nil when nothing.
    package var textContent: AXTextContent? {
        _read { yield extras.textContent }
        set { extras.textContent = newValue }
    }
}

/// The attribute names of the change log (`tree.changed` `updated`) for the text content.
func changedTextContentAttributes(_ old: AXNode, _ new: AXNode, into changed: inout Set<String>) {
    guard old.textContent != new.textContent else { return }
    if old.textContent?.selectedRange != new.textContent?.selectedRange { changed.insert("selectedTextRange") }
    if old.textContent?.runs != new.textContent?.runs { changed.insert("textAttributes") }
    if old.textContent?.lines != new.textContent?.lines || old.textContent?.pageContent != new.textContent?.pageContent
    {
        changed.insert("readingContent")
    }
}

// MARK: Decoding (NodeCoding's cases call these)

/// `selectedTextRange`: `[location, length]` (or `{location, length}`), both ≥ 0; null is none (D-TEXT-APP-1).
func decodeSelectedTextRange(_ value: JSON, field: Field) throws(SchemaError) -> TextRange? {
    guard let range = try field.optionalRange(value) else { return nil }
    guard range.location >= 0, range.length >= 0 else {
        throw field.fail("selectedTextRange is [location, length] with both ≥ 0 (Unicode scalars of the text)")
    }
    return range
}

/// `attributedText`, `accessibilityAttributedLabel`, `accessibilityAttributedValue`: runs
/// `[{range: [location, length], attributes: {…}}]` whose attribute keys and forms are `TextAttributeSchema`'s; null
/// is none (D-TEXT-APP-3).
func decodeAttributeRuns(_ value: JSON, field: Field) throws(SchemaError) -> [TextAttributeRun]? {
    guard !value.isNull else { return nil }
    var runs: [TextAttributeRun] = []
    for (index, element) in try field.array(value).enumerated() {
        let runField = field.element(index)
        let object = try runField.object(element)
        for key in object.keys where key != "range" && key != "attributes" {
            throw runField.fail("unknown key '\(key)' (a run is {range, attributes})")
        }
        guard let rangeValue = object["range"] else { throw runField.fail("a run needs a 'range' [location, length]") }
        let range = try runField.range(rangeValue)
        guard range.location >= 0, range.length >= 0 else { throw runField.fail("range values must not be negative") }
        let attributes = try object["attributes"].map { value throws(SchemaError) in
            try decodeTextAttributes(value, field: Field(id: field.id, key: "\(runField.key).attributes"))
        }
        runs.append(TextAttributeRun(range: range, attributes: attributes ?? []))
    }
    try refuseOverlaps(runs, field: field)
    return runs
}

/// An attributed string gives each character one set of attributes (NSAttributedString), so runs never overlap;
/// overlapping runs would leave AT-SPI's `GetAttributeRun` reporting one of them inside the other (D-TEXT-APP-3).
/// Refused, naming both runs and how to send them.
func refuseOverlaps(_ runs: [TextAttributeRun], field: Field) throws(SchemaError) {
    let order = runs.indices.sorted { runs[$0].range.location < runs[$1].range.location }
    var previous: Int?
    for index in order where runs[index].range.length > 0 {
        if let before = previous {
            let end = runs[before].range.location + runs[before].range.length
            if runs[index].range.location < end {
                throw field.fail(
                    "runs [\(before)] and [\(index)] overlap at \(runs[index].range.location): each character has one set of attributes; split them into runs that do not overlap, merging the attributes of the shared part"
                )
            }
        }
        previous = index
    }
}

/// One attributed string (an entry of `accessibilityAttributedUserInputLabels`): its text and its runs.
package struct AttributedText: Sendable, Equatable {
    package var text: String
    package var runs: [TextAttributeRun]
    package init(text: String, runs: [TextAttributeRun]) {
        self.text = text
        self.runs = runs
    }
}

/// `accessibilityAttributedUserInputLabels`: `[{text, runs?}]`, runs as `decodeAttributeRuns` reads them and within
/// the text; null is none (D-TEXT-APP-7).
func decodeAttributedTexts(_ value: JSON, field: Field) throws(SchemaError) -> [AttributedText]? {
    guard !value.isNull else { return nil }
    var out: [AttributedText] = []
    for (index, element) in try field.array(value).enumerated() {
        let itemField = field.element(index)
        let object = try itemField.object(element)
        for key in object.keys where key != "text" && key != "runs" {
            throw itemField.fail("unknown key '\(key.prefix(64))' (an attributed input label is {text, runs})")
        }
        guard let textValue = object["text"] else { throw itemField.fail("an attributed input label needs 'text'") }
        let text = try itemField.string(textValue)
        let runsField = Field(id: field.id, key: "\(itemField.key).runs")
        var runs: [TextAttributeRun] = []
        if let runsValue = object["runs"] { runs = try decodeAttributeRuns(runsValue, field: runsField) ?? [] }
        let length = text.unicodeScalars.count
        for run in runs where run.range.location + run.range.length > length {
            throw runsField.fail(
                "a run ends at \(run.range.location + run.range.length), past the text's \(length) scalars")
        }
        out.append(AttributedText(text: text, runs: runs))
    }
    return out
}

/// A run's `attributes`: each key a row of `TextAttributeSchema`, its value in the row's form (language: BCP 47;
/// colours: `#RRGGBB` / `#RGB`; font size > 0).
func decodeTextAttributes(_ value: JSON, field: Field) throws(SchemaError) -> [TextAttribute] {
    let object = try field.object(value)
    var attributes: [TextAttribute] = []
    for row in TextAttributeSchema.attributes {
        guard let given = object[row.key], !given.isNull else { continue }
        attributes.append(TextAttribute(row.key, try decodeTextAttribute(row, given, field: field)))
    }
    for key in object.keys where TextAttributeSchema.attribute(named: key) == nil {
        let known = TextAttributeSchema.attributes.map(\.key).joined(separator: ", ")
        throw field.fail("unknown text attribute '\(key.prefix(64))' (known: \(known))")
    }
    return attributes
}

/// One attribute's value, checked against its row.
func decodeTextAttribute(_ row: TextAttributeProperty, _ value: JSON, field: Field) throws(SchemaError)
    -> TextAttributeValue
{
    let attributeField = Field(id: field.id, key: "\(field.key).\(row.key)")
    switch row.form {
    case .boolean: return .bool(try attributeField.bool(value))
    case .number:
        let number = try attributeField.number(value)
        guard row.key != "fontSize" || (number > 0 && number < 10_000) else {
            throw attributeField.fail("fontSize must be within (0, 10000) points")
        }
        return .number(number)
    default:
        let text = try attributeField.string(value)
        if row.key == "language", !LanguageTag.isWellFormed(text) {
            throw attributeField.fail("'\(text.prefix(64))' is not a well-formed BCP 47 language tag")
        }
        if row.key.hasSuffix("Color"), RGBColor(hex: text) == nil {
            throw attributeField.fail("expected an opaque colour \"#RRGGBB\" or \"#RGB\"")
        }
        return .string(text)
    }
}

/// `accessibilityReadingContent`: `{lines: [{lineNumber?, content, frame}], pageContent?}`; null is none
/// (R93; D-TEXT-APP-4).
func decodeReadingContent(_ value: JSON, field: Field) throws(SchemaError) -> ReadingContent? {
    guard !value.isNull else { return nil }
    let object = try field.object(value)
    for key in object.keys where key != "lines" && key != "pageContent" {
        throw field.fail("unknown key '\(key)' (reading content is {lines, pageContent})")
    }
    var lines: [ReadingLine] = []
    let given: [JSON] = try field.member(object, "lines", field.array) ?? []
    for (index, element) in given.enumerated() {
        let lineField = Field(id: field.id, key: "\(field.key).lines[\(index)]")
        let line = try lineField.object(element)
        guard let content = line["content"], let frame = line["frame"] else {
            throw lineField.fail("a line needs 'content' and 'frame'")
        }
        let number = try lineField.member(line, "lineNumber", lineField.int) ?? index
        guard number >= 0 else { throw lineField.fail("lineNumber must not be negative") }
        lines.append(
            ReadingLine(lineNumber: number, content: try lineField.string(content), frame: try lineField.rect(frame)))
    }
    return ReadingContent(
        lines: lines, pageContent: try field.member(object, "pageContent", field.optionalString) ?? nil)
}

// MARK: Lines the app draws, placed in the text (D-TEXT-APP-4)

extension AXTextContent {
    /// The scalar ranges of the app's lines in `text`, in order: each line at its next occurrence from the end of the
    /// line before (skipping the newline or spaces a wrap left between them), else right after it (clamped).
    package func lineRanges(in text: [Unicode.Scalar]) -> [Range<Int>] {
        var position = 0
        var ranges: [Range<Int>] = []
        for line in lines {
            let scalars = Array(line.content.unicodeScalars)
            let start = Self.occurrence(of: scalars, in: text, from: position) ?? min(position, text.count)
            let end = start + min(scalars.count, text.count - start)
            ranges.append(start..<end)
            position = end
        }
        return ranges
    }

    /// The first index at or after `position` where `needle` starts, nil when it does not occur.
    static func occurrence(of needle: [Unicode.Scalar], in text: [Unicode.Scalar], from position: Int) -> Int? {
        guard !needle.isEmpty, position <= text.count - needle.count else { return nil }
        for start in position...(text.count - needle.count) where text[start] == needle[0] {
            if text[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    /// Where a line motion (Home, End, Up, Down) takes the caret over the app's lines, nil for another motion or
    /// without lines: the caret's line is the last one starting at or before it; Up/Down keep the column, clamped to
    /// the target line's end (D-TEXT-APP-4, D-KEYOP-5).
    package func lineTarget(of motion: TextMotion, from caret: Int, in text: [Unicode.Scalar]) -> Int? {
        let ranges = lineRanges(in: text)
        guard !ranges.isEmpty else { return nil }
        let index = ranges.lastIndex { $0.lowerBound <= caret } ?? 0
        let line = ranges[index]
        let column = max(caret - line.lowerBound, 0)
        switch motion {
        case .lineStart: return line.lowerBound
        case .lineEnd: return line.upperBound
        case .lineUp:
            guard index > 0 else { return 0 }
            return min(ranges[index - 1].lowerBound + column, ranges[index - 1].upperBound)
        case .lineDown:
            guard index + 1 < ranges.count else { return text.count }
            return min(ranges[index + 1].lowerBound + column, ranges[index + 1].upperBound)
        case .characterBackward, .characterForward, .wordBackward, .wordForward, .documentStart, .documentEnd:
            return nil
        }
    }
}
