import AXCore
import AXJSON

/// The element fields of the text content an app reports (D-TEXT-APP-1…4; Specs/protocol.md §Common shapes,
/// element): `selectedTextRange: [location, length]`, `textAttributes: [{range, attributes}]` (the runs of the
/// element's `text`) and `readingContent: {lines: [{lineNumber, content, frame}], pageContent?}` (screen frames).
enum TextContentJSON {
    static func append(_ node: AXNode, to object: inout JSONObject) {
        guard let content = node.textContent else { return }
        if let range = content.selectedRange {
            object.appendUnchecked("selectedTextRange", Self.range(range))
        }
        if !content.runs.isEmpty {
            object.appendUnchecked("textAttributes", .array(content.runs.map(run)))
        }
        if !content.lines.isEmpty || content.pageContent != nil {
            var reading: JSONObject = ["lines": .array(content.lines.map(line))]
            if let page = content.pageContent { reading["pageContent"] = .string(page) }
            object.appendUnchecked("readingContent", .object(reading))
        }
    }

    static func range(_ range: TextRange) -> JSON { [JSON(range.location), JSON(range.length)] }

    static func run(_ run: TextAttributeRun) -> JSON {
        let attributes = JSONObject(run.attributes.map { ($0.key, $0.value.json) })
        return ["range": range(run.range), "attributes": .object(attributes)]
    }

    static func line(_ line: ReadingLine) -> JSON {
        [
            "lineNumber": JSON(line.lineNumber), "content": .string(line.content),
            "frame": ElementJSON.rect(line.frame),
        ]
    }
}
