/// The questions a test script asks about where things are (issue 25 item 3): the element at a point is
/// `HitTesting.elementAt`; the cell at (row, column) of a data table and the next or previous element in
/// reading order (the VoiceOver swipe) are here, so every route (JSON-RPC, AT-SPI Table) answers them alike.
package enum ScriptQueries {
    /// A data table's cells in reading order (nested tables keep their own cells), as AT-SPI `GetIndexAt`
    /// numbers them.
    package static func cells(of table: AXNode, in tree: AXTree) -> [AXNode] {
        var found: [AXNode] = []
        var stack = Array(table.children.reversed())
        while let id = stack.popLast() {
            guard let node = tree[id] else { continue }
            if node.cell != nil { found.append(node) }
            if node.table == nil { stack.append(contentsOf: node.children.reversed()) }
        }
        return found
    }

    /// The cell covering (row, column), spans included (seed 000:56313–56317,
    /// `accessibilityDataTableCellElement(forRow:column:)`); nil when no cell covers it.
    package static func cell(row: Int, column: Int, among cells: [AXNode]) -> AXNode? {
        cells.first { node in
            guard let cell = node.cell else { return false }
            return row >= cell.row && row < cell.row + max(1, cell.rowSpan) && column >= cell.column
                && column < cell.column + max(1, cell.columnSpan)
        }
    }

    /// Which way a VoiceOver swipe moves.
    package enum Direction: String, Sendable, CaseIterable {
        case next, previous
    }

    /// The element a one-finger swipe right (`next`) or left (`previous`) reaches from `id` (seed
    /// 000:55488–55504; R103–R105): the neighbour in navigation order, which already honours modal views,
    /// hidden subtrees and authored `accessibilityElements` order. `id` nil starts before the first element
    /// (next) or after the last (previous); a container or window starts at its first (next) or last
    /// (previous) element. Nil at either end (VoiceOver does not wrap).
    package static func neighbour(of id: String?, _ direction: Direction, in tree: AXTree) -> String? {
        let order = tree.navigationOrder()
        guard let id else { return direction == .next ? order.first : order.last }
        if let index = order.firstIndex(of: id) {
            let target = direction == .next ? index + 1 : index - 1
            return order.indices.contains(target) ? order[target] : nil
        }
        let inside = tree.navigationOrder(from: id)
        return direction == .next ? inside.first : inside.last
    }
}
