import AXCore
import AXJSON

/// What the focus engine reports (`focus.changed {focus: "engine"}`, `focus.movementFailed`; C3, C4, C13, C14).
package enum EngineFocusEvent: Sendable, Equatable {
    /// Engine focus moved. `reason`: move, request, app (the app pushed `isFocused`), lost (the focused item
    /// stopped being focusable), restored (C27), rotor.
    case changed(from: String?, to: String?, heading: String, reason: String)
    case movementFailed(from: String?, heading: String, reason: String, message: String)
}

/// The engine focus the hub keeps for one app (D-FOCUS-3), with the per-revision indexes it caches.
struct EngineFocusMemory {
    var focused: String?
    var lastFocusedInGroup: [String: String] = [:]
    var groupEntry: [String: String] = [:]
    /// Items that lost focus to a modal presentation, restored when it goes (C27).
    var restoreStack: [String] = []
    var index: FocusIndex?
    var rotorIndex: RotorIndex?
}

/// One app's focus engine at one revision, with its engine focus (what the focus methods read).
package struct FocusContext: Sendable {
    package var snapshot: AppSnapshot
    package var engine: FocusEngine
    package var engineFocused: String?
}

/// The outcome of a focus update request (`focus.move`, `focus.update`).
package struct FocusUpdateOutcome: Sendable {
    package var from: String?
    package var heading: String
    /// The item focused (nil when the update failed or was cancelled).
    package var to: String?
    package var guide: String?
    package var preferredChain: [String]
    /// The failure (C3) when no item was found.
    package var failure: String?
    package var failureMessage: String?
    /// The view whose `shouldUpdateFocus` answered false (C12).
    package var cancelledBy: String?
    /// The scroll the app was asked for (C25) and whether it handled it.
    package var scroll: (container: String, contentOffset: Point, handled: Bool)?
    /// `simulate`: nothing was changed (C33).
    package var simulated: Bool
}

extension Hub {
    // MARK: Reading

    /// The app's focus engine at its current revision: builds the index on first use per revision, and
    /// re-validates engine focus (an item that stopped being focusable loses it; events are emitted).
    package func focusContext(app: String) throws(HubError) -> FocusContext {
        var events: [HubEvent] = []
        let context: FocusContext? = state.withLock { locked in
            guard let appState = locked.apps[app] else { return nil }
            let engine = Hub.engine(appState)
            if let focused = appState.engine.focused, !engine.isFocusable(focused) {
                events += Hub.recoverLostFocus(appState, engine: engine)
            }
            let snap = appState.snapshot
            return FocusContext(snapshot: snap, engine: Hub.engine(appState), engineFocused: appState.engine.focused)
        }
        guard let context else { throw HubError(.noSuchApp, "no app '\(app)'") }
        emit(events)
        return context
    }

    /// The rotor engine at the app's current revision (document order cached per revision).
    package func rotorEngine(app: String) throws(HubError) -> (snapshot: AppSnapshot, engine: RotorEngineBox) {
        let result: (AppSnapshot, RotorIndex)? = state.withLock { locked in
            guard let appState = locked.apps[app] else { return nil }
            let index: RotorIndex
            if let cached = appState.engine.rotorIndex, cached.revision == appState.store.revision {
                index = cached
            } else {
                index = RotorIndex(tree: appState.store.tree)
                appState.engine.rotorIndex = index
            }
            let snap = appState.snapshot
            return (snap, index)
        }
        guard let result else { throw HubError(.noSuchApp, "no app '\(app)'") }
        return (result.0, RotorEngineBox(engine: RotorEngine(index: result.1)))
    }

    static func engine(_ appState: AppState) -> FocusEngine {
        let index: FocusIndex
        if let cached = appState.engine.index, cached.revision == appState.store.revision {
            index = cached
        } else {
            index = FocusIndex(views: appState.store.views, tree: appState.store.tree)
            appState.engine.index = index
        }
        return FocusEngine(
            index: index, lastFocusedInGroup: appState.engine.lastFocusedInGroup,
            groupEntry: appState.engine.groupEntry,
            focused: appState.engine.focused)
    }

    // MARK: Writing

