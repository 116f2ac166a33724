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
}
