import HashTreeCollections

/// Derives the accessibility tree from the view hierarchy as UIKit exposes it, incrementally.
///
/// Every view is visited with a context (its parent's screen map, clip rect, layout direction, enclosing
/// accessibility container…). The result of a visit — the accessibility items the view contributes to its
/// container — is cached with that context. A later patch re-visits only the changed views, their
/// ancestors, and views whose context changed, so a one-property patch costs O(depth × fan-out + changed
/// subtree) instead of a rebuild (Specs/hierarchy.md §Derivation).
///
/// This file is that incremental machinery: the pass, the cache, and the visit of each view. The UIKit rules it
/// applies live beside it, one family per file: `Exposure.swift` (element, container or neither; modal siblings),
/// `ContainerRoles.swift`, `ReadingOrder.swift`, `States.swift`, `ElementBuilding.swift` (the node of an element,
/// a virtual element or a container) and `SynthesizedChildren.swift` (navigation bar titles, segments, picker
/// components, alert messages); view geometry is in `../ViewGeometry.swift`.
final class Deriver {
    struct Ctx: Equatable {
        /// Maps the parent's bounds coordinates to screen coordinates.
        var map: AxisMap
        /// The region of the screen left visible by the window and every clipping ancestor.
        var clip: Rect
        var rtl: Bool
        var windowID: String
        /// The accessibility container (AX parent) of the items produced here; "" for windows.
        var container: String
        var containerRole: AXRole?
        var restrictions: [String]
        var language: String?
        /// Set only in the context of the one window that is key (A27): the front-most visible window that says so.
        var isKeyWindow = false
        /// The nearest table or collection view above allows its cells focus (`allowsFocus`, D-FOCUS-SEL-1): part
        /// of the context so that changing it re-derives the cells.
        var cellsFocusAllowed = true
    }

    struct Item: Equatable {
        var id: String
        var frame: Rect
    }

    /// The items a view contributes to its container (most views give exactly one: no array to allocate).
    enum ItemList {
        case none
        case one(Item)
        case many([Item])
        @inline(__always) func append(to out: inout [Item]) {
            switch self {
            case .none: break
            case .one(let item): out.append(item)
            case .many(let items): out.append(contentsOf: items)
            }
        }
    }

    /// One view's cached result. A class: the cache holds references, so checking and stamping a clean view's
    /// entry touches neither the dictionary's storage nor the entry's fields' reference counts.
    final class Entry {
        @exclusivity(unchecked) var ctx: Ctx
        @exclusivity(unchecked) var items: ItemList
        /// The view's own node is in the tree (an element or a container).
        @exclusivity(unchecked) var ownsSelf: Bool
        /// Other nodes the view produced: synthesized children, virtual elements.
        @exclusivity(unchecked) var ownIDs: [String]
        @exclusivity(unchecked) var children: [String]
        @exclusivity(unchecked) var pass: Int
        init(ctx: Ctx, items: ItemList, ownsSelf: Bool, ownIDs: [String], children: [String], pass: Int) {
            self.ctx = ctx
            self.items = items
            self.ownsSelf = ownsSelf
            self.ownIDs = ownIDs
            self.children = children
            self.pass = pass
        }
    }

    // A deriver belongs to one store and runs one pass at a time on the store's thread (the hub serializes each
    // app), so its state needs no dynamic exclusivity checks: they cost more than the work on the hot paths.
    @exclusivity(unchecked) private var cache: [String: Entry] = [:]
    private var pass = 0

    // Per-run state
    @exclusivity(unchecked) private(set) var views = ViewHierarchy()
    @exclusivity(unchecked) private(set) var nodes = BoxedMap<AXNode>()
    @exclusivity(unchecked) private var needsVisit = Set<String>()
    @exclusivity(unchecked) private var dirty = Set<String>()
    @exclusivity(unchecked) private var touched = Set<String>()
    /// Former children a parent did not purge because they now hang elsewhere; purged at the end of the pass
    /// unless something visited them (their new place may be excluded, or inside an element).
    private var departed: [String] = []
    private var fullBuild = false
    /// A full build's new node ids, a container before its descendants (the first snapshot's `added`).
    @exclusivity(unchecked) private var fullOrder: [String] = []
    /// A full build removed a node it had written: `fullOrder` is not exact; fall back to the map's keys.
    private var fullOrderStale = false

