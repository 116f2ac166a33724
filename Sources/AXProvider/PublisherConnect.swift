import AXJSON
import AXJSONRPC
import AXWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Publisher {
    /// Connects to the server the way `AXClient.connect()` does and registers the app in one step; the action
    /// handler gets the publisher, so it can publish the app's new state without a second set-up step:
    ///
    /// ```swift
    /// let publisher = try await Publisher.connect(name: "kitchen-panel") { call, publisher in
    ///     guard call.kind == .activate, call.target == "lights" else { return false }
    ///     lightsOn.toggle()
    ///     try await publisher.publish(snapshot())   // the new value, before the action is answered
    ///     return true
    /// }
    /// try await publisher.publish(snapshot())
    /// ```
    ///
    /// - Parameters:
    ///   - name: the app's name (the server may add `-2`… to make its id unique).
    ///   - socket: `unix:PATH`, a socket path, or `tcp:HOST:PORT`; nil means `$AXSERVER_SOCKET`, else the server's
    ///     default socket (`AXSocketPath.defaultPath()`).
    ///   - token: the TCP token.
    ///   - reclaimToken: the `reclaimToken` of a previous registration of the id `name`, to get that id back
    ///     (D-REL-8; `ReconnectingPublisher` passes it on every reconnection).
    ///   - handler: answers the server's `action.perform`: true when the app handled the action; throw
    ///     `ActionFailure` to answer with an error. It holds the publisher weakly (no reference cycle).
    /// - Throws: `RPCTransportError` naming the address and how to start a server when nothing answers there.
    public static func connect(
        name: String, socket: String? = nil, token: String? = nil, reclaimToken: String? = nil,
        handler: @escaping @Sendable (ActionCall, Publisher) async throws -> Bool
    ) async throws -> Publisher {
        let address = defaultAddress(socket)
        let transport: SocketProviderTransport
        do { transport = try await SocketProviderTransport(address: address, token: token) } catch let error
            as RPCTransportError
        {
            throw RPCTransportError(error.message + "; " + AXSocketPath.noServerHint)
        }
        let publisher = Publisher(transport: transport)
        try await publisher.register(name: name, reclaimToken: reclaimToken) { [weak publisher] call in
            guard let publisher else { return false }
            return try await handler(call, publisher)
        }
        return publisher
    }

    /// `socket` as an address (`unix:` added to a bare path); nil: `$AXSERVER_SOCKET`, else the default socket.
    static func defaultAddress(_ socket: String?) -> String {
        let environment = getenv("AXSERVER_SOCKET").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        let path = socket ?? environment ?? AXSocketPath.defaultPath()
        return path.hasPrefix("unix:") || path.hasPrefix("tcp:") ? path : "unix:" + path
    }
}
