import AXJSON
import AXProtocol

/// Where `wait.for` waits to (Specs/protocol.md §Waiting).
public enum WaitState: String, Sendable {
    case attached, detached, visible, hidden, hittable, enabled, disabled, focused, value, label
}

/// An element as the server reported it (the `element` wire form), read by the members the catalog declares
/// (`RPCElementField`).
public struct AXElement: Sendable {
    /// The whole wire object.
    public var json: JSON
    /// The value of `field` (nil when the element does not have it).
    public subscript(field: RPCElementField) -> JSON? { json[field.rawValue] }
    /// The element id.
    public var id: String { self[.id]?.stringValue ?? "" }
    /// The element's role (`button`, `staticText`, …).
    public var role: String { self[.role]?.stringValue ?? "" }
    /// The accessibility label.
    public var label: String? { self[.label]?.stringValue }
    /// The accessibility value.
    public var value: String? { self[.value]?.stringValue }
    /// The accessibility identifier.
    public var identifier: String? { self[.identifier]?.stringValue }
    /// The element's states (`enabled`, `selected`, `focused`, …).
    public var states: [String] { self[.states]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    /// An element as the server describes it (`element.get`, `query.find`).
    public init(json: JSON) { self.json = json }
}

/// A way to find elements, resolved every time it is used (Playwright's locator). Single-element operations are
/// strict: no match is `no such element`, several are `ambiguous match` (Specs/selectors.md §6.6 Visibility and strictness).
/// Actions wait for their target first (attached and visible; enabled for value-changing actions), woken by the
/// server's tree revisions, then act.
public struct Locator: Sendable {
    let client: AXClient
    /// The selector this locator stands for.
    public let selector: String

    init(client: AXClient, selector: String) {
        self.client = client
        self.selector = selector
    }

    var target: JSON { ["selector": .string(selector)] }

    /// Elements matching `selector` inside each element this locator matches (`A >> B`).
    public func locator(_ selector: String) -> Locator {
        Locator(client: client, selector: "\(self.selector) >> \(selector)")
    }

    /// The `index`-th match (0-based; negative counts from the end), by appending `:nth(index)`.
    public func nth(_ index: Int) -> Locator {
        Locator(client: client, selector: "\(selector):nth(\(index))")
    }

    /// How many elements match now (never waits).
    public func count() async throws(AXClientError) -> Int {
        try await client.call(.queryCount, [.selector: .string(selector)])[.count]?.intValue ?? 0
    }

    /// The one matching element now (never waits).
    public func element() async throws(AXClientError) -> AXElement {
        AXElement(json: try await client.call(.queryOne, [.selector: .string(selector)]).json)
    }

    /// Every matching element now, in document order.
    public func all() async throws(AXClientError) -> [AXElement] {
        let result = try await client.call(.queryFind, [.selector: .string(selector)])
        return result[.elements]?.arrayValue?.map(AXElement.init(json:)) ?? []
    }

    /// Waits until the element reaches `state` (with `value` for `.value` and `.label`); returns it when attached.
    @discardableResult
    public func waitFor(_ state: WaitState = .visible, value: String? = nil, timeout: Duration = .seconds(5))
        async throws(AXClientError) -> AXElement?
    {
        var params: RPCParams<RPCCatalog.WaitFor.Param> = [
            .target: target, .state: .string(state.rawValue), .timeoutMs: JSON(milliseconds(timeout)),
        ]
        if let value {
            params[.value] = .string(value)
        }
        let result = try await client.call(.waitFor, params, timeout: timeout + .seconds(10))
        return result[.element].map(AXElement.init(json:))
    }

    // MARK: Reading

    /// The accessibility label, once the element is attached.
    public func label(timeout: Duration = .seconds(5)) async throws(AXClientError) -> String? {
        try await waitFor(.attached, timeout: timeout)?.label
    }

    /// The accessibility value, once the element is attached.
    public func value(timeout: Duration = .seconds(5)) async throws(AXClientError) -> String? {
        try await waitFor(.attached, timeout: timeout)?.value
    }

    /// The state names (`enabled`, `selected`, `checked`…), once the element is attached.
    public func states(timeout: Duration = .seconds(5)) async throws(AXClientError) -> [String] {
        try await waitFor(.attached, timeout: timeout)?.states ?? []
    }

    // MARK: Acting

    /// Activates (UIKit's accessibilityActivate) once visible and enabled; returns the app's Bool answer.
    @discardableResult
    public func activate(timeout: Duration = .seconds(5)) async throws(AXClientError) -> Bool {
        try await act(.actionActivate, [:], waitUntil: .enabled, timeout: timeout)
    }

