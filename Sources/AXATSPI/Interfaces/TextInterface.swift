import AXATSPIModel
import AXCore
import AXDBus
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.Text`: reads the arguments, asks `TextModel`, writes the reply.
    func text(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ node: AXNode)
        -> DBusMethodResult
    {
        let model = TextModel(node: node)
        let memberName = String(cString: member)
        switch memberName {
        case "GetText":
            if let e = check(msg, m, "ii") { return e }
            var input = DBusFastReader(m)
            let start = input.int32()
            let end = input.int32()
            let text = model.text(from: start, to: end)
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.string(text) }
        case "GetCharacterAtOffset":
            if let e = check(msg, m, "i") { return e }
            var input = DBusFastReader(m)
            let character = model.character(at: input.int32())
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.int32(character) }
        case "GetStringAtOffset":
            if let e = check(msg, m, "iu") { return e }
            var input = DBusFastReader(m)
            let offset = input.int32()
            let granularity = ATSPITextGranularity(wireValue: input.uint32())
            let range = model.string(at: offset, granularity: granularity)
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.textRange(range) }
        case "GetTextAtOffset", "GetTextBeforeOffset", "GetTextAfterOffset":
            if let e = check(msg, m, "iu") { return e }
            var input = DBusFastReader(m)
            let offset = input.int32()
            let boundary = ATSPITextBoundary(wireValue: input.uint32())
            let range: ATSPITextRange
            switch memberName {
            case "GetTextBeforeOffset": range = model.textBeforeOffset(offset, boundary: boundary)
            case "GetTextAfterOffset": range = model.textAfterOffset(offset, boundary: boundary)
            default: range = model.textAtOffset(offset, boundary: boundary)
            }
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.textRange(range) }
        case "SetCaretOffset":
            if let e = check(msg, m, "i") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.bool(false) }
        case "GetNSelections":
            if let e = check(msg, m, "") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.int32(0) }
        case "GetSelection":
            if let e = check(msg, m, "i") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { out in
                out.int32(0)
                out.int32(0)
            }
        case "AddSelection", "RemoveSelection", "SetSelection", "ScrollSubstringTo", "ScrollSubstringToPoint":
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.bool(false) }
        case "GetCharacterExtents":
            if let e = check(msg, m, "iu") { return e }
            var input = DBusFastReader(m)
            let offset = input.int32()
            let coordinateType = ATSPICoordinateType(wireValue: input.uint32())
            let element = ComponentModel(snapshot: served).extents(of: node, coordinateType: coordinateType)
            let extents = model.characterExtents(at: offset, elementExtents: element)
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.fourInts(extents) }
        case "GetRangeExtents":
            if let e = check(msg, m, "iiu") { return e }
            var input = DBusFastReader(m)
            let start = input.int32()
            let end = input.int32()
            let coordinateType = ATSPICoordinateType(wireValue: input.uint32())
            let element = ComponentModel(snapshot: served).extents(of: node, coordinateType: coordinateType)
            let extents = model.rangeExtents(from: start, to: end, elementExtents: element)
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.fourInts(extents) }
        case "GetOffsetAtPoint":
            if let e = check(msg, m, "iiu") { return e }
            var input = DBusFastReader(m)
            let x = input.int32()
            let y = input.int32()
            let coordinateType = ATSPICoordinateType(wireValue: input.uint32())
            let point = ComponentModel(snapshot: served).screenPoint(
                x: x, y: y, coordinateType: coordinateType, relativeTo: node)
            let offset = model.offset(atScreenPoint: point, in: node)
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.int32(offset) }
        case "GetAttributeRun":
            if let e = check(msg, m, "ib") { return e }
            let count = Int32(clamping: model.characterCount)
            DBusFastWriter.sendReply(on: replyConn, to: m) { out in
                out.stringDictionary([])
                out.int32(0)
                out.int32(count)
            }
        case "GetAttributes":
            if let e = check(msg, m, "i") { return e }
            let count = Int32(clamping: model.characterCount)
            DBusFastWriter.sendReply(on: replyConn, to: m) { out in
                out.stringDictionary([])
                out.int32(0)
                out.int32(count)
            }
        case "GetAttributeValue":
            if let e = check(msg, m, "is") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.string("") }
        case "GetDefaultAttributes", "GetDefaultAttributeSet":
            if let e = check(msg, m, "") { return e }
            let attributes = TextModel.defaultAttributes(of: node)
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.stringDictionary(attributes) }
        case "GetBoundedRanges":
            if let e = check(msg, m, "iiiiuuu") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { out in out.array("(iisv)") { _ in } }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }
}
