/// Builds the accessibility node of an element, a virtual element, or a container from its view (R22, R35,
/// R43, X5, X6, X18, X19, X32, X52; D-CELL-1).
extension Deriver {
    // The hot path of a snapshot. The locals the node takes over (label, value) stay in this function: splitting them
    // into a content struct cost 10 % more instructions per derivation (callgrind, Tools/profile_core.sh), the node
    // could no longer take them over without retaining them. The helpers below compute the rest and are inlined.
    func makeElement(
        _ view: ViewNode, ctx: Ctx, frame viewFrame: Rect, childMap: AxisMap,
        restrictions: [String], language: String?
    ) -> AXNode {
        var traits = ControlSemantics.traits(view)
        var label = view.ax.label ?? ControlSemantics.defaultLabel(view)
        var value = ControlSemantics.value(view)  // D-SECURE-1
        var numeric = ControlSemantics.numericValue(view)
        var kind = view.kind
        var isOn = view.kind == .switchControl && view.control.isOn
        var actionTarget = view.id
        var control: ViewNode?

        let isCell = view.kind == .tableViewCell || view.kind == .collectionViewCell
        if isCell {
            let content = cellContent(view, childMap: childMap, rtl: ctx.rtl)
            // D-CELL-1
            if view.ax.label == nil, !content.labels.isEmpty { label = content.labels.joined(separator: ", ") }
            if content.controls.count == 1, let cellControl = content.controls.first {
                control = cellControl
                if view.ax.value == nil { value = ControlSemantics.value(cellControl) }
                if view.ax.traits == nil { traits.formUnion(ControlSemantics.traits(cellControl)) }
                numeric = ControlSemantics.numericValue(cellControl)
                kind = cellControl.kind
                isOn = cellControl.kind == .switchControl && cellControl.control.isOn
                actionTarget = cellControl.id
            }
            Deriver.insertAccessoryTraits(of: view, hasControl: control != nil, into: &traits)
        }

        let editable = Deriver.isEditable(kind: kind, view)
        let role = elementRole(of: view, kind: kind, traits: traits, hasControl: control != nil, ctx: ctx)
        let frame = view.ax.frame ?? viewFrame
        let nodeStates = elementStates(
            of: view, frame: frame, ctx: ctx, traits: traits, role: role, isOn: isOn, editable: editable)
        let placeholder = Deriver.placeholder(of: view)
        let largeContent = LargeContent.resolve(view.ax.largeContent, kind: view.kind, label: label)  // D-LCV-1
        let elementExtras = elementExtras(
            of: view, placeholder: placeholder, language: language, restrictions: restrictions,
            largeContent: largeContent, indentationLevel: isCell ? view.control.indentationLevel : nil)
        let text = Deriver.elementText(role: role, kind: kind, value: value, label: label)
        return AXNode(
            id: view.id, viewID: view.id, actionTarget: actionTarget, className: view.className, viewClass: view.kind,
            role: role,
            isElement: true, label: label, value: value, identifier: view.ax.identifier ?? control?.ax.identifier,
            traits: traits, states: nodeStates, frame: frame,
            activationPoint: view.ax.activationPoint ?? frame.center,  // X6
            parent: ctx.container.isEmpty ? nil : ctx.container, children: [], windowID: ctx.windowID,
            actions: ControlSemantics.actions(role: role, kind: kind, traits: traits, editable: editable),
            numeric: numeric, text: text, extras: elementExtras)
    }

    /// A cell's accessory: a disclosure indicator makes a cell without its own traits or control a button; a
    /// checkmark selects it (D-CELL-1).
    @inline(__always)
    static func insertAccessoryTraits(of cell: ViewNode, hasControl: Bool, into traits: inout Traits) {
        switch cell.control.accessoryType {
        case "disclosureIndicator", "detailDisclosureButton":
            if cell.ax.traits == nil && !hasControl { traits.insert(.button) }
        case "checkmark": traits.insert(.selected)
        default: break
        }
    }

    /// Text fields and search bars, and editable text views, while enabled.
    @inline(__always)
    static func isEditable(kind: ViewClass, _ view: ViewNode) -> Bool {
        (kind == .textField || kind == .searchBar || (kind == .textView && view.control.isEditable))
            && view.control.isEnabled
    }

