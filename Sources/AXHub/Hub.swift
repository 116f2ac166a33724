import AXCore
import AXJSON
import AXSchema
import Synchronization

/// An action the server asks an app to perform on one of its views or virtual elements: the params of the
/// server → provider request `action.perform` (Specs/protocol.md §Provider role).
package struct ActionRequest: Sendable, Equatable {
    /// What the app is asked to do.
    package enum Kind: Sendable, Equatable {
        /// An element action (a custom action carries the resolved custom-action id).
        case element(ElementAction)
        /// The focus engine asks the scroll view `target` to show the item (C25).
        case scrollToVisible(contentOffset: Point)
        /// The focus engine asks `target` whether focus may move; `context` is `{previouslyFocusedItem,
        /// nextFocusedItem, focusHeading}` (C12).
        case shouldUpdateFocus(context: JSON)
        /// The focus engine tells `target` that focus moved, with the same context (C13).
        case didUpdateFocus(context: JSON)
        /// A custom rotor's search step: `{rotor, direction, currentItem}` (R58, D-ROTOR-5).
        case rotorSearch(query: JSON)
        /// A key the server does not handle, delivered to the app: `{key, modifiers, phase, text}` (D-KEY-1).
        case key(event: JSON)
        /// Move the caret or selection of a text element that reports its own (D-TEXT-APP-2).
        case setSelectedTextRange(TextRange)
        /// The focus engine asks a table or collection view with `selectionFollowsFocus` to select the cell focus
        /// moved to (D-FOCUS-SEL-1).
        case select(row: Int, section: Int)
    }

    package var kind: Kind
    /// The view / virtual-element id the app handles (AXNode.actionTarget); "" means the application itself.
    package var target: String
    /// The accessibility node the request was made on.
    package var elementID: String?

    package init(_ kind: Kind, target: String, elementID: String? = nil) {
        self.kind = kind
        self.target = target
        self.elementID = elementID
    }

    /// The wire `action` (AXSchema's `ActionName`).
    package var actionName: ActionName {
        switch kind {
        case .element(let action): action.actionName
        case .scrollToVisible: .scrollToVisible
        case .shouldUpdateFocus: .shouldUpdateFocus
        case .didUpdateFocus: .didUpdateFocus
        case .rotorSearch: .rotorSearch
        case .key: .key
        case .setSelectedTextRange: .setSelectedTextRange
        case .select: .select
        }
    }

    /// The wire `action`: activate, increment, decrement, scroll, escape, magicTap, custom, setValue, typeText,
    /// zoomIn, zoomOut, drag, drop, scrollToVisible, shouldUpdateFocus, didUpdateFocus, rotorSearch, key,
    /// setSelectedTextRange, select.
    package var action: String { actionName.rawValue }

    /// The wire `value`, in the encodings of AXSchema's `ActionPayload` (the provider library decodes with them).
    package var value: JSON? {
        switch kind {
        case .element(.setValue(let value)): value
        case .element(.typeText(let text)): .string(text)
        case .element(.zoomIn(let point?)), .element(.zoomOut(let point?)): ActionPoint(point).json
        case .element(.drag(let name, let point?)), .element(.drop(let name, let point?)):
            ActionPayload.DragDrop(name: name, point: ActionPoint(point)).json
        case .element: nil
        case .scrollToVisible(let offset): ActionPayload.contentOffsetJSON(ActionPoint(offset))
        case .shouldUpdateFocus(let context), .didUpdateFocus(let context): context
        case .rotorSearch(let query): query
        case .key(let event): event
        case .setSelectedTextRange(let range):
            ActionPayload.SelectedTextRange(location: range.location, length: range.length).json
        case .select(let row, let section): ActionPayload.SelectedCell(row: row, section: section).json
        }
    }

    /// The wire `customAction`: the custom action's id.
    package var customActionID: String? {
        guard case .element(.custom(let id)) = kind else { return nil }
        return id
    }

    /// The wire `direction` of a scroll: up, down, left, right, next, previous (X40).
    package var direction: String? {
        guard case .element(.scroll(let direction)) = kind else { return nil }
        return direction.rawValue
    }

    /// The params of `action.perform`, in AXSchema's one wire encoding.
    package var params: ActionPerformParams {
        ActionPerformParams(
            action: action, target: target, element: elementID, value: value, customAction: customActionID,
            direction: direction)
    }

    /// The params of `action.perform` as JSON (`params.json`).
    package var json: JSON { params.json }
}

