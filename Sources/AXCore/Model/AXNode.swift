import HashTreeCollections

/// The role the core derives for every exposed node (D-ROLE-1 in Specs/decisions.md).
package enum AXRole: String, Sendable, CaseIterable {
    // containers
    case window, alert, group, list, table, landmark, tabBar, navigationBar, toolbar, segmentedControl, picker
    /// A menu and a menu bar: AXServer's extension for toolkits whose menus are menus (D-MENU-1).
    case menu, menuBar
    // elements
    case button, link, image, staticText, header, textField, secureTextField, searchField, textView
    case adjustable, `switch`, tab, cell, keyboardKey, progressIndicator, activityIndicator, pickerItem

    package var isContainerRole: Bool {
        switch self {
        case .window, .alert, .group, .list, .table, .landmark, .tabBar, .navigationBar, .toolbar, .segmentedControl,
            .picker, .menu, .menuBar:
            return true
        default: return false
        }
    }
}

/// What an element inside a menu or a menu bar is (D-MENU-1), as GTK's menus expose them: a switch is a check item,
/// a selected button a radio item, a button with an expanded status (a cascade) a submenu, any other button an item.
package enum MenuItemKind: Sendable, Equatable {
    case item, checkItem, radioItem, submenu

    /// The kind of `node` under a parent of `parentRole`; nil outside a menu or a menu bar, or for a role that is
    /// no menu item (a text, an image).
    package static func of(_ node: AXNode, parentRole: AXRole?) -> MenuItemKind? {
        guard parentRole == .menu || parentRole == .menuBar else { return nil }
        switch node.role {
        case .switch: return .checkItem
        case .button:
            if node.states.contains(.expanded) || node.states.contains(.collapsed) { return .submenu }
            return node.states.contains(.selected) ? .radioItem : .item
        case .window, .alert, .group, .list, .table, .landmark, .tabBar, .navigationBar, .toolbar, .segmentedControl,
            .picker, .menu, .menuBar, .link, .image, .staticText, .header, .textField, .secureTextField, .searchField,
            .textView, .adjustable, .tab, .cell, .keyboardKey, .progressIndicator, .activityIndicator, .pickerItem:
            return nil
        }
    }
}

/// Derived states of an exposed node.
package struct AXStates: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }
    package static let enabled = AXStates(rawValue: 1 << 0)
    package static let selected = AXStates(rawValue: 1 << 1)
    package static let checked = AXStates(rawValue: 1 << 2)
    /// Some part of the frame lies inside the window and every clipping ancestor.
    package static let onscreen = AXStates(rawValue: 1 << 3)
    /// Part (not all) of the frame is cut off by a clipping ancestor or the window.
    package static let clipped = AXStates(rawValue: 1 << 4)
    package static let focusable = AXStates(rawValue: 1 << 5)
    package static let editable = AXStates(rawValue: 1 << 6)
    package static let secure = AXStates(rawValue: 1 << 7)
    package static let multiLine = AXStates(rawValue: 1 << 8)
    package static let busy = AXStates(rawValue: 1 << 9)
    package static let modal = AXStates(rawValue: 1 << 10)
    package static let activeWindow = AXStates(rawValue: 1 << 11)
    package static let respondsToUserInteraction = AXStates(rawValue: 1 << 12)
    package static let expanded = AXStates(rawValue: 1 << 13)
    package static let collapsed = AXStates(rawValue: 1 << 14)
    package static let updatesFrequently = AXStates(rawValue: 1 << 15)
    /// A view listed only in an element's `automationElements`: found by automation, not by assistive
    /// technologies (R38, X18; D-AUTO-1).
    package static let automationOnly = AXStates(rawValue: 1 << 16)

    package static let named: [(String, AXStates)] = [
        ("enabled", .enabled), ("selected", .selected), ("checked", .checked), ("onscreen", .onscreen),
        ("clipped", .clipped), ("focusable", .focusable), ("editable", .editable), ("secure", .secure),
        ("multiLine", .multiLine), ("busy", .busy), ("modal", .modal), ("activeWindow", .activeWindow),
        ("respondsToUserInteraction", .respondsToUserInteraction), ("expanded", .expanded), ("collapsed", .collapsed),
        ("updatesFrequently", .updatesFrequently), ("automationOnly", .automationOnly),
    ]
    package var names: [String] { AXStates.named.compactMap { contains($0.1) ? $0.0 : nil } }
}

