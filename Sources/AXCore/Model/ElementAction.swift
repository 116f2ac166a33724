import AXJSON
import AXSchema

/// An action requested on an element (or, for escape and magic tap, on the app): what an automation client or an
/// assistive technology asks for and the hub routes to the app (X30–X40).
package enum ElementAction: Sendable, Equatable {
    /// `accessibilityActivate()` (X30).
    case activate
    /// A touch that hit testing delivered to the element's view (`action.tap`, R111–R114): sent to the app as
    /// `activate`, but a touch, not an accessibility action, so it needs no listed `activate` (D-ACT-3).
    case tap
    /// `accessibilityIncrement()` (adjustable elements).
    case increment
    /// `accessibilityDecrement()` (adjustable elements).
    case decrement
    /// `accessibilityScroll(_:)`; bubbles up the view ancestors (X30, X40).
    case scroll(ScrollDirection)
    /// `accessibilityPerformEscape()`; bubbles up the ancestors and finally the app (X32).
    case escape
    /// `accessibilityPerformMagicTap()`; bubbles up the ancestors and finally the app (X33).
    case magicTap
    /// One of the element's `accessibilityCustomActions`, by id or by name.
    case custom(String)
    /// Sets the element's value (a number for adjustable controls, text for text fields).
    case setValue(JSON)
    /// Types text into the element (appended at the insertion point).
    case typeText(String)
    /// `accessibilityZoomIn(at:)` on a `supportsZoom` element (R-trait `supportsZoom`, D-ZOOM-1). The point: as
    /// asked, in screen coordinates (nil: the element's centre); as routed and sent, in the element's own
    /// coordinate space.
    case zoomIn(at: Point?)
    /// `accessibilityZoomOut(at:)`; the point as for `zoomIn` (D-ZOOM-1).
    case zoomOut(at: Point?)
    /// Starts a drag from the element's drag source descriptor `name` (D-DRAG-1). The point: nil as asked, the
    /// descriptor's point in its view's coordinates as routed and sent.
    case drag(String, at: Point?)
    /// Drops at the element's drop point descriptor `name` (D-DRAG-1); the point as for `drag`.
    case drop(String, at: Point?)

    /// The action's name on the wire (the `action` of `action.perform`, Specs/protocol.md), from AXSchema's action
    /// vocabulary.
    package var actionName: ActionName {
        switch self {
        case .activate, .tap: .activate
        case .increment: .increment
        case .decrement: .decrement
        case .scroll: .scroll
        case .escape: .escape
        case .magicTap: .magicTap
        case .custom: .custom
        case .setValue: .setValue
        case .typeText: .typeText
        case .zoomIn: .zoomIn
        case .zoomOut: .zoomOut
        case .drag: .drag
        case .drop: .drop
        }
    }

    /// The wire name (`actionName.rawValue`).
    package var name: String { actionName.rawValue }

    /// The standard action an element must list to take this one (nil for a custom action).
    package var standardAction: AXAction? {
        switch self {
        case .activate: .activate
        case .tap: nil
        case .increment: .increment
        case .decrement: .decrement
        case .scroll: .scroll
        case .escape: .escape
        case .magicTap: .magicTap
        case .custom: nil
        case .setValue: .setValue
        case .typeText: .typeText
        case .zoomIn: .zoomIn
        case .zoomOut: .zoomOut
        case .drag: .drag
        case .drop: .drop
        }
    }

    /// The zoom's centre as sent to the app, `{x, y}` (zoom actions only).
    package var zoomPoint: Point? {
        switch self {
        case .zoomIn(let point), .zoomOut(let point): point
        case .activate, .tap, .increment, .decrement, .scroll, .escape, .magicTap, .custom, .setValue, .typeText,
            .drag, .drop:
            nil
        }
    }

    /// True for escape and magic tap: they start at the focused element (or the app) and bubble up until one
    /// handles them, so they are neither refused for being off screen nor checked for actionability (X32, X33).
    package var bubblesToApp: Bool { actionName.bubblesToApp }
}

extension ActionPoint {
    /// The payload point of `point` (AXSchema's `ActionPoint`: a zoom centre, a descriptor point, a content offset).
    package init(_ point: Point) {
        self.init(x: point.x, y: point.y)
    }
}

extension Point {
    /// The point an action payload carries.
    package init(_ point: ActionPoint) {
        self.init(x: point.x, y: point.y)
    }
}
