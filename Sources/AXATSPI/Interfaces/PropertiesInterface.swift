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
    for (bit, interfaceName, _) in ATSPIInterfaces.all where interfaceName.withCString({ strcmp($0, name) == 0 }) {
        return bit
    }
    return nil
}

extension AppBridge {
    /// `org.freedesktop.DBus.Properties` on an exported object: Get, GetAll, Set.
    func properties(
        _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>, _ object: ServedObject
    )
        -> DBusMethodResult
    {
        let ifs = interfaces(object)
        if strcmp(member, "Get") == 0 { return propertyGet(msg, rawMessage, object, ifs) }
        if strcmp(member, "GetAll") == 0 { return propertyGetAll(msg, rawMessage, object, ifs) }
        if strcmp(member, "Set") == 0 {
            if let failure = check(msg, rawMessage, "ssv") { return failure }
            do throws(DBusError) {
                return try propertySet(msg, rawMessage, object, ifs)
            } catch {
                return .error(error)
            }
        }
        return .error(.unknownMethod(for: msg))
    }

    /// `Get(interface, name)`: the property's value in a variant.
    private func propertyGet(
        _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ object: ServedObject, _ ifs: ATSPIInterfaces
    ) -> DBusMethodResult {
        if let failure = check(msg, rawMessage, "ss") { return failure }
        var input = DBusFastReader(rawMessage)
        guard let ifaceC = input.cString(), let nameC = input.cString() else { return invalidArgs(msg, "ss") }
        guard let bit = interfaceBit(ifaceC), ifs.contains(bit) else {
            return .error(.unknownInterface(String(cString: ifaceC), path: msg.path))
        }
        guard
            let property = ATSPIProperty.properties(of: bit).first(where: {
                strcmp($0.dbusName.cPointer, nameC) == 0
            })
        else {
            return .error(.unknownProperty(String(cString: nameC), interface: String(cString: ifaceC)))
        }
        DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
            out.variant(property.signature.cPointer) { variant in writeProp(property, object, &variant) }
        }
        return .handled
    }

    /// `GetAll(interface)`: every property of the interface, `a{sv}`.
    private func propertyGetAll(
        _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ object: ServedObject, _ ifs: ATSPIInterfaces
    ) -> DBusMethodResult {
        if let failure = check(msg, rawMessage, "s") { return failure }
        var input = DBusFastReader(rawMessage)
        guard let ifaceC = input.cString() else { return invalidArgs(msg, "s") }
        guard let bit = interfaceBit(ifaceC), ifs.contains(bit) else {
            return .error(.unknownInterface(String(cString: ifaceC), path: msg.path))
        }
        let props = ATSPIProperty.properties(of: bit)
        DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
            out.array("{sv}") { array in
                for property in props {
                    array.dictEntry { entry in
                        entry.cString(property.dbusName.cPointer)
                        entry.variant(property.signature.cPointer) { variant in
                            writeProp(property, object, &variant)
                        }
                    }
                }
            }
        }
        return .handled
    }

    /// `Set(interface, name, value)`: the registry's `Application.Id` and `Value.CurrentValue`; everything else is
    /// read-only.
    private func propertySet(
        _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ object: ServedObject, _ ifs: ATSPIInterfaces
    ) throws(DBusError) -> DBusMethodResult {
        let reader = msg.reader()
        let iface = try reader.readString()
        let name = try reader.readString()
        try reader.enterVariant()
        let value = try reader.readValue()
        try reader.leave()
        guard let bit = ATSPIInterfaces.named(iface), ifs.contains(bit) else {
            return .error(.unknownInterface(iface, path: msg.path))
        }
        guard let property = ATSPIProperty.properties(of: bit).first(where: { $0.dbusName.description == name })
        else {
            return .error(.unknownProperty(name, interface: iface))
        }
        switch (property, object) {
        case (.id, .applicationRoot):
            guard let intValue = value.int32Value else {
                return .error(.invalidArgs("Application.Id is of type 'i', got '\(value.signature)'"))
            }
            applicationID = intValue
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { _ in }
            return .handled
        case (.currentValue, .node(let node)):
            guard let newValue = Self.numericValue(value) else {
                return .error(.invalidArgs("Value.CurrentValue is of type 'd', got '\(value.signature)'"))
            }
            return setCurrentValue(msg, node, newValue)
        default:
            return .error(.propertyReadOnly(name, interface: iface))
        }
    }

    /// A D-Bus number as a Double (`d`, `i`, `u`, `x`), nil for anything else.
    private static func numericValue(_ value: DBusValue) -> Double? {
        switch value {
        case .double(let number): return number
        case .int32(let number): return Double(number)
        case .uint32(let number): return Double(number)
        case .int64(let number): return Double(number)
        default: return nil
        }
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
