import AXJSON
import HashTreeCollections

/// The mirrored view hierarchy: a persistent map of views plus the ordered top-level windows.
/// Copies share structure, so a patch can be validated on a copy and dropped on error at O(changes) cost.
package struct ViewHierarchy: Sendable {
    package internal(set) var nodes: BoxedMap<ViewNode> = [:]
    package internal(set) var roots: [String] = []
    /// How many views could hide their siblings (`accessibilityViewIsModal`, or an alert by default); while it is
    /// zero the derivation skips the per-container modal scan.
    package internal(set) var modalCandidates = 0
    /// The container that lists each view id in its `accessibilityElements`: a view has one accessibility container
    /// (R32), so a second container listing the same view is refused (D-CONTAINER-1).
    package internal(set) var listedBy = ListingIndex()
    package init() {}

    @inline(__always) static func isModalCandidate(_ n: ViewNode) -> Bool {
        n.ax.viewIsModal ?? (n.kind == .alertController || n.kind == .actionSheet)
    }

    package subscript(id: String) -> ViewNode? { nodes[id] }
    package var count: Int { nodes.count }

    /// Depth of a node (a root has depth 1).
    package func depth(of id: String) -> Int {
        var d = 0
        var cur: String? = id
        while let c = cur {
            d += 1
            cur = nodes[c]?.parent
        }
        return d
    }

    package func isAncestor(_ a: String, of id: String) -> Bool {
        var cur = nodes[id]?.parent
        while let c = cur {
            if c == a { return true }
            cur = nodes[c]?.parent
        }
        return false
    }

    /// All ids of a subtree, pre-order.
    package func subtree(_ id: String) -> [String] {
        var out: [String] = []
        var stack = [id]
        while let c = stack.popLast() {
            out.append(c)
            if let n = nodes[c] { stack.append(contentsOf: n.children.reversed()) }
        }
        return out
    }

    func height(of id: String) -> Int {
        guard let n = nodes[id] else { return 0 }
        var h = 0
        for c in n.children { h = max(h, height(of: c)) }
        return h + 1
    }

    /// Decodes a nested view subtree straight into `out` (parent/children set), refusing duplicates: `seen`
    /// holds the ids of this subtree (with their parents, for the error message); `out` already holds the
    /// rest of the hierarchy. `baseDepth` is the depth of the future parent. Returns the subtree root's id.
    /// With `seen == nil` (a whole snapshot into an empty map), a duplicate is found by the insertion itself.
    static func decodeSubtree(
        _ json: JSON, parent: String?, baseDepth: Int, into out: inout BoxedMap<ViewNode>,
        seen: inout [String: String?]?, modal: inout Int,
        listed: inout ListingIndex
    ) throws(PatchError) -> String {
        var node: ViewNode
        let childrenJSON: JSON?
        do { (node, childrenJSON) = try ViewNode.decodeWithChildren(json) } catch {
            let kind: PatchError.Kind =
                (error.property == "frame" || error.property == "transform" || error.property == "bounds"
                    || error.property == "contentOffset" || error.property == "boundsOrigin"
                    || error.message.contains("finite"))
                ? .invalidGeometry : .invalidProperty
            throw PatchError(kind: kind, id: error.id, property: error.property, message: error.message)
        }
        let id = node.id
        if seen != nil {
            if let prev = seen?[id] { throw twice(id, prev, parent) }
            if out.contains(id) {
                throw PatchError(kind: .duplicateId, id: id, message: "id '\(id)' is already in the hierarchy")
            }
            seen?[id] = parent
        }
        guard baseDepth + 1 <= Limits.maxDepth else {
            throw PatchError(kind: .tooDeep, id: id, message: "hierarchy deeper than \(Limits.maxDepth) levels")
        }
        node.parent = parent
        // A snapshot counts the views decoded so far plus the ancestors still being decoded (`baseDepth`).
        guard (seen.map { $0.count + out.count } ?? out.count + baseDepth + 1) <= Limits.maxNodes else {
            throw PatchError(kind: .tooLarge, id: id, message: "hierarchy larger than \(Limits.maxNodes) views")
        }
        if let cj = childrenJSON, !cj.isNull {
            guard case .array(let kids) = cj else {
                throw PatchError(
                    kind: .invalidProperty, id: id, property: "children",
                    message: "'children' must be an array of views")
            }
            guard kids.count <= Limits.maxChildren else {
                throw PatchError(
                    kind: .tooLarge, id: id, property: "children", message: "more than \(Limits.maxChildren) children")
            }
            var childIDs: [String] = []
            childIDs.reserveCapacity(kids.count)
            for k in kids {
                childIDs.append(
                    try decodeSubtree(
                        k, parent: id, baseDepth: baseDepth + 1, into: &out, seen: &seen, modal: &modal,
                        listed: &listed))
            }
            node.children = childIDs
        }
        if isModalCandidate(node) { modal += 1 }
        if node.ax.elements != nil { try listed.claim(node) }
        if seen == nil {
            // Post-order insertion: a view listed twice (or inside itself) meets its earlier copy here.
            if let prev = out.insertBox(Box(node), for: id) { throw twice(id, prev.value.parent, parent) }
        } else {
            out.setBox(Box(node), for: id)
        }
        return id
    }

    private static func twice(_ id: String, _ first: String?, _ second: String?) -> PatchError {
        let where1 = first.map { "'\($0)'" } ?? "the top level"
        let where2 = second.map { "'\($0)'" } ?? "the top level"
        return PatchError(
            kind: .multipleParents, id: id, message: "view '\(id)' appears twice: under \(where1) and under \(where2)")
    }

    /// Builds a hierarchy from a snapshot: `{"windows": [view…]}` or a bare array of windows.
    package static func fromSnapshot(_ json: JSON) throws(PatchError) -> ViewHierarchy {
        let list: [JSON]
        switch json {
        case .array(let a): list = a
        case .object(let o):
            guard let w = o["windows"] ?? o["roots"] else {
                throw PatchError(
                    kind: .invalidSnapshot, op: "snapshot", message: "a snapshot needs 'windows': an array of views")
            }
            guard case .array(let a) = w else {
                throw PatchError(
                    kind: .invalidSnapshot, op: "snapshot", message: "'windows' must be an array, got \(w.typeName)")
            }
            list = a
        default:
            throw PatchError(
                kind: .invalidSnapshot, op: "snapshot",
                message: "a snapshot must be an object with 'windows', got \(json.typeName)")
        }
        var h = ViewHierarchy()
        var seen: [String: String?]? = nil
        var nodes = BoxedMap<ViewNode>()
        for w in list {
            do {
                let id = try decodeSubtree(
                    w, parent: nil, baseDepth: 0, into: &nodes, seen: &seen, modal: &h.modalCandidates,
                    listed: &h.listedBy)
                h.roots.append(id)
            } catch {
                var e = error
                e.op = "snapshot"
                throw e
            }
        }
        h.nodes = nodes
        return h
    }

    /// Applies ops in order on this copy, recording which views changed. Throws on the first invalid op.
    mutating func apply(_ ops: [PatchOp], dirty: inout Set<String>, removed: inout Set<String>, structural: inout Bool)
        throws(PatchError)
    {
        // A view may change containers within one patch in either order (drop it from one list, add it to the
        // other): which container lists a view is checked on the patch's final state (D-CONTAINER-1).
        listedBy.deferred = []
        for (i, op) in ops.enumerated() {
            listedBy.currentOp = i
            do {
                try apply(op, dirty: &dirty, removed: &removed, structural: &structural)
            } catch {
                var e = error
                e.opIndex = i
                e.op = op.name
                throw e
            }
        }
        let takeovers = listedBy.deferred ?? []
        listedBy.deferred = nil
        for t in takeovers {
            let newLists = lists(t.container, t.ref)
            let oldLists = lists(t.other, t.ref)
            if newLists && oldLists {
                var e = ListingIndex.conflict(ref: t.ref, container: t.container, other: t.other)
                e.opIndex = t.op
                e.op = ops[t.op].name
                throw e
            }
            listedBy.owner[t.ref] = newLists ? t.container : oldLists ? t.other : nil
        }
    }

    /// Whether view `container` lists view `ref` in its `accessibilityElements`.
    func lists(_ container: String, _ ref: String) -> Bool {
        guard let entries = nodes[container]?.ax.elements else { return false }
        return entries.contains { if case .view(let r) = $0 { return r == ref } else { return false } }
    }

    private mutating func insertID(_ id: String, parent: String?, index: Int?) throws(PatchError) {
        if let p = parent {
            guard var pn = nodes[p] else {
                throw PatchError(kind: .unknownId, id: p, message: "no view '\(p)' to insert into")
            }
            let i = index ?? pn.children.count
            guard i >= 0, i <= pn.children.count else {
                throw PatchError(
                    kind: .indexOutOfRange, id: p, message: "index \(i) out of range 0…\(pn.children.count) (A4)")
            }
            guard pn.children.count < Limits.maxChildren else {
                throw PatchError(kind: .tooLarge, id: p, message: "more than \(Limits.maxChildren) children")
            }
            pn.children.insert(id, at: i)
            nodes[p] = pn
        } else {
            let i = index ?? roots.count
            guard i >= 0, i <= roots.count else {
                throw PatchError(
                    kind: .indexOutOfRange, message: "index \(i) out of range 0…\(roots.count) for a top-level window")
            }
            roots.insert(id, at: i)
        }
    }

    private mutating func detach(_ id: String) {
        guard let n = nodes[id] else { return }
        if let p = n.parent, var pn = nodes[p] {
            pn.children.removeAll { $0 == id }
            nodes[p] = pn
        } else {
            roots.removeAll { $0 == id }
        }
    }

    private mutating func apply(
        _ op: PatchOp, dirty: inout Set<String>, removed: inout Set<String>, structural: inout Bool
    ) throws(PatchError) {
        switch op {
        case .insert(let parent, let index, let view):
            if let parent, nodes[parent] == nil {
                throw PatchError(kind: .unknownId, id: parent, message: "no view '\(parent)' to insert into")
            }
            let baseDepth = parent.map { depth(of: $0) } ?? 0
            var seen: [String: String?]? = [:]
            let rootID = try ViewHierarchy.decodeSubtree(
                view, parent: parent, baseDepth: baseDepth, into: &nodes, seen: &seen,
                modal: &modalCandidates, listed: &listedBy)
            for (nid, _) in seen ?? [:] { removed.remove(nid) }
            try insertID(rootID, parent: parent, index: index)
            dirty.insert(rootID)
            if let parent { dirty.insert(parent) }
            structural = true
        case .remove(let id):
            guard nodes[id] != nil else {
                throw PatchError(kind: .unknownId, id: id, message: "no view '\(id)' to remove")
            }
            if let p = nodes[id]?.parent { dirty.insert(p) }
            detach(id)
            for d in subtree(id) {
                if let b = nodes.box(d) {
                    if ViewHierarchy.isModalCandidate(b.value) { modalCandidates -= 1 }
                    listedBy.release(b.value)
                }
                nodes[d] = nil
                removed.insert(d)
                dirty.remove(d)
            }
            structural = true
        case .move(let id, let parent, let index):
            guard let n = nodes[id] else {
                throw PatchError(kind: .unknownId, id: id, message: "no view '\(id)' to move")
            }
            if let parent {
                guard nodes[parent] != nil else {
                    throw PatchError(kind: .unknownId, id: parent, message: "no view '\(parent)' to move into")
                }
                if parent == id || isAncestor(id, of: parent) {
                    throw PatchError(
                        kind: .cycle, id: id, message: "moving '\(id)' under '\(parent)' would make it its own ancestor"
                    )
                }
                guard depth(of: parent) + height(of: id) <= Limits.maxDepth else {
                    throw PatchError(
                        kind: .tooDeep, id: id,
                        message: "the move makes the hierarchy deeper than \(Limits.maxDepth) levels")
                }
            }
            if let old = n.parent { dirty.insert(old) }
            detach(id)
            var moved = n
            moved.parent = parent
            nodes[id] = moved
            try insertID(id, parent: parent, index: index)
            if let parent { dirty.insert(parent) }
            dirty.insert(id)
            structural = true
        case .set(let id, let props):
            guard var n = nodes[id] else {
                throw PatchError(kind: .unknownId, id: id, message: "no view '\(id)' to set properties on")
            }
            let wasModal = ViewHierarchy.isModalCandidate(n)
            let listsChange = props.keys.contains("accessibilityElements")
            if listsChange { listedBy.release(n) }
            for (k, v) in props {
                if k == "class" {
                    guard let cls = v.stringValue else {
                        throw PatchError(
                            kind: .invalidProperty, id: id, property: k, message: "'class' must be a string")
                    }
                    let replacement = ViewNode(id: id, className: cls, baseClass: n.baseClass)
                    n.className = cls
                    n.kind = replacement.kind
                    continue
                }
                do { try n.setProperty(k, v) } catch {
                    let geometry = [
                        "frame", "bounds", "boundsOrigin", "contentOffset", "transform", "accessibilityFrame",
                        "accessibilityActivationPoint",
                    ]
                    throw PatchError(
                        kind: geometry.contains(k) ? .invalidGeometry : .invalidProperty, id: id, property: k,
                        message: error.message)
                }
            }
            modalCandidates += (ViewHierarchy.isModalCandidate(n) ? 1 : 0) - (wasModal ? 1 : 0)
            if listsChange { try listedBy.claim(n) }
            nodes[id] = n
            dirty.insert(id)
        }
    }
}

