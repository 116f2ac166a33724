import AXATSPIModel
import AXCore
import AXDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.Image`: the element's extents (its description and locale are properties).
    func image(_ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>, _ node: AXNode)
        -> DBusMethodResult
    {
        switch String(cString: member) {
        case "GetImageExtents": return replyExtents(.rect, msg, rawMessage, node)
        case "GetImagePosition": return replyExtents(.position, msg, rawMessage, node)
        case "GetImageSize": return replyExtents(.size, msg, rawMessage, node)
        default:
            return .error(.unknownMethod(for: msg))
        }
    }
}
