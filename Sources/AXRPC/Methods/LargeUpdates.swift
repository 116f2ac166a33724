import AXJSON

/// Where a `hierarchy.update` runs (issue 19 item 5, D-REL-5): a large one runs on the connection's lane (in
/// order with the connection's other requests), not on the event loop it shares with other connections.
enum LargeUpdates {
    /// Updates with more ops than this leave the transport's event loop.
    static let inlineOps = 256

    /// Whether `hierarchy.update` params carry more than `inlineOps` ops.
    @Sendable static func runsOffLoop(_ params: JSON?) -> Bool {
        guard case .array(let ops)? = params?["ops"] else { return false }
        return ops.count > inlineOps
    }
}
