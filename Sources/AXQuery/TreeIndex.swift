import AXCore
import Synchronization

/// A flat, document-ordered view of one AXTree revision, built once and shared by every query on that tree.
///
/// Nodes are numbered in document order (`AXTree.walk` pre-order: windows back to front, children in reading
/// order), so a subtree is the contiguous range `i ..< end[i]`, and descendant searches are range scans.
package final class TreeIndex: Sendable {
    package let revision: Int
    package var count: Int { ids.count }
    /// The tree this index was built from (shares storage).
    let snapshot: AXTree
    /// Node ids in document order.
    let ids: [String]
    /// The nodes' boxes in document order (shared with the tree, never copied).
    let nodes: [Box<AXNode>]
    /// Positions whose box identity is compared to verify a cache hit.
    let samples: [Int]
    let parent: [Int32]
    /// One past the last node of the subtree.
    let end: [Int32]
    let depth: [Int32]
    let indexInParent: [Int32]
    let byID: [String: Int32]
    /// Whitespace-normalized identifier → nodes, in document order.
    let byIdentifier: [String: [Int32]]
    /// Per role (AXRole.allCases order), the nodes of that role in document order.
    let byRole: [[Int32]]

    static let roleOrdinal: [AXRole: Int] = Dictionary(
        uniqueKeysWithValues: AXRole.allCases.enumerated().map { ($1, $0) })

    package init(_ tree: AXTree) {
        revision = tree.revision
        snapshot = tree
        let nodeCount = tree.count
        var ids: [String] = []
        var nodes: [Box<AXNode>] = []
        var parent: [Int32] = []
        var depth: [Int32] = []
        var pos: [Int32] = []
        ids.reserveCapacity(nodeCount)
        nodes.reserveCapacity(nodeCount)
        parent.reserveCapacity(nodeCount)
        depth.reserveCapacity(nodeCount)
        pos.reserveCapacity(nodeCount)
        var byID: [String: Int32] = [:]
        byID.reserveCapacity(nodeCount)
        var byIdentifier: [String: [Int32]] = [:]
        var byRole = [[Int32]](repeating: [], count: AXRole.allCases.count)
        var stack: [(String, Int32, Int32, Int32)] = []  // id, depth, parent, position in parent
        for (positionInParent, windowID) in tree.windows.enumerated().reversed() {
            stack.append((windowID, 0, -1, Int32(positionInParent)))
        }
        while let (id, nodeDepth, parentPosition, positionInParent) = stack.popLast() {
            guard let box = tree.nodes.box(id), byID[id] == nil else { continue }
            let node = box.value
            let position = Int32(ids.count)
            byID[id] = position
            ids.append(id)
            nodes.append(box)
            parent.append(parentPosition)
            depth.append(nodeDepth)
            pos.append(positionInParent)
            // Keyed as `#x` matches (D-SEL-1): the accessibility identifier, else the element id.
            let identifierKey = node.identifier.flatMap { $0.isEmpty ? nil : $0 } ?? id
            byIdentifier[StringMatcher.normalize(identifierKey), default: []].append(position)
            byRole[TreeIndex.roleOrdinal[node.role]!].append(position)
            if node.role != .cell && TreeIndex.isCellBacked(node) {
                byRole[TreeIndex.roleOrdinal[.cell]!].append(position)
            }
            // Automation-only nodes (D-AUTO-1) follow the accessibility children; only augmented trees have them.
            if !node.automationElements.isEmpty {
                let automation = AutomationNodes.children(of: node, in: tree)
                for (offset, child) in automation.enumerated().reversed() {
                    stack.append((child, nodeDepth + 1, position, Int32(node.children.count + offset)))
                }
            }
            for (childPosition, child) in node.children.enumerated().reversed() {
                stack.append((child, nodeDepth + 1, position, Int32(childPosition)))
            }
        }
        var end = (0..<ids.count).map { Int32($0 + 1) }
        for position in stride(from: ids.count - 1, through: 0, by: -1) {
            let parentPosition = Int(parent[position])
            if parentPosition >= 0, end[position] > end[parentPosition] { end[parentPosition] = end[position] }
        }
        let stride = max(1, ids.count / 64)
        self.samples = Array(Swift.stride(from: 0, to: ids.count, by: stride)) + (ids.isEmpty ? [] : [ids.count - 1])
        self.ids = ids
        self.nodes = nodes
        self.parent = parent
        self.end = end
        self.depth = depth
        self.indexInParent = pos
        self.byID = byID
        self.byIdentifier = byIdentifier
        self.byRole = byRole
    }

    /// Whether this index was built from `tree`: same revision, windows and size, and the same node boxes at
    /// sampled positions (O(1); boxes are allocated per derivation, so another app's tree never shares them).
    func isIndex(of tree: AXTree) -> Bool {
        guard tree.revision == revision, tree.count == snapshot.count, tree.windows == snapshot.windows else {
            return false
        }
        for i in samples { guard tree.nodes.box(ids[i]) === nodes[i] else { return false } }
        return true
    }

    /// The next sibling in document order, or -1.
    @inline(__always) func nextSibling(_ position: Int) -> Int {
        let afterSubtree = Int(end[position])
        let parentPosition = Int(parent[position])
        if parentPosition >= 0 { return afterSubtree < Int(end[parentPosition]) ? afterSubtree : -1 }
        return afterSubtree < ids.count ? afterSubtree : -1
    }

    /// Document-order position of a node id.
    package func position(of id: String) -> Int? { byID[id].map(Int.init) }
}

