/// One view of the mirrored hierarchy, as the app pushed it (Specs/hierarchy.md). Every field has UIKit's
/// default, so a node decoded from `{"id": "x", "class": "UIView"}` is a fresh UIView (A1).
package struct ViewNode: Sendable, Equatable {
    package var id: String
    package var className: String
    package var baseClass: String?
    package var kind: ViewClass

    // Tree links (maintained by the store; not settable through "set").
    package var parent: String?
    package var children: [String] = []

    // Geometry (A.2)
    package var frame: Rect = .zero
    package var boundsOrigin: Point = .zero
    package var transform: Transform2D = .identity

    // Visibility and interaction (A.3, A.4)
    package var isHidden = false
    package var alpha: Double = 1
    package var clipsToBounds: Bool?
    package var isUserInteractionEnabled: Bool?
    package var tag: Int = 0

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
    package var hasDefaultFocus: Bool { _focus.storage === ViewNode.defaultFocus.storage }

    // Control state (A.9)
    package var control: ControlState {
        @inline(__always) _read { yield _control.value }
        @inline(__always) _modify { yield &_control.value }
    }
    // Window state (A.7); meaningful on UIWindow
    package var window: WindowState {
        @inline(__always) _read { yield _window.value }
        @inline(__always) _modify { yield &_window.value }
    }
    // UIAccessibility overrides (§1–§5 of the semantics reference)
    package var ax: AccessibilityProperties {
        @inline(__always) _read { yield _ax.value }
        @inline(__always) _modify { yield &_ax.value }
    }
    // Focus engine properties (C.6, C.9)
    package var focus: FocusProperties {
        @inline(__always) _read { yield _focus.value }
        @inline(__always) _modify { yield &_focus.value }
    }
    /// Guided-access restriction identifiers that guard this view's actions (R83).
    package var restrictionIdentifiers: [String] = []

    package init(id: String, className: String, baseClass: String? = nil) {
        self.id = id
        self.className = className
        self.baseClass = baseClass
        self.kind = ViewClass(className: className, baseClass: baseClass)
    }

    package var effectiveClipsToBounds: Bool { clipsToBounds ?? kind.defaultClipsToBounds }
    package var effectiveUserInteractionEnabled: Bool { isUserInteractionEnabled ?? kind.defaultUserInteractionEnabled }
}

/// Copy-on-write storage for one value: copies share the box; the first mutation of a shared box copies it.
/// Reads go straight to the box (no exclusivity bookkeeping: a box is only mutated while uniquely referenced).
package struct CoW<Value: Sendable & Equatable>: Sendable, Equatable {
    @usableFromInline final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) @usableFromInline var value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }
    @usableFromInline var storage: Storage
    package init(_ value: Value) { storage = Storage(value) }

    package var value: Value {
        @inline(__always) _read { yield storage.value }
        @inline(__always) _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.value) }
            yield &storage.value
        }
    }

    package static func == (lhs: CoW, rhs: CoW) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.value == rhs.storage.value
    }
}