    var cachedEntryCount: Int { cache.count }

    /// Runs one derivation pass and returns the new tree and what changed since `previous`. Kept out of line so
    /// profiles (Tools/profile_core.sh) can attribute the derivation's cost.
    @inline(never)
    func derive(
        views: ViewHierarchy, dirty: Set<String>, removed: Set<String>, full: Bool,
        previous: AXTree, revision: Int
    ) -> (AXTree, ChangeSet) {
        startPass(views: views, dirty: dirty, full: full, previous: previous)
        for removedID in removed {
            purge(removedID)
        }
        markAncestorsOfDirtyViews(full: full)
        let windows = visitWindows(previous: previous)
        purgeUnreached()
        let changes = changeSet(windows: windows, full: full, previous: previous, revision: revision)
        let tree = AXTree(revision: revision, nodes: nodes, windows: windows)
        self.views = ViewHierarchy()
        nodes = [:]
        return (tree, changes)
    }

    private func startPass(views: ViewHierarchy, dirty: Set<String>, full: Bool, previous: AXTree) {
        self.views = views
        self.dirty = dirty
        touched = []
        departed = []
        pass += 1
        fullBuild = full
        fullOrder = []
        fullOrderStale = false
        if full {
            cache.removeAll(keepingCapacity: true)
            cache.reserveCapacity(views.count)
            nodes = [:]
        } else {
            nodes = previous.nodes
        }
    }

    /// `needsVisit`: every dirty view that still exists and its ancestors (a full build visits everything).
    private func markAncestorsOfDirtyViews(full: Bool) {
        needsVisit = []
        if full {
            return
        }
        for dirtyID in dirty {
            var current: String? = dirtyID
            while let ancestor = current, views.nodes.contains(ancestor), needsVisit.insert(ancestor).inserted {
                current = views.nodes.box(ancestor)?.value.parent
            }
        }
    }

    /// Visits the windows back to front and returns the ids of those in the tree.
    private func visitWindows(previous: AXTree) -> [String] {
        // Windows: back to front by level, then by order (D-WINDOW-1). The front-most modal window hides the others (X10).
        let ordered = views.roots.enumerated().sorted { lhs, rhs in
            let lhsLevel = views.nodes[lhs.element]?.window.windowLevel ?? 0
            let rhsLevel = views.nodes[rhs.element]?.window.windowLevel ?? 0
            return lhsLevel != rhsLevel ? lhsLevel < rhsLevel : lhs.offset < rhs.offset
        }.map(\.element)
        let modalWindow = ordered.last { windowID in
            guard let window = views.nodes[windowID] else { return false }
            return isVisibleSelf(window) && effectiveModal(window)
        }
        // A27: exactly one window is key — the front-most visible one that claims it, when several do.
        let keyWindow = ordered.last { windowID in
            guard let window = views.nodes[windowID] else { return false }
            return isVisibleSelf(window) && window.window.isKeyWindow && (modalWindow == nil || modalWindow == windowID)
        }
        var windows: [String] = []
        for windowID in ordered {
            if let modalWindow, modalWindow != windowID {
                purge(windowID)
                continue
            }
            guard let window = views.nodes[windowID] else { continue }
            let ctx = Ctx(
                map: .identity, clip: screenRect(window, map: .identity), rtl: window.window.layoutDirection == .rtl,
                windowID: windowID, container: "", containerRole: nil, restrictions: [], language: nil,
                isKeyWindow: windowID == keyWindow)
            var items: [Item] = []
            visit(windowID, ctx, into: &items)
            windows.append(contentsOf: items.map(\.id))
        }
        for windowID in previous.windows where !views.roots.contains(windowID) {
            purge(windowID)
        }
        return windows
    }

    /// Views that changed but were not reached this pass (moved under an excluded parent, …) leave the tree.
    private func purgeUnreached() {
        for viewID in dirty where views.nodes.contains(viewID) {
            if let entry = cache[viewID], entry.pass != pass {
                purge(viewID)
            }
        }
        for viewID in departed where views.nodes.contains(viewID) {
            if let entry = cache[viewID], entry.pass != pass {
                purge(viewID)
            }
        }
        departed = []
    }

