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
            case .one(let i): out.append(i)
            case .many(let a): out.append(contentsOf: a)
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

    /// Runs one derivation pass and returns the new tree and what changed since `previous`.
    func derive(
        views: ViewHierarchy, dirty: Set<String>, removed: Set<String>, full: Bool,
        previous: AXTree, revision: Int
    ) -> (AXTree, ChangeSet) {
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
        for r in removed { purge(r) }

        needsVisit = []
        if !full {
            for d in dirty {
                var cur: String? = d
                while let c = cur, views.nodes.contains(c), needsVisit.insert(c).inserted {
                    cur = views.nodes.box(c)?.value.parent
                }
            }
        }

        // Windows: back to front by level, then by order (D-WINDOW-1). The front-most modal window hides the others (X10).
        let ordered = views.roots.enumerated().sorted { a, b in
            let la = views.nodes[a.element]?.window.windowLevel ?? 0
            let lb = views.nodes[b.element]?.window.windowLevel ?? 0
            return la != lb ? la < lb : a.offset < b.offset
        }.map(\.element)
        var modalWindow: String?
        for w in ordered.reversed() {
            if let n = views.nodes[w], isVisibleSelf(n), effectiveModal(n) {
                modalWindow = w
                break
            }
        }
        // A27: exactly one window is key — the front-most visible one that claims it, when several do.
        var keyWindow: String?
        for w in ordered.reversed() {
            if let n = views.nodes[w], isVisibleSelf(n), n.window.isKeyWindow, modalWindow == nil || modalWindow == w {
                keyWindow = w
                break
            }
        }
        var windows: [String] = []
        for w in ordered {
            if let m = modalWindow, m != w {
                purge(w)
                continue
            }
            guard let n = views.nodes[w] else { continue }
            let ctx = Ctx(
                map: .identity, clip: screenRect(n, map: .identity), rtl: n.window.layoutDirection == .rtl,
                windowID: w, container: "", containerRole: nil, restrictions: [], language: nil,
                isKeyWindow: w == keyWindow)
            var items: [Item] = []
            visit(w, ctx, into: &items)
            windows.append(contentsOf: items.map(\.id))
        }
        for w in previous.windows where !views.roots.contains(w) { purge(w) }
        // Views that changed but were not reached this pass (moved under an excluded parent, …) leave the tree.
        for d in dirty where views.nodes.contains(d) {
            if let e = cache[d], e.pass != pass { purge(d) }
        }
        for d in departed where views.nodes.contains(d) {
            if let e = cache[d], e.pass != pass { purge(d) }
        }
        departed = []

        var cs = ChangeSet(fromRevision: previous.revision, toRevision: revision)
        cs.windowsChanged = windows != previous.windows
        if full && previous.nodes.isEmpty {
            // A first snapshot: everything is added (in derivation order); no per-node comparison needed.
            cs.added = !fullOrderStale && fullOrder.count == nodes.count ? fullOrder : nodes.keys.sorted()
            fullOrder = []
            fullBuild = false
            touched = []
        } else if full {
            // Every node is new or re-derived: compare against the previous tree wholesale.
            var ids = Set<String>()
            ids.reserveCapacity(nodes.count + previous.nodes.count)
            for (id, _) in nodes.storage { ids.insert(id) }
            for (id, _) in previous.nodes.storage { ids.insert(id) }
            touched = ids
            fullBuild = false
        }
        for id in touched.sorted() {
            let old = previous.nodes[id]
            let new = nodes[id]
            switch (old, new) {
            case (nil, .some): cs.added.append(id)
            case (.some(let a), nil):
                cs.removed.append(id)
                cs.removedNodes[id] = a
            case (.some(let a), .some(let b)):
                if a.parent != b.parent { cs.moved.append(id) }
                let attrs = changedAttributes(a, b)
                if !attrs.isEmpty { cs.updated[id] = attrs }
            case (nil, nil): break
            }
        }
        let tree = AXTree(revision: revision, nodes: nodes, windows: windows)
        self.views = ViewHierarchy()
        nodes = [:]
        return (tree, cs)
    }

    // MARK: - Visiting

    /// Puts a node in the tree. `new`: a node this pass creates (a container is listed before its children are visited).
    func write(_ n: consuming AXNode, new: Bool = false) {
        let id = n.id
        if fullBuild {
            if new { fullOrder.append(id) }
            nodes.setBox(Box(n), for: id)
            return
        }
        touched.insert(id)
        if let old = nodes.box(id), old.value == n { return }
        nodes.setBox(Box(n), for: id)
    }

    private func removeNode(_ id: String) {
        if nodes.removeValue(forKey: id) != nil {
            if fullBuild { fullOrderStale = true } else { touched.insert(id) }
        }
    }

    /// Drops a view's cached result and every accessibility node its subtree produced.
    private func purge(_ id: String) {
        guard let e = cache.removeValue(forKey: id) else { return }
        if e.ownsSelf { removeNode(id) }
        for ax in e.ownIDs { removeNode(ax) }
        for c in e.children { purgeStale(c) }
    }

    /// Purges a former child unless this pass already visited it: a view that moved under another parent (or is
    /// reached through an `accessibilityElements` list) and was derived there must keep its fresh results, whatever
    /// the order in which its old and new parents are visited.
    private func purgeStale(_ id: String) {
        if let e = cache[id], e.pass == pass { return }
        purge(id)
    }

    private func visit(_ id: String, _ ctx: Ctx, into out: inout [Item]) {
        guard let nb = views.nodes.box(id) else { return }
        if !fullBuild, reuseCached(id, ctx, into: &out) { return }
        visitNode(id, ctx, nb, into: &out)
    }

    /// Appends the cached items of a clean view whose context did not change (kept out of `visit`'s frame).
    @inline(never)
    private func reuseCached(_ id: String, _ ctx: Ctx, into out: inout [Item]) -> Bool {
        // `needsVisit` holds every dirty view that still exists (and its ancestors). The entry is read and stamped
        // in place: one hash of the id, no copy of the entry.
        guard !needsVisit.contains(id), let e = cache[id], e.ctx == ctx else { return false }
        e.pass = pass
        e.items.append(to: &out)
        return true
    }

    /// The body of `visit`; the view is passed boxed so the node is never copied.
    private func visitNode(_ id: String, _ ctx: Ctx, _ nb: Box<ViewNode>, into out: inout [Item]) {
        // This function is on the recursion path (visit → visitNode → visitChildren → visit), once per level of
        // the view hierarchy. Everything that does not recurse lives in never-inlined helpers so this frame stays
        // small: a hierarchy `Limits.maxDepth` (256) levels deep must derive without exhausting a thread's stack,
        // in debug builds too, where every temporary copy of a large struct gets its own stack slot.
        let old = fullBuild ? nil : cache[id]
        let expo = exposure(nb.value, ctx: ctx)
        switch expo {
        case .excluded:
            purge(id)
            return
        case .element:
            out.append(visitElement(id, ctx, nb.value, old))
            return
        case .transparent, .container: break
        }
        let p = prepare(nb.value, ctx, expo)
        var ownIDs: [String] = []
        var visitedChildren: [String] = nb.value.children
        if case .container(let role) = expo {
            if fullBuild { fullOrder.append(id) }
            var childItems: [Item] = []
            if p.hasElementList {
                // R37: accessibilityElements defines the children, in array order; other subviews are not exposed.
                visitElementList(id, nb.value, p, old, &ownIDs, &visitedChildren, into: &childItems)
            } else {
                visitChildren(nb.value, p.childCtx, old: old, into: &childItems)
                childItems = readingOrder(childItems, rtl: p.childCtx.rtl)
            }
            writeContainer(
                nb.value, role: role, ctx: ctx, childCtx: p.childCtx, frame: p.frame, childItems: childItems,
                restrictions: p.childCtx.restrictions, language: p.childCtx.language, ownIDs: &ownIDs)
            let item = Item(id: id, frame: nb.value.ax.frame ?? p.frame)  // R22, X5: ordered by the frame the AT sees
            out.append(item)
            finishVisit(id, ctx, old, .one(item), ownsSelf: true, ownIDs, visitedChildren)
        } else {
            let start = out.count
            visitChildren(nb.value, p.childCtx, old: old, into: &out)
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
    private func prepare(_ n: ViewNode, _ ctx: Ctx, _ expo: Exposure) -> Prepared {
        let frame = screenRect(n, map: ctx.map)
        let childMap = ctx.map.composed(with: Deriver.localMap(n))
        let clipForChildren: Rect =
            n.effectiveClipsToBounds
            ? (ctx.clip.intersection(frame) ?? Rect(x: frame.x, y: frame.y, width: 0, height: 0)) : ctx.clip
        var restrictions = ctx.restrictions
        if !n.restrictionIdentifiers.isEmpty {
            for r in n.restrictionIdentifiers where !restrictions.contains(r) { restrictions.append(r) }
        }
        let language = n.ax.language ?? ctx.language
        let childCtx: Ctx
        if case .container(let role) = expo {
            let rtl = n.kind == .window ? n.window.layoutDirection == .rtl : ctx.rtl
            childCtx = Ctx(
                map: childMap, clip: clipForChildren, rtl: rtl, windowID: ctx.windowID, container: n.id,
                containerRole: role, restrictions: restrictions, language: language)
        } else {
            childCtx = Ctx(
                map: childMap, clip: clipForChildren, rtl: ctx.rtl, windowID: ctx.windowID, container: ctx.container,
                containerRole: ctx.containerRole, restrictions: restrictions, language: language)
        }
        return Prepared(frame: frame, childMap: childMap, childCtx: childCtx, hasElementList: n.ax.elements != nil)
    }

    @inline(never)
    private func visitElement(_ id: String, _ ctx: Ctx, _ n: ViewNode, _ old: Entry?) -> Item {
        for c in old?.children ?? [] { purgeStale(c) }
        for c in n.children { purgeStale(c) }
        // What `prepare` would hand to children, minus the child context an element never uses.
        var restrictions = ctx.restrictions
        if !n.restrictionIdentifiers.isEmpty {
            for r in n.restrictionIdentifiers where !restrictions.contains(r) { restrictions.append(r) }
        }
        let item = writeElement(
            n, ctx: ctx, frame: screenRect(n, map: ctx.map), childMap: ctx.map.composed(with: Deriver.localMap(n)),
            restrictions: restrictions, language: n.ax.language ?? ctx.language)
        finishVisit(id, ctx, old, .one(item), ownsSelf: true, [], [])
        return item
    }

    /// The children of a container that sets `accessibilityElements` (R37): views (any descendant) and virtual
    /// elements, in array order.
    private func visitElementList(
        _ id: String, _ n: ViewNode, _ p: Prepared, _ old: Entry?,
        _ ownIDs: inout [String], _ visitedChildren: inout [String], into childItems: inout [Item]
    ) {
        for c in old?.children ?? [] { purgeStale(c) }
        for c in n.children { purgeStale(c) }
        visitedChildren = []
        for entry in n.ax.elements ?? [] {
            switch entry {
            case .view(let ref):
                guard ref != id, views.isAncestor(id, of: ref), let rctx = contextFor(ref, under: id, base: p.childCtx)
                else { continue }
                if !visitedChildren.contains(ref) {
                    visit(ref, rctx, into: &childItems)
                    visitedChildren.append(ref)
                }
            case .virtual(let ve):
                if let item = writeVirtual(ve, container: n, p, ownIDs: ownIDs) {
                    ownIDs.append(ve.id)
                    childItems.append(item)
                }
            }
        }
    }

    @inline(never)
    private func writeVirtual(_ ve: VirtualElement, container n: ViewNode, _ p: Prepared, ownIDs: [String]) -> Item? {
        guard views.nodes[ve.id] == nil, !ownIDs.contains(ve.id) else { return nil }
        let vnode = makeVirtual(ve, container: n, ctx: p.childCtx, childMap: p.childMap)
        let item = Item(id: ve.id, frame: vnode.frame)
        write(vnode, new: true)
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
        _ n: ViewNode, ctx: Ctx, frame: Rect, childMap: AxisMap, restrictions: [String], language: String?
    ) -> Item {
        let ax = makeElement(
            n, ctx: ctx, frame: frame, childMap: childMap, restrictions: restrictions, language: language)
        let item = Item(id: n.id, frame: ax.frame)
        write(ax, new: true)
        return item
    }

    @inline(never)
    private func writeContainer(
        _ n: ViewNode, role: AXRole, ctx: Ctx, childCtx: Ctx, frame: Rect, childItems: [Item],
        restrictions: [String], language: String?, ownIDs: inout [String]
    ) {
        let synthesized = synthesize(n, role: role, frame: frame, ctx: childCtx, restrictions: restrictions)
        for s in synthesized.nodes {
            ownIDs.append(s.id)
            write(s, new: true)
        }
        let ordered =
            synthesized.leading.map { Item(id: $0.id, frame: $0.frame) } + childItems
            + synthesized.trailing.map { Item(id: $0.id, frame: $0.frame) }
        if role == .tabBar || role == .segmentedControl { numberPositions(ordered.map(\.id), asValue: true) }
        write(
            makeContainer(
                n, role: role, ctx: ctx, frame: frame, restrictions: restrictions, language: language,
                children: ordered.map(\.id)))
    }

    /// Builds the context of a view reached through `accessibilityElements` from container `cid` (its ancestor).
    private func contextFor(_ ref: String, under cid: String, base: Ctx) -> Ctx? {
        var chain: [ViewNode] = []
        var cur = views.nodes[ref]?.parent
        while let c = cur, c != cid {
            guard let n = views.nodes[c] else { return nil }
            if !isVisibleSelf(n) || n.ax.elementsHidden { return nil }
            chain.append(n)
            cur = n.parent
        }
        var ctx = base
        for n in chain.reversed() {
            let frame = screenRect(n, map: ctx.map)
            if n.effectiveClipsToBounds {
                ctx.clip = ctx.clip.intersection(frame) ?? Rect(x: frame.x, y: frame.y, width: 0, height: 0)
            }
            ctx.map = ctx.map.composed(with: Deriver.localMap(n))
            for r in n.restrictionIdentifiers where !ctx.restrictions.contains(r) { ctx.restrictions.append(r) }
            if let l = n.ax.language { ctx.language = l }
        }
        return ctx
    }

    private func visitChildren(_ n: ViewNode, _ childCtx: Ctx, old: Entry?, into out: inout [Item]) {
        let kids = n.children
        let modalIndex = views.modalCandidates > 0 ? frontMostModal(kids) : nil
        for (i, k) in kids.enumerated() {
            if let m = modalIndex, i != m {
                purgeStale(k)
                continue
            }
            visit(k, childCtx, into: &out)
        }
        if let old, !old.children.isEmpty { purgeDeparted(old.children, current: kids, parent: n.id) }
    }

    /// Drops the results of former children that left this view (unless they moved under another parent, which owns them now).
    @inline(never)
    private func purgeDeparted(_ former: [String], current kids: [String], parent: String) {
        if former == kids { return }  // unchanged children (usually the very same array: an O(1) check)
        let current: Set<String> = Set(kids)
        for c in former where !current.contains(c) {
            if let cp = views.nodes.box(c)?.value.parent, cp != parent {
                departed.append(c)
                continue
            }
            purgeStale(c)
        }
    }

    // MARK: - Building nodes

}
