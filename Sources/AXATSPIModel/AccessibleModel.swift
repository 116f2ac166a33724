import AXCore

/// Answers of `org.a11y.atspi.Accessible` (and the Accessible properties) over a served snapshot.
package struct AccessibleModel {
    /// The snapshot answered from.
    package let snapshot: ServedSnapshot

    package init(snapshot: ServedSnapshot) { self.snapshot = snapshot }

    /// `Name`: the application's name for the root, the label for a node.
    package func name(of object: ServedObject) -> String {
        switch object {
        case .applicationRoot: return snapshot.applicationName
        case .node(let node): return node.label ?? ""
        }
    }

    /// `Description`: the value that no other interface carries (D-ATVALUE-1), then the hint, except when an
    /// alert's message is also its child label (Orca would speak it twice).
    package func description(of node: AXNode) -> String {
        let parentRole = node.parent.flatMap { snapshot.tree[$0]?.role }
        let value = ATSPIMapping.valueOnlyInDescription(node, parentRole: parentRole)
        var hint = node.hint
        if let text = hint, node.role == .alert, node.children.contains(where: { snapshot.tree[$0]?.label == text }) {
            hint = nil
        }
        switch (value, hint) {
        case (let value?, let hint?): return value + ", " + hint
        case (let value?, nil): return value
        case (nil, let hint?): return hint
        case (nil, nil): return ""
        }
    }

    /// `GetRole`.
    @inline(__always) package func role(of object: ServedObject) -> ATSPIRole {
        switch object {
        case .applicationRoot: return .application
        case .node(let node): return ATSPIMapping.role(node, context: snapshot.context(of: node))
        }
    }

    /// `GetState` (the application root has no states).
    @inline(__always) package func states(of object: ServedObject) -> ATSPIStateSet {
        switch object {
        case .applicationRoot: return ATSPIStateSet()
        case .node(let node):
            return ATSPIMapping.states(
                node, context: snapshot.context(of: node), focused: node.id == snapshot.focusedID)
        }
    }

    /// `GetInterfaces`.
    @inline(__always) package func interfaces(of object: ServedObject) -> ATSPIInterfaces {
        switch object {
        case .applicationRoot: return [.accessible, .application, .collection]
        case .node(let node): return ATSPIMapping.interfaces(node, context: snapshot.context(of: node))
        }
    }

    /// `GetAttributes`.
    package func attributes(of object: ServedObject) -> [(String, String)] {
        switch object {
        case .applicationRoot: return [("toolkit", ATSPIMapping.toolkitName)]
        case .node(let node):
            var attributes = ATSPIMapping.attributes(
                node, context: snapshot.context(of: node), rotors: snapshot.rotorNames(of: node))
            if node.positionInSet == nil, let (position, size) = snapshot.listPosition(of: node) {
                attributes.append(("posinset", String(position)))
                attributes.append(("setsize", String(size)))
            }
            return attributes
        }
    }

    /// `GetRelationSet`: (AtspiRelationType, targets) pairs from the core's relations over the served tree, so
    /// every target exists (D-REL-6); none for the application root. MEMBER_OF goes out last member first, the
    /// order GTK emits a radio group in: Orca 43 counts the position from the end of the list ("relations tend to
    /// be given in the reverse order", speech_generator.py `_generatePositionInGroup`), so the first segment is
    /// "1 of 3"; Orca 45 and later read the targets as a set and are indifferent to the order (D-SELECT-3).
    package func relations(of object: ServedObject) -> [(type: UInt32, targets: [String])] {
        guard case .node(let node) = object else { return [] }
        return Relations.relations(of: node.id, in: snapshot.tree).map { relation in
            let targets = relation.type == .memberOf ? Array(relation.targets.reversed()) : relation.targets
            return (ATSPIMapping.relationNumber(relation.type), targets)
        }
    }

    /// `GetChildren`: the windows for the application root.
    @inline(__always) package func children(of object: ServedObject) -> [String] {
        switch object {
        case .applicationRoot: return snapshot.tree.windows
        case .node(let node): return node.children
        }
    }

    /// `GetChildAtIndex`: nil (the null reference) past the end; negative indexes are the caller's error.
    package func child(of object: ServedObject, at index: Int32) -> String? {
        let children = children(of: object)
        guard index >= 0, Int(index) < children.count else { return nil }
        return children[Int(index)]
    }

    /// `Parent`: the desktop for the root, the application root for windows and orphans.
    package func parent(of object: ServedObject) -> ObjectReference {
        switch object {
        case .applicationRoot: return .desktop
        case .node(let node):
            if let parent = node.parent, snapshot.tree[parent] != nil { return .element(parent) }
            return .applicationRoot
        }
    }

    /// `GetIndexInParent`: -1 for the root and for nodes their parent does not list. Parents with more than 32
    /// children are indexed once per snapshot in `cache` (a dictionary instead of a linear search).
    package func indexInParent(of object: ServedObject, cache: inout SiblingIndexCache) -> Int32 {
        guard case .node(let node) = object else { return -1 }
        let siblings: [String]
        let key: String
        if let parent = node.parent, let parentNode = snapshot.tree[parent] {
            siblings = parentNode.children
            key = parent
        } else {
            siblings = snapshot.tree.windows
            key = ""
        }
        if siblings.count <= 32 {
            guard let index = siblings.firstIndex(of: node.id) else { return -1 }
            return Int32(index)
        }
        return cache.index(of: node.id, among: siblings, parentKey: key)
    }
}

/// Sibling positions of big parents, built on first use; valid for one served snapshot (reset on every swap).
package struct SiblingIndexCache {
    private var positions: [String: [String: Int32]] = [:]

    package init() {}

    /// Forgets every parent (the served tree changed).
    package mutating func reset() { positions = [:] }

    mutating func index(of id: String, among siblings: [String], parentKey: String) -> Int32 {
        if let known = positions[parentKey] { return known[id] ?? -1 }
        var table: [String: Int32] = [:]
        table.reserveCapacity(siblings.count)
        for (index, sibling) in siblings.enumerated() { table[sibling] = Int32(clamping: index) }
        positions[parentKey] = table
        return table[id] ?? -1
    }
}