    /// What changed since `previous`: from the nodes this pass touched, or wholesale after a full build.
    private func changeSet(windows: [String], full: Bool, previous: AXTree, revision: Int) -> ChangeSet {
        var changes = ChangeSet(fromRevision: previous.revision, toRevision: revision)
        changes.windowsChanged = windows != previous.windows
        if full && previous.nodes.isEmpty {
            // A first snapshot: everything is added (in derivation order); no per-node comparison needed.
            changes.added = !fullOrderStale && fullOrder.count == nodes.count ? fullOrder : nodes.keys.sorted()
            fullOrder = []
            fullBuild = false
            touched = []
        } else if full {
            // Every node is new or re-derived: compare against the previous tree wholesale.
            var ids = Set<String>()
            ids.reserveCapacity(nodes.count + previous.nodes.count)
            for (id, _) in nodes.storage {
                ids.insert(id)
            }
            for (id, _) in previous.nodes.storage {
                ids.insert(id)
            }
            touched = ids
            fullBuild = false
        }
        for id in touched.sorted() {
            switch (previous.nodes[id], nodes[id]) {
            case (nil, .some): changes.added.append(id)
            case (.some(let old), nil):
                changes.removed.append(id)
                changes.removedNodes[id] = old
            case (.some(let old), .some(let new)):
                if old.parent != new.parent { changes.moved.append(id) }
                let attributes = changedAttributes(old, new)
                if !attributes.isEmpty { changes.updated[id] = attributes }
            case (nil, nil): break
            }
        }
        return changes
    }

    // MARK: - Visiting

    /// Puts a node in the tree. `new`: a node this pass creates (a container is listed before its children are visited).
    func write(_ node: consuming AXNode, new: Bool = false) {
        let id = node.id
        if fullBuild {
            if new { fullOrder.append(id) }
            nodes.setBox(Box(node), for: id)
            return
        }
        touched.insert(id)
        if let old = nodes.box(id), old.value == node { return }
        nodes.setBox(Box(node), for: id)
    }

    private func removeNode(_ id: String) {
        if nodes.removeValue(forKey: id) != nil {
            if fullBuild { fullOrderStale = true } else { touched.insert(id) }
        }
    }

    /// Drops a view's cached result and every accessibility node its subtree produced.
    private func purge(_ id: String) {
        guard let entry = cache.removeValue(forKey: id) else { return }
        if entry.ownsSelf { removeNode(id) }
        for ax in entry.ownIDs { removeNode(ax) }
        for child in entry.children { purgeStale(child) }
    }

    /// Purges a former child unless this pass already visited it: a view that moved under another parent (or is
    /// reached through an `accessibilityElements` list) and was derived there must keep its fresh results, whatever
    /// the order in which its old and new parents are visited.
    private func purgeStale(_ id: String) {
        if let entry = cache[id], entry.pass == pass { return }
        purge(id)
    }

    private func visit(_ id: String, _ ctx: Ctx, into out: inout [Item]) {
        guard let viewBox = views.nodes.box(id) else { return }
        if !fullBuild, reuseCached(id, ctx, into: &out) { return }
        visitNode(id, ctx, viewBox, into: &out)
    }

    /// Appends the cached items of a clean view whose context did not change (kept out of `visit`'s frame).
    @inline(never)
    private func reuseCached(_ id: String, _ ctx: Ctx, into out: inout [Item]) -> Bool {
        // `needsVisit` holds every dirty view that still exists (and its ancestors). The entry is read and stamped
        // in place: one hash of the id, no copy of the entry.
        guard !needsVisit.contains(id), let entry = cache[id], entry.ctx == ctx else { return false }
        entry.pass = pass
        entry.items.append(to: &out)
        return true
    }

