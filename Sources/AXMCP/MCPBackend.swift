import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPCClient
import Synchronization

/// Where the tools' JSON-RPC calls go (Specs/protocol.md): the live server, or a test double in unit tests.
package protocol MCPBackend: Sendable {
    /// Calls `method` on the server. Task cancellation cancels the call (the server is told with `$/cancelRequest`).
    func call(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON
}

/// The running axserver over its Unix socket or loopback TCP: **one connection per MCP session**, however many
/// tool calls race (D-MCP-CONN-1). Calls share it, multiplexed by JSON-RPC id. It is opened by the first call
/// (calls arriving meanwhile wait for that one attempt instead of opening their own) and again by the next call
/// after it was lost (a server that died or restarted): the call that finds it gone fails with a typed error
/// (−32020 `disconnected`, or −32024 "no server"), the next one reconnects.
///
/// Calls in flight on the connection are bounded so the server never queues them behind each other: waits
/// (`wait.for`, which the server runs beside the connection's other requests up to its announced
/// `maxConcurrentRequests`) take one of `waitSlots`, every other call one of `callSlots`; the rest wait here, in
/// order, where cancelling them costs nothing.
package final class LiveBackend: MCPBackend {
    let address: String
    let token: String?
    let clientName: String

    /// Other calls on the server at once (the server runs them in order; more would only queue there).
    package static let callSlots = 64
    /// Waits on the server at once when it does not announce its limit.
    package static let defaultWaitSlots = 128
    /// Places kept free below the server's announced limit of concurrent requests per connection.
    static let waitSlotReserve = 16
    /// Methods the server runs beside the connection's other requests (D-PROTO-1).
    static let concurrentMethods: Set<String> = [RPCMethodName.waitFor.rawValue]

    private enum Link {
        case idle
        case connecting(Task<Result<RPCClient, RPCError>, Never>)
        case connected(RPCClient)
    }
    private let link = Mutex(Link.idle)
    private let opened = Atomic<Int>(0)
    let waits = CallGate(limit: LiveBackend.defaultWaitSlots)
    let calls = CallGate(limit: LiveBackend.callSlots)

    /// `address`: `unix:PATH`, an absolute path or `tcp:HOST:PORT`; `token`: the TCP token.
    package init(address: String, token: String?, clientName: String = "axquery mcp") {
        self.address = address
        self.token = token
        self.clientName = clientName
    }

    /// Connections opened so far (one per session unless the server went away in between).
    package var connectionsOpened: Int { opened.load(ordering: .relaxed) }

    /// Calls waiting here for a place on the connection, and calls on it now.
    package var queuedCalls: Int { waits.waiting + calls.waiting }
    package var callsInFlight: Int { waits.held + calls.held }

    /// The open connection; the first caller opens it, callers arriving meanwhile share that attempt.
    func connected() async throws(RPCError) -> RPCClient {
        enum Found {
            case ready(RPCClient)
            case attempt(Task<Result<RPCClient, RPCError>, Never>)
        }
        let found = link.withLock { current -> Found in
            switch current {
            case .connected(let client) where !client.isClosed:
                return .ready(client)
            case .connecting(let pending):
                return .attempt(pending)
            case .connected, .idle:
                let pending = Task { await self.open() }
                current = .connecting(pending)
                return .attempt(pending)
            }
        }
        switch found {
        case .ready(let client):
            return client
        case .attempt(let attempt):
            let result = await attempt.value
            link.withLock { current in
                guard case .connecting(let pending) = current, pending == attempt else { return }
                switch result {
                case .success(let client): current = .connected(client)
                case .failure: current = .idle
                }
            }
            return try result.get()
        }
    }

    /// Opens and initializes a connection (not cancelled with the caller that started it: others share it).
    private func open() async -> Result<RPCClient, RPCError> {
        let client: RPCClient
        do { client = try await RPCClient.connect(address) } catch {
            return .failure(
                RPCError.noServer(
                    address: address, reason: "\(error)",
                    hint: "start one with 'axserver serve', or give axquery mcp --socket PATH / --tcp HOST:PORT "
                        + "(an MCP host passes almost no environment: Specs/mcp.md §Host configuration)"))
        }
        opened.add(1, ordering: .relaxed)
        var params: RPCParams<RPCCatalog.Initialize.Param> = [
            .role: "automation", .clientInfo: ["name": .string(clientName)],
        ]
        if let token { params[.token] = .string(token) }
        do {
            let reply = try await client.call(
                RPCMethodName.initialize.rawValue, .object(params.object), timeout: .seconds(10))
            if let announced = reply["capabilities"]?["maxConcurrentRequests"]?.intValue, announced > 0 {
                waits.setLimit(max(1, announced - Self.waitSlotReserve))
            }
        } catch {
            await client.close()
            return .failure(error)
        }
        return .success(client)
    }

    package func call(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
        let gate = Self.concurrentMethods.contains(method) ? waits : calls
        // A call cancelled while it waits for a place never reaches the server.
        guard await gate.enter() else { throw RPCError.cancelled("request '\(method)' was cancelled") }
        defer { gate.leave() }
        let client = try await connected()
        do {
            return try await callRetryingBusy(client, method, params, timeout: timeout)
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

    /// Calls `method`; a wait the server refuses as busy (its slot of a call cancelled here is not free there yet)
    /// is tried again for up to `busyRetries` × 20 ms, unless the caller is cancelled meanwhile.
    private func callRetryingBusy(_ client: RPCClient, _ method: String, _ params: JSON?, timeout: Duration)
        async throws(RPCError) -> JSON
    {
        var attempt = 0
        while true {
            do {
                return try await client.call(method, params, timeout: timeout)
            } catch {
                guard error.code == RPCError.Code.busy, Self.concurrentMethods.contains(method),
                    attempt < Self.busyRetries
                else { throw error }
                attempt += 1
                do { try await Task.sleep(for: .milliseconds(20)) } catch {
                    throw RPCError.cancelled("request '\(method)' was cancelled")
                }
            }
        }
    }

    /// How often a wait refused as busy is tried again.
    static let busyRetries = 250

    /// Closes the connection.
    package func close() async {
        let client = link.withLock { current -> RPCClient? in
            defer { current = .idle }
            if case .connected(let client) = current { return client }
            return nil
        }
        await client?.close()
    }
}