/// Keeps the indexes of the most recently queried trees, keyed by revision and verified against the tree
/// (windows, size and sampled node identity), so trees of different apps with the same revision number do not
/// share an index. A server should still keep one cache per app (`QueryContext(…, cache:)`): within one app a
/// revision names exactly one tree.
package final class QueryIndexCache: Sendable {
    package static let shared = QueryIndexCache(capacity: 8)
    let capacity: Int
    private let entries = Mutex<[TreeIndex]>([])

    package init(capacity: Int = 8) { self.capacity = max(1, capacity) }

    package func index(for tree: AXTree) -> TreeIndex {
        if let hit = entries.withLock({ cached -> TreeIndex? in
            guard let hitIndex = cached.firstIndex(where: { $0.isIndex(of: tree) }) else { return nil }
            let entry = cached.remove(at: hitIndex)
            cached.insert(entry, at: 0)
            return entry
        }) {
            return hit
        }
        let built = TreeIndex(tree)
        entries.withLock { cached in
            cached.insert(built, at: 0)
            if cached.count > capacity { cached.removeLast(cached.count - capacity) }
        }
        return built
    }

    package func removeAll() { entries.withLock { $0.removeAll() } }
}

/// What a query runs against: one app's tree, its view hierarchy (for `:hittable`) and its focused element.
package struct QueryContext: Sendable {
    package var tree: AXTree
    package var views: ViewHierarchy
    /// The accessibility-focused element (`:focused`).
    package var focusedID: String?
    package var cache: QueryIndexCache
    /// Regex steps one evaluation may spend before it fails with "regex too expensive" (Specs/selectors.md
    /// §Regular expressions).
    package var regexSteps: Int = QueryContext.defaultRegexSteps
    /// The server's per-query regex budget: about a tenth of a second of matching in a release build (20,000,000
    /// steps measured at about 0.2 s).
    package static let defaultRegexSteps = 10_000_000

    package init(
        tree: AXTree, views: ViewHierarchy = ViewHierarchy(), focusedID: String? = nil, cache: QueryIndexCache = .shared
    ) {
        self.tree = tree
        self.views = views
        self.focusedID = focusedID
        self.cache = cache
    }

    /// The document-order index of `tree` (built on first use per revision, then cached).
    package var index: TreeIndex { cache.index(for: tree) }
}

extension TreeIndex {
    /// Whether a node is backed by a table or collection cell (whatever role its content gives it: a cell that
    /// holds one switch is presented as that switch, R-cell rules, but is still a cell to a test author).
    static func isCellBacked(_ node: AXNode) -> Bool {
        node.viewClass == .tableViewCell || node.viewClass == .collectionViewCell
    }

    /// The role test of selectors (D-SEL-3): the node's role, and `cell` also for every cell-backed element.
    static func hasRole(_ node: AXNode, _ role: AXRole) -> Bool {
        node.role == role || (role == .cell && isCellBacked(node))
    }
}