    /// Runs a focus update: asks the app's `shouldUpdateFocus` when it opted in (C12), moves engine focus
    /// (accessibility focus follows onto elements, D-FOCUS-3), asks the app to scroll the item into view (C25)
    /// and tells it `didUpdateFocus` (C13). `simulate` answers without changing anything (C33). With `expectedFocus`,
    /// the move is made only while accessibility focus is still on that element, checked under the lock where the
    /// move is made (`to` is nil when it was not).
    package func updateEngineFocus(
        app: String, heading: String, target: String?, simulate: Bool, whileFocusedOn expectedFocus: String? = nil
    ) async throws -> FocusUpdateOutcome {
        let context = try focusContext(app: app)
        let from = context.engineFocused
        let engine = context.engine
        let focusHeading = FocusHeading(rawValue: heading) ?? .none
        let result: Result<FocusDecision, FocusFailure>
        if target != nil || focusHeading == .none {
            result = engine.request(target)
        } else {
            result = engine.move(from: from, heading: focusHeading)
        }
        var outcome = FocusUpdateOutcome(
            from: from, heading: heading, to: nil, guide: nil, preferredChain: [], failure: nil,
            failureMessage: nil, cancelledBy: nil, scroll: nil, simulated: simulate)
        switch result {
        case .failure(let failure):
            let message = Hub.focusFailureMessage(failure, target: target)
            outcome.failure = failure.reason
            outcome.failureMessage = message
            if !simulate {
                emit([
                    .engineFocus(
                        app: app,
                        .movementFailed(from: from, heading: heading, reason: failure.reason, message: message))
                ])
            }
            return outcome
        case .success(let decision):
            outcome.to = decision.item
            outcome.guide = decision.guide
            outcome.preferredChain = decision.preferredChain
            if let scroll = decision.scroll { outcome.scroll = (scroll.container, scroll.contentOffset, false) }
            if simulate || decision.item == from { return outcome }
            let provider = state.withLock { $0.apps[app]?.provider }
            let askers = Hub.focusUpdateAskers(engine.index, from: from, to: decision.item)
            let context = Hub.contextJSON(from: from, to: decision.item, heading: heading)
            if let provider,
                let refusing = try await firstRefusal(
                    of: askers, provider: provider, context: context, item: decision.item)
            {
                outcome.to = nil
                outcome.cancelledBy = refusing
                return outcome
            }
            let moved = apply(
                app: app, to: decision.item, heading: heading,
                reason: target != nil || focusHeading == .none ? "request" : "move", whileFocusedOn: expectedFocus)
            guard moved else {
                outcome.to = nil
                return outcome
            }
            if let provider {
                let handled = await tellAppFocusMoved(
                    provider, decision, askers: askers, context: context, views: engine.index.views)
                if let scroll = decision.scroll, let handled {
                    outcome.scroll = (scroll.container, scroll.contentOffset, handled)
                }
            }
            return outcome
        }
    }

    /// After focus moved to `decision.item`: asks the app to scroll it into view (C25), tells the askers
    /// `didUpdateFocus` (C13) and lets a `selectionFollowsFocus` view select it. Whether the scroll was handled (nil
    /// when none was asked).
    func tellAppFocusMoved(
        _ provider: any ActionProvider, _ decision: FocusDecision, askers: [String], context: JSON,
        views: ViewHierarchy
    ) async -> Bool? {
        var scrollHandled: Bool?
        if let scroll = decision.scroll {
            let request = ActionRequest(
                .scrollToVisible(contentOffset: scroll.contentOffset), target: scroll.container,
                elementID: decision.item)
            scrollHandled = (try? await provider.perform(request, timeout: actionTimeout)) ?? false
        }
        for asker in askers {
            let request = ActionRequest(.didUpdateFocus(context: context), target: asker, elementID: decision.item)
            _ = try? await provider.perform(request, timeout: actionTimeout)
        }
        await selectFollowingFocus(decision.item, views: views, provider: provider)
        return scrollHandled
    }

    /// `selectionFollowsFocus` (D-FOCUS-SEL-1): after focus moved onto a cell of such a table or collection view, the
    /// view is asked to select it; the app answers with its selection as a hierarchy update.
    func selectFollowingFocus(_ item: String, views: ViewHierarchy, provider: any ActionProvider) async {
        guard let selection = CollectionFocus.selection(afterFocusMovedTo: item, views: views) else { return }
        let request = ActionRequest(
            .select(row: selection.row, section: selection.section), target: selection.container, elementID: item)
        _ = try? await provider.perform(request, timeout: actionTimeout)
    }