/// Which container lists each view in its `accessibilityElements` (a view has one accessibility container: R32,
/// D-CONTAINER-1).
package struct ListingIndex: Sendable {
    /// View id → the container whose `accessibilityElements` names it.
    package internal(set) var owner: TreeDictionary<String, String> = [:]
    /// While a patch applies: claims that took a view over from another container, checked when the patch ends.
    var deferred: [(ref: String, container: String, other: String, op: Int)]?
    var currentOp = 0

    /// Records the views `container` lists; a view another container lists already is refused (in a snapshot)
    /// or left for the end of the patch (in a patch).
    mutating func claim(_ container: ViewNode) throws(PatchError) {
        guard let entries = container.ax.elements else { return }
        for case .view(let ref) in entries {
            if let other = owner[ref], other != container.id {
                guard deferred != nil else {
                    throw ListingIndex.conflict(ref: ref, container: container.id, other: other)
                }
                deferred?.append((ref, container.id, other, currentOp))
            }
            owner[ref] = container.id
        }
    }

    /// Forgets the views `container` lists.
    mutating func release(_ container: ViewNode) {
        guard let entries = container.ax.elements else { return }
        for case .view(let ref) in entries where owner[ref] == container.id { owner[ref] = nil }
    }

    static func conflict(ref: String, container: String, other: String) -> PatchError {
        PatchError(
            kind: .multipleParents, id: container, property: "accessibilityElements",
            message: "view '\(ref)' is already listed in the accessibilityElements of '\(other)': "
                + "a view has one accessibility container (R32, D-CONTAINER-1)")
    }
}