    /// The body of `visit`; the view is passed boxed so the node is never copied.
    private func visitNode(_ id: String, _ ctx: Ctx, _ viewBox: Box<ViewNode>, into out: inout [Item]) {
        // This function is on the recursion path (visit → visitNode → visitChildren → visit), once per level of
        // the view hierarchy. Everything that does not recurse lives in never-inlined helpers so this frame stays
        // small: a hierarchy `Limits.maxDepth` (256) levels deep must derive without exhausting a thread's stack,
        // in debug builds too, where every temporary copy of a large struct gets its own stack slot.
        let old = fullBuild ? nil : cache[id]
        let exposure = exposure(viewBox.value, ctx: ctx)
        switch exposure {
        case .excluded:
            purge(id)
            return
        case .element:
            out.append(visitElement(id, ctx, viewBox.value, old))
            return
        case .transparent, .container: break
        }
        let prepared = prepare(viewBox.value, ctx, exposure)
        var ownIDs: [String] = []
        var visitedChildren: [String] = viewBox.value.children
        if case .container(let role) = exposure {
            if fullBuild { fullOrder.append(id) }
            var childItems: [Item] = []
            if prepared.hasElementList {
                // R37: accessibilityElements defines the children, in array order; other subviews are not exposed.
                visitElementList(id, viewBox.value, prepared, old, &ownIDs, &visitedChildren, into: &childItems)
            } else {
                visitChildren(viewBox.value, prepared.childCtx, old: old, into: &childItems)
                childItems = readingOrder(childItems, rtl: prepared.childCtx.rtl)
            }
            writeContainer(
                viewBox.value, role: role, ctx: ctx, childCtx: prepared.childCtx, frame: prepared.frame,
                childItems: childItems,
                restrictions: prepared.childCtx.restrictions, language: prepared.childCtx.language, ownIDs: &ownIDs)
            // R22, X5: ordered by the frame the AT sees
            let item = Item(id: id, frame: viewBox.value.ax.frame ?? prepared.frame)
            out.append(item)
            finishVisit(id, ctx, old, .one(item), ownsSelf: true, ownIDs, visitedChildren)
        } else {
            let start = out.count
            visitChildren(viewBox.value, prepared.childCtx, old: old, into: &out)
            let produced: ItemList =
                out.count == start ? .none : out.count == start + 1 ? .one(out[start]) : .many(Array(out[start...]))
            finishVisit(id, ctx, old, produced, ownsSelf: false, ownIDs, visitedChildren)
        }
    }

    /// What a transparent view or a container hands down to its children.
    private struct Prepared {
        var frame: Rect
        var childMap: AxisMap
        var childCtx: Ctx
        var hasElementList: Bool
    }

    @inline(never)
    private func prepare(_ view: ViewNode, _ ctx: Ctx, _ exposure: Exposure) -> Prepared {
        let frame = screenRect(view, map: ctx.map)
        let childMap = ctx.map.composed(with: Deriver.localMap(view))
        let clipForChildren: Rect =
            view.effectiveClipsToBounds
            ? (ctx.clip.intersection(frame) ?? Rect(x: frame.x, y: frame.y, width: 0, height: 0)) : ctx.clip
        var restrictions = ctx.restrictions
        if !view.restrictionIdentifiers.isEmpty {
            for restriction in view.restrictionIdentifiers where !restrictions.contains(restriction) {
                restrictions.append(restriction)
            }
        }
        let language = view.ax.language ?? ctx.language
        var childCtx: Ctx
        if case .container(let role) = exposure {
            let rtl = view.kind == .window ? view.window.layoutDirection == .rtl : ctx.rtl
            childCtx = Ctx(
                map: childMap, clip: clipForChildren, rtl: rtl, windowID: ctx.windowID, container: view.id,
                containerRole: role, restrictions: restrictions, language: language)
        } else {
            childCtx = Ctx(
                map: childMap, clip: clipForChildren, rtl: ctx.rtl, windowID: ctx.windowID, container: ctx.container,
                containerRole: ctx.containerRole, restrictions: restrictions, language: language)
        }
        childCtx.cellsFocusAllowed = CollectionFocus.cellsFocusAllowed(below: view, inherited: ctx.cellsFocusAllowed)
        return Prepared(frame: frame, childMap: childMap, childCtx: childCtx, hasElementList: view.ax.elements != nil)
    }

