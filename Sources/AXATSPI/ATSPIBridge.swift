import AXHub
import Logging

/// The AT-SPI2 bridge (under construction: the D-Bus side is being written). Until then it reports that it
/// did not start, so `axserver` says so and keeps serving JSON-RPC.
public final class ATSPIBridge: Sendable {
    let hub: Hub
    let logger: Logger
    public init(hub: Hub, logger: Logger) { self.hub = hub; self.logger = logger }
    /// Connects to the accessibility bus; false when there is none.
    public func start() throws -> Bool { false }
    public func waitUntilRegistered(timeout: Duration) async -> Bool { false }
    public var status: String { "off" }
    public func stop() {}
}