    /// The element's role; a cell that speaks for its one control, or shows only text, is a cell (D-CELL-1).
    @inline(__always)
    func elementRole(of view: ViewNode, kind: ViewClass, traits: Traits, hasControl: Bool, ctx: Ctx) -> AXRole {
        let role = ControlSemantics.elementRole(
            kind: kind, traits: traits, secure: view.control.isSecureTextEntry,
            editable: kind == .textView ? view.control.isEditable : true,
            inTabBar: ctx.containerRole == .tabBar)
        if hasControl, role == .staticText || role == .button { return .cell }
        if view.kind == .tableViewCell || view.kind == .collectionViewCell, !hasControl, role == .staticText {
            return .cell
        }
        return role
    }

    /// The element's states: the view's, then the control's (checked, secure, editable, multi-line, busy), then
    /// whether it responds to user interaction (X13) and can be focused (C17).
    @inline(__always)
    func elementStates(
        of view: ViewNode, frame: Rect, ctx: Ctx, traits: Traits, role: AXRole, isOn: Bool, editable: Bool
    ) -> AXStates {
        var nodeStates = states(for: view, frame: frame, ctx: ctx, traits: traits, role: role)
        if isOn { nodeStates.insert(.checked) }
        if view.control.isSecureTextEntry { nodeStates.insert(.secure) }
        if editable { nodeStates.insert(.editable) }
        if view.kind == .textView { nodeStates.insert(.multiLine) }
        if view.kind == .activityIndicator && view.control.isAnimating { nodeStates.insert(.busy) }
        let responds =
            view.ax.respondsToUserInteraction
            ?? (!traits.contains(.notEnabled)
                && (role != .staticText && role != .image && role != .header && role != .progressIndicator
                    && role != .activityIndicator))  // X13
        if responds { nodeStates.insert(.respondsToUserInteraction) }
        if view.focus.canBecomeFocused ?? Deriver.isFocusableByDefault(role: role, states: nodeStates) {
            nodeStates.insert(.focusable)  // C17
        }
        return nodeStates
    }

    /// Enabled controls and text inputs can be focused unless the view says otherwise (C17).
    @inline(__always)
    static func isFocusableByDefault(role: AXRole, states: AXStates) -> Bool {
        states.contains(.enabled)
            && [
                AXRole.button, .textField, .secureTextField, .searchField, .textView, .cell,
                .switch, .adjustable, .tab, .link,
            ].contains(role)
    }

    /// A text input's non-empty placeholder.
    @inline(__always)
    static func placeholder(of view: ViewNode) -> String? {
        (view.kind == .textField || view.kind == .searchBar || view.kind == .textView)
            ? ControlSemantics.nonEmpty(view.control.placeholder) : nil
    }

    /// The rarely-set group, built only when one of its sources is set (most elements share the default; the same
    /// fields as `AXNodeExtras.isDefault`, checked before building: this is the hot path of a snapshot).
    @inline(__always)
    func elementExtras(
        of view: ViewNode, placeholder: String?, language: String?, restrictions: [String],
        largeContent: LargeContent?, indentationLevel: Int?
    ) -> AXNodeExtras? {
        let automation = automationElements(view, isElement: true)
        let cell = cellInfo(rowRange: view.ax.rowRange, columnRange: view.ax.columnRange)  // R43, X19
        guard
            Deriver.hasExtras(view) || placeholder != nil || language != nil || !restrictions.isEmpty
                || !automation.isEmpty || cell != nil || indentationLevel != nil || largeContent != nil
        else { return nil }
        var extras = AXNodeExtras()
        extras.largeContent = largeContent
        extras.hint = view.ax.hint
        extras.placeholder = placeholder
        extras.language = language
        extras.headingLevel = view.ax.headingLevel
        extras.textualContext = view.ax.textualContext
        extras.userInputLabels = view.ax.effectiveUserInputLabels
        extras.navigationStyle = view.ax.navigationStyle
        extras.customActions = view.ax.customActions
        extras.rotors = view.ax.customRotors
        extras.restrictions = restrictions
        extras.focus = view.focus
        extras.directTouchOptions = view.ax.directTouchOptions
        extras.automationElements = automation
        extras.ignoresInvertColors = view.ax.ignoresInvertColors
        extras.cell = cell
        extras.indentationLevel = indentationLevel
        return extras
    }

