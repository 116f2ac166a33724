import AXCore

/// The kind of an AT-SPI event signal: its D-Bus interface, member and the name listeners register for.
package enum ATSPIEventKind: Sendable, Equatable {
    /// `object:children-changed`.
    case childrenChanged
    /// `object:property-change`.
    case propertyChange
    /// `object:state-changed`.
    case stateChanged
    /// `object:bounds-changed`.
    case boundsChanged
    /// `object:text-changed`.
    case textChanged
    /// `object:text-caret-moved`.
    case textCaretMoved
    /// `object:selection-changed` (a selection container whose selected children changed; D-SELECT-2).
    case selectionChanged
    /// `object:text-selection-changed` (Shift with a motion key in a text input; D-KEYOP-5).
    case textSelectionChanged
    /// `object:text-attributes-changed` (the attribute runs of an element's text changed; D-TEXT-APP-3).
    case textAttributesChanged
    /// `object:announcement`.
    case announcement
    /// `window:create`.
    case windowCreate
    /// `window:destroy`.
    case windowDestroy
    /// `window:activate`.
    case windowActivate
    /// `window:deactivate`.
    case windowDeactivate
    /// The legacy `focus:` event.
    case focus

    /// The D-Bus interface of the signal.
    package var interfaceName: StaticString {
        switch self {
        case .childrenChanged, .propertyChange, .stateChanged, .boundsChanged, .textChanged, .textCaretMoved,
            .selectionChanged, .textSelectionChanged, .textAttributesChanged, .announcement:
            return "org.a11y.atspi.Event.Object"
        case .windowCreate, .windowDestroy, .windowActivate, .windowDeactivate: return "org.a11y.atspi.Event.Window"
        case .focus: return "org.a11y.atspi.Event.Focus"
        }
    }

    /// The D-Bus member of the signal.
    package var memberName: StaticString {
        switch self {
        case .childrenChanged: return "ChildrenChanged"
        case .propertyChange: return "PropertyChange"
        case .stateChanged: return "StateChanged"
        case .boundsChanged: return "BoundsChanged"
        case .textChanged: return "TextChanged"
        case .textCaretMoved: return "TextCaretMoved"
        case .selectionChanged: return "SelectionChanged"
        case .textSelectionChanged: return "TextSelectionChanged"
        case .textAttributesChanged: return "TextAttributesChanged"
        case .announcement: return "Announcement"
        case .windowCreate: return "Create"
        case .windowDestroy: return "Destroy"
        case .windowActivate: return "Activate"
        case .windowDeactivate: return "Deactivate"
        case .focus: return "Focus"
        }
    }

    /// The event class listeners register for ("object", "window", "focus").
    package var listenerClass: String {
        switch self {
        case .windowCreate, .windowDestroy, .windowActivate, .windowDeactivate: return "window"
        case .focus: return "focus"
        default: return "object"
        }
    }

    /// The member as listeners register it (lowercase, without '-').
    package var listenerMember: String {
        switch self {
        case .childrenChanged: return "childrenchanged"
        case .propertyChange: return "propertychange"
        case .stateChanged: return "statechanged"
        case .boundsChanged: return "boundschanged"
        case .textChanged: return "textchanged"
        case .textCaretMoved: return "textcaretmoved"
        case .selectionChanged: return "selectionchanged"
        case .textSelectionChanged: return "textselectionchanged"
        case .textAttributesChanged: return "textattributeschanged"
        case .announcement: return "announcement"
        case .windowCreate: return "create"
        case .windowDestroy: return "destroy"
        case .windowActivate: return "activate"
        case .windowDeactivate: return "deactivate"
        case .focus: return "focus"
        }
    }
}

/// The `any_data` variant of an event.
package enum ATSPIEventData: Sendable, Equatable {
    case int(Int32)
    case uint(UInt32)
    case double(Double)
    case string(String)
    /// A reference to an element (nil: the null reference).
    case reference(String?)
    /// A reference to the application root.
    case applicationRoot
    case rect(ATSPIRect)
}

/// One AT-SPI event signal `(siiva{sv})` (the trailing properties dictionary is always empty).
package struct ATSPIEvent: Sendable, Equatable {
    package var kind: ATSPIEventKind
    /// The object the event is about (nil: the application root).
    package var source: String?
    package var detail: String
    package var detail1: Int32
    package var detail2: Int32
    package var data: ATSPIEventData
    /// Sent even to a bus where nobody registered for it: libatspi keeps its cache from these (children,
    /// names, roles, descriptions, states).
    package var maintainsCache: Bool

    package init(
        _ kind: ATSPIEventKind, source: String?, detail: String = "", detail1: Int32 = 0, detail2: Int32 = 0,
        data: ATSPIEventData = .int(0), maintainsCache: Bool = false
    ) {
        self.kind = kind
        self.source = source
        self.detail = detail
        self.detail1 = detail1
        self.detail2 = detail2
        self.data = data
        self.maintainsCache = maintainsCache
    }
}

