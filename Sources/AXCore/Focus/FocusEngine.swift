/// The direction of a focus update: `UIFocusUpdateContext.focusHeading` (C14). The seed lists no constants; these
/// names are the protocol's (Specs/protocol.md §Focus engine).
package enum FocusHeading: String, Sendable, CaseIterable {
    case up, down, left, right, next, previous
    /// A programmatic update (initial focus, a request, an app push): no direction.
    case none

    /// The values `focus.move` / `focus.query` accept.
    package static let movable: [FocusHeading] = [.up, .down, .left, .right, .next, .previous]
}

/// One focusability check (C2, C15–C17, C32): what `focus.explain` reports, in the order they run.
package struct FocusCheck: Sendable, Equatable {
    package var name: String
    package var passed: Bool
    /// The view responsible when the check failed (a hidden ancestor, the covering view, the modal view…).
    package var view: String?
    package var message: String
}

/// Where a focus update lands, and how it got there.
package struct FocusDecision: Sendable, Equatable {
    package var item: String
    /// The focus guide that redirected the move (C21), if any.
    package var guide: String?
    /// The preferred-environment chain followed to the item (C7, C8), outermost first.
    package var preferredChain: [String]
    /// The scroll container the app must scroll, and the content offset that shows the item (C25).
    package var scroll: FocusScroll?
}

/// A scroll the engine asks of the app: the container and the content offset that makes the item visible (C25).
package struct FocusScroll: Sendable, Equatable {
    package var container: String
    package var contentOffset: Point

    package init(container: String, contentOffset: Point) {
        self.container = container
        self.contentOffset = contentOffset
    }
}

/// Why a move found nothing (`focus.movementFailed`, C3).
package enum FocusFailure: Error, Sendable, Equatable {
    case noCandidate(FocusHeading)
    case endOfSequence(FocusHeading)
    case guideLeadsNowhere(String)
    case nothingFocusable

    package var message: String {
        switch self {
        case .noCandidate(let h): return "no focusable item \(h.rawValue) of the focused item (C3)"
        case .endOfSequence(let h):
            return h == .next
                ? "the focused item is the last in the focus sequence"
                : "the focused item is the first in the focus sequence"
        case .guideLeadsNowhere(let g): return "focus guide '\(g)' prefers no focusable environment"
        case .nothingFocusable: return "the key window has no focusable item"
        }
    }
    package var reason: String {
        switch self {
        case .noCandidate: return "noCandidate"
        case .endOfSequence: return "endOfSequence"
        case .guideLeadsNowhere: return "guideLeadsNowhere"
        case .nothingFocusable: return "nothingFocusable"
        }
    }
}