/// Numeric value for adjustable controls (AT-SPI Value; action.setValue).
package struct AXNumericValue: Sendable, Hashable {
    package var current: Double
    package var minimum: Double
    package var maximum: Double
    package var step: Double
    package init(current: Double, minimum: Double, maximum: Double, step: Double) {
        self.current = current
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
    }
}

/// Standard (non-custom) actions an element supports; the names are the wire names.
package enum AXAction: String, Sendable, CaseIterable {
    case activate, increment, decrement, scroll, escape, magicTap, setValue, typeText, zoomIn, zoomOut
    /// Named drag and drop actions: the element lists drag sources / drop points (D-DRAG-1).
    case drag, drop
}

package struct AXTableInfo: Sendable, Hashable {
    package var rows: Int
    package var columns: Int
    package var columnHeaders: [Int: [String]]
    package var rowHeaders: [Int: [String]]
    package init(rows: Int, columns: Int, columnHeaders: [Int: [String]] = [:], rowHeaders: [Int: [String]] = [:]) {
        self.rows = rows
        self.columns = columns
        self.columnHeaders = columnHeaders
        self.rowHeaders = rowHeaders
    }
}

package struct AXCellInfo: Sendable, Hashable {
    package var row: Int, rowSpan: Int, column: Int, columnSpan: Int
    package init(row: Int, rowSpan: Int, column: Int, columnSpan: Int) {
        self.row = row
        self.rowSpan = rowSpan
        self.column = column
        self.columnSpan = columnSpan
    }
}

/// The properties of a node that most nodes leave at their defaults. They live in one copy-on-write group that
/// every node shares until it sets one, so a node copies (into the tree, out of it) as a few pointers.
package struct AXNodeExtras: Sendable, Equatable {
    package var hint: String?
    package var placeholder: String?
    package var language: String?
    package var headingLevel: Int?
    package var containerType: ContainerType = .none
    package var navigationStyle: NavigationStyle = .automatic
    package var textualContext: String?
    package var userInputLabels: [String] = []
    package var customActions: [CustomAction] = []
    package var rotors: [CustomRotor] = []
    package var positionInSet: Int?
    package var sizeOfSet: Int?
    package var table: AXTableInfo?
    package var cell: AXCellInfo?
    package var restrictions: [String] = []
    package var focus = FocusProperties()
    package var directTouchOptions: [String] = []
    package var automationElements: [String] = []
    package var ignoresInvertColors = false
    /// An outline row's depth (`indentationLevel` of a table or list cell; D-REL-8), nil when not set.
    package var indentationLevel: Int?
    /// A container backed by a scroll view with `isPagingEnabled` (D-REL-7).
    package var isPagingEnabled = false
    /// The large content viewer's item, when the element shows it (issue 25 item 4; D-LCV-1).
    package var largeContent: LargeContent?
    /// What the app reports about the element's text: caret and selection (D-TEXT-APP-1; TextContent.swift).
    package var textContent: AXTextContent?
    /// Drag sources and drop points, resolved (D-DRAG-1); nil when the element sets neither.
    package var dragDrop: DragDropDescriptors?
    package init() {}

    /// Every field at its default: checked field by field (cheaper than comparing with a default value), so that
    /// nodes setting nothing share one storage. A new field belongs here too (and in `Deriver.makeElement`'s
    /// guard, which checks the same fields at their sources before building a group).
    var isDefault: Bool {
        hint == nil && placeholder == nil && language == nil && headingLevel == nil && containerType == .none
            && navigationStyle == .automatic && textualContext == nil && userInputLabels.isEmpty
            && customActions.isEmpty
            && rotors.isEmpty && positionInSet == nil && sizeOfSet == nil && table == nil && cell == nil
            && restrictions.isEmpty && focus == FocusProperties() && directTouchOptions.isEmpty
            && automationElements.isEmpty && !ignoresInvertColors && indentationLevel == nil
            && !isPagingEnabled && largeContent == nil && textContent == nil && dragDrop == nil
    }
}