    /// Taps at the element's activation point through hit testing.
    @discardableResult
    public func tap(timeout: Duration = .seconds(5)) async throws(AXClientError) -> Bool {
        try await act(.actionTap, [:], waitUntil: .visible, timeout: timeout)
    }

    /// Increments an adjustable element (`action.increment`); returns whether the app handled it.
    @discardableResult
    public func increment(timeout: Duration = .seconds(5)) async throws(AXClientError) -> Bool {
        try await act(.actionIncrement, [:], waitUntil: .enabled, timeout: timeout)
    }

    /// Decrements an adjustable element (`action.decrement`); returns whether the app handled it.
    @discardableResult
    public func decrement(timeout: Duration = .seconds(5)) async throws(AXClientError) -> Bool {
        try await act(.actionDecrement, [:], waitUntil: .enabled, timeout: timeout)
    }

    /// Sets the value (a slider's number, a field's text).
    @discardableResult
    public func setValue(_ value: JSON, timeout: Duration = .seconds(5)) async throws(AXClientError) -> Bool {
        try await act(.actionSetValue, [.value: value], waitUntil: .enabled, timeout: timeout)
    }

    /// Types text into a field.
    @discardableResult
    public func typeText(_ text: String, timeout: Duration = .seconds(5)) async throws(AXClientError) -> Bool {
        try await act(.actionTypeText, [.text: .string(text)], waitUntil: .enabled, timeout: timeout)
    }

    /// Scrolls (`up`, `down`, `left`, `right`, `next`, `previous`).
    @discardableResult
    public func scroll(_ direction: String, timeout: Duration = .seconds(5)) async throws(AXClientError) -> Bool {
        try await act(.actionScroll, [.direction: .string(direction)], waitUntil: .visible, timeout: timeout)
    }

    /// Performs a custom action by id or name.
    @discardableResult
    public func customAction(_ name: String, timeout: Duration = .seconds(5)) async throws(AXClientError) -> Bool {
        try await act(.actionCustom, [.name: .string(name)], waitUntil: .visible, timeout: timeout)
    }

    /// Zooms in on a `supportsZoom` element (`action.zoomIn`) at its centre (D-ZOOM-1).
    @discardableResult
    public func zoomIn(timeout: Duration = .seconds(5)) async throws(AXClientError) -> Bool {
        try await act(.actionZoomIn, [:], waitUntil: .enabled, timeout: timeout)
    }

    /// Zooms out on a `supportsZoom` element (`action.zoomOut`) at its centre (D-ZOOM-1).
    @discardableResult
    public func zoomOut(timeout: Duration = .seconds(5)) async throws(AXClientError) -> Bool {
        try await act(.actionZoomOut, [:], waitUntil: .enabled, timeout: timeout)
    }

    /// Starts a drag from the element's drag source descriptor `name` (`action.drag`, D-DRAG-1).
    @discardableResult
    public func drag(_ name: String, timeout: Duration = .seconds(5)) async throws(AXClientError) -> Bool {
        try await act(.actionDrag, [.name: .string(name)], waitUntil: .enabled, timeout: timeout)
    }

    /// Drops at the element's drop point descriptor `name` (`action.drop`, D-DRAG-1).
    @discardableResult
    public func drop(_ name: String, timeout: Duration = .seconds(5)) async throws(AXClientError) -> Bool {
        try await act(.actionDrop, [.name: .string(name)], waitUntil: .enabled, timeout: timeout)
    }

    private func act<Spec>(
        _ method: RPCMethod<Spec>, _ extra: RPCParams<Spec.Param>, waitUntil state: WaitState, timeout: Duration
    ) async throws(AXClientError) -> Bool where Spec.Param: RPCTargetParameterKey, Spec.Member: RPCPerformedResultKey {
        try await waitFor(.visible, timeout: timeout)
        if state == .enabled {
            try await waitFor(.enabled, timeout: timeout)
        }
        var params = extra
        params[.target] = target
        return try await client.call(method, params)[.performed]?.boolValue ?? false
    }
}

func milliseconds(_ duration: Duration) -> Int {
    let components = duration.components
    let fromSeconds = components.seconds.multipliedReportingOverflow(by: 1000)
    guard !fromSeconds.overflow, components.seconds >= 0 else {
        return components.seconds < 0 ? 0 : 600_000
    }
    return min(600_000, Int(fromSeconds.partialValue + components.attoseconds / 1_000_000_000_000_000))
}
