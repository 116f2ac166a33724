import AXCore

/// What the mapping needs to know about a node's surroundings beyond its parent's role: whether its data table
/// names it a header, whether its container shows a selection, whether it sits inside a modal container
/// (Specs/atspi-mapping.md §2, §3, §6; D-ATSPI-HDR-1, D-ATSPI-SEL-1, D-ATSPI-ESC-1). Pure.
package struct ATSPIContext: Sendable, Equatable {
    /// Which header list of its data table names the node.
    package enum HeaderKind: Sendable, Equatable { case column, row }

    package var parentRole: AXRole?
    package var header: HeaderKind?
    /// The node's container has a selected cell (cells are SELECTABLE only then).
    package var selectionShown: Bool
    /// An ancestor is a modal container (escape can reach it from here).
    package var insideModal: Bool
    /// The node's app does not receive the keys now: its windows are not ACTIVE (D-ATSPI-ACTIVE-1).
    package var appInactive = false

    /// A context that knows only the parent's role (headers unknown, selection shown, not inside a modal).
    package init(parentRole: AXRole?) {
        self.parentRole = parentRole
        header = nil
        selectionShown = true
        insideModal = false
    }

    /// The context of `node` in `tree` (scans the parent's children for a selection).
    package static func of(_ node: AXNode, in tree: AXTree) -> ATSPIContext {
        of(node, in: tree) { showsSelection($0, in: tree) }
    }

    /// The context of `node` in `tree`; `selectionShown` answers for the parent (a caller may memoize it per
    /// snapshot).
    package static func of(
        _ node: AXNode, in tree: AXTree, selectionShown: (AXNode) -> Bool
    ) -> ATSPIContext {
        let parent = node.parent.flatMap { tree[$0] }
        var context = ATSPIContext(parentRole: parent?.role)
        if let table = parent?.table {
            if table.columnHeaders.values.contains(where: { $0.contains(node.id) }) {
                context.header = .column
            } else if table.rowHeaders.values.contains(where: { $0.contains(node.id) }) {
                context.header = .row
            }
        }
        if node.role == .cell, let parent {
            context.selectionShown = selectionShown(parent)
        }
        var ancestor = parent
        while let current = ancestor {
            if current.states.contains(.modal) {
                context.insideModal = true
                break
            }
            ancestor = current.parent.flatMap { tree[$0] }
        }
        return context
    }

    /// D-ATSPI-SEL-1: a container shows a selection when one of its cells is selected.
    package static func showsSelection(_ container: AXNode, in tree: AXTree) -> Bool {
        container.children.contains { childID in
            guard let child = tree[childID] else { return false }
            return child.role == .cell && child.states.contains(.selected)
        }
    }
}

extension ATSPIMapping {
    /// D-ATSPI-TEXT-1: a non-editable UITextView (the core's `staticText`) is TEXT without EDITABLE.
    package static func isReadOnlyTextView(_ node: AXNode) -> Bool {
        node.viewClass == .textView && node.role == .staticText
    }

    /// `GetRole` with the node's context: header cells of a data table are column/row headers.
    package static func role(_ node: AXNode, context: ATSPIContext) -> ATSPIRole {
        switch context.header {
        case .column: return .columnHeader
        case .row: return .rowHeader
        case nil: return role(node, parentRole: context.parentRole)
        }
    }

    /// `GetState` with the node's context: cells are SELECTABLE only where their container shows a selection.
    package static func states(_ node: AXNode, context: ATSPIContext, focused: Bool) -> ATSPIStateSet {
        var states = states(node, parentRole: context.parentRole, focused: focused)
        if node.role == .cell && !context.selectionShown && !node.states.contains(.selected) {
            states.bits &= ~(1 << UInt64(ATSPIState.selectable.rawValue))
        }
        if context.appInactive && node.role == .window {
            states.bits &= ~(1 << UInt64(ATSPIState.active.rawValue))
        }
        return states
    }

    /// `GetInterfaces` with the node's context (rotor actions and `dismiss` inside a modal need Action).
    package static func interfaces(_ node: AXNode, context: ATSPIContext) -> ATSPIInterfaces {
        var interfaces = interfaces(node, parentRole: context.parentRole)
        if context.insideModal || !node.rotors.isEmpty { interfaces.insert(.action) }
        return interfaces
    }

    /// The actions with the node's context: after its own, one next/previous pair per rotor it declares
    /// (D-ROTOR-7), then `dismiss` last — on modal containers and on every node inside one (D-ATSPI-ESC-1).
    package static func actions(_ node: AXNode, context: ATSPIContext) -> [ATSPIActionEntry] {
        var entries = actions(node)
        var dismiss: ATSPIActionEntry?
        if entries.last?.kind == .escape { dismiss = entries.removeLast() }
        for rotorAction in RotorExposure.actions(of: node) {
            entries.append(
                ATSPIActionEntry(
                    kind: .rotor(name: rotorAction.rotor, direction: rotorAction.direction), name: rotorAction.name,
                    localizedName: rotorAction.localizedName,
                    description:
                        "Moves to the \(rotorAction.direction.rawValue) item of the \(rotorAction.rotor) rotor",
                    keyBinding: ""))
        }
        if dismiss == nil && context.insideModal {
            dismiss = ATSPIActionEntry(
                kind: .escape, name: "dismiss", localizedName: "Dismiss", description: "Dismisses the alert or view",
                keyBinding: ";;Escape")
        }
        if let dismiss { entries.append(dismiss) }
        return entries
    }

    /// `GetAttributes` with the node's context and the rotors that list it (D-ROTOR-6).
    package static func attributes(_ node: AXNode, context: ATSPIContext, rotors: [String]) -> [(String, String)] {
        attributes(node, parentRole: context.parentRole) + RotorExposure.attributes(forRotors: rotors)
    }

    /// AtspiRelationType of a core relation (atspi-constants.h; Specs/atspi-mapping.md §4a).
    package static func relationNumber(_ type: AXRelationType) -> UInt32 {
        switch type {
        case .labelFor: return 1
        case .labelledBy: return 2
        case .controllerFor: return 3
        case .controlledBy: return 4
        case .memberOf: return 5
        case .nodeChildOf: return 7
        case .nodeParentOf: return 8
        case .flowsTo: return 10
        case .flowsFrom: return 11
        case .descriptionFor: return 17
        case .describedBy: return 18
        }
    }
}
