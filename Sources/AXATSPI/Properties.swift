import AXCore
import AXDBus
import AXHub
import AXJSON
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// Every D-Bus property the bridge serves.
enum Prop: CaseIterable {
    case name, description, parent, childCount, locale, accessibleId, helpText
    case toolkitName, version, toolkitVersion, atspiVersion, interfaceVersion, id
    case nActions
    case minimumValue, maximumValue, minimumIncrement, currentValue, valueText
    case characterCount, caretOffset
    case nSelectedChildren
    case nRows, nColumns, caption, summary, nSelectedRows, nSelectedColumns
    case columnSpan, position, rowSpan, table
    case imageDescription, imageLocale

    var interface: ATSPIInterfaces {
        switch self {
        case .name, .description, .parent, .childCount, .locale, .accessibleId, .helpText: return .accessible
        case .toolkitName, .version, .toolkitVersion, .atspiVersion, .interfaceVersion, .id: return .application
        case .nActions: return .action
        case .minimumValue, .maximumValue, .minimumIncrement, .currentValue, .valueText: return .value
        case .characterCount, .caretOffset: return .text
        case .nSelectedChildren: return .selection
        case .nRows, .nColumns, .caption, .summary, .nSelectedRows, .nSelectedColumns: return .table
        case .columnSpan, .position, .rowSpan, .table: return .tableCell
        case .imageDescription, .imageLocale: return .image
        }
    }

    var dbusName: StaticString {
        switch self {
        case .name: return "Name"
        case .description: return "Description"
        case .parent: return "Parent"
        case .childCount: return "ChildCount"
        case .locale: return "Locale"
        case .accessibleId: return "AccessibleId"
        case .helpText: return "HelpText"
        case .toolkitName: return "ToolkitName"
        case .version: return "Version"
        case .toolkitVersion: return "ToolkitVersion"
        case .atspiVersion: return "AtspiVersion"
        case .interfaceVersion: return "InterfaceVersion"
        case .id: return "Id"
        case .nActions: return "NActions"
        case .minimumValue: return "MinimumValue"
        case .maximumValue: return "MaximumValue"
        case .minimumIncrement: return "MinimumIncrement"
        case .currentValue: return "CurrentValue"
        case .valueText: return "Text"
        case .characterCount: return "CharacterCount"
        case .caretOffset: return "CaretOffset"
        case .nSelectedChildren: return "NSelectedChildren"
        case .nRows: return "NRows"
        case .nColumns: return "NColumns"
        case .caption: return "Caption"
        case .summary: return "Summary"
        case .nSelectedRows: return "NSelectedRows"
        case .nSelectedColumns: return "NSelectedColumns"
        case .columnSpan: return "ColumnSpan"
        case .position: return "Position"
        case .rowSpan: return "RowSpan"
        case .table: return "Table"
        case .imageDescription: return "ImageDescription"
        case .imageLocale: return "ImageLocale"
        }
    }

    var signature: StaticString {
        switch self {
        case .name, .description, .locale, .accessibleId, .helpText, .toolkitName, .version, .toolkitVersion,
            .atspiVersion, .valueText, .imageDescription, .imageLocale:
            return "s"
        case .parent, .caption, .summary, .table: return "(so)"
        case .interfaceVersion: return "u"
        case .minimumValue, .maximumValue, .minimumIncrement, .currentValue: return "d"
        case .position: return "(ii)"
        default: return "i"
        }
    }

    static let byInterface: [(ATSPIInterfaces, [Prop])] = {
        var out: [(ATSPIInterfaces, [Prop])] = []
        for (bit, _, _) in ATSPIInterfaces.all {
            out.append((bit, Prop.allCases.filter { $0.interface == bit }))
        }
        return out
    }()

    static func props(of iface: ATSPIInterfaces) -> [Prop] { byInterface.first { $0.0 == iface }?.1 ?? [] }
}

