extension Deriver {
    struct Synthesized {
        var leading: [AXNode] = []
        var trailing: [AXNode] = []
        var nodes: [AXNode] { leading + trailing }
    }

    func synthesize(_ view: ViewNode, role: AXRole, frame: Rect, ctx: Ctx, restrictions: [String]) -> Synthesized {
        var synthesized = Synthesized()
        func base(_ id: String, _ role: AXRole, _ rect: Rect, traits: Traits) -> AXNode {
            var ax = AXNode(
                id: id, viewID: nil, className: view.className, viewClass: view.kind, role: role, isElement: true,
                windowID: ctx.windowID)
            ax.actionTarget = id
            ax.parent = view.id
            ax.traits = traits
            ax.frame = rect
            ax.activationPoint = rect.center
            if ctx.language != nil || !restrictions.isEmpty {
                var extras = AXNodeExtras()
                extras.language = ctx.language
                extras.restrictions = restrictions
                ax.extras = extras
            }
            var states: AXStates = traits.contains(.notEnabled) ? [] : [.enabled]
            if traits.contains(.selected) { states.insert(.selected) }
            if ctx.clip.intersection(rect) != nil, !rect.isEmpty { states.insert(.onscreen) }
            if role != .header && role != .staticText && !traits.contains(.notEnabled) {
                states.insert(.respondsToUserInteraction)
                states.insert(.focusable)
            }
            ax.states = states
            return ax
        }
        func slice(_ index: Int, of count: Int) -> Rect {
            let sliceWidth = frame.width / Double(max(count, 1))
            let position = ctx.rtl ? count - 1 - index : index
            return Rect(x: frame.x + sliceWidth * Double(position), y: frame.y, width: sliceWidth, height: frame.height)
        }
        switch view.kind {
        case .navigationBar:
            // R13, R14: the title (a header) is read first, then the back button.
            let third = frame.width / 3
            if let title = view.control.title, !title.isEmpty {
                var header = base(
                    view.id + "#title", .header,
                    Rect(x: frame.x + third, y: frame.y, width: third, height: frame.height),
                    traits: .header)
                header.label = title
                header.text = title
                header.actions = [.activate]
                synthesized.leading.append(header)
            }
            if let backTitle = view.control.backButtonTitle {
                let backX = ctx.rtl ? frame.maxX - third : frame.x
                var backButton = base(
                    view.id + "#back", .button, Rect(x: backX, y: frame.y, width: third, height: frame.height),
                    traits: .button)
                backButton.label = backTitle.isEmpty ? "Back" : backTitle
                backButton.text = backButton.label
                backButton.hint = nil
                backButton.actions = [.activate]
                synthesized.leading.append(backButton)
            }
        case .segmentedControl:
            let titles = view.control.segmentTitles
            for (index, title) in titles.enumerated() {
                var segmentTraits: Traits = .button
                if view.control.selectedSegmentIndex == index { segmentTraits.insert(.selected) }
                if !view.control.isEnabled { segmentTraits.insert(.notEnabled) }
                var segment = base(
                    "\(view.id)#\(index)", .button, slice(index, of: titles.count), traits: segmentTraits)
                segment.label = title
                segment.text = title
                segment.actions = [.activate]
                synthesized.trailing.append(segment)
            }
        case .pickerView, .datePicker:
            // R9, R10, R18: one adjustable element per component; its value is the selected row.
            let components = view.control.components
            for (index, component) in components.enumerated() {
                var element = base(
                    "\(view.id)#\(index)", .pickerItem, slice(index, of: components.count), traits: .adjustable)
                element.label = component.label
                element.hint = component.hint
                element.value =
                    component.rows.indices.contains(component.selectedRow) ? component.rows[component.selectedRow] : nil
                element.text = element.value
                element.actions = [.increment, .decrement]
                element.numeric = AXNumericValue(
                    current: Double(component.selectedRow), minimum: 0,
                    maximum: Double(max(component.rows.count - 1, 0)), step: 1)
                synthesized.trailing.append(element)
            }
        case .alertController, .actionSheet:
            if let message = view.control.message, !message.isEmpty {
                var title = base(view.id + "#message", .staticText, frame, traits: .staticText)
                title.label = message
                title.text = message
                title.actions = [.activate]
                synthesized.leading.append(title)
            }
        default:
            break
        }
        return synthesized
    }

    /// R12, A51: tabs and segments say their 1-based position and the count ("2 of 3").
    func numberPositions(_ ids: [String], asValue: Bool) {
        let count = ids.count
        for (index, id) in ids.enumerated() {
            guard var node = nodes[id], node.isElement else { continue }
            node.positionInSet = index + 1
            node.sizeOfSet = count
            if asValue && node.viewID.map({ views.nodes[$0]?.ax.value == nil }) ?? true {
                node.value = "\(index + 1) of \(count)"
            }
            write(node)
        }
    }
}