    /// The message of a failed focus update; a requested target that cannot take focus is named (C10, C11).
    static func focusFailureMessage(_ failure: FocusFailure, target: String?) -> String {
        if let target, case .nothingFocusable = failure {
            return "'\(target)' is not focusable and prefers no focusable environment (C10, C11)"
        }
        return failure.message
    }

    /// Asks each of `askers` in turn whether focus may move to `item` (`shouldUpdateFocus`, C12); the first that
    /// refuses, or nil when all allow it.
    func firstRefusal(of askers: [String], provider: any ActionProvider, context: JSON, item: String) async throws
        -> String?
    {
        for asker in askers {
            let request = ActionRequest(.shouldUpdateFocus(context: context), target: asker, elementID: item)
            let allowed = try await provider.perform(request, timeout: actionTimeout)
            if !allowed {
                return asker
            }
        }
        return nil
    }

    /// Moves engine focus to `item` (nil clears it) and emits what changed; with `expectedFocus`, only while
    /// accessibility focus is on that element. Whether it moved (or was already there).
    /// Waits on the app (`wait.for`) wake up when accessibility focus followed (D-WAIT-FOCUS-1).
    @discardableResult
    func apply(
        app: String, to item: String?, heading: String, reason: String, whileFocusedOn expectedFocus: String? = nil
    ) -> Bool {
        let (moved, events, wake): (Bool, [HubEvent], [@Sendable () -> Void]) = state.withLock { locked in
            guard let appState = locked.apps[app] else { return (false, [], []) }
            if let expectedFocus, appState.focusedID != expectedFocus { return (false, [], []) }
            let focusBefore = appState.focusedID
            let events = Hub.setEngineFocus(appState, to: item, heading: heading, reason: reason)
            return (true, events, appState.focusedID != focusBefore ? appState.takeWaiters() : [])
        }
        emit(events)
        for waiter in wake { waiter() }
        return moved
    }

    /// An assistive technology's `Component.GrabFocus` put accessibility focus on `element`: keyboard (engine) focus
    /// follows when the element can take it (D-FOCUS-8), as GrabFocus does in a desktop toolkit, so the next Tab or
    /// arrow key continues from there. The bridge runs this after the grab's reply, off the bus thread (the engine may
    /// ask the app `shouldUpdateFocus` first), so it can run late, after a later grab or key: it then moves nothing,
    /// because accessibility focus is no longer on `element` where the move is made.
    package func engineFocusFollowsGrab(app: String, element: String) async {
        guard let context = try? focusContext(app: app), context.snapshot.focusedID == element,
            context.engineFocused != element, context.engine.isFocusable(element)
        else { return }
        _ = try? await updateEngineFocus(
            app: app, heading: FocusHeading.none.rawValue, target: element, simulate: false, whileFocusedOn: element)
    }

    /// The engine-focus change itself (under the lock): remembers the group's last item (C22) and lets
    /// accessibility focus follow onto an element (D-FOCUS-3).
    static func setEngineFocus(_ appState: AppState, to item: String?, heading: String, reason: String) -> [HubEvent] {
        let from = appState.engine.focused
        guard from != item else { return [] }
        appState.engine.focused = item
        var events: [HubEvent] = [
            .engineFocus(app: appState.id, .changed(from: from, to: item, heading: heading, reason: reason))
        ]
        if let item {
            if let group = appState.engine.index?[item]?.group {
                appState.engine.lastFocusedInGroup[group] = item
                let previousGroup = from.flatMap { appState.engine.index?[$0]?.group }
                if previousGroup != group {
                    // Entered backwards (Shift-Tab) at the group's last item: keep the order Tab used (D-FOCUS-6).
                    let backward =
                        heading == FocusHeading.previous.rawValue
                        ? appState.engine.index.flatMap { FocusEngine(index: $0).backwardEntry(for: item) } : nil
                    appState.engine.groupEntry[group] = backward ?? item
                }
            }
            if let element = followedElement(item, tree: appState.store.tree), appState.focusedID != element {
                FocusReturn.record(
                    from: appState.focusedID, to: element, tree: appState.store.tree, stack: &appState.focusReturn)
                events.append(.focusChanged(app: appState.id, from: appState.focusedID, to: element))
                appState.focusedID = element
            }
        }
        return events
    }

