import AXATSPIModel
import AXCore
import AXDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `Properties.Set(Value.CurrentValue)`: the plan `ValueModel` makes, routed to the app (the Value
    /// interface has no methods; its properties are served by `writeProperty`).
    func setCurrentValue(_ msg: DBusMessage, _ node: AXNode, _ target: Double) -> DBusMethodResult {
        switch ValueModel.plan(settingCurrentValueOf: node, to: target) {
        case .invalid:
            return .error(.invalidArgs("CurrentValue must be a finite number"))
        case .unchanged:
            DBusFastWriter.sendReply(on: replyConn, to: msg.pointer) { _ in }
            return .handled
        case .set(let value):
            return routeAsync(msg, .setValue(.number(value)), on: node.id, emptyReply: true)
        case .step(let action, let count):
            return routeAsync(msg, action, on: node.id, repeated: count, emptyReply: true)
        }
    }
}
