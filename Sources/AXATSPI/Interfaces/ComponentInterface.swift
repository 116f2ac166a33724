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
        let memberName = String(cString: member)
        if let result = componentQuery(memberName, msg, rawMessage, node) { return result }
        if let result = componentChange(memberName, msg, rawMessage, node) { return result }
        return .error(.unknownMethod(for: msg))
    }

    /// The Component methods that only read: extents, hit tests, layer, z-order, alpha (nil: not one of them).
    private func componentQuery(
        _ memberName: String, _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ node: AXNode
    ) -> DBusMethodResult? {
        let model = ComponentModel(snapshot: served)
        switch memberName {
        case "GetExtents": return replyExtents(.rect, msg, rawMessage, node)
        case "GetPosition": return replyExtents(.position, msg, rawMessage, node)
        case "GetSize": return replyExtents(.size, msg, rawMessage, node)
        case "Contains":
            return reply(msg, rawMessage, "iiu") { input, out in
                let pointX = input.int32()
                let pointY = input.int32()
                let coordinateType = ATSPICoordinateType(wireValue: input.uint32())
                out.bool(model.contains(node, x: pointX, y: pointY, coordinateType: coordinateType))
            }
        case "GetAccessibleAtPoint":
            return reply(msg, rawMessage, "iiu") { input, out in writeRef(&out, accessibleAtPoint(in: node, &input)) }
        case "GetLayer": return reply(msg, rawMessage, "") { $1.uint32(model.layer(of: node)) }
        case "GetMDIZOrder": return reply(msg, rawMessage, "") { $1.int16(model.mdiZOrder(of: node)) }
        case "GetAlpha": return reply(msg, rawMessage, "") { $1.double(1) }
        default: return nil
        }
    }

    /// `GetAccessibleAtPoint(x, y, coordinateType)`: the deepest element at the point inside `node`.
    private func accessibleAtPoint(in node: AXNode, _ input: inout DBusFastReader) -> String? {
        let pointX = input.int32()
        let pointY = input.int32()
        let coordinateType = ATSPICoordinateType(wireValue: input.uint32())
        // D-HIT-1: the views of the served tree (same revision), so a covering view hides what lies behind.
        let hubSnapshot = try? hub.snapshot(appID)
        let views = hubSnapshot?.revision == served.tree.revision ? hubSnapshot?.views : nil
        return ComponentModel(snapshot: served).accessibleAtPoint(
            in: node, x: pointX, y: pointY, coordinateType: coordinateType, views: views)
    }

    /// The Component methods that act: focus, scrolling, and the geometry setters UIKit elements refuse (nil: not
    /// one of them).
    private func componentChange(
        _ memberName: String, _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ node: AXNode
    ) -> DBusMethodResult? {
        switch memberName {
        case "GrabFocus": return replyBool(msg, rawMessage, "") { _ in grabFocus(node) }
        case "ScrollTo": return replyBool(msg, rawMessage, "u") { _ in ComponentModel(snapshot: served).scrollTo(node) }
        case "ScrollToPoint": return replyBool(msg, rawMessage, "uii") { _ in false }
        case "SetExtents": return replyBool(msg, rawMessage, "iiiiu") { _ in false }
        case "SetPosition": return replyBool(msg, rawMessage, "iiu") { _ in false }
        case "SetSize": return replyBool(msg, rawMessage, "ii") { _ in false }
        default: return nil
        }
    }

    /// `GrabFocus`: moves the focus to `node` when it can take it; whether it did.
    private func grabFocus(_ node: AXNode) -> Bool {
        guard ComponentModel(snapshot: served).canGrabFocus(node) else { return false }
        let focused = requestFocus(node.id)
        if focused { engineFocusFollowsGrab(node.id) }
        // The hub's focusChanged reached `pending` synchronously: serve and announce it before replying,
        // so the caller's next GetState already reports FOCUSED.
        flushLocked()
        return focused
    }
}
