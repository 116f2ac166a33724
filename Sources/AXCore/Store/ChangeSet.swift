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
        var history = MergeHistory()
        for set in sets {
            out.windowsChanged = out.windowsChanged || set.windowsChanged
            history.record(set)
        }
        for id in history.order {
            let existedBefore = history.life[id] == .existed
            let existsAfter = history.alive[id] ?? true
            switch (existedBefore, existsAfter) {
            case (false, true): out.added.append(id)
            case (true, false): out.removed.append(id)
            case (true, true): history.reportKept(id, final: final, into: &out)
            case (false, false): break
            }
        }
        return out
    }
}

/// What `ChangeSet.merged` learns of each node, change set by change set.
private struct MergeHistory {
    enum Life { case addedHere, existed }
    var life: [String: Life] = [:]
    var alive: [String: Bool] = [:]
    var order: [String] = []
    var moved = Set<String>()
    var wasRemoved = Set<String>()
    var beforeRemoval: [String: AXNode] = [:]
    var updated: [String: Set<String>] = [:]

    private mutating func touch(_ id: String, before: Life) {
        if life[id] == nil {
            life[id] = before
            order.append(id)
        }
    }

    mutating func record(_ set: ChangeSet) {
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

    /// A node there before and after the range: moved and updated; one that left the tree and came back is
    /// reported by what differs from its value before it left (D-LOG-1).
    func reportKept(_ id: String, final: ((String) -> AXNode?)?, into out: inout ChangeSet) {
        guard wasRemoved.contains(id) else {
            if moved.contains(id) { out.moved.append(id) }
            if let attributes = updated[id], !attributes.isEmpty { out.updated[id] = attributes }
            return
        }
        var attrs = updated[id] ?? []
        if let before = beforeRemoval[id], let after = final?(id) {
            attrs = changedAttributes(before, after)
            if before.parent != after.parent { out.moved.append(id) }
        } else {
            attrs.insert("replaced")
        }
        if !attrs.isEmpty { out.updated[id] = attrs }
    }
}

/// Attribute-level comparison of two versions of a node, for the change log and the bridge's events.
package func changedAttributes(_ old: AXNode, _ new: AXNode) -> Set<String> {
    var changed = Set<String>()
    insertChangedDescription(old, new, into: &changed)
    insertChangedPlace(old, new, into: &changed)
    insertChangedContent(old, new, into: &changed)
    if !hasSameOtherAttributes(old, new) { changed.insert("other") }
    return changed
}

/// What an element says: label, value, hint, identifier, placeholder, traits, role, states, language.
private func insertChangedDescription(_ old: AXNode, _ new: AXNode, into changed: inout Set<String>) {
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
    if old.language != new.language { changed.insert("language") }
}

/// Where an element is: frame, activation point, children, parent, position in its set, table, outline level.
private func insertChangedPlace(_ old: AXNode, _ new: AXNode, into changed: inout Set<String>) {
    if old.frame != new.frame { changed.insert("frame") }
    if old.activationPoint != new.activationPoint { changed.insert("activationPoint") }
    if old.children != new.children { changed.insert("children") }
    if old.parent != new.parent { changed.insert("parent") }
    if old.positionInSet != new.positionInSet || old.sizeOfSet != new.sizeOfSet { changed.insert("position") }
    if old.table != new.table || old.cell != new.cell { changed.insert("table") }
    if old.indentationLevel != new.indentationLevel { changed.insert("indentationLevel") }
    if old.isPagingEnabled != new.isPagingEnabled { changed.insert("isPagingEnabled") }
}

/// What an element offers: actions, rotors, numeric value, text, heading level.
private func insertChangedContent(_ old: AXNode, _ new: AXNode, into changed: inout Set<String>) {
    if old.customActions != new.customActions || old.actions != new.actions { changed.insert("actions") }
    if old.rotors != new.rotors { changed.insert("rotors") }
    if old.numeric != new.numeric { changed.insert("numeric") }
    if old.text != new.text { changed.insert("text") }
    if old.headingLevel != new.headingLevel { changed.insert("headingLevel") }
    changedTextContentAttributes(old, new, into: &changed)
}

/// The attributes reported together as "other".
private func hasSameOtherAttributes(_ old: AXNode, _ new: AXNode) -> Bool {
    old.containerType == new.containerType && old.navigationStyle == new.navigationStyle
        && old.textualContext == new.textualContext && old.userInputLabels == new.userInputLabels
        && old.restrictions == new.restrictions && old.focus == new.focus && old.className == new.className
        && old.isElement == new.isElement && old.actionTarget == new.actionTarget
        && old.directTouchOptions == new.directTouchOptions && old.ignoresInvertColors == new.ignoresInvertColors
        && old.automationElements == new.automationElements && old.largeContent == new.largeContent
        && old.dragDrop == new.dragDrop
}
