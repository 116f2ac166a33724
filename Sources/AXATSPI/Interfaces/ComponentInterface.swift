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
    func replyExtents(_ query: ExtentsQuery, _ msg: DBusMessage, _ m: OpaquePointer, _ node: AXNode)
        -> DBusMethodResult
    {
        if let e = check(msg, m, query == .size ? "" : "u") { return e }
        var coordinateType = ATSPICoordinateType.screen
        if query != .size {
            var input = DBusFastReader(m)
            coordinateType = ATSPICoordinateType(wireValue: input.uint32())
        }
        let extents = ComponentModel(snapshot: served).extents(of: node, coordinateType: coordinateType)
        switch query {
        case .rect: DBusFastWriter.sendReply(on: replyConn, to: m) { $0.rect(extents) }
        case .position:
            DBusFastWriter.sendReply(on: replyConn, to: m) { out in
                out.int32(extents.x)
                out.int32(extents.y)
            }
        case .size:
            DBusFastWriter.sendReply(on: replyConn, to: m) { out in
                out.int32(extents.width)
                out.int32(extents.height)
            }
        }
        return .handled
    }

    /// `org.a11y.atspi.Component`: reads the arguments, asks `ComponentModel`, writes the reply.
    func component(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ node: AXNode)
        -> DBusMethodResult
    {
        let model = ComponentModel(snapshot: served)
        switch String(cString: member) {
        case "GetExtents": return replyExtents(.rect, msg, m, node)
        case "GetPosition": return replyExtents(.position, msg, m, node)
        case "GetSize": return replyExtents(.size, msg, m, node)
        case "Contains":
            if let e = check(msg, m, "iiu") { return e }
            var input = DBusFastReader(m)
            let x = input.int32()
            let y = input.int32()
            let coordinateType = ATSPICoordinateType(wireValue: input.uint32())
            let inside = model.contains(node, x: x, y: y, coordinateType: coordinateType)
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.bool(inside) }
        case "GetAccessibleAtPoint":
            if let e = check(msg, m, "iiu") { return e }
            var input = DBusFastReader(m)
            let x = input.int32()
            let y = input.int32()
            let coordinateType = ATSPICoordinateType(wireValue: input.uint32())
            let hit = model.accessibleAtPoint(in: node, x: x, y: y, coordinateType: coordinateType)
            DBusFastWriter.sendReply(on: replyConn, to: m) { out in writeRef(&out, hit) }
        case "GetLayer":
            if let e = check(msg, m, "") { return e }
            let layer = model.layer(of: node)
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.uint32(layer) }
        case "GetMDIZOrder":
            if let e = check(msg, m, "") { return e }
            let order = model.mdiZOrder(of: node)
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.int16(order) }
        case "GetAlpha":
            if let e = check(msg, m, "") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.double(1) }
        case "GrabFocus":
            if let e = check(msg, m, "") { return e }
            var focused = false
            if model.canGrabFocus(node) {
                focused = requestFocus(node.id)
                if focused { engineFocusFollowsGrab(node.id) }
                // The hub's focusChanged reached `pending` synchronously: serve and announce it before replying,
                // so the caller's next GetState already reports FOCUSED.
                flushLocked()
            }
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.bool(focused) }
        case "ScrollTo":
            if let e = check(msg, m, "u") { return e }
            let onscreen = model.scrollTo(node)
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.bool(onscreen) }
        case "ScrollToPoint":
            if let e = check(msg, m, "uii") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.bool(false) }
        case "SetExtents":
            if let e = check(msg, m, "iiiiu") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.bool(false) }
        case "SetPosition":
            if let e = check(msg, m, "iiu") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.bool(false) }
        case "SetSize":
            if let e = check(msg, m, "ii") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.bool(false) }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }
}
