import AXCore
import AXJSON

/// A text element's caret and selection anchor, in Unicode scalars (D-KEYOP-5).
package struct TextCaret: Sendable, Equatable {
    package var caret: Int
    package var anchor: Int
    package init(caret: Int, anchor: Int) {
        self.caret = caret
        self.anchor = anchor
    }
}

extension Hub {
    // MARK: Keys operate controls (D-KEYOP-1…5)

    /// Runs the focused control's part of a key press (KeyboardNavigation.operation): true when the control used
    /// the key (then it is not navigation), false when the key moves focus or goes on (D-KEYOP-1).
    func operateFocusedControl(app: String, symbol: KeySymbol, modifiers: Set<KeyModifier>) async throws -> Bool {
        guard let target = keyTarget(app) else { return false }
        let snap = try snapshot(app)
        guard let element = KeyboardNavigation.operatedElement(target, tree: snap.tree),
            let operation = KeyboardNavigation.operation(
                for: symbol, modifiers: modifiers, element: element, tree: snap.tree)
        else { return false }
        switch operation {
        case .increment:
            _ = try await perform(app: app, element: element.id, action: .increment)
        case .decrement:
            _ = try await perform(app: app, element: element.id, action: .decrement)
        case .setNumber(let number):
            _ = try await perform(app: app, element: element.id, action: .setValue(.number(number)))
        case .select(let segment):
            if try await perform(app: app, element: segment, action: .activate) {
                try? setFocus(app: app, element: segment)
            }
        case .focusRow(let row):
            let context = try focusContext(app: app)
            if context.engine.index[row] != nil, context.engine.isFocusable(row) {
                _ = try await updateEngineFocus(app: app, heading: "none", target: row, simulate: false)
            }
            if focusedElement(app) != row { try setFocus(app: app, element: row) }
        case .toggleExpansion:
            _ = try await perform(app: app, element: element.id, action: .activate)
        case .edit(let command):
            try await edit(app: app, element: element, command: command)
        case .stay:
            break
        }
        return true
    }

    /// Applies an editing key to a text element on the app's behalf (D-KEYOP-5): the server keeps the caret;
    /// text goes to the app as `typeText` (typing at the end) or `setValue` (any other change), and the caret
    /// moves only when the app took the change.
    func edit(app: String, element: AXNode, command: TextEditCommand) async throws {
        // A read-only text view shows its text as its value (D-KEYOP-5: caret keys only, never an edit).
        let text = KeyboardNavigation.isReadOnlyTextView(element) ? (element.value ?? "") : (element.text ?? "")
        let known = textCaret(app: app, element: element.id)
        // The caret starts at the end of a text input (where typing goes) and at the start of a read-only view.
        let start = KeyboardNavigation.isReadOnlyTextView(element) ? 0 : nil
        let before = TextEditState(text: text, caret: known?.caret ?? start, anchor: known?.anchor ?? start)
        var after = TextEditing.apply(command, to: before)
        // Line motions follow the lines the app draws when it sends them (D-TEXT-APP-4).
        if case .move(let motion, let extend) = command,
            let target = element.textContent?.lineTarget(of: motion, from: before.caret, in: before.text)
        {
            after.caret = target
            if !extend { after.anchor = target }
        }
        guard after != before else { return }
        let moved = TextCaret(caret: after.caret, anchor: after.anchor)
        guard after.text != before.text else {
            setTextCaret(app: app, element: element.id, moved)
            return
        }
        let action: ElementAction
        if case .insert(let typed) = command, before.selection.isEmpty, before.caret == before.text.count {
            action = .typeText(typed)
        } else {
            action = .setValue(.string(after.string))
        }
        // The caret is in place before the app's update arrives, so the AT hears the text change followed by the
        // caret where the edit left it (the bridge reads the carets with the new tree); it goes back when the app
        // turns the edit down.
        storeTextCaret(app: app, element: element.id, moved)
        var accepted = false
        defer { if !accepted { storeTextCaret(app: app, element: element.id, known) } }
        accepted = try await perform(app: app, element: element.id, action: action)
    }

    /// The caret the server keeps for a text element, nil when none was set (then it is at the end of the text).
    package func textCaret(app: String, element: String) -> TextCaret? {
        state.withLock { locked in
            guard let appState = locked.apps[app], let caret = appState.carets[element],
                let node = appState.store.tree[element]
            else { return nil }
            // A caret beyond the element's current text (the app changed it) is at its end.
            let shown = KeyboardNavigation.isReadOnlyTextView(node) ? node.value : node.text
            let count = shown?.unicodeScalars.count ?? 0
            return TextCaret(caret: min(caret.caret, count), anchor: min(caret.anchor, count))
        }
    }

    /// The carets the server keeps in an app, by element (the AT-SPI bridge reads them with each new tree).
    package func textCarets(app: String) -> [String: Int] {
        state.withLock { locked in
            guard let appState = locked.apps[app] else { return [:] }
            return appState.carets.filter { appState.store.tree[$0.key] != nil }.mapValues(\.caret)
        }
    }

    /// Moves a text element's caret (an editing key, AT-SPI `SetCaretOffset`): emits `textCaret` when it moved.
    package func setTextCaret(app: String, element: String, _ caret: TextCaret) {
        if storeTextCaret(app: app, element: element, caret) {
            emit([.textCaret(app: app, element: element, caret)])
        }
    }

    /// Stores (nil: forgets) a text element's caret without an event; true when it changed.
    @discardableResult
    func storeTextCaret(app: String, element: String, _ caret: TextCaret?) -> Bool {
        state.withLock { locked in
            guard let appState = locked.apps[app], appState.store.tree[element] != nil else { return false }
            if appState.carets[element] == caret { return false }
            // Bounded: one caret per text element that keys reached; ids of elements that left are dropped.
            if appState.carets.count >= 256 {
                appState.carets = appState.carets.filter { appState.store.tree[$0.key] != nil }
            }
            appState.carets[element] = caret
            return true
        }
    }
}
