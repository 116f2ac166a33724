import AXJSON

/// What an app answered `app.reset` with: the revision of its initial tree, as the server accepted it.
package struct AppResetAnswer: Sendable, Equatable {
    /// The revision of the tree the app published for its initial state (nil when the app did not say).
    package var revision: Int?

    package init(revision: Int?) { self.revision = revision }
}

/// Why an app could not be reset (D-APP-RESET-1).
package enum AppResetError: Error, Sendable, Equatable {
    /// No app with this id.
    case noSuchApp(String)
    /// The app did not declare that it can return to its initial state (`app.register {reset: true}`).
    case notSupported(app: String)
    /// A guided-access restriction of the app is denied: the kiosk's state is not undone by a test.
    case policyDenied(restriction: String, text: String?)
    /// The app did not answer in time.
    case timeout(app: String, seconds: Double)
    /// The app's connection closed before it answered (it left mid-reset).
    case appLeft(app: String)
    /// The app answered with an error, or published no initial tree in time.
    case appFailed(ActionError)
}

extension ActionError {
    /// The `appNotResponding` reason of a request whose provider connection closed before it answered.
    package static let appLeftReason = "app left"
}

/// An app that can return to its initial state on request (`app.reset`, D-APP-RESET-1).
package protocol ResettableProvider: ActionProvider {
    /// Whether the app declared it can reset.
    var canReset: Bool { get }
    /// Asks the app to return to its initial state; it answers after it published that tree.
    func reset(timeout: Duration) async throws(ActionError) -> AppResetAnswer
}

extension Hub {
    /// Asks the app for its initial state and returns once the tree it published is the server's (so a following
    /// find sees the initial state). The server's own state of the app — accessibility focus, the focus engine's
    /// memory, carets it keeps — is cleared as a fresh server has it. Resets of one app are serialised by the caller.
    package func resetApp(_ app: String, timeout: Duration) async throws(AppResetError) -> (before: Int, after: Int) {
        let found = state.withLock { locked -> (provider: (any ActionProvider)?, denied: Set<String>)? in
            locked.apps[app].map { ($0.provider, $0.denied) }
        }
        guard let found, let snap = try? snapshot(app) else { throw .noSuchApp(app) }
        if let denied = snap.restrictions.first(where: { found.denied.contains($0.id) }) {
            throw .policyDenied(restriction: denied.id, text: denied.text)
        }
        guard let resettable = found.provider as? any ResettableProvider, resettable.canReset else {
            throw .notSupported(app: app)
        }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let answer: AppResetAnswer
        do {
            answer = try await resettable.reset(timeout: timeout)
        } catch {
            throw mapResetFailure(error, app: app, timeout: timeout)
        }
        var current = (try? snapshot(app).revision) ?? -1
        if current < 0 { throw .appLeft(app: app) }
        while let wanted = answer.revision, current < wanted {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero, let next = await awaitChange(app: app, after: current, timeout: left) else {
                throw .appFailed(
                    .appFailed(
                        message: "the app answered reset with revision \(wanted) but the server holds \(current)",
                        reason: "reset tree missing", details: nil))
            }
            current = next
            if (try? snapshot(app)) == nil { throw .appLeft(app: app) }
        }
        clearServerState(app)
        return (snap.revision, current)
    }

    private func mapResetFailure(_ error: ActionError, app: String, timeout: Duration) -> AppResetError {
        let stillThere = state.withLock { $0.apps[app] != nil }
        guard stillThere else { return .appLeft(app: app) }
        if case .appNotResponding(let reason) = error {
            if reason == ActionError.appLeftReason { return .appLeft(app: app) }
            let (seconds, attoseconds) = timeout.components
            return .timeout(app: app, seconds: Double(seconds) + Double(attoseconds) / 1e18)
        }
        return .appFailed(error)
    }

    /// Clears what the server keeps about the app besides its tree, as a fresh server has it.
    private func clearServerState(_ app: String) {
        var wake: [@Sendable () -> Void] = []
        let events: [HubEvent] = state.withLock { locked in
            guard let appState = locked.apps[app] else { return [] }
            let previous = appState.focusedID
            appState.focusedID = nil
            appState.engine = EngineFocusMemory()
            appState.focusReturn = []
            appState.carets = [:]
            guard previous != nil else { return [] }
            wake = appState.takeWaiters()
            return [.focusChanged(app: app, from: previous, to: nil)]
        }
        emit(events)
        for waiter in wake { waiter() }
    }
}
