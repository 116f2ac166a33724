import AXJSON
import AXProvider
import AXDemo

/// Runs the demo app on the provider library: publishes its hierarchy, handles actions by changing state and
/// publishing the result (an ordinary hierarchy update), and ticks its live uptime label once a second.
public actor DemoHost {
    public private(set) var app = DemoApp()
    let publisher: Publisher
    private var ticker: Task<Void, Never>?

    public init(transport: any ProviderTransport) {
        publisher = Publisher(transport: transport)
    }

    public func start(name: String = DemoApp.appName, tick: Duration? = .seconds(1)) async throws {
        try await publisher.register(name: name) { [weak self] call in
            guard let self else { return false }
            return await self.handle(call)
        }
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

    public var appID: String { get async { await publisher.appID } }

    func tickOnce() async {
        app.uptime += 1
        _ = try? await publisher.publish(app.snapshot())
    }

    public func handle(_ call: ActionCall) async -> Bool {
        let wasShown = app.alertShown
        let handled = app.perform(action: call.action, target: call.target, value: call.value, customAction: call.customAction)
        guard handled else { return false }
        _ = try? await publisher.publish(app.snapshot())
        if app.alertShown && !wasShown {
            try? await publisher.post("screenChanged", "alertCancel")
        } else if !app.alertShown && wasShown {
            try? await publisher.post("announcement", app.resets > 0 && call.target == "alertReset" ? "Settings reset" : "Alert dismissed")
        }
        return true
    }

    public func stop() {
        ticker?.cancel()
        ticker = nil
    }
}
