/// Which views are accessibility elements, containers, or neither (R1, R17, R109–R111, X1, X9, X15;
/// D-EXPOSE-1, D-HIDE-1…3), and which modal views hide their siblings (X10, D-MODAL-1).
extension Deriver {
    func isVisibleSelf(_ view: ViewNode) -> Bool {
        !view.isHidden && view.alpha >= 0.01
    }

    func effectiveModal(_ view: ViewNode) -> Bool {
        view.ax.viewIsModal ?? (view.kind == .alertController || view.kind == .actionSheet)
    }

    enum Exposure {
        case excluded, element
        case container(AXRole)
        case transparent
    }

    func exposure(_ view: ViewNode, ctx: Ctx) -> Exposure {
        if !isVisibleSelf(view) || view.ax.elementsHidden { return .excluded }  // R109–R111, X9, D-HIDE-1…3
        if view.kind == .window { return .container(.window) }
        if view.ax.elements != nil { return .container(containerRole(view) ?? .group) }  // X15
        if let explicit = view.ax.isAccessibilityElement {
            if explicit { return .element }
            if let role = containerRole(view) { return .container(role) }
            return .transparent
        }
        if view.kind.isElementByDefault && exposedByDefault(view) { return .element }
        if let role = containerRole(view) { return .container(role) }
        return .transparent
    }

    /// Standard elements that UIKit only exposes with content (D-IMAGE-1, D-EXPOSE-2).
    func exposedByDefault(_ view: ViewNode) -> Bool {
        switch view.kind {
        case .imageView: return view.ax.label?.isEmpty == false
        case .label: return (view.ax.label ?? view.control.text)?.isEmpty == false
        case .activityIndicator: return view.control.isAnimating || view.ax.label != nil
        default: return true
        }
    }

    /// X10 / D-MODAL-1: the front-most visible modal child hides its siblings (not the siblings of ancestors).
    @inline(never)
    func frontMostModal(_ children: [String]) -> Int? {
        for (index, child) in children.enumerated().reversed() {
            if let childBox = views.nodes.box(child), isVisibleSelf(childBox.value), effectiveModal(childBox.value) {
                return index
            }
        }
        return nil
    }
}
