import AXCore

/// One AT-SPI action of a node (index order = `Action` interface index).
package struct ATSPIActionEntry: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case activate, increment, decrement, escape
        /// `accessibilityZoomIn/Out(at:)` at the element's centre (D-ZOOM-1).
        case zoomIn, zoomOut
        /// A drag from / a drop at the descriptor named so (D-DRAG-1).
        case drag(String)
        case drop(String)
        case custom(String)
        /// A step of an app-defined rotor the node declares (D-ROTOR-7).
        case rotor(name: String, direction: RotorDirection)
    }
    package var kind: Kind
    /// Machine name (`GetName`): click, increment, decrement, zoom-in, zoom-out, drag:<name>, drop:<name>,
    /// custom:<id>, dismiss.
    package var name: String
    package var localizedName: String
    package var description: String
    package var keyBinding: String
}

/// The UIKit → AT-SPI mapping (Specs/atspi-mapping.md). Pure functions of a node, its parent and focus.
package enum ATSPIMapping {
    package static let toolkitName = "AXServer"

    // MARK: Roles

    /// Class name of the transient object that presents an announcement as a notification.
    package static let announcementClass = "AXAnnouncement"
    /// Element id of the transient object that presents an announcement (never a tree id: starts with U+0001).
    package static let announcementID = "\u{1}announcement"

    package static func role(_ n: AXNode, parentRole: AXRole?) -> ATSPIRole {
        if n.className == announcementClass { return .notification }
        if let item = MenuItemKind.of(n, parentRole: parentRole) { return menuItemRole(item) }
        switch n.role {
        case .button:
            if parentRole == .segmentedControl { return .radioButton }
            return n.traits.contains(.toggleButton) ? .toggleButton : .button
        case .staticText: return isReadOnlyTextView(n) ? .text : .label
        case .adjustable: return n.viewClass == .stepper ? .spinButton : .slider
        case .cell: return parentRole == .table ? .tableCell : .listItem
        // D-ATSPI-DIALOG-1: a modal window is a dialog (GTK's modal GtkDialog/GtkWindow), so Orca says "dialog".
        case .window where n.states.contains(.modal): return .dialog
        case .window, .alert, .group, .list, .table, .landmark, .tabBar, .navigationBar, .toolbar, .segmentedControl,
            .picker, .menu, .menuBar, .link, .image, .header, .textField, .secureTextField, .searchField, .textView,
            .switch, .tab, .keyboardKey, .progressIndicator, .activityIndicator, .pickerItem:
            return contextFreeRole(n.role)
        }
    }

    /// The AT-SPI role of a role without its context: one exhaustive switch, so a new role does not compile until it
    /// has one (the contextual roles above give their default here too: a button, a label, a slider, a list item).
    private static func contextFreeRole(_ role: AXRole) -> ATSPIRole {
        switch role {
        case .window: return .frame
        case .alert: return .alert
        case .list: return .list
        case .table: return .table
        case .landmark: return .landmark
        case .tabBar: return .pageTabList
        case .navigationBar, .toolbar: return .toolBar
        case .menu: return .menu
        case .menuBar: return .menuBar
        case .group, .segmentedControl, .picker: return .panel
        case .button, .keyboardKey: return .button
        case .staticText: return .label
        case .adjustable: return .slider
        case .cell: return .listItem
        case .link: return .link
        case .image: return .image
        case .header: return .heading
        // Editable single-line fields are TEXT like GTK 4's GtkEntry/GtkText (D-ATSPI-TEXT-2); the states say
        // EDITABLE + SINGLE_LINE (or MULTI_LINE).
        case .textField, .searchField, .textView: return .text
        case .secureTextField: return .passwordText
        case .pickerItem: return .spinButton
        case .switch: return .toggleButton
        case .tab: return .pageTab
        case .progressIndicator, .activityIndicator: return .progressBar
        }
    }

    /// D-MENU-1: an element of a menu or a menu bar as GTK exposes it (a cascade is MENU, as GtkMenuItem with a
    /// submenu is).
    private static func menuItemRole(_ kind: MenuItemKind) -> ATSPIRole {
        switch kind {
        case .item: return .menuItem
        case .checkItem: return .checkMenuItem
        case .radioItem: return .radioMenuItem
        case .submenu: return .menu
        }
    }

    package static func isTextInput(_ r: AXRole) -> Bool {
        r == .textField || r == .secureTextField || r == .searchField || r == .textView
    }

    /// D-ATVALUE-1: an element's `accessibilityValue` that no AT-SPI interface or state carries — a cell's or a
    /// button's value ("Inbox", value "3 unread") — goes into `Description`, so a screen reader speaks it after
    /// the name as VoiceOver speaks label then value. Not for values carried elsewhere: numbers (Value), text
    /// (Text), switches (CHECKED), tabs and segments (their `N of M` is the position Orca already speaks).
    package static func valueOnlyInDescription(_ n: AXNode, parentRole: AXRole?) -> String? {
        guard let value = n.value, !value.isEmpty, n.numeric == nil, n.isElement else { return nil }
        if isTextInput(n.role) || isReadOnlyTextView(n) { return nil }
        switch n.role {
        case .switch, .tab, .adjustable, .progressIndicator, .pickerItem: return nil
        default: break
        }
        if parentRole == .segmentedControl || parentRole == .tabBar || n.states.contains(.checked) { return nil }
        if n.traits.contains(.toggleButton) { return nil }
        return value
    }

    /// Roles whose children can be selected through the `Selection` interface.
    package static func isSelectionContainer(_ r: AXRole) -> Bool {
        r == .tabBar || r == .segmentedControl || r == .list || r == .table
    }

    // MARK: States

    package static func states(_ n: AXNode, parentRole: AXRole?, focused: Bool) -> ATSPIStateSet {
        var s = commonStates(n.states, focused: focused)
        insertRoleStates(of: n, parentRole: parentRole, into: &s)
        if n.states.contains(.selected) {
            s.insert(.selectable)
            s.insert(.selected)
        }
        return s
    }

    /// The states every role maps the same way.
    private static func commonStates(_ st: AXStates, focused: Bool) -> ATSPIStateSet {
        var mapped = ATSPIStateSet()
        mapped.insert(.visible)
        if st.contains(.onscreen) { mapped.insert(.showing) }
        if st.contains(.enabled) {
            mapped.insert(.enabled)
            mapped.insert(.sensitive)
        }
        if st.contains(.focusable) || focused { mapped.insert(.focusable) }
        if focused { mapped.insert(.focused) }
        if st.contains(.busy) {
            mapped.insert(.busy)
            mapped.insert(.indeterminate)
        }
        if st.contains(.modal) { mapped.insert(.modal) }
        if st.contains(.expanded) {
            mapped.insert(.expandable)
            mapped.insert(.expanded)
        }
        if st.contains(.collapsed) {
            mapped.insert(.expandable)
            mapped.insert(.collapsed)
        }
        return mapped
    }

    /// The states that depend on the role.
    private static func insertRoleStates(of node: AXNode, parentRole: AXRole?, into mapped: inout ATSPIStateSet) {
        let st = node.states
        switch node.role {
        case .window:
            if st.contains(.activeWindow) { mapped.insert(.active) }
            mapped.insert(.resizable)
        case .alert:
            // A presented (modal) alert is the active surface: Orca treats ALERT as a dialog and follows its
            // window:activate like a window's.
            if st.isSuperset(of: [.modal, .onscreen]) { mapped.insert(.active) }
        case .switch:
            mapped.insert(.checkable)
            if st.contains(.checked) { mapped.insert(.checked) }
        case .adjustable, .progressIndicator:
            // D-ATSPI-ORIENT-1: UIKit has no orientation; a control taller than wide (a rotated UISlider, a
            // toolkit's vertical scroll bar or scale) is vertical, as GTK's orientable widgets say.
            mapped.insert(node.frame.height > node.frame.width ? .vertical : .horizontal)
        case .tab, .cell:
            mapped.insert(.selectable)
        case .textField, .secureTextField, .searchField, .textView:
            insertTextInputStates(of: node, into: &mapped)
        case .button:
            insertButtonStates(of: node, parentRole: parentRole, into: &mapped)
        case .link:
            break
        case .staticText where isReadOnlyTextView(node):
            mapped.insert(.readOnly)
            mapped.insert(.multiLine)
            mapped.insert(.selectableText)
        default:
            if st.contains(.checked) {
                mapped.insert(.checkable)
                mapped.insert(.checked)
            }
        }
    }

    private static func insertTextInputStates(of node: AXNode, into mapped: inout ATSPIStateSet) {
        mapped.insert(node.states.contains(.editable) ? .editable : .readOnly)
        mapped.insert(node.states.contains(.multiLine) || node.role == .textView ? .multiLine : .singleLine)
        mapped.insert(.selectableText)
    }

    /// A segment is a checkable radio button; a toggle button is pressed when selected or checked; any other
    /// button maps its CHECKED as other roles do.
    private static func insertButtonStates(of node: AXNode, parentRole: AXRole?, into mapped: inout ATSPIStateSet) {
        let st = node.states
        if MenuItemKind.of(node, parentRole: parentRole) == .radioItem {
            mapped.insert(.checkable)
            mapped.insert(.checked)
        } else if parentRole == .segmentedControl {
            mapped.insert(.checkable)
            mapped.insert(.selectable)
            if st.contains(.selected) { mapped.insert(.checked) }
        } else if node.traits.contains(.toggleButton) {
            if st.contains(.selected) || st.contains(.checked) { mapped.insert(.pressed) }
        } else if st.contains(.checked) {
            mapped.insert(.checkable)
            mapped.insert(.checked)
        }
    }

    // MARK: Interfaces

    package static func interfaces(_ n: AXNode, parentRole: AXRole?) -> ATSPIInterfaces {
        var i: ATSPIInterfaces = [.accessible, .component]
        if hasActions(n) { i.insert(.action) }
        if n.numeric != nil { i.insert(.value) }
        switch n.role {
        case .staticText, .header, .link, .button, .tab, .cell, .keyboardKey:
            if hasText(n) { i.insert(.text) }
        case .textField, .secureTextField, .searchField, .textView:
            i.insert(.text)
            if n.states.contains(.editable) { i.insert(.editableText) }
        case .image: i.insert(.image)
        default: break
        }
        if isSelectionContainer(n.role) { i.insert(.selection) }
        if n.table != nil { i.insert(.table) }
        if n.cell != nil { i.insert(.tableCell) }
        if n.role.isContainerRole || !n.children.isEmpty { i.insert(.collection) }
        return i
    }

    static func hasText(_ n: AXNode) -> Bool {
        if n.role == .staticText || n.role == .header { return true }
        return n.text != nil
    }

    /// The `Text` content: the node's text, else (for labels/headings) its label.
    package static func text(_ n: AXNode) -> String {
        if isReadOnlyTextView(n) { return n.value ?? "" }
        if let t = n.text { return n.role == .secureTextField ? String(repeating: "•", count: t.count) : t }
        if isTextInput(n.role) { return "" }
        return n.label ?? ""
    }

    // MARK: Actions

    /// Same as `!actions(n).isEmpty`, without building the list (hot path: every interface check).
    static func hasActions(_ n: AXNode) -> Bool {
        if n.actions.contains(.activate) && isActivatable(n) { return true }
        if n.actions.contains(.increment) || n.actions.contains(.decrement) || n.actions.contains(.escape)
            || n.actions.contains(.zoomIn)
        {
            return true
        }
        if n.actions.contains(.drag) || n.actions.contains(.drop) { return true }
        return !n.customActions.isEmpty || n.states.contains(.modal)
    }

    package static func actions(_ n: AXNode) -> [ATSPIActionEntry] {
        var out: [ATSPIActionEntry] = []
        if n.actions.contains(.activate) && isActivatable(n) {
            out.append(
                ATSPIActionEntry(
                    kind: .activate, name: "click", localizedName: "Click",
                    description: activateDescription(n), keyBinding: ""))
        }
        if n.actions.contains(.increment) {
            out.append(
                ATSPIActionEntry(
                    kind: .increment, name: "increment", localizedName: "Increment",
                    description: "Increases the value", keyBinding: ""))
        }
        if n.actions.contains(.decrement) {
            out.append(
                ATSPIActionEntry(
                    kind: .decrement, name: "decrement", localizedName: "Decrement",
                    description: "Decreases the value", keyBinding: ""))
        }
        if n.actions.contains(.zoomIn) {
            out.append(
                ATSPIActionEntry(
                    kind: .zoomIn, name: "zoom-in", localizedName: "Zoom in",
                    description: "Zooms in at the centre", keyBinding: ""))
            out.append(
                ATSPIActionEntry(
                    kind: .zoomOut, name: "zoom-out", localizedName: "Zoom out",
                    description: "Zooms out at the centre", keyBinding: ""))
        }
        out += dragDropEntries(n)
        for c in n.customActions {
            out.append(
                ATSPIActionEntry(
                    kind: .custom(c.id), name: "custom:" + c.id, localizedName: c.name,
                    description: c.name, keyBinding: ""))
        }
        if n.actions.contains(.escape) || n.states.contains(.modal) {
            out.append(
                ATSPIActionEntry(
                    kind: .escape, name: "dismiss", localizedName: "Dismiss",
                    description: "Dismisses the \(n.role == .alert ? "alert" : "view")", keyBinding: ";;Escape"))
        }
        return out
    }

    /// One entry per drag source (`drag:<name>`) and drop point (`drop:<name>`), named as VoiceOver offers them
    /// (D-DRAG-1).
    static func dragDropEntries(_ n: AXNode) -> [ATSPIActionEntry] {
        guard let descriptors = n.dragDrop else { return [] }
        let drags = descriptors.descriptors(forDrop: false).map { descriptor in
            ATSPIActionEntry(
                kind: .drag(descriptor.name), name: "drag:" + descriptor.name, localizedName: descriptor.name,
                description: "Starts a drag from \(descriptor.name)", keyBinding: "")
        }
        let drops = descriptors.descriptors(forDrop: true).map { descriptor in
            ATSPIActionEntry(
                kind: .drop(descriptor.name), name: "drop:" + descriptor.name, localizedName: descriptor.name,
                description: "Drops at \(descriptor.name)", keyBinding: "")
        }
        return drags + drops
    }

    /// Labels, headings and images only get a default action when they respond to user interaction.
    static func isActivatable(_ n: AXNode) -> Bool {
        switch n.role {
        case .staticText, .header, .image: return n.states.contains(.respondsToUserInteraction)
        default: return true
        }
    }

    static func activateDescription(_ n: AXNode) -> String {
        switch n.role {
        case .switch: return "Toggles the switch"
        case .link: return "Opens the link"
        case .tab: return "Selects the tab"
        default: return "Activates the \(n.role == .cell ? "cell" : "element")"
        }
    }

    // MARK: Attributes

    package static func attributes(_ n: AXNode, parentRole: AXRole?) -> [(String, String)] {
        var a: [(String, String)] = [("toolkit", toolkitName), ("class", n.className)]
        if let l = n.headingLevel, n.role == .header { a.append(("level", String(l))) }
        if let p = n.positionInSet, let s = n.sizeOfSet {
            a.append(("posinset", String(p)))
            a.append(("setsize", String(s)))
        }
        if let p = n.placeholder { a.append(("placeholder-text", p)) }
        switch n.role {
        case .switch: a.append(("xml-roles", "switch"))
        case .searchField:
            a.append(("xml-roles", "searchbox"))
            a.append(("text-input-type", "search"))
        case .landmark: a.append(("xml-roles", "region"))
        default: break
        }
        if n.numeric != nil, let v = n.value { a.append(("valuetext", v)) }
        if n.traits.contains(.updatesFrequently) {
            a.append(("live", "off"))
            a.append(("container-live", "off"))
        }
        if n.traits.contains(.keyboardKey) { a.append(("roledescription", "key")) }
        return a
    }
}
