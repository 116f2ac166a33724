/// What changed in the accessibility tree between two revisions (Specs/hierarchy.md §Revisions and the change log).
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
        for set in sets {
            out.windowsChanged = out.windowsChanged || set.windowsChanged
            for id in set.added {
                touch(id, before: .addedHere)
                alive[id] = true
            }
            for id in set.removed {
                touch(id, before: .existed)
                alive[id] = false
                wasRemoved.insert(id)
                if beforeRemoval[id] == nil, let node = set.removedNodes[id] { beforeRemoval[id] = node }
            }
            for id in set.moved {
                touch(id, before: .existed)
                moved.insert(id)
            }
            for (id, attrs) in set.updated {
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
                if let attributes = updated[id], !attributes.isEmpty { out.updated[id] = attributes }
            case (false, false): break
            }
        }
        return out
    }
}

/// Attribute-level comparison of two versions of a node, for the change log and the bridge's events.
package func changedAttributes(_ old: AXNode, _ new: AXNode) -> Set<String> {
    var changed = Set<String>()
    if old.label != new.label { changed.insert("label") }
    if old.value != new.value { changed.insert("value") }
    if old.hint != new.hint { changed.insert("hint") }
    if old.identifier != new.identifier { changed.insert("identifier") }
    if old.placeholder != new.placeholder { changed.insert("placeholder") }
    if old.traits != new.traits { changed.insert("traits") }
    if old.role != new.role { changed.insert("role") }
    if old.states != new.states {
        changed.insert("states")
        let diff = old.states.symmetricDifference(new.states)
        for (name, st) in AXStates.named where diff.contains(st) { changed.insert("state." + name) }
    }
    if old.frame != new.frame { changed.insert("frame") }
    if old.activationPoint != new.activationPoint { changed.insert("activationPoint") }
    if old.children != new.children { changed.insert("children") }
    if old.parent != new.parent { changed.insert("parent") }
    if old.language != new.language { changed.insert("language") }
    if old.customActions != new.customActions || old.actions != new.actions { changed.insert("actions") }
    if old.rotors != new.rotors { changed.insert("rotors") }
    if old.numeric != new.numeric { changed.insert("numeric") }
    if old.text != new.text { changed.insert("text") }
    if old.headingLevel != new.headingLevel { changed.insert("headingLevel") }
    if old.positionInSet != new.positionInSet || old.sizeOfSet != new.sizeOfSet { changed.insert("position") }
    if old.table != new.table || old.cell != new.cell { changed.insert("table") }
    if old.indentationLevel != new.indentationLevel { changed.insert("indentationLevel") }
    if old.isPagingEnabled != new.isPagingEnabled { changed.insert("isPagingEnabled") }
    if old.containerType != new.containerType || old.navigationStyle != new.navigationStyle
        || old.textualContext != new.textualContext
        || old.userInputLabels != new.userInputLabels || old.restrictions != new.restrictions || old.focus != new.focus
        || old.className != new.className || old.isElement != new.isElement || old.actionTarget != new.actionTarget
        || old.directTouchOptions != new.directTouchOptions || old.ignoresInvertColors != new.ignoresInvertColors
        || old.automationElements != new.automationElements || old.largeContent != new.largeContent
        || old.dragDrop != new.dragDrop
    {
        changed.insert("other")
    }
    return changed
}
