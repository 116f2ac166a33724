import AXJSON

/// `allowsFocus` and `selectionFollowsFocus` of table and collection views (seed 000:11877–11888, A-rules of
/// views-swiftui-focus.md, C17; issue 25 item 6; D-FOCUS-SEL-1).
///
/// - `allowsFocus: false` makes the view's cells not focusable *by default*: a cell's own `canBecomeFocused` still
///   wins (C17). The focus index and the derived `focusable` state read the same rule, so `focus.*`, Tab order,
///   element JSON and AT-SPI agree.
/// - `selectionFollowsFocus: true`: after the focus engine moves focus onto one of the view's cells, the app is asked
///   to select it (`action.perform {action: "select", target: <the table or collection view>, element: <the cell>,
///   value: {row, section}}`); the app answers with its selection as an ordinary hierarchy update.
package enum CollectionFocus {
    /// The table or collection view a cell belongs to: its nearest such ancestor.
    package static func container(of cell: ViewNode, views: ViewHierarchy) -> ViewNode? {
        guard cell.kind == .tableViewCell || cell.kind == .collectionViewCell else { return nil }
        var current = cell.parent.flatMap { views[$0] }
        while let view = current {
            if view.kind == .tableView || view.kind == .collectionView { return view }
            current = view.parent.flatMap { views[$0] }
        }
        return nil
    }

    /// Whether the cell's default focusability is taken away by its container's `allowsFocus: false` (its own
    /// `canBecomeFocused`, when set, is not a default and is not affected).
    package static func disallowsFocus(_ view: ViewNode, views: ViewHierarchy) -> Bool {
        guard view.focus.canBecomeFocused == nil, let container = container(of: view, views: views) else {
            return false
        }
        return container.focus.allowsFocus == false
    }

    /// The selection request after focus moved to `item`: the container to ask and the cell's `{row, section}` —
    /// its position among the container's cells (depth first), section 0 (sections are not mirrored). Nil unless
    /// `item` is a cell of a container with `selectionFollowsFocus`.
    package static func selection(afterFocusMovedTo item: String, views: ViewHierarchy)
        -> (container: String, row: Int, section: Int)?
    {
        guard let cell = views[item], let container = container(of: cell, views: views),
            container.focus.selectionFollowsFocus
        else { return nil }
        var cells: [String] = []
        var stack = Array(container.children.reversed())
        while let id = stack.popLast() {
            guard let view = views[id] else { continue }
            if view.kind == .tableViewCell || view.kind == .collectionViewCell {
                cells.append(id)
            } else {
                stack.append(contentsOf: view.children.reversed())
            }
        }
        guard let row = cells.firstIndex(of: item) else { return nil }
        return (container.id, row, 0)
    }

    /// What a view hands its subviews: a table or collection view its own `allowsFocus`, any other view what it got.
    static func cellsFocusAllowed(below view: ViewNode, inherited: Bool) -> Bool {
        guard view.kind == .tableView || view.kind == .collectionView else { return inherited }
        return view.focus.allowsFocus != false
    }

    /// Drops the derived `focusable` state of a cell whose container disallows focus, unless the cell sets
    /// `canBecomeFocused` itself (derivation, D-FOCUS-SEL-1).
    static func apply(_ view: ViewNode, cellsFocusAllowed: Bool, to node: inout AXNode) {
        guard !cellsFocusAllowed, view.focus.canBecomeFocused == nil,
            view.kind == .tableViewCell || view.kind == .collectionViewCell
        else { return }
        node.states.remove(.focusable)
    }
}

/// `allowsFocus` (null: UIKit's default) and `selectionFollowsFocus` (null: false) of the view-property decoder.
func applyCollectionFocusProperty(
    _ property: ViewPropertyKey.CollectionFocus, _ value: JSON, to focus: inout FocusProperties, field: Field
) throws(SchemaError) {
    switch property {
    case .allowsFocus: focus.allowsFocus = try field.optionalBool(value)
    case .selectionFollowsFocus: focus.selectionFollowsFocus = try field.bool(value, null: false)
    }
}
