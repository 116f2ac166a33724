import AXATSPIModel
import AXCore
import AXDBus
import AXHub
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// One `org.a11y.atspi.Text` call: the message, its member and the node it is on.
struct TextCall {
    let msg: DBusMessage
    let raw: OpaquePointer
    let member: String
    let node: AXNode
    var model: TextModel { TextModel(node: node) }
}

extension AppBridge {
    /// `org.a11y.atspi.Text`: reads the arguments, asks `TextModel`, writes the reply. The members come in four
    /// groups, each answered by its own function: content, caret and selection, geometry, attributes.
    func text(_ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>, _ node: AXNode)
        -> DBusMethodResult
    {
        let call = TextCall(msg: msg, raw: rawMessage, member: String(cString: member), node: node)
        switch call.member {
        case "GetText", "GetCharacterAtOffset", "GetStringAtOffset", "GetTextAtOffset", "GetTextBeforeOffset",
            "GetTextAfterOffset":
            return textContent(call)
        case "SetCaretOffset", "GetNSelections", "GetSelection", "AddSelection", "RemoveSelection", "SetSelection":
            return textSelectionCall(call)
        case "GetCharacterExtents", "GetRangeExtents", "GetOffsetAtPoint", "GetBoundedRanges", "ScrollSubstringTo",
            "ScrollSubstringToPoint":
            return textGeometry(call)
        case "GetAttributeRun", "GetAttributes", "GetAttributeValue", "GetDefaultAttributes",
            "GetDefaultAttributeSet":
            return textAttributes(call)
        default:
            return .error(.unknownMethod(for: msg))
        }
    }

