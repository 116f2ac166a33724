/// What a key does to the control that has focus, before any focus movement (Specs/decisions.md §Keys operate
/// controls, D-KEYOP-1…5). The hub applies the answer through `perform` and the focus engine.
package enum KeyOperation: Sendable, Equatable {
    /// `accessibilityIncrement()` on an adjustable element (D-KEYOP-2).
    case increment
    /// `accessibilityDecrement()` on an adjustable element (D-KEYOP-2).
    case decrement
    /// Sets an adjustable element's value (Home → its minimum, End → its maximum; D-KEYOP-2).
    case setNumber(Double)
    /// Selects another item of a selection group (a segment): activates it and moves accessibility focus to it
    /// (D-KEYOP-3).
    case select(String)
    /// Moves focus to another row of the list or table that holds the focused row (D-KEYOP-4).
    case focusRow(String)
    /// Expands or collapses an outline row: activates it (D-KEYOP-4).
    case toggleExpansion
    /// Edits the focused text element or moves its caret (D-KEYOP-5).
    case edit(TextEditCommand)
    /// The key belongs to the focused control but does nothing here (the last segment, Left in a one-column list):
    /// the key is used up and focus stays (D-KEYOP-1).
    case stay
}

/// The arrow and editing keys, read once from a keysym name.
package enum OperationKey: Sendable, Equatable {
    case up, down, left, right, home, end, pageUp, pageDown, backSpace, delete, plus, minus

    init?(_ name: String) {
        switch name {
        case "Up", "KP_Up": self = .up
        case "Down", "KP_Down": self = .down
        case "Left", "KP_Left": self = .left
        case "Right", "KP_Right": self = .right
        case "Home", "KP_Home": self = .home
        case "End", "KP_End": self = .end
        case "Page_Up", "KP_Page_Up": self = .pageUp
        case "Page_Down", "KP_Page_Down": self = .pageDown
        case "BackSpace": self = .backSpace
        case "Delete", "KP_Delete": self = .delete
        case "plus", "KP_Add": self = .plus
        case "minus", "KP_Subtract": self = .minus
        default: return nil
        }
    }
}

extension KeyboardNavigation {
    /// The roles whose element takes typed text and editing keys (an editable text element, D-KEYOP-5).
    package static func isEditableText(_ node: AXNode) -> Bool {
        switch node.role {
        case .textField, .secureTextField, .searchField: return node.actions.contains(.typeText)
        case .textView: return node.states.contains(.editable) || node.actions.contains(.typeText)
        default: return false
        }
    }

    /// A text view the user reads but cannot edit (a non-editable UITextView: static text with its text as value).
    package static func isReadOnlyTextView(_ node: AXNode) -> Bool {
        node.viewClass == .textView && node.role == .staticText
    }

    /// The element a key operates when engine focus is on `item`: the item when it is an element; for a
    /// segmented control, its selected segment, else its first (what the AT announces, D-KEY-6).
    package static func operatedElement(_ item: String, tree: AXTree) -> AXNode? {
        guard let node = tree[item] else { return nil }
        if node.isElement { return node }
        guard node.role == .segmentedControl else { return nil }
        let segments = node.children.compactMap { tree[$0] }.filter(\.isElement)
        return segments.first(where: { $0.states.contains(.selected) }) ?? segments.first
    }

