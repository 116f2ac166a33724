import HashTreeCollections

/// Derives the accessibility tree from the view hierarchy as UIKit exposes it, incrementally.
///
/// Every view is visited with a context (its parent's screen map, clip rect, layout direction, enclosing
/// accessibility container…). The result of a visit — the accessibility items the view contributes to its
/// container — is cached with that context. A later patch re-visits only the changed views, their
/// ancestors, and views whose context changed, so a one-property patch costs O(depth × fan-out + changed
/// subtree) instead of a rebuild (Specs/hierarchy.md §Derivation).
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
    @exclusivity(unchecked) private var views = ViewHierarchy()
    @exclusivity(unchecked) private var nodes = BoxedMap<AXNode>()
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
    private func write(_ n: consuming AXNode, new: Bool = false) {
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

    private func isVisibleSelf(_ n: ViewNode) -> Bool {
        !n.isHidden && n.alpha >= 0.01
    }

    func effectiveModal(_ n: ViewNode) -> Bool {
        n.ax.viewIsModal ?? (n.kind == .alertController || n.kind == .actionSheet)
    }

    /// The view's rect in its parent's bounds space: frame size scaled around the center, then translated (A2, A14).
    static func rectInParent(_ n: ViewNode) -> Rect {
        let t = n.transform
        let w = n.frame.width * abs(t.scaleX)
        let h = n.frame.height * abs(t.scaleY)
        let cx = n.frame.midX + t.translateX
        let cy = n.frame.midY + t.translateY
        return Rect(x: cx - w / 2, y: cy - h / 2, width: w, height: h)
    }

    /// Maps the view's own bounds coordinates into its parent's bounds coordinates.
    static func localMap(_ n: ViewNode) -> AxisMap {
        let t = n.transform
        let bx = n.boundsOrigin.x + n.frame.width / 2
        let by = n.boundsOrigin.y + n.frame.height / 2
        let cx = n.frame.midX + t.translateX
        let cy = n.frame.midY + t.translateY
        return AxisMap(sx: t.scaleX, sy: t.scaleY, dx: cx - t.scaleX * bx, dy: cy - t.scaleY * by)
    }

    private func screenRect(_ n: ViewNode, map: AxisMap) -> Rect { map.apply(Deriver.rectInParent(n)) }

    private enum Exposure {
        case excluded, element
        case container(AXRole)
        case transparent
    }

    private func exposure(_ n: ViewNode, ctx: Ctx) -> Exposure {
        if !isVisibleSelf(n) || n.ax.elementsHidden { return .excluded }  // R109–R111, X9, D-HIDE-1…3
        if n.kind == .window { return .container(.window) }
        if n.ax.elements != nil { return .container(containerRole(n) ?? .group) }  // X15
        if let explicit = n.ax.isAccessibilityElement {
            if explicit { return .element }
            if let r = containerRole(n) { return .container(r) }
            return .transparent
        }
        if n.kind.isElementByDefault && exposedByDefault(n) { return .element }
        if let r = containerRole(n) { return .container(r) }
        return .transparent
    }

    /// Standard elements that UIKit only exposes with content (D-IMAGE-1, D-EXPOSE-2).
    private func exposedByDefault(_ n: ViewNode) -> Bool {
        switch n.kind {
        case .imageView: return n.ax.label?.isEmpty == false
        case .label: return (n.ax.label ?? n.control.text)?.isEmpty == false
        case .activityIndicator: return n.control.isAnimating || n.ax.label != nil
        default: return true
        }
    }

    private func containerRole(_ n: ViewNode) -> AXRole? {
        switch n.ax.containerType {
        case .dataTable: return .table
        case .list: return .list
        case .landmark: return .landmark
        case .semanticGroup: return .group
        case .none: break
        }
        if (n.ax.traits ?? n.kind.defaultTraits).contains(.tabBar) { return .tabBar }  // X35
        switch n.kind {
        case .alertController, .actionSheet: return .alert
        case .navigationBar: return .navigationBar
        case .toolbar: return .toolbar
        case .tableView, .collectionView: return .list
        case .segmentedControl: return .segmentedControl
        case .pickerView: return .picker
        case .datePicker: return n.control.components.isEmpty ? nil : .picker
        default: break
        }
        if n.ax.shouldGroupChildren { return .group }  // X11
        // X10, X32 (D-MODAL-1): a view marked modal is a container, so its modal state and its escape action
        // reach clients, and escape can bubble to it.
        if n.ax.viewIsModal == true { return .group }
        return nil
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

    /// X10 / D-MODAL-1: the front-most visible modal child hides its siblings (not the siblings of ancestors).
    @inline(never)
    private func frontMostModal(_ kids: [String]) -> Int? {
        for (i, k) in kids.enumerated().reversed() {
            if let kb = views.nodes.box(k), isVisibleSelf(kb.value), effectiveModal(kb.value) { return i }
        }
        return nil
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

    // MARK: - Reading order

    /// Reading order (R106, R107, §12.4; D-ORDER-1): items are grouped into rows — an item joins the current row
    /// when its vertical center lies within half the height of the row's first item (at least 0.5 pt) — rows go
    /// top to bottom, and within a row items go leading to trailing (left→right, or right→left in RTL).
    /// Ties keep the subview order.
    func readingOrder(_ items: [Item], rtl: Bool) -> [Item] {
        guard items.count > 1 else { return items }
        // Subviews usually come in reading order already: confirm it in one pass instead of sorting.
        if Deriver.isInReadingOrder(items, rtl: rtl) { return items }
        return sortedReadingOrder(items, rtl: rtl)
    }

    /// True when `sortedReadingOrder` would return `items` unchanged: centers never go up, and within each row
    /// (formed exactly as the sort forms them) items never go back toward the leading edge.
    static func isInReadingOrder(_ items: [Item], rtl: Bool) -> Bool {
        var anchor = items[0].frame
        var last = items[0].frame
        for i in 1..<items.count {
            let f = items[i].frame
            if f.midY < last.midY { return false }
            if abs(f.midY - anchor.midY) <= max(anchor.height / 2, 0.5) {
                if rtl ? f.maxX > last.maxX : f.minX < last.minX { return false }
            } else {
                anchor = f
            }
            last = f
        }
        return true
    }

    /// The reading order by sorting (see `readingOrder`).
    func sortedReadingOrder(_ items: [Item], rtl: Bool) -> [Item] {
        guard items.count > 1 else { return items }
        let byY = items.indices.sorted { a, b in
            let ya = items[a].frame.midY
            let yb = items[b].frame.midY
            return ya != yb ? ya < yb : a < b
        }
        var out: [Item] = []
        out.reserveCapacity(items.count)
        var row: [Int] = []
        var anchor = items[byY[0]].frame
        func flush() {
            let sorted = row.sorted { a, b in
                let fa = items[a].frame
                let fb = items[b].frame
                if rtl { return fa.maxX != fb.maxX ? fa.maxX > fb.maxX : a < b }
                return fa.minX != fb.minX ? fa.minX < fb.minX : a < b
            }
            for i in sorted { out.append(items[i]) }
            row.removeAll(keepingCapacity: true)
        }
        for i in byY {
            let f = items[i].frame
            if !row.isEmpty && abs(f.midY - anchor.midY) <= max(anchor.height / 2, 0.5) {
                row.append(i)
            } else {
                if !row.isEmpty { flush() }
                row.append(i)
                anchor = f
            }
        }
        flush()
        return out
    }

    // MARK: - Building nodes

    private func states(for n: ViewNode, frame: Rect, ctx: Ctx, traits: Traits, role: AXRole) -> AXStates {
        var s = AXStates()
        if !traits.contains(.notEnabled) { s.insert(.enabled) }
        if traits.contains(.selected) { s.insert(.selected) }
        if traits.contains(.updatesFrequently) { s.insert(.updatesFrequently) }
        if let vis = ctx.clip.intersection(frame), !frame.isEmpty {
            s.insert(.onscreen)
            if vis != frame && !ctx.clip.containsRect(frame) { s.insert(.clipped) }
        }
        switch n.ax.expandedStatus {
        case "expanded": s.insert(.expanded)
        case "collapsed": s.insert(.collapsed)
        default: break
        }
        return s
    }

    private func makeElement(
        _ n: ViewNode, ctx: Ctx, frame viewFrame: Rect, childMap: AxisMap,
        restrictions: [String], language: String?
    ) -> AXNode {
        var traits = ControlSemantics.traits(n)
        var label = n.ax.label ?? ControlSemantics.defaultLabel(n)
        var value = n.ax.value ?? ControlSemantics.defaultValue(n)
        var numeric = ControlSemantics.numericValue(n)
        var kind = n.kind
        var isOn = n.kind == .switchControl && n.control.isOn
        var actionTarget = n.id
        var control: ViewNode?

        if n.kind == .tableViewCell || n.kind == .collectionViewCell {
            let content = cellContent(n, childMap: childMap, rtl: ctx.rtl)
            // D-CELL-1
            if n.ax.label == nil, !content.labels.isEmpty { label = content.labels.joined(separator: ", ") }
            if content.controls.count == 1, let c = content.controls.first {
                control = c
                if n.ax.value == nil { value = c.ax.value ?? ControlSemantics.defaultValue(c) }
                if n.ax.traits == nil { traits.formUnion(ControlSemantics.traits(c)) }
                numeric = ControlSemantics.numericValue(c)
                kind = c.kind
                isOn = c.kind == .switchControl && c.control.isOn
                actionTarget = c.id
            }
            switch n.control.accessoryType {
            case "disclosureIndicator", "detailDisclosureButton":
                if n.ax.traits == nil && control == nil { traits.insert(.button) }
            case "checkmark": traits.insert(.selected)
            default: break
            }
        }

        let secure = n.control.isSecureTextEntry
        let editable =
            (kind == .textField || kind == .searchBar || (kind == .textView && n.control.isEditable))
            && n.control.isEnabled
        var role = ControlSemantics.elementRole(
            kind: kind, traits: traits, secure: secure,
            editable: kind == .textView ? n.control.isEditable : true,
            inTabBar: ctx.containerRole == .tabBar)
        if control != nil, role == .staticText || role == .button { role = .cell }
        if n.kind == .tableViewCell || n.kind == .collectionViewCell, control == nil,
            role == .staticText
        {
            role = .cell
        }

        let frame = n.ax.frame ?? viewFrame
        var st = states(for: n, frame: frame, ctx: ctx, traits: traits, role: role)
        if isOn { st.insert(.checked) }
        if secure { st.insert(.secure) }
        if editable { st.insert(.editable) }
        if n.kind == .textView { st.insert(.multiLine) }
        if n.kind == .activityIndicator && n.control.isAnimating { st.insert(.busy) }
        let responds =
            n.ax.respondsToUserInteraction
            ?? (!traits.contains(.notEnabled)
                && (role != .staticText && role != .image && role != .header && role != .progressIndicator
                    && role != .activityIndicator))  // X13
        if responds { st.insert(.respondsToUserInteraction) }
        let focusableDefault =
            st.contains(.enabled)
            && [
                AXRole.button, .textField, .secureTextField, .searchField, .textView, .cell,
                .switch, .adjustable, .tab, .link,
            ].contains(role)
        if n.focus.canBecomeFocused ?? focusableDefault { st.insert(.focusable) }  // C17

        let placeholder =
            (n.kind == .textField || n.kind == .searchBar || n.kind == .textView)
            ? ControlSemantics.nonEmpty(n.control.placeholder) : nil
        let automation = automationElements(n, isElement: true)
        let isCell = n.kind == .tableViewCell || n.kind == .collectionViewCell
        let indentationLevel = isCell ? n.control.indentationLevel : nil
        var cell: AXCellInfo?
        if let rr = n.ax.rowRange, let cr = n.ax.columnRange, rr.location >= 0, cr.location >= 0 {  // R43, X19
            cell = AXCellInfo(
                row: rr.location, rowSpan: max(rr.length, 1), column: cr.location, columnSpan: max(cr.length, 1))
        }
        // The rarely-set group is built only when one of its sources is set (most elements share the default; the
        // same fields as `AXNodeExtras.isDefault`, checked before building: this is the hot path of a snapshot).
        var extras: AXNodeExtras?
        if n.ax.hint != nil || placeholder != nil || language != nil || n.ax.headingLevel != nil
            || n.ax.textualContext != nil
            || !n.ax.userInputLabels.isEmpty || n.ax.navigationStyle != .automatic || !n.ax.customActions.isEmpty
            || !n.ax.customRotors.isEmpty || !restrictions.isEmpty || !n.hasDefaultFocus
            || !n.ax.directTouchOptions.isEmpty
            || !automation.isEmpty || n.ax.ignoresInvertColors || cell != nil || indentationLevel != nil
        {
            var x = AXNodeExtras()
            x.hint = n.ax.hint
            x.placeholder = placeholder
            x.language = language
            x.headingLevel = n.ax.headingLevel
            x.textualContext = n.ax.textualContext
            x.userInputLabels = n.ax.userInputLabels
            x.navigationStyle = n.ax.navigationStyle
            x.customActions = n.ax.customActions
            x.rotors = n.ax.customRotors
            x.restrictions = restrictions
            x.focus = n.focus
            x.directTouchOptions = n.ax.directTouchOptions
            x.automationElements = automation
            x.ignoresInvertColors = n.ax.ignoresInvertColors
            x.cell = cell
            x.indentationLevel = indentationLevel
            extras = x
        }
        let text: String?
        switch role {
        case .textField, .secureTextField, .searchField, .textView: text = value ?? ""
        default: text = label
        }
        return AXNode(
            id: n.id, viewID: n.id, actionTarget: actionTarget, className: n.className, viewClass: n.kind, role: role,
            isElement: true, label: label, value: value, identifier: n.ax.identifier ?? control?.ax.identifier,
            traits: traits, states: st, frame: frame, activationPoint: n.ax.activationPoint ?? frame.center,  // X6
            parent: ctx.container.isEmpty ? nil : ctx.container, children: [], windowID: ctx.windowID,
            actions: ControlSemantics.actions(role: role, kind: kind, traits: traits, editable: editable),
            numeric: numeric, text: text, extras: extras)
    }

    private func makeVirtual(_ ve: VirtualElement, container: ViewNode, ctx: Ctx, childMap: AxisMap) -> AXNode {
        let traits = ve.ax.traits ?? []
        let role = ControlSemantics.elementRole(
            kind: .view, traits: traits, secure: false, editable: false,
            inTabBar: ctx.containerRole == .tabBar)
        // R35, X52: the frame in container space follows the container's current position.
        let frame = ve.ax.frame ?? childMap.apply(ve.frameInContainer)
        var ax = AXNode(
            id: ve.id, viewID: nil, className: "UIAccessibilityElement", viewClass: .view, role: role,
            isElement: ve.ax.isAccessibilityElement ?? true, windowID: ctx.windowID)
        var x = AXNodeExtras()
        ax.actionTarget = ve.id
        ax.parent = container.id
        ax.label = ve.ax.label
        ax.value = ve.ax.value
        x.hint = ve.ax.hint
        ax.identifier = ve.ax.identifier
        ax.traits = traits
        ax.frame = frame
        ax.activationPoint = ve.ax.activationPoint ?? frame.center
        x.language = ve.ax.language ?? ctx.language
        x.headingLevel = ve.ax.headingLevel
        x.customActions = ve.ax.customActions
        x.rotors = ve.ax.customRotors
        x.restrictions = ctx.restrictions
        x.textualContext = ve.ax.textualContext
        x.userInputLabels = ve.ax.userInputLabels
        var st = AXStates()
        if !traits.contains(.notEnabled) { st.insert(.enabled) }
        if traits.contains(.selected) { st.insert(.selected) }
        if ctx.clip.intersection(frame) != nil, !frame.isEmpty { st.insert(.onscreen) }
        let acts = ControlSemantics.actions(role: role, kind: .view, traits: traits, editable: false)
        ax.actions = acts
        if ve.ax.respondsToUserInteraction ?? (!acts.isEmpty && role != .staticText && !traits.contains(.notEnabled)) {
            st.insert(.respondsToUserInteraction)
        }
        ax.states = st
        ax.text = ve.ax.label
        if let rr = ve.ax.rowRange, let cr = ve.ax.columnRange, rr.location >= 0, cr.location >= 0 {
            x.cell = AXCellInfo(
                row: rr.location, rowSpan: max(rr.length, 1), column: cr.location, columnSpan: max(cr.length, 1))
        }
        ax.extras = x
        return ax
    }

    private func makeContainer(
        _ n: ViewNode, role: AXRole, ctx: Ctx, frame viewFrame: Rect, restrictions: [String], language: String?,
        children: [String]
    ) -> AXNode {
        var x = AXNodeExtras()
        let traits = ControlSemantics.traits(n)
        let label = n.ax.label ?? ControlSemantics.defaultLabel(n)
        x.hint = n.ax.hint ?? ((role == .alert) ? ControlSemantics.nonEmpty(n.control.message) : nil)
        let frame = n.ax.frame ?? viewFrame
        x.language = language
        x.containerType = n.ax.containerType
        x.navigationStyle = n.ax.navigationStyle
        x.customActions = n.ax.customActions
        x.rotors = n.ax.customRotors
        x.restrictions = restrictions
        x.focus = n.focus
        x.directTouchOptions = n.ax.directTouchOptions
        x.automationElements = automationElements(n, isElement: false)
        x.ignoresInvertColors = n.ax.ignoresInvertColors
        x.textualContext = n.ax.textualContext
        x.isPagingEnabled = n.kind.isScrollView && n.control.isPagingEnabled
        var st = states(for: n, frame: frame, ctx: ctx, traits: traits, role: role)
        if role == .window {
            st.insert(.onscreen)
            if ctx.isKeyWindow { st.insert(.activeWindow) }  // A27
        }
        let modal = effectiveModal(n)
        if modal { st.insert(.modal) }
        if let dt = n.ax.dataTable {
            x.table = AXTableInfo(
                rows: dt.rows, columns: dt.columns, columnHeaders: dt.columnHeaders, rowHeaders: dt.rowHeaders)
        }
        return AXNode(
            id: n.id, viewID: n.id, actionTarget: n.id, className: n.className, viewClass: n.kind, role: role,
            isElement: false, label: label, value: n.ax.value, identifier: n.ax.identifier, traits: traits, states: st,
            frame: frame, activationPoint: n.ax.activationPoint ?? frame.center,
            parent: ctx.container.isEmpty ? nil : ctx.container, children: children, windowID: ctx.windowID,
            actions: role == .alert || modal ? [.escape] : [],  // X32
            numeric: nil, text: label, extras: x)
    }

    // MARK: - Synthesized children of standard containers

    private struct Synthesized {
        var leading: [AXNode] = []
        var trailing: [AXNode] = []
        var nodes: [AXNode] { leading + trailing }
    }

    private func synthesize(_ n: ViewNode, role: AXRole, frame: Rect, ctx: Ctx, restrictions: [String]) -> Synthesized {
        var s = Synthesized()
        func base(_ id: String, _ role: AXRole, _ f: Rect, traits: Traits) -> AXNode {
            var ax = AXNode(
                id: id, viewID: nil, className: n.className, viewClass: n.kind, role: role, isElement: true,
                windowID: ctx.windowID)
            ax.actionTarget = id
            ax.parent = n.id
            ax.traits = traits
            ax.frame = f
            ax.activationPoint = f.center
            if ctx.language != nil || !restrictions.isEmpty {
                var x = AXNodeExtras()
                x.language = ctx.language
                x.restrictions = restrictions
                ax.extras = x
            }
            var st: AXStates = traits.contains(.notEnabled) ? [] : [.enabled]
            if traits.contains(.selected) { st.insert(.selected) }
            if ctx.clip.intersection(f) != nil, !f.isEmpty { st.insert(.onscreen) }
            if role != .header && role != .staticText && !traits.contains(.notEnabled) {
                st.insert(.respondsToUserInteraction)
                st.insert(.focusable)
            }
            ax.states = st
            return ax
        }
        func slice(_ i: Int, of count: Int) -> Rect {
            let w = frame.width / Double(max(count, 1))
            let idx = ctx.rtl ? count - 1 - i : i
            return Rect(x: frame.x + w * Double(idx), y: frame.y, width: w, height: frame.height)
        }
        switch n.kind {
        case .navigationBar:
            // R13, R14: the title (a header) is read first, then the back button.
            let third = frame.width / 3
            if let t = n.control.title, !t.isEmpty {
                var h = base(
                    n.id + "#title", .header, Rect(x: frame.x + third, y: frame.y, width: third, height: frame.height),
                    traits: .header)
                h.label = t
                h.text = t
                h.actions = [.activate]
                s.leading.append(h)
            }
            if let b = n.control.backButtonTitle {
                let bx = ctx.rtl ? frame.maxX - third : frame.x
                var btn = base(
                    n.id + "#back", .button, Rect(x: bx, y: frame.y, width: third, height: frame.height),
                    traits: .button)
                btn.label = b.isEmpty ? "Back" : b
                btn.text = btn.label
                btn.hint = nil
                btn.actions = [.activate]
                s.leading.append(btn)
            }
        case .segmentedControl:
            let titles = n.control.segmentTitles
            for (i, t) in titles.enumerated() {
                var tr: Traits = .button
                if n.control.selectedSegmentIndex == i { tr.insert(.selected) }
                if !n.control.isEnabled { tr.insert(.notEnabled) }
                var seg = base("\(n.id)#\(i)", .button, slice(i, of: titles.count), traits: tr)
                seg.label = t
                seg.text = t
                seg.actions = [.activate]
                s.trailing.append(seg)
            }
        case .pickerView, .datePicker:
            // R9, R10, R18: one adjustable element per component; its value is the selected row.
            let comps = n.control.components
            for (i, c) in comps.enumerated() {
                var e = base("\(n.id)#\(i)", .pickerItem, slice(i, of: comps.count), traits: .adjustable)
                e.label = c.label
                e.hint = c.hint
                e.value = c.rows.indices.contains(c.selectedRow) ? c.rows[c.selectedRow] : nil
                e.text = e.value
                e.actions = [.increment, .decrement]
                e.numeric = AXNumericValue(
                    current: Double(c.selectedRow), minimum: 0, maximum: Double(max(c.rows.count - 1, 0)), step: 1)
                s.trailing.append(e)
            }
        case .alertController, .actionSheet:
            if let m = n.control.message, !m.isEmpty {
                var t = base(n.id + "#message", .staticText, frame, traits: .staticText)
                t.label = m
                t.text = m
                t.actions = [.activate]
                s.leading.append(t)
            }
        default:
            break
        }
        return s
    }

    /// R12, A51: tabs and segments say their 1-based position and the count ("2 of 3").
    private func numberPositions(_ ids: [String], asValue: Bool) {
        let count = ids.count
        for (i, id) in ids.enumerated() {
            guard var n = nodes[id], n.isElement else { continue }
            n.positionInSet = i + 1
            n.sizeOfSet = count
            if asValue && n.viewID.map({ views.nodes[$0]?.ax.value == nil }) ?? true {
                n.value = "\(i + 1) of \(count)"
            }
            write(n)
        }
    }

    /// X18: explicit `automationElements`; else, for a non-element, the views of `accessibilityElements`; else, for
    /// an element without `accessibilityElements`, its subviews that carry an `accessibilityIdentifier`; else none.
    @inline(never)
    private func automationElements(_ n: ViewNode, isElement: Bool) -> [String] {
        if let explicit = n.ax.automationElements { return explicit }
        if let entries = n.ax.elements, !isElement {
            return entries.map { e in
                switch e {
                case .view(let id): return id
                case .virtual(let v): return v.id
                }
            }
        }
        if isElement && n.ax.elements == nil {
            return n.children.filter { views.nodes.box($0)?.value.ax.identifier?.isEmpty == false }
        }
        return []
    }

    /// Content of a table/collection cell: the labels of what it shows and the controls inside it (D-CELL-1).
    private func cellContent(_ cell: ViewNode, childMap: AxisMap, rtl: Bool) -> (labels: [String], controls: [ViewNode])
    {
        var labelItems: [Item] = []
        var texts: [String: String] = [:]
        var controls: [ViewNode] = []
        var counter = 0
        func walk(_ id: String, _ map: AxisMap) {
            guard let v = views.nodes[id], isVisibleSelf(v), !v.ax.elementsHidden else { return }
            let f = map.apply(Deriver.rectInParent(v))
            if v.ax.isAccessibilityElement != false {
                switch v.kind {
                case .switchControl, .slider, .stepper, .pageControl, .segmentedControl, .textField, .searchBar:
                    controls.append(v)
                    if let l = v.ax.label {
                        counter += 1
                        let k = "\(counter)"
                        texts[k] = l
                        labelItems.append(Item(id: k, frame: f))
                    }
                    return
                default:
                    let text =
                        v.ax.label
                        ?? ((v.kind == .label || v.kind == .button || v.kind == .imageView)
                            ? ControlSemantics.defaultLabel(v) : nil)
                    if let t = text, !t.isEmpty {
                        counter += 1
                        let k = "\(counter)"
                        texts[k] = t
                        labelItems.append(Item(id: k, frame: f))
                    }
                    if v.ax.isAccessibilityElement == true { return }
                }
            }
            let m = map.composed(with: Deriver.localMap(v))
            for c in v.children { walk(c, m) }
        }
        for c in cell.children { walk(c, childMap) }
        let ordered = readingOrder(labelItems, rtl: rtl)
        return (ordered.compactMap { texts[$0.id] }, controls)
    }
}
