import AXDemo
import AXJSON
import AXProvider

/// Runs the demo app on the provider library: publishes its hierarchy, handles actions by changing state and
/// publishing the result (an ordinary hierarchy update), and ticks its live uptime label once a second.
package actor DemoHost {
    package private(set) var app = DemoApp()
    let publisher: Publisher
    private var ticker: Task<Void, Never>?

    package init(transport: any ProviderTransport) {
        publisher = Publisher(transport: transport)
    }

    package func start(name: String = DemoApp.appName, tick: Duration? = .seconds(1)) async throws {
        try await publisher.register(
            name: name, reclaimToken: nil,
            onReset: { [weak self] in try await self?.resetToInitialState() },
            onAction: { [weak self] call in
                guard let self else { return false }
                return try await self.handle(call)
            })
        // The demo lets the server handle its navigation keys (Tab, arrows, Escape, Return/space; D-KEY-2).
        try await publisher.setServerHandlesNavigation(true)
        try await publisher.publish(app.snapshot())
        if let tick {
            ticker = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: tick)
                    await self?.tickOnce()
                }
            }
        }
    }

    package var appID: String { get async { await publisher.appID } }

    func tickOnce() async {
        app.uptime += 1
        _ = try? await publisher.publish(app.snapshot())
    }

    /// Performs an action like the app would and publishes the result. Throws `ActionFailure` (`maxLength`) for
    /// text the name field does not take, and the `PublishError` when the server refused the resulting tree, so
    /// the action is answered with an error (−32022) rather than `handled: true`.
    package func handle(_ call: ActionCall) async throws -> Bool {
        if let rejection = app.rejection(action: call.action, target: call.target, value: call.value) {
            throw ActionFailure(
                rejection.message, reason: rejection.reason,
                data: ["maxLength": .number(Double(DemoApp.nameFieldMaxBytes))])
        }
        let wasShown = app.alertShown
        let handled = app.perform(
            action: call.action, target: call.target, value: call.value, customAction: call.customAction)
        guard handled else { return false }
        try await publisher.publish(app.snapshot())
        if app.alertShown && !wasShown {
            try? await publisher.post("screenChanged", "alertCancel")
        } else if !app.alertShown && wasShown {
            try? await publisher.post(
                "announcement", app.resets > 0 && call.target == "alertReset" ? "Settings reset" : "Alert dismissed")
        }
        return true
    }

    /// Returns to the state a fresh `axserver --demo` has (`DemoApp()`: its initial tree, settings, no alert, uptime
    /// 0) and publishes it; the server's `app.reset` answers after this tree is the server's (D-APP-RESET-1).
    package func resetToInitialState() async throws {
        app = DemoApp()
        try await publisher.publish(app.snapshot())
    }

    package func stop() {
        ticker?.cancel()
        ticker = nil
    }
}
