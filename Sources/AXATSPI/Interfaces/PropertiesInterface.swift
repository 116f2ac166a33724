import AXATSPIModel
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
            guard let p = Prop.props(of: bit).first(where: { strcmp($0.dbusName.cPointer, nameC) == 0 }) else {
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
            let props = Prop.props(of: bit)
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
                guard let p = Prop.props(of: bit).first(where: { $0.dbusName.description == name }) else {
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

    func writeProp(_ property: Prop, _ object: ServedObject, _ out: inout DBusFastWriter) {
        let node = object.node
        switch property {
        case .name: out.string(accessibleModel.name(of: object))
        case .description: out.string(node.map { accessibleModel.description(of: $0) } ?? "")
        case .parent: writeParentRef(&out, object)
        case .childCount: out.int32(Int32(clamping: accessibleModel.children(of: object).count))
        case .locale: out.string(node?.language ?? ApplicationModel.localeString)
        case .accessibleId: out.string(node?.identifier ?? "")
        case .helpText: out.string(node?.hint ?? "")
        case .toolkitName: out.string(ApplicationModel.toolkitName)
        case .version, .toolkitVersion: out.string(serverVersion)
        case .atspiVersion: out.string(ApplicationModel.atspiVersion)
        case .interfaceVersion: out.uint32(ApplicationModel.interfaceVersion)
        case .id: out.int32(applicationID)
        case .nActions:
            out.int32(Int32(clamping: node.map { ActionModel(node: $0, snapshot: served).entries.count } ?? 0))
        case .minimumValue: out.double(node?.numeric?.minimum ?? 0)
        case .maximumValue: out.double(node?.numeric?.maximum ?? 0)
        case .minimumIncrement: out.double(node?.numeric?.step ?? 0)
        case .currentValue: out.double(node?.numeric?.current ?? 0)
        case .valueText: out.string(node?.value ?? "")
        case .characterCount: out.int32(Int32(clamping: node.map { TextModel(node: $0).characterCount } ?? 0))
        case .caretOffset: out.int32(node.map { TextModel.caretOffset(of: $0) } ?? 0)
        case .nSelectedChildren:
            let count = node.map { SelectionModel(container: $0, snapshot: served).selectedChildren.count } ?? 0
            out.int32(Int32(clamping: count))
        case .nRows: out.int32(Int32(clamping: node?.table?.rows ?? 0))
        case .nColumns: out.int32(Int32(clamping: node?.table?.columns ?? 0))
        case .caption, .summary: writeNullRef(&out)
        case .nSelectedRows, .nSelectedColumns: out.int32(0)
        case .columnSpan:
            out.int32(node.map { TableCellModel(cell: $0, snapshot: served).rowColumnSpan.columnSpan } ?? 1)
        case .rowSpan: out.int32(node.map { TableCellModel(cell: $0, snapshot: served).rowColumnSpan.rowSpan } ?? 1)
        case .position:
            let position = node.map { TableCellModel(cell: $0, snapshot: served).position } ?? (row: 0, column: 0)
            out.structure { pair in
                pair.int32(position.row)
                pair.int32(position.column)
            }
        case .table: writeRef(&out, node.flatMap { TableCellModel.table(containing: $0, in: served) })
        case .imageDescription: out.string(node.map { ImageModel(snapshot: served).imageDescription(of: $0) } ?? "")
        case .imageLocale:
            out.string(node.map { ImageModel(snapshot: served).imageLocale(of: $0) } ?? ApplicationModel.localeString)
        }
    }
}
