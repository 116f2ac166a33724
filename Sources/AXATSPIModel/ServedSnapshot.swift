import AXCore
import Synchronization

/// What one exported AT-SPI object is: the application root (`/org/a11y/atspi/accessible/root`) or a node.
package enum ServedObject: Sendable {
    case applicationRoot
    case node(AXNode)

    /// The node, or nil for the application root.
    package var node: AXNode? {
        if case .node(let node) = self { return node }
        return nil
    }
}

/// Where a reference points: the desktop that embedded the application, the application root, an element, or
/// the null reference (`("", /org/a11y/atspi/null)`).
package enum ObjectReference: Sendable, Equatable {
    case desktop
    case applicationRoot
    case element(String)
    case null
}

/// The snapshot the bridge answers from: the app's tree and its focus, plus the application's name. Every
/// answer of the AT-SPI model is a pure function of a served snapshot (and the call's arguments).
package struct ServedSnapshot: Sendable {
    /// The app's accessibility tree (a new tree drops what was memoized for the old one).
    package var tree: AXTree {
        didSet { memo = ServedMemo() }
    }
    /// The focused element, if any.
    package var focusedID: String?
    /// The application's name (the root object's `Name`).
    package var applicationName: String
    /// The transient notification object that presents the latest announcement (not part of the tree).
    package var announcementNode: AXNode?
    /// Carets the server keeps for text elements it edits (D-KEYOP-5), in Unicode scalars; an element without
    /// one has its caret at the end of its text.
    package var carets: [String: Int] = [:]
    /// The text inputs with a non-empty selection the server keeps (D-KEYOP-5).
    package var textSelections: Set<String> = []
    /// Another app receives the keys now (D-ATSPI-ACTIVE-1): this app's key window is not ACTIVE.
    package var appInactive = false
    /// The subtrees a modal view hides in the core's tree that the bridge keeps serving (D-ATSPI-MODAL-1).
    package var modalRetention = ModalRetention()

    /// - Parameters:
    ///   - tree: the app's accessibility tree.
    ///   - focusedID: the focused element.
    ///   - applicationName: the name of the application root.
    package init(tree: AXTree, focusedID: String? = nil, applicationName: String = "") {
        self.tree = tree
        self.focusedID = focusedID
        self.applicationName = applicationName
    }

    /// The node with this id: a tree node, or the announcement object.
    @inline(__always) package func node(_ id: String) -> AXNode? {
        if let node = tree[id] { return node }
        if id == ATSPIMapping.announcementID, let announcement = announcementNode { return announcement }
        return nil
    }

    /// What answers computed from the whole tree keep for this tree (built on first use).
    private var memo = ServedMemo()

    /// The node's mapping context: its data table's header lists, whether its container shows a selection
    /// (memoized per container), whether a modal container encloses it.
    package func context(of node: AXNode) -> ATSPIContext {
        var context = ATSPIContext.of(node, in: tree) { container in
            if let known = memo.selectionShown.withLock({ $0[container.id] }) { return known }
            let shown = ATSPIContext.showsSelection(container, in: tree)
            memo.selectionShown.withLock { $0[container.id] = shown }
            return shown
        }
        context.appInactive = appInactive
        return context
    }

    /// The app-defined rotors that list the node (D-ROTOR-6), from a rotor index built once per tree.
    package func rotorNames(of node: AXNode) -> [String] {
        let index = memo.rotorIndex.withLock { cached -> RotorIndex in
            if let cached { return cached }
            let built = RotorIndex(tree: tree)
            cached = built
            return built
        }
        return index.customRotors(listing: node.id)
    }

    /// The node's position among the rows of its list (D-ATSPI-POS-1), from each list's rows listed once per tree.
    package func listPosition(of node: AXNode) -> (Int, Int)? {
        ListPositions.position(of: node, in: tree) { list in
            if let known = memo.listRows.withLock({ $0[list.id] }) { return known }
            let rows = ListPositions.rows(of: list, in: tree)
            memo.listRows.withLock { $0[list.id] = rows }
            return rows
        }
    }

    /// The role of a node's parent (several mappings depend on it).
    @inline(__always) package func parentRole(of node: AXNode) -> AXRole? {
        guard let parent = node.parent else { return nil }
        return tree[parent]?.role
    }
}

/// Per-tree memo of a served snapshot (a reference, so copies of one snapshot share it; a new tree gets a new one).
final class ServedMemo: Sendable {
    /// Container id → whether one of its cells is selected (D-ATSPI-SEL-1).
    let selectionShown = Mutex<[String: Bool]>([:])
    /// List id → its rows (D-ATSPI-POS-1).
    let listRows = Mutex<[String: [String]]>([:])
    /// The rotor index for rotor membership (D-ROTOR-6).
    let rotorIndex = Mutex<RotorIndex?>(nil)
}
