import AXJSON
import AXRPC
import AXTransport
import Foundation

/// A black-box connection to a live server over its socket (`axserver conformance --socket PATH`).
package final class SocketConnection: ConformanceConnection, @unchecked Sendable {
    let client: RPCClient
    private let lock = NSLock()
    private var notifications: [(method: String, params: JSON)] = []
    private var handler: (@Sendable (JSON) async -> JSON)?

    init(client: RPCClient) { self.client = client }

    package static func connect(_ address: String, token: String?) async throws -> SocketConnection {
        let c = try await RPCClient.connect(address)
        let conn = SocketConnection(client: c)
        c.onNotification { [weak conn] m, p in conn?.lock.withLock { conn?.notifications.append((m, p ?? .null)) } }
        c.onRequest { [weak conn] method, params in
            guard method == "action.perform" else { throw RPCError.methodNotFound(method) }
            guard let h = conn?.lock.withLock({ conn?.handler }) else { return ["handled": false] }
            return await h(params ?? .null)
        }
        if let token {
            conn.tokenInit = ["token": .string(token)]
        }
        return conn
    }

    var tokenInit: JSONObject?

    package func call(_ method: String, _ params: JSON?) async -> Result<JSON, RPCError> {
        var p = params
        if method == "initialize", let t = tokenInit, case .object(var o)? = params {
            for (k, v) in t { o[k] = v }
            p = .object(o)
        }
        do { return .success(try await client.call(method, p, timeout: .seconds(30))) } catch { return .failure(error) }
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