/// Why an action could not be performed. Each maps to one JSON-RPC error and one D-Bus error.
package enum ActionError: Error, Sendable, Equatable {
    case noSuchApp(String)
    case noSuchElement(String)
    case notSupported(action: String, supported: [String])
    case notInteractable(reason: String)
    case policyDenied(restriction: String, text: String?)
    case appNotResponding(reason: String)
    /// The app answered with an error instead of a Bool — its own failure (e.g. the hierarchy update its
    /// handling produced was refused) or a malformed reply. `reason` is a short machine-readable word
    /// (`update refused`, `malformed reply`, or the app's own), `details` the app's error object when it sent one.
    case appFailed(message: String, reason: String, details: JSON?)
    case failed(String)
}

/// The app side of action routing: an in-process app or a remote provider connection.
package protocol ActionProvider: AnyObject, Sendable {
    /// Performs the action and returns whether the app handled it (UIKit's Bool results). The app reports the
    /// visible effect as an ordinary hierarchy update.
    func perform(_ request: ActionRequest, timeout: Duration) async throws(ActionError) -> Bool
    /// Performs the request and returns the app's whole answer, an object with a Boolean `handled` and whatever
    /// else the request asks for (`rotorSearch` answers an `item`, D-ROTOR-5). The default wraps `perform`.
    func answer(_ request: ActionRequest, timeout: Duration) async throws(ActionError) -> JSON
}

extension ActionProvider {
    package func answer(_ request: ActionRequest, timeout: Duration) async throws(ActionError) -> JSON {
        let handled = try await perform(request, timeout: timeout)
        return ["handled": .bool(handled)]
    }
}

package enum HubEvent: Sendable {
    case appAdded(String)
    case appRemoved(String)
    case treeChanged(app: String, changes: ChangeSet, tree: AXTree)
    case focusChanged(app: String, from: String?, to: String?)
    case notification(app: String, AccessibilityNotification)
    /// A restriction's effective state changed: `source` says which policy layer decided it, `actor` who made
    /// the change (an operator connection, a policy-file reload) — the audit trail (D-GA-3).
    case restrictionChanged(app: String, id: String, denied: Bool, source: GuidedAccessPolicy.Source, actor: String)
    /// The focus engine moved, lost or failed to move engine focus (EngineFocus.swift; D-FOCUS-3).
    case engineFocus(app: String, EngineFocusEvent)
    /// Guided Access started or ended for the app (R71, `guidedAccessStatusDidChangeNotification`; D-GA-4): its
    /// first restriction became denied, or its last denied one was allowed again.
    case guidedAccessStatusChanged(app: String, enabled: Bool)
    /// The caret (or selection) of a text element moved (D-KEYOP-5): AT-SPI `object:text-caret-moved`.
    case textCaret(app: String, element: String, TextCaret)
    /// A screen reader started or stopped (R70, D-SR-1): `UIAccessibility.voiceOverStatusDidChangeNotification`.
    case screenReaderStatus(running: Bool)
    /// The user's accessibility settings changed (D-SET-1, R72): the names of the values that changed, and all.
    case settingsChanged(changed: [String], AccessibilitySettings)
}

/// What readers get: an immutable view of one app at one revision.
package struct AppSnapshot: Sendable {
    package var id: String
    package var name: String
    /// The app's registration (D-REG-GEN-1): a later app under the same id or name has another.
    package var registration: UInt64
    package var tree: AXTree
    package var views: ViewHierarchy
    package var focusedID: String?
    package var restrictions: [GuidedAccessRestriction]
    package var denied: Set<String>
    package var revision: Int { tree.revision }
    /// `UIAccessibility.isGuidedAccessEnabled` for the app (D-GA-4): the kiosk policy denies at least one of its
    /// restrictions.
    package var guidedAccessEnabled: Bool { !denied.isEmpty }
}

/// One declared restriction with its effective state and where that state comes from (`policy.get`).
package struct RestrictionState: Sendable, Equatable {
    package var restriction: GuidedAccessRestriction
    package var denied: Bool
    package var source: GuidedAccessPolicy.Source
}

package struct HubError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable { case noSuchApp, noSuchElement, invalid, revisionTooOld }
    package var kind: Kind
    package var message: String
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    package var description: String { message }
}