    /// `GetText`, `GetCharacterAtOffset`, `GetStringAtOffset`, `GetText{At,Before,After}Offset`.
    func textContent(_ call: TextCall) -> DBusMethodResult {
        let model = call.model
        switch call.member {
        case "GetText":
            if let failure = check(call.msg, call.raw, "ii") { return failure }
            var input = DBusFastReader(call.raw)
            let start = input.int32()
            let text = model.text(from: start, to: input.int32())
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.string(text) }
        case "GetCharacterAtOffset":
            if let failure = check(call.msg, call.raw, "i") { return failure }
            var input = DBusFastReader(call.raw)
            let character = model.character(at: input.int32())
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.int32(character) }
        case "GetStringAtOffset":
            if let failure = check(call.msg, call.raw, "iu") { return failure }
            var input = DBusFastReader(call.raw)
            let offset = input.int32()
            let range = model.string(at: offset, granularity: ATSPITextGranularity(wireValue: input.uint32()))
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.textRange(range) }
        default:
            if let failure = check(call.msg, call.raw, "iu") { return failure }
            var input = DBusFastReader(call.raw)
            let offset = input.int32()
            let range = model.textRange(call.member, offset, boundary: ATSPITextBoundary(wireValue: input.uint32()))
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.textRange(range) }
        }
        return .handled
    }

    /// `SetCaretOffset`, `GetNSelections`, `GetSelection`, `SetSelection`, `AddSelection`, `RemoveSelection`: the
    /// app's caret when it reports one, else the server's (D-TEXT-APP-2, D-KEYOP-5).
    func textSelectionCall(_ call: TextCall) -> DBusMethodResult {
        switch call.member {
        case "GetNSelections":
            if let failure = check(call.msg, call.raw, "") { return failure }
            let count: Int32 = textSelection(of: call.node) == nil ? 0 : 1
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.int32(count) }
        case "GetSelection":
            if let failure = check(call.msg, call.raw, "i") { return failure }
            var input = DBusFastReader(call.raw)
            let range = input.int32() == 0 ? textSelection(of: call.node) : nil
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { out in
                out.int32(Int32(clamping: range?.lowerBound ?? 0))
                out.int32(Int32(clamping: range?.upperBound ?? 0))
            }
        default:
            return moveTextSelection(call)
        }
        return .handled
    }

    /// The caret or selection an AT asks for: `SetCaretOffset(offset)`, `SetSelection(0, start, end)`,
    /// `AddSelection(start, end)` (the one selection), `RemoveSelection(0)` (collapses to the caret). Out of the
    /// text, another selection index, or an element without a caret: false.
    func moveTextSelection(_ call: TextCall) -> DBusMethodResult {
        guard let signature = TextSelectionRequest.signature(of: call.member) else {
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.bool(false) }
            return .handled
        }
        if let failure = check(call.msg, call.raw, signature) { return failure }
        var input = DBusFastReader(call.raw)
        let request = TextSelectionRequest.read(
            call.member, next: { input.int32() }, caret: TextModel.caretOffset(of: call.node, in: served),
            selection: textSelection(of: call.node))
        guard let range = request else {
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.bool(false) }
            return .handled
        }
        return routeTextSelection(call.msg, element: call.node.id, range: range)
    }

    /// `GetCharacterExtents`, `GetRangeExtents`, `GetOffsetAtPoint`; `GetBoundedRanges` is empty and the
    /// `ScrollSubstring*` calls answer false (the mirror cannot scroll text into view).
    func textGeometry(_ call: TextCall) -> DBusMethodResult {
        let model = call.model
        switch call.member {
        case "GetCharacterExtents":
            if let failure = check(call.msg, call.raw, "iu") { return failure }
            var input = DBusFastReader(call.raw)
            let offset = input.int32()
            let element = ComponentModel(snapshot: served).extents(
                of: call.node, coordinateType: ATSPICoordinateType(wireValue: input.uint32()))
            let extents = model.characterExtents(at: offset, elementExtents: element)
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.fourInts(extents) }
        case "GetRangeExtents":
            if let failure = check(call.msg, call.raw, "iiu") { return failure }
            var input = DBusFastReader(call.raw)
            let start = input.int32()
            let end = input.int32()
            let element = ComponentModel(snapshot: served).extents(
                of: call.node, coordinateType: ATSPICoordinateType(wireValue: input.uint32()))
            let extents = model.rangeExtents(from: start, to: end, elementExtents: element)
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.fourInts(extents) }
        case "GetOffsetAtPoint":
            if let failure = check(call.msg, call.raw, "iiu") { return failure }
            var input = DBusFastReader(call.raw)
            let pointX = input.int32()
            let pointY = input.int32()
            let point = ComponentModel(snapshot: served).screenPoint(
                x: pointX, y: pointY, coordinateType: ATSPICoordinateType(wireValue: input.uint32()),
                relativeTo: call.node)
            let offset = model.offset(atScreenPoint: point, in: call.node)
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.int32(offset) }
        case "GetBoundedRanges":
            if let failure = check(call.msg, call.raw, "iiiiuuu") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { out in out.array("(iisv)") { _ in } }
        default:
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.bool(false) }
        }
        return .handled
    }

    /// `GetAttributeRun`, `GetAttributes`, `GetAttributeValue`, `GetDefaultAttributes`, `GetDefaultAttributeSet`:
    /// the attribute runs the app reports (D-TEXT-APP-3) with GTK's names.
    func textAttributes(_ call: TextCall) -> DBusMethodResult {
        let count = call.model.characterCount
        switch call.member {
        case "GetAttributeRun", "GetAttributes":
            let withDefaultsFlag = call.member == "GetAttributeRun"
            if let failure = check(call.msg, call.raw, withDefaultsFlag ? "ib" : "i") { return failure }
            var input = DBusFastReader(call.raw)
            let offset = input.int32()
            let includeDefaults = withDefaultsFlag && input.uint32() != 0  // a D-Bus boolean is 32 bits
            let run = TextAttributeMapping.run(
                at: offset, of: call.node, count: count, includeDefaults: includeDefaults)
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { out in
                out.stringDictionary(run.attributes)
                out.int32(run.start)
                out.int32(run.end)
            }
        case "GetAttributeValue":
            if let failure = check(call.msg, call.raw, "is") { return failure }
            var input = DBusFastReader(call.raw)
            let offset = input.int32()
            let value = TextAttributeMapping.value(at: offset, named: input.string(), of: call.node, count: count)
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.string(value) }
        default:
            if let failure = check(call.msg, call.raw, "") { return failure }
            let attributes = TextModel.defaultAttributes(of: call.node)
            DBusFastWriter.sendReply(on: replyConn, to: call.raw) { $0.stringDictionary(attributes) }
        }
        return .handled
    }
}

extension AppBridge {
    /// The selected range of a text element: the app's (D-TEXT-APP-1), else the one the server keeps for a text
    /// input it edits by keys (caret ≠ anchor; D-KEYOP-5); nil when none.
    func textSelection(of node: AXNode) -> Range<Int>? {
        // D-TEXT-APP-1: the selection the app reports wins over the server's.
        if let content = node.textContent, content.selectedRange != nil { return content.selection }
        guard ATSPIMapping.isTextInput(node.role), let caret = hub.textCaret(app: appID, element: node.id),
            caret.caret != caret.anchor
        else { return nil }
        return min(caret.caret, caret.anchor)..<max(caret.caret, caret.anchor)
    }

    /// Moves the caret or selection through the hub off the loop thread (the app may be asked, D-TEXT-APP-2) and
    /// replies with whether it moved; errors and the reply deadline as `routeAsync`.
    func routeTextSelection(_ msg: DBusMessage, element: String, range: Range<Int>) -> DBusMethodResult {
        let hub = self.hub
        let app = appID
        return replyOffLoop(
            msg, lateSubject: "The application did not answer", lateOutcome: "the caret may still move"
        ) { () async throws(ActionError) -> Bool in
            try await hub.selectText(app: app, element: element, range: range)
        }
    }
}
