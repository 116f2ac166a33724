import AXATSPIModel
import AXCore
import AXDBus
import AXHub
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.Text`: reads the arguments, asks `TextModel`, writes the reply.
    func text(_ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>, _ node: AXNode)
        -> DBusMethodResult
    {
        let model = TextModel(node: node)
        let memberName = String(cString: member)
        switch memberName {
        case "GetText":
            if let failure = check(msg, rawMessage, "ii") { return failure }
            var input = DBusFastReader(rawMessage)
            let start = input.int32()
            let end = input.int32()
            let text = model.text(from: start, to: end)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.string(text) }
        case "GetCharacterAtOffset":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let character = model.character(at: input.int32())
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.int32(character) }
        case "GetStringAtOffset":
            if let failure = check(msg, rawMessage, "iu") { return failure }
            var input = DBusFastReader(rawMessage)
            let offset = input.int32()
            let granularity = ATSPITextGranularity(wireValue: input.uint32())
            let range = model.string(at: offset, granularity: granularity)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.textRange(range) }
        case "GetTextAtOffset", "GetTextBeforeOffset", "GetTextAfterOffset":
            if let failure = check(msg, rawMessage, "iu") { return failure }
            var input = DBusFastReader(rawMessage)
            let offset = input.int32()
            let boundary = ATSPITextBoundary(wireValue: input.uint32())
            let range: ATSPITextRange
            switch memberName {
            case "GetTextBeforeOffset": range = model.textBeforeOffset(offset, boundary: boundary)
            case "GetTextAfterOffset": range = model.textAfterOffset(offset, boundary: boundary)
            default: range = model.textAtOffset(offset, boundary: boundary)
            }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.textRange(range) }
        case "SetCaretOffset":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let offset = input.int32()
            // A text input's caret is the server's (D-KEYOP-5); other text has none to move.
            let readOnly = ATSPIMapping.isReadOnlyTextView(node)
            let end = readOnly ? Int32(clamping: model.characterCount) : TextModel.caretOffset(of: node)
            let moved = (ATSPIMapping.isTextInput(node.role) || readOnly) && offset >= 0 && offset <= end
            if moved {
                let caret = Int(offset)
                hub.setTextCaret(app: appID, element: node.id, TextCaret(caret: caret, anchor: caret))
                served.carets[node.id] = caret
            }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(moved) }
        case "GetNSelections":
            // The selection Shift with a motion key made in a text input (D-KEYOP-5), else none.
            if let failure = check(msg, rawMessage, "") { return failure }
            let count: Int32 = textSelection(of: node) == nil ? 0 : 1
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.int32(count) }
        case "GetSelection":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let index = input.int32()
            let range = index == 0 ? textSelection(of: node) : nil
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
                out.int32(Int32(clamping: range?.lowerBound ?? 0))
                out.int32(Int32(clamping: range?.upperBound ?? 0))
            }
        case "AddSelection", "RemoveSelection", "SetSelection", "ScrollSubstringTo", "ScrollSubstringToPoint":
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(false) }
        case "GetCharacterExtents":
            if let failure = check(msg, rawMessage, "iu") { return failure }
            var input = DBusFastReader(rawMessage)
            let offset = input.int32()
            let coordinateType = ATSPICoordinateType(wireValue: input.uint32())
            let element = ComponentModel(snapshot: served).extents(of: node, coordinateType: coordinateType)
            let extents = model.characterExtents(at: offset, elementExtents: element)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.fourInts(extents) }
        case "GetRangeExtents":
            if let failure = check(msg, rawMessage, "iiu") { return failure }
            var input = DBusFastReader(rawMessage)
            let start = input.int32()
            let end = input.int32()
            let coordinateType = ATSPICoordinateType(wireValue: input.uint32())
            let element = ComponentModel(snapshot: served).extents(of: node, coordinateType: coordinateType)
            let extents = model.rangeExtents(from: start, to: end, elementExtents: element)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.fourInts(extents) }
        case "GetOffsetAtPoint":
            if let failure = check(msg, rawMessage, "iiu") { return failure }
            var input = DBusFastReader(rawMessage)
            let pointX = input.int32()
            let pointY = input.int32()
            let coordinateType = ATSPICoordinateType(wireValue: input.uint32())
            let point = ComponentModel(snapshot: served).screenPoint(
                x: pointX, y: pointY, coordinateType: coordinateType, relativeTo: node)
            let offset = model.offset(atScreenPoint: point, in: node)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.int32(offset) }
        case "GetAttributeRun":
            if let failure = check(msg, rawMessage, "ib") { return failure }
            let count = Int32(clamping: model.characterCount)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
                out.stringDictionary([])
                out.int32(0)
                out.int32(count)
            }
        case "GetAttributes":
            if let failure = check(msg, rawMessage, "i") { return failure }
            let count = Int32(clamping: model.characterCount)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
                out.stringDictionary([])
                out.int32(0)
                out.int32(count)
            }
        case "GetAttributeValue":
            if let failure = check(msg, rawMessage, "is") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.string("") }
        case "GetDefaultAttributes", "GetDefaultAttributeSet":
            if let failure = check(msg, rawMessage, "") { return failure }
            let attributes = TextModel.defaultAttributes(of: node)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.stringDictionary(attributes) }
        case "GetBoundedRanges":
            if let failure = check(msg, rawMessage, "iiiiuuu") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in out.array("(iisv)") { _ in } }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }
}

extension AppBridge {
    /// The selected range of a text input the server edits by keys (caret ≠ anchor; D-KEYOP-5), nil when none.
    func textSelection(of node: AXNode) -> Range<Int>? {
        guard ATSPIMapping.isTextInput(node.role), let caret = hub.textCaret(app: appID, element: node.id),
            caret.caret != caret.anchor
        else { return nil }
        return min(caret.caret, caret.anchor)..<max(caret.caret, caret.anchor)
    }
}
