import AXJSON

/// `UIAccessibilityReadingContent` of an element (seed 000:55696–55714; R92, R93; D-READ-1): the text of each line
/// with its on-screen frame, and the text of the current page. The attributed variants are optional (R93) and not
/// mirrored (D-NA-1).
package struct ReadingContent: Sendable, Equatable {
    /// One line: its text and its frame on screen (`accessibilityFrame(forLineNumber:)`).
    package struct Line: Sendable, Equatable {
        package var text: String
        package var frame: Rect
        package init(text: String, frame: Rect) {
            self.text = text
            self.frame = frame
        }
    }

    package var lines: [Line]
    /// `accessibilityPageContent()`; nil: the lines' texts joined by newlines.
    package var pageContent: String?

    package init(lines: [Line], pageContent: String? = nil) {
        self.lines = lines
        self.pageContent = pageContent
    }

    /// `accessibilityLineNumber(for:)`, the one required method: the first line whose frame contains the point
    /// (screen coordinates); nil where UIKit answers NSNotFound.
    package func lineNumber(at point: Point) -> Int? {
        lines.firstIndex { $0.frame.contains(point) }
    }

    /// `accessibilityPageContent()`: as set, else every line.
    package var page: String { pageContent ?? lines.map(\.text).joined(separator: "\n") }
}

/// Decodes `accessibilityReadingContent`: null, or `{lines: [{text, frame}], pageContent?}` (frames in screen
/// coordinates, as `accessibilityFrame`).
func decodeReadingContent(_ value: JSON, field: Field) throws(SchemaError) -> ReadingContent? {
    if value.isNull { return nil }
    let object = try field.object(value)
    let linesField = Field(id: field.id, key: field.key + ".lines")
    var lines: [ReadingContent.Line] = []
    for (index, element) in try linesField.array(object["lines"] ?? .array([])).enumerated() {
        let lineField = linesField.element(index)
        let line = try lineField.object(element)
        guard let text = try lineField.member(line, "text", lineField.string) else {
            throw lineField.fail("a line needs 'text'")
        }
        guard let frame = try lineField.member(line, "frame", lineField.rect) else {
            throw lineField.fail("a line needs 'frame' (screen coordinates)")
        }
        lines.append(ReadingContent.Line(text: text, frame: frame))
    }
    let page = try field.member(object, "pageContent", field.optionalString) ?? nil
    return ReadingContent(lines: lines, pageContent: page)
}
