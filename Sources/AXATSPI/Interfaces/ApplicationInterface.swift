import AXATSPIModel
import AXDBus
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.Application` (the root object only).
    func application(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>) -> DBusMethodResult {
        if strcmp(member, "GetLocale") == 0 {
            if let e = check(msg, m, "u") { return e }
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.string(ApplicationModel.localeString) }
            return .handled
        }
        if strcmp(member, "GetApplicationBusAddress") == 0 {
            if let e = check(msg, m, "") { return e }
            let address = peer?.address ?? ""
            DBusFastWriter.sendReply(on: replyConn, to: m) { $0.string(address) }
            return .handled
        }
        return .error(.unknownMethod(for: msg))
    }
}
