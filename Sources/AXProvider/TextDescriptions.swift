import AXJSON
import AXSchema

/// One run of attributed text (`attributedText`, `accessibilityAttributedLabel`, `accessibilityAttributedValue`;
/// D-TEXT-APP-3): a range of Unicode scalars and its attributes, each a key of AXSchema's `TextAttributeSchema`
/// (`bold`, `italic`, `underline`, `strikethrough`, `misspelled`, `language`, `fontSize`, …).
public struct TextRunDescription: Sendable, Equatable {
    /// The scalars the run covers.
    public var range: ViewRange
    /// The run's attributes by key, values in their row's JSON form.
    public var attributes: JSONObject

    /// A run over `range` with `attributes`.
    public init(range: ViewRange, attributes: JSONObject) {
        self.range = range
        self.attributes = attributes
    }

    /// `{range: [location, length], attributes: {…}}`.
    public var json: JSON { ["range": range.json, "attributes": .object(attributes)] }

    /// The list in `value`, or nil when an item is not a run whose attribute keys are all in the table.
    static func list(_ value: JSON) -> [TextRunDescription]? {
        guard let items = value.arrayValue else { return nil }
        var runs: [TextRunDescription] = []
        for item in items {
            guard let object = item.objectValue, object.keys.allSatisfy({ $0 == "range" || $0 == "attributes" }),
                let range = object["range"].flatMap(ViewRange.init(json:))
            else { return nil }
            let attributes = object["attributes"]?.objectValue ?? [:]
            guard attributes.keys.allSatisfy({ TextAttributeSchema.attribute(named: $0) != nil }) else { return nil }
            runs.append(TextRunDescription(range: range, attributes: attributes))
        }
        return runs
    }
}

/// `UIAccessibilityReadingContent` (R93; D-TEXT-APP-4): the lines a view draws itself, each with its frame relative
/// to the element's frame, and the page's text.
public struct ReadingContentDescription: Sendable, Equatable {
    /// One line: its number, text and frame.
    public struct Line: Sendable, Equatable {
        /// `accessibilityLineNumber(for:)` (nil: its position in `lines`).
        public var lineNumber: Int?
        /// `accessibilityContent(forLineNumber:)`.
        public var content: String
        /// `accessibilityFrame(forLineNumber:)`, relative to the element's frame.
        public var frame: ViewRect

        /// A line.
        public init(lineNumber: Int? = nil, content: String, frame: ViewRect) {
            self.lineNumber = lineNumber
            self.content = content
            self.frame = frame
        }
    }

    /// The lines in reading order.
    public var lines: [Line]
    /// `accessibilityPageContent()`.
    public var pageContent: String?

    /// Reading content of `lines` (and the page's text).
    public init(lines: [Line], pageContent: String? = nil) {
        self.lines = lines
        self.pageContent = pageContent
    }

    /// Reads `{lines: [{lineNumber?, content, frame}], pageContent?}`; nil for any other form.
    public init?(json: JSON) {
        guard let object = json.objectValue, object.keys.allSatisfy({ $0 == "lines" || $0 == "pageContent" }) else {
            return nil
        }
        var lines: [Line] = []
        for item in object["lines"]?.arrayValue ?? [] {
            guard let line = item.objectValue, let content = line["content"]?.stringValue,
                let frame = line["frame"].flatMap(ViewRect.init(json:))
            else { return nil }
            lines.append(Line(lineNumber: line["lineNumber"]?.intValue, content: content, frame: frame))
        }
        self.init(lines: lines, pageContent: object["pageContent"]?.stringValue)
    }

    /// The JSON form.
    public var json: JSON {
        var object: JSONObject = [:]
        object["lines"] = .array(
            lines.map { line in
                var entry: JSONObject = [:]
                if let number = line.lineNumber { entry["lineNumber"] = JSON(number) }
                entry["content"] = .string(line.content)
                entry["frame"] = line.frame.json
                return .object(entry)
            })
        if let pageContent { object["pageContent"] = .string(pageContent) }
        return .object(object)
    }
}

extension TextRunDescription: SchemaListItem {
    package static func schemaList(_ value: JSON) -> [TextRunDescription]? { list(value) }
}

extension ReadingContentDescription: SchemaRepresentable {
    package static var schemaForm: SchemaForm { .object }
}

/// One attributed string of `accessibilityAttributedUserInputLabels` (D-TEXT-APP-7): its text and runs over it.
public struct AttributedTextDescription: Sendable, Equatable {
    /// The input label.
    public var text: String
    /// Attribute runs over `text`.
    public var runs: [TextRunDescription]

    /// An input label `text` with `runs`.
    public init(text: String, runs: [TextRunDescription] = []) {
        self.text = text
        self.runs = runs
    }

    /// `{text, runs}`.
    public var json: JSON { ["text": .string(text), "runs": .array(runs.map(\.json))] }
}

extension AttributedTextDescription: SchemaListItem {
    package static func schemaList(_ value: JSON) -> [AttributedTextDescription]? {
        guard let items = value.arrayValue else { return nil }
        var out: [AttributedTextDescription] = []
        for item in items {
            guard let object = item.objectValue, object.keys.allSatisfy({ $0 == "text" || $0 == "runs" }),
                let text = object["text"]?.stringValue
            else { return nil }
            var runs: [TextRunDescription] = []
            if let runsValue = object["runs"] {
                guard let parsed = TextRunDescription.list(runsValue) else { return nil }
                runs = parsed
            }
            out.append(AttributedTextDescription(text: text, runs: runs))
        }
        return out
    }
}
