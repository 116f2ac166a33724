import AXATSPIModel
import AXCore
import AXDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.Selection`: reads the arguments, asks `SelectionModel`, writes the reply.
    func selection(_ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>, _ node: AXNode)
        -> DBusMethodResult
    {
        let model = SelectionModel(container: node, snapshot: served)
        switch String(cString: member) {
        case "GetSelectedChild":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let child = model.selectedChild(at: input.int32())
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in writeRef(&out, child) }
        case "IsChildSelected":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let selected = model.isChildSelected(at: input.int32())
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(selected) }
        case "SelectChild":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let index = input.int32()
            guard let child = model.child(at: index) else {
                return .error(
                    .invalidArgs("SelectChild: index \(index) out of range (\(node.children.count) children)"))
            }
            if model.selectedChildren.contains(child) {
                DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(true) }
                return .handled
            }
            // D-SELECT-1: selecting never operates a control or an outline row.
            guard let childNode = served.tree[child], SelectionModel.selectsByActivation(childNode, container: node)
            else {
                DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(false) }
                return .handled
            }
            return routeAsync(msg, .activate, on: child)
        case "DeselectSelectedChild", "DeselectChild":
            if let failure = check(msg, rawMessage, "i") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(false) }
        case "SelectAll", "ClearSelection":
            if let failure = check(msg, rawMessage, "") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(false) }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }
}
