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
    public var hint: String?
    public var identifier: String?
    public var placeholder: String?
    public var traits: Traits
    public var states: AXStates
    /// Screen coordinates (R22).
    public var frame: Rect
    public var activationPoint: Point
    public var language: String?
    public var parent: String?
    public var children: [String]
    public var windowID: String
    public var headingLevel: Int?
    public var containerType: ContainerType
    public var navigationStyle: NavigationStyle
    public var textualContext: String?
    public var userInputLabels: [String]
    public var customActions: [CustomAction]
    public var rotors: [CustomRotor]
    public var actions: [AXAction]
    public var numeric: AXNumericValue?
    public var positionInSet: Int?
    public var sizeOfSet: Int?
    public var table: AXTableInfo?
    public var cell: AXCellInfo?
    public var restrictions: [String]
    public var focus: FocusProperties
    /// The text content (AT-SPI Text): the label for static text, the value for text input.
    public var text: String?
    /// `accessibilityDirectTouchOptions` (R28, X50) and `accessibilityIgnoresInvertColors` (R117), as set.
    public var directTouchOptions: [String] = []
    /// `automationElements` (R38, X18): the children automation sees, explicit or by the header's fallback.
    public var automationElements: [String] = []
    public var ignoresInvertColors = false

    public init(id: String, viewID: String?, className: String, viewClass: ViewClass, role: AXRole, isElement: Bool, windowID: String) {
        self.id = id; self.viewID = viewID; self.actionTarget = viewID ?? id; self.className = className
        self.viewClass = viewClass; self.role = role; self.isElement = isElement
        label = nil; value = nil; hint = nil; identifier = nil; placeholder = nil
        traits = []; states = [.enabled]; frame = .zero; activationPoint = .zero; language = nil
        parent = nil; children = []; self.windowID = windowID; headingLevel = nil; containerType = .none
        navigationStyle = .automatic; textualContext = nil; userInputLabels = []; customActions = []; rotors = []
        actions = []; numeric = nil; positionInSet = nil; sizeOfSet = nil; table = nil; cell = nil
        restrictions = []; focus = FocusProperties(); text = nil
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
