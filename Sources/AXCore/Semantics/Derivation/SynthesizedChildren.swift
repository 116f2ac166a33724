extension Deriver {
    struct Synthesized {
        var leading: [AXNode] = []
        var trailing: [AXNode] = []
        var nodes: [AXNode] { leading + trailing }
    }

    func synthesize(_ n: ViewNode, role: AXRole, frame: Rect, ctx: Ctx, restrictions: [String]) -> Synthesized {
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
    func numberPositions(_ ids: [String], asValue: Bool) {
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
}
