extension Deriver {
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
            let frame = items[i].frame
            if frame.midY < last.midY { return false }
            if abs(frame.midY - anchor.midY) <= max(anchor.height / 2, 0.5) {
                if rtl ? frame.maxX > last.maxX : frame.minX < last.minX { return false }
            } else {
                anchor = frame
            }
            last = frame
        }
        return true
    }

    /// The reading order by sorting (see `readingOrder`).
    func sortedReadingOrder(_ items: [Item], rtl: Bool) -> [Item] {
        guard items.count > 1 else { return items }
        let byY = items.indices.sorted { lhs, rhs in
            let lhsY = items[lhs].frame.midY
            let rhsY = items[rhs].frame.midY
            return lhsY != rhsY ? lhsY < rhsY : lhs < rhs
        }
        var out: [Item] = []
        out.reserveCapacity(items.count)
        var row: [Int] = []
        var anchor = items[byY[0]].frame
        func flush() {
            let sorted = row.sorted { lhs, rhs in
                let lhsFrame = items[lhs].frame
                let rhsFrame = items[rhs].frame
                if rtl { return lhsFrame.maxX != rhsFrame.maxX ? lhsFrame.maxX > rhsFrame.maxX : lhs < rhs }
                return lhsFrame.minX != rhsFrame.minX ? lhsFrame.minX < rhsFrame.minX : lhs < rhs
            }
            for i in sorted { out.append(items[i]) }
            row.removeAll(keepingCapacity: true)
        }
        for i in byY {
            let frame = items[i].frame
            if !row.isEmpty && abs(frame.midY - anchor.midY) <= max(anchor.height / 2, 0.5) {
                row.append(i)
            } else {
                if !row.isEmpty { flush() }
                row.append(i)
                anchor = frame
            }
        }
        flush()
        return out
    }
}
