import AXATSPIModel
import AXCore
import AXDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.EditableText`: every edit asks the app for the text `EditableTextModel` computes.
    func editableText(_ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>, _ node: AXNode)
        -> DBusMethodResult
    {
        let model = EditableTextModel(node: node)
        switch String(cString: member) {
        case "SetTextContents":
            if let failure = check(msg, rawMessage, "s") { return failure }
            var input = DBusFastReader(rawMessage)
            return routeAsync(msg, .setValue(.string(input.string())), on: node.id)
        case "InsertText":
            if let failure = check(msg, rawMessage, "isi") { return failure }
            var input = DBusFastReader(rawMessage)
            let position = input.int32()
            let text = input.string()
            let length = input.int32()
            return routeAsync(msg, model.insertText(at: position, text: text, length: length), on: node.id)
        case "DeleteText", "CutText":
            if let failure = check(msg, rawMessage, "ii") { return failure }
            var input = DBusFastReader(rawMessage)
            let start = input.int32()
            let end = input.int32()
            return routeAsync(msg, model.deleteText(from: start, to: end), on: node.id)
        case "CopyText":
            if let failure = check(msg, rawMessage, "ii") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { _ in }
        case "PasteText":
            if let failure = check(msg, rawMessage, "i") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(false) }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }
}
