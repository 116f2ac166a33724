import AXCore

/// Answers of `org.a11y.atspi.Selection` for a selection container (tab bars, segmented controls, lists,
/// tables): the selected children are the children whose state says so.
package struct SelectionModel {
    /// The container's children.
    package let children: [String]
    /// The selected ones, in child order.
    package let selectedChildren: [String]

    package init(container: AXNode, snapshot: ServedSnapshot) {
        children = container.children
        selectedChildren = container.children.filter { snapshot.tree[$0]?.states.contains(.selected) == true }
    }

    /// `GetSelectedChild(index)`: nil (the null reference) out of range.
    package func selectedChild(at index: Int32) -> String? {
        guard index >= 0, Int(index) < selectedChildren.count else { return nil }
        return selectedChildren[Int(index)]
    }

    /// `IsChildSelected(childIndex)`.
    package func isChildSelected(at index: Int32) -> Bool {
        guard index >= 0, Int(index) < children.count else { return false }
        return selectedChildren.contains(children[Int(index)])
    }

    /// D-SELECT-1: whether `SelectChild` may select `child` of `container` by activating it. In a tab bar or a
    /// segmented control activation is selection. In a list or table a tap on a plain row selects it (UIKit's
    /// `didSelectRow`); but a row that routes its activation to a control it folds (D-CELL-1: a switch would
    /// flip) or an outline row (activation expands or collapses it) cannot be selected without operating it,
    /// so `SelectChild` answers false and does nothing there, as it never activates.
    package static func selectsByActivation(_ child: AXNode, container: AXNode) -> Bool {
        switch container.role {
        case .tabBar, .segmentedControl: return child.isElement
        case .list, .table:
            guard child.isElement, child.role == .cell else { return false }
            if child.states.contains(.expanded) || child.states.contains(.collapsed) { return false }
            return child.actionTarget == (child.viewID ?? child.id)
        default: return false
        }
    }

    /// `SelectChild(childIndex)`: the child to activate, or nil when the index is out of range.
    package func child(at index: Int32) -> String? {
        guard index >= 0, Int(index) < children.count else { return nil }
        return children[Int(index)]
    }
}

/// A cell's position and span (`GetRowColumnSpan`, `GetRowColumnExtentsAtIndex`).
package struct CellSpan: Sendable, Equatable {
    package var row: Int32
    package var column: Int32
    package var rowSpan: Int32
    package var columnSpan: Int32

    package init(row: Int32, column: Int32, rowSpan: Int32, columnSpan: Int32) {
        self.row = row
        self.column = column
        self.rowSpan = rowSpan
        self.columnSpan = columnSpan
    }

    /// The span of a cell description (values come from the provider: clamped, never trapping).
    package init(_ cell: AXCellInfo) {
        self.init(
            row: Int32(clamping: cell.row), column: Int32(clamping: cell.column),
            rowSpan: Int32(clamping: cell.rowSpan), columnSpan: Int32(clamping: cell.columnSpan))
    }
}

