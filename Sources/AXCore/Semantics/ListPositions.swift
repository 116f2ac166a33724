/// D-ATSPI-POS-1: a row of a list says its position ("1 of 4") as a GTK list box row does. A table or collection
/// view cell whose container is a list (UITableView, UICollectionView) carries the object attributes `posinset` and
/// `setsize`: its place among the container's cells, counting cells only (a section's header and footer are no
/// rows). Orca 45 and later read these attributes (`ax_utilities.py` `get_position_in_set`); Orca 43 counts the
/// siblings itself (`getPositionAndSetSize`), which gives the same figures where the list holds only rows.
/// The role is left as D-CELL-1 gives it (a cell folding a switch stays a toggle button): the position is the
/// cell's, whatever its role.
package enum ListPositions {
    /// The 1-based position and the count of the row `node` in its list, or nil when it is no list row.
    package static func position(of node: AXNode, in tree: AXTree, rowsOf: (AXNode) -> [String]) -> (Int, Int)? {
        guard isRow(node), let parent = node.parent.flatMap({ tree[$0] }), parent.role == .list else { return nil }
        let rows = rowsOf(parent)
        guard let index = rows.firstIndex(of: node.id) else { return nil }
        return (index + 1, rows.count)
    }

    /// The ids of the rows (cells) among `list`'s children, in order.
    package static func rows(of list: AXNode, in tree: AXTree) -> [String] {
        list.children.filter { tree[$0].map(isRow) ?? false }
    }

    private static func isRow(_ node: AXNode) -> Bool {
        node.viewClass == .tableViewCell || node.viewClass == .collectionViewCell
    }
}