/// One node of the derived accessibility tree: a window, a container or an element (a navigation stop).
package struct AXNode: Sendable, Equatable {
    package var id: String
    /// The view that backs this node, or nil for a virtual element. Actions go to `actionTarget`.
    package var viewID: String?
    package var actionTarget: String
    package var className: String
    package var viewClass: ViewClass
    package var role: AXRole
    package var isElement: Bool
    package var label: String?
    package var value: String?
    package var identifier: String?
    package var traits: Traits
    package var states: AXStates
    /// Screen coordinates (R22).
    package var frame: Rect
    package var activationPoint: Point
    package var parent: String?
    package var children: [String]
    package var windowID: String
    package var actions: [AXAction]
    package var numeric: AXNumericValue?
    /// The text content (AT-SPI Text): the label for static text, the value for text input.
    package var text: String?

    private var _extras: CoW<AXNodeExtras>
    private static let defaultExtras = CoW(AXNodeExtras())

    /// True when the rarely-set properties share the common default storage (so each is at its default): a
    /// writer can skip them without reading them. False does not say one is set (a property set back to its
    /// default keeps its own storage).
    package var hasSharedDefaultExtras: Bool { _extras.storage === AXNode.defaultExtras.storage }

    /// The rarely-set properties as one value; setting the defaults shares the common storage again.
    package var extras: AXNodeExtras {
        @inline(__always) _read { yield _extras.value }
        set { _extras = newValue.isDefault ? AXNode.defaultExtras : CoW(newValue) }
    }

    package var hint: String? {
        _read { yield _extras.value.hint }
        _modify { yield &_extras.value.hint }
    }
    package var placeholder: String? {
        _read { yield _extras.value.placeholder }
        _modify { yield &_extras.value.placeholder }
    }
    package var language: String? {
        _read { yield _extras.value.language }
        _modify { yield &_extras.value.language }
    }
    package var headingLevel: Int? {
        _read { yield _extras.value.headingLevel }
        _modify { yield &_extras.value.headingLevel }
    }
    package var containerType: ContainerType {
        _read { yield _extras.value.containerType }
        _modify { yield &_extras.value.containerType }
    }
    package var navigationStyle: NavigationStyle {
        _read { yield _extras.value.navigationStyle }
        _modify { yield &_extras.value.navigationStyle }
    }
    package var textualContext: String? {
        _read { yield _extras.value.textualContext }
        _modify { yield &_extras.value.textualContext }
    }
    package var userInputLabels: [String] {
        _read { yield _extras.value.userInputLabels }
        _modify { yield &_extras.value.userInputLabels }
    }
    package var customActions: [CustomAction] {
        _read { yield _extras.value.customActions }
        _modify { yield &_extras.value.customActions }
    }
    package var rotors: [CustomRotor] {
        _read { yield _extras.value.rotors }
        _modify { yield &_extras.value.rotors }
    }
    package var positionInSet: Int? {
        _read { yield _extras.value.positionInSet }
        _modify { yield &_extras.value.positionInSet }
    }
    package var sizeOfSet: Int? {
        _read { yield _extras.value.sizeOfSet }
        _modify { yield &_extras.value.sizeOfSet }
    }
    package var table: AXTableInfo? {
        _read { yield _extras.value.table }
        _modify { yield &_extras.value.table }
    }
    package var cell: AXCellInfo? {
        _read { yield _extras.value.cell }
        _modify { yield &_extras.value.cell }
    }
    package var restrictions: [String] {
        _read { yield _extras.value.restrictions }
        _modify { yield &_extras.value.restrictions }
    }
    package var focus: FocusProperties {
        _read { yield _extras.value.focus }
        _modify { yield &_extras.value.focus }
    }
    /// `accessibilityDirectTouchOptions` (R28, X50) and `accessibilityIgnoresInvertColors` (R117), as set.
    package var directTouchOptions: [String] {
        _read { yield _extras.value.directTouchOptions }
        _modify { yield &_extras.value.directTouchOptions }
    }
    /// `automationElements` (R38, X18): the children automation sees, explicit or by the header's fallback.
    package var automationElements: [String] {
        _read { yield _extras.value.automationElements }
        _modify { yield &_extras.value.automationElements }
    }
    package var ignoresInvertColors: Bool {
        _read { yield _extras.value.ignoresInvertColors }
        _modify { yield &_extras.value.ignoresInvertColors }
    }
    /// What the large content viewer shows for the element, nil when it shows none (R118, D-LCV-1).
    package var largeContent: LargeContent? {
        _read { yield _extras.value.largeContent }
        _modify { yield &_extras.value.largeContent }
    }
    /// The element's drag sources and drop points, each with its view and point resolved (D-DRAG-1).
    package var dragDrop: DragDropDescriptors? {
        _read { yield _extras.value.dragDrop }
        _modify { yield &_extras.value.dragDrop }
    }
    /// An outline row's depth (`indentationLevel`, cells only; D-REL-8).
    package var indentationLevel: Int? {
        _read { yield _extras.value.indentationLevel }
        _modify { yield &_extras.value.indentationLevel }
    }
    /// A container backed by a paging scroll view (`isPagingEnabled`; D-REL-7).
    package var isPagingEnabled: Bool {
        _read { yield _extras.value.isPagingEnabled }
        _modify { yield &_extras.value.isPagingEnabled }
    }

    package init(
        id: String, viewID: String?, className: String, viewClass: ViewClass, role: AXRole, isElement: Bool,
        windowID: String
    ) {
        self.id = id
        self.viewID = viewID
        self.actionTarget = viewID ?? id
        self.className = className
        self.viewClass = viewClass
        self.role = role
        self.isElement = isElement
        label = nil
        value = nil
        identifier = nil
        traits = []
        states = [.enabled]
        frame = .zero
        activationPoint = .zero
        parent = nil
        children = []
        self.windowID = windowID
        actions = []
        numeric = nil
        text = nil
        _extras = AXNode.defaultExtras
    }

    /// Every field at once: the derivation builds each node in one go (no copies of a half-built node).
    @inline(__always)
    init(
        id: String, viewID: String?, actionTarget: String, className: String, viewClass: ViewClass, role: AXRole,
        isElement: Bool, label: String?, value: String?, identifier: String?, traits: Traits, states: AXStates,
        frame: Rect, activationPoint: Point, parent: String?, children: [String], windowID: String,
        actions: [AXAction], numeric: AXNumericValue?, text: String?, extras: AXNodeExtras?
    ) {
        self.id = id
        self.viewID = viewID
        self.actionTarget = actionTarget
        self.className = className
        self.viewClass = viewClass
        self.role = role
        self.isElement = isElement
        self.label = label
        self.value = value
        self.identifier = identifier
        self.traits = traits
        self.states = states
        self.frame = frame
        self.activationPoint = activationPoint
        self.parent = parent
        self.children = children
        self.windowID = windowID
        self.actions = actions
        self.numeric = numeric
        self.text = text
        _extras = extras.flatMap { $0.isDefault ? nil : CoW($0) } ?? AXNode.defaultExtras
    }

    package var isEnabled: Bool { states.contains(.enabled) }
    package var isOnscreen: Bool { states.contains(.onscreen) }
}

