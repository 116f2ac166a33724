/// One view of the mirrored hierarchy, as the app pushed it (Specs/hierarchy.md). Every field has UIKit's
/// default, so a node decoded from `{"id": "x", "class": "UIView"}` is a fresh UIView (A1).
public struct ViewNode: Sendable, Equatable {
    public var id: String
    public var className: String
    public var baseClass: String?
    public var kind: ViewClass

    // Tree links (maintained by the store; not settable through "set").
    public var parent: String?
    public var children: [String] = []

    // Geometry (A.2)
    public var frame: Rect = .zero
    public var boundsOrigin: Point = .zero
    public var transform: Transform2D = .identity

    // Visibility and interaction (A.3, A.4)
    public var isHidden = false
    public var alpha: Double = 1
    public var clipsToBounds: Bool?
    public var isUserInteractionEnabled: Bool?
    public var tag: Int = 0

    // The large property groups live in copy-on-write storage shared with UIKit's defaults until a view sets
    // one of them, so a view copies as a few pointers (the derivation passes views around by the ten thousand).
    private var _control = ViewNode.defaultControl
    private var _window = ViewNode.defaultWindow
    private var _ax = ViewNode.defaultAX
    private var _focus = ViewNode.defaultFocus
    private static let defaultControl = CoW(ControlState())
    private static let defaultWindow = CoW(WindowState())
    private static let defaultAX = CoW(AccessibilityProperties())
    private static let defaultFocus = CoW(FocusProperties())

    /// The focus properties were never set (the shared defaults).
    public var hasDefaultFocus: Bool { _focus.storage === ViewNode.defaultFocus.storage }

    // Control state (A.9)
    public var control: ControlState {
        @inline(__always) _read { yield _control.value }
        @inline(__always) _modify { yield &_control.value }
    }
    // Window state (A.7); meaningful on UIWindow
    public var window: WindowState {
        @inline(__always) _read { yield _window.value }
        @inline(__always) _modify { yield &_window.value }
    }
    // UIAccessibility overrides (§1–§5 of the semantics reference)
    public var ax: AccessibilityProperties {
        @inline(__always) _read { yield _ax.value }
        @inline(__always) _modify { yield &_ax.value }
    }
    // Focus engine properties (C.6, C.9)
    public var focus: FocusProperties {
        @inline(__always) _read { yield _focus.value }
        @inline(__always) _modify { yield &_focus.value }
    }
    /// Guided-access restriction identifiers that guard this view's actions (R83).
    public var restrictionIdentifiers: [String] = []

    public init(id: String, className: String, baseClass: String? = nil) {
        self.id = id
        self.className = className
        self.baseClass = baseClass
        self.kind = ViewClass(className: className, baseClass: baseClass)
    }

    public var effectiveClipsToBounds: Bool { clipsToBounds ?? kind.defaultClipsToBounds }
    public var effectiveUserInteractionEnabled: Bool { isUserInteractionEnabled ?? kind.defaultUserInteractionEnabled }
}

/// Copy-on-write storage for one value: copies share the box; the first mutation of a shared box copies it.
/// Reads go straight to the box (no exclusivity bookkeeping: a box is only mutated while uniquely referenced).
public struct CoW<Value: Sendable & Equatable>: Sendable, Equatable {
    @usableFromInline final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) @usableFromInline var value: Value
        @usableFromInline init(_ v: Value) { value = v }
    }
    @usableFromInline var storage: Storage
    public init(_ value: Value) { storage = Storage(value) }

    public var value: Value {
        @inline(__always) _read { yield storage.value }
        @inline(__always) _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.value) }
            yield &storage.value
        }
    }

    public static func == (a: CoW, b: CoW) -> Bool { a.storage === b.storage || a.storage.value == b.storage.value }
}

