import AXJSON
import AXSchema

/// An action the server asks the app to perform: the params of the server → provider request `action.perform`
/// (Specs/protocol.md §Provider role), as sent on the wire and as a typed `Kind`.
public struct ActionCall: Sendable, Equatable {
    /// A scroll direction of `accessibilityScroll(_:)` (X40), declared in AXSchema's action vocabulary.
    public typealias ScrollDirection = AXSchema.ScrollDirection

    /// What the app is asked to do.
    public enum Kind: Sendable, Equatable {
        /// `accessibilityActivate()`.
        case activate
        /// `accessibilityIncrement()`.
        case increment
        /// `accessibilityDecrement()`.
        case decrement
        /// `accessibilityScroll(_:)`; `target` is the view asked (the request bubbles up the view ancestors).
        case scroll(ScrollDirection)
        /// `accessibilityPerformEscape()`; `target` "" means the application itself.
        case escape
        /// `accessibilityPerformMagicTap()`; `target` "" means the application itself.
        case magicTap
        /// The custom action with this id.
        case custom(id: String)
        /// Set the value (a number for an adjustable control, text for a text field).
        case setValue(JSON)
        /// Type this text at the insertion point.
        case typeText(String)
        /// Start a drag from the drag source descriptor `name` at (x, y) in `target`'s coordinate space (D-DRAG-1).
        case drag(name: String, x: Double, y: Double)
        /// Drop at the drop point descriptor `name`, (x, y) in `target`'s coordinate space (D-DRAG-1).
        case drop(name: String, x: Double, y: Double)
        /// `accessibilityZoomIn(at:)`: the centre in the element's own coordinate space (D-ZOOM-1).
        case zoomIn(x: Double, y: Double)
        /// `accessibilityZoomOut(at:)`: the centre in the element's own coordinate space (D-ZOOM-1).
        case zoomOut(x: Double, y: Double)
        /// The focus engine asks the scroll view `target` to scroll to `contentOffset` (x, y) to show `element`.
        case scrollToVisible(contentOffsetX: Double, contentOffsetY: Double)
        /// The focus engine asks whether focus may move (`{previouslyFocusedItem, nextFocusedItem, focusHeading}`);
        /// answering false cancels the move.
        case shouldUpdateFocus(context: JSON)
        /// The focus engine reports that focus moved (same context; the answer is ignored).
        case didUpdateFocus(context: JSON)
        /// A custom rotor's search step (`{rotor, direction, currentItem}`).
        case rotorSearch(query: JSON)
        /// A key the server passed back to the app (no assistive technology consumed it and the server does not
        /// handle it): `{key, modifiers, phase, text}`; answer true when the app handled it.
        case key(event: JSON)
        /// Move the caret (length 0) or selection of a text element that reports its own `selectedTextRange`:
        /// `[location, length]` in Unicode scalars (D-TEXT-APP-2); answer true and publish the new range.
        case setSelectedTextRange(location: Int, length: Int)
        /// The focus engine asks the table or collection view `target` to select the cell at (row, section) that
        /// focus moved to (`selectionFollowsFocus`, D-FOCUS-SEL-1); answer with the selection as a hierarchy update.
        case select(row: Int, section: Int)
        /// An action this library does not know, or known but with params it cannot read; `action` is its name.
        case unknown(action: String)
    }

    /// The wire name of the action (`activate`, `scroll`, `custom`, …).
    public var action: String
    /// The view or virtual-element id that handles the action; "" means the application itself.
    public var target: String
    /// The accessibility element the request was made on.
    public var element: String?
    /// The wire `value` (setValue, typeText, the focus engine's and rotor search's parameters).
    public var value: JSON?
    /// The wire `customAction`: the custom action's id.
    public var customAction: String?
    /// The wire `direction` of a scroll.
    public var direction: String?

