import AXATSPIModel
import AXCore
import AXDBus
import AXHub
import AXJSON
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// The interface bit for a full D-Bus interface name (C string).
func interfaceBit(_ name: UnsafePointer<CChar>) -> ATSPIInterfaces? {
    for (bit, n, _) in ATSPIInterfaces.all where n.withCString({ strcmp($0, name) == 0 }) { return bit }
    return nil
}

extension AppBridge {
    func properties(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ t: ServedObject)
        -> DBusMethodResult
    {
        let ifs = interfaces(t)
        if strcmp(member, "Get") == 0 {
            if let e = check(msg, m, "ss") { return e }
            var i = DBusFastReader(m)
            guard let ifaceC = i.cString(), let nameC = i.cString() else { return invalidArgs(msg, "ss") }
            guard let bit = interfaceBit(ifaceC), ifs.contains(bit) else {
                return .error(.unknownInterface(String(cString: ifaceC), path: msg.path))
            }
            guard let p = ATSPIProperty.properties(of: bit).first(where: { strcmp($0.dbusName.cPointer, nameC) == 0 })
            else {
                return .error(.unknownProperty(String(cString: nameC), interface: String(cString: ifaceC)))
            }
            DBusFastWriter.sendReply(on: replyConn, to: m) { o in
                o.variant(p.signature.cPointer) { v in writeProp(p, t, &v) }
            }
            return .handled
        }
        if strcmp(member, "GetAll") == 0 {
            if let e = check(msg, m, "s") { return e }
            var i = DBusFastReader(m)
            guard let ifaceC = i.cString() else { return invalidArgs(msg, "s") }
            guard let bit = interfaceBit(ifaceC), ifs.contains(bit) else {
                return .error(.unknownInterface(String(cString: ifaceC), path: msg.path))
            }
            let props = ATSPIProperty.properties(of: bit)
            DBusFastWriter.sendReply(on: replyConn, to: m) { o in
                o.array("{sv}") { a in
                    for p in props {
                        a.dictEntry { e in
                            e.cString(p.dbusName.cPointer)
                            e.variant(p.signature.cPointer) { v in writeProp(p, t, &v) }
                        }
                    }
                }
            }
            return .handled
        }
        if strcmp(member, "Set") == 0 {
            if let e = check(msg, m, "ssv") { return e }
            let r = msg.reader()
            do throws(DBusError) {
                let iface = try r.readString()
                let name = try r.readString()
                try r.enterVariant()
                let value = try r.readValue()
                try r.leave()
                guard let bit = ATSPIInterfaces.named(iface), ifs.contains(bit) else {
                    return .error(.unknownInterface(iface, path: msg.path))
                }
                guard let p = ATSPIProperty.properties(of: bit).first(where: { $0.dbusName.description == name }) else {
                    return .error(.unknownProperty(name, interface: iface))
                }
                switch (p, t) {
                case (.id, .applicationRoot):
                    guard let v = value.int32Value else {
                        return .error(.invalidArgs("Application.Id is of type 'i', got '\(value.signature)'"))
                    }
                    applicationID = v
                    DBusFastWriter.sendReply(on: replyConn, to: m) { _ in }
                    return .handled
                case (.currentValue, .node(let n)):
                    let d: Double
                    switch value {
                    case .double(let x): d = x
                    case .int32(let x): d = Double(x)
                    case .uint32(let x): d = Double(x)
                    case .int64(let x): d = Double(x)
                    default: return .error(.invalidArgs("Value.CurrentValue is of type 'd', got '\(value.signature)'"))
                    }
                    return setCurrentValue(msg, n, d)
                default:
                    return .error(.propertyReadOnly(name, interface: iface))
                }
            } catch {
                return .error(error)
            }
        }
        return .error(.unknownMethod(for: msg))
    }

    /// Writes a property's value (inside its variant).
    func writeProp(_ property: ATSPIProperty, _ object: ServedObject, _ out: inout DBusFastWriter) {
        let model = PropertyModel(snapshot: served, applicationID: applicationID, version: serverVersion)
        switch model.value(of: property, for: object) {
        case .string(let value): out.string(value)
        case .int32(let value): out.int32(value)
        case .uint32(let value): out.uint32(value)
        case .double(let value): out.double(value)
        case .reference(let reference): writeReference(&out, reference)
        case .position(let row, let column):
            out.structure { pair in
                pair.int32(row)
                pair.int32(column)
            }
        }
    }
}