/// What the bridge sends when the served snapshot changes, in order.
package enum ATSPIUpdate: Sendable, Equatable {
    /// An event signal.
    case event(ATSPIEvent)
    /// `Cache.AddAccessible` for a new element.
    case cacheAdd(elementID: String)
    /// `Cache.RemoveAccessible` for a removed element.
    case cacheRemove(elementID: String)
}

/// The events between the snapshot served before and the one served now.
///
/// Order (what the bridge guarantees, and screen readers rely on):
/// 1. `Cache.RemoveAccessible` for removed elements;
/// 2. per touched parent (the application root first when the window list changed): `children-changed`
///    removes (last index first) then adds (first index first) — or one bulk `add` with index -1 when more than
///    32 children changed or the kept ones were reordered — then, for the root, `window:destroy`/`window:create`;
/// 3. `Cache.AddAccessible` for added elements;
/// 4. per updated element: name, description, role, value, text changes (delete, insert, caret), bounds, then
///    state changes (except focus and window activation);
/// 4b. `property-change:accessible-relation` for every node whose relation set changed (D-REL-6);
/// 5. window deactivations (`state-changed:active` 0, then `window:deactivate`), then activations
///    (`window:activate`, then `state-changed:active` 1) — also of an alert, or a window that takes over as the
///    app's key window, that arrives active (D-ATSPI-ACTIVE-1);
/// 6. focus: `state-changed:focused` 0 on the old element, 1 on the new one, then the legacy `focus:` event.
package enum EventDiff {
    /// The updates from `old` to `new`, given the hub's change set between them.
    package static func updates(from old: ServedSnapshot, to new: ServedSnapshot, changes: ChangeSet)
        -> [ATSPIUpdate]
    {
        var updates: [ATSPIUpdate] = []
        appendStructureUpdates(from: old, to: new, changes: changes, into: &updates)
        appendPropertyAndStateUpdates(from: old, to: new, changes: changes, into: &updates)
        return updates
    }

    /// Parents whose children changed, in order ("" = the application root).
    static func touchedParents(from oldTree: AXTree, to newTree: AXTree, changes: ChangeSet) -> [String] {
        var parents: [String] = []
        var seen = Set<String>()
        func touch(_ parent: String?) {
            let key = parent ?? ""
            if seen.insert(key).inserted { parents.append(key) }
        }
        if oldTree.windows != newTree.windows { touch(nil) }
        for id in changes.removed {
            if let oldNode = oldTree[id] { touch(oldNode.parent) }
        }
        for id in changes.moved {
            touch(oldTree[id]?.parent)
            touch(newTree[id]?.parent)
        }
        for id in changes.added {
            if let newNode = newTree[id] { touch(newNode.parent) }
        }
        for (id, attributes) in changes.updated where attributes.contains("children") { touch(id) }
        return parents
    }

    static func appendStructureUpdates(
        from old: ServedSnapshot, to new: ServedSnapshot, changes: ChangeSet, into updates: inout [ATSPIUpdate]
    ) {
        let oldTree = old.tree
        let newTree = new.tree
        let parents = touchedParents(from: oldTree, to: newTree, changes: changes)
        for id in changes.removed where oldTree[id] != nil && newTree[id] == nil {
            updates.append(.cacheRemove(elementID: id))
        }
        for parent in parents {
            let isRoot = parent.isEmpty
            let oldChildren = isRoot ? oldTree.windows : (oldTree[parent]?.children ?? [])
            let newChildren = isRoot ? newTree.windows : (newTree[parent]?.children ?? [])
            // A parent that is new itself was announced by its own "add": its children come with it.
            guard oldChildren != newChildren, isRoot || (newTree[parent] != nil && oldTree[parent] != nil) else {
                continue
            }
            appendChildrenChanged(
                of: isRoot ? nil : parent, from: oldChildren, to: newChildren, oldTree: oldTree, newTree: newTree,
                into: &updates)
        }
        for id in changes.added where newTree[id] != nil { updates.append(.cacheAdd(elementID: id)) }
    }

    /// The children-changed events of one parent (`source` nil: the application root, whose children are windows,
    /// which also get window:create and window:destroy).
    private static func appendChildrenChanged(
        of source: String?, from oldChildren: [String], to newChildren: [String], oldTree: AXTree, newTree: AXTree,
        into updates: inout [ATSPIUpdate]
    ) {
        let newSet = Set(newChildren)
        let oldSet = Set(oldChildren)
        let removed = oldChildren.enumerated().filter { !newSet.contains($0.element) }
        let added = newChildren.enumerated().filter { !oldSet.contains($0.element) }
        let keptInOrder = oldChildren.filter { newSet.contains($0) } == newChildren.filter { oldSet.contains($0) }
        if removed.count + added.count > 32 || !keptInOrder {
            // Bulk change: one event with index -1 makes libatspi drop its cached children of the parent.
            updates.append(
                .event(
                    ATSPIEvent(
                        .childrenChanged, source: source, detail: "add", detail1: -1,
                        data: .reference(newChildren.first), maintainsCache: true)))
        } else {
            for (index, child) in removed.reversed() {
                updates.append(
                    .event(
                        ATSPIEvent(
                            .childrenChanged, source: source, detail: "remove", detail1: Int32(clamping: index),
                            data: .reference(child), maintainsCache: true)))
            }
            for (index, child) in added {
                updates.append(
                    .event(
                        ATSPIEvent(
                            .childrenChanged, source: source, detail: "add", detail1: Int32(clamping: index),
                            data: .reference(child), maintainsCache: true)))
            }
        }
        guard source == nil else { return }
        for (_, window) in removed {
            if let windowNode = oldTree[window] {
                updates.append(
                    .event(ATSPIEvent(.windowDestroy, source: window, data: .string(windowNode.label ?? ""))))
            }
        }
        for (_, window) in added {
            if let windowNode = newTree[window] {
                updates.append(.event(ATSPIEvent(.windowCreate, source: window, data: .string(windowNode.label ?? ""))))
            }
        }
    }

    static func appendPropertyAndStateUpdates(
        from old: ServedSnapshot, to new: ServedSnapshot, changes: ChangeSet, into updates: inout [ATSPIUpdate]
    ) {
        let focusMoved = old.focusedID != new.focusedID
        var candidates = Array(changes.updated.keys)
        appendSelectionUpdates(from: old, to: new, changes: changes, candidates: &candidates, into: &updates)
        if focusMoved {
            if let focused = old.focusedID { candidates.append(focused) }
            if let focused = new.focusedID { candidates.append(focused) }
        }
        var windows = WindowActivation()
        let removed = Set(changes.removed)
        var visited = Set<String>()
        for id in candidates where visited.insert(id).inserted && !removed.contains(id) {
            guard let oldNode = old.tree[id], let newNode = new.tree[id] else { continue }
            appendPropertyUpdates(old: oldNode, new: newNode, oldSnapshot: old, newSnapshot: new, into: &updates)
            appendStateUpdates(old: oldNode, new: newNode, from: old, to: new, windows: &windows, into: &updates)
        }
        appendArrivals(from: old, to: new, changes: changes, windows: &windows)
        // D-REL-6: relation sets of the changed nodes and their neighbours.
        let changedIDs = changes.added + changes.removed + changes.moved + Array(changes.updated.keys)
        for id in Relations.changedRelations(old: old.tree, new: new.tree, changed: changedIDs) {
            updates.append(
                .event(ATSPIEvent(.propertyChange, source: id, detail: "accessible-relation", data: .string(""))))
        }
        windows.appendEvents(into: &updates)
        if focusMoved {
            // D-ATSPI-FOCUS-2: the newly focused element's caret and text selection go out after its focus, as
            // GTK sends them: a screen reader announces the field, then the selection (Tab into an entry whose
            // toolkit selects its text in the same moment: Orca said "80 selected", never the field's name).
            let caretEvents = takeCaretEvents(of: new.focusedID, from: &updates)
            appendFocusUpdates(from: old, to: new, into: &updates)
            updates.append(contentsOf: caretEvents)
        }
    }

    /// Removes and returns the caret and text-selection events of `element` from `updates`, in their order.
    private static func takeCaretEvents(of element: String?, from updates: inout [ATSPIUpdate]) -> [ATSPIUpdate] {
        guard let element else { return [] }
        var taken: [ATSPIUpdate] = []
        updates.removeAll { update in
            guard case .event(let event) = update, event.source == element,
                event.kind == .textCaretMoved || event.kind == .textSelectionChanged
            else { return false }
            taken.append(update)
            return true
        }
        return taken
    }

    /// Elements that arrive ACTIVE activate: a newly presented alert (Orca presents it, then follows focus into it),
    /// and a window that arrives as the app's key window while another window of the app was the active one — a
    /// dialog or a second window of the same app takes the keys, as a window manager activates it (D-ATSPI-ACTIVE-1,
    /// windows within one app). The old key window's ACTIVE going off is a state change (`appendStateUpdates`), so
    /// its deactivation goes out first. An app's first window stays silent: no window was active before it.
    private static func appendArrivals(
        from old: ServedSnapshot, to new: ServedSnapshot, changes: ChangeSet, windows: inout WindowActivation
    ) {
        let keyWindowBefore = activeWindow(in: old)
        for id in changes.added {
            guard let newNode = new.tree[id], old.tree[id] == nil,
                newNode.role == .alert || (newNode.role == .window && keyWindowBefore != nil)
            else { continue }
            let states = ATSPIMapping.states(newNode, context: new.context(of: newNode), focused: false)
            if states.contains(.active) { windows.activated.append(newNode) }
        }
    }

    /// The window `snapshot` serves ACTIVE (the app's key window while the app has the keys), if any.
    package static func activeWindow(in snapshot: ServedSnapshot) -> String? {
        snapshot.tree.windows.last { id in
            guard let node = snapshot.tree[id], node.role == .window else { return false }
            return ATSPIMapping.states(node, context: snapshot.context(of: node), focused: false).contains(.active)
        }
    }

    /// D-ATSPI-SEL-1: a cell whose selection changed can change its siblings' SELECTABLE (they become candidates);
    /// D-SELECT-2: the selection container (a list, a table, a tab bar, a segmented control) says its selection
    /// changed, once per container, as GTK does.
    private static func appendSelectionUpdates(
        from old: ServedSnapshot, to new: ServedSnapshot, changes: ChangeSet, candidates: inout [String],
        into updates: inout [ATSPIUpdate]
    ) {
        let newTree = new.tree
        var selectionContainers: [String] = []
        for id in changes.updated.keys {
            guard let node = newTree[id], let parent = node.parent.flatMap({ newTree[$0] }),
                old.tree[id]?.states.contains(.selected) != node.states.contains(.selected)
            else { continue }
            if node.role == .cell { candidates.append(contentsOf: parent.children) }
            var container: AXNode? = parent
            var steps = 0
            while let current = container, !ATSPIMapping.isSelectionContainer(current.role), steps < 8 {
                container = current.parent.flatMap { newTree[$0] }
                steps += 1
            }
            if let container, ATSPIMapping.isSelectionContainer(container.role),
                !selectionContainers.contains(container.id)
            {
                selectionContainers.append(container.id)
            }
        }
        for container in selectionContainers {
            updates.append(.event(ATSPIEvent(.selectionChanged, source: container)))
        }
    }

    /// Windows and alerts whose ACTIVE state changed: their events go out after the other state changes.
    private struct WindowActivation {
        var activated: [AXNode] = []
        var deactivated: [AXNode] = []

        func appendEvents(into updates: inout [ATSPIUpdate]) {
            for window in deactivated {
                updates.append(
                    .event(
                        ATSPIEvent(
                            .stateChanged, source: window.id, detail: "active", detail1: 0, maintainsCache: true)))
                updates.append(
                    .event(ATSPIEvent(.windowDeactivate, source: window.id, data: .string(window.label ?? ""))))
            }
            for window in activated {
                updates.append(
                    .event(ATSPIEvent(.windowActivate, source: window.id, data: .string(window.label ?? ""))))
                updates.append(
                    .event(
                        ATSPIEvent(
                            .stateChanged, source: window.id, detail: "active", detail1: 1, maintainsCache: true)))
            }
        }
    }

    /// The state changes of one element (FOCUSED apart: `appendFocusUpdates`; a window's ACTIVE: `windows`).
    private static func appendStateUpdates(
        old oldNode: AXNode, new newNode: AXNode, from old: ServedSnapshot, to new: ServedSnapshot,
        windows: inout WindowActivation, into updates: inout [ATSPIUpdate]
    ) {
        let id = newNode.id
        let oldStates = ATSPIMapping.states(oldNode, context: old.context(of: oldNode), focused: id == old.focusedID)
        let newStates = ATSPIMapping.states(newNode, context: new.context(of: newNode), focused: id == new.focusedID)
        guard oldStates != newStates else { return }
        let changedBits = oldStates.bits ^ newStates.bits
        for state in ATSPIState.allCases where changedBits & (1 << UInt64(state.rawValue)) != 0 {
            switch state {
            case .focused:
                break  // appendFocusUpdates, also for elements that were just added or are being removed
            case .active where newNode.role == .window || newNode.role == .alert:
                if newStates.contains(.active) {
                    windows.activated.append(newNode)
                } else {
                    windows.deactivated.append(newNode)
                }
            default:
                updates.append(
                    .event(
                        ATSPIEvent(
                            .stateChanged, source: id, detail: state.nick,
                            detail1: newStates.contains(state) ? 1 : 0, maintainsCache: true)))
            }
        }
    }

    /// FOCUSED off on the old focus, on on the new one, and the legacy focus: event.
    private static func appendFocusUpdates(
        from old: ServedSnapshot, to new: ServedSnapshot, into updates: inout [ATSPIUpdate]
    ) {
        if let focused = old.focusedID, new.tree[focused] != nil {
            updates.append(
                .event(ATSPIEvent(.stateChanged, source: focused, detail: "focused", detail1: 0, maintainsCache: true))
            )
        }
        if let focused = new.focusedID, new.tree[focused] != nil {
            updates.append(
                .event(ATSPIEvent(.stateChanged, source: focused, detail: "focused", detail1: 1, maintainsCache: true))
            )
            // The legacy focus: event (GTK and Qt still send it; only to clients that registered for it).
            updates.append(.event(ATSPIEvent(.focus, source: focused)))
        }
    }

    /// Name, description, role, value, text and bounds changes of one element.
    static func appendPropertyUpdates(
        old oldNode: AXNode, new newNode: AXNode, oldSnapshot: ServedSnapshot, newSnapshot: ServedSnapshot,
        into updates: inout [ATSPIUpdate]
    ) {
        let id = newNode.id
        if (oldNode.label ?? "") != (newNode.label ?? "") {
            updates.append(
                .event(
                    ATSPIEvent(
                        .propertyChange, source: id, detail: "accessible-name", data: .string(newNode.label ?? ""),
                        maintainsCache: true)))
        }
        if (oldNode.hint ?? "") != (newNode.hint ?? "") {
            let description = AccessibleModel(snapshot: newSnapshot).description(of: newNode)
            updates.append(
                .event(
                    ATSPIEvent(
                        .propertyChange, source: id, detail: "accessible-description", data: .string(description),
                        maintainsCache: true)))
        }
        let oldRole = ATSPIMapping.role(oldNode, context: oldSnapshot.context(of: oldNode))
        let newRole = ATSPIMapping.role(newNode, context: newSnapshot.context(of: newNode))
        if oldRole != newRole {
            updates.append(
                .event(
                    ATSPIEvent(
                        .propertyChange, source: id, detail: "accessible-role", data: .uint(newRole.rawValue),
                        maintainsCache: true)))
        }
        if let numeric = newNode.numeric, numeric != oldNode.numeric {
            updates.append(
                .event(
                    ATSPIEvent(
                        .propertyChange, source: id, detail: "accessible-value", data: .double(numeric.current))))
        }
        let textEdited = ATSPIMapping.isTextInput(newNode.role) && oldNode.text != newNode.text
        if textEdited {
            appendTextUpdates(
                id: id, edit: TextEdit(from: ATSPIMapping.text(oldNode), to: ATSPIMapping.text(newNode)),
                caret: reportedCaret(of: newNode, in: newSnapshot), into: &updates)
        }
        appendTextContentUpdates(old: oldNode, new: newNode, textEdited: textEdited, into: &updates)
        if oldNode.frame != newNode.frame {
            let extents = ComponentModel(snapshot: newSnapshot).extents(of: newNode, coordinateType: .screen)
            updates.append(.event(ATSPIEvent(.boundsChanged, source: id, data: .rect(extents))))
        }
    }

    /// `text-changed:delete` and `text-changed:insert` for the changed middle part, then the caret: where the
    /// server put it (`caret`, an element edited by keys, D-KEYOP-5), else at the end.
    static func appendTextUpdates(id: String, edit: TextEdit, caret: Int32? = nil, into updates: inout [ATSPIUpdate]) {
        if edit.deletedLength > 0 {
            updates.append(
                .event(
                    ATSPIEvent(
                        .textChanged, source: id, detail: "delete", detail1: Int32(clamping: edit.offset),
                        detail2: Int32(clamping: edit.deletedLength), data: .string(edit.deleted))))
        }
        if edit.insertedLength > 0 {
            updates.append(
                .event(
                    ATSPIEvent(
                        .textChanged, source: id, detail: "insert", detail1: Int32(clamping: edit.offset),
                        detail2: Int32(clamping: edit.insertedLength), data: .string(edit.inserted))))
        }
        updates.append(
            .event(ATSPIEvent(.textCaretMoved, source: id, detail1: caret ?? Int32(clamping: edit.newLength))))
    }
}
