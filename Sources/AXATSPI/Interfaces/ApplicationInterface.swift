import AXATSPIModel
import AXDBus
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.Application` (the root object only).
    func application(_ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>)
        -> DBusMethodResult
    {
        if strcmp(member, "GetLocale") == 0 {
            if let failure = check(msg, rawMessage, "u") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.string(ApplicationModel.localeString) }
            return .handled
        }
        if strcmp(member, "GetApplicationBusAddress") == 0 {
            if let failure = check(msg, rawMessage, "") { return failure }
            let address = peer?.address ?? ""
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.string(address) }
            return .handled
        }
        return .error(.unknownMethod(for: msg))
    }
}
