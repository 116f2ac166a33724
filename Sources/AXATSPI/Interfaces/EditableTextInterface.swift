import AXATSPIModel
import AXCore
import AXDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.EditableText`: every edit asks the app for the text `EditableTextModel` computes.
    func editableText(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ node: AXNode)
        -> DBusMethodResult
    {
        let model = EditableTextModel(node: node)
        switch String(cString: member) {
        case "SetTextContents":
            if let e = check(msg, m, "s") { return e }
            var input = DBusFastReader(m)
            return routeAsync(msg, .setValue(.string(input.string())), on: node.id)
        case "InsertText":
            if let e = check(msg, m, "isi") { return e }
            var input = DBusFastReader(m)
            let position = input.int32()
            let text = input.string()
            let length = input.int32()
            return routeAsync(msg, model.insertText(at: position, text: text, length: length), on: node.id)
        case "DeleteText", "CutText":
            if let e = check(msg, m, "ii") { return e }
            var input = DBusFastReader(m)
            let start = input.int32()
            let end = input.int32()
            return routeAsync(msg, model.deleteText(from: start, to: end), on: node.id)
        case "CopyText":
            if let e = check(msg, m, "ii") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { _ in }
        case "PasteText":
            if let e = check(msg, m, "i") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.bool(false) }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }
}
