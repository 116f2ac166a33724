/// Where a client connects: `unix:PATH`, a bare path (`/…` or `.…`), or `tcp:HOST:PORT`.
package enum RPCAddress: Equatable, Sendable {
    /// A Unix socket at the path.
    case unix(String)
    /// A TCP listener (loopback only on the server's side).
    case tcp(String, Int)

    /// Reads `address`; an error says which forms there are.
    package init(_ address: String) throws(RPCTransportError) {
        if address.hasPrefix("unix:") {
            self = .unix(String(address.dropFirst(5)))
        } else if address.hasPrefix("/") || address.hasPrefix(".") {
            self = .unix(address)
        } else if address.hasPrefix("tcp:") {
            let endpoint = try AXSocketPath.parseTCP(address)
            self = .tcp(endpoint.host, endpoint.port)
        } else {
            throw RPCTransportError("invalid address '\(address)' (expected unix:PATH or tcp:HOST:PORT)")
        }
    }

    /// Connects a blocking socket to `address` (a Unix socket's owner is checked first) for a client without NIO
    /// (`SyncRPCClient`, the provider library's connection); the error names the address and the system's reason.
    package static func connect(_ address: String) throws(RPCTransportError) -> Int32 {
        let target = try RPCAddress(address)
        if case .unix(let path) = target { try AXSocketPath.verifySocketOwner(path) }
        do throws(POSIX.ConnectError) {
            switch target {
            case .unix(let path): return try POSIX.connectUnix(path)
            case .tcp(let host, let port): return try POSIX.connectTCP(host: host, port: port)
            }
        } catch {
            throw RPCTransportError("cannot connect to '\(address)': \(error.message)")
        }
    }
}
