import AXCore

/// The caret and selection events of the text content an app reports (D-TEXT-APP-1).
extension EventDiff {
    /// The caret to report after a text change: the app's, else the server's (D-KEYOP-5), else nil (the end).
    static func reportedCaret(of node: AXNode, in snapshot: ServedSnapshot) -> Int32? {
        if let caret = node.textContent?.caret { return Int32(clamping: caret) }
        return snapshot.carets[node.id].map { _ in TextModel.caretOffset(of: node, in: snapshot) }
    }

    /// `text-caret-moved` when the app moved its caret without editing (an edit reports its caret with the text
    /// change), `text-selection-changed` when its selection changed.
    static func appendTextContentUpdates(
        old oldNode: AXNode, new newNode: AXNode, textEdited: Bool, into updates: inout [ATSPIUpdate]
    ) {
        let oldContent = oldNode.textContent
        let newContent = newNode.textContent
        guard oldContent != newContent, let newContent else { return }
        if !textEdited, let caret = newContent.caret, caret != oldContent?.caret {
            updates.append(.event(ATSPIEvent(.textCaretMoved, source: newNode.id, detail1: Int32(clamping: caret))))
        }
        if newContent.selection != oldContent?.selection {
            updates.append(.event(ATSPIEvent(.textSelectionChanged, source: newNode.id)))
        }
    }
}