/// The server-side UIKit focus engine (views-swiftui-focus.md §C): focusability, initial focus, directional
/// and sequential movement, groups, guides, preferred environments. Pure: it reads a `FocusIndex` and the
/// engine's memory, and answers; the hub applies the answer (Specs/protocol.md §Focus engine, D-FOCUS-3).
package struct FocusEngine: Sendable {
    package let index: FocusIndex
    /// The last item focused in each group: it gets `previouslyFocused` priority when the group is entered (C22).
    package var lastFocusedInGroup: [String: String]
    /// The item through which focus entered each group: while focus stays inside, the group's order starts there.
    package var groupEntry: [String: String]
    /// The item that has engine focus now (its group keeps its entry order).
    package var focused: String?

    package init(
        index: FocusIndex, lastFocusedInGroup: [String: String] = [:], groupEntry: [String: String] = [:],
        focused: String? = nil
    ) {
        self.index = index
        self.lastFocusedInGroup = lastFocusedInGroup
        self.groupEntry = groupEntry
        self.focused = focused
    }

    // MARK: Focusability (C2, C15–C17, C32)

    /// Every check for one view, stopping after the first failure (the focus debugger's focusability check).
    package func checks(_ id: String) -> [FocusCheck] {
        guard let position = index.position[id] else {
            return [FocusCheck(name: "exists", passed: false, view: id, message: "no view '\(id)' in the hierarchy")]
        }
        var out: [FocusCheck] = []
        for check in Self.checkOrder {
            let result = run(check, position)
            out.append(result)
            if !result.passed { break }
        }
        return out
    }

    /// Whether a view can receive engine focus now (every check passes).
    package func isFocusable(_ id: String) -> Bool {
        guard let position = index.position[id] else { return false }
        return isFocusable(at: position)
    }

    /// Whether engine focus on `id`, which stopped being focusable, is given back when what took it goes (C27):
    /// false when a modal view hides it (X10) and that view's presented controller set
    /// `restoresFocusAfterTransition` to false; then the engine focuses its initial item instead.
    package func restoresFocus(afterLosing id: String) -> Bool {
        guard let position = index.position[id] else { return true }
        let modal = index.entries[position].modalHiddenBy
        guard modal >= 0, modal < index.entries.count else { return true }
        return index.views[index.entries[modal].id]?.focus.restoresFocusAfterTransition ?? true
    }

    package func isFocusable(at position: Int) -> Bool {
        Self.checkOrder.allSatisfy { run($0, position).passed }
    }

    /// The cheap checks (everything but covering), for scanning candidates.
    func passesCheapChecks(_ position: Int) -> Bool {
        let entry = index.entries[position]
        return entry.canBecomeFocused && entry.isEnabled && entry.hiddenBy < 0 && entry.noInteractionBy < 0
            && entry.window == index.keyWindow && entry.modalHiddenBy < 0 && isOnscreenOrScrollable(position)
    }

    static let checkOrder = [
        "canBecomeFocused", "enabled", "visible", "userInteraction", "keyWindow", "modal", "onscreen", "covered",
    ]

    private func name(_ position: Int) -> String { index.entries[position].id }

    private func run(_ check: String, _ position: Int) -> FocusCheck {
        let entry = index.entries[position]
        switch check {
        case "canBecomeFocused":
            let ok = entry.canBecomeFocused
            return FocusCheck(
                name: check, passed: ok, view: ok ? nil : entry.id,
                message: ok ? "canBecomeFocused" : "canBecomeFocused is false (C2, C17)")
        case "enabled":
            return FocusCheck(
                name: check, passed: entry.isEnabled, view: entry.isEnabled ? nil : entry.id,
                message: entry.isEnabled ? "enabled" : "the control is disabled (isEnabled false)")
        case "visible": return visibleCheck(entry, position)
        case "userInteraction": return userInteractionCheck(entry, position)
        case "keyWindow": return keyWindowCheck(entry)
        case "modal": return modalCheck(entry)
        case "onscreen": return onscreenCheck(entry, position)
        default: return coveredCheck(position)
        }
    }

    private func visibleCheck(_ entry: FocusIndex.Entry, _ position: Int) -> FocusCheck {
        guard entry.hiddenBy >= 0 else {
            return FocusCheck(name: "visible", passed: true, view: nil, message: "visible")
        }
        let culprit = name(entry.hiddenBy)
        let hiddenNode = index.views[culprit]
        let why = hiddenNode?.isHidden == true ? "isHidden" : "alpha < 0.01"
        let message =
            entry.hiddenBy == position ? "the view is hidden (\(why))" : "ancestor '\(culprit)' is hidden (\(why))"
        return FocusCheck(name: "visible", passed: false, view: culprit, message: message)
    }

    private func userInteractionCheck(_ entry: FocusIndex.Entry, _ position: Int) -> FocusCheck {
        guard entry.noInteractionBy >= 0 else {
            return FocusCheck(name: "userInteraction", passed: true, view: nil, message: "user interaction enabled")
        }
        let culprit = name(entry.noInteractionBy)
        let message =
            entry.noInteractionBy == position
            ? "isUserInteractionEnabled is false"
            : "ancestor '\(culprit)' has isUserInteractionEnabled false"
        return FocusCheck(name: "userInteraction", passed: false, view: culprit, message: message)
    }

    private func keyWindowCheck(_ entry: FocusIndex.Entry) -> FocusCheck {
        let ok = entry.window == index.keyWindow
        let window = name(entry.window)
        return FocusCheck(
            name: "keyWindow", passed: ok, view: ok ? nil : window,
            message: ok ? "in the key window" : "window '\(window)' is not the key window (A27)")
    }

    private func modalCheck(_ entry: FocusIndex.Entry) -> FocusCheck {
        guard entry.modalHiddenBy >= 0 else {
            return FocusCheck(name: "modal", passed: true, view: nil, message: "not behind a modal view")
        }
        let culprit = name(entry.modalHiddenBy)
        return FocusCheck(
            name: "modal", passed: false, view: culprit, message: "modal view '\(culprit)' hides its siblings (X10)")
    }

    private func onscreenCheck(_ entry: FocusIndex.Entry, _ position: Int) -> FocusCheck {
        let ok = isOnscreenOrScrollable(position)
        return FocusCheck(
            name: "onscreen", passed: ok, view: ok ? nil : name(entry.window),
            message: ok
                ? "on screen, or in a scroll view that can show it" : "outside its window and not in a scroll view")
    }

    /// The last check ("covered").
    private func coveredCheck(_ position: Int) -> FocusCheck {
        if let cover = coveringView(position) {
            let culprit = name(cover)
            return FocusCheck(
                name: "covered", passed: false, view: culprit,
                message:
                    "fully covered by '\(culprit)', which is in front of it and not a transparent focus item (C15, C16)"
            )
        }
        return FocusCheck(name: "covered", passed: true, view: nil, message: "not covered")
    }

    private func isOnscreenOrScrollable(_ position: Int) -> Bool {
        let entry = index.entries[position]
        if entry.scrollContainer >= 0 { return true }
        return entry.frame.intersection(index.entries[entry.window].frame) != nil
            || entry.frame.isEmpty && index.entries[entry.window].frame.contains(entry.frame.center)
    }

    /// C15/C16: the front-most view, not an ancestor or descendant, that paints over the whole item and is not a
    /// transparent focus item. Views of later windows cover too.
    package func coveringView(_ position: Int) -> Int? {
        let entry = index.entries[position]
        let target = entry.frame
        guard !target.isEmpty else { return nil }
        let entries = index.entries
        for other in index.coverers(at: target.center, after: entry.subtreeEnd) {
            let candidate = entries[other]
            if candidate.hiddenBy < 0, candidate.frame.containsRect(target) { return other }
        }
        return nil
    }

    // MARK: Preferred environments (C7, C8, C10, C21, C39)

    /// The item focus lands on when `environment` is asked to take focus: the environment itself when focusable,
    /// else its preferred environments in priority order (the first that resolves wins, C8), else its top-leading
    /// focusable descendant. Bounded: 32 levels, each environment once.
    package func resolve(_ environment: String) -> (item: String, chain: [String])? {
        var visited = Set<String>()
        return resolve(environment, depth: 0, visited: &visited)
    }

    private func resolve(_ environment: String, depth: Int, visited: inout Set<String>) -> (
        item: String, chain: [String]
    )? {
        guard depth < 32, visited.insert(environment).inserted else { return nil }
        if let guide = index.guides.first(where: { $0.id == environment }) {
            for preferred in guide.preferred {
                if let found = resolve(preferred, depth: depth + 1, visited: &visited) {
                    return (found.item, [environment] + found.chain)
                }
            }
            return nil
        }
        guard let position = index.position[environment] else { return nil }
        if isFocusable(at: position) { return (environment, [environment]) }
        let preferred = index.views[environment]?.focus.preferredEnvironments ?? []
        for candidate in preferred {
            if let found = resolve(candidate, depth: depth + 1, visited: &visited) {
                return (found.item, [environment] + found.chain)
            }
        }
        guard let first = topLeading(in: position) else { return nil }
        return (first, [environment, first])
    }

    /// C6: the top-leading focusable item of a subtree — the top-left one, or the top-right one in RTL.
    package func topLeading(in root: Int) -> String? {
        var best: Int?
        for position in root..<index.entries[root].subtreeEnd where passesCheapChecks(position) {
            if let current = best, !Self.readsBefore(index.entries[position], index.entries[current]) { continue }
            if isFocusable(at: position) { best = position }
        }
        return best.map { index.entries[$0].id }
    }

    /// Reading order: top edges within half a point are one row; then leading edge (left, or right in RTL).
    static func readsBefore(_ a: FocusIndex.Entry, _ b: FocusIndex.Entry) -> Bool {
        readsBefore(a.frame, b.frame, rtl: a.rtl)
    }

    static func readsBefore(_ a: Rect, _ b: Rect, rtl: Bool) -> Bool {
        if abs(a.minY - b.minY) > 0.5 { return a.minY < b.minY }
        return rtl ? a.maxX > b.maxX : a.minX < b.minX
    }

    /// The initial focus (C6, C7): the key window's preferred environments, else its top-leading item.
    package func initialFocus() -> (item: String, chain: [String])? {
        guard index.keyWindow >= 0 else { return nil }
        return resolve(index.entries[index.keyWindow].id)
    }

    /// A programmatic focus request (`requestFocusUpdate(to:)` then `updateFocusIfNeeded()`, C10): the
    /// environment or its preferred descendant (C7, C8). With no environment, the default focus is evaluated
    /// again (C39's `resetFocus`).
    package func request(_ environment: String?) -> Result<FocusDecision, FocusFailure> {
        let found = environment.map { resolve($0) } ?? initialFocus()
        guard let found else { return .failure(.nothingFocusable) }
        return .success(decision(found.item, guide: nil, chain: found.chain))
    }

    // MARK: Movement (C3, C5, C19–C21, C28, C38)

    /// Where a move from `current` in `heading` lands, or why it cannot. With no current item, every move gives
    /// the initial focus (C6).
    package func move(from current: String?, heading: FocusHeading) -> Result<FocusDecision, FocusFailure> {
        guard let current, let source = index.position[current] else {
            guard let initial = initialFocus() else { return .failure(.nothingFocusable) }
            return .success(decision(initial.item, guide: nil, chain: initial.chain))
        }
        switch heading {
        case .next, .previous:
            guard let neighbour = sequenceNeighbour(of: current, heading: heading) else {
                let groups = staticGroups()
                if groups.isEmpty { return .failure(.nothingFocusable) }
                return .failure(.endOfSequence(heading))
            }
            return .success(decision(neighbour, guide: nil, chain: []))
        case .none:
            return .success(decision(current, guide: nil, chain: []))
        default:
            return directional(from: source, heading: heading)
        }
    }

    private func decision(_ item: String, guide: String?, chain: [String]) -> FocusDecision {
        FocusDecision(item: item, guide: guide, preferredChain: chain, scroll: scrollToShow(item))
    }

    /// The geometric search (Specs/protocol.md §Focus engine, "Directional search"):
    /// 1. candidates are the focusable items of the key window and its enabled focus guides, except the source;
    /// 2. a candidate must lie entirely beyond the source's edge in the direction (1 pt of overlap tolerated);
    /// 3. and overlap the source's extent on the other axis (the "beam"); inside a UITabBar, when nothing is in
    ///    the beam, the nearest candidate beyond the edge is taken instead (C28);
    /// 4. the nearest by edge gap wins, then by the distance between centres on the other axis, then paint order;
    /// 5. a guide redirects to its preferred environments (C21); a disabled guide is no candidate (C19).
    private func directional(from source: Int, heading: FocusHeading) -> Result<FocusDecision, FocusFailure> {
        let from = index.entries[source].frame
        let inTabBar = index.entries[source].tabBar >= 0
        var best: DirectionalCandidate?
        var nearestOutsideBeam: DirectionalCandidate?
        func consider(_ rect: Rect, order: Int, item: String?, guide: Int?, covered: () -> Bool) {
            guard let gap = Self.gap(from: from, to: rect, heading: heading) else { return }
            let candidate = DirectionalCandidate(
                gap: gap, offAxis: Self.offAxisDistance(from: from, to: rect, heading: heading),
                order: order, item: item, guide: guide)
            if Self.inBeam(from: from, to: rect, heading: heading) {
                if best.map({ candidate.isBetter(than: $0) }) ?? true, !covered() { best = candidate }
            } else if inTabBar {
                let closer = nearestOutsideBeam.map { candidate.gap + candidate.offAxis < $0.gap + $0.offAxis } ?? true
                if closer, !covered() { nearestOutsideBeam = candidate }
            }
        }
        // Not every candidate is scanned (the candidate lists are sorted by top edge once per revision): left and
        // right scan the rows that can overlap the source's beam; up and down sweep away from the source and stop
        // once no later candidate can be nearer. From a tab bar every candidate is scanned.
        let lists = candidateLists()
        let sorted = lists.byMinY
        func visit(_ position: Int) {
            guard position != source else { return }
            consider(index.entries[position].frame, order: position, item: index.entries[position].id, guide: nil) {
                coveringView(position) != nil
            }
        }
        if inTabBar {
            for position in sorted { visit(position) }
        } else {
            switch heading {
            case .left, .right:
                for position in sorted[lowerBound(sorted, from.minY - lists.maxHeight)...] {
                    if index.entries[position].frame.minY >= from.maxY { break }
                    visit(position)
                }
            case .down:
                for position in sorted[lowerBound(sorted, from.maxY - 1 - 1e-9)...] {
                    if index.entries[position].frame.minY - from.maxY > (best?.gap ?? .infinity) + 1e-9 { break }
                    visit(position)
                }
            default:
                var cursor = lowerBound(sorted, from.minY + 1) - 1
                while cursor >= 0 {
                    let position = sorted[cursor]
                    if from.minY - (index.entries[position].frame.minY + lists.maxHeight) > (best?.gap ?? .infinity)
                        + 1e-9
                    {
                        break
                    }
                    visit(position)
                    cursor -= 1
                }
            }
        }
        for (guideIndex, guide) in index.guides.enumerated() where guide.isEnabled {
            let owner = index.entries[guide.owner]
            guard owner.hiddenBy < 0, owner.window == index.keyWindow, owner.modalHiddenBy < 0 else { continue }
            guard !guide.frame.contains(from.center) else { continue }
            consider(guide.frame, order: guide.owner, item: nil, guide: guideIndex) { false }
        }
        // Only a search from a tab bar records the nearest candidate outside the beam (C28).
        return decision(for: best ?? nearestOutsideBeam, from: source, heading: heading)
    }

    /// The directional search's answer: the winning item, or where the winning guide leads (C21).
    private func decision(for winner: DirectionalCandidate?, from source: Int, heading: FocusHeading) -> Result<
        FocusDecision, FocusFailure
    > {
        guard let winner else { return .failure(.noCandidate(heading)) }
        if let item = winner.item { return .success(decision(item, guide: nil, chain: [])) }
        let guide = index.guides[winner.guide ?? 0]
        guard let resolved = resolve(guide.id), resolved.item != index.entries[source].id else {
            return .failure(.guideLeadsNowhere(guide.id))
        }
        return .success(decision(resolved.item, guide: guide.id, chain: Array(resolved.chain.dropFirst())))
    }

    /// The first position in `sorted` (by top edge) whose top edge is above `value`.
    private func lowerBound(_ sorted: [Int], _ value: Double) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if index.entries[sorted[middle]].frame.minY <= value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The items that pass the cheap checks, sorted by top and by left edge (once per revision).
    private func candidateLists() -> FocusCandidates {
        if let cached = index.memo.candidates.withLock({ $0 }) { return cached }
        var items: [Int] = []
        var maxWidth = 0.0
        var maxHeight = 0.0
        for position in index.entries.indices where passesCheapChecks(position) {
            items.append(position)
            maxWidth = max(maxWidth, index.entries[position].frame.width)
            maxHeight = max(maxHeight, index.entries[position].frame.height)
        }
        let entries = index.entries
        let lists = FocusCandidates(
            byMinY: items.sorted { entries[$0].frame.minY < entries[$1].frame.minY },
            maxWidth: maxWidth, maxHeight: maxHeight)
        index.memo.candidates.withLock { $0 = lists }
        return lists
    }

    /// The gap between the source's edge and the candidate's facing edge, or nil when the candidate is not
    /// entirely beyond the source in that direction (1 pt of overlap tolerated for abutting frames).
    package static func gap(from: Rect, to: Rect, heading: FocusHeading) -> Double? {
        let tolerance = 1.0
        switch heading {
        case .right: return to.minX >= from.maxX - tolerance ? max(0, to.minX - from.maxX) : nil
        case .left: return to.maxX <= from.minX + tolerance ? max(0, from.minX - to.maxX) : nil
        case .down: return to.minY >= from.maxY - tolerance ? max(0, to.minY - from.maxY) : nil
        case .up: return to.maxY <= from.minY + tolerance ? max(0, from.minY - to.maxY) : nil
        case .next, .previous, .none: return nil
        }
    }

    package static func inBeam(from: Rect, to: Rect, heading: FocusHeading) -> Bool {
        switch heading {
        case .left, .right: return min(from.maxY, to.maxY) - max(from.minY, to.minY) > 0
        default: return min(from.maxX, to.maxX) - max(from.minX, to.minX) > 0
        }
    }

    static func offAxisDistance(from: Rect, to: Rect, heading: FocusHeading) -> Double {
        switch heading {
        case .left, .right: return abs(from.midY - to.midY)
        default: return abs(from.midX - to.midX)
        }
    }

    // MARK: Sequence (Tab order; C22, C24, C37, C38)

    /// The focus groups of the key window in Tab order, each with its items in order (primary item first).
    package func groups() -> [FocusGroup] {
        var groups = staticGroups()
        let focusedGroup = focused.flatMap { index[$0]?.group }
        for at in groups.indices {
            guard let identifier = groups[at].identifier else { continue }
            let primary = primaryItem(groups[at].members, group: identifier)
            groups[at].primary = primary
            // The order inside a group is its reading order turned to start at the item focus entered through
            // (while focus is inside), else at the primary item (C22, C38; D-FOCUS-6).
            var start = primary
            if focusedGroup == identifier, let entry = groupEntry[identifier], groups[at].items.contains(entry) {
                start = entry
            }
            guard let start, let offset = groups[at].items.firstIndex(of: start), offset > 0 else { continue }
            groups[at].items = Array(groups[at].items[offset...] + groups[at].items[..<offset])
        }
        return groups
    }

    /// The groups and their members in reading order, before priorities: computed once per revision.
    private func staticGroups() -> [FocusGroup] {
        if let cached = index.memo.groups.withLock({ $0 }) { return cached }
        var byKey: [String: Int] = [:]
        var groups: [FocusGroup] = []
        for position in index.entries.indices where passesCheapChecks(position) && coveringView(position) == nil {
            let entry = index.entries[position]
            // An item outside every group is a group of its own (Specs/protocol.md §Focus engine, "Sequence").
            let key = entry.group ?? "#" + entry.id
            if let at = byKey[key] {
                groups[at].members.append(position)
                groups[at].bounds = groups[at].bounds.union(entry.frame)
            } else {
                byKey[key] = groups.count
                groups.append(
                    FocusGroup(identifier: entry.group, members: [position], bounds: entry.frame, rtl: entry.rtl))
            }
        }
        let entries = index.entries
        for at in groups.indices {
            groups[at].members.sort { a, b in
                Self.readsBefore(entries[a], entries[b]) || (!Self.readsBefore(entries[b], entries[a]) && a < b)
            }
            groups[at].items = groups[at].members.map { entries[$0].id }
        }
        groups.sort { a, b in
            Self.readsBefore(a.bounds, b.bounds, rtl: a.rtl)
                || (!Self.readsBefore(b.bounds, a.bounds, rtl: a.rtl)
                    && (a.members.min() ?? 0) < (b.members.min() ?? 0))
        }
        var groupOfItem: [String: Int] = [:]
        for (at, group) in groups.enumerated() {
            for item in group.items { groupOfItem[item] = at }
        }
        // The item map first: a reader that finds the groups cached finds the map too.
        index.memo.groupOfItem.withLock { $0 = groupOfItem }
        index.memo.groups.withLock { $0 = groups }
        return groups
    }

    /// The item after (next) or before (previous) `current` in the Tab sequence, computing only the groups
    /// involved. `current` counts as the focused item: its group keeps the order it was entered in.
    package func sequenceNeighbour(of current: String, heading: FocusHeading) -> String? {
        let groups = staticGroups()
        guard let at = index.memo.groupOfItem.withLock({ $0[current] }) else {
            // Not in the sequence (not focusable now): the first or the last item.
            let edge = heading == .next ? groups.indices.first : groups.indices.last
            guard let edge else { return nil }
            let order = effectiveOrder(groups[edge], inside: nil)
            return heading == .next ? order.first : order.last
        }
        let order = effectiveOrder(groups[at], inside: current)
        guard let offset = order.firstIndex(of: current) else { return nil }
        if heading == .next {
            if offset + 1 < order.count { return order[offset + 1] }
            return at + 1 < groups.count ? effectiveOrder(groups[at + 1], inside: nil).first : nil
        }
        if offset > 0 { return order[offset - 1] }
        guard at > 0 else { return nil }
        // Backwards into a group: the item focused there last (where Tab left it, C22), so Shift-Tab retraces
        // Tab (D-FOCUS-6); a group never visited is entered at the last item of its order.
        let previous = groups[at - 1]
        if let identifier = previous.identifier, let last = lastFocusedInGroup[identifier],
            previous.items.contains(last)
        {
            return last
        }
        return effectiveOrder(previous, inside: nil).last
    }

    /// A group's order: reading order turned to start at the entry item while `inside` is in the group, else at
    /// the primary item (D-FOCUS-6).
    private func effectiveOrder(_ group: FocusGroup, inside: String?) -> [String] {
        guard let identifier = group.identifier else { return group.items }
        var start = primaryItem(group.members, group: identifier)
        if inside != nil, let entry = groupEntry[identifier], group.items.contains(entry) { start = entry }
        guard let start, let offset = group.items.firstIndex(of: start), offset > 0 else { return group.items }
        return Array(group.items[offset...] + group.items[..<offset])
    }

    /// C22: the member with the highest `focusGroupPriority`, the last focused one counting as
    /// `previouslyFocused`; nil when every member is `ignored` (the group then starts at its first item).
    private func primaryItem(_ members: [Int], group: String?) -> String? {
        let previous = group.flatMap { lastFocusedInGroup[$0] }
        var best: (String, Int)?
        for position in members {
            let entry = index.entries[position]
            var priority = entry.priority
            if entry.id == previous { priority = max(priority, FocusGroupPriority.previouslyFocused.rawValue) }
            guard priority > FocusGroupPriority.ignored.rawValue else { continue }
            if best.map({ priority > $0.1 }) ?? true { best = (entry.id, priority) }
        }
        return best?.0
    }

    /// The item Tab's order in `item`'s group starts at when focus enters that group backwards at `item`
    /// (Shift-Tab lands on the group's last item in Tab order): the member after `item` in the group's cyclic
    /// reading order. Recording it as the group's entry keeps the group's order the one Tab used, so Shift-Tab
    /// retraces Tab through the group instead of leaving it at once (D-FOCUS-6). Nil outside named groups.
    package func backwardEntry(for item: String) -> String? {
        guard index[item]?.group != nil, let at = index.memo.groupOfItem.withLock({ $0[item] }) ?? groupIndex(item)
        else { return nil }
        let items = staticGroups()[at].items
        guard let offset = items.firstIndex(of: item), items.count > 1 else { return nil }
        return items[(offset + 1) % items.count]
    }

    private func groupIndex(_ item: String) -> Int? {
        _ = staticGroups()
        return index.memo.groupOfItem.withLock { $0[item] }
    }

    /// The Tab sequence: every group's items in turn (C38).
    package func sequence() -> [String] {
        groups().flatMap(\.items)
    }

    // MARK: Scroll (C25)

    /// The content offset that shows `item` inside its nearest scroll view, when it is not fully visible.
    package func scrollToShow(_ item: String) -> FocusScroll? {
        guard let position = index.position[item] else { return nil }
        let entry = index.entries[position]
        guard entry.scrollContainer >= 0 else { return nil }
        let container = index.entries[entry.scrollContainer]
        guard let node = index.views[container.id] else { return nil }
        let visible = container.frame
        var dx = 0.0
        var dy = 0.0
        if entry.frame.minY < visible.minY {
            dy = entry.frame.minY - visible.minY
        } else if entry.frame.maxY > visible.maxY {
            dy = min(entry.frame.maxY - visible.maxY, entry.frame.minY - visible.minY)
        }
        if entry.frame.minX < visible.minX {
            dx = entry.frame.minX - visible.minX
        } else if entry.frame.maxX > visible.maxX {
            dx = min(entry.frame.maxX - visible.maxX, entry.frame.minX - visible.minX)
        }
        guard dx != 0 || dy != 0 else { return nil }
        let scaleX = container.map.sx == 0 ? 1 : container.map.sx
        let scaleY = container.map.sy == 0 ? 1 : container.map.sy
        return FocusScroll(
            container: container.id,
            contentOffset: Point(x: node.boundsOrigin.x + dx / scaleX, y: node.boundsOrigin.y + dy / scaleY))
    }

    // MARK: Items in a rect (C26)

    /// `focusItems(in:)`: the focusable items whose frames intersect `rect` (screen coordinates), in Tab order.
    package func items(intersecting rect: Rect?) -> [String] {
        let order = sequence()
        guard let rect else { return order }
        return order.filter { id in index[id].map { $0.frame.intersection(rect) != nil } ?? false }
    }
}

/// A focus group as the engine orders it (C22, C24; `focus.status`).
package struct FocusGroup: Sendable {
    /// The `focusGroupIdentifier`; nil for an item outside every group (a group of its own).
    package var identifier: String?
    package var members: [Int]
    package var bounds: Rect
    package var rtl: Bool
    package var items: [String] = []
    package var primary: String?
}

/// One candidate of the directional search: nearest edge gap, then off-axis distance, then paint order.
private struct DirectionalCandidate {
    var gap: Double
    var offAxis: Double
    var order: Int
    var item: String?
    var guide: Int?

    func isBetter(than other: DirectionalCandidate) -> Bool {
        if abs(gap - other.gap) > 1e-9 { return gap < other.gap }
        if abs(offAxis - other.offAxis) > 1e-9 { return offAxis < other.offAxis }
        return order < other.order
    }
}

/// The focusable candidates of one revision, sorted for the directional search.
package struct FocusCandidates: Sendable {
    package var byMinY: [Int]
    package var maxWidth: Double
    package var maxHeight: Double
}
