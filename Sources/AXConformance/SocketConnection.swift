import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPCClient
import Foundation

/// A black-box connection to a live server over its socket (`axserver conformance --socket PATH`).
package final class SocketConnection: ConformanceConnection, @unchecked Sendable {
    let client: RPCClient
    private let lock = NSLock()
    private var notifications: [(method: String, params: JSON)] = []
    private var handler: (@Sendable (JSON) async -> JSON)?

    init(client: RPCClient) { self.client = client }

    package static func connect(_ address: String, token: String?) async throws -> SocketConnection {
        let client = try await RPCClient.connect(address)
        let conn = SocketConnection(client: client)
        client.onNotification { [weak conn] notificationMethod, notificationParams in
            conn?.lock.withLock { conn?.notifications.append((notificationMethod, notificationParams ?? .null)) }
        }
        client.onRequest { [weak conn] method, params in
            switch RPCServerMessage(rawValue: method) {
            case .actionPerform: break
            case .appReset, .connectionClosing, nil: throw RPCError.methodNotFound(method)
            }
            guard let actionHandler = conn?.lock.withLock({ conn?.handler }) else { return ["handled": false] }
            return await actionHandler(params ?? .null)
        }
        if let token {
            conn.tokenInit = ["token": .string(token)]
        }
        return conn
    }

    var tokenInit: JSONObject?

    package func call(_ method: String, _ params: JSON?) async -> Result<JSON, RPCError> {
        var effectiveParams = params
        if method == RPCMethodName.initialize.rawValue, let tokenFields = tokenInit, case .object(var object)? = params
        {
            for (key, value) in tokenFields { object[key] = value }
            effectiveParams = .object(object)
        }
        do { return .success(try await client.call(method, effectiveParams, timeout: .seconds(30))) } catch {
            return .failure(error)
        }
    }

    package func setActionHandler(_ handler: @escaping @Sendable (JSON) async -> JSON) {
        lock.withLock { self.handler = handler }
    }
    package func drainNotifications() -> [(method: String, params: JSON)] {
        lock.withLock {
            defer { notifications = [] }
            return notifications
        }
    }
    package func close() async { await client.close() }
}