    /// Whether the view sets one of the rarely-set accessibility properties an element's extras carry.
    @inline(__always)
    static func hasExtras(_ view: ViewNode) -> Bool {
        view.ax.hint != nil || view.ax.headingLevel != nil || view.ax.textualContext != nil
            || !view.ax.effectiveUserInputLabels.isEmpty || view.ax.navigationStyle != .automatic
            || !view.ax.customActions.isEmpty || !view.ax.customRotors.isEmpty || !view.hasDefaultFocus
            || !view.ax.directTouchOptions.isEmpty || view.ax.ignoresInvertColors
    }

    /// The element's text: a text input's value; a read-only UITextView is static text (D-ROLE-1) whose text is
    /// its value (issue 25 item 8: was null); otherwise its label.
    @inline(__always)
    static func elementText(role: AXRole, kind: ViewClass, value: String?, label: String?) -> String? {
        switch role {
        case .textField, .secureTextField, .searchField, .textView: return value ?? ""
        case .staticText where kind == .textView: return value ?? label ?? ""
        default: return label
        }
    }

    /// The table cell position of an element that sets both ranges (R43, X19).
    func cellInfo(rowRange: TextRange?, columnRange: TextRange?) -> AXCellInfo? {
        guard let rowRange, let columnRange, rowRange.location >= 0, columnRange.location >= 0 else { return nil }
        return AXCellInfo(
            row: rowRange.location, rowSpan: max(rowRange.length, 1), column: columnRange.location,
            columnSpan: max(columnRange.length, 1))
    }

    func makeVirtual(_ element: VirtualElement, container: ViewNode, ctx: Ctx, childMap: AxisMap) -> AXNode {
        let traits = element.ax.traits ?? []
        let role = ControlSemantics.elementRole(
            kind: .view, traits: traits, secure: false, editable: false,
            inTabBar: ctx.containerRole == .tabBar)
        // R35, X52: the frame in container space follows the container's current position.
        let frame = element.ax.frame ?? childMap.apply(element.frameInContainer)
        var ax = AXNode(
            id: element.id, viewID: nil, className: "UIAccessibilityElement", viewClass: .view, role: role,
            isElement: element.ax.isAccessibilityElement ?? true, windowID: ctx.windowID)
        var extras = AXNodeExtras()
        ax.actionTarget = element.id
        ax.parent = container.id
        ax.label = element.ax.label
        ax.value = element.ax.value
        extras.hint = element.ax.hint
        ax.identifier = element.ax.identifier
        ax.traits = traits
        ax.frame = frame
        ax.activationPoint = element.ax.activationPoint ?? frame.center
        extras.language = element.ax.language ?? ctx.language
        extras.headingLevel = element.ax.headingLevel
        extras.customActions = element.ax.customActions
        extras.rotors = element.ax.customRotors
        extras.restrictions = ctx.restrictions
        extras.textualContext = element.ax.textualContext
        extras.userInputLabels = element.ax.effectiveUserInputLabels
        var elementStates = AXStates()
        if !traits.contains(.notEnabled) { elementStates.insert(.enabled) }
        if traits.contains(.selected) { elementStates.insert(.selected) }
        if ctx.clip.intersection(frame) != nil, !frame.isEmpty { elementStates.insert(.onscreen) }
        let actions = ControlSemantics.actions(role: role, kind: .view, traits: traits, editable: false)
        ax.actions = actions
        if element.ax.respondsToUserInteraction
            ?? (!actions.isEmpty && role != .staticText && !traits.contains(.notEnabled))
        {
            elementStates.insert(.respondsToUserInteraction)
        }
        ax.states = elementStates
        ax.text = element.ax.label
        extras.cell = cellInfo(rowRange: element.ax.rowRange, columnRange: element.ax.columnRange)
        ax.extras = extras
        return ax
    }

