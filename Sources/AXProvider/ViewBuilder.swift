// A result builder so a hierarchy reads like the view tree it describes (issue 26 item 4): views nest in closures,
// `if`, `if/else` and `for` choose and repeat subviews, and chaining modifiers set the common accessibility
// properties. Everything builds the same `ViewDescription` values as the memberwise form; nothing new goes on the
// wire.

/// Builds a list of views from the statements of a closure: single views, arrays of views, `if`, `if/else`, `switch`
/// and `for` loops, in order.
@resultBuilder
public enum ViewTreeBuilder {
    /// Joins the lists of the closure's statements, in order.
    public static func buildBlock(_ components: [ViewDescription]...) -> [ViewDescription] {
        components.flatMap { $0 }
    }

    /// A single view.
    public static func buildExpression(_ expression: ViewDescription) -> [ViewDescription] {
        [expression]
    }

    /// A list of views, kept in order.
    public static func buildExpression(_ expression: [ViewDescription]) -> [ViewDescription] {
        expression
    }

    /// An `if` without `else`: its views, or none.
    public static func buildOptional(_ component: [ViewDescription]?) -> [ViewDescription] {
        component ?? []
    }

    /// The first branch of an `if/else` or `switch`.
    public static func buildEither(first component: [ViewDescription]) -> [ViewDescription] {
        component
    }

    /// The second branch of an `if/else` or `switch`.
    public static func buildEither(second component: [ViewDescription]) -> [ViewDescription] {
        component
    }

    /// A `for` loop: the views of every iteration, in order.
    public static func buildArray(_ components: [[ViewDescription]]) -> [ViewDescription] {
        components.flatMap { $0 }
    }

    /// An `if #available` branch.
    public static func buildLimitedAvailability(_ component: [ViewDescription]) -> [ViewDescription] {
        component
    }
}

extension ViewDescription {
    /// A view whose subviews are built by `children`, back to front:
    ///
    /// ```swift
    /// ViewDescription(id: "settings", viewClass: "UITableView", frame: ViewRect(x: 0, y: 0, width: 390, height: 600)) {
    ///     for room in rooms {
    ///         ViewDescription(id: "cell.\(room)", viewClass: "UITableViewCell").label(room)
    ///     }
    /// }
    /// ```
    public init(
        id: String, viewClass: String? = nil, frame: ViewRect? = nil,
        accessibility: AccessibilityProperties = AccessibilityProperties(),
        @ViewTreeBuilder children: () -> [ViewDescription]
    ) {
        self.init(id: id, viewClass: viewClass, frame: frame, accessibility: accessibility, children: children())
    }

    /// A copy with `accessibilityLabel` set to `label`.
    public func label(_ label: String?) -> ViewDescription {
        modified { $0.accessibility.accessibilityLabel = label }
    }

    /// A copy with `accessibilityValue` set to `value`.
    public func value(_ value: String?) -> ViewDescription {
        modified { $0.accessibility.accessibilityValue = value }
    }

    /// A copy with `accessibilityHint` set to `hint`.
    public func hint(_ hint: String?) -> ViewDescription {
        modified { $0.accessibility.accessibilityHint = hint }
    }

    /// A copy with `accessibilityIdentifier` set to `identifier`.
    public func identifier(_ identifier: String?) -> ViewDescription {
        modified { $0.accessibility.accessibilityIdentifier = identifier }
    }

    /// A copy with `accessibilityTraits` set to `traits` (names such as `button`, `header`, `selected`).
    public func traits(_ traits: [String]?) -> ViewDescription {
        modified { $0.accessibility.accessibilityTraits = traits }
    }

    /// A copy with `isAccessibilityElement` set to `isElement`.
    public func accessibilityElement(_ isElement: Bool? = true) -> ViewDescription {
        modified { $0.accessibility.isAccessibilityElement = isElement }
    }

    /// A copy with `isHidden` set to `hidden`.
    public func hidden(_ hidden: Bool? = true) -> ViewDescription {
        modified { $0.isHidden = hidden }
    }

    /// A copy with `isEnabled` set to `enabled`.
    public func enabled(_ enabled: Bool?) -> ViewDescription {
        modified { $0.isEnabled = enabled }
    }

    /// A copy changed by `change`, for any property without its own modifier:
    /// `.modified { $0.isOn = true }`.
    public func modified(_ change: (inout ViewDescription) -> Void) -> ViewDescription {
        var copy = self
        change(&copy)
        return copy
    }
}

extension HierarchyDescription {
    /// A hierarchy whose windows, front-most last, are built by `windows`:
    ///
    /// ```swift
    /// HierarchyDescription {
    ///     ViewDescription(id: "main", viewClass: "UIWindow", frame: ViewRect(x: 0, y: 0, width: 390, height: 844)) {
    ///         ViewDescription(id: "title", viewClass: "UILabel").label("Kitchen").traits(["header"])
    ///     }
    /// }
    /// ```
    public init(
        guidedAccessRestrictions: [GuidedAccessRestrictionDescription] = [],
        @ViewTreeBuilder windows: () -> [ViewDescription]
    ) {
        self.init(windows: windows(), guidedAccessRestrictions: guidedAccessRestrictions)
    }
}