    @inline(never)
    private func visitElement(_ id: String, _ ctx: Ctx, _ view: ViewNode, _ old: Entry?) -> Item {
        for child in old?.children ?? [] { purgeStale(child) }
        for child in view.children { purgeStale(child) }
        // What `prepare` would hand to children, minus the child context an element never uses.
        var restrictions = ctx.restrictions
        if !view.restrictionIdentifiers.isEmpty {
            for restriction in view.restrictionIdentifiers where !restrictions.contains(restriction) {
                restrictions.append(restriction)
            }
        }
        let item = writeElement(
            view, ctx: ctx, frame: screenRect(view, map: ctx.map),
            childMap: ctx.map.composed(with: Deriver.localMap(view)),
            restrictions: restrictions, language: view.ax.language ?? ctx.language)
        finishVisit(id, ctx, old, .one(item), ownsSelf: true, [], [])
        return item
    }

    /// The children of a container that sets `accessibilityElements` (R37): views (any descendant) and virtual
    /// elements, in array order.
    private func visitElementList(
        _ id: String, _ view: ViewNode, _ prepared: Prepared, _ old: Entry?,
        _ ownIDs: inout [String], _ visitedChildren: inout [String], into childItems: inout [Item]
    ) {
        for child in old?.children ?? [] { purgeStale(child) }
        for child in view.children { purgeStale(child) }
        visitedChildren = []
        for entry in view.ax.elements ?? [] {
            switch entry {
            case .view(let ref):
                guard ref != id, views.isAncestor(id, of: ref),
                    let referenceCtx = contextFor(ref, under: id, base: prepared.childCtx)
                else { continue }
                if !visitedChildren.contains(ref) {
                    visit(ref, referenceCtx, into: &childItems)
                    visitedChildren.append(ref)
                }
            case .virtual(let virtualElement):
                if let item = writeVirtual(virtualElement, container: view, prepared, ownIDs: ownIDs) {
                    ownIDs.append(virtualElement.id)
                    childItems.append(item)
                }
            }
        }
    }

    @inline(never)
    private func writeVirtual(
        _ virtualElement: VirtualElement, container view: ViewNode, _ prepared: Prepared, ownIDs: [String]
    ) -> Item? {
        guard views.nodes[virtualElement.id] == nil, !ownIDs.contains(virtualElement.id) else { return nil }
        var virtualNode = makeVirtual(
            virtualElement, container: view, ctx: prepared.childCtx, childMap: prepared.childMap)
        AXTextContent.apply(virtualElement.ax, control: nil, to: &virtualNode)  // D-TEXT-APP-3, D-TEXT-APP-4
        ActivationRule.apply(to: &virtualNode)  // X13, D-ACT-3
        // D-DRAG-1: a virtual element's descriptors are in a view; by default its container's.
        DragDrop.attach(virtualElement.ax, defaultView: view.id, to: &virtualNode, views: views)
        let item = Item(id: virtualElement.id, frame: virtualNode.frame)
        write(virtualNode, new: true)
        return item
    }

    @inline(never)
    private func finishVisit(
        _ id: String, _ ctx: Ctx, _ old: Entry?, _ items: ItemList, ownsSelf: Bool, _ ownIDs: [String],
        _ visitedChildren: [String]
    ) {
        if let old {
            if old.ownsSelf && !ownsSelf { removeNode(id) }
            for oid in old.ownIDs where !ownIDs.contains(oid) && !(ownsSelf && oid == id) { removeNode(oid) }
        }
        if let old, cache[id] === old {
            // The view's previous entry, still the one the cache holds: update it in place.
            old.ctx = ctx
            old.items = items
            old.ownsSelf = ownsSelf
            old.ownIDs = ownIDs
            old.children = visitedChildren
            old.pass = pass
        } else {
            cache[id] = Entry(
                ctx: ctx, items: items, ownsSelf: ownsSelf, ownIDs: ownIDs, children: visitedChildren, pass: pass)
        }
    }