    /// What a key press does to the focused control (D-KEYOP-1…5), or nil when the control does not use the key
    /// (then D-KEY-2's navigation applies: arrows move focus, Return activates, …). `element` is the operated
    /// element (`operatedElement`); `text` the key's text with its modifiers (`Keysyms.text`).
    package static func operation(
        for symbol: KeySymbol, modifiers: Set<KeyModifier>, element: AXNode, tree: AXTree
    ) -> KeyOperation? {
        if modifiers.contains(.alt) || modifiers.contains(.super) { return nil }
        if isEditableText(element) {
            return TextEditing.command(for: symbol, modifiers: modifiers, multiLine: element.role == .textView)
                .map(KeyOperation.edit)
        }
        if isReadOnlyTextView(element) {
            // D-KEYOP-5: a read-only text view takes the caret keys only, as GTK's TextView does, so its text can
            // be read by character, word and line.
            switch TextEditing.command(for: symbol, modifiers: modifiers, multiLine: true) {
            case .move(let motion, let extend)?: return .edit(.move(motion, extend: extend))
            case .selectAll?: return .edit(.selectAll)
            case .insert?, .deleteBackward?, .deleteForward?, nil: return nil
            }
        }
        guard !modifiers.contains(.control), let key = OperationKey(symbol.name) else { return nil }
        let shift = modifiers.contains(.shift)
        if !shift, let adjusting = adjustableOperation(key, element) { return adjusting }
        if !shift, let parent = element.parent.flatMap({ tree[$0] }), parent.role == .segmentedControl {
            return segmentOperation(key, element, in: parent, tree: tree)
        }
        if !shift, let row = rowOperation(key, element, tree: tree) { return row }
        return nil
    }

    /// What Return/space activates when engine or accessibility focus is on `item` (D-KEYOP-3): the item itself;
    /// for a segmented control (a focus item that is no element) its selected segment, else its first; nil when
    /// that is a segment already selected — selecting it again changes nothing (UISegmentedControl sends no
    /// value change, a GTK radio button that is on stays on), so the key is used up instead of being refused.
    package static func activationTarget(of item: String, tree: AXTree) -> String? {
        guard let node = tree[item] else { return item }
        let segment: AXNode?
        if node.role == .segmentedControl {
            let segments = node.children.compactMap { tree[$0] }.filter(\.isElement)
            segment = segments.first { $0.states.contains(.selected) } ?? segments.first
        } else if let parent = node.parent.flatMap({ tree[$0] }), parent.role == .segmentedControl {
            segment = node
        } else {
            return item
        }
        guard let segment else { return item }
        return segment.states.contains(.selected) ? nil : segment.id
    }

    /// D-KEYOP-2: an adjustable element (a slider, a stepper, a picker component) takes the arrows: Up and Right
    /// increment, Down and Left decrement (GTK's GtkRange and GtkSpinButton; UIKit: an adjustable element must
    /// implement increment and decrement, R6, R9); Page_Up/Page_Down too; Home and End set the minimum and
    /// maximum where the element takes a value.
    static func adjustableOperation(_ key: OperationKey, _ element: AXNode) -> KeyOperation? {
        guard element.actions.contains(.increment), element.actions.contains(.decrement) else { return nil }
        switch key {
        case .up, .right, .pageUp, .plus: return .increment
        case .down, .left, .pageDown, .minus: return .decrement
        case .home, .end:
            guard let numeric = element.numeric, element.actions.contains(.setValue) else { return .stay }
            return .setNumber(key == .home ? numeric.minimum : numeric.maximum)
        case .backSpace, .delete: return nil
        }
    }

    /// D-KEYOP-3: in a segmented control the arrows move the selection (as arrows do in a GTK radio group):
    /// Left/Up → the previous enabled segment, Right/Down → the next; Home/End → the first/last. At an end the
    /// key stays on the control (no wrap, no focus jump).
    static func segmentOperation(_ key: OperationKey, _ element: AXNode, in parent: AXNode, tree: AXTree)
        -> KeyOperation?
    {
        let segments = parent.children.compactMap { tree[$0] }.filter {
            $0.isElement && $0.states.contains(.enabled)
        }
        guard let index = segments.firstIndex(where: { $0.id == element.id }) else { return nil }
        let target: Int
        switch key {
        case .left, .up: target = index - 1
        case .right, .down: target = index + 1
        case .home: target = 0
        case .end: target = segments.count - 1
        case .pageUp, .pageDown, .backSpace, .delete, .plus, .minus: return nil
        }
        guard segments.indices.contains(target), target != index else { return .stay }
        return .select(segments[target].id)
    }