    func makeContainer(
        _ view: ViewNode, role: AXRole, ctx: Ctx, frame viewFrame: Rect, restrictions: [String], language: String?,
        children: [String]
    ) -> AXNode {
        var extras = AXNodeExtras()
        let traits = ControlSemantics.traits(view)
        let label = view.ax.label ?? ControlSemantics.defaultLabel(view)
        extras.hint = view.ax.hint ?? ((role == .alert) ? ControlSemantics.nonEmpty(view.control.message) : nil)
        let frame = view.ax.frame ?? viewFrame
        extras.language = language
        extras.containerType = view.ax.containerType
        extras.navigationStyle = view.ax.navigationStyle
        extras.customActions = view.ax.customActions
        extras.rotors = view.ax.customRotors
        extras.restrictions = restrictions
        extras.focus = view.focus
        extras.directTouchOptions = view.ax.directTouchOptions
        extras.automationElements = automationElements(view, isElement: false)
        extras.ignoresInvertColors = view.ax.ignoresInvertColors
        extras.textualContext = view.ax.textualContext
        extras.isPagingEnabled = view.kind.isScrollView && view.control.isPagingEnabled
        var containerStates = states(for: view, frame: frame, ctx: ctx, traits: traits, role: role)
        if role == .window {
            containerStates.insert(.onscreen)
            if ctx.isKeyWindow { containerStates.insert(.activeWindow) }  // A27
        }
        let modal = effectiveModal(view)
        if modal { containerStates.insert(.modal) }
        if let dataTable = view.ax.dataTable {
            extras.table = AXTableInfo(
                rows: dataTable.rows, columns: dataTable.columns, columnHeaders: dataTable.columnHeaders,
                rowHeaders: dataTable.rowHeaders)
        }
        return AXNode(
            id: view.id, viewID: view.id, actionTarget: view.id, className: view.className, viewClass: view.kind,
            role: role,
            isElement: false, label: label, value: view.ax.value, identifier: view.ax.identifier, traits: traits,
            states: containerStates,
            frame: frame, activationPoint: view.ax.activationPoint ?? frame.center,
            parent: ctx.container.isEmpty ? nil : ctx.container, children: children, windowID: ctx.windowID,
            actions: role == .alert || modal ? [.escape] : [],  // X32
            numeric: nil, text: label, extras: extras)
    }

    /// X18: explicit `automationElements`; else, for a non-element, the views of `accessibilityElements`; else, for
    /// an element without `accessibilityElements`, its subviews that carry an `accessibilityIdentifier`; else none.
    @inline(never)
    func automationElements(_ view: ViewNode, isElement: Bool) -> [String] {
        if let explicit = view.ax.automationElements { return explicit }
        if let entries = view.ax.elements, !isElement {
            return entries.map { entry in
                switch entry {
                case .view(let id): return id
                case .virtual(let virtualElement): return virtualElement.id
                }
            }
        }
        if isElement && view.ax.elements == nil {
            return view.children.filter { views.nodes.box($0)?.value.ax.identifier?.isEmpty == false }
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
            guard let view = views.nodes[id], isVisibleSelf(view), !view.ax.elementsHidden else { return }
            let frame = map.apply(Deriver.rectInParent(view))
            if view.ax.isAccessibilityElement != false {
                switch view.kind {
                case .switchControl, .slider, .stepper, .pageControl, .segmentedControl, .textField, .searchBar:
                    controls.append(view)
                    if let label = view.ax.label {
                        counter += 1
                        let key = "\(counter)"
                        texts[key] = label
                        labelItems.append(Item(id: key, frame: frame))
                    }
                    return
                default:
                    let text =
                        view.ax.label
                        ?? ((view.kind == .label || view.kind == .button || view.kind == .imageView)
                            ? ControlSemantics.defaultLabel(view) : nil)
                    if let text, !text.isEmpty {
                        counter += 1
                        let key = "\(counter)"
                        texts[key] = text
                        labelItems.append(Item(id: key, frame: frame))
                    }
                    if view.ax.isAccessibilityElement == true { return }
                }
            }
            let grandchildMap = map.composed(with: Deriver.localMap(view))
            for child in view.children { walk(child, grandchildMap) }
        }
        for child in cell.children { walk(child, childMap) }
        let ordered = readingOrder(labelItems, rtl: rtl)
        return (ordered.compactMap { texts[$0.id] }, controls)
    }
}
