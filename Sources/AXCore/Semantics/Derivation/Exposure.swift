/// Which views are accessibility elements, containers, or neither (R1, R17, R109–R111, X1, X9, X15;
/// D-EXPOSE-1, D-HIDE-1…3), and which modal views hide their siblings (X10, D-MODAL-1).
extension Deriver {
    func isVisibleSelf(_ n: ViewNode) -> Bool {
        !n.isHidden && n.alpha >= 0.01
    }

    func effectiveModal(_ n: ViewNode) -> Bool {
        n.ax.viewIsModal ?? (n.kind == .alertController || n.kind == .actionSheet)
    }

    enum Exposure {
        case excluded, element
        case container(AXRole)
        case transparent
    }

    func exposure(_ n: ViewNode, ctx: Ctx) -> Exposure {
        if !isVisibleSelf(n) || n.ax.elementsHidden { return .excluded }  // R109–R111, X9, D-HIDE-1…3
        if n.kind == .window { return .container(.window) }
        if n.ax.elements != nil { return .container(containerRole(n) ?? .group) }  // X15
        if let explicit = n.ax.isAccessibilityElement {
            if explicit { return .element }
            if let r = containerRole(n) { return .container(r) }
            return .transparent
        }
        if n.kind.isElementByDefault && exposedByDefault(n) { return .element }
        if let r = containerRole(n) { return .container(r) }
        return .transparent
    }

    /// Standard elements that UIKit only exposes with content (D-IMAGE-1, D-EXPOSE-2).
    func exposedByDefault(_ n: ViewNode) -> Bool {
        switch n.kind {
        case .imageView: return n.ax.label?.isEmpty == false
        case .label: return (n.ax.label ?? n.control.text)?.isEmpty == false
        case .activityIndicator: return n.control.isAnimating || n.ax.label != nil
        default: return true
        }
    }

    /// X10 / D-MODAL-1: the front-most visible modal child hides its siblings (not the siblings of ancestors).
    @inline(never)
    func frontMostModal(_ kids: [String]) -> Int? {
        for (i, k) in kids.enumerated().reversed() {
            if let kb = views.nodes.box(k), isVisibleSelf(kb.value), effectiveModal(kb.value) { return i }
        }
        return nil
    }
}
