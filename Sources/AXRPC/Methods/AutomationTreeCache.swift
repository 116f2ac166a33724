import AXCore
import AXHub
import Synchronization

/// The automation view of each app's tree (D-AUTO-1: the derived tree plus its automation-only nodes), built once
/// per registration and revision (a revision names one tree of one registration; an app that registers again under
/// the same id starts at revision 0 with a new registration, D-REG-GEN-1): finding the nodes is one pass over the
/// tree, and every JSON-RPC call takes a snapshot.
final class AutomationTreeCache: Sendable {
    static let shared = AutomationTreeCache()

    private struct Entry {
        var app: String
        var registration: UInt64
        var revision: Int
        var augmented: AXTree
    }

    private let entries = Mutex<[Entry]>([])
    private let capacity = 8

    /// `snap.tree` with its automation-only nodes.
    func tree(of snap: AppSnapshot) -> AXTree {
        let hit = entries.withLock { cached -> AXTree? in
            guard
                let entry = cached.first(where: {
                    $0.registration == snap.registration && $0.revision == snap.revision
                })
            else { return nil }
            return entry.augmented
        }
        if let hit { return hit }
        let augmented = AutomationNodes.augment(snap.tree, views: snap.views)
        entries.withLock { cached in
            cached.removeAll { $0.app == snap.id }
            cached.insert(
                Entry(
                    app: snap.id, registration: snap.registration, revision: snap.revision, augmented: augmented),
                at: 0)
            if cached.count > capacity { cached.removeLast(cached.count - capacity) }
        }
        return augmented
    }
}
