// The notifications, declared once (Specs/protocol.md §Events and §Provider role, D-CATALOG-1): the events a
// subscription delivers, and the messages the server itself sends a connection.

/// An event a client subscribes to with `events.subscribe`, by its wire name (in the order `initialize`'s
/// `capabilities.events` lists them).
public enum RPCEvent: String, Sendable, CaseIterable {
    /// The app's tree changed.
    case treeChanged = "tree.changed"
    /// Accessibility or engine focus moved.
    case focusChanged = "focus.changed"
    /// The app posted an announcement.
    case announcement = "a11y.announcement"
    /// The app posted a layout change.
    case layoutChanged = "a11y.layoutChanged"
    /// The app posted a screen change.
    case screenChanged = "a11y.screenChanged"
    /// The app posted a page scroll.
    case pageScrolled = "a11y.pageScrolled"
    /// The app asked assistive technology to pause.
    case pauseAssistiveTechnology = "a11y.pauseAssistiveTechnology"
    /// The app asked assistive technology to resume.
    case resumeAssistiveTechnology = "a11y.resumeAssistiveTechnology"
    /// An app registered.
    case appAdded = "app.added"
    /// An app left.
    case appRemoved = "app.removed"
    /// A guided-access restriction changed state.
    case policyChanged = "policy.changed"
    /// An engine focus move failed (C3).
    case focusMovementFailed = "focus.movementFailed"
    /// A screen reader started or stopped (R70, D-SR-1).
    case voiceOverStatusDidChange = "a11y.voiceOverStatusDidChange"
    /// Guided access started or ended (R71, D-GA-4).
    case guidedAccessStatusChanged = "a11y.guidedAccessStatusChanged"
    /// The user's accessibility settings changed (R72, D-SET-3).
    case settingsChanged = "a11y.settingsChanged"

    /// The params it carries besides `subscription` and `app`.
    public var params: [String] {
        switch self {
        case .treeChanged: ["revision", "fromRevision", "added", "removed", "moved", "updated"]
        case .focusChanged: ["focus", "from", "to", "heading", "reason"]
        case .focusMovementFailed: ["focus", "from", "heading", "reason", "message"]
        case .announcement: ["argument", "priority"]
        case .layoutChanged, .screenChanged, .pageScrolled, .pauseAssistiveTechnology, .resumeAssistiveTechnology:
            ["argument"]
        case .appAdded, .appRemoved: []
        case .policyChanged: ["restriction", "state", "source", "by"]
        case .voiceOverStatusDidChange: ["screenReaderRunning"]
        case .guidedAccessStatusChanged: ["enabled"]
        case .settingsChanged: ["changed", "settings"]
        }
    }

    /// The event names as `initialize` lists them.
    public static var names: [String] { allCases.map(\.rawValue) }
}

/// A message the server sends a connection on its own: a notification, or a request a provider answers.
public enum RPCServerMessage: String, Sendable, CaseIterable {
    /// The last notification to a slow consumer before the server closes it (Specs/protocol.md §Limits).
    case connectionClosing = "connection.closing"
    /// A request to a provider to perform an action; it answers `{handled}` (Specs/protocol.md §Provider role).
    case actionPerform = "action.perform"
    /// A request to a provider that registered with `reset: true` to return to its initial state (D-APP-RESET-1).
    case appReset = "app.reset"

    /// Whether the provider answers it (a request) or not (a notification).
    public var isRequest: Bool {
        switch self {
        case .connectionClosing: false
        case .actionPerform, .appReset: true
        }
    }

    /// The params it carries.
    public var params: [String] {
        switch self {
        case .connectionClosing: ["reason", "pendingBytes", "limit"]
        case .actionPerform: ["action", "target", "element", "value", "customAction", "direction"]
        case .appReset: []
        }
    }
}
