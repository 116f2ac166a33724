// The action vocabulary declared once (Specs/protocol.md §Provider role): every action the server asks an app to
// perform with `action.perform`, the scroll directions, and the one wire encoding of the request's params. The core's
// `ElementAction`, the hub's `ActionRequest`, the provider library's `ActionCall` and the server's `action.*` method
// table are users of it.
import AXJSON

/// The directions of `accessibilityScroll(_:)` (X40).
public enum ScrollDirection: String, Sendable, CaseIterable {
    /// `.up`
    case up
    /// `.down`
    case down
    /// `.left`
    case left
    /// `.right`
    case right
    /// `.next`
    case next
    /// `.previous`
    case previous
}

/// Every `action` the server sends in `action.perform`, by its wire name.
public enum ActionName: String, Sendable, CaseIterable {
    /// `accessibilityActivate()` (X30).
    case activate
    /// `accessibilityIncrement()`.
    case increment
    /// `accessibilityDecrement()`.
    case decrement
    /// `accessibilityScroll(_:)` with a `direction` (X40).
    case scroll
    /// `accessibilityPerformEscape()` (X32).
    case escape
    /// `accessibilityPerformMagicTap()` (X33).
    case magicTap
    /// One of the element's custom actions, by `customAction` id.
    case custom
    /// Set the `value`.
    case setValue
    /// Type the `value` text at the insertion point.
    case typeText
    /// `accessibilityZoomIn(at:)` on a `supportsZoom` element; `value` is the point `{x, y}` in the element's
    /// coordinate space (the zoom's centre; D-ZOOM-1).
    case zoomIn
    /// `accessibilityZoomOut(at:)` on a `supportsZoom` element; `value` as for `zoomIn` (D-ZOOM-1).
    case zoomOut
    /// Start a drag from a drag source descriptor; `value` is `{name, x, y}`, the descriptor's name and point in
    /// its view's coordinate space (`target` is that view; D-DRAG-1).
    case drag
    /// Drop at a drop point descriptor; `value` as for `drag` (D-DRAG-1).
    case drop
    /// The focus engine asks a scroll view to show an item (C25).
    case scrollToVisible
    /// The focus engine asks whether focus may move (C12).
    case shouldUpdateFocus
    /// The focus engine reports that focus moved (C13).
    case didUpdateFocus
    /// A custom rotor's search step (R58).
    case rotorSearch
    /// A key passed back to the app (D-KEY-1).
    case key
    /// Move the caret or selection of a text element that reports its own (`selectedTextRange`): `value` is
    /// `[location, length]` in Unicode scalars; an AT-SPI `SetCaretOffset` / `SetSelection` asked it (D-TEXT-APP-2).
    case setSelectedTextRange
    /// The focus engine asks a table or collection view with `selectionFollowsFocus` to select the focused cell;
    /// `value` is `{row, section}` (D-FOCUS-SEL-1).
    case select

    /// The element actions: the ones an automation client asks for with `action.<name>` (Specs/protocol.md
    /// §Actions), in the method table's order.
    public static let elementActions: [ActionName] = [
        .activate, .increment, .decrement, .scroll, .escape, .magicTap, .custom, .setValue, .typeText, .zoomIn,
        .zoomOut, .drag, .drop,
    ]

    /// True for escape and magic tap: they start at the focused element (or the app) and bubble up (X32, X33).
    public var bubblesToApp: Bool { self == .escape || self == .magicTap }
}

/// The params of `action.perform` (server → provider) as they travel: one encoding for the server that sends them
/// and the provider library that reads them.
public struct ActionPerformParams: Sendable, Equatable {
    /// The wire name of the action (an `ActionName`, or a name this side does not know).
    public var action: String
    /// The view or virtual-element id that handles the action; "" means the application itself.
    public var target: String
    /// The accessibility element the request was made on.
    public var element: String?
    /// The `value` (setValue, typeText, the focus engine's, rotor search's and key's parameters).
    public var value: JSON?
    /// The custom action's id.
    public var customAction: String?
    /// A scroll's direction.
    public var direction: String?

    /// The params of `action` on `target`.
    public init(
        action: String, target: String, element: String? = nil, value: JSON? = nil, customAction: String? = nil,
        direction: String? = nil
    ) {
        self.action = action
        self.target = target
        self.element = element
        self.value = value
        self.customAction = customAction
        self.direction = direction
    }

    /// Reads the params; missing or mistyped fields stay nil (`action` and `target` "").
    public init(json: JSON) {
        action = json["action"]?.stringValue ?? ""
        target = json["target"]?.stringValue ?? ""
        element = json["element"]?.stringValue
        value = json["value"]
        customAction = json["customAction"]?.stringValue
        direction = json["direction"]?.stringValue
    }

    /// The JSON form: `action`, `target`, then the fields that are set.
    public var json: JSON {
        var object = JSONObject()
        object["action"] = .string(action)
        object["target"] = .string(target)
        if let element { object["element"] = .string(element) }
        if let value { object["value"] = value }
        if let customAction { object["customAction"] = .string(customAction) }
        if let direction { object["direction"] = .string(direction) }
        return .object(object)
    }
}