package struct ControlState: Sendable, Equatable {
    package var isEnabled = true
    package var isSelected = false
    package var isHighlighted = false
    package var isOn = false
    package var value: Double?
    package var minimumValue: Double?
    package var maximumValue: Double?
    package var stepValue: Double?
    package var text: String?
    package var title: String?
    package var placeholder: String?
    package var isSecureTextEntry = false
    package var isEditable = true
    package var currentPage: Int?
    package var numberOfPages: Int?
    package var selectedSegmentIndex: Int?
    package var segmentTitles: [String] = []
    package var progress: Double?
    package var isAnimating = false
    /// `UIImage.imageOrientation` of an image view's image (SwiftUI `Image(_:scale:orientation:label:)`, B5):
    /// drawing only, so no accessibility value depends on it (D-SWIFTUI-1); nil = not sent (`up`).
    package var imageOrientation: ImageOrientation?
    /// The variable value (0…1) of an image view's symbol (SwiftUI `Image(_:variableValue:label:)`, B4): drawing
    /// only, so no accessibility value depends on it (D-SWIFTUI-1).
    package var imageVariableValue: Double?
    /// UITableViewCell accessory ("none", "disclosureIndicator", "checkmark", "detailButton", "detailDisclosureButton").
    package var accessoryType: String?
    /// `UITableViewCell.indentationLevel` / `UICollectionViewListCell.indentationLevel` (0 = top level; nil = not
    /// set): an outline row's depth, which gives NODE_CHILD_OF (D-REL-8).
    package var indentationLevel: Int?
    /// `UIScrollView.isPagingEnabled` (also table and collection views): the view scrolls by pages, so a page
    /// control beside it can control it (CONTROLLER_FOR, D-REL-7).
    package var isPagingEnabled = false
    /// UINavigationBar: title of the back item; nil means no back button (A39).
    package var backButtonTitle: String?
    /// UIAlertController: message, and style ("alert" | "actionSheet").
    package var message: String?
    package var preferredStyle: String?
    /// UIDatePicker / UIPickerView components: each one is its own adjustable element (R9, R18).
    package var components: [PickerComponent] = []
    /// Free-form date text for UIDatePicker when no components are given.
    package var dateText: String?
    /// Text style the app may send for the audits (D-AUDIT-8, D-AUDIT-9): point size, text and background colour.
    package var fontSize: Double?
    package var textColor: RGBColor?
    package var backgroundColor: RGBColor?
    /// `UILabel.numberOfLines` (nil = not sent; 0 = as many lines as the text needs).
    package var numberOfLines: Int?
    /// `UITextInput.selectedTextRange`: the app's caret or selection in Unicode scalars (D-TEXT-APP-1); nil = the
    /// app reports none.
    package var selectedTextRange: TextRange?
    /// `attributedText`: attribute runs over `text` (D-TEXT-APP-3); nil = not sent.
    package var attributedText: [TextAttributeRun]?
    package init() {}
}

package struct PickerComponent: Sendable, Equatable {
    package var label: String?
    package var hint: String?
    package var rows: [String]
    package var selectedRow: Int
    package init(label: String? = nil, hint: String? = nil, rows: [String], selectedRow: Int) {
        self.label = label
        self.hint = hint
        self.rows = rows
        self.selectedRow = selectedRow
    }
}

package enum LayoutDirection: String, Sendable { case ltr, rtl }

package struct WindowState: Sendable, Equatable {
    package var isKeyWindow = false
    package var windowLevel: Double = 0
    package var title: String?
    package var layoutDirection: LayoutDirection = .ltr
    package init() {}
}

package enum ContainerType: String, Sendable, CaseIterable {
    case none, dataTable, list, landmark, semanticGroup
    /// AXServer's extension for toolkits whose menus are menus (D-MENU-1): UIKit has no menu container type.
    case menu, menuBar
    /// R40: the raw-value initializer is failable; UIKit's 0…4 in this order (X17). The extension cases have no
    /// integer: they are sent by name only.
    package init?(rawInt: Int) {
        let uikit: [ContainerType] = [.none, .dataTable, .list, .landmark, .semanticGroup]
        guard rawInt >= 0, rawInt < uikit.count else { return nil }
        self = uikit[rawInt]
    }
}

/// `UIImage.Orientation` (SwiftUI `Image.Orientation`): the eight ways an image is drawn.
package enum ImageOrientation: String, Sendable, CaseIterable {
    case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
}

package enum NavigationStyle: String, Sendable, CaseIterable {
    case automatic, separate, combined
    /// X12: `UIAccessibilityNavigationStyle`'s raw values are 0…2 in this order.
    package init?(rawInt: Int) {
        guard rawInt >= 0, rawInt < NavigationStyle.allCases.count else { return nil }
        self = NavigationStyle.allCases[rawInt]
    }
}

package enum SystemRotorType: String, Sendable, CaseIterable {
    case none, link, visitedLink, heading, headingLevel1, headingLevel2, headingLevel3, headingLevel4,
        headingLevel5, headingLevel6, boldText, italicText, underlineText, misspelledWord, image, textField,
        table, list, landmark
}

