import AXCore
import AXHub
import AXJSON
import AXProvider
import AXRPC

/// Provider transport straight into an in-process hub (`axserver --demo` runs its demo app this way).
package final class HubProviderTransport: ProviderTransport {
    let hub: Hub
    package init(hub: Hub) { self.hub = hub }

    final class Adapter: ActionProvider {
        let onAction: @Sendable (ActionCall) async throws -> Bool
        init(_ f: @escaping @Sendable (ActionCall) async throws -> Bool) { onAction = f }
        /// An error the app answers with becomes `.appFailed` carrying the error object a socket provider would
        /// have sent, so in-process and socket apps report the same −32022 to automation clients.
        func perform(_ request: ActionRequest, timeout: Duration) async throws(ActionError) -> Bool {
            do {
                return try await onAction(ActionCall(json: request.json))
            } catch {
                let failure = ActionFailure(error)
                throw .appFailed(
                    message: "the app reported an error performing '\(request.action)': \(failure.message)",
                    reason: failure.reason, details: failure.rpcError.json)
            }
        }
    }

    package func register(name: String, onAction: @escaping @Sendable (ActionCall) async throws -> Bool) async throws
        -> String
    {
        hub.registerApp(name: name, provider: Adapter(onAction))
    }

    /// Answers `method` like the server would, throwing the `RPCError` the socket would have carried.
    package func call(_ method: String, _ params: JSONObject) async throws -> JSON {
        do {
            return try await callHub(method, params)
        } catch {
            throw RPCError.from(error)
        }
    }

    private func callHub(_ method: String, _ params: JSONObject) async throws -> JSON {
        guard let app = params["app"]?.stringValue else { throw HubError(.invalid, "missing app") }
        switch method {
        case "hierarchy.set":
            let cs = try hub.setSnapshot(app: app, .object(params))
            return ["revision": JSON(cs.toRevision)]
        case "hierarchy.update":
            let cs = try hub.update(app: app, ops: params["ops"] ?? .array([]))
            return ["revision": JSON(cs.toRevision)]
        case "accessibility.post":
            try hub.post(app: app, try AccessibilityNotification.decode(.object(params)))
            return ["posted": true]
        case "input.key", "input.configure":
            return try await HubKeyInput.call(hub, app: app, method: method, params)
        default:
            throw HubError(.invalid, "unsupported method \(method)")
        }
    }
}
