import HashTreeCollections

/// The role the core derives for every exposed node (Specs/hierarchy.md §Roles; D-ROLE-1).
public enum AXRole: String, Sendable, CaseIterable {
    // containers
    case window, alert, group, list, table, landmark, tabBar, navigationBar, toolbar, segmentedControl, picker
    // elements
    case button, link, image, staticText, header, textField, secureTextField, searchField, textView
    case adjustable, `switch`, tab, cell, keyboardKey, progressIndicator, activityIndicator, pickerItem

    public var isContainerRole: Bool {
        switch self {
        case .window, .alert, .group, .list, .table, .landmark, .tabBar, .navigationBar, .toolbar, .segmentedControl, .picker:
            return true
        default: return false
        }
    }
}

/// Derived states of an exposed node.
public struct AXStates: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let enabled = AXStates(rawValue: 1 << 0)
    public static let selected = AXStates(rawValue: 1 << 1)
    public static let checked = AXStates(rawValue: 1 << 2)
    /// Some part of the frame lies inside the window and every clipping ancestor.
    public static let onscreen = AXStates(rawValue: 1 << 3)
    /// Part (not all) of the frame is cut off by a clipping ancestor or the window.
    public static let clipped = AXStates(rawValue: 1 << 4)
    public static let focusable = AXStates(rawValue: 1 << 5)
    public static let editable = AXStates(rawValue: 1 << 6)
    public static let secure = AXStates(rawValue: 1 << 7)
    public static let multiLine = AXStates(rawValue: 1 << 8)
    public static let busy = AXStates(rawValue: 1 << 9)
    public static let modal = AXStates(rawValue: 1 << 10)
    public static let activeWindow = AXStates(rawValue: 1 << 11)
    public static let respondsToUserInteraction = AXStates(rawValue: 1 << 12)
    public static let expanded = AXStates(rawValue: 1 << 13)
    public static let collapsed = AXStates(rawValue: 1 << 14)
    public static let updatesFrequently = AXStates(rawValue: 1 << 15)

    public static let named: [(String, AXStates)] = [
        ("enabled", .enabled), ("selected", .selected), ("checked", .checked), ("onscreen", .onscreen),
        ("clipped", .clipped), ("focusable", .focusable), ("editable", .editable), ("secure", .secure),
        ("multiLine", .multiLine), ("busy", .busy), ("modal", .modal), ("activeWindow", .activeWindow),
        ("respondsToUserInteraction", .respondsToUserInteraction), ("expanded", .expanded), ("collapsed", .collapsed),
        ("updatesFrequently", .updatesFrequently),
    ]
    public var names: [String] { AXStates.named.compactMap { contains($0.1) ? $0.0 : nil } }
}

/// Numeric value for adjustable controls (AT-SPI Value; action.setValue).
public struct AXNumericValue: Sendable, Hashable {
    public var current: Double
    public var minimum: Double
    public var maximum: Double
    public var step: Double
    public init(current: Double, minimum: Double, maximum: Double, step: Double) {
        self.current = current; self.minimum = minimum; self.maximum = maximum; self.step = step
    }
}

/// Standard (non-custom) actions an element supports; the names are the wire names.
public enum AXAction: String, Sendable, CaseIterable {
    case activate, increment, decrement, scroll, escape, magicTap, setValue, typeText
}

public struct AXTableInfo: Sendable, Hashable {
    public var rows: Int
    public var columns: Int
    public var columnHeaders: [Int: [String]]
    public var rowHeaders: [Int: [String]]
    public init(rows: Int, columns: Int, columnHeaders: [Int: [String]] = [:], rowHeaders: [Int: [String]] = [:]) {
        self.rows = rows; self.columns = columns; self.columnHeaders = columnHeaders; self.rowHeaders = rowHeaders
    }
}

public struct AXCellInfo: Sendable, Hashable {
    public var row: Int, rowSpan: Int, column: Int, columnSpan: Int
    public init(row: Int, rowSpan: Int, column: Int, columnSpan: Int) {
        self.row = row; self.rowSpan = rowSpan; self.column = column; self.columnSpan = columnSpan
    }
}

