import AXJSON

/// A publisher that survives server restarts: when the connection closes it connects again (every `retry`,
/// for as long as it is not stopped), registers the app under the same name and publishes the last snapshot, so
/// the app is back on the new server without the app doing anything (issue 26: apps reconnect and re-publish).
/// Each reconnection registers the id the app last had and presents that registration's reclaim token, so the
/// app gets its id back even when the server has not yet seen its old connection close (D-REL-8).
///
/// ```swift
/// let app = try await ReconnectingPublisher.connect(name: "kitchen-panel") { call, publisher in … }
/// try await app.publish(snapshot())          // kept, and published again after every reconnection
/// ```
public actor ReconnectingPublisher {
    /// The app's name, as registered again after each reconnection.
    public let name: String
    let address: String
    let token: String?
    let retry: Duration
    let handler: @Sendable (ActionCall, Publisher) async throws -> Bool
    /// The current connection's publisher (nil while reconnecting).
    public private(set) var current: Publisher?
    /// How many times the app connected (1 after `connect`; +1 for every reconnection).
    public private(set) var connections = 0
    private var lastSnapshot: JSON?
    /// The id the app last registered under ("" before the first connection) and the token that reclaims it.
    public private(set) var appID = ""
    private var reclaimToken: String?
    private var stopped = false

    init(
        name: String, address: String, token: String?, retry: Duration,
        handler: @escaping @Sendable (ActionCall, Publisher) async throws -> Bool
    ) {
        self.name = name
        self.address = address
        self.token = token
        self.retry = retry
        self.handler = handler
    }

    /// Connects as `Publisher.connect(name:socket:token:handler:)` does (the first connection must succeed: its
    /// error is thrown), then keeps the app connected until `stop()`.
    public static func connect(
        name: String, socket: String? = nil, token: String? = nil, retry: Duration = .milliseconds(500),
        handler: @escaping @Sendable (ActionCall, Publisher) async throws -> Bool
    ) async throws -> ReconnectingPublisher {
        let app = ReconnectingPublisher(
            name: name, address: Publisher.defaultAddress(socket), token: token, retry: retry, handler: handler)
        try await app.connectOnce()
        return app
    }

    /// Publishes `snapshot` now (when connected) and keeps it for the next reconnection; returns the revision,
    /// or nil while reconnecting.
    @discardableResult
    public func publish(_ snapshot: JSON) async throws -> Int? {
        lastSnapshot = snapshot
        guard let current else { return nil }
        return try await current.publish(snapshot)
    }

    /// Stops reconnecting and closes the connection (the server removes the app).
    public func stop() async {
        stopped = true
        if let transport = current?.transport as? SocketProviderTransport { await transport.close() }
        current = nil
    }

    private func connectOnce() async throws {
        let publisher = try await Publisher.connect(
            name: appID.isEmpty ? name : appID, socket: address, token: token, reclaimToken: reclaimToken,
            handler: handler)
        current = publisher
        appID = await publisher.appID
        reclaimToken = await publisher.reclaimToken
        connections += 1
        if let lastSnapshot { _ = try await publisher.publish(lastSnapshot) }
        if let transport = publisher.transport as? SocketProviderTransport {
            transport.onClose { [weak self] in
                guard let self else { return }
                Task { await self.connectionClosed(publisher) }
            }
        }
    }

    private func connectionClosed(_ publisher: Publisher) async {
        guard current === publisher else { return }
        current = nil
        while !stopped {
            try? await Task.sleep(for: retry)
            if stopped { return }
            do {
                try await connectOnce()
                return
            } catch {
                continue
            }
        }
    }
}
