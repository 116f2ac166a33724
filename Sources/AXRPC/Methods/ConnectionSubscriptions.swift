import AXHub
import AXJSON
import AXJSONRPC

/// One connection's event subscriptions (issue 19 item 6, D-REL-6). A connection holds at most
/// `maxPerConnection` distinct subscriptions; subscribing again to exactly the same events of the same app joins
/// the live subscription (same id, one notification per event, counted holders) instead of adding another, so
/// one connection cannot make each event cost it thousands of notifications.
struct ConnectionSubscriptions: Sendable {
    /// The most distinct subscriptions one connection may hold.
    static let maxPerConnection = 64

    /// What makes two subscriptions identical.
    struct Key: Hashable, Sendable {
        var events: Set<String>
        var app: String?
    }

    private struct Entry: Sendable {
        var token: UInt64
        var key: Key
        var holders: Int
    }

    private var entries: [UInt64: Entry] = [:]
    private var idsByKey: [Key: UInt64] = [:]
    /// Whether the connection's close handler (unsubscribing everything left) is installed.
    var closeHandlerInstalled = false

    var count: Int { entries.count }

    /// Hub tokens of every live subscription (the connection closed).
    var tokens: [UInt64] { entries.values.map(\.token) }

    /// Joins the live subscription identical to `key`, returning its id, or nil when there is none.
    mutating func join(_ key: Key) -> UInt64? {
        guard let id = idsByKey[key] else { return nil }
        entries[id]?.holders += 1
        return id
    }

    mutating func add(id: UInt64, token: UInt64, key: Key) {
        entries[id] = Entry(token: token, key: key, holders: 1)
        idsByKey[key] = id
    }

    /// Leaves subscription `id`. `.notFound` when it is not live; `.left(token)` with the hub token to drop when
    /// its last holder left, `.left(nil)` while others still hold it.
    mutating func leave(_ id: UInt64) -> LeaveOutcome {
        guard var entry = entries[id] else { return .notFound }
        entry.holders -= 1
        if entry.holders > 0 {
            entries[id] = entry
            return .left(nil)
        }
        entries[id] = nil
        idsByKey[entry.key] = nil
        return .left(entry.token)
    }

    enum LeaveOutcome: Sendable, Equatable {
        case notFound
        case left(UInt64?)
    }

    /// The typed error for a subscribe beyond the cap.
    static func capReached(active: Int) -> RPCError {
        RPCError.invalidParams(
            "events.subscribe: this connection already holds \(active) subscriptions, the cap per connection "
                + "(\(maxPerConnection)); unsubscribe one (events.unsubscribe) or subscribe once to several events",
            data: ["reason": "subscription limit", "limit": JSON(maxPerConnection), "active": JSON(active)])
    }
}