    /// The element accessibility focus follows onto when engine focus moves to `item` (D-FOCUS-3): the item when it
    /// is an element; for a container item (a segmented control) its selected element child, else its first one —
    /// what a screen reader then reads ("Light, selected radio button"); nil when the item exposes no element.
    static func followedElement(_ item: String, tree: AXTree) -> String? {
        guard let node = tree[item] else { return nil }
        if node.isElement { return item }
        let elements = node.children.compactMap { tree[$0] }.filter(\.isElement)
        let selected = elements.first { $0.states.contains(.selected) }
        return (selected ?? elements.first)?.id
    }

    /// The views that asked to be consulted (`focusUpdateRequests`): ancestors-or-self of either item (C12).
    static func focusUpdateAskers(_ index: FocusIndex, from: String?, to: String) -> [String] {
        var out: [String] = []
        for item in [from, to].compactMap({ $0 }) {
            var cursor = index.position[item] ?? -1
            while cursor >= 0 {
                let id = index.entries[cursor].id
                if index.views[id]?.focus.asksFocusUpdates == true, !out.contains(id) { out.append(id) }
                cursor = index.entries[cursor].parent
            }
        }
        return out
    }

    static func contextJSON(from: String?, to: String, heading: String) -> JSON {
        ["previouslyFocusedItem": JSON(from), "nextFocusedItem": .string(to), "focusHeading": .string(heading)]
    }

    // MARK: After a commit

    /// Called under the lock after every accepted snapshot or patch. Costs nothing when the engine has no focus
    /// and the app pushed no `isFocused`, or when the patch touched neither the focused item nor the structure.
    static func engineFocusAfterCommit(_ appState: AppState, changes: ChangeSet) -> [HubEvent] {
        let claim = appState.store.focusClaim.flatMap { $0.revision == appState.store.revision ? $0 : nil }
        guard claim != nil || appState.engine.focused != nil else { return [] }
        if claim == nil, let focused = appState.engine.focused, appState.store.views[focused] != nil,
            changes.added.isEmpty,
            changes.removed.isEmpty,
            changes.moved.isEmpty, !changes.windowsChanged, changes.updated[focused] == nil
        {
            return []
        }
        if let claim {
            // The app's own engine is authoritative for what it pushes (C35, C36).
            if claim.isFocused {
                return setEngineFocus(appState, to: claim.viewID, heading: FocusHeading.none.rawValue, reason: "app")
            }
            if let focused = appState.engine.focused, claim.resigned.contains(focused) || focused == claim.viewID {
                return setEngineFocus(appState, to: nil, heading: FocusHeading.none.rawValue, reason: "app")
            }
            return []
        }
        let engine = engine(appState)
        guard let focused = appState.engine.focused, !engine.isFocusable(focused) else { return [] }
        return recoverLostFocus(appState, engine: engine)
    }

    /// The focused item stopped being focusable: restore the item a modal took focus from, if it is focusable
    /// again (C27); else remember this one (while it exists and the modal hiding it restores focus after its
    /// transition, C27) and focus the initial item (C6, C7).
    static func recoverLostFocus(_ appState: AppState, engine: FocusEngine) -> [HubEvent] {
        let lost = appState.engine.focused
        while let candidate = appState.engine.restoreStack.popLast() {
            if engine.isFocusable(candidate) {
                return setEngineFocus(appState, to: candidate, heading: FocusHeading.none.rawValue, reason: "restored")
            }
            if appState.store.views[candidate] != nil {
                appState.engine.restoreStack.append(candidate)
                break
            }
        }
        if let lost, appState.store.views[lost] != nil, !appState.engine.restoreStack.contains(lost),
            engine.restoresFocus(afterLosing: lost)
        {
            appState.engine.restoreStack.append(lost)
            if appState.engine.restoreStack.count > 16 { appState.engine.restoreStack.removeFirst() }
        }
        let next = engine.initialFocus()?.item
        return setEngineFocus(appState, to: next, heading: FocusHeading.none.rawValue, reason: "lost")
    }
}

/// A rotor engine handed to the method layer (keeps `RotorEngine` package-internal).
package struct RotorEngineBox: Sendable {
    package let engine: RotorEngine
}
