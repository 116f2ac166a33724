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
        func walk(_ json: JSON, parent: String?) -> String? {
            guard case .object(let object) = json, let id = object["id"]?.stringValue else { return nil }
            var props = JSONObject(minimumCapacity: object.count)
            for (key, value) in object where key != "id" && key != "children" { props.appendUnchecked(key, value) }
            var kids: [String] = []
            for child in object["children"]?.arrayValue ?? [] {
                if let cid = walk(child, parent: id) { kids.append(cid) }
            }
            nodes[id] = Flat(parent: parent, props: props, children: kids, raw: json)
            return id
        }
        let list = snapshot["windows"]?.arrayValue ?? snapshot.arrayValue ?? []
        for window in list { if let id = walk(window, parent: nil) { roots.append(id) } }
        return (nodes, roots)
    }

    /// The `hierarchy.update` ops that turn the `old` snapshot into the `new` one (empty when they are equal).
    public static func diff(from old: JSON, to new: JSON) -> [JSON] {
        let (oldNodes, oldRoots) = flatten(old)
        let (newNodes, newRoots) = flatten(new)
        var ops: [JSON] = []
        // 1. Survivors whose parent changes are detached to the top level first.
        var detached = Set<String>()
        var current: [String?: [String]] = [:]  // simulated children lists, key nil = roots
        current[nil] = oldRoots
        for (id, node) in oldNodes { current[id] = node.children }
        func removeFromCurrent(_ id: String, parent: String?) {
            current[parent]?.removeAll { $0 == id }
        }
        for (id, newNode) in newNodes.sorted(by: { $0.key < $1.key }) {
            guard let oldNode = oldNodes[id], oldNode.parent != newNode.parent else { continue }
            ops.append(["op": "move", "id": .string(id), "parent": .null])
            removeFromCurrent(id, parent: oldNode.parent)
            current[nil, default: []].append(id)
            detached.insert(id)
        }
        // 2. Removed subtrees (topmost removed nodes only).
        for (id, oldNode) in oldNodes.sorted(by: { $0.key < $1.key }) where newNodes[id] == nil {
            // Removed together with its parent.
            if let oldParent = oldNode.parent, newNodes[oldParent] == nil, !detached.contains(id) { continue }
            ops.append(["op": "remove", "id": .string(id)])
            removeFromCurrent(id, parent: detached.contains(id) ? nil : oldNode.parent)
        }
        // 3. Lay the new tree out top-down.
        func allNew(_ id: String) -> Bool {
            guard oldNodes[id] == nil, let node = newNodes[id] else { return false }
            return node.children.allSatisfy(allNew)
        }
        func place(_ kids: [String], parent: String?) {
            for (i, id) in kids.enumerated() {
                guard let newNode = newNodes[id] else { continue }
                var list = current[parent] ?? []
                if let oldNode = oldNodes[id] {
                    if !(i < list.count && list[i] == id) {
                        if let index = list.firstIndex(of: id) {
                            list.remove(at: index)
                        } else {
                            removeFromCurrent(id, parent: nil)
                        }  // it was detached to the top level
                        list.insert(id, at: min(i, list.count))
                        ops.append(["op": "move", "id": .string(id), "parent": JSON(parent), "index": JSON(i)])
                    }
                    current[parent] = list
                    var changed = JSONObject()
                    for (key, value) in newNode.props where oldNode.props[key] != value {
                        changed.appendUnchecked(key, value)
                    }
                    for (key, _) in oldNode.props where newNode.props[key] == nil {
                        changed.appendUnchecked(key, .null)
                    }
                    if !changed.isEmpty {
                        ops.append(["op": "set", "id": .string(id), "properties": .object(changed)])
                    }
                    place(newNode.children, parent: id)
                } else if allNew(id) {
                    ops.append(["op": "insert", "parent": JSON(parent), "index": JSON(i), "view": newNode.raw])
                    list.insert(id, at: min(i, list.count))
                    current[parent] = list
                } else {
                    var bare = newNode.props
                    bare["id"] = .string(id)
                    ops.append(["op": "insert", "parent": JSON(parent), "index": JSON(i), "view": .object(bare)])
                    list.insert(id, at: min(i, list.count))
                    current[parent] = list
                    current[id] = []
                    place(newNode.children, parent: id)
                }
            }
        }
        place(newRoots, parent: nil)
        return ops
    }
}
