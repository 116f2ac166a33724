/// What changed in the accessibility tree between two revisions (Specs/hierarchy.md §Change log).
/// Ids are accessibility-node ids. `updated` names the attributes that changed per node.
package struct ChangeSet: Sendable, Equatable {
    package var fromRevision: Int
    package var toRevision: Int
    package var added: [String] = []
    package var removed: [String] = []
    /// Nodes whose parent changed.
    package var moved: [String] = []
    package var updated: [String: Set<String>] = [:]
    /// The list of top-level windows changed (order, membership).
    package var windowsChanged = false
    /// The last value of each removed node (lets a merged range compare a node that left and came back).
    package var removedNodes: [String: AXNode] = [:]

    package init(fromRevision: Int, toRevision: Int) {
        self.fromRevision = fromRevision
        self.toRevision = toRevision
    }
    package var isEmpty: Bool {
        added.isEmpty && removed.isEmpty && moved.isEmpty && updated.isEmpty && !windowsChanged
    }

    /// Merges consecutive change sets into the net change from the first's start to the last's end.
    /// `final` gives a node's value at the end of the range when known; a node that left the tree and came
    /// back is then reported by what differs between its value before it left and its final value (D-LOG-1).
    package static func merged(_ sets: [ChangeSet], final: ((String) -> AXNode?)? = nil) -> ChangeSet? {
        guard let first = sets.first, let last = sets.last else { return nil }
        var out = ChangeSet(fromRevision: first.fromRevision, toRevision: last.toRevision)
        defer { out.removedNodes = [:] }
        if sets.count == 1 {
            var one = first
            one.removedNodes = [:]
            return one
        }
        enum Life { case addedHere, existed }
        var life: [String: Life] = [:]
        var alive: [String: Bool] = [:]
        var order: [String] = []
        var moved = Set<String>()
        var wasRemoved = Set<String>()
        var beforeRemoval: [String: AXNode] = [:]
        var updated: [String: Set<String>] = [:]
        func touch(_ id: String, before: Life) {
            if life[id] == nil {
                life[id] = before
                order.append(id)
            }
        }
        for s in sets {
            out.windowsChanged = out.windowsChanged || s.windowsChanged
            for id in s.added {
                touch(id, before: .addedHere)
                alive[id] = true
            }
            for id in s.removed {
                touch(id, before: .existed)
                alive[id] = false
                wasRemoved.insert(id)
                if beforeRemoval[id] == nil, let n = s.removedNodes[id] { beforeRemoval[id] = n }
            }
            for id in s.moved {
                touch(id, before: .existed)
                moved.insert(id)
            }
            for (id, attrs) in s.updated {
                touch(id, before: .existed)
                updated[id, default: []].formUnion(attrs)
            }
        }
        for id in order {
            let existedBefore = life[id] == .existed
            let existsAfter = alive[id] ?? true
            switch (existedBefore, existsAfter) {
            case (false, true): out.added.append(id)
            case (true, false): out.removed.append(id)
            case (true, true):
                if wasRemoved.contains(id) {
                    // It left the tree and came back: report what differs from its value before it left.
                    var attrs = updated[id] ?? []
                    if let before = beforeRemoval[id], let after = final?(id) {
                        attrs = changedAttributes(before, after)
                        if before.parent != after.parent { out.moved.append(id) }
                    } else {
                        attrs.insert("replaced")
                    }
                    if !attrs.isEmpty { out.updated[id] = attrs }
                    continue
                }
                if moved.contains(id) { out.moved.append(id) }
                if let u = updated[id], !u.isEmpty { out.updated[id] = u }
            case (false, false): break
            }
        }
        return out
    }
}

/// Attribute-level comparison of two versions of a node, for the change log and the bridge's events.
package func changedAttributes(_ a: AXNode, _ b: AXNode) -> Set<String> {
    var s = Set<String>()
    if a.label != b.label { s.insert("label") }
    if a.value != b.value { s.insert("value") }
    if a.hint != b.hint { s.insert("hint") }
    if a.identifier != b.identifier { s.insert("identifier") }
    if a.placeholder != b.placeholder { s.insert("placeholder") }
    if a.traits != b.traits { s.insert("traits") }
    if a.role != b.role { s.insert("role") }
    if a.states != b.states {
        s.insert("states")
        let diff = a.states.symmetricDifference(b.states)
        for (name, st) in AXStates.named where diff.contains(st) { s.insert("state." + name) }
    }
    if a.frame != b.frame { s.insert("frame") }
    if a.activationPoint != b.activationPoint { s.insert("activationPoint") }
    if a.children != b.children { s.insert("children") }
    if a.parent != b.parent { s.insert("parent") }
    if a.language != b.language { s.insert("language") }
    if a.customActions != b.customActions || a.actions != b.actions { s.insert("actions") }
    if a.rotors != b.rotors { s.insert("rotors") }
    if a.numeric != b.numeric { s.insert("numeric") }
    if a.text != b.text { s.insert("text") }
    if a.headingLevel != b.headingLevel { s.insert("headingLevel") }
    if a.positionInSet != b.positionInSet || a.sizeOfSet != b.sizeOfSet { s.insert("position") }
    if a.table != b.table || a.cell != b.cell { s.insert("table") }
    if a.indentationLevel != b.indentationLevel { s.insert("indentationLevel") }
    if a.isPagingEnabled != b.isPagingEnabled { s.insert("isPagingEnabled") }
    if a.containerType != b.containerType || a.navigationStyle != b.navigationStyle
        || a.textualContext != b.textualContext
        || a.userInputLabels != b.userInputLabels || a.restrictions != b.restrictions || a.focus != b.focus
        || a.className != b.className || a.isElement != b.isElement || a.actionTarget != b.actionTarget
        || a.directTouchOptions != b.directTouchOptions || a.ignoresInvertColors != b.ignoresInvertColors
        || a.automationElements != b.automationElements
    {
        s.insert("other")
    }
    return s
}
