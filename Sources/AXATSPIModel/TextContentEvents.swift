import AXCore

/// The caret and selection events of the text content an app reports (D-TEXT-APP-1).
extension EventDiff {
    /// The caret to report after a text change: the app's, else the server's (D-KEYOP-5), else nil (the end).
    static func reportedCaret(of node: AXNode, in snapshot: ServedSnapshot) -> Int32? {
        if let caret = node.textContent?.caret { return Int32(clamping: caret) }
        return snapshot.carets[node.id].map { _ in TextModel.caretOffset(of: node, in: snapshot) }
    }

    /// `text-caret-moved` when the app moved its caret without editing (an edit reports its caret with the text
    /// change), `text-selection-changed` when its selection changed, `text-attributes-changed` when the attribute
    /// runs AT-SPI serves changed (D-TEXT-APP-3: a range or a GTK-named attribute; speech-only attributes have no
    /// AT-SPI name, so changing only them changes nothing served).
    static func appendTextContentUpdates(
        old oldNode: AXNode, new newNode: AXNode, textEdited: Bool, into updates: inout [ATSPIUpdate]
    ) {
        let oldContent = oldNode.textContent
        let newContent = newNode.textContent
        guard oldContent != newContent else { return }
        if let newContent, !textEdited, let caret = newContent.caret, caret != oldContent?.caret {
            updates.append(.event(ATSPIEvent(.textCaretMoved, source: newNode.id, detail1: Int32(clamping: caret))))
        }
        if newContent?.selection != oldContent?.selection {
            updates.append(.event(ATSPIEvent(.textSelectionChanged, source: newNode.id)))
        }
        if servedRuns(oldContent) != servedRuns(newContent) {
            updates.append(.event(ATSPIEvent(.textAttributesChanged, source: newNode.id)))
        }
    }

    /// A run as `Text.GetAttributeRun` serves it: its range and its GTK-named attributes.
    struct ServedRun: Equatable {
        var range: TextRange
        var attributes: [String]
    }

    /// The runs of `content` as AT-SPI serves them.
    static func servedRuns(_ content: AXTextContent?) -> [ServedRun] {
        (content?.runs ?? []).map { run in
            ServedRun(
                range: run.range, attributes: TextAttributeMapping.attributes(of: run).map { "\($0.0):\($0.1)" })
        }
    }
}
