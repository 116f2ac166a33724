import AXHub
import AXInProcess
import AXJSON
import AXJSONRPC
import AXProtocol
import AXProvider
import AXRPCRouter

/// Provider transport into a server in the same process (`axserver --demo` runs its demo app this way): an
/// `InProcessConnection` to the real router, so an in-process app goes through the same methods, parameter checks,
/// roles, ownership checks and error answers as an app on the socket.
package final class InProcessProviderTransport: ResettableProviderTransport {
    let connection: InProcessConnection

    /// A provider connection to `router` (the server's own, so the app is served with its options).
    package init(router: RPCRouter) {
        connection = InProcessConnection(router: router)
    }

    /// A provider connection to a router of its own over `hub` (every method installed, default options).
    package convenience init(hub: Hub) {
        self.init(router: InProcessConnection.makeRouter(hub: hub))
    }

    /// Initializes as a provider, registers the app under `name` and answers the server's `action.perform` requests
    /// with `onAction` (an error it throws is answered as the socket library answers it, `ActionFailure`).
    package func register(name: String, onAction: @escaping @Sendable (ActionCall) async throws -> Bool) async throws
        -> String
    {
        try await register(name: name, onReset: nil, onAction: onAction)
    }

    /// Registers as `register(name:onAction:)` does; with `onReset` the app declares `reset: true` and answers the
    /// server's `app.reset` with the revision `onReset` returns (D-APP-RESET-1).
    package func register(
        name: String, onReset: (@Sendable () async throws -> Int)?,
        onAction: @escaping @Sendable (ActionCall) async throws -> Bool
    ) async throws -> String {
        if let onReset {
            connection.setResetAnswerer { () async throws(RPCError) -> JSON in
                do {
                    return ["reset": true, "revision": JSON(try await onReset())]
                } catch {
                    throw ActionFailure(error).rpcError
                }
            }
        }
        connection.setActionAnswerer { params throws(RPCError) in
            do {
                return ["handled": .bool(try await onAction(ActionCall(json: params)))]
            } catch {
                throw ActionFailure(error).rpcError
            }
        }
        _ = try await call(
            RPCMethod.initialize.request(
                [.role: .string(RPCRole.provider.rawValue), .clientInfo: ["name": "AXProvider (in process)"]]))
        var params: RPCParams<RPCCatalog.AppRegister.Param> = [.name: .string(name)]
        if onReset != nil { params[.reset] = true }
        let reply = try await call(RPCMethod.appRegister.request(params))
        guard let id = reply["app"]?.stringValue else { throw RPCError.internalError("app.register returned no id") }
        return id
    }

    /// Calls `method` through the router; a refusal is thrown as the server's `RPCError`.
    package func call(_ method: String, _ params: JSONObject) async throws -> JSON {
        try await connection.call(method, .object(params)).get()
    }

    /// Closes the connection; the server removes the app.
    package func close() async { await connection.close() }
}

/// The in-process transport's former name (it dispatched five methods itself; it now runs the real router).
package typealias HubProviderTransport = InProcessProviderTransport