/// An immutable snapshot of one app's accessibility tree at a revision. Cheap to copy (persistent map).
package struct AXTree: Sendable {
    package var revision: Int
    package var nodes: BoxedMap<AXNode>
    /// Top-level nodes (windows), back to front by level then order.
    package var windows: [String]
    package init(revision: Int = 0, nodes: BoxedMap<AXNode> = [:], windows: [String] = []) {
        self.revision = revision
        self.nodes = nodes
        self.windows = windows
    }
    package subscript(id: String) -> AXNode? { nodes[id] }
    package var count: Int { nodes.count }

    /// Depth-first pre-order walk from the windows (or from `root`). The visitor returns false to skip a subtree.
    package func walk(from root: String? = nil, _ visit: (AXNode, Int) -> Bool) {
        var stack: [(String, Int)] = []
        if let root {
            stack.append((root, 0))
        } else {
            for windowID in windows.reversed() { stack.append((windowID, 0)) }
        }
        while let (id, depth) = stack.popLast() {
            guard let nodeBox = nodes.box(id) else { continue }
            let node = nodeBox.value
            if visit(node, depth) {
                for child in node.children.reversed() { stack.append((child, depth + 1)) }
            }
        }
    }

    /// Navigation order (R103–R105): every element (leaf stop) in depth-first reading order.
    package func navigationOrder(from root: String? = nil) -> [String] {
        var out: [String] = []
        walk(from: root) { node, _ in
            if node.isElement { out.append(node.id) }
            return true
        }
        return out
    }

    /// Ancestors of a node, nearest first.
    package func ancestors(of id: String) -> [String] {
        var out: [String] = []
        var current = nodes[id]?.parent
        while let parent = current {
            out.append(parent)
            current = nodes[parent]?.parent
        }
        return out
    }

    package func indexInParent(_ id: String) -> Int? {
        guard let node = nodes[id] else { return nil }
        if let parent = node.parent, let parentNode = nodes[parent] { return parentNode.children.firstIndex(of: id) }
        return windows.firstIndex(of: id)
    }
}
