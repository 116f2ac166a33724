/// A reconnecting provider reclaims its app id (issue 19 item 7, D-REL-8). Every registration gets a reclaim
/// token, a random secret for the id it got. A provider that registers again presenting that token gets the id
/// back: an instance still holding it (the provider's own stale connection, not yet seen closed after a crash
/// or kill -9) is removed first. A token never takes an id from an app registered without it, so a provider that
/// took the name after the original left keeps it, and the original comes back suffixed as before.
extension Hub {
    /// The outcome of `registerApp(name:provider:reclaimToken:)`.
    package struct Registration: Sendable {
        /// The app id (the name, suffixed when it is taken).
        package var id: String
        /// The secret that reclaims `id` on the next registration.
        package var reclaimToken: String
        /// The provider of the stale instance removed to give the id back (its connection should be closed).
        package var replaced: (any ActionProvider)?
    }

    /// Most ids whose reclaim tokens are remembered after their app left.
    static let maxRememberedReclaimTokens = 4_096

    /// Registers an app as `registerApp(name:provider:)` does; with the token a previous registration of
    /// `name` got, the id `name` is given back (D-REL-8).
    package func registerApp(name: String, provider: (any ActionProvider)?, reclaimToken presented: String?)
        -> Registration
    {
        var replaced: (any ActionProvider)?
        if let presented, !presented.isEmpty {
            let stale: (any ActionProvider)?? = state.withLock { locked in
                guard let recorded = locked.reclaimTokens[name], Self.sameToken(recorded, presented) else { return nil }
                return .some(locked.apps[name]?.provider)
            }
            if case .some(let holder) = stale, let holder {
                removeApp(name, ifProvidedBy: holder)
                replaced = holder
            }
        }
        let id = registerApp(name: name, provider: provider)
        let token = Self.makeReclaimToken()
        state.withLock { locked in
            locked.reclaimTokens[id] = token
            if locked.reclaimTokens.count > Self.maxRememberedReclaimTokens {
                // Forget ids of apps that left first (any of them; a live app's token is always kept).
                for key in locked.reclaimTokens.keys where locked.apps[key] == nil {
                    locked.reclaimTokens[key] = nil
                    if locked.reclaimTokens.count <= Self.maxRememberedReclaimTokens { break }
                }
            }
        }
        return Registration(id: id, reclaimToken: token, replaced: replaced)
    }

    /// Removes app `id` only while `provider` still provides it (a stale connection closing late must not remove
    /// the instance that reclaimed its id).
    package func removeApp(_ id: String, ifProvidedBy provider: any ActionProvider) {
        let current = state.withLock { locked in locked.apps[id]?.provider }
        guard let current, current === provider else { return }
        removeApp(id)
    }

    static func makeReclaimToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
    }

    /// Compares in time independent of where the tokens differ.
    static func sameToken(_ left: String, _ right: String) -> Bool {
        let leftBytes = Array(left.utf8)
        let rightBytes = Array(right.utf8)
        guard leftBytes.count == rightBytes.count else { return false }
        var difference: UInt8 = 0
        for index in leftBytes.indices { difference |= leftBytes[index] ^ rightBytes[index] }
        return difference == 0
    }
}
