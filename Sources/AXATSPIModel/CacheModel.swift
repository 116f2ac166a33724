import AXCore

/// One `org.a11y.atspi.Cache` item `((so)(so)(so)iiassusau)`: object, application root, parent, index in parent,
/// child count, interfaces, name, role, description, states.
package struct CacheItem: Sendable {
    /// The object (nil: the application root).
    package var elementID: String?
    package var parent: ObjectReference
    package var indexInParent: Int32
    package var childCount: Int32
    package var interfaces: ATSPIInterfaces
    package var name: String
    package var role: ATSPIRole
    package var description: String
    package var states: ATSPIStateSet
}

/// Answers of `org.a11y.atspi.Cache` (`GetItems`, `AddAccessible`).
package struct CacheModel {
    /// The snapshot answered from.
    package let snapshot: ServedSnapshot

    package init(snapshot: ServedSnapshot) { self.snapshot = snapshot }

    /// The application root's item.
    package var rootItem: CacheItem {
        CacheItem(
            elementID: nil, parent: .desktop, indexInParent: -1,
            childCount: Int32(clamping: snapshot.tree.windows.count),
            interfaces: AccessibleModel(snapshot: snapshot).interfaces(of: .applicationRoot),
            name: snapshot.applicationName, role: .application, description: "", states: ATSPIStateSet())
    }

    /// A node's item.
    package func item(for node: AXNode, siblingIndex: inout SiblingIndexCache) -> CacheItem {
        let accessible = AccessibleModel(snapshot: snapshot)
        let context = snapshot.context(of: node)
        return CacheItem(
            elementID: node.id, parent: accessible.parent(of: .node(node)),
            indexInParent: accessible.indexInParent(of: .node(node), cache: &siblingIndex),
            childCount: Int32(clamping: node.children.count),
            interfaces: ATSPIMapping.interfaces(node, context: context), name: node.label ?? "",
            role: ATSPIMapping.role(node, context: context), description: accessible.description(of: node),
            states: ATSPIMapping.states(node, context: context, focused: node.id == snapshot.focusedID))
    }
}
