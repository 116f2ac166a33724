import AXJSON

/// One app's mirrored hierarchy: the views it pushed, the derived accessibility tree, the revision counter
/// and the change log. Not thread-safe by itself: the hub owns one per app and serializes access; readers take
/// `tree` / `views`, which are immutable snapshots.
package final class HierarchyStore {
    package private(set) var views = ViewHierarchy()
    package private(set) var tree = AXTree()
    package private(set) var revision = 0
    package var restrictions: [GuidedAccessRestriction] = []
    /// The last `isFocused` the app pushed (C35, C36): which view, true or false, at which revision. The hub's
    /// focus engine reads it after each commit; nothing is scanned when no op names `isFocused`.
    package private(set) var focusClaim: FocusClaim?
    private let deriver = Deriver()
    private var log: [ChangeSet] = []
    package let logCapacity: Int

    package init(logCapacity: Int = 4096) { self.logCapacity = logCapacity }

    /// Replaces the whole hierarchy with a snapshot. On error nothing changes.
    @discardableResult
    package func setSnapshot(_ json: JSON) throws(PatchError) -> ChangeSet {
        let hierarchy = try ViewHierarchy.fromSnapshot(json)
        if case .object(let object) = json, let restrictionsJSON = object["guidedAccessRestrictions"] {
            restrictions = try Self.decodeRestrictions(restrictionsJSON)
        }
        assert(hierarchy.roots.allSatisfy { hierarchy.nodes[$0]?.parent == nil }, "a snapshot root has a parent")
        views = hierarchy
        let claimed = hierarchy.nodes.keys.filter { hierarchy.nodes[$0]?.focus.isFocused == true }.min()
        let cs = commit(dirty: [], removed: [], full: true)
        focusClaim = claimed.map { FocusClaim(revision: revision, viewID: $0, isFocused: true) }
        return cs
    }

    /// Applies a patch atomically: every op is validated on a copy first; on the first error the tree is
    /// exactly as it was and the error names the op and the id.
    @discardableResult
    package func apply(_ ops: [PatchOp]) throws(PatchError) -> ChangeSet {
        var copy = views
        var dirty = Set<String>()
        var removed = Set<String>()
        var structural = false
        try copy.apply(ops, dirty: &dirty, removed: &removed, structural: &structural)
        assert(copy.isTree(around: dirty), "a patch left the views not a tree")
        views = copy
        let claim = FocusClaim.endState(of: ops, in: copy)
        let cs = commit(dirty: dirty, removed: removed, full: false)
        if var claim {
            claim.revision = revision
            focusClaim = claim
        }
        return cs
    }

    @discardableResult
    package func apply(json: JSON) throws(PatchError) -> ChangeSet {
        try apply(PatchOp.decodeList(json))
    }

    /// Re-derives everything from scratch (used by tests and benchmarks to compare with the incremental path).
    package func rebuild() -> AXTree {
        let (t, _) = deriver.derive(
            views: views, dirty: [], removed: [], full: true, previous: AXTree(), revision: revision)
        return t
    }

    private func commit(dirty: Set<String>, removed: Set<String>, full: Bool) -> ChangeSet {
        let previousRevision = revision
        revision += 1
        let (t, cs) = deriver.derive(
            views: views, dirty: dirty, removed: removed, full: full, previous: tree, revision: revision)
        assert(
            Self.committed(cs, tree: t, revision: revision, previousRevision: previousRevision),
            "revisions only grow: a commit moves the store, its tree and its change set to the next revision")
        tree = t
        log.append(cs)
        if log.count > logCapacity { log.removeFirst(log.count - logCapacity) }
        return cs
    }

    /// The net change between two revisions (`to` defaults to the current one).
    package func changes(from: Int, to: Int? = nil) throws(ChangeLogError) -> ChangeSet {
        let to = to ?? revision
        guard from >= 0, to <= revision, from <= to else {
            throw .outOfRange(from: from, to: to, current: revision)
        }
        if from == to { return ChangeSet(fromRevision: from, toRevision: to) }
        guard let oldest = log.first?.fromRevision, from >= oldest else {
            throw .tooOld(from: from, oldest: log.first?.fromRevision ?? revision)
        }
        let sets = log.filter { $0.fromRevision >= from && $0.toRevision <= to }
        let current = tree
        return ChangeSet.merged(sets, final: to == revision ? { current[$0] } : nil)
            ?? ChangeSet(fromRevision: from, toRevision: to)
    }

    static func decodeRestrictions(_ json: JSON) throws(PatchError) -> [GuidedAccessRestriction] {
        guard case .array(let elements) = json else {
            throw PatchError(
                kind: .invalidProperty, property: "guidedAccessRestrictions",
                message: "expected an array of {id, text, detailText}")
        }
        var out: [GuidedAccessRestriction] = []
        var seen = Set<String>()
        for (index, element) in elements.enumerated() {
            guard let id = element["id"]?.stringValue, !id.isEmpty else {
                throw PatchError(
                    kind: .invalidProperty, property: "guidedAccessRestrictions[\(index)]",
                    message: "a restriction needs a string 'id' (R78)")
            }
            guard seen.insert(id).inserted else {
                throw PatchError(
                    kind: .duplicateId, id: id, property: "guidedAccessRestrictions[\(index)]",
                    message: "restriction identifiers must be unique (X41)")
            }
            guard let text = element["text"]?.stringValue else {
                throw PatchError(
                    kind: .invalidProperty, id: id, property: "guidedAccessRestrictions[\(index)].text",
                    message: "a restriction needs its short 'text' (R84)")
            }
            out.append(GuidedAccessRestriction(id: id, text: text, detailText: element["detailText"]?.stringValue))
        }
        return out
    }

    package var cachedEntryCount: Int { deriver.cachedEntryCount }

    /// The revision at which an accessibility node was last removed, if the change log still covers it
    /// (stale-element detection: the id existed and is gone, as opposed to never having existed).
    package func removalRevision(of id: String) -> Int? {
        for changes in log.reversed() where changes.removed.contains(id) { return changes.toRevision }
        return nil
    }
}