    // The node-building halves of `visitNode` live in their own never-inlined functions so the large AXNode
    // temporaries stay out of the recursive frame: a hierarchy `Limits.maxDepth` (256) levels deep must derive
    // without exhausting the stack, in debug builds too (D-PATCH-1).
    @inline(never)
    private func writeElement(
        _ view: ViewNode, ctx: Ctx, frame: Rect, childMap: AxisMap, restrictions: [String], language: String?
    ) -> Item {
        var ax = makeElement(
            view, ctx: ctx, frame: frame, childMap: childMap, restrictions: restrictions, language: language)
        // The text content the app reports (D-TEXT-APP-1).
        AXTextContent.apply(view, to: &ax)
        ActivationRule.apply(to: &ax)  // X13, D-ACT-3
        CollectionFocus.apply(view, cellsFocusAllowed: ctx.cellsFocusAllowed, to: &ax)  // D-FOCUS-SEL-1
        DragDrop.attach(view.ax, defaultView: view.id, to: &ax, views: views)  // D-DRAG-1
        let item = Item(id: view.id, frame: ax.frame)
        write(ax, new: true)
        return item
    }

    @inline(never)
    private func writeContainer(
        _ view: ViewNode, role: AXRole, ctx: Ctx, childCtx: Ctx, frame: Rect, childItems: [Item],
        restrictions: [String], language: String?, ownIDs: inout [String]
    ) {
        let synthesized = synthesize(view, role: role, frame: frame, ctx: childCtx, restrictions: restrictions)
        for var node in synthesized.nodes {
            ownIDs.append(node.id)
            ActivationRule.apply(to: &node)  // X13, D-ACT-3
            write(node, new: true)
        }
        let ordered =
            synthesized.leading.map { Item(id: $0.id, frame: $0.frame) } + childItems
            + synthesized.trailing.map { Item(id: $0.id, frame: $0.frame) }
        if role == .tabBar || role == .segmentedControl { numberPositions(ordered.map(\.id), asValue: true) }
        write(
            makeContainer(
                view, role: role, ctx: ctx, frame: frame, restrictions: restrictions, language: language,
                children: ordered.map(\.id)))
    }

    /// Builds the context of a view reached through `accessibilityElements` from container `cid` (its ancestor).
    private func contextFor(_ ref: String, under containerID: String, base: Ctx) -> Ctx? {
        var chain: [ViewNode] = []
        var current = views.nodes[ref]?.parent
        while let ancestor = current, ancestor != containerID {
            guard let view = views.nodes[ancestor] else { return nil }
            if !isVisibleSelf(view) || view.ax.elementsHidden { return nil }
            chain.append(view)
            current = view.parent
        }
        var ctx = base
        for view in chain.reversed() {
            let frame = screenRect(view, map: ctx.map)
            if view.effectiveClipsToBounds {
                ctx.clip = ctx.clip.intersection(frame) ?? Rect(x: frame.x, y: frame.y, width: 0, height: 0)
            }
            ctx.map = ctx.map.composed(with: Deriver.localMap(view))
            for restriction in view.restrictionIdentifiers where !ctx.restrictions.contains(restriction) {
                ctx.restrictions.append(restriction)
            }
            if let language = view.ax.language { ctx.language = language }
        }
        return ctx
    }

    private func visitChildren(_ view: ViewNode, _ childCtx: Ctx, old: Entry?, into out: inout [Item]) {
        let children = view.children
        let modalIndex = views.modalCandidates > 0 ? frontMostModal(children) : nil
        for (index, child) in children.enumerated() {
            if let modalIndex, index != modalIndex {
                purgeStale(child)
                continue
            }
            visit(child, childCtx, into: &out)
        }
        if let old, !old.children.isEmpty { purgeDeparted(old.children, current: children, parent: view.id) }
    }

    /// Drops the results of former children that left this view (unless they moved under another parent, which owns them now).
    @inline(never)
    private func purgeDeparted(_ former: [String], current children: [String], parent: String) {
        if former == children { return }  // unchanged children (usually the very same array: an O(1) check)
        let current: Set<String> = Set(children)
        for child in former where !current.contains(child) {
            if let currentParent = views.nodes.box(child)?.value.parent, currentParent != parent {
                departed.append(child)
                continue
            }
            purgeStale(child)
        }
    }

    // MARK: - Building nodes

}
