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

    @inline(__always) static func isModalCandidate(_ view: ViewNode) -> Bool {
        view.ax.viewIsModal ?? (view.kind == .alertController || view.kind == .actionSheet)
    }

    package subscript(id: String) -> ViewNode? { nodes[id] }
    package var count: Int { nodes.count }

    /// Depth of a node (a root has depth 1).
    package func depth(of id: String) -> Int {
        var depth = 0
        var current: String? = id
        while let ancestor = current {
            depth += 1
            current = nodes[ancestor]?.parent
        }
        return depth
    }

    package func isAncestor(_ ancestorID: String, of id: String) -> Bool {
        var candidate = nodes[id]?.parent
        while let parent = candidate {
            if parent == ancestorID { return true }
            candidate = nodes[parent]?.parent
        }
        return false
    }

    /// All ids of a subtree, pre-order.
    package func subtree(_ id: String) -> [String] {
        var out: [String] = []
        var stack = [id]
        while let viewID = stack.popLast() {
            out.append(viewID)
            if let view = nodes[viewID] { stack.append(contentsOf: view.children.reversed()) }
        }
        return out
    }

    func height(of id: String) -> Int {
        guard let view = nodes[id] else { return 0 }
        var tallestChild = 0
        for child in view.children { tallestChild = max(tallestChild, height(of: child)) }
        return tallestChild + 1
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
            throw decodingError(error)
        }
        let id = node.id
        if seen != nil {
            if let previousParent = seen?[id] { throw twice(id, previousParent, parent) }
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
        if let children = try childList(childrenJSON, of: id) {
            var childIDs: [String] = []
            childIDs.reserveCapacity(children.count)
            for child in children {
                childIDs.append(
                    try decodeSubtree(
                        child, parent: id, baseDepth: baseDepth + 1, into: &out, seen: &seen, modal: &modal,
                        listed: &listed))
            }
            node.children = childIDs
        }
        if isModalCandidate(node) { modal += 1 }
        if node.ax.elements != nil { try listed.claim(node) }
        if seen == nil {
            // Post-order insertion: a view listed twice (or inside itself) meets its earlier copy here.
            if let previousParent = out.insertBox(Box(node), for: id) {
                throw twice(id, previousParent.value.parent, parent)
            }
        } else {
            out.setBox(Box(node), for: id)
        }
        return id
    }

    /// A view that did not decode: a geometry error or an invalid property.
    private static func decodingError(_ error: SchemaError) -> PatchError {
        let geometry = ["frame", "transform", "bounds", "contentOffset", "boundsOrigin"]
        let isGeometry = error.property.map { geometry.contains($0) } ?? false || error.message.contains("finite")
        return PatchError(
            kind: isGeometry ? .invalidGeometry : .invalidProperty, id: error.id, property: error.property,
            message: error.message)
    }

    /// A view's `children`: nil when absent or null, else an array of at most `Limits.maxChildren` views.
    @inline(__always)
    private static func childList(_ childrenJSON: JSON?, of id: String) throws(PatchError) -> [JSON]? {
        guard let childrenValue = childrenJSON, !childrenValue.isNull else { return nil }
        guard case .array(let children) = childrenValue else {
            throw PatchError(
                kind: .invalidProperty, id: id, property: "children", message: "'children' must be an array of views")
        }
        guard children.count <= Limits.maxChildren else {
            throw PatchError(
                kind: .tooLarge, id: id, property: "children", message: "more than \(Limits.maxChildren) children")
        }
        return children
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
        case .array(let elements): list = elements
        case .object(let object):
            guard let window = object["windows"] ?? object["roots"] else {
                throw PatchError(
                    kind: .invalidSnapshot, op: "snapshot", message: "a snapshot needs 'windows': an array of views")
            }
            guard case .array(let elements) = window else {
                throw PatchError(
                    kind: .invalidSnapshot, op: "snapshot",
                    message: "'windows' must be an array, got \(window.typeName)")
            }
            list = elements
        default:
            throw PatchError(
                kind: .invalidSnapshot, op: "snapshot",
                message: "a snapshot must be an object with 'windows', got \(json.typeName)")
        }
        var hierarchy = ViewHierarchy()
        var seen: [String: String?]? = nil
        var nodes = BoxedMap<ViewNode>()
        for window in list {
            do {
                let id = try decodeSubtree(
                    window, parent: nil, baseDepth: 0, into: &nodes, seen: &seen, modal: &hierarchy.modalCandidates,
                    listed: &hierarchy.listedBy)
                hierarchy.roots.append(id)
            } catch {
                var snapshotError = error
                snapshotError.op = "snapshot"
                throw snapshotError
            }
        }
        hierarchy.nodes = nodes
        for root in hierarchy.roots {
            for id in hierarchy.subtree(root) {
                do { try hierarchy.checkDescriptorViews(of: id) } catch {
                    var snapshotError = error
                    snapshotError.op = "snapshot"
                    throw snapshotError
                }
            }
        }
        return hierarchy
    }

    /// D-DRAG-2: a location descriptor that names a view (`view`) must name one in the hierarchy when it is set
    /// (in a snapshot, an inserted subtree or a `set`); refused as `unknownId` naming the property and the missing
    /// id. A view that leaves later keeps its descriptor, listed without a point (R55).
    /// The virtual elements the view lists in `accessibilityElements` carry descriptors too (D-DRAG-1).
    func checkDescriptorViews(of id: String) throws(PatchError) {
        guard let ax = nodes[id]?.ax else { return }
        try checkDescriptorViews(ax.dragDrop, view: id, element: nil)
        for case .virtual(let element) in ax.elements ?? [] {
            try checkDescriptorViews(element.ax.dragDrop, view: id, element: element.id)
        }
    }

    private func checkDescriptorViews(_ dragDrop: DragDropDescriptors, view id: String, element: String?)
        throws(PatchError)
    {
        guard !dragDrop.isUnset else { return }
        let lists: [(AccessibilityPropertyKey.DragDrop, [LocationDescriptor]?)] = [
            (.accessibilityDragSourceDescriptors, dragDrop.dragSources),
            (.accessibilityDropPointDescriptors, dragDrop.dropPoints),
        ]
        for (property, descriptors) in lists {
            for (index, descriptor) in (descriptors ?? []).enumerated() {
                guard let viewID = descriptor.view, nodes[viewID] == nil else { continue }
                let owner = element.map { "virtual element '\($0)': " } ?? ""
                throw PatchError(
                    kind: .unknownId, id: id, property: element == nil ? property.rawValue : "accessibilityElements",
                    message: "\(owner)\(property.rawValue)[\(index)] '\(descriptor.name)' names view '\(viewID)', "
                        + "which is not in the hierarchy: add the view first or leave 'view' out (the listing view)")
            }
        }
    }

    /// The views whose descriptors op `op` set: the view of a `set` of a descriptor property, every view of an
    /// inserted subtree.
    private func descriptorViewsSet(by op: PatchOp) -> [String] {
        switch op {
        case .set(let id, let properties):
            let keys = [
                AccessibilityPropertyKey.DragDrop.accessibilityDragSourceDescriptors.rawValue,
                AccessibilityPropertyKey.DragDrop.accessibilityDropPointDescriptors.rawValue,
                AccessibilityPropertyKey.Container.accessibilityElements.rawValue,
            ]
            return keys.contains(where: { properties[$0] != nil }) ? [id] : []
        case .insert(_, _, let view):
            guard let rootID = view.objectValue?["id"]?.stringValue, nodes[rootID] != nil else { return [] }
            return subtree(rootID)
        case .remove, .move, .splice:
            return []
        }
    }

    /// Applies ops in order on this copy, recording which views changed. Throws on the first invalid op.
    mutating func apply(_ ops: [PatchOp], dirty: inout Set<String>, removed: inout Set<String>, structural: inout Bool)
        throws(PatchError)
    {
        // A view may change containers within one patch in either order (drop it from one list, add it to the
        // other): which container lists a view is checked on the patch's final state (D-CONTAINER-1).
        listedBy.deferred = []
        var descriptorChecks: [(id: String, op: Int)] = []
        var detaching = Detaching()
        for (index, op) in ops.enumerated() {
            listedBy.currentOp = index
            do {
                if case .remove(let id) = op {
                    try applyRemove(id, dirty: &dirty, removed: &removed, detaching: &detaching)
                    structural = true
                } else {
                    detachAll(&detaching)  // every other op sees the child lists as the removals left them
                    try apply(op, dirty: &dirty, removed: &removed, structural: &structural)
                }
            } catch {
                var patchError = error
                patchError.opIndex = index
                patchError.op = op.name
                throw patchError
            }
            for id in descriptorViewsSet(by: op) { descriptorChecks.append((id, index)) }
        }
        detachAll(&detaching)
        // On the patch's final state, so a descriptor may name a view the same patch inserts later.
        for check in descriptorChecks {
            do { try checkDescriptorViews(of: check.id) } catch {
                var patchError = error
                patchError.opIndex = check.op
                patchError.op = ops[check.op].name
                throw patchError
            }
        }
        let takeovers = listedBy.deferred ?? []
        listedBy.deferred = nil
        for takeover in takeovers {
            let newLists = lists(takeover.container, takeover.ref)
            let oldLists = lists(takeover.other, takeover.ref)
            if newLists && oldLists {
                var patchError = ListingIndex.conflict(
                    ref: takeover.ref, container: takeover.container, other: takeover.other)
                patchError.opIndex = takeover.op
                patchError.op = ops[takeover.op].name
                throw patchError
            }
            listedBy.owner[takeover.ref] = newLists ? takeover.container : oldLists ? takeover.other : nil
        }
    }

    /// Whether view `container` lists view `ref` in its `accessibilityElements`.
    func lists(_ container: String, _ ref: String) -> Bool {
        guard let entries = nodes[container]?.ax.elements else { return false }
        return entries.contains { if case .view(let listed) = $0 { return listed == ref } else { return false } }
    }

    private mutating func insertID(_ id: String, parent: String?, index: Int?) throws(PatchError) {
        if let parentID = parent {
            // Taken out of the map so its child list is uniquely referenced and grows in place: an insert costs
            // O(1) amortized, not a copy of every child already there (issue 19 item 5, D-REL-5).
            guard var parentView = nodes.removeValue(forKey: parentID) else {
                throw PatchError(kind: .unknownId, id: parentID, message: "no view '\(parentID)' to insert into")
            }
            defer { nodes[parentID] = parentView }
            let position = index ?? parentView.children.count
            guard position >= 0, position <= parentView.children.count else {
                throw PatchError(
                    kind: .indexOutOfRange, id: parentID,
                    message: "index \(position) out of range 0…\(parentView.children.count) (A4)")
            }
            guard parentView.children.count < Limits.maxChildren else {
                throw PatchError(kind: .tooLarge, id: parentID, message: "more than \(Limits.maxChildren) children")
            }
            parentView.children.insert(id, at: position)
        } else {
            let position = index ?? roots.count
            guard position >= 0, position <= roots.count else {
                throw PatchError(
                    kind: .indexOutOfRange,
                    message: "index \(position) out of range 0…\(roots.count) for a top-level window")
            }
            roots.insert(id, at: position)
        }
    }

    private mutating func detach(_ id: String) {
        guard let view = nodes[id] else { return }
        if let parentID = view.parent, var parentView = nodes.removeValue(forKey: parentID) {
            // Taken out of the map, as in `attach`: the child list is uniquely referenced and changes in place.
            // Read in place, every removal copied the whole list (20,000 children: a patch of 10,000 removals
            // held the hub for seconds, issue 34), and one removal is one search and one shift.
            if let position = parentView.children.firstIndex(of: id) { parentView.children.remove(at: position) }
            nodes[parentID] = parentView
        } else {
            roots.removeAll { $0 == id }
        }
    }

    /// One patch operation: one small function per kind.
    private mutating func apply(
        _ op: PatchOp, dirty: inout Set<String>, removed: inout Set<String>, structural: inout Bool
    ) throws(PatchError) {
        switch op {
        case .insert(let parent, let index, let view):
            try applyInsert(view, parent: parent, index: index, dirty: &dirty, removed: &removed)
            structural = true
        case .remove(let id):
            var detaching = Detaching()
            try applyRemove(id, dirty: &dirty, removed: &removed, detaching: &detaching)
            detachAll(&detaching)
            structural = true
        case .move(let id, let parent, let index):
            try applyMove(id, parent: parent, index: index, dirty: &dirty)
            structural = true
        case .set(let id, let properties):
            try applySet(id, properties, dirty: &dirty)
        case .splice(let id, let location, let length, let text):
            try spliceText(id: id, location: location, length: length, replacement: text)
            dirty.insert(id)
        }
    }

    private mutating func applyInsert(
        _ view: JSON, parent: String?, index: Int?, dirty: inout Set<String>, removed: inout Set<String>
    ) throws(PatchError) {
        if let parent, nodes[parent] == nil {
            throw PatchError(kind: .unknownId, id: parent, message: "no view '\(parent)' to insert into")
        }
        let baseDepth = parent.map { depth(of: $0) } ?? 0
        var seen: [String: String?]? = [:]
        let rootID = try ViewHierarchy.decodeSubtree(
            view, parent: parent, baseDepth: baseDepth, into: &nodes, seen: &seen,
            modal: &modalCandidates, listed: &listedBy)
        for (newID, _) in seen ?? [:] { removed.remove(newID) }
        try insertID(rootID, parent: parent, index: index)
        dirty.insert(rootID)
        if let parent { dirty.insert(parent) }
    }

    /// Removed views still in their parents' child lists, by parent: a run of removals leaves each list in one
    /// pass (`detachAll`), not one search and shift per removal — 10,000 removals from 20,000 children were
    /// 2 × 10⁸ steps with the hub held (issue 34's ImGui flood switched off).
    typealias Detaching = [String: Set<String>]

    private mutating func detachAll(_ detaching: inout Detaching) {
        guard !detaching.isEmpty else { return }
        for (parentID, ids) in detaching {
            guard var parentView = nodes.removeValue(forKey: parentID) else { continue }  // removed itself since
            parentView.children.removeAll { ids.contains($0) }
            nodes[parentID] = parentView
        }
        detaching.removeAll(keepingCapacity: true)
    }

    private mutating func applyRemove(
        _ id: String, dirty: inout Set<String>, removed: inout Set<String>, detaching: inout Detaching
    ) throws(PatchError) {
        guard let view = nodes[id] else {
            throw PatchError(kind: .unknownId, id: id, message: "no view '\(id)' to remove")
        }
        if let parentID = view.parent {
            dirty.insert(parentID)
            detaching[parentID, default: []].insert(id)
        } else {
            roots.removeAll { $0 == id }
        }
        for viewID in subtree(id) {
            if let viewBox = nodes.box(viewID) {
                if ViewHierarchy.isModalCandidate(viewBox.value) { modalCandidates -= 1 }
                listedBy.release(viewBox.value)
            }
            nodes[viewID] = nil
            removed.insert(viewID)
            dirty.remove(viewID)
        }
    }

    private mutating func applyMove(_ id: String, parent: String?, index: Int?, dirty: inout Set<String>)
        throws(PatchError)
    {
        guard let view = nodes[id] else {
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
        if let old = view.parent { dirty.insert(old) }
        detach(id)
        var moved = view
        moved.parent = parent
        nodes[id] = moved
        try insertID(id, parent: parent, index: index)
        if let parent { dirty.insert(parent) }
        dirty.insert(id)
    }

    private mutating func applySet(_ id: String, _ properties: JSONObject, dirty: inout Set<String>)
        throws(PatchError)
    {
        guard var view = nodes[id] else {
            throw PatchError(kind: .unknownId, id: id, message: "no view '\(id)' to set properties on")
        }
        let wasModal = ViewHierarchy.isModalCandidate(view)
        let listsChange = properties.keys.contains("accessibilityElements")
        if listsChange { listedBy.release(view) }
        for (key, value) in properties {
            if key == "class" {
                guard let className = value.stringValue else {
                    throw PatchError(
                        kind: .invalidProperty, id: id, property: key, message: "'class' must be a string")
                }
                let replacement = ViewNode(id: id, className: className, baseClass: view.baseClass)
                view.className = className
                view.kind = replacement.kind
                continue
            }
            do { try view.setProperty(key, value) } catch {
                let geometry = [
                    "frame", "bounds", "boundsOrigin", "contentOffset", "transform", "accessibilityFrame",
                    "accessibilityActivationPoint",
                ]
                throw PatchError(
                    kind: geometry.contains(key) ? .invalidGeometry : .invalidProperty, id: id, property: key,
                    message: error.message)
            }
        }
        modalCandidates += (ViewHierarchy.isModalCandidate(view) ? 1 : 0) - (wasModal ? 1 : 0)
        if listsChange { try listedBy.claim(view) }
        nodes[id] = view
        dirty.insert(id)
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
