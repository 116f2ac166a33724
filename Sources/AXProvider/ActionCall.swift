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

    /// The typed action: `.unknown` for an action name this library does not know or params it cannot read
    /// (`payloadError` says which).
    public var kind: Kind {
        switch decoded {
        case .success(let kind): kind
        case .failure: .unknown(action: action)
        }
    }

    /// Why a known action's params could not be read (nil when they could, or the action is not known): the same
    /// words the server's JSON-RPC action methods answer for the same bad payload (AXSchema's `ActionPayload`).
    public var payloadError: ActionPayloadError? {
        guard case .failure(let error) = decoded else { return nil }
        return error
    }

    /// The typed action, or why its payload was refused.
    private var decoded: Result<Kind, ActionPayloadError> {
        guard let name = ActionName(rawValue: action) else { return .success(.unknown(action: action)) }
        return Result { () throws(ActionPayloadError) -> Kind in try decodeKind(of: name) }
    }

    /// The typed action `name` with these params, each payload read by AXSchema's one decoder for it. One exhaustive
    /// switch over the vocabulary: a new `ActionName` without its case here is a compile error.
    private func decodeKind(of name: ActionName) throws(ActionPayloadError) -> Kind {
        switch name {
        case .activate: return .activate
        case .increment: return .increment
        case .decrement: return .decrement
        case .escape: return .escape
        case .magicTap: return .magicTap
        case .scroll: return .scroll(try ActionPayload.direction(direction.map(JSON.string)))
        case .custom: return .custom(id: try ActionPayload.customAction(customAction.map(JSON.string)))
        case .setValue: return .setValue(try ActionPayload.value(value))
        case .typeText: return .typeText(try ActionPayload.text(value))
        case .zoomIn:
            let centre = try ActionPayload.zoomCentre(value)
            return .zoomIn(x: centre.x, y: centre.y)
        case .zoomOut:
            let centre = try ActionPayload.zoomCentre(value)
            return .zoomOut(x: centre.x, y: centre.y)
        case .drag:
            let payload = try ActionPayload.DragDrop(json: value)
            return .drag(name: payload.name, x: payload.point.x, y: payload.point.y)
        case .drop:
            let payload = try ActionPayload.DragDrop(json: value)
            return .drop(name: payload.name, x: payload.point.x, y: payload.point.y)
        case .scrollToVisible:
            let offset = try ActionPayload.contentOffset(value)
            return .scrollToVisible(contentOffsetX: offset.x, contentOffsetY: offset.y)
        case .shouldUpdateFocus: return .shouldUpdateFocus(context: value ?? .null)
        case .didUpdateFocus: return .didUpdateFocus(context: value ?? .null)
        case .rotorSearch: return .rotorSearch(query: value ?? .null)
        case .key: return .key(event: value ?? .null)
        case .setSelectedTextRange:
            let range = try ActionPayload.SelectedTextRange(json: value)
            return .setSelectedTextRange(location: range.location, length: range.length)
        case .select:
            let cell = try ActionPayload.SelectedCell(json: value)
            return .select(row: cell.row, section: cell.section)
        }
    }
}
