import AXATSPIModel
import AXCore
import AXDBus
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.TableCell`: reads the arguments, asks `TableCellModel`, writes the reply.
    func tableCell(_ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>, _ node: AXNode)
        -> DBusMethodResult
    {
        let model = TableCellModel(cell: node, snapshot: served)
        switch String(cString: member) {
        case "GetRowColumnSpan":
            if let failure = check(msg, rawMessage, "") { return failure }
            let span = model.rowColumnSpan
            // `iiii`: libatspi's atspi_table_cell_get_row_column_span reads exactly these four (no success flag).
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
                out.int32(span.row)
                out.int32(span.column)
                out.int32(span.rowSpan)
                out.int32(span.columnSpan)
            }
        case "GetColumnHeaderCells", "GetRowHeaderCells":
            if let failure = check(msg, rawMessage, "") { return failure }
            let headers =
                strcmp(member, "GetColumnHeaderCells") == 0 ? model.columnHeaderCells : model.rowHeaderCells
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
                out.array("(so)") { array in
                    for header in headers { writeRef(&array, header) }
                }
            }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }
}
