import AXCore
import AXJSON
import Synchronization

/// One key event on its way to an assistive technology (the AT-SPI bridge's `NotifyListenersSync`).
package struct ForwardedKey: Sendable, Equatable {
    package var symbol: KeySymbol
    package var modifiers: Set<KeyModifier>
    package var pressed: Bool
    /// Milliseconds on a monotonic clock (wraps; the registry only compares them).
    package var timestamp: Int32

    package init(symbol: KeySymbol, modifiers: Set<KeyModifier>, pressed: Bool, timestamp: Int32) {
        self.symbol = symbol
        self.modifiers = modifiers
        self.pressed = pressed
        self.timestamp = timestamp
    }

    /// The X modifier mask (ShiftMask | ControlMask | Mod1 | Mod4).
    package var modifierMask: UInt32 { modifiers.reduce(0) { $0 | $1.mask } }
}

/// What an assistive technology answered about one key (D-KEY-3).
package enum KeyForwardAnswer: Sendable, Equatable {
    /// No AT listens for keys: nothing was sent.
    case noListener
    case consumed
    case notConsumed
    /// The AT did not answer within the registry's timeout: counted as not consumed.
    case timedOut
    /// The registry refused or is gone: counted as not consumed.
    case failed(String)
}

/// Where keys go to assistive technologies (the AT-SPI bridge installs one; D-KEY-3). Implementations never
/// block: `forward` suspends until the AT answers or the timeout passes.
package protocol KeyForwarder: Sendable {
    /// Whether some AT listens for keys now (`GetKeystrokeListeners` non-empty).
    var hasKeyListeners: Bool { get }
    func forward(_ key: ForwardedKey, app: String) async -> KeyForwardAnswer
    /// A key press goes to `app` (before it is offered to the AT), or focus moved into one of its elements: the app's
    /// key window becomes the active one, as a window manager activates the window that gets the keyboard
    /// (D-ATSPI-ACTIVE-1).
    func keysRouted(to app: String)
}

extension KeyForwarder {
    /// Does nothing (a forwarder that has no windows to activate).
    package func keysRouted(to app: String) {}
}

/// A key kept from the app because the element it would reach is guarded by a denied guided-access
/// restriction (D-GA-KEY-1). Answered over JSON-RPC as −32017 `policy denied`.
package struct KeyDeniedError: Error, Sendable, Equatable {
    /// The denied restriction guarding the element.
    package var restriction: String
    /// The restriction's text, as the app declared it.
    package var text: String?
    /// The focused element the key would have reached.
    package var element: String
    /// The key's X keysym name.
    package var key: String
}

/// Who sent a key: the app that received it (provider) or a test script (automation) (D-KEY-2).
package enum KeySource: Sendable {
    case provider
    case automation
}

/// The outcome of one `input.key`.
package struct KeyOutcome: Sendable, Equatable {
    package var consumed: Bool
    /// assistive-technology, server, app or none.
    package var handledBy: String
    /// The app's accessibility focus afterwards.
    package var focus: String?
    /// What the AT answered for the press (and release), for diagnostics.
    package var answers: [KeyForwardAnswer]
}

/// Why a key was refused before it ran.
package enum KeyInputError: Error, Sendable, Equatable {
    /// The app already has `KeyInputState.queueLimit` keys waiting (a flood): this one is refused (D-KEY-6).
    case busy(app: String, waiting: Int)
    /// The key's request was cancelled (its connection closed) while it waited for its turn: it does not run.
    case cancelled(app: String)
}