    /// D-KEYOP-4: a row of a list or table (a cell) takes Up/Down (the previous/next row of the same list, as a
    /// GTK list does; at an end focus stays), Home/End (first/last row); an outline row takes Right/plus to
    /// expand and Left/minus to collapse; Left/Right otherwise stay on a one-column list (no jump to a view
    /// beside it).
    static func rowOperation(_ key: OperationKey, _ element: AXNode, tree: AXTree) -> KeyOperation? {
        guard element.role == .cell, let list = enclosingList(element, tree: tree) else { return nil }
        let expanded = element.states.contains(.expanded)
        let collapsed = element.states.contains(.collapsed)
        switch key {
        case .right, .plus:
            if collapsed { return .toggleExpansion }
            return key == .plus || (list.table?.columns ?? 1) <= 1 ? .stay : nil
        case .left, .minus:
            if expanded { return .toggleExpansion }
            return key == .minus || (list.table?.columns ?? 1) <= 1 ? .stay : nil
        case .up, .down, .home, .end: return rowMove(key, from: element, in: list, tree: tree)
        case .pageUp, .pageDown, .backSpace, .delete: return nil
        }
    }

    /// Up/Down: the previous/next row (at an end focus stays); Home/End: the first/last row.
    private static func rowMove(_ key: OperationKey, from element: AXNode, in list: AXNode, tree: AXTree)
        -> KeyOperation?
    {
        let rows = rowsOf(list, tree: tree)
        guard let index = rows.firstIndex(of: element.id) else { return nil }
        if let cell = element.cell, (list.table?.columns ?? 1) > 1 {
            return gridMove(key, from: cell, cells: rows, tree: tree)
        }
        let target: Int
        switch key {
        case .up: target = index - 1
        case .down: target = index + 1
        case .home: target = 0
        case .end: target = rows.count - 1
        case .left, .right, .pageUp, .pageDown, .backSpace, .delete, .plus, .minus: return nil
        }
        guard rows.indices.contains(target), target != index else { return .stay }
        return .focusRow(rows[target])
    }

    /// In a table of several columns whose cells are the elements (each with its row and column, R43, X19), Up/Down
    /// go to the previous/next *row* in the same column and Home/End to the first/last row, as a GTK tree view and
    /// a UIKit table do; the cells of one row are never stepped through with Down (D-KEYOP-4). At an end, or where
    /// the row has no cell in that column, focus stays.
    /// Nil for a key that is not Up, Down, Home or End.
    private static func gridMove(_ key: OperationKey, from cell: AXCellInfo, cells: [String], tree: AXTree)
        -> KeyOperation?
    {
        let placed = cells.compactMap { id in tree[id]?.cell.map { (id: id, cell: $0) } }
        let column = cell.column
        let inColumn = placed.filter { $0.cell.column <= column && column < $0.cell.column + $0.cell.columnSpan }
        let targetRow: Int?
        switch key {
        case .up: targetRow = cell.row - 1
        case .down: targetRow = cell.row + cell.rowSpan
        case .home: targetRow = inColumn.map(\.cell.row).min()
        case .end: targetRow = inColumn.map { $0.cell.row + $0.cell.rowSpan - 1 }.max()
        case .left, .right, .pageUp, .pageDown, .backSpace, .delete, .plus, .minus: return nil
        }
        guard let targetRow,
            let found = inColumn.first(where: { $0.cell.row <= targetRow && targetRow < $0.cell.row + $0.cell.rowSpan }
            ),
            found.cell.row != cell.row
        else { return .stay }
        return .focusRow(found.id)
    }

    /// The nearest list or table container around `element`.
    static func enclosingList(_ element: AXNode, tree: AXTree) -> AXNode? {
        var cursor = element.parent
        var steps = 0
        while let id = cursor, let node = tree[id], steps < 64 {
            if node.role == .list || node.role == .table { return node }
            cursor = node.parent
            steps += 1
        }
        return nil
    }

    /// The enabled cells of a list, in tree (reading) order, not looking into nested lists.
    static func rowsOf(_ list: AXNode, tree: AXTree) -> [String] {
        var rows: [String] = []
        var stack = Array(list.children.reversed())
        while let id = stack.popLast(), rows.count < 100_000 {
            guard let node = tree[id] else { continue }
            if node.role == .cell {
                if node.states.contains(.enabled) { rows.append(id) }
                continue
            }
            if node.role == .list || node.role == .table { continue }
            stack.append(contentsOf: node.children.reversed())
        }
        return rows
    }
}
