import AXATSPIModel
import AXCore
import AXDBus
import AXHub
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.Action`: reads the arguments, asks `ActionModel`, writes the reply or routes the action.
    func action(_ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>, _ node: AXNode)
        -> DBusMethodResult
    {
        let model = ActionModel(node: node, snapshot: served)
        let name = String(cString: member)
        if name == "GetActions" { return reply(msg, rawMessage, "") { _, out in writeActions(&out, model.entries) } }
        guard ["GetDescription", "GetName", "GetLocalizedName", "GetKeyBinding", "DoAction"].contains(name) else {
            return .error(.unknownMethod(for: msg))
        }
        if let failure = check(msg, rawMessage, "i") { return failure }
        var input = DBusFastReader(rawMessage)
        let index = input.int32()
        guard let entry = model.entry(at: index) else { return .error(.invalidArgs(model.outOfRangeMessage(index))) }
        switch name {
        case "GetDescription": DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.string(entry.description) }
        case "GetName": DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.string(entry.name) }
        case "GetLocalizedName":
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.string(entry.localizedName) }
        case "GetKeyBinding": DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.string(entry.keyBinding) }
        default: return doAction(msg, entry, on: node)
        }
        return .handled
    }

    /// `GetActions`' reply `a(sss)`: localized name, description, key binding per action.
    private func writeActions(_ out: inout DBusFastWriter, _ entries: [ATSPIActionEntry]) {
        out.array("(sss)") { array in
            for entry in entries {
                array.structure { item in
                    item.string(entry.localizedName)
                    item.string(entry.description)
                    item.string(entry.keyBinding)
                }
            }
        }
    }

    /// `DoAction(i)`: routes the entry's request to the app, or steps the rotor a `next-`/`previous-` action names.
    private func doAction(_ msg: DBusMessage, _ entry: ATSPIActionEntry, on node: AXNode) -> DBusMethodResult {
        guard let request = ActionModel.request(for: entry) else {
            guard case .rotor(let rotor, let direction) = entry.kind else { return .error(.unknownMethod(for: msg)) }
            return routeRotorStep(msg, rotor: rotor, direction: direction, declaredBy: node.id)
        }
        if let refusal = coveredRefusal(request, on: node.id) { return .error(refusal) }
        return routeAsync(msg, request, on: node.id)
    }

    /// D-HIT-1 on AT-SPI: `DoAction` of activate on an element a tap at its activation point does not reach is
    /// refused as `action.activate` refuses it (the same AXCore check, on the hub's current tree).
    private func coveredRefusal(_ request: ElementAction, on element: String) -> DBusError? {
        guard request == .activate, let snap = try? hub.snapshot(appID), let current = snap.tree[element] else {
            return nil
        }
        switch ActionRouting.actionabilityFailure(of: current, for: request, tree: snap.tree, views: snap.views) {
        case .notHittable(let obscuredBy)?:
            let by = obscuredBy.map { " ('\($0)' is in front of it)" } ?? ""
            return DBusError.failed(
                "The element cannot be interacted with: not hittable, a tap at its activation point does not reach it\(by)"
            )
        case .offscreen?, .disabled?, nil:
            return nil
        }
    }
}
