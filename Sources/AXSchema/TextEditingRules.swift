// The text-editing model declared once (D-KEYOP-5, D-TEXT-APP-5): GTK's GtkText/GtkTextView key bindings over UIKit's
// text-input semantics, applied to a text and its caret and selection in Unicode scalars. The server edits with it on
// an app's behalf (AXCore's TextEditing), and the provider library's `TextEditingModel` gives apps the same model.

/// A caret movement in a text element (D-KEYOP-5).
public enum TextMotion: Sendable, Equatable {
    /// Left / Right; Control: by word.
    case characterBackward, characterForward, wordBackward, wordForward
    /// Home / End, Up / Down (a text view), Control+Home / Control+End.
    case lineStart, lineEnd, lineUp, lineDown, documentStart, documentEnd
}

/// One editing key, read from a key and its modifiers (D-KEYOP-5).
public enum TextEditCommand: Sendable, Equatable {
    /// Types text at the caret, replacing the selection.
    case insert(String)
    /// BackSpace (Control: the word before the caret).
    case deleteBackward(word: Bool)
    /// Delete (Control: the word after the caret).
    case deleteForward(word: Bool)
    /// Moves the caret; `extend` (Shift) keeps the selection anchor.
    case move(TextMotion, extend: Bool)
    /// Control-A.
    case selectAll
}

/// A text element's text with its caret and selection, in Unicode scalars (AT-SPI Text offsets count scalars).
public struct TextEditState: Sendable, Equatable {
    /// The text, as Unicode scalars.
    public var text: [Unicode.Scalar]
    /// The caret (the moving end of the selection), 0…count.
    public var caret: Int
    /// The fixed end of the selection; equal to `caret` when nothing is selected.
    public var anchor: Int

    /// `text` with the caret at `caret` (default: the end) and the anchor at `anchor` (default: the caret).
    public init(text: String, caret: Int? = nil, anchor: Int? = nil) {
        self.text = Array(text.unicodeScalars)
        let end = self.text.count
        self.caret = min(max(caret ?? end, 0), end)
        self.anchor = min(max(anchor ?? self.caret, 0), end)
    }

    /// The text as a string.
    public var string: String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: text)
        return String(out)
    }

    /// The selected scalars (empty at the caret).
    public var selection: Range<Int> { min(caret, anchor)..<max(caret, anchor) }
}