/// The hub's key state: the installed forwarder, the per-app "server handles navigation" option and the
/// per-app key queue (keys of one app run one at a time, in arrival order; D-KEY-4).
package final class KeyInputState: Sendable {
    /// Keys that may wait behind the running one, per app; the next is refused with `busy`.
    package static let queueLimit = 32

    private struct AppQueue {
        var running = false
        /// Waiting keys in arrival order; each is resumed with true when its turn comes, false when cancelled.
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    }
    private struct State {
        var forwarder: (any KeyForwarder)?
        var serverNavigation: Set<String> = []
        var queues: [String: AppQueue] = [:]
        var nextWaiterID: UInt64 = 0
    }
    private let state = Mutex(State())

    init() {}

    var forwarder: (any KeyForwarder)? { state.withLock { $0.forwarder } }

    func setForwarder(_ forwarder: (any KeyForwarder)?) { state.withLock { $0.forwarder = forwarder } }

    func serverHandlesNavigation(_ app: String) -> Bool { state.withLock { $0.serverNavigation.contains(app) } }

    func setServerNavigation(_ app: String, _ on: Bool) {
        state.withLock { locked in
            if on {
                locked.serverNavigation.insert(app)
            } else {
                locked.serverNavigation.remove(app)
            }
        }
    }

    /// Waits for the app's turn; throws `busy` when `queueLimit` keys already wait.
    func acquire(_ app: String) async throws(KeyInputError) {
        enum Admission {
            case run
            case wait
            case refuse(Int)
        }
        let admission: Admission = state.withLock { locked in
            var queue = locked.queues[app] ?? AppQueue()
            if !queue.running {
                queue.running = true
                locked.queues[app] = queue
                return .run
            }
            if queue.waiting.count >= Self.queueLimit { return .refuse(queue.waiting.count) }
            return .wait
        }
        switch admission {
        case .run: return
        case .refuse(let waiting): throw .busy(app: app, waiting: waiting)
        case .wait:
            let waiterID: UInt64 = state.withLock { locked in
                locked.nextWaiterID += 1
                return locked.nextWaiterID
            }
            // A key whose request is cancelled while it waits leaves the queue and never runs (issue 19 item 7).
            let granted = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    let answer: Bool? = state.withLock { locked in
                        var queue = locked.queues[app] ?? AppQueue()
                        if !queue.running {
                            queue.running = true
                            locked.queues[app] = queue
                            return true
                        }
                        if Task.isCancelled { return false }
                        queue.waiting.append((waiterID, continuation))
                        locked.queues[app] = queue
                        return nil
                    }
                    if let answer { continuation.resume(returning: answer) }
                }
            } onCancel: {
                let removed: CheckedContinuation<Bool, Never>? = state.withLock { locked in
                    guard var queue = locked.queues[app],
                        let index = queue.waiting.firstIndex(where: { $0.id == waiterID })
                    else { return nil }
                    let entry = queue.waiting.remove(at: index)
                    locked.queues[app] = queue
                    return entry.continuation
                }
                removed?.resume(returning: false)
            }
            guard granted else { throw .cancelled(app: app) }
            if Task.isCancelled {
                release(app)
                throw .cancelled(app: app)
            }
        }
    }

    /// Ends the app's running key and starts the next waiting one.
    func release(_ app: String) {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { locked in
            guard var queue = locked.queues[app] else { return nil }
            if queue.waiting.isEmpty {
                locked.queues[app] = nil
                return nil
            }
            let first = queue.waiting.removeFirst()
            locked.queues[app] = queue
            return first.continuation
        }
        next?.resume(returning: true)
    }

    /// Keys waiting for their turn in `app` (tests, diagnostics).
    package func waitingCount(_ app: String) -> Int { state.withLock { $0.queues[app]?.waiting.count ?? 0 } }
}

extension Hub {
    // MARK: Keys (D-KEY-1…4)

    /// Installs the forwarder that passes keys to assistive technologies (nil removes it).
    package func setKeyForwarder(_ forwarder: (any KeyForwarder)?) { keyInput.setForwarder(forwarder) }

    /// Whether the server handles the app's navigation keys (Tab, arrows, Escape, Return/space) it does not
    /// see consumed by an AT (D-KEY-2). The app opts in; off by default.
    package func setServerHandlesNavigation(app: String, _ on: Bool) throws(HubError) {
        guard appName(app) != nil else { throw HubError(.noSuchApp, "no app '\(app)'") }
        keyInput.setServerNavigation(app, on)
    }

    package func serverHandlesNavigation(app: String) -> Bool { keyInput.serverHandlesNavigation(app) }

