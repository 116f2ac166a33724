import AXCore

/// Every D-Bus property the bridge serves, with its interface, name and signature.
package enum ATSPIProperty: CaseIterable, Sendable {
    case name, description, parent, childCount, locale, accessibleId, helpText
    case toolkitName, version, toolkitVersion, atspiVersion, interfaceVersion, id
    case nActions
    case minimumValue, maximumValue, minimumIncrement, currentValue, valueText
    case characterCount, caretOffset
    case nSelectedChildren
    case nRows, nColumns, caption, summary, nSelectedRows, nSelectedColumns
    case columnSpan, position, rowSpan, table
    case imageDescription, imageLocale

    /// The interface that declares it.
    package var interface: ATSPIInterfaces {
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

    /// The property name on the wire.
    package var dbusName: StaticString {
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

    /// The value's D-Bus signature (the variant's).
    package var signature: StaticString {
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

    static let byInterface: [(ATSPIInterfaces, [ATSPIProperty])] = {
        var out: [(ATSPIInterfaces, [ATSPIProperty])] = []
        for (bit, _, _) in ATSPIInterfaces.all {
            out.append((bit, ATSPIProperty.allCases.filter { $0.interface == bit }))
        }
        return out
    }()

    /// The properties of an interface, in `GetAll` order.
    package static func properties(of interface: ATSPIInterfaces) -> [ATSPIProperty] {
        byInterface.first { $0.0 == interface }?.1 ?? []
    }
}

/// A property's value, typed as the wire carries it.
package enum ATSPIPropertyValue: Sendable, Equatable {
    case string(String)
    case int32(Int32)
    case uint32(UInt32)
    case double(Double)
    case reference(ObjectReference)
    /// `(ii)`: a cell's row and column.
    case position(row: Int32, column: Int32)
}

/// Answers of `org.freedesktop.DBus.Properties.Get`/`GetAll` for every AT-SPI property, over a served snapshot.
package struct PropertyModel {
    /// The snapshot answered from.
    package let snapshot: ServedSnapshot
    /// `Application.Id` (set by the registry).
    package let applicationID: Int32
    /// `Application.Version` / `ToolkitVersion`: the server's version.
    package let version: String

    package init(snapshot: ServedSnapshot, applicationID: Int32, version: String) {
        self.snapshot = snapshot
        self.applicationID = applicationID
        self.version = version
    }

    /// The value of `property` for `object` (properties of interfaces the object lacks answer neutral values).
    package func value(of property: ATSPIProperty, for object: ServedObject) -> ATSPIPropertyValue {
        switch property {
        case .name, .description, .parent, .childCount, .locale, .accessibleId, .helpText:
            return accessibleValue(of: property, for: object)
        case .toolkitName, .version, .toolkitVersion, .atspiVersion, .interfaceVersion, .id:
            return applicationValue(of: property)
        case .minimumValue, .maximumValue, .minimumIncrement, .currentValue, .valueText:
            return numericValue(of: property, for: object.node)
        case .nRows, .nColumns, .caption, .summary, .nSelectedRows, .nSelectedColumns, .columnSpan, .rowSpan,
            .position, .table:
            return tableValue(of: property, for: object.node)
        case .nActions, .characterCount, .caretOffset, .nSelectedChildren, .imageDescription, .imageLocale:
            return interfaceValue(of: property, for: object.node)
        }
    }

    /// `Accessible` properties.
    private func accessibleValue(of property: ATSPIProperty, for object: ServedObject) -> ATSPIPropertyValue {
        let node = object.node
        let accessible = AccessibleModel(snapshot: snapshot)
        switch property {
        case .name: return .string(accessible.name(of: object))
        case .description: return .string(node.map { accessible.description(of: $0) } ?? "")
        case .parent: return .reference(accessible.parent(of: object))
        case .childCount: return .int32(Int32(clamping: accessible.children(of: object).count))
        case .locale: return .string(node?.language ?? ApplicationModel.localeString)
        case .accessibleId: return .string(node?.identifier ?? "")
        // HelpText stays empty: the hint is the Description, which every AT reads; served twice, Orca ≥ 45 says it
        // twice (its description, then its "tutorial", D-ATSPI-HELP-1).
        default: return .string("")  // helpText
        }
    }

    /// `Application` properties.
    private func applicationValue(of property: ATSPIProperty) -> ATSPIPropertyValue {
        switch property {
        case .toolkitName: return .string(ApplicationModel.toolkitName)
        case .atspiVersion: return .string(ApplicationModel.atspiVersion)
        case .interfaceVersion: return .uint32(ApplicationModel.interfaceVersion)
        case .id: return .int32(applicationID)
        default: return .string(version)  // version, toolkitVersion
        }
    }

    /// `Value` properties.
    private func numericValue(of property: ATSPIProperty, for node: AXNode?) -> ATSPIPropertyValue {
        switch property {
        case .minimumValue: return .double(node?.numeric?.minimum ?? 0)
        case .maximumValue: return .double(node?.numeric?.maximum ?? 0)
        case .minimumIncrement: return .double(node?.numeric?.step ?? 0)
        case .currentValue: return .double(node?.numeric?.current ?? 0)
        default: return .string(node?.value ?? "")  // valueText
        }
    }

    /// `Table` and `TableCell` properties.
    private func tableValue(of property: ATSPIProperty, for node: AXNode?) -> ATSPIPropertyValue {
        switch property {
        case .nRows: return .int32(Int32(clamping: node?.table?.rows ?? 0))
        case .nColumns: return .int32(Int32(clamping: node?.table?.columns ?? 0))
        case .caption, .summary: return .reference(.null)
        case .nSelectedRows:
            let rows = node.map { TableModel(table: $0, snapshot: snapshot).selectedRows.count } ?? 0
            return .int32(Int32(clamping: rows))
        case .nSelectedColumns: return .int32(0)
        case .columnSpan: return .int32(Int32(clamping: node?.cell?.columnSpan ?? 1))
        case .rowSpan: return .int32(Int32(clamping: node?.cell?.rowSpan ?? 1))
        case .position:
            return .position(
                row: Int32(clamping: node?.cell?.row ?? 0), column: Int32(clamping: node?.cell?.column ?? 0))
        default:  // table
            let table = node.flatMap { TableCellModel.table(containing: $0, in: snapshot) }
            return .reference(table.map { .element($0) } ?? .null)
        }
    }

    /// `Action`, `Text`, `Selection` and `Image` properties.
    private func interfaceValue(of property: ATSPIProperty, for node: AXNode?) -> ATSPIPropertyValue {
        switch property {
        case .nActions:
            return .int32(Int32(clamping: node.map { ActionModel(node: $0, snapshot: snapshot).entries.count } ?? 0))
        case .characterCount: return .int32(Int32(clamping: node.map { TextModel(node: $0).characterCount } ?? 0))
        case .caretOffset: return .int32(node.map { TextModel.caretOffset(of: $0, in: snapshot) } ?? 0)
        case .nSelectedChildren:
            let count = node.map { SelectionModel(container: $0, snapshot: snapshot).selectedChildren.count } ?? 0
            return .int32(Int32(clamping: count))
        case .imageDescription:
            return .string(node.map { ImageModel(snapshot: snapshot).imageDescription(of: $0) } ?? "")
        default:  // imageLocale
            return .string(
                node.map { ImageModel(snapshot: snapshot).imageLocale(of: $0) } ?? ApplicationModel.localeString)
        }
    }
}