/// The server's text-editing model for a text element whose app lets the server handle its keys (D-KEYOP-5):
/// GTK's GtkText/GtkTextView key bindings over UIKit's text-input semantics (insert at the insertion point,
/// replacing the selection; `UITextInput` word and line motions). Pure.
public enum TextEditing {
    /// The editing command of a key (its X keysym name, the text it types with its modifiers, and the modifiers),
    /// or nil when a text element does not use the key (Tab, Return in a single-line field, Escape, Control shortcuts
    /// other than word motion and select-all: navigation or the app).
    public static func command(
        key: String, text: String?, control: Bool, shift: Bool, altOrSuper: Bool, multiLine: Bool
    ) -> TextEditCommand? {
        if altOrSuper { return nil }
        if let motion = motionCommand(key: key, control: control, shift: shift, multiLine: multiLine) { return motion }
        switch key {
        case "BackSpace": return .deleteBackward(word: control)
        case "Delete", "KP_Delete": return .deleteForward(word: control)
        case "Return", "KP_Enter": return multiLine && !control ? .insert("\n") : nil
        case "a" where control && !shift: return .selectAll
        default: break
        }
        guard !control, let text, !text.isEmpty, !text.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            return nil
        }
        return .insert(text)
    }

    /// The caret motion of an arrow, Home or End key (Shift extends the selection).
    static func motionCommand(key: String, control: Bool, shift: Bool, multiLine: Bool) -> TextEditCommand? {
        switch key {
        case "Left", "KP_Left": return .move(control ? .wordBackward : .characterBackward, extend: shift)
        case "Right", "KP_Right": return .move(control ? .wordForward : .characterForward, extend: shift)
        case "Home", "KP_Home": return .move(control ? .documentStart : .lineStart, extend: shift)
        case "End", "KP_End": return .move(control ? .documentEnd : .lineEnd, extend: shift)
        case "Up", "KP_Up":
            // A single-line field has no line above: UIKit and macOS move to the start (no focus jump).
            return .move(multiLine && !control ? .lineUp : .documentStart, extend: shift)
        case "Down", "KP_Down": return .move(multiLine && !control ? .lineDown : .documentEnd, extend: shift)
        default: return nil
        }
    }

    /// Applies a command; the answer is the new state (equal to `state` when the key changes nothing).
    public static func apply(_ command: TextEditCommand, to state: TextEditState) -> TextEditState {
        var next = state
        switch command {
        case .insert(let typed):
            let range = state.selection
            let inserted = Array(typed.unicodeScalars)
            next.text.replaceSubrange(range, with: inserted)
            next.caret = range.lowerBound + inserted.count
            next.anchor = next.caret
        case .deleteBackward(let word):
            if !state.selection.isEmpty { return deleteSelection(state) }
            let start = word ? wordStart(before: state.caret, in: state.text) : max(0, state.caret - 1)
            next.text.removeSubrange(start..<state.caret)
            next.caret = start
            next.anchor = start
        case .deleteForward(let word):
            if !state.selection.isEmpty { return deleteSelection(state) }
            let end = word ? wordEnd(after: state.caret, in: state.text) : min(state.text.count, state.caret + 1)
            next.text.removeSubrange(state.caret..<end)
            next.anchor = state.caret
        case .move(let motion, let extend):
            return move(state, motion, extend: extend)
        case .selectAll:
            next.anchor = 0
            next.caret = state.text.count
        }
        return next
    }

    /// A caret motion; Shift (`extend`) keeps the anchor. An arrow with a selection and no Shift collapses it to
    /// that side (GTK, UIKit).
    static func move(_ state: TextEditState, _ motion: TextMotion, extend: Bool) -> TextEditState {
        var next = state
        let collapsing = !extend && !state.selection.isEmpty
        if collapsing && (motion == .characterBackward || motion == .characterForward) {
            next.caret = motion == .characterBackward ? state.selection.lowerBound : state.selection.upperBound
        } else {
            next.caret = target(of: motion, from: state.caret, in: state.text)
        }
        if !extend { next.anchor = next.caret }
        return next
    }

    static func deleteSelection(_ state: TextEditState) -> TextEditState {
        var next = state
        let range = state.selection
        next.text.removeSubrange(range)
        next.caret = range.lowerBound
        next.anchor = range.lowerBound
        return next
    }

    /// Where a motion takes the caret.
    public static func target(of motion: TextMotion, from caret: Int, in text: [Unicode.Scalar]) -> Int {
        let count = text.count
        switch motion {
        case .characterBackward: return max(0, caret - 1)
        case .characterForward: return min(count, caret + 1)
        case .wordBackward: return wordStart(before: caret, in: text)
        case .wordForward: return wordEnd(after: caret, in: text)
        case .documentStart: return 0
        case .documentEnd: return count
        case .lineStart: return lineStart(caret, in: text)
        case .lineEnd: return lineEnd(caret, in: text)
        case .lineUp, .lineDown:
            let start = lineStart(caret, in: text)
            let column = caret - start
            if motion == .lineUp {
                guard start > 0 else { return 0 }
                let previousStart = lineStart(start - 1, in: text)
                return min(previousStart + column, start - 1)
            }
            let end = lineEnd(caret, in: text)
            guard end < count else { return count }
            let nextStart = end + 1
            return min(nextStart + column, lineEnd(nextStart, in: text))
        }
    }

    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "_"
    }

    /// The start of the word before `caret` (GTK's Control-Left: skip non-word characters, then the word).
    static func wordStart(before caret: Int, in text: [Unicode.Scalar]) -> Int {
        var index = min(caret, text.count)
        while index > 0, !isWordCharacter(text[index - 1]) { index -= 1 }
        while index > 0, isWordCharacter(text[index - 1]) { index -= 1 }
        return index
    }

    /// The end of the word after `caret` (GTK's Control-Right).
    static func wordEnd(after caret: Int, in text: [Unicode.Scalar]) -> Int {
        var index = max(caret, 0)
        while index < text.count, !isWordCharacter(text[index]) { index += 1 }
        while index < text.count, isWordCharacter(text[index]) { index += 1 }
        return index
    }

    static func lineStart(_ caret: Int, in text: [Unicode.Scalar]) -> Int {
        var index = min(caret, text.count)
        while index > 0, text[index - 1] != "\n" { index -= 1 }
        return index
    }

    static func lineEnd(_ caret: Int, in text: [Unicode.Scalar]) -> Int {
        var index = max(caret, 0)
        while index < text.count, text[index] != "\n" { index += 1 }
        return index
    }
}
