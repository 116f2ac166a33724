import AXJSON
import AXSchema

/// A ready text-editing model for a text field or text view whose app keeps its own caret (D-TEXT-APP-5): it applies
/// forwarded keys (printable text, BackSpace, Delete, Home/End, arrows, Control+arrows by word, Shift to select,
/// Control+A), the server's `setSelectedTextRange`, `typeText` and `setValue` to (text, `selectedTextRange`) with the
/// same rules the server uses (AXSchema `TextEditing`), and answers the minimal set of properties to publish.
///
/// ```swift
/// var note = TextEditingModel(text: "Hello", multiLine: true)
/// if let changed = note.handle(call.kind) { try await publisher.set(id: "note", changed) }
/// ```
public struct TextEditingModel: Sendable, Equatable {
    /// The text, caret and selection anchor (Unicode scalars).
    public var state: TextEditState
    /// A text view (Return types a newline, Up/Down move by line) rather than a one-line field.
    public var multiLine: Bool

    /// A model of `text` with the caret at `caret` (default: the end).
    public init(text: String = "", caret: Int? = nil, multiLine: Bool = false) {
        state = TextEditState(text: text, caret: caret)
        self.multiLine = multiLine
    }

    /// The text.
    public var text: String { state.string }

    /// The caret (length 0) or selection as the schema's `selectedTextRange`.
    public var selectedTextRange: ViewRange {
        ViewRange(location: state.selection.lowerBound, length: state.selection.count)
    }

    /// `text` and `selectedTextRange`, for the view's first publication.
    public var properties: JSONObject {
        ["text": .string(text), "selectedTextRange": selectedTextRange.json]
    }

    /// Applies a key by its X keysym name, modifiers (`shift`, `control`, `alt`, `super`) and typed text; the
    /// properties that changed (empty when only nothing moved), or nil when a text element does not use the key.
    public mutating func apply(key: String, modifiers: [String] = [], text: String? = nil) -> JSONObject? {
        guard
            let command = TextEditing.command(
                key: key, text: text ?? (key.unicodeScalars.count == 1 ? key : nil),
                control: modifiers.contains("control"), shift: modifiers.contains("shift"),
                altOrSuper: modifiers.contains("alt") || modifiers.contains("super"), multiLine: multiLine)
        else { return nil }
        return change { $0 = TextEditing.apply(command, to: $0) }
    }

    /// Applies an action the server sent for this view: `key` (a press or both), `setSelectedTextRange`, `typeText`
    /// (at the caret, replacing the selection) and `setValue` (a string; caret at the end). The properties that
    /// changed, or nil when the action is not a text action this model applies.
    public mutating func handle(_ kind: ActionCall.Kind) -> JSONObject? {
        switch kind {
        case .key(let event):
            guard event["phase"]?.stringValue != "release", let key = event["key"]?.stringValue else { return nil }
            let modifiers = event["modifiers"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return apply(key: key, modifiers: modifiers, text: event["text"]?.stringValue)
        case .setSelectedTextRange(let location, let length):
            guard location >= 0, length >= 0, location + length <= state.text.count else { return nil }
            return change { state in
                state.anchor = location
                state.caret = location + length
            }
        case .typeText(let typed):
            return change { $0 = TextEditing.apply(.insert(typed), to: $0) }
        case .setValue(let value):
            guard let string = value.stringValue else { return nil }
            return change { $0 = TextEditState(text: string) }
        default:
            return nil
        }
    }

    /// Runs `edit` on the state and answers the properties it changed.
    private mutating func change(_ edit: (inout TextEditState) -> Void) -> JSONObject {
        let before = (text, selectedTextRange)
        edit(&state)
        var changed: JSONObject = [:]
        if text != before.0 { changed["text"] = .string(text) }
        if selectedTextRange != before.1 { changed["selectedTextRange"] = selectedTextRange.json }
        return changed
    }
}