/// The properties of a node that most nodes leave at their defaults. They live in one copy-on-write group that
/// every node shares until it sets one, so a node copies (into the tree, out of it) as a few pointers.
public struct AXNodeExtras: Sendable, Equatable {
    public var hint: String?
    public var placeholder: String?
    public var language: String?
    public var headingLevel: Int?
    public var containerType: ContainerType = .none
    public var navigationStyle: NavigationStyle = .automatic
    public var textualContext: String?
    public var userInputLabels: [String] = []
    public var customActions: [CustomAction] = []
    public var rotors: [CustomRotor] = []
    public var positionInSet: Int?
    public var sizeOfSet: Int?
    public var table: AXTableInfo?
    public var cell: AXCellInfo?
    public var restrictions: [String] = []
    public var focus = FocusProperties()
    public var directTouchOptions: [String] = []
    public var automationElements: [String] = []
    public var ignoresInvertColors = false
    public init() {}

    /// Every field at its default: checked field by field (cheaper than comparing with a default value), so that
    /// nodes setting nothing share one storage. A new field belongs here too (and in `Deriver.makeElement`'s
    /// guard, which checks the same fields at their sources before building a group).
    var isDefault: Bool {
        hint == nil && placeholder == nil && language == nil && headingLevel == nil && containerType == .none
            && navigationStyle == .automatic && textualContext == nil && userInputLabels.isEmpty && customActions.isEmpty
            && rotors.isEmpty && positionInSet == nil && sizeOfSet == nil && table == nil && cell == nil
            && restrictions.isEmpty && focus == FocusProperties() && directTouchOptions.isEmpty
            && automationElements.isEmpty && !ignoresInvertColors
    }
}

/// One node of the derived accessibility tree: a window, a container or an element (a navigation stop).
public struct AXNode: Sendable, Equatable {
    public var id: String
    /// The view that backs this node, or nil for a virtual element. Actions go to `actionTarget`.
    public var viewID: String?
    public var actionTarget: String
    public var className: String
    public var viewClass: ViewClass
    public var role: AXRole
    public var isElement: Bool
    public var label: String?
    public var value: String?
    public var identifier: String?
    public var traits: Traits
    public var states: AXStates
    /// Screen coordinates (R22).
    public var frame: Rect
    public var activationPoint: Point
    public var parent: String?
    public var children: [String]
    public var windowID: String
    public var actions: [AXAction]
    public var numeric: AXNumericValue?
    /// The text content (AT-SPI Text): the label for static text, the value for text input.
    public var text: String?

    private var _extras: CoW<AXNodeExtras>
    private static let defaultExtras = CoW(AXNodeExtras())

    /// The rarely-set properties as one value; setting the defaults shares the common storage again.
    public var extras: AXNodeExtras {
        @inline(__always) _read { yield _extras.value }
        set { _extras = newValue.isDefault ? AXNode.defaultExtras : CoW(newValue) }
    }

    public var hint: String? { _read { yield _extras.value.hint } _modify { yield &_extras.value.hint } }
    public var placeholder: String? { _read { yield _extras.value.placeholder } _modify { yield &_extras.value.placeholder } }
    public var language: String? { _read { yield _extras.value.language } _modify { yield &_extras.value.language } }
    public var headingLevel: Int? { _read { yield _extras.value.headingLevel } _modify { yield &_extras.value.headingLevel } }
    public var containerType: ContainerType { _read { yield _extras.value.containerType } _modify { yield &_extras.value.containerType } }
    public var navigationStyle: NavigationStyle { _read { yield _extras.value.navigationStyle } _modify { yield &_extras.value.navigationStyle } }
    public var textualContext: String? { _read { yield _extras.value.textualContext } _modify { yield &_extras.value.textualContext } }
    public var userInputLabels: [String] { _read { yield _extras.value.userInputLabels } _modify { yield &_extras.value.userInputLabels } }
    public var customActions: [CustomAction] { _read { yield _extras.value.customActions } _modify { yield &_extras.value.customActions } }
    public var rotors: [CustomRotor] { _read { yield _extras.value.rotors } _modify { yield &_extras.value.rotors } }
    public var positionInSet: Int? { _read { yield _extras.value.positionInSet } _modify { yield &_extras.value.positionInSet } }
    public var sizeOfSet: Int? { _read { yield _extras.value.sizeOfSet } _modify { yield &_extras.value.sizeOfSet } }
    public var table: AXTableInfo? { _read { yield _extras.value.table } _modify { yield &_extras.value.table } }
    public var cell: AXCellInfo? { _read { yield _extras.value.cell } _modify { yield &_extras.value.cell } }
    public var restrictions: [String] { _read { yield _extras.value.restrictions } _modify { yield &_extras.value.restrictions } }
    public var focus: FocusProperties { _read { yield _extras.value.focus } _modify { yield &_extras.value.focus } }
    /// `accessibilityDirectTouchOptions` (R28, X50) and `accessibilityIgnoresInvertColors` (R117), as set.
    public var directTouchOptions: [String] { _read { yield _extras.value.directTouchOptions } _modify { yield &_extras.value.directTouchOptions } }
    /// `automationElements` (R38, X18): the children automation sees, explicit or by the header's fallback.
    public var automationElements: [String] { _read { yield _extras.value.automationElements } _modify { yield &_extras.value.automationElements } }
    public var ignoresInvertColors: Bool { _read { yield _extras.value.ignoresInvertColors } _modify { yield &_extras.value.ignoresInvertColors } }