public struct ControlState: Sendable, Equatable {
    public var isEnabled = true
    public var isSelected = false
    public var isHighlighted = false
    public var isOn = false
    public var value: Double?
    public var minimumValue: Double?
    public var maximumValue: Double?
    public var stepValue: Double?
    public var text: String?
    public var title: String?
    public var placeholder: String?
    public var isSecureTextEntry = false
    public var isEditable = true
    public var currentPage: Int?
    public var numberOfPages: Int?
    public var selectedSegmentIndex: Int?
    public var segmentTitles: [String] = []
    public var progress: Double?
    public var isAnimating = false
    /// UITableViewCell accessory ("none", "disclosureIndicator", "checkmark", "detailButton", "detailDisclosureButton").
    public var accessoryType: String?
    /// UINavigationBar: title of the back item; nil means no back button (A39).
    public var backButtonTitle: String?
    /// UIAlertController: message, and style ("alert" | "actionSheet").
    public var message: String?
    public var preferredStyle: String?
    /// UIDatePicker / UIPickerView components: each one is its own adjustable element (R9, R18).
    public var components: [PickerComponent] = []
    /// Free-form date text for UIDatePicker when no components are given.
    public var dateText: String?
    /// Text style the app may send for the audits (D-AUDIT-8, D-AUDIT-9): point size, text and background colour.
    public var fontSize: Double?
    public var textColor: RGBColor?
    public var backgroundColor: RGBColor?
    public init() {}
}

public struct PickerComponent: Sendable, Equatable {
    public var label: String?
    public var hint: String?
    public var rows: [String]
    public var selectedRow: Int
    public init(label: String? = nil, hint: String? = nil, rows: [String], selectedRow: Int) {
        self.label = label; self.hint = hint; self.rows = rows; self.selectedRow = selectedRow
    }
}

public enum LayoutDirection: String, Sendable { case ltr, rtl }

public struct WindowState: Sendable, Equatable {
    public var isKeyWindow = false
    public var windowLevel: Double = 0
    public var title: String?
    public var layoutDirection: LayoutDirection = .ltr
    public init() {}
}

public enum ContainerType: String, Sendable, CaseIterable {
    case none, dataTable, list, landmark, semanticGroup
    /// R40: the raw-value initializer is failable; 0…4 in this order (X17).
    public init?(rawInt: Int) {
        guard rawInt >= 0, rawInt < ContainerType.allCases.count else { return nil }
        self = ContainerType.allCases[rawInt]
    }
}

public enum NavigationStyle: String, Sendable, CaseIterable { case automatic, separate, combined }

public enum SystemRotorType: String, Sendable, CaseIterable {
    case none, link, visitedLink, heading, headingLevel1, headingLevel2, headingLevel3, headingLevel4,
         headingLevel5, headingLevel6, boldText, italicText, underlineText, misspelledWord, image, textField,
         table, list, landmark
}

public struct CustomAction: Sendable, Equatable {
    public var id: String
    public var name: String
    public var category: String?
    public var hasImage: Bool
    public init(id: String, name: String, category: String? = nil, hasImage: Bool = false) {
        self.id = id; self.name = name; self.category = category; self.hasImage = hasImage
    }
}

public struct RotorItem: Sendable, Equatable {
    public var target: String
    public var range: TextRange?
    public init(target: String, range: TextRange? = nil) { self.target = target; self.range = range }
}

public struct TextRange: Sendable, Equatable {
    public var location: Int
    public var length: Int
    public init(location: Int, length: Int) { self.location = location; self.length = length }
}

public struct CustomRotor: Sendable, Equatable {
    public var name: String
    public var systemType: SystemRotorType
    public var items: [RotorItem]
    /// `"search": "app"`: the app computes the items (R58); the server asks it with the `rotorSearch` action
    /// instead of searching `items` (D-ROTOR-5).
    public var searchedByApp: Bool
    public init(name: String, systemType: SystemRotorType = .none, items: [RotorItem], searchedByApp: Bool = false) {
        self.name = name; self.systemType = systemType; self.items = items; self.searchedByApp = searchedByApp
    }
}

