import AXATSPIModel
import AXCore
import AXDBus
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// Which part of an extents rectangle a call answers.
    enum ExtentsQuery {
        case rect
        case position
        case size
    }

    /// Component.GetExtents/GetPosition/GetSize and their Image twins: same arguments, same answers.
    func replyExtents(_ query: ExtentsQuery, _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ node: AXNode)
        -> DBusMethodResult
    {
        if let failure = check(msg, rawMessage, query == .size ? "" : "u") { return failure }
        var coordinateType = ATSPICoordinateType.screen
        if query != .size {
            var input = DBusFastReader(rawMessage)
            coordinateType = ATSPICoordinateType(wireValue: input.uint32())
        }
        let extents = ComponentModel(snapshot: served).extents(of: node, coordinateType: coordinateType)
        switch query {
        case .rect: DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.rect(extents) }
        case .position:
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
                out.int32(extents.x)
                out.int32(extents.y)
            }
        case .size:
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
                out.int32(extents.width)
                out.int32(extents.height)
            }
        }
        return .handled
    }

    /// `org.a11y.atspi.Component`: reads the arguments, asks `ComponentModel`, writes the reply.
    func component(_ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>, _ node: AXNode)
        -> DBusMethodResult
    {
        let model = ComponentModel(snapshot: served)
        switch String(cString: member) {
        case "GetExtents": return replyExtents(.rect, msg, rawMessage, node)
        case "GetPosition": return replyExtents(.position, msg, rawMessage, node)
        case "GetSize": return replyExtents(.size, msg, rawMessage, node)
        case "Contains":
            if let failure = check(msg, rawMessage, "iiu") { return failure }
            var input = DBusFastReader(rawMessage)
            let pointX = input.int32()
            let pointY = input.int32()
            let coordinateType = ATSPICoordinateType(wireValue: input.uint32())
            let inside = model.contains(node, x: pointX, y: pointY, coordinateType: coordinateType)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(inside) }
        case "GetAccessibleAtPoint":
            if let failure = check(msg, rawMessage, "iiu") { return failure }
            var input = DBusFastReader(rawMessage)
            let pointX = input.int32()
            let pointY = input.int32()
            let coordinateType = ATSPICoordinateType(wireValue: input.uint32())
            // D-HIT-1: the views of the served tree (same revision), so a covering view hides what lies behind.
            let hubSnapshot = try? hub.snapshot(appID)
            let views = hubSnapshot?.revision == served.tree.revision ? hubSnapshot?.views : nil
            let hit = model.accessibleAtPoint(
                in: node, x: pointX, y: pointY, coordinateType: coordinateType, views: views)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in writeRef(&out, hit) }
        case "GetLayer":
            if let failure = check(msg, rawMessage, "") { return failure }
            let layer = model.layer(of: node)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.uint32(layer) }
        case "GetMDIZOrder":
            if let failure = check(msg, rawMessage, "") { return failure }
            let order = model.mdiZOrder(of: node)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.int16(order) }
        case "GetAlpha":
            if let failure = check(msg, rawMessage, "") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.double(1) }
        case "GrabFocus":
            if let failure = check(msg, rawMessage, "") { return failure }
            var focused = false
            if model.canGrabFocus(node) {
                focused = requestFocus(node.id)
                if focused { engineFocusFollowsGrab(node.id) }
                // The hub's focusChanged reached `pending` synchronously: serve and announce it before replying,
                // so the caller's next GetState already reports FOCUSED.
                flushLocked()
            }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(focused) }
        case "ScrollTo":
            if let failure = check(msg, rawMessage, "u") { return failure }
            let onscreen = model.scrollTo(node)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(onscreen) }
        case "ScrollToPoint":
            if let failure = check(msg, rawMessage, "uii") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(false) }
        case "SetExtents":
            if let failure = check(msg, rawMessage, "iiiiu") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(false) }
        case "SetPosition":
            if let failure = check(msg, rawMessage, "iiu") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(false) }
        case "SetSize":
            if let failure = check(msg, rawMessage, "ii") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(false) }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }
}
