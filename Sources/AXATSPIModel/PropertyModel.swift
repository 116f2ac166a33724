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
        case .childCount, .id, .nActions, .characterCount, .caretOffset, .nSelectedChildren, .nRows, .nColumns,
            .nSelectedRows, .nSelectedColumns, .columnSpan, .rowSpan:
            return "i"
        }
    }

    /// The property as a case of the part of `PropertyModel` that answers it: every property has one (an
    /// exhaustive switch), and each part switches over its own properties exhaustively, so a new property does not
    /// compile until it is answered (issue 31 item 3; before, each part ended in a `default:` that answered the
    /// last of its properties, and silently any other).
    package var answeredBy: PropertyModel.Part {
        switch self {
        case .name: .accessible(.name)
        case .description: .accessible(.description)
        case .parent: .accessible(.parent)
        case .childCount: .accessible(.childCount)
        case .locale: .accessible(.locale)
        case .accessibleId: .accessible(.accessibleId)
        case .helpText: .accessible(.helpText)
        case .toolkitName: .application(.toolkitName)
        case .version: .application(.version)
        case .toolkitVersion: .application(.toolkitVersion)
        case .atspiVersion: .application(.atspiVersion)
        case .interfaceVersion: .application(.interfaceVersion)
        case .id: .application(.id)
        case .minimumValue: .numeric(.minimumValue)
        case .maximumValue: .numeric(.maximumValue)
        case .minimumIncrement: .numeric(.minimumIncrement)
        case .currentValue: .numeric(.currentValue)
        case .valueText: .numeric(.valueText)
        case .nRows: .table(.nRows)
        case .nColumns: .table(.nColumns)
        case .caption: .table(.caption)
        case .summary: .table(.summary)
        case .nSelectedRows: .table(.nSelectedRows)
        case .nSelectedColumns: .table(.nSelectedColumns)
        case .columnSpan: .table(.columnSpan)
        case .rowSpan: .table(.rowSpan)
        case .position: .table(.position)
        case .table: .table(.table)
        case .nActions: .interface(.nActions)
        case .characterCount: .interface(.characterCount)
        case .caretOffset: .interface(.caretOffset)
        case .nSelectedChildren: .interface(.nSelectedChildren)
        case .imageDescription: .interface(.imageDescription)
        case .imageLocale: .interface(.imageLocale)
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

    /// The parts of the model that answer properties, each with its own properties (`ATSPIProperty.answeredBy`).
    package enum Part: Sendable, Equatable {
        case accessible(AccessibleProperty)
        case application(ApplicationProperty)
        case numeric(NumericProperty)
        case table(TableProperty)
        case interface(InterfaceProperty)
    }
    /// `Accessible` properties.
    package enum AccessibleProperty: Sendable {
        case name, description, parent, childCount, locale, accessibleId, helpText
    }
    /// `Application` properties.
    package enum ApplicationProperty: Sendable {
        case toolkitName, version, toolkitVersion, atspiVersion, interfaceVersion, id
    }
    /// `Value` properties.
    package enum NumericProperty: Sendable {
        case minimumValue, maximumValue, minimumIncrement, currentValue, valueText
    }
    /// `Table` and `TableCell` properties.
    package enum TableProperty: Sendable {
        case nRows, nColumns, caption, summary, nSelectedRows, nSelectedColumns, columnSpan, rowSpan, position, table
    }
    /// `Action`, `Text`, `Selection` and `Image` properties.
    package enum InterfaceProperty: Sendable {
        case nActions, characterCount, caretOffset, nSelectedChildren, imageDescription, imageLocale
    }

    /// The value of `property` for `object` (properties of interfaces the object lacks answer neutral values).
    package func value(of property: ATSPIProperty, for object: ServedObject) -> ATSPIPropertyValue {
        switch property.answeredBy {
        case .accessible(let property): return accessibleValue(of: property, for: object)
        case .application(let property): return applicationValue(of: property)
        case .numeric(let property): return numericValue(of: property, for: object.node)
        case .table(let property): return tableValue(of: property, for: object.node)
        case .interface(let property): return interfaceValue(of: property, for: object.node)
        }
    }

    /// `Accessible` properties.
    private func accessibleValue(of property: AccessibleProperty, for object: ServedObject) -> ATSPIPropertyValue {
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
        case .helpText: return .string("")
        }
    }

    /// `Application` properties.
    private func applicationValue(of property: ApplicationProperty) -> ATSPIPropertyValue {
        switch property {
        case .toolkitName: return .string(ApplicationModel.toolkitName)
        case .atspiVersion: return .string(ApplicationModel.atspiVersion)
        case .interfaceVersion: return .uint32(ApplicationModel.interfaceVersion)
        case .id: return .int32(applicationID)
        case .version, .toolkitVersion: return .string(version)
        }
    }

    /// `Value` properties.
    private func numericValue(of property: NumericProperty, for node: AXNode?) -> ATSPIPropertyValue {
        switch property {
        case .minimumValue: return .double(node?.numeric?.minimum ?? 0)
        case .maximumValue: return .double(node?.numeric?.maximum ?? 0)
        case .minimumIncrement: return .double(node?.numeric?.step ?? 0)
        case .currentValue: return .double(node?.numeric?.current ?? 0)
        case .valueText: return .string(node?.value ?? "")
        }
    }

    /// `Table` and `TableCell` properties.
    private func tableValue(of property: TableProperty, for node: AXNode?) -> ATSPIPropertyValue {
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
        case .table:
            let table = node.flatMap { TableCellModel.table(containing: $0, in: snapshot) }
            return .reference(table.map { .element($0) } ?? .null)
        }
    }

    /// `Action`, `Text`, `Selection` and `Image` properties.
    private func interfaceValue(of property: InterfaceProperty, for node: AXNode?) -> ATSPIPropertyValue {
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
        case .imageLocale:
            return .string(
                node.map { ImageModel(snapshot: snapshot).imageLocale(of: $0) } ?? ApplicationModel.localeString)
        }
    }
}
