import AXJSON
import AXJSONRPC
import AXRPCClient
import Synchronization

/// Where the tools' JSON-RPC calls go (Specs/protocol.md): the live server, or a test double in unit tests.
package protocol MCPBackend: Sendable {
    /// Calls `method` on the server. Task cancellation cancels the call (the server is told with `$/cancelRequest`).
    func call(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON
}

/// The running axserver over its Unix socket or loopback TCP, connected on first use and again on the next call
/// after the connection was lost (a server that died or restarted): the call that finds it gone fails with a
/// typed error (−32020 `disconnected`, or −32024 "no server"), the next one reconnects.
package final class LiveBackend: MCPBackend {
    let address: String
    let token: String?
    let clientName: String
    private let connection = Mutex<RPCClient?>(nil)

    /// `address`: `unix:PATH`, an absolute path or `tcp:HOST:PORT`; `token`: the TCP token.
    package init(address: String, token: String?, clientName: String = "axquery mcp") {
        self.address = address
        self.token = token
        self.clientName = clientName
    }

    func connected() async throws(RPCError) -> RPCClient {
        if let client = connection.withLock({ $0 }), !client.isClosed { return client }
        let client: RPCClient
        do { client = try await RPCClient.connect(address) } catch {
            throw RPCError.noServer(
                address: address, reason: "\(error)",
                hint: "start one with 'axserver serve', or give axquery mcp --socket PATH / --tcp HOST:PORT "
                    + "(an MCP host passes almost no environment: Specs/mcp.md §Host configuration)")
        }
        var params: JSONObject = ["role": "automation", "clientInfo": ["name": .string(clientName)]]
        if let token { params["token"] = .string(token) }
        do { _ = try await client.call("initialize", .object(params), timeout: .seconds(10)) } catch {
            await client.close()
            throw error
        }
        // Two calls may have connected at once: the first connection stored wins, the other is closed.
        let chosen = connection.withLock { slot -> RPCClient in
            if let current = slot, !current.isClosed { return current }
            slot = client
            return client
        }
        if chosen !== client { await client.close() }
        return chosen
    }

    package func call(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
        let client = try await connected()
        do {
            return try await client.call(method, params, timeout: timeout)
        } catch {
            if error.code == RPCError.Code.appNotResponding, client.isClosed {
                var data = error.data?.objectValue ?? [:]
                data["reason"] = "disconnected"
                data["hint"] = "the server closed the connection (it stopped or restarted); the next call reconnects"
                throw RPCError(
                    code: error.code, message: "lost the server connection during \(method)", data: .object(data))
            }
            throw error
        }
    }

    /// Closes the connection.
    package func close() async {
        let client = connection.withLock { slot in
            defer { slot = nil }
            return slot
        }
        await client?.close()
    }
}
