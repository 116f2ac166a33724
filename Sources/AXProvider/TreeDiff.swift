import AXJSON

/// Diffs two hierarchy snapshots (`{"windows": [...]}`) into patch ops that turn the first into the second
/// (Specs/hierarchy.md §Patches). Ops are emitted so that every intermediate state is valid:
/// survivors that change parent are detached first, removed subtrees go next, then the new tree is laid out
/// top-down with inserts, moves and property sets.
public enum TreeDiff {
    struct Flat {
        var parent: String?
        var props: JSONObject
        var children: [String]
        var raw: JSON
    }

    static func flatten(_ snapshot: JSON) -> (nodes: [String: Flat], roots: [String]) {
        var nodes: [String: Flat] = [:]
        var roots: [String] = []
        func walk(_ v: JSON, parent: String?) -> String? {
            guard case .object(let o) = v, let id = o["id"]?.stringValue else { return nil }
            var props = JSONObject(minimumCapacity: o.count)
            for (k, val) in o where k != "id" && k != "children" { props.appendUnchecked(k, val) }
            var kids: [String] = []
            for c in o["children"]?.arrayValue ?? [] { if let cid = walk(c, parent: id) { kids.append(cid) } }
            nodes[id] = Flat(parent: parent, props: props, children: kids, raw: v)
            return id
        }
        let list = snapshot["windows"]?.arrayValue ?? snapshot.arrayValue ?? []
        for w in list { if let id = walk(w, parent: nil) { roots.append(id) } }
        return (nodes, roots)
    }

    /// The `hierarchy.update` ops that turn the `old` snapshot into the `new` one (empty when they are equal).
    public static func diff(from old: JSON, to new: JSON) -> [JSON] {
        let (a, aRoots) = flatten(old)
        let (b, bRoots) = flatten(new)
        var ops: [JSON] = []
        // 1. Survivors whose parent changes are detached to the top level first.
        var detached = Set<String>()
        var current: [String?: [String]] = [:]  // simulated children lists, key nil = roots
        current[nil] = aRoots
        for (id, n) in a { current[id] = n.children }
        func removeFromCurrent(_ id: String, parent: String?) {
            current[parent]?.removeAll { $0 == id }
        }
        for (id, nb) in b.sorted(by: { $0.key < $1.key }) {
            guard let na = a[id], na.parent != nb.parent else { continue }
            ops.append(["op": "move", "id": .string(id), "parent": .null])
            removeFromCurrent(id, parent: na.parent)
            current[nil, default: []].append(id)
            detached.insert(id)
        }
        // 2. Removed subtrees (topmost removed nodes only).
        for (id, na) in a.sorted(by: { $0.key < $1.key }) where b[id] == nil {
            if let p = na.parent, b[p] == nil, !detached.contains(id) { continue }  // removed with its parent
            ops.append(["op": "remove", "id": .string(id)])
            removeFromCurrent(id, parent: detached.contains(id) ? nil : na.parent)
        }
        // 3. Lay the new tree out top-down.
        func allNew(_ id: String) -> Bool {
            guard a[id] == nil, let n = b[id] else { return false }
            return n.children.allSatisfy(allNew)
        }
        func place(_ kids: [String], parent: String?) {
            for (i, id) in kids.enumerated() {
                guard let nb = b[id] else { continue }
                var list = current[parent] ?? []
                if let na = a[id] {
                    if !(i < list.count && list[i] == id) {
                        if let j = list.firstIndex(of: id) {
                            list.remove(at: j)
                        } else {
                            removeFromCurrent(id, parent: nil)
                        }  // it was detached to the top level
                        list.insert(id, at: min(i, list.count))
                        ops.append(["op": "move", "id": .string(id), "parent": JSON(parent), "index": JSON(i)])
                    }
                    current[parent] = list
                    var changed = JSONObject()
                    for (k, v) in nb.props where na.props[k] != v { changed.appendUnchecked(k, v) }
                    for (k, _) in na.props where nb.props[k] == nil { changed.appendUnchecked(k, .null) }
                    if !changed.isEmpty {
                        ops.append(["op": "set", "id": .string(id), "properties": .object(changed)])
                    }
                    place(nb.children, parent: id)
                } else if allNew(id) {
                    ops.append(["op": "insert", "parent": JSON(parent), "index": JSON(i), "view": nb.raw])
                    list.insert(id, at: min(i, list.count))
                    current[parent] = list
                } else {
                    var bare = nb.props
                    bare["id"] = .string(id)
                    ops.append(["op": "insert", "parent": JSON(parent), "index": JSON(i), "view": .object(bare)])
                    list.insert(id, at: min(i, list.count))
                    current[parent] = list
                    current[id] = []
                    place(nb.children, parent: id)
                }
            }
        }
        place(bRoots, parent: nil)
        return ops
    }
}
