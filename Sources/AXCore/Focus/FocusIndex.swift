import Synchronization

/// The focus engine's view of one revision of an app: every view in paint order with what focusability needs
/// (screen frame, inherited visibility, key window, modal siblings, focus group, scroll container). Built once
/// per revision, lazily, by whoever asks a focus question (Specs/protocol.md §Focus engine); pure, no I/O.
package struct FocusIndex: Sendable {
    /// One view, in paint order (a depth-first walk of the windows back to front, children back to front).
    package struct Entry: Sendable {
        package var id: String
        package var parent: Int
        /// One past the last descendant: the subtree is `index ..< subtreeEnd`.
        package var subtreeEnd: Int
        package var window: Int
        package var frame: Rect
        /// Maps this view's bounds coordinates to the screen (focus guides are laid out in it).
        package var map: AxisMap
        /// The nearest ancestor-or-self that is hidden or has alpha < 0.01, or -1.
        package var hiddenBy: Int
        /// The nearest ancestor-or-self with user interaction off, or -1.
        package var noInteractionBy: Int
        /// The visible modal view whose siblings this view (or an ancestor) is, or -1 (X10).
        package var modalHiddenBy: Int
        /// The nearest enclosing scroll view (UIScrollView and its subclasses), or -1 (C25).
        package var scrollContainer: Int
        /// The nearest enclosing UITabBar, or -1 (C28).
        package var tabBar: Int
        package var canBecomeFocused: Bool
        package var isEnabled: Bool
        package var isTransparent: Bool
        /// Visible for covering purposes: not hidden, alpha ≥ 0.01, with a non-empty frame.
        package var paints: Bool
        /// The focus group: the nearest ancestor-or-self's `focusGroupIdentifier` (C24).
        package var group: String?
        package var priority: Int
        package var rtl: Bool
    }

    /// One enabled-or-not focus guide with its screen frame (C18–C21).
    package struct Guide: Sendable {
        package var id: String
        package var owner: Int
        package var frame: Rect
        package var preferred: [String]
        package var isEnabled: Bool
    }

    package private(set) var entries: [Entry] = []
    package private(set) var position: [String: Int] = [:]
    package private(set) var guides: [Guide] = []
    /// Window entries (indices into `entries`), back to front.
    package private(set) var windows: [Int] = []
    /// The window the engine works in: the key window (A27), else the front-most visible window.
    package private(set) var keyWindow: Int = -1
    package let revision: Int
    package let views: ViewHierarchy
    /// Results computed once per revision on first use (the focus groups in Tab order, before priorities).
    package let memo = FocusMemo()

    /// Builds the index for one revision. O(views).
    package init(views: ViewHierarchy, tree: AXTree) {
        self.revision = tree.revision
        self.views = views
        entries.reserveCapacity(views.count)
        position.reserveCapacity(views.count)
        let ordered = views.roots.enumerated().sorted { a, b in
            let la = views.nodes[a.element]?.window.windowLevel ?? 0
            let lb = views.nodes[b.element]?.window.windowLevel ?? 0
            return la != lb ? la < lb : a.offset < b.offset
        }.map(\.element)
        for w in ordered {
            guard let node = views.nodes[w] else { continue }
            windows.append(entries.count)
            visitWindow(node, tree: tree)
        }
        keyWindow = Self.chooseKeyWindow(windows: windows, entries: entries, views: views)
        buildCoverGrid()
    }

    // MARK: Covering views (C15, C16)

    /// A uniform grid over everything that paints: each cell lists, in paint order, the visible views that are
    /// not transparent focus items and overlap the cell. A view that covers an item contains the item's centre,
    /// so only the centre's cell is searched. About four views per cell (at most 64 × 64 cells).
    private var gridOrigin = Point.zero
    private var cellWidth = 1.0
    private var cellHeight = 1.0
    private var gridSide = 1
    private var cells: [[Int]] = []

    private mutating func buildCoverGrid() {
        var bounds: Rect?
        var painting = 0
        for entry in entries where entry.paints && !entry.isTransparent && entry.hiddenBy < 0 {
            bounds = bounds.map { $0.union(entry.frame) } ?? entry.frame
            painting += 1
        }
        guard let bounds, !bounds.isEmpty else { return }
        gridSide = min(64, max(4, Int(Double(painting / 4).squareRoot())))
        gridOrigin = Point(x: bounds.minX, y: bounds.minY)
        cellWidth = bounds.width / Double(gridSide)
        cellHeight = bounds.height / Double(gridSide)
        cells = Array(repeating: [], count: gridSide * gridSide)
        for position in entries.indices {
            let entry = entries[position]
            guard entry.paints, !entry.isTransparent, entry.hiddenBy < 0 else { continue }
            let (c0, r0) = cell(of: Point(x: entry.frame.minX, y: entry.frame.minY))
            let (c1, r1) = cell(of: Point(x: entry.frame.maxX, y: entry.frame.maxY))
            for row in r0...r1 {
                for column in c0...c1 { cells[row * gridSide + column].append(position) }
            }
        }
    }

    private func cell(of point: Point) -> (Int, Int) {
        let side = Double(gridSide)
        let column = ((point.x - gridOrigin.x) / cellWidth).rounded(.down)
        let row = ((point.y - gridOrigin.y) / cellHeight).rounded(.down)
        let clampedColumn = column.isFinite ? Int(min(max(column, 0), side - 1)) : 0
        let clampedRow = row.isFinite ? Int(min(max(row, 0), side - 1)) : 0
        return (clampedColumn, clampedRow)
    }

    /// The painting, non-transparent views whose frames overlap `point`'s cell, from paint position `after` on.
    package func coverers(at point: Point, after: Int) -> ArraySlice<Int> {
        guard !cells.isEmpty else { return [] }
        let (column, row) = cell(of: point)
        let list = cells[row * gridSide + column]
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle] < after { low = middle + 1 } else { high = middle }
        }
        return list[low...]
    }

    private static func chooseKeyWindow(windows: [Int], entries: [Entry], views: ViewHierarchy) -> Int {
        var modalWindow = -1
        for w in windows.reversed() where entries[w].hiddenBy < 0 {
            if let n = views.nodes[entries[w].id], Self.isModal(n) {
                modalWindow = w
                break
            }
        }
        if modalWindow >= 0 { return modalWindow }
        for w in windows.reversed() where entries[w].hiddenBy < 0 {
            if views.nodes[entries[w].id]?.window.isKeyWindow == true { return w }
        }
        // No window claims key: the front-most visible one receives keyboard input (D-FOCUS-3).
        return windows.last { entries[$0].hiddenBy < 0 } ?? -1
    }

    static func isModal(_ n: ViewNode) -> Bool {
        n.ax.viewIsModal ?? (n.kind == .alertController || n.kind == .actionSheet)
    }

    /// C17: buttons, text fields and cells are focusable by default (with their kin: switches, sliders,
    /// steppers, segmented controls, tab-bar buttons, links); everything else only when it says so.
    static func defaultCanBecomeFocused(_ n: ViewNode, tree: AXTree, views: ViewHierarchy) -> Bool {
        // A cell of a table or collection view with `allowsFocus: false` (D-FOCUS-SEL-1).
        if CollectionFocus.disallowsFocus(n, views: views) { return false }
        if let ax = tree[n.id] {
            let roles: [AXRole] = [
                .button, .textField, .secureTextField, .searchField, .textView, .cell, .switch, .adjustable, .tab,
                .link,
            ]
            if roles.contains(ax.role) { return true }
        }
        switch n.kind {
        case .button, .barButtonItem, .textField, .searchBar, .tableViewCell, .collectionViewCell, .switchControl,
            .slider, .stepper, .segmentedControl, .tabBarButton:
            return true
        case .textView:
            return n.control.isEditable
        default:
            return false
        }
    }

    private mutating func visitWindow(_ window: ViewNode, tree: AXTree) {
        struct Frame {
            var id: String
            var parent: Int
            var parentMap: AxisMap
            var hiddenBy: Int
            var noInteractionBy: Int
            var modalID: String?
            var scroll: Int
            var tabBar: Int
            var group: String?
            var rtl: Bool
        }
        let windowIndex = entries.count
        // Depth-first without recursion (a hierarchy may be 256 deep): a stack of pending children, and a list of
        // open entries whose `subtreeEnd` is written when the walk leaves them.
        var stack: [Frame] = [
            Frame(
                id: window.id, parent: -1, parentMap: .identity, hiddenBy: -1, noInteractionBy: -1,
                modalID: nil, scroll: -1, tabBar: -1, group: nil, rtl: window.window.layoutDirection == .rtl)
        ]
        var open: [Int] = []
        var modalIDs: [(index: Int, modal: String)] = []
        while let item = stack.popLast() {
            guard let node = views.nodes[item.id] else { continue }
            let index = entries.count
            // The open entries are the path to the previous view; the parent of this one is on it.
            while let last = open.last, last != item.parent {
                entries[last].subtreeEnd = index
                open.removeLast()
            }
            let map = item.parentMap.composed(with: Deriver.localMap(node))
            let frame = item.parentMap.apply(Deriver.rectInParent(node))
            let hidden = node.isHidden || node.alpha < 0.01
            let hiddenBy = Self.culprit(inherited: item.hiddenBy, this: hidden, at: index)
            let noInteractionBy = Self.culprit(
                inherited: item.noInteractionBy, this: !node.effectiveUserInteractionEnabled, at: index)
            let group = node.focus.groupIdentifier ?? item.group
            let rtl = node.kind == .window ? node.window.layoutDirection == .rtl : item.rtl
            let entry = Entry(
                id: node.id, parent: item.parent, subtreeEnd: index + 1, window: windowIndex, frame: frame, map: map,
                hiddenBy: hiddenBy, noInteractionBy: noInteractionBy, modalHiddenBy: -1,
                scrollContainer: item.scroll, tabBar: item.tabBar,
                canBecomeFocused: node.focus.canBecomeFocused
                    ?? Self.defaultCanBecomeFocused(node, tree: tree, views: views),
                isEnabled: node.control.isEnabled, isTransparent: node.focus.isTransparentFocusItem,
                paints: !hidden && !frame.isEmpty, group: group, priority: node.focus.groupPriority.rawValue, rtl: rtl)
            entries.append(entry)
            position[node.id] = index
            if let modal = item.modalID { modalIDs.append((index, modal)) }
            open.append(index)
            appendGuides(of: node, owner: index, map: map)
            let modalChild = frontModalChild(of: node)
            let childScroll = Self.isScrollContainer(node) ? index : item.scroll
            let childTabBar = node.kind == .tabBar ? index : item.tabBar
            // Push back to front reversed, so the back-most child is visited first (paint order).
            for childID in node.children.reversed() {
                var modal = item.modalID
                if modal == nil, let modalChild, modalChild != childID { modal = modalChild }
                stack.append(
                    Frame(
                        id: childID, parent: index, parentMap: map, hiddenBy: hiddenBy,
                        noInteractionBy: noInteractionBy,
                        modalID: modal, scroll: childScroll, tabBar: childTabBar, group: group, rtl: rtl))
            }
        }
        for last in open { entries[last].subtreeEnd = entries.count }
        for (index, modal) in modalIDs {
            entries[index].modalHiddenBy = position[modal] ?? -1
        }
    }

    /// The view's focus guides, in the window's coordinates (C19–C21).
    @inline(__always)
    private mutating func appendGuides(of node: ViewNode, owner: Int, map: AxisMap) {
        for guide in node.focus.guides {
            guides.append(
                Guide(
                    id: guide.id, owner: owner, frame: map.apply(guide.frame), preferred: guide.preferred,
                    isEnabled: guide.isEnabled))
        }
    }

    /// X10: a visible modal child hides its siblings (the front-most one, when several claim it).
    @inline(__always)
    private func frontModalChild(of node: ViewNode) -> String? {
        for childID in node.children.reversed() {
            if let child = views.nodes[childID], !child.isHidden, child.alpha >= 0.01, Self.isModal(child) {
                return childID
            }
        }
        return nil
    }

    /// The entry that hides (or blocks) a view: its ancestor's when one does (`inherited` ≥ 0), else the view itself
    /// when `this`, else none (-1).
    @inline(__always)
    private static func culprit(inherited: Int, this: Bool, at index: Int) -> Int {
        inherited >= 0 ? inherited : (this ? index : -1)
    }

    @inline(__always)
    private static func isScrollContainer(_ node: ViewNode) -> Bool {
        node.kind == .scrollView || node.kind == .tableView || node.kind == .collectionView
    }

    package subscript(id: String) -> Entry? {
        guard let index = position[id] else { return nil }
        return entries[index]
    }

    /// Whether `index` lies in the subtree of `ancestor` (or is it).
    package func isInSubtree(_ index: Int, of ancestor: Int) -> Bool {
        index >= ancestor && index < entries[ancestor].subtreeEnd
    }
}

/// Per-revision results the engine computes on first use and reuses (shared by every copy of one index).
package final class FocusMemo: Sendable {
    package let groups = Mutex<[FocusGroup]?>(nil)
    /// Item id → its group's position in `groups`.
    package let groupOfItem = Mutex<[String: Int]>([:])
    package let candidates = Mutex<FocusCandidates?>(nil)
    package init() {}
}
