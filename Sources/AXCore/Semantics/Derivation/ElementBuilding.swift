/// Builds the accessibility node of an element, a virtual element, or a container from its view (R22, R35,
/// R43, X5, X6, X18, X19, X32, X52; D-CELL-1).
extension Deriver {
    func makeElement(
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
            || !automation.isEmpty || n.ax.ignoresInvertColors || cell != nil
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

    func makeVirtual(_ ve: VirtualElement, container: ViewNode, ctx: Ctx, childMap: AxisMap) -> AXNode {
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

    func makeContainer(
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

    /// X18: explicit `automationElements`; else, for a non-element, the views of `accessibilityElements`; else, for
    /// an element without `accessibilityElements`, its subviews that carry an `accessibilityIdentifier`; else none.
    @inline(never)
    func automationElements(_ n: ViewNode, isElement: Bool) -> [String] {
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
    func cellContent(_ cell: ViewNode, childMap: AxisMap, rtl: Bool) -> (labels: [String], controls: [ViewNode]) {
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