package struct CustomAction: Sendable, Equatable {
    package var id: String
    package var name: String
    package var category: String?
    package var hasImage: Bool
    /// The action's `image` when the app names it with a string (an asset or SF Symbol name; issue 25 item 8: was
    /// dropped). `hasImage` stays true for any non-null image.
    package var image: String?
    package init(id: String, name: String, category: String? = nil, hasImage: Bool = false, image: String? = nil) {
        self.id = id
        self.name = name
        self.category = category
        self.hasImage = hasImage || image != nil
        self.image = image
    }
}

package struct RotorItem: Sendable, Equatable {
    package var target: String
    package var range: TextRange?
    package init(target: String, range: TextRange? = nil) {
        self.target = target
        self.range = range
    }
}

package struct TextRange: Sendable, Equatable {
    package var location: Int
    package var length: Int
    package init(location: Int, length: Int) {
        self.location = location
        self.length = length
    }
}

package struct CustomRotor: Sendable, Equatable {
    package var name: String
    package var systemType: SystemRotorType
    package var items: [RotorItem]
    /// `"search": "app"`: the app computes the items (R58); the server asks it with the `rotorSearch` action
    /// instead of searching `items` (D-ROTOR-5).
    package var searchedByApp: Bool
    package init(name: String, systemType: SystemRotorType = .none, items: [RotorItem], searchedByApp: Bool = false) {
        self.name = name
        self.systemType = systemType
        self.items = items
        self.searchedByApp = searchedByApp
    }
}

/// A `UIAccessibilityElement` that no view backs, listed in a container's `accessibilityElements` (R31, R35).
package struct VirtualElement: Sendable, Equatable {
    package var id: String
    package var ax: AccessibilityProperties
    /// `accessibilityFrameInContainerSpace` (R35, X52).
    package var frameInContainer: Rect
    package init(id: String, ax: AccessibilityProperties = AccessibilityProperties(), frameInContainer: Rect = .zero) {
        self.id = id
        self.ax = ax
        self.frameInContainer = frameInContainer
    }
}

package enum ElementEntry: Sendable, Equatable {
    case view(String)
    case virtual(VirtualElement)
}

package struct DataTableInfo: Sendable, Equatable {
    package var rows: Int
    package var columns: Int
    /// Header element ids per column / row (R42).
    package var columnHeaders: [Int: [String]] = [:]
    package var rowHeaders: [Int: [String]] = [:]
    package init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }
}

package struct AccessibilityProperties: Sendable, Equatable {
    package var isAccessibilityElement: Bool?
    package var label: String?
    package var value: String?
    package var hint: String?
    package var identifier: String?
    package var traits: Traits?
    /// Screen-coordinate frame override (R22). Virtual elements use `frameInContainer` instead.
    package var frame: Rect?
    package var activationPoint: Point?
    package var language: String?
    package var elementsHidden = false
    package var viewIsModal: Bool?
    package var shouldGroupChildren = false
    package var navigationStyle: NavigationStyle = .automatic
    package var containerType: ContainerType = .none
    package var respondsToUserInteraction: Bool?
    package var userInputLabels: [String] = []
    package var textualContext: String?
    package var headingLevel: Int?
    package var customActions: [CustomAction] = []
    package var customRotors: [CustomRotor] = []
    package var elements: [ElementEntry]?
    package var automationElements: [String]?
    package var dataTable: DataTableInfo?
    package var rowRange: TextRange?
    package var columnRange: TextRange?
    package var directTouchOptions: [String] = []
    package var ignoresInvertColors = false
    package var expandedStatus: String?
    /// UILargeContentViewerItem, as the app set it (issue 25 item 4; D-LCV-1).
    package var largeContent = LargeContentSettings()
    /// `accessibilityDragSourceDescriptors` / `accessibilityDropPointDescriptors`, as set (D-DRAG-1).
    package var dragDrop = DragDropDescriptors()
    /// `accessibilityAttributedLabel` / `accessibilityAttributedValue` as attribute runs (D-TEXT-APP-3).
    package var attributedLabel: [TextAttributeRun]?
    package var attributedValue: [TextAttributeRun]?
    /// `accessibilityAttributedHint` as attribute runs over the hint (D-TEXT-APP-7).
    package var attributedHint: [TextAttributeRun]?
    /// `accessibilityAttributedUserInputLabels`: each input label's text and runs (D-TEXT-APP-7).
    package var attributedUserInputLabels: [AttributedText]?
    /// The input labels (R25): `accessibilityUserInputLabels`, else the texts of the attributed ones (UIKit bridges
    /// the two properties).
    package var effectiveUserInputLabels: [String] {
        userInputLabels.isEmpty ? (attributedUserInputLabels ?? []).map(\.text) : userInputLabels
    }
    /// `UIAccessibilityReadingContent` (R93; D-TEXT-APP-4).
    package var readingContent: ReadingContent?
    package init() {}
}