/// A `UIAccessibilityElement` that no view backs, listed in a container's `accessibilityElements` (R31, R35).
public struct VirtualElement: Sendable, Equatable {
    public var id: String
    public var ax: AccessibilityProperties
    /// `accessibilityFrameInContainerSpace` (R35, X52).
    public var frameInContainer: Rect
    public init(id: String, ax: AccessibilityProperties = AccessibilityProperties(), frameInContainer: Rect = .zero) {
        self.id = id; self.ax = ax; self.frameInContainer = frameInContainer
    }
}

public enum ElementEntry: Sendable, Equatable {
    case view(String)
    case virtual(VirtualElement)
}

public struct DataTableInfo: Sendable, Equatable {
    public var rows: Int
    public var columns: Int
    /// Header element ids per column / row (R42).
    public var columnHeaders: [Int: [String]] = [:]
    public var rowHeaders: [Int: [String]] = [:]
    public init(rows: Int, columns: Int) { self.rows = rows; self.columns = columns }
}

public struct AccessibilityProperties: Sendable, Equatable {
    public var isAccessibilityElement: Bool?
    public var label: String?
    public var value: String?
    public var hint: String?
    public var identifier: String?
    public var traits: Traits?
    /// Screen-coordinate frame override (R22). Virtual elements use `frameInContainer` instead.
    public var frame: Rect?
    public var activationPoint: Point?
    public var language: String?
    public var elementsHidden = false
    public var viewIsModal: Bool?
    public var shouldGroupChildren = false
    public var navigationStyle: NavigationStyle = .automatic
    public var containerType: ContainerType = .none
    public var respondsToUserInteraction: Bool?
    public var userInputLabels: [String] = []
    public var textualContext: String?
    public var headingLevel: Int?
    public var customActions: [CustomAction] = []
    public var customRotors: [CustomRotor] = []
    public var elements: [ElementEntry]?
    public var automationElements: [String]?
    public var dataTable: DataTableInfo?
    public var rowRange: TextRange?
    public var columnRange: TextRange?
    public var directTouchOptions: [String] = []
    public var ignoresInvertColors = false
    public var expandedStatus: String?
    public init() {}
}

public enum FocusGroupPriority: Sendable, Equatable {
    case ignored, previouslyFocused, prioritized, currentlyFocused, raw(Int)
    /// R122/C22: ignored < previouslyFocused < prioritized < currentlyFocused. Raw values are this project's.
    public var rawValue: Int {
        switch self {
        case .ignored: return 0
        case .previouslyFocused: return 1000
        case .prioritized: return 2000
        case .currentlyFocused: return Int.max
        case .raw(let v): return v
        }
    }
}

public struct FocusGuide: Sendable, Equatable {
    public var id: String
    public var frame: Rect
    public var preferred: [String]
    public var isEnabled: Bool
    public init(id: String, frame: Rect, preferred: [String], isEnabled: Bool = true) {
        self.id = id; self.frame = frame; self.preferred = preferred; self.isEnabled = isEnabled
    }
}

public struct FocusProperties: Sendable, Equatable {
    public var canBecomeFocused: Bool?
    public var groupIdentifier: String?
    public var groupPriority: FocusGroupPriority = .ignored
    public var guides: [FocusGuide] = []
    public var isTransparentFocusItem = false
    /// `isFocused` pushed by the app: its own focus engine focused this view (C35, C36; D-FOCUS-3).
    public var isFocused = false
    /// `preferredFocusEnvironments`, in priority order (C7, C8): view or focus-guide ids.
    public var preferredEnvironments: [String] = []
    /// The app answers `shouldUpdateFocus` / `didUpdateFocus` requests for updates involving this view or its
    /// descendants (C12, C13; Specs/protocol.md §Focus engine).
    public var asksFocusUpdates = false
    public init() {}
}

/// App-level guided-access restriction declared by the provider (UIGuidedAccessRestrictionDelegate, §8).
public struct GuidedAccessRestriction: Sendable, Equatable {
    public var id: String
    public var text: String
    public var detailText: String?
    public init(id: String, text: String, detailText: String? = nil) { self.id = id; self.text = text; self.detailText = detailText }
}