    /// Reads the params of `action.perform`; missing or mistyped fields stay nil (see `kind`).
    public init(json: JSON) {
        let params = ActionPerformParams(json: json)
        action = params.action
        target = params.target
        element = params.element
        value = params.value
        customAction = params.customAction
        direction = params.direction
    }

    /// The typed action: `.unknown` for an action name this library does not know or params it cannot read.
    public var kind: Kind {
        guard let name = ActionName(rawValue: action) else { return .unknown(action: action) }
        return Self.kind(of: name, direction: direction, customAction: customAction, value: value)
            ?? .unknown(action: action)
    }

    /// A drag or drop's `{name, x, y}` (D-DRAG-1); nil when a field is missing.
    private static func dragDropKind(_ name: ActionName, value: JSON?) -> Kind? {
        guard let descriptor = value?["name"]?.stringValue, let pointX = value?["x"]?.doubleValue,
            let pointY = value?["y"]?.doubleValue
        else { return nil }
        return name == .drop
            ? .drop(name: descriptor, x: pointX, y: pointY) : .drag(name: descriptor, x: pointX, y: pointY)
    }

    /// The typed action `name` with these params; nil when they cannot be read.
    private static func kind(of name: ActionName, direction: String?, customAction: String?, value: JSON?) -> Kind? {
        switch name {
        case .activate: return .activate
        case .increment: return .increment
        case .decrement: return .decrement
        case .escape: return .escape
        case .magicTap: return .magicTap
        case .scroll, .custom, .setValue, .typeText, .zoomIn, .zoomOut, .drag, .drop, .scrollToVisible,
            .setSelectedTextRange, .select:
            return parameterKind(of: name, direction: direction, customAction: customAction, value: value)
        case .shouldUpdateFocus: return .shouldUpdateFocus(context: value ?? .null)
        case .didUpdateFocus: return .didUpdateFocus(context: value ?? .null)
        case .rotorSearch: return .rotorSearch(query: value ?? .null)
        case .key: return .key(event: value ?? .null)
        }
    }

    /// The kinds that read a parameter (direction, custom action id, value, point, content offset).
    private static func parameterKind(of name: ActionName, direction: String?, customAction: String?, value: JSON?)
        -> Kind?
    {
        switch name {
        case .scroll: return direction.flatMap(ScrollDirection.init(rawValue:)).map(Kind.scroll)
        case .custom: return customAction.map { .custom(id: $0) }
        case .setValue: return value.map(Kind.setValue)
        case .typeText: return value?.stringValue.map(Kind.typeText)
        default: return serverKind(of: name, value: value)
        }
    }

    /// The kinds the server asks on its own (zoom, the focus engine, rotor search, keys, the caret); nil when
    /// `value` cannot be read.
    private static func serverKind(of name: ActionName, value: JSON?) -> Kind? {
        switch name {
        case .zoomIn, .zoomOut:
            guard let pointX = value?["x"]?.doubleValue, let pointY = value?["y"]?.doubleValue else { return nil }
            return name == .zoomIn ? .zoomIn(x: pointX, y: pointY) : .zoomOut(x: pointX, y: pointY)
        case .drag, .drop: return dragDropKind(name, value: value)
        default: return engineKind(name, value: value)
        }
    }

    /// The requests the server's engines make (scroll to visible, the app's caret, selection following focus).
    private static func engineKind(_ name: ActionName, value: JSON?) -> Kind? {
        switch name {
        case .scrollToVisible:
            guard let offsetX = value?["contentOffset"]?[0]?.doubleValue,
                let offsetY = value?["contentOffset"]?[1]?.doubleValue
            else { return nil }
            return .scrollToVisible(contentOffsetX: offsetX, contentOffsetY: offsetY)
        case .setSelectedTextRange:
            guard let location = value?[0]?.intValue, let length = value?[1]?.intValue else { return nil }
            return .setSelectedTextRange(location: location, length: length)
        case .select:
            guard let row = value?["row"]?.intValue, let section = value?["section"]?.intValue else { return nil }
            return .select(row: row, section: section)
        default: return nil
        }
    }
}
