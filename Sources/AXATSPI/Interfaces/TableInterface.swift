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
        switch memberName {
        case "GetAccessibleAt":
            if let failure = check(msg, rawMessage, "ii") { return failure }
            var input = DBusFastReader(rawMessage)
            let row = input.int32()
            let column = input.int32()
            let cell = model.cell(row: row, column: column)?.id
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in writeRef(&out, cell) }
        case "GetIndexAt":
            if let failure = check(msg, rawMessage, "ii") { return failure }
            var input = DBusFastReader(rawMessage)
            let row = input.int32()
            let column = input.int32()
            let index = model.index(row: row, column: column)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.int32(index) }
        case "GetRowAtIndex", "GetColumnAtIndex":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let index = input.int32()
            let value = memberName == "GetRowAtIndex" ? model.row(atIndex: index) : model.column(atIndex: index)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.int32(value) }
        case "GetRowDescription", "GetColumnDescription":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let index = input.int32()
            let text = memberName == "GetRowDescription" ? model.rowDescription(index) : model.columnDescription(index)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.string(text) }
        case "GetRowExtentAt", "GetColumnExtentAt":
            if let failure = check(msg, rawMessage, "ii") { return failure }
            var input = DBusFastReader(rawMessage)
            let row = input.int32()
            let column = input.int32()
            let extent =
                memberName == "GetRowExtentAt"
                ? model.rowExtent(row: row, column: column) : model.columnExtent(row: row, column: column)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.int32(extent) }
        case "GetRowHeader", "GetColumnHeader":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let index = input.int32()
            let header = memberName == "GetRowHeader" ? model.rowHeader(index) : model.columnHeader(index)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in writeRef(&out, header) }
        case "GetSelectedRows":
            if let failure = check(msg, rawMessage, "") { return failure }
            let rows = model.selectedRows
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
                out.array("i") { array in for row in rows { array.int32(row) } }
            }
        case "GetSelectedColumns":
            // Rows are what a UIKit table selects; no column is ever selected as a whole.
            if let failure = check(msg, rawMessage, "") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in out.array("i") { _ in } }
        case "IsRowSelected":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let selected = model.isRowSelected(input.int32())
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(selected) }
        case "IsColumnSelected":
            if let failure = check(msg, rawMessage, "i") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(false) }
        case "IsSelected":
            if let failure = check(msg, rawMessage, "ii") { return failure }
            var input = DBusFastReader(rawMessage)
            let row = input.int32()
            let column = input.int32()
            let selected = model.isSelected(row: row, column: column)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(selected) }
        case "AddRowSelection", "AddColumnSelection", "RemoveRowSelection", "RemoveColumnSelection":
            if let failure = check(msg, rawMessage, "i") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(false) }
        case "GetRowColumnExtentsAtIndex":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let extents = model.rowColumnExtents(atIndex: input.int32())
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
                out.bool(extents != nil)
                out.int32(extents?.span.row ?? -1)
                out.int32(extents?.span.column ?? -1)
                out.int32(extents?.span.rowSpan ?? 0)
                out.int32(extents?.span.columnSpan ?? 0)
                out.bool(extents?.isSelected ?? false)
            }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }
}