package enum FocusGroupPriority: Sendable, Equatable {
    case ignored, previouslyFocused, prioritized, currentlyFocused
    case raw(Int)
    /// R122/C22: ignored < previouslyFocused < prioritized < currentlyFocused. Raw values are this project's.
    package var rawValue: Int {
        switch self {
        case .ignored: return 0
        case .previouslyFocused: return 1000
        case .prioritized: return 2000
        case .currentlyFocused: return Int.max
        case .raw(let v): return v
        }
    }
}

package struct FocusGuide: Sendable, Equatable {
    package var id: String
    package var frame: Rect
    package var preferred: [String]
    package var isEnabled: Bool
    package init(id: String, frame: Rect, preferred: [String], isEnabled: Bool = true) {
        self.id = id
        self.frame = frame
        self.preferred = preferred
        self.isEnabled = isEnabled
    }
}

package struct FocusProperties: Sendable, Equatable {
    package var canBecomeFocused: Bool?
    package var groupIdentifier: String?
    package var groupPriority: FocusGroupPriority = .ignored
    package var guides: [FocusGuide] = []
    package var isTransparentFocusItem = false
    /// `isFocused` pushed by the app: its own focus engine focused this view (C35, C36; D-FOCUS-3).
    package var isFocused = false
    /// `preferredFocusEnvironments`, in priority order (C7, C8): view or focus-guide ids.
    package var preferredEnvironments: [String] = []
    /// The app answers `shouldUpdateFocus` / `didUpdateFocus` requests for updates involving this view or its
    /// descendants (C12, C13; Specs/protocol.md §Focus engine).
    package var asksFocusUpdates = false
    /// `restoresFocusAfterTransition` (C27, default true): false on a modal container's view opts out of the
    /// return of focus when it goes (D-FOCUS-RESTORE-1; issue 25 item 6).
    package var restoresFocusAfterTransition = true
    /// A table or collection view's `allowsFocus` (nil: UIKit's default, cells may take focus; D-FOCUS-SEL-1).
    package var allowsFocus: Bool?
    /// A table or collection view's `selectionFollowsFocus` (D-FOCUS-SEL-1).
    package var selectionFollowsFocus = false
    package init() {}
}

/// App-level guided-access restriction declared by the provider (UIGuidedAccessRestrictionDelegate, §8).
package struct GuidedAccessRestriction: Sendable, Equatable {
    package var id: String
    package var text: String
    package var detailText: String?
    package init(id: String, text: String, detailText: String? = nil) {
        self.id = id
        self.text = text
        self.detailText = detailText
    }
}

/// `UILargeContentViewerItem` as an app sets it (seed 000:7551–7569, 25540–25574; R118). Nil: UIKit's default
/// (D-LCV-1). `image` is the image's name (an asset or SF Symbol name), as for custom actions.
package struct LargeContentSettings: Sendable, Equatable {
    package var shows: Bool?
    package var title: String?
    package var image: String?
    package var scalesImage: Bool?
    package init() {}
}