    /// One key, press and/or release (D-KEY-2, D-KEY-3): offered to the AT first (only while one listens);
    /// consumed there, it stops. Otherwise, when the app lets the server handle navigation keys, the server's
    /// rule runs on the press (KeyboardNavigation); else an automation key goes to the app as a `key` action,
    /// and a provider's key goes back to the app that sent it (handledBy "app"). Keys of one app run in order,
    /// one at a time; a flood beyond the queue limit is refused (`KeyInputError.busy`).
    package func key(
        app: String, symbol: KeySymbol, modifiers: Set<KeyModifier>, press: Bool, release: Bool, source: KeySource
    ) async throws -> KeyOutcome {
        guard appName(app) != nil else { throw HubError(.noSuchApp, "no app '\(app)'") }
        try await keyInput.acquire(app)
        defer { keyInput.release(app) }
        // Shift with a printable key is its shifted level, as X reports it (`equal` + shift → `plus`; D-KEY-7).
        let symbol = Keysyms.resolved(symbol, modifiers: modifiers)
        let forwarder = keyInput.forwarder
        if press { forwarder?.keysRouted(to: app) }
        let listening = forwarder?.hasKeyListeners ?? false
        let command = KeyboardNavigation.command(for: symbol, modifiers: modifiers)
        let serverOn = keyInput.serverHandlesNavigation(app)
        // A release alone counts as the server's when its press would be navigation (D-KEY-2).
        var serverHandles = !press && command != nil && serverOn
        var answers: [KeyForwardAnswer] = []
        var consumed = false
        // A toolkit acts on the press and then sends the release: the server's rule runs as soon as the AT has
        // let the press through, not after a second round trip for the release (D-KEY-3). The release is still
        // offered to the AT when the rule fails, so the AT never sees a press without its release.
        var ruleFailure: (any Error)?
        if press {
            let answer = await offer(forwarder, listening, app, symbol, modifiers, pressed: true)
            answers.append(answer)
            consumed = answer == .consumed
            if !consumed, serverOn {
                (serverHandles, ruleFailure) = await runServerRule(
                    app: app, symbol: symbol, modifiers: modifiers, command: command)
            }
        }
        if release {
            let answer = await offer(forwarder, listening, app, symbol, modifiers, pressed: false)
            answers.append(answer)
            if !press { consumed = answer == .consumed }
        }
        if let ruleFailure { throw ruleFailure }
        if consumed {
            return KeyOutcome(
                consumed: true, handledBy: "assistive-technology", focus: focusedElement(app), answers: answers)
        }
        if serverHandles {
            return KeyOutcome(consumed: false, handledBy: "server", focus: focusedElement(app), answers: answers)
        }
        // Every key that goes on to the app passes here, whoever handles navigation and whichever route sent it
        // (D-GA-KEY-1): a guarded element keeps its keys.
        if let denial = keyDenial(app: app, symbol: symbol, modifiers: modifiers) { throw denial }
        let handledBy = try await appHandling(app, symbol, modifiers, press: press, release: release, source: source)
        return KeyOutcome(consumed: false, handledBy: handledBy, focus: focusedElement(app), answers: answers)
    }

    /// The server's rule for a press no AT consumed: the focused control first (D-KEYOP-1), then navigation
    /// (D-KEY-2) — except an editing key of an element that reports its own caret, which the app edits
    /// (D-TEXT-APP-2). Whether the server took the key, and the rule's failure (the key still counts as taken).
    private func runServerRule(
        app: String, symbol: KeySymbol, modifiers: Set<KeyModifier>, command: KeyCommand?
    ) async -> (handled: Bool, failure: (any Error)?) {
        if appEditsKey(app: app, symbol: symbol, modifiers: modifiers) { return (false, nil) }
        do {
            if try await operateFocusedControl(app: app, symbol: symbol, modifiers: modifiers) { return (true, nil) }
            guard let command else { return (false, nil) }
            try await run(command, app: app)
            return (true, nil)
        } catch {
            return (true, error)
        }
    }

    /// Why a key must not reach the app (D-GA-KEY-1, R83): the element it would reach (engine focus, else
    /// accessibility focus) is guarded by a denied guided-access restriction, and the key does more than leave it
    /// (Tab, Shift-Tab) or change the modifier state. Return and space would press it, arrows adjust it, and an app
    /// may bind any other key to it. Nil when the key may go.
    package func keyDenial(app: String, symbol: KeySymbol, modifiers: Set<KeyModifier>) -> KeyDeniedError? {
        if symbol.isModifierKey { return nil }
        if case .move(let heading)? = KeyboardNavigation.command(for: symbol, modifiers: modifiers),
            heading == .next || heading == .previous
        {
            return nil
        }
        guard let target = keyTarget(app), let snap = try? snapshot(app), !snap.denied.isEmpty,
            let node = snap.tree[target],
            let denied = GuidedAccess.deniedRestriction(
                guarding: node.actionTarget, element: node, tree: snap.tree, views: snap.views, denied: snap.denied)
        else { return nil }
        return KeyDeniedError(
            restriction: denied, text: snap.restrictions.first { $0.id == denied }?.text, element: target,
            key: symbol.name)
    }

