import AXATSPIModel
import AXCore
import AXDBus
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.Cache` at `/org/a11y/atspi/cache`: `GetItems` writes `CacheModel`'s items.
    func handleCache(_ msg: DBusMessage, _ iface: UnsafePointer<CChar>?, _ member: UnsafePointer<CChar>)
        -> DBusMethodResult
    {
        let rawMessage = msg.pointer
        if cStringEquals(iface, "org.freedesktop.DBus.Introspectable"), strcmp(member, "Introspect") == 0 {
            let xml = DBusIntrospection.xml(interfaces: [
                DBusInterfaceDescription(
                    name: ATSPIInterface.cache,
                    methods: [.method("GetItems", out: ["a((so)(so)(so)iiassusau)"])],
                    signals: [
                        .signal("AddAccessible", ["((so)(so)(so)iiassusau)"]), .signal("RemoveAccessible", ["(so)"]),
                    ])
            ])
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.string(xml) }
            return .handled
        }
        guard cStringEquals(iface, "org.a11y.atspi.Cache") || iface == nil, strcmp(member, "GetItems") == 0 else {
            return .error(.unknownMethod(for: msg))
        }
        if let failure = check(msg, rawMessage, "") { return failure }
        let model = CacheModel(snapshot: served)
        DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
            out.array("((so)(so)(so)iiassusau)") { array in
                writeCacheItem(&array, model.rootItem)
                served.tree.walk { node, _ in
                    writeCacheItem(&array, model.item(for: node, siblingIndex: &siblingIndex))
                    return true
                }
            }
        }
        HeapTrim.soon()
        return .handled
    }

    /// One cache item: (object, app root, parent, index in parent, child count, interfaces, name, role,
    /// description, states).
    func writeCacheItem(_ out: inout DBusFastWriter, _ item: CacheItem) {
        out.structure { fields in
            if let id = item.elementID { writeRef(&fields, id) } else { writeRootRef(&fields) }
            writeRootRef(&fields)
            writeReference(&fields, item.parent)
            fields.int32(item.indexInParent)
            fields.int32(item.childCount)
            fields.array("s") { list in
                for name in item.interfaces.names { list.string(name) }
            }
            fields.string(item.name)
            fields.uint32(item.role.rawValue)
            fields.string(item.description)
            fields.states(item.states)
        }
    }
}