@inline(__always) func cs(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// The interface bit for a full D-Bus interface name (C string).
func interfaceBit(_ name: UnsafePointer<CChar>) -> ATSPIInterfaces? {
    for (bit, n, _) in ATSPIInterfaces.all where n.withCString({ strcmp($0, name) == 0 }) { return bit }
    return nil
}

extension AppBridge {
    func properties(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ t: Target)
        -> DBusMethodResult
    {
        let ifs = interfaces(t)
        if strcmp(member, "Get") == 0 {
            if let e = check(msg, m, "ss") { return e }
            var i = In(m)
            guard let ifaceC = i.cString(), let nameC = i.cString() else { return invalidArgs(msg, "ss") }
            guard let bit = interfaceBit(ifaceC), ifs.contains(bit) else {
                return .error(.unknownInterface(String(cString: ifaceC), path: msg.path))
            }
            guard let p = Prop.props(of: bit).first(where: { strcmp(cs($0.dbusName), nameC) == 0 }) else {
                return .error(.unknownProperty(String(cString: nameC), interface: String(cString: ifaceC)))
            }
            sendReply(replyConn, to: m) { o in o.variant(cs(p.signature)) { v in writeProp(p, t, &v) } }
            return .handled
        }
        if strcmp(member, "GetAll") == 0 {
            if let e = check(msg, m, "s") { return e }
            var i = In(m)
            guard let ifaceC = i.cString() else { return invalidArgs(msg, "s") }
            guard let bit = interfaceBit(ifaceC), ifs.contains(bit) else {
                return .error(.unknownInterface(String(cString: ifaceC), path: msg.path))
            }
            let props = Prop.props(of: bit)
            sendReply(replyConn, to: m) { o in
                o.array("{sv}") { a in
                    for p in props {
                        a.container(tDict, nil) { e in
                            e.cString(cs(p.dbusName))
                            e.variant(cs(p.signature)) { v in writeProp(p, t, &v) }
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
                guard let p = Prop.props(of: bit).first(where: { $0.dbusName.description == name }) else {
                    return .error(.unknownProperty(name, interface: iface))
                }
                switch (p, t) {
                case (.id, .root):
                    guard let v = value.int32Value else {
                        return .error(.invalidArgs("Application.Id is of type 'i', got '\(value.signature)'"))
                    }
                    applicationID = v
                    sendReply(replyConn, to: m) { _ in }
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

    func writeProp(_ p: Prop, _ t: Target, _ o: inout Out) {
        let node: AXNode?
        if case .node(let n) = t { node = n } else { node = nil }
        switch p {
        case .name: o.string(name(t))
        case .description: o.string(node.map { description($0) } ?? "")
        case .parent: writeParentRef(&o, t)
        case .childCount: o.int32(Int32(clamping: children(t).count))
        case .locale: o.string(node?.language ?? AppBridge.localeString)
        case .accessibleId: o.string(node?.identifier ?? "")
        case .helpText: o.string(node?.hint ?? "")
        case .toolkitName: o.string(ATSPIMapping.toolkitName)
        case .version, .toolkitVersion: o.string(serverVersion)
        case .atspiVersion: o.string("2.1")
        case .interfaceVersion: o.uint32(1)
        case .id: o.int32(applicationID)
        case .nActions: o.int32(Int32(node.map { ATSPIMapping.actions($0).count } ?? 0))
        case .minimumValue: o.double(node?.numeric?.minimum ?? 0)
        case .maximumValue: o.double(node?.numeric?.maximum ?? 0)
        case .minimumIncrement: o.double(node?.numeric?.step ?? 0)
        case .currentValue: o.double(node?.numeric?.current ?? 0)
        case .valueText: o.string(node?.value ?? "")
        case .characterCount: o.int32(Int32(clamping: node.map { ATSPIMapping.text($0).unicodeScalars.count } ?? 0))
        case .caretOffset: o.int32(node.map { caretOffset($0) } ?? 0)
        case .nSelectedChildren: o.int32(Int32(clamping: node.map { selectedChildren($0).count } ?? 0))
        case .nRows: o.int32(Int32(clamping: node?.table?.rows ?? 0))
        case .nColumns: o.int32(Int32(clamping: node?.table?.columns ?? 0))
        case .caption, .summary: writeNullRef(&o)
        case .nSelectedRows, .nSelectedColumns: o.int32(0)
        case .columnSpan: o.int32(Int32(clamping: node?.cell?.columnSpan ?? 1))
        case .rowSpan: o.int32(Int32(clamping: node?.cell?.rowSpan ?? 1))
        case .position:
            o.structure { s in
                s.int32(Int32(clamping: node?.cell?.row ?? 0))
                s.int32(Int32(clamping: node?.cell?.column ?? 0))
            }
        case .table: writeRef(&o, node.flatMap { tableOf($0) })
        case .imageDescription: o.string(node?.label ?? "")
        case .imageLocale: o.string(node?.language ?? AppBridge.localeString)
        }
    }

    /// The hint, except when an alert's message is also its child label (Orca would speak it twice).
    func description(_ n: AXNode) -> String {
        guard let h = n.hint else { return "" }
        if n.role == .alert, n.children.contains(where: { served.tree[$0]?.label == h }) { return "" }
        return h
    }

    func caretOffset(_ n: AXNode) -> Int32 {
        // Text inputs: the caret sits at the end (the mirrored app reports no selection); labels: 0.
        ATSPIMapping.isTextInput(n.role) ? Int32(clamping: ATSPIMapping.text(n).unicodeScalars.count) : 0
    }

    func selectedChildren(_ n: AXNode) -> [String] {
        n.children.filter { served.tree[$0]?.states.contains(.selected) == true }
    }

    func tableOf(_ n: AXNode) -> String? {
        for a in served.tree.ancestors(of: n.id) where served.tree[a]?.table != nil { return a }
        return nil
    }
}
