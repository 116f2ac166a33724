import AXCore
import AXJSON

extension Hub {
    // MARK: Caret and selection asked by an assistive technology (D-TEXT-APP-2)

    /// Moves a text element's caret (an empty `range`) or selection, as AT-SPI `SetCaretOffset` / `SetSelection` /
    /// `AddSelection` ask, by the one rule of D-TEXT-APP-2: an element whose app reports `selectedTextRange` owns its
    /// caret, so the app is asked (`setSelectedTextRange`) and its answer counts; any other text element the server
    /// edits or reads by keys (a text input, a read-only text view) has the server's caret (D-KEYOP-5), moved here.
    /// False for a range outside the text or an element without a caret.
    package func selectText(app: String, element: String, range: Range<Int>) async throws(ActionError) -> Bool {
        let snap: AppSnapshot
        do {
            snap = try snapshot(app)
        } catch { throw .noSuchApp(app) }
        guard let node = snap.tree[element] else { throw .noSuchElement(element) }
        guard range.lowerBound >= 0, range.upperBound <= Self.caretTextLength(of: node) else { return false }
        if node.textContent?.selectedRange != nil {
            return try await askAppToSelect(app: app, node: node, range: range)
        }
        guard KeyboardNavigation.isEditableText(node) || KeyboardNavigation.isReadOnlyTextView(node) else {
            return false
        }
        setTextCaret(app: app, element: element, TextCaret(caret: range.upperBound, anchor: range.lowerBound))
        return true
    }

    /// The length in Unicode scalars of the text the caret moves in: a read-only text view's value, else the text.
    static func caretTextLength(of node: AXNode) -> Int {
        let shown = KeyboardNavigation.isReadOnlyTextView(node) ? node.value : node.text
        return shown?.unicodeScalars.count ?? 0
    }

    /// Sends `setSelectedTextRange` to the app that owns the element's caret (D-TEXT-APP-2).
    func askAppToSelect(app: String, node: AXNode, range: Range<Int>) async throws(ActionError) -> Bool {
        guard let provider = state.withLock({ $0.apps[app]?.provider }) else {
            throw .appNotResponding(reason: "the app has no action handler")
        }
        let selected = TextRange(location: range.lowerBound, length: range.count)
        let request = ActionRequest(.setSelectedTextRange(selected), target: node.actionTarget, elementID: node.id)
        return try await provider.perform(request, timeout: actionTimeout)
    }
}

extension Hub {
    /// D-TEXT-APP-2: the key is an editing key (D-KEYOP-5) of the operated element and that element's app reports
    /// its own caret (`selectedTextRange`), so the app edits: the server neither edits nor navigates with it.
    func appEditsKey(app: String, symbol: KeySymbol, modifiers: Set<KeyModifier>) -> Bool {
        guard let target = keyTarget(app), let snap = try? snapshot(app),
            let element = KeyboardNavigation.operatedElement(target, tree: snap.tree),
            element.textContent?.selectedRange != nil,
            case .edit? = KeyboardNavigation.operation(
                for: symbol, modifiers: modifiers, element: element, tree: snap.tree)
        else { return false }
        return true
    }
}
