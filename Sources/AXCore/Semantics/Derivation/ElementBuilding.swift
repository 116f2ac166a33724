/// Builds the accessibility node of an element, a virtual element, or a container from its view (R22, R35,
/// R43, X5, X6, X18, X19, X32, X52; D-CELL-1).
extension Deriver {
    func makeElement(
        _ view: ViewNode, ctx: Ctx, frame viewFrame: Rect, childMap: AxisMap,
        restrictions: [String], language: String?
    ) -> AXNode {
        var content = ElementContent(view)
        if view.kind == .tableViewCell || view.kind == .collectionViewCell {
            content.adoptCellContent(of: view, cellContent(view, childMap: childMap, rtl: ctx.rtl))
        }
        let kind = content.kind
        let secure = view.control.isSecureTextEntry
        let editable =
            (kind == .textField || kind == .searchBar || (kind == .textView && view.control.isEditable))
            && view.control.isEnabled
        let role = elementRole(view, content, secure: secure, inTabBar: ctx.containerRole == .tabBar)

        let frame = view.ax.frame ?? viewFrame
        let states = elementStates(
            for: view, frame: frame, ctx: ctx, traits: content.traits, role: role, isOn: content.isOn, secure: secure,
            editable: editable)
        let placeholder =
            (view.kind == .textField || view.kind == .searchBar || view.kind == .textView)
            ? ControlSemantics.nonEmpty(view.control.placeholder) : nil
        let extras = elementExtras(
            view, placeholder: placeholder, language: language, restrictions: restrictions,
            automation: automationElements(view, isElement: true),
            cell: cellInfo(rowRange: view.ax.rowRange, columnRange: view.ax.columnRange))
        let text: String?
        switch role {
        case .textField, .secureTextField, .searchField, .textView: text = content.value ?? ""
        default: text = content.label
        }
        return AXNode(
            id: view.id, viewID: view.id, actionTarget: content.actionTarget, className: view.className,
            viewClass: view.kind, role: role, isElement: true, label: content.label, value: content.value,
            identifier: view.ax.identifier ?? content.control?.ax.identifier, traits: content.traits,
            states: states, frame: frame, activationPoint: view.ax.activationPoint ?? frame.center,  // X6
            parent: ctx.container.isEmpty ? nil : ctx.container, children: [], windowID: ctx.windowID,
            actions: ControlSemantics.actions(role: role, kind: kind, traits: content.traits, editable: editable),
            numeric: content.numeric, text: text, extras: extras)
    }

    /// The element's role: its control's, or `cell` for a table or collection cell that reads as text or stands
    /// for its one control (D-CELL-1).
    @inline(__always)
    func elementRole(_ view: ViewNode, _ content: ElementContent, secure: Bool, inTabBar: Bool) -> AXRole {
        let role = ControlSemantics.elementRole(
            kind: content.kind, traits: content.traits, secure: secure,
            editable: content.kind == .textView ? view.control.isEditable : true, inTabBar: inTabBar)
        let isCell = view.kind == .tableViewCell || view.kind == .collectionViewCell
        if content.control != nil, role == .staticText || role == .button {
            return .cell
        }
        if isCell, content.control == nil, role == .staticText {
            return .cell
        }
        return role
    }

    /// What an element shows and where its actions go: the view's own, or a cell's single control's (D-CELL-1).
    struct ElementContent {
        var traits: Traits
        var label: String?
        var value: String?
        var numeric: AXNumericValue?
        var kind: ViewClass
        var isOn: Bool
        var actionTarget: String
        /// The one control inside a cell that the cell stands for.
        var control: ViewNode?

        /// `borrowing`: an initializer takes its arguments owned by default, which made every element's view be
        /// copied (callgrind: +15 % instructions per derivation). Always inlined, like the helpers below: makeElement
        /// is the hot path of a snapshot, and inlined the content's fields stay plain locals the node takes over.
        @inline(__always)
        init(_ view: borrowing ViewNode) {
            traits = ControlSemantics.traits(view)
            label = view.ax.label ?? ControlSemantics.defaultLabel(view)
            value = view.ax.value ?? ControlSemantics.defaultValue(view)
            numeric = ControlSemantics.numericValue(view)
            kind = view.kind
            isOn = view.kind == .switchControl && view.control.isOn
            actionTarget = view.id
        }

        /// A table or collection cell reads its labels and stands for its one control (D-CELL-1).
        @inline(__always)
        mutating func adoptCellContent(of cell: ViewNode, _ content: (labels: [String], controls: [ViewNode])) {
            if cell.ax.label == nil, !content.labels.isEmpty { label = content.labels.joined(separator: ", ") }
            if content.controls.count == 1, let cellControl = content.controls.first {
                control = cellControl
                if cell.ax.value == nil { value = cellControl.ax.value ?? ControlSemantics.defaultValue(cellControl) }
                if cell.ax.traits == nil { traits.formUnion(ControlSemantics.traits(cellControl)) }
                numeric = ControlSemantics.numericValue(cellControl)
                kind = cellControl.kind
                isOn = cellControl.kind == .switchControl && cellControl.control.isOn
                actionTarget = cellControl.id
            }
            switch cell.control.accessoryType {
            case "disclosureIndicator", "detailDisclosureButton":
                if cell.ax.traits == nil && control == nil { traits.insert(.button) }
            case "checkmark": traits.insert(.selected)
            default: break
            }
        }
    }

    /// The table cell position of an element that sets both ranges (R43, X19).
    func cellInfo(rowRange: TextRange?, columnRange: TextRange?) -> AXCellInfo? {
        guard let rowRange, let columnRange, rowRange.location >= 0, columnRange.location >= 0 else { return nil }
        return AXCellInfo(
            row: rowRange.location, rowSpan: max(rowRange.length, 1), column: columnRange.location,
            columnSpan: max(columnRange.length, 1))
    }

    /// The rarely-set group, built only when one of its sources is set (most elements share the default; the
    /// same fields as `AXNodeExtras.isDefault`, checked before building: this is the hot path of a snapshot).
    func elementExtras(
        _ view: ViewNode, placeholder: String?, language: String?, restrictions: [String], automation: [String],
        cell: AXCellInfo?
    ) -> AXNodeExtras? {
        let ax = view.ax
        let hasExtras =
            ax.hint != nil || placeholder != nil || language != nil || ax.headingLevel != nil
            || ax.textualContext != nil || !ax.userInputLabels.isEmpty || ax.navigationStyle != .automatic
            || !ax.customActions.isEmpty || !ax.customRotors.isEmpty || !restrictions.isEmpty
            || !view.hasDefaultFocus || !ax.directTouchOptions.isEmpty || !automation.isEmpty
            || ax.ignoresInvertColors || cell != nil
        guard hasExtras else { return nil }
        var extras = AXNodeExtras()
        extras.hint = ax.hint
        extras.placeholder = placeholder
        extras.language = language
        extras.headingLevel = ax.headingLevel
        extras.textualContext = ax.textualContext
        extras.userInputLabels = ax.userInputLabels
        extras.navigationStyle = ax.navigationStyle
        extras.customActions = ax.customActions
        extras.rotors = ax.customRotors
        extras.restrictions = restrictions
        extras.focus = view.focus
        extras.directTouchOptions = ax.directTouchOptions
        extras.automationElements = automation
        extras.ignoresInvertColors = ax.ignoresInvertColors
        extras.cell = cell
        return extras
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
        extras.userInputLabels = element.ax.userInputLabels
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