/// Answers of `org.a11y.atspi.Table` for one table node: its cells are the descendants carrying cell info, in
/// reading order, nested tables excluded.
package struct TableModel {
    /// The snapshot answered from.
    package let snapshot: ServedSnapshot
    /// The table's row/column counts and headers.
    package let info: AXTableInfo
    /// Cells in reading order (`GetIndexAt`'s index).
    package let cells: [AXNode]

    package init(table: AXNode, snapshot: ServedSnapshot) {
        self.snapshot = snapshot
        info = table.table ?? AXTableInfo(rows: 0, columns: 0)
        cells = ScriptQueries.cells(of: table, in: snapshot.tree)
    }

    /// `NRows`.
    package var rowCount: Int32 { Int32(clamping: info.rows) }
    /// `NColumns`.
    package var columnCount: Int32 { Int32(clamping: info.columns) }

    /// The cell covering (row, column), spans included.
    package func cell(row: Int32, column: Int32) -> AXNode? {
        ScriptQueries.cell(row: Int(row), column: Int(column), among: cells)
    }

    /// `GetIndexAt(row, column)`: -1 when no cell covers it.
    package func index(row: Int32, column: Int32) -> Int32 {
        guard let found = cell(row: row, column: column) else { return -1 }
        guard let index = cells.firstIndex(where: { $0.id == found.id }) else { return -1 }
        return Int32(clamping: index)
    }

    func cellInfo(at index: Int32) -> AXCellInfo? {
        guard index >= 0, Int(index) < cells.count else { return nil }
        return cells[Int(index)].cell
    }

    /// `GetRowAtIndex(index)`: -1 out of range.
    package func row(atIndex index: Int32) -> Int32 { Int32(clamping: cellInfo(at: index)?.row ?? -1) }

    /// `GetColumnAtIndex(index)`: -1 out of range.
    package func column(atIndex index: Int32) -> Int32 { Int32(clamping: cellInfo(at: index)?.column ?? -1) }

    /// `GetRowExtentAt(row, column)`: the covering cell's row span, 0 when none.
    package func rowExtent(row: Int32, column: Int32) -> Int32 {
        Int32(clamping: cell(row: row, column: column)?.cell?.rowSpan ?? 0)
    }

    /// `GetColumnExtentAt(row, column)`: the covering cell's column span, 0 when none.
    package func columnExtent(row: Int32, column: Int32) -> Int32 {
        Int32(clamping: cell(row: row, column: column)?.cell?.columnSpan ?? 0)
    }

    /// `GetRowDescription(row)`: the labels of the row's headers.
    package func rowDescription(_ row: Int32) -> String { headerText(info.rowHeaders[Int(row)]) }

    /// `GetColumnDescription(column)`: the labels of the column's headers.
    package func columnDescription(_ column: Int32) -> String { headerText(info.columnHeaders[Int(column)]) }

    func headerText(_ headers: [String]?) -> String {
        (headers ?? []).compactMap { snapshot.tree[$0]?.label }.joined(separator: " ")
    }

    /// `GetRowHeader(row)`: the row's first header that still exists.
    package func rowHeader(_ row: Int32) -> String? { liveFirst(info.rowHeaders[Int(row)]) }

    /// `GetColumnHeader(column)`: the column's first header that still exists.
    package func columnHeader(_ column: Int32) -> String? { liveFirst(info.columnHeaders[Int(column)]) }

    func liveFirst(_ headers: [String]?) -> String? {
        guard let first = headers?.first, snapshot.tree[first] != nil else { return nil }
        return first
    }

    /// `IsSelected(row, column)`.
    package func isSelected(row: Int32, column: Int32) -> Bool {
        cell(row: row, column: column)?.states.contains(.selected) ?? false
    }

    /// `GetSelectedRows`: the rows with a selected cell, ascending (the cells' SELECTED state, as `Selection` and
    /// `IsSelected` read it; D-SELECT-2).
    package var selectedRows: [Int32] {
        Set(cells.filter { $0.states.contains(.selected) }.compactMap { $0.cell?.row }).sorted().map {
            Int32(clamping: $0)
        }
    }

    /// `IsRowSelected(row)`: some cell of the row is selected.
    package func isRowSelected(_ row: Int32) -> Bool { selectedRows.contains(row) }

    /// `GetRowColumnExtentsAtIndex(index)`: the cell's span and selection, nil out of range.
    package func rowColumnExtents(atIndex index: Int32) -> (span: CellSpan, isSelected: Bool)? {
        guard index >= 0, Int(index) < cells.count, let cell = cells[Int(index)].cell else { return nil }
        return (CellSpan(cell), cells[Int(index)].states.contains(.selected))
    }
}

/// Answers of `org.a11y.atspi.TableCell` for one cell node.
package struct TableCellModel {
    /// The snapshot answered from.
    package let snapshot: ServedSnapshot
    /// The cell's position and span (row 0, column 0, 1×1 when the node has no cell info).
    package let cell: AXCellInfo
    /// The nearest ancestor that is a table.
    package let tableID: String?

    package init(cell node: AXNode, snapshot: ServedSnapshot) {
        self.snapshot = snapshot
        cell = node.cell ?? AXCellInfo(row: 0, rowSpan: 1, column: 0, columnSpan: 1)
        tableID = TableCellModel.table(containing: node, in: snapshot)
    }

    /// The nearest table ancestor of a node (`TableCell.Table`).
    package static func table(containing node: AXNode, in snapshot: ServedSnapshot) -> String? {
        for ancestor in snapshot.tree.ancestors(of: node.id) where snapshot.tree[ancestor]?.table != nil {
            return ancestor
        }
        return nil
    }

    /// `GetRowColumnSpan`: row, column, row span, column span (`iiii`).
    package var rowColumnSpan: CellSpan { CellSpan(cell) }

    /// `Position`: (row, column).
    package var position: (row: Int32, column: Int32) { (Int32(clamping: cell.row), Int32(clamping: cell.column)) }

    /// `GetColumnHeaderCells`: the headers of the cell's column that still exist.
    package var columnHeaderCells: [String] {
        let table = tableID.flatMap { snapshot.tree[$0]?.table }
        return (table?.columnHeaders[cell.column] ?? []).filter { snapshot.tree[$0] != nil }
    }

    /// `GetRowHeaderCells`: the headers of the cell's row that still exist.
    package var rowHeaderCells: [String] {
        let table = tableID.flatMap { snapshot.tree[$0]?.table }
        return (table?.rowHeaders[cell.row] ?? []).filter { snapshot.tree[$0] != nil }
    }
}