    public init(id: String, viewID: String?, className: String, viewClass: ViewClass, role: AXRole, isElement: Bool, windowID: String) {
        self.id = id; self.viewID = viewID; self.actionTarget = viewID ?? id; self.className = className
        self.viewClass = viewClass; self.role = role; self.isElement = isElement
        label = nil; value = nil; identifier = nil
        traits = []; states = [.enabled]; frame = .zero; activationPoint = .zero
        parent = nil; children = []; self.windowID = windowID
        actions = []; numeric = nil; text = nil
        _extras = AXNode.defaultExtras
    }

    /// Every field at once: the derivation builds each node in one go (no copies of a half-built node).
    @inline(__always)
    init(id: String, viewID: String?, actionTarget: String, className: String, viewClass: ViewClass, role: AXRole,
         isElement: Bool, label: String?, value: String?, identifier: String?, traits: Traits, states: AXStates,
         frame: Rect, activationPoint: Point, parent: String?, children: [String], windowID: String,
         actions: [AXAction], numeric: AXNumericValue?, text: String?, extras: AXNodeExtras?) {
        self.id = id; self.viewID = viewID; self.actionTarget = actionTarget; self.className = className
        self.viewClass = viewClass; self.role = role; self.isElement = isElement; self.label = label; self.value = value
        self.identifier = identifier; self.traits = traits; self.states = states; self.frame = frame
        self.activationPoint = activationPoint; self.parent = parent; self.children = children; self.windowID = windowID
        self.actions = actions; self.numeric = numeric; self.text = text
        _extras = extras.flatMap { $0.isDefault ? nil : CoW($0) } ?? AXNode.defaultExtras
    }

    public var isEnabled: Bool { states.contains(.enabled) }
    public var isOnscreen: Bool { states.contains(.onscreen) }
}

/// An immutable snapshot of one app's accessibility tree at a revision. Cheap to copy (persistent map).
public struct AXTree: Sendable {
    public var revision: Int
    public var nodes: BoxedMap<AXNode>
    /// Top-level nodes (windows), back to front by level then order.
    public var windows: [String]
    public init(revision: Int = 0, nodes: BoxedMap<AXNode> = [:], windows: [String] = []) {
        self.revision = revision; self.nodes = nodes; self.windows = windows
    }
    public subscript(id: String) -> AXNode? { nodes[id] }
    public var count: Int { nodes.count }

    /// Depth-first pre-order walk from the windows (or from `root`). The visitor returns false to skip a subtree.
    public func walk(from root: String? = nil, _ visit: (AXNode, Int) -> Bool) {
        var stack: [(String, Int)] = []
        if let root { stack.append((root, 0)) } else { for w in windows.reversed() { stack.append((w, 0)) } }
        while let (id, depth) = stack.popLast() {
            guard let b = nodes.box(id) else { continue }
            let n = b.value
            if visit(n, depth) {
                for c in n.children.reversed() { stack.append((c, depth + 1)) }
            }
        }
    }

    /// Navigation order (R103–R105): every element (leaf stop) in depth-first reading order.
    public func navigationOrder(from root: String? = nil) -> [String] {
        var out: [String] = []
        walk(from: root) { n, _ in
            if n.isElement { out.append(n.id) }
            return true
        }
        return out
    }

    /// Ancestors of a node, nearest first.
    public func ancestors(of id: String) -> [String] {
        var out: [String] = []
        var cur = nodes[id]?.parent
        while let p = cur { out.append(p); cur = nodes[p]?.parent }
        return out
    }

    public func indexInParent(_ id: String) -> Int? {
        guard let n = nodes[id] else { return nil }
        if let p = n.parent, let pn = nodes[p] { return pn.children.firstIndex(of: id) }
        return windows.firstIndex(of: id)
    }
}