/// The server's state: every mirrored app, its focus and guided-access state, and the event fan-out.
/// Thread-safe; mutations are serialized by one lock, reads return immutable snapshots.
package final class Hub: Sendable {
    final class AppState {
        let id: String
        let name: String
        /// This registration, unique for the server's life: per-app state outside the app is keyed by it, never by
        /// the id or name a later app may take (D-REG-GEN-1).
        let registration: UInt64
        let store = HierarchyStore()
        let provider: (any ActionProvider)?
        var focusedID: String?
        var denied = Set<String>()
        var waiters: [UInt64: @Sendable () -> Void] = [:]
        var engine = EngineFocusMemory()
        /// Elements focus left for a modal container, returned to when it goes (D-FOCUS-7).
        var focusReturn: [String] = []
        /// The caret and selection of text elements the server edits (D-KEYOP-5), by element id.
        var carets: [String: TextCaret] = [:]
        init(id: String, name: String, registration: UInt64, provider: (any ActionProvider)?) {
            self.id = id
            self.name = name
            self.registration = registration
            self.provider = provider
        }

        /// What readers get of this app now.
        var snapshot: AppSnapshot {
            AppSnapshot(
                id: id, name: name, registration: registration, tree: store.tree, views: store.views,
                focusedID: focusedID, restrictions: store.restrictions, denied: denied)
        }

        /// Removes and returns the app's waiters, to be woken outside the lock: the tree or the focus changed.
        func takeWaiters() -> [@Sendable () -> Void] {
            let taken = Array(waiters.values)
            waiters.removeAll()
            return taken
        }
    }

    struct State {
        var apps: [String: AppState] = [:]
        /// The operator's policy, by app name: it outlives every app (D-GA-3).
        var policy = GuidedAccessPolicy()
        var order: [String] = []
        var subscribers: [UInt64: @Sendable (HubEvent) -> Void] = [:]
        var nextToken: UInt64 = 1
        /// The reclaim token of each app id, kept after the app leaves (NameReclaim.swift; D-REL-8).
        var reclaimTokens: [String: String] = [:]
        /// Whether a screen reader runs (the session's `org.a11y.Status.ScreenReaderEnabled`); nil: not known.
        var screenReaderRunning: Bool?
        /// The user's accessibility settings (D-SET-1) and who read them.
        var settings = AccessibilitySettings()
        var settingsReader = SettingsReaderInfo.none
    }

    let state = Mutex(State())
    /// Registration numbers, unique in the process (caches shared by several hubs, as in tests, key by them too).
    private static let registrations = Atomic<UInt64>(1)
    private let delivery = EventDelivery()
    /// Serializes policy changes end to end (read, persist, apply), so concurrent operator calls and reloads
    /// leave the file and the running policy equal.
    private let policyChanges = Mutex(())
    /// Timeout timers of `awaitChange` calls that have not finished yet (for tests: must stay bounded).
    private let liveWaitTimers = WaitTimerCounter()
    /// Wait timers ever started (for tests: one per wait, never one per revision; D-REL-3).
    private let waitTimersStarted = Atomic<Int>(0)
    package let actionTimeout: Duration
    /// Key forwarding, the per-app navigation option and key queues (KeyInput.swift; D-KEY-1…4).
    package let keyInput = KeyInputState()

    package init(actionTimeout: Duration = .seconds(5), policy: GuidedAccessPolicy = GuidedAccessPolicy()) {
        self.actionTimeout = actionTimeout
        state.withLock { $0.policy = policy }
    }

    // MARK: Events

    @discardableResult
    package func subscribe(_ handler: @escaping @Sendable (HubEvent) -> Void) -> UInt64 {
        state.withLock { locked in
            let token = locked.nextToken
            locked.nextToken += 1
            locked.subscribers[token] = handler
            return token
        }
    }

    package func unsubscribe(_ token: UInt64) { state.withLock { _ = $0.subscribers.removeValue(forKey: token) } }

    func emit(_ events: [HubEvent]) {
        guard !events.isEmpty else { return }
        delivery.deliver(events) { state.withLock { Array($0.subscribers.sorted { $0.key < $1.key }.map(\.value)) } }
    }

    // MARK: Apps

    /// Why `name` cannot name an app, nil when it can (D-APPNAME-1): a control character (NUL, newline, tab, DEL,
    /// C1), a line or paragraph separator, or a bidirectional override would be cut (AT-SPI and D-Bus end a name
    /// at NUL), split a log or `axquery` line, or show another name than the one registered.
    package static func appNameProblem(_ name: String) -> String? {
        for scalar in name.unicodeScalars {
            let problem: String?
            switch scalar.properties.generalCategory {
            case .control: problem = "a control character"
            case .lineSeparator, .paragraphSeparator: problem = "a line separator"
            case .format where bidiControls.contains(scalar.value): problem = "a bidirectional control"
            default: problem = nil
            }
            if let problem {
                let code = String(scalar.value, radix: 16, uppercase: true)
                return
                    "must not contain \(problem) (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code));"
                    + " give a printable name such as the app's title"
            }
        }
        return nil
    }

    /// Bidirectional embedding, override and isolate controls (they make a name display as another).
    private static let bidiControls: Set<UInt32> = [
        0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
    ]

    /// Registers an app; its id is its name, made unique with a suffix when needed.
    package func registerApp(name: String, provider: (any ActionProvider)?) -> String {
        let id = state.withLock { locked -> String in
            var id = name.isEmpty ? "app" : name
            var suffix = 2
            while locked.apps[id] != nil {
                id = "\(name)-\(suffix)"
                suffix += 1
            }
            let registration = Hub.registrations.add(1, ordering: .relaxed).oldValue
            let app = AppState(id: id, name: name, registration: registration, provider: provider)
            locked.apps[id] = app
            locked.order.append(id)
            return id
        }
        emit([.appAdded(id)])
        return id
    }

    /// Removes an app (its provider went away): it leaves every view of the server; its waiters wake up.
    package func removeApp(_ id: String) {
        var large = false
        let waiters: [@Sendable () -> Void]? = state.withLock { locked in
            guard let appState = locked.apps.removeValue(forKey: id) else { return nil }
            locked.order.removeAll { $0 == id }
            large = appState.store.views.count >= HeapRelease.minimumViews
            let appWaiters = Array(appState.waiters.values)
            appState.waiters.removeAll()
            return appWaiters
        }
        guard let waiters else { return }
        for waiter in waiters { waiter() }
        emit([.appRemoved(id)])
        if large { HeapRelease.afterLargeRemoval() }
    }

    package var appIDs: [String] { state.withLock { $0.order } }

    package func appName(_ id: String) -> String? { state.withLock { $0.apps[id]?.name } }

    /// Resolves an optional app id: nil means the only app (or the first registered one).
    package func resolveApp(_ id: String?) throws(HubError) -> String {
        let registration: Result<String, HubError> = state.withLock { locked in
            if let id {
                if locked.apps[id] != nil { return .success(id) }
                if let byName = locked.order.first(where: { locked.apps[$0]?.name == id }) { return .success(byName) }
                return .failure(HubError(.noSuchApp, "no app '\(id)' (apps: \(locked.order.joined(separator: ", ")))"))
            }
            guard let first = locked.order.first else { return .failure(HubError(.noSuchApp, "no app is registered")) }
            return .success(first)
        }
        return try registration.get()
    }

    package func snapshot(_ app: String) throws(HubError) -> AppSnapshot {
        let found: AppSnapshot? = state.withLock { locked in
            guard let appState = locked.apps[app] else { return nil }
            return appState.snapshot
        }
        guard let found else { throw HubError(.noSuchApp, "no app '\(app)'") }
        return found
    }

    package func snapshots() -> [AppSnapshot] {
        state.withLock { locked in
            locked.order.compactMap { id in
                guard let appState = locked.apps[id] else { return nil }
                return appState.snapshot
            }
        }
    }

    // MARK: Hierarchy

    private func mutate(_ app: String, _ body: (HierarchyStore) throws(PatchError) -> ChangeSet) throws -> ChangeSet {
        var events: [HubEvent] = []
        var wake: [@Sendable () -> Void] = []
        let result: Result<ChangeSet, any Error> = state.withLock { locked in
            guard let appState = locked.apps[app] else { return .failure(HubError(.noSuchApp, "no app '\(app)'")) }
            do {
                let declaredBefore = appState.store.restrictions
                let cs = try body(appState.store)
                if appState.store.restrictions != declaredBefore {
                    // A denial applies the moment the app declares the restriction, and survives the app dropping
                    // and re-adding it: the policy is kept by app name, not by declaration (D-GA-3).
                    let deniedBefore = appState.denied
                    appState.denied = locked.policy.denied(
                        forAppNamed: appState.name, declared: appState.store.restrictions.map(\.id))
                    if deniedBefore.isEmpty != appState.denied.isEmpty {
                        events.append(.guidedAccessStatusChanged(app: app, enabled: !appState.denied.isEmpty))
                    }
                }
                events.append(.treeChanged(app: app, changes: cs, tree: appState.store.tree))
                // Focus follows the tree: a focused element that left the tree loses focus (D-FOCUS-2).
                // After a modal goes, focus returns to the element focused before it appeared (D-FOCUS-7).
                if let focused = appState.focusedID, appState.store.tree[focused] == nil {
                    let back = FocusReturn.focusAfterLoss(
                        of: focused, stack: &appState.focusReturn, tree: appState.store.tree,
                        viewExists: { appState.store.views[$0] != nil })
                    appState.focusedID = back
                    events.append(.focusChanged(app: app, from: focused, to: back))
                }
                events += Hub.engineFocusAfterCommit(appState, changes: cs)
                assert(
                    appState.focusedID.map { appState.store.tree[$0] != nil } ?? true,
                    "focus names an element in the tree after every commit (D-FOCUS-2)")
                wake = Array(appState.waiters.values)
                appState.waiters.removeAll()
                return .success(cs)
            } catch {
                return .failure(error)
            }
        }
        let cs = try result.get()
        emit(events)
        for waiter in wake { waiter() }
        return cs
    }

    @discardableResult
    package func setSnapshot(app: String, _ json: JSON) throws -> ChangeSet {
        try mutate(app) { (st) throws(PatchError) in try st.setSnapshot(json) }
    }

    @discardableResult
    package func update(app: String, ops json: JSON) throws -> ChangeSet {
        let ops = try PatchOp.decodeList(json)
        return try mutate(app) { (st) throws(PatchError) in try st.apply(ops) }
    }

    /// The revision at which `id` last left the app's tree, if the change log still covers it.
    package func removalRevision(app: String, id: String) -> Int? {
        state.withLock { locked in locked.apps[app]?.store.removalRevision(of: id) }
    }

    package func changes(app: String, from: Int, to: Int?) throws -> ChangeSet {
        let outcome: Result<ChangeSet, any Error> = state.withLock { locked in
            guard let appState = locked.apps[app] else { return .failure(HubError(.noSuchApp, "no app '\(app)'")) }
            do { return .success(try appState.store.changes(from: from, to: to)) } catch {
                return .failure(HubError(.revisionTooOld, String(describing: error)))
            }
        }
        return try outcome.get()
    }

    // MARK: Notifications

    package func post(app: String, _ notification: AccessibilityNotification) throws(HubError) {
        var events: [HubEvent] = [.notification(app: app, notification)]
        var wake: [@Sendable () -> Void] = []
        let ok: Bool = state.withLock { locked in
            guard let appState = locked.apps[app] else { return false }
            // X53 (D-SCROLL-1): a status-less pageScrolled about a paging scroll view says "Page X of Y".
            if case .pageScrolled(status: nil) = notification {
                let views = appState.store.views
                let focusedView = appState.focusedID.flatMap { appState.store.tree[$0]?.viewID }
                if let paging = ScrollStatus.pagingView(in: views, focusedView: focusedView),
                    let status = ScrollStatus.pageStatus(of: paging, in: views)
                {
                    events[0] = .notification(app: app, .pageScrolled(status: status))
                }
            }
            // X37: screenChanged / layoutChanged with an element move accessibility focus to it.
            switch notification {
            case .screenChanged(let target?), .layoutChanged(let target?):
                if appState.store.tree[target] != nil, appState.focusedID != target {
                    FocusReturn.record(
                        from: appState.focusedID, to: target, tree: appState.store.tree, stack: &appState.focusReturn)
                    events.append(.focusChanged(app: app, from: appState.focusedID, to: target))
                    appState.focusedID = target
                    wake = appState.takeWaiters()  // D-WAIT-FOCUS-1
                }
            case .screenChanged(nil), .layoutChanged(nil), .announcement, .pageScrolled, .pauseAssistiveTechnology,
                .resumeAssistiveTechnology:
                break
            }
            return true
        }
        guard ok else { throw HubError(.noSuchApp, "no app '\(app)'") }
        emit(events)
        for waiter in wake { waiter() }
    }

    // MARK: Focus

    /// Moves accessibility focus (exactly one focused element per app; R119, C1). nil clears it.
    package func setFocus(app: String, element: String?) throws(HubError) {
        var events: [HubEvent] = []
        var wake: [@Sendable () -> Void] = []
        let failure: HubError? = state.withLock { locked in
            guard let appState = locked.apps[app] else { return HubError(.noSuchApp, "no app '\(app)'") }
            if let elementID = element {
                guard let node = appState.store.tree[elementID] else {
                    return HubError(.noSuchElement, "no element '\(elementID)' in app '\(app)'")
                }
                // Assistive-technology focus lands on elements (navigation stops), not on containers (D-FOCUS-1).
                guard node.isElement else {
                    return HubError(
                        .invalid,
                        "'\(elementID)' is \(TreeText.withArticle(node.role.rawValue)) container, not an element; focus moves between elements"
                    )
                }
            }
            if appState.focusedID != element {
                FocusReturn.record(
                    from: appState.focusedID, to: element, tree: appState.store.tree, stack: &appState.focusReturn)
                events.append(.focusChanged(app: app, from: appState.focusedID, to: element))
                appState.focusedID = element
                wake = Array(appState.waiters.values)
                appState.waiters.removeAll()
            }
            return nil
        }
        if let failure { throw failure }
        // Focus moved into this app's window: the keys go there now (D-ATSPI-ACTIVE-1).
        if element != nil { keyInput.forwarder?.keysRouted(to: app) }
        emit(events)
        for waiter in wake { waiter() }
    }

    // MARK: Guided access

    /// The operator's policy as it stands (for writing it back to the policy file).
    package var policy: GuidedAccessPolicy { state.withLock { $0.policy } }

    /// Every restriction the app declares, in presentation order (R84, X41), with its state and its source.
    package func restrictionStates(app: String) throws(HubError) -> [RestrictionState] {
        let result: [RestrictionState]? = state.withLock { locked -> [RestrictionState]? in
            guard let appState = locked.apps[app] else { return nil }
            return appState.store.restrictions.map { restriction in
                let rule = locked.policy.rule(forAppNamed: appState.name, restriction: restriction.id)
                return RestrictionState(restriction: restriction, denied: rule.denied, source: rule.source)
            }
        }
        guard let result else { throw HubError(.noSuchApp, "no app '\(app)'") }
        return result
    }

    /// R79–R82: sets a restriction of a running app to deny or allow for every instance registered under the
    /// app's name, now and after it reconnects. Only an operator may call this (the method layer checks the role).
    /// `persist` runs with the new policy before it takes effect; when it throws, nothing changes.
    package func setRestriction(
        app: String, id: String, denied: Bool, actor: String = "operator",
        persist: (GuidedAccessPolicy) throws -> Void = { _ in }
    ) throws {
        let name: String = try state.withLock { locked throws(HubError) -> String in
            guard let appState = locked.apps[app] else { throw HubError(.noSuchApp, "no app '\(app)'") }
            guard appState.store.restrictions.contains(where: { $0.id == id }) else {
                throw HubError(
                    .invalid,
                    "app '\(app)' declares no restriction '\(id)' (declared: \(appState.store.restrictions.map(\.id).joined(separator: ", ")))"
                )
            }
            return appState.name
        }
        try setRestriction(appNamed: name, id: id, denied: denied, actor: actor, persist: persist)
    }

    /// Sets the operator's rule for `id` of every app registered under `name`, running or not (an operator may
    /// deny a restriction before the app declares it). `persist` runs first; when it throws, nothing changes.
    package func setRestriction(
        appNamed name: String, id: String, denied: Bool, actor: String = "operator",
        persist: (GuidedAccessPolicy) throws -> Void = { _ in }
    ) throws {
        try changePolicy(actor: actor, persist: persist) { policy in
            policy.set(appNamed: name, restriction: id, denied: denied, source: .operator)
        }
    }

    /// Replaces the whole policy (a policy file read at start or on reload); `actor` names who did it.
    package func replacePolicy(_ policy: GuidedAccessPolicy, actor: String) {
        // Nothing to persist: the new policy came from the file.
        try? changePolicy(actor: actor, persist: { _ in }, { current in current = policy })
    }

    /// Read, change, persist, apply — one change at a time. Emits `restrictionChanged` for every declared
    /// restriction of a running app whose effective state changed.
    private func changePolicy(
        actor: String, persist: (GuidedAccessPolicy) throws -> Void,
        _ change: (inout GuidedAccessPolicy) -> Void
    ) throws {
        try policyChanges.withLock { _ in
            var updated = state.withLock { $0.policy }
            change(&updated)
            try persist(updated)
            let events: [HubEvent] = state.withLock { locked in
                locked.policy = updated
                var events: [HubEvent] = []
                for id in locked.order {
                    guard let appState = locked.apps[id] else { continue }
                    let before = appState.denied
                    appState.denied = updated.denied(
                        forAppNamed: appState.name, declared: appState.store.restrictions.map(\.id))
                    for restriction in appState.store.restrictions {
                        let rule = updated.rule(forAppNamed: appState.name, restriction: restriction.id)
                        if before.contains(restriction.id) != rule.denied {
                            events.append(
                                .restrictionChanged(
                                    app: id, id: restriction.id, denied: rule.denied, source: rule.source, actor: actor)
                            )
                        }
                    }
                    if before.isEmpty != appState.denied.isEmpty {
                        events.append(.guidedAccessStatusChanged(app: id, enabled: !appState.denied.isEmpty))
                    }
                }
                return events
            }
            emit(events)
        }
    }

    // MARK: Actions

    /// Performs an action on an element, routing it to the app along `ActionRouting.route` (AXCore): escape and
    /// magicTap bubble up the ancestors and finally the app (X32, X33); scroll bubbles up the view ancestors (X30).
    /// Guided-access denials block it whatever the route (R83, D-GA-2).
    package func perform(app: String, element: String?, action: ElementAction) async throws(ActionError) -> Bool {
        let snap: AppSnapshot
        let provider: (any ActionProvider)?
        do {
            snap = try snapshot(app)
        } catch { throw .noSuchApp(app) }
        provider = state.withLock { $0.apps[app]?.provider }
        guard let provider else { throw .appNotResponding(reason: "the app has no action handler") }

        var node: AXNode?
        if let element {
            // An automation-only node (D-AUTO-1) is built on this miss only.
            guard let found = snap.tree[element] ?? AutomationNodes.augment(snap.tree, views: snap.views)[element]
            else { throw .noSuchElement(element) }
            node = found
        }
        // Guided access: the element's own and inherited restrictions (R83).
        if let target = node, let denied = target.restrictions.first(where: { snap.denied.contains($0) }) {
            throw .policyDenied(restriction: denied, text: snap.restrictions.first { $0.id == denied }?.text)
        }
        let route: ActionRoute
        do {
            route = try ActionRouting.route(action, from: node, tree: snap.tree, views: snap.views)
        } catch {
            switch error {
            case .noElement: throw .noSuchElement("(none)")
            case .notSupported(let name, let supported): throw .notSupported(action: name, supported: supported)
            case .disabled: throw .notInteractable(reason: "disabled")
            case .descriptorViewGone: throw .notInteractable(reason: "descriptorViewGone")
            }
        }
        for handler in route.handlers {
            // The check follows the action to the view that handles it: a cell forwarding to its switch, an
            // escape bubbling to an ancestor (D-GA-2).
            if let denied = GuidedAccess.deniedRestriction(
                guarding: handler.target, element: node, tree: snap.tree, views: snap.views, denied: snap.denied)
            {
                throw .policyDenied(restriction: denied, text: snap.restrictions.first { $0.id == denied }?.text)
            }
            let request = ActionRequest(.element(route.action), target: handler.target, elementID: handler.element)
            if try await provider.perform(request, timeout: actionTimeout) { return true }
        }
        return false
    }

    // MARK: Waiting

    /// Number of `awaitChange` timeout timers still alive (a finished wait must not leave one behind).
    package var pendingWaitTimerCount: Int { liveWaitTimers.current }

    /// Number of registered `awaitChange` waiters over all apps.
    package var registeredWaiterCount: Int {
        state.withLock { locked in locked.apps.values.reduce(0) { $0 + $1.waiters.count } }
    }

    /// Suspends until the app's tree changes after `revision` (or the app goes away, or the timeout passes).
    /// Returns the new revision, or nil on timeout. Woken by commits, never by polling.
    package func awaitChange(app: String, after revision: Int, timeout: Duration, includeFocus: Bool = false) async
        -> Int?
    {
        let deadline = makeWaitDeadline(timeout: timeout)
        defer { deadline.finish() }
        return await awaitChange(app: app, after: revision, deadline: deadline, includeFocus: includeFocus)
    }

    /// A deadline for a wait of several rounds (`wait.for`): one timer however many revisions pass (D-REL-3).
    /// The caller calls `finish()` when the wait ends.
    package func makeWaitDeadline(timeout: Duration) -> WaitDeadline {
        waitTimersStarted.add(1, ordering: .relaxed)
        return WaitDeadline(timeout: timeout, counter: liveWaitTimers)
    }

    /// How many wait timers were ever started (for tests: one per wait, not one per revision).
    package var startedWaitTimerCount: Int { waitTimersStarted.load(ordering: .relaxed) }

    /// One round of a wait: suspends until the app's tree changes after `revision`, the app goes away or
    /// `deadline` passes. Returns the new revision, or nil when the deadline passed. Holds nothing after it
    /// returns: its waiter entry is removed and its expiry action disarmed.
    /// `focusSeen`: the accessibility focus the caller read with `revision` (`AppSnapshot.focusedID`); a focus that
    /// differs from it ends the wait at once, so a change between the caller's read and this call is never missed
    /// (D-WAIT-FOCUS-1). `includeFocus` without it compares with the focus at this call.
    package func awaitChange(
        app: String, after revision: Int, deadline: WaitDeadline, includeFocus: Bool = false,
        focusSeen: String?? = nil
    ) async -> Int? {
        let token = state.withLock { locked -> UInt64 in
            let token = locked.nextToken
            locked.nextToken += 1
            return token
        }
        let once = OneShot()
        let focusAtStart: String?? =
            focusSeen ?? (includeFocus ? state.withLock { locked in locked.apps[app].map { $0.focusedID } } : nil)
        let resumer = WaitResumer()
        // Cancelling the waiting task ($/cancelRequest, a closed connection) ends the wait at once (D-PROTO-1).
        let wokenRevision: Int? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
                resumer.install(continuation)
                let cont = resumer
                let current: Int? = state.withLock { locked in
                    guard let appState = locked.apps[app] else { return -1 }
                    // Cancelled before it got here: `onCancel` found nothing to remove, so nothing may be left.
                    if Task.isCancelled { return -1 }
                    if appState.store.revision > revision { return appState.store.revision }
                    if let focused = focusAtStart, focused != appState.focusedID { return appState.store.revision }
                    appState.waiters[token] = { [weak self] in
                        guard once.fire() else { return }
                        let revisionNow = self?.state.withLock { locked in locked.apps[app]?.store.revision } ?? nil
                        cont.resume(returning: revisionNow ?? -1)
                    }
                    return nil
                }
                if let current {
                    if once.fire() { cont.resume(returning: current) }
                    return
                }
                let armed = deadline.arm { [weak self] in
                    self?.state.withLock { locked in _ = locked.apps[app]?.waiters.removeValue(forKey: token) }
                    if once.fire() { cont.resume(returning: nil) }
                }
                if !armed {
                    state.withLock { locked in _ = locked.apps[app]?.waiters.removeValue(forKey: token) }
                    if once.fire() { cont.resume(returning: nil) }
                }
            }
        } onCancel: { [weak self] in
            self?.state.withLock { locked in _ = locked.apps[app]?.waiters.removeValue(forKey: token) }
            if once.fire() { resumer.resume(returning: nil) }
        }
        deadline.disarm()
        guard let wokenRevision, wokenRevision >= 0 else { return nil }
        return wokenRevision
    }
}

/// Counts live `awaitChange` timers (a reference, so a timer task can update it without keeping the hub alive).
final class WaitTimerCounter: Sendable {
    private let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    func decrement() { value.subtract(1, ordering: .relaxed) }
    var current: Int { value.load(ordering: .relaxed) }
}

/// A thread-safe one-time flag (the first `fire()` returns true).
package final class OneShot: Sendable {
    private let flag = Mutex(false)
    package init() {}
    package func fire() -> Bool {
        flag.withLock { fired in
            if fired { return false }
            fired = true
            return true
        }
    }
}

/// Resumes a wait's continuation once, even when asked (by cancellation) before the continuation exists.
final class WaitResumer: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Int?, Never>?, early: Int??)>((nil, nil))

    func install(_ continuation: CheckedContinuation<Int?, Never>) {
        let early: Int?? = state.withLock { current in
            if let value = current.early { return value }
            current.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    func resume(returning value: Int?) {
        let continuation: CheckedContinuation<Int?, Never>? = state.withLock { current in
            if let waiting = current.continuation {
                current.continuation = nil
                return waiting
            }
            current.early = .some(value)
            return nil
        }
        continuation?.resume(returning: value)
    }
}