    /// Who handles a key neither the AT nor the server took: a provider's key goes back to the app that sent it;
    /// an automation key is delivered to the app as a `key` action ("none" when the app does not take it).
    private func appHandling(
        _ app: String, _ symbol: KeySymbol, _ modifiers: Set<KeyModifier>, press: Bool, release: Bool,
        source: KeySource
    ) async throws -> String {
        if source == .provider { return "app" }
        return try await deliverToApp(app, symbol, modifiers, press: press, release: release) ? "app" : "none"
    }

    private func offer(
        _ forwarder: (any KeyForwarder)?, _ listening: Bool, _ app: String, _ symbol: KeySymbol,
        _ modifiers: Set<KeyModifier>, pressed: Bool
    ) async -> KeyForwardAnswer {
        guard let forwarder, listening else { return .noListener }
        let key = ForwardedKey(
            symbol: symbol, modifiers: modifiers, pressed: pressed, timestamp: Self.keyTimestamp())
        return await forwarder.forward(key, app: app)
    }

    static func keyTimestamp() -> Int32 {
        let elapsed = Self.clockOrigin.duration(to: .now)
        let total = elapsed.components.seconds &* 1000 &+ elapsed.components.attoseconds / 1_000_000_000_000_000
        return Int32(truncatingIfNeeded: total)
    }

    private static let clockOrigin = ContinuousClock.now

    func focusedElement(_ app: String) -> String? { state.withLock { $0.apps[app]?.focusedID } }

    /// The item a press acts on: engine focus, else accessibility focus.
    func keyTarget(_ app: String) -> String? {
        state.withLock { locked in
            guard let appState = locked.apps[app] else { return nil }
            if let engine = appState.engine.focused, appState.store.tree[engine] != nil { return engine }
            return appState.focusedID
        }
    }

    private func run(_ command: KeyCommand, app: String) async throws {
        switch command {
        case .move(let heading):
            let context = try focusContext(app: app)
            let from = context.engineFocused
            let tree = context.snapshot.tree
            let tab = heading == .next || heading == .previous
            // Tab: one stop per announced element (D-KEY-6); arrows: inside the focus group (D-KEY-2).
            let move =
                tab
                ? KeyboardNavigation.tabMove(context.engine, from: from, heading: heading, tree: tree)
                : KeyboardNavigation.arrowMove(context.engine, from: from, heading: heading)
            switch move {
            case .success(let decision):
                _ = try await updateEngineFocus(
                    app: app, heading: heading.rawValue, target: decision.item, simulate: false)
            case .failure(let failure):
                emit([
                    .engineFocus(
                        app: app,
                        .movementFailed(
                            from: from, heading: heading.rawValue, reason: failure.reason, message: failure.message))
                ])
            }
        case .escape:
            _ = try await perform(app: app, element: keyTarget(app), action: .escape)
        case .activate:
            guard let item = keyTarget(app) else { return }
            // D-KEYOP-3: a segmented control activates its segment; a segment already selected uses the key up.
            let tree = state.withLock { $0.apps[app]?.store.tree }
            guard let target = tree.map({ KeyboardNavigation.activationTarget(of: item, tree: $0) }) ?? item else {
                return
            }
            _ = try await perform(app: app, element: target, action: .activate)
        }
    }

    /// An automation key the server does not handle goes to the app as a `key` action on the application
    /// (target ""), with the focused element; the app answers whether it handled it.
    private func deliverToApp(
        _ app: String, _ symbol: KeySymbol, _ modifiers: Set<KeyModifier>, press: Bool, release: Bool
    ) async throws -> Bool {
        guard let provider = state.withLock({ $0.apps[app]?.provider }) else { return false }
        let phase = press && release ? "both" : (press ? "press" : "release")
        let value: JSON = [
            "key": .string(symbol.name), "modifiers": JSON(modifiers.map(\.rawValue).sorted()),
            "phase": .string(phase), "text": JSON(symbol.text),
        ]
        let request = ActionRequest(.key(event: value), target: "", elementID: keyTarget(app))
        return try await provider.perform(request, timeout: actionTimeout)
    }
}
