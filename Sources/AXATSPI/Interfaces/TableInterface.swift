import AXATSPIModel
import AXCore
import AXDBus
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.Table`: reads the arguments, asks `TableModel`, writes the reply.
    func table(_ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>, _ node: AXNode)
        -> DBusMethodResult
    {
        let model = TableModel(table: node, snapshot: served)
        let memberName = String(cString: member)
        if let result = tableLayoutQuery(memberName, msg, rawMessage, model) { return result }
        if let result = tableSelectionCall(memberName, msg, rawMessage, model) { return result }
        return .error(.unknownMethod(for: msg))
    }

    /// The Table methods about cells, indexes, extents, descriptions and headers (nil: not one of them).
    private func tableLayoutQuery(
        _ memberName: String, _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ model: TableModel
    ) -> DBusMethodResult? {
        switch memberName {
        case "GetAccessibleAt":
            return reply(msg, rawMessage, "ii") { input, out in
                writeRef(&out, model.cell(row: input.int32(), column: input.int32())?.id)
            }
        case "GetIndexAt":
            return reply(msg, rawMessage, "ii") { input, out in
                out.int32(model.index(row: input.int32(), column: input.int32()))
            }
        case "GetRowAtIndex": return reply(msg, rawMessage, "i") { $1.int32(model.row(atIndex: $0.int32())) }
        case "GetColumnAtIndex": return reply(msg, rawMessage, "i") { $1.int32(model.column(atIndex: $0.int32())) }
        case "GetRowDescription": return reply(msg, rawMessage, "i") { $1.string(model.rowDescription($0.int32())) }
        case "GetColumnDescription":
            return reply(msg, rawMessage, "i") { $1.string(model.columnDescription($0.int32())) }
        case "GetRowExtentAt":
            return reply(msg, rawMessage, "ii") { input, out in
                out.int32(model.rowExtent(row: input.int32(), column: input.int32()))
            }
        case "GetColumnExtentAt":
            return reply(msg, rawMessage, "ii") { input, out in
                out.int32(model.columnExtent(row: input.int32(), column: input.int32()))
            }
        case "GetRowHeader": return reply(msg, rawMessage, "i") { writeRef(&$1, model.rowHeader($0.int32())) }
        case "GetColumnHeader": return reply(msg, rawMessage, "i") { writeRef(&$1, model.columnHeader($0.int32())) }
        default: return nil
        }
    }

    /// The Table methods about selection and the row/column extents of an index (nil: not one of them).
    private func tableSelectionCall(
        _ memberName: String, _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ model: TableModel
    ) -> DBusMethodResult? {
        switch memberName {
        case "GetSelectedRows":
            return reply(msg, rawMessage, "") { _, out in
                out.array("i") { array in for row in model.selectedRows { array.int32(row) } }
            }
        case "GetSelectedColumns":
            // Rows are what a UIKit table selects; no column is ever selected as a whole.
            return reply(msg, rawMessage, "") { _, out in out.array("i") { _ in } }
        case "IsRowSelected": return reply(msg, rawMessage, "i") { $1.bool(model.isRowSelected($0.int32())) }
        case "IsColumnSelected": return reply(msg, rawMessage, "i") { $1.bool(false) }
        case "IsSelected":
            return reply(msg, rawMessage, "ii") { input, out in
                out.bool(model.isSelected(row: input.int32(), column: input.int32()))
            }
        case "AddRowSelection", "AddColumnSelection", "RemoveRowSelection", "RemoveColumnSelection":
            return reply(msg, rawMessage, "i") { $1.bool(false) }
        case "GetRowColumnExtentsAtIndex":
            return reply(msg, rawMessage, "i") { input, out in
                let extents = model.rowColumnExtents(atIndex: input.int32())
                writeRowColumnExtents(&out, extents?.span, isSelected: extents?.isSelected ?? false)
            }
        default: return nil
        }
    }

    /// `GetRowColumnExtentsAtIndex`'s reply `(biiiib)`: found, row, column, row span, column span, selected.
    private func writeRowColumnExtents(_ out: inout DBusFastWriter, _ span: CellSpan?, isSelected: Bool) {
        out.bool(span != nil)
        out.int32(span?.row ?? -1)
        out.int32(span?.column ?? -1)
        out.int32(span?.rowSpan ?? 0)
        out.int32(span?.columnSpan ?? 0)
        out.bool(isSelected)
    }
}