/// One `isFocused` push from the app (C35, C36).
package struct FocusClaim: Sendable, Equatable {
    package var revision: Int
    package var viewID: String
    package var isFocused: Bool
    /// The views the push took focus away from (`isFocused: false` at the end of the patch, or removed by it): the
    /// engine's focus is cleared when it is on one of them and no view claims it (D-FOCUS-PATCH-1).
    package var resigned: Set<String> = []

    package init(revision: Int, viewID: String, isFocused: Bool, resigned: Set<String> = []) {
        self.revision = revision
        self.viewID = viewID
        self.isFocused = isFocused
        self.resigned = resigned
    }

    /// What a patch says about focus, read from its end state, not from its op order (D-FOCUS-PATCH-1): of the views
    /// whose `isFocused` the patch sets, the one still in the hierarchy with `isFocused == true` after every op is
    /// focused; when several are, the last one set wins, as the last `becomeFirstResponder` does in UIKit (one
    /// focused item per window, C1, R119). With none, the named views are resigned. The revision is the caller's.
    package static func endState(of ops: [PatchOp], in views: ViewHierarchy) -> FocusClaim? {
        var named: [String] = []
        for op in ops {
            if case .set(let id, let properties) = op, properties["isFocused"] != nil {
                named.removeAll { $0 == id }
                named.append(id)
            }
        }
        guard let last = named.last else { return nil }
        if let focused = named.last(where: { views[$0]?.focus.isFocused == true }) {
            return FocusClaim(revision: 0, viewID: focused, isFocused: true)
        }
        return FocusClaim(revision: 0, viewID: last, isFocused: false, resigned: Set(named))
    }
}

package enum ChangeLogError: Error, Sendable, Equatable, CustomStringConvertible {
    case outOfRange(from: Int, to: Int, current: Int)
    case tooOld(from: Int, oldest: Int)
    package var description: String {
        switch self {
        case .outOfRange(let from, let to, let current):
            return "revision range \(from)…\(to) is not within 0…\(current)"
        case .tooOld(let from, let oldest):
            return "revision \(from) is older than the change log (oldest kept: \(oldest)); fetch the whole tree"
        }
    }
}
