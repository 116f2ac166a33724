import AXCore

/// The checks that need the views behind the tree: what was not exposed (element detection, nested elements)
/// and the text style the app sends (contrast, clipped text). One depth-first walk of the view hierarchy.
enum ViewChecks {
    /// What a view inherits from its ancestors during the walk.
    struct Inherited {
        var screenMap: AxisMap
        var visible: Bool
        var interactionEnabled: Bool
        var elementsHidden: Bool
        /// The nearest ancestor view that is an element of the tree (its subviews are not separate stops).
        var elementAncestor: String?
        var background: RGBColor?
        var inScope: Bool
        var underModal: Bool
        var windowHasModal: Bool
    }

    /// Which of the view checks the audit asked for.
    struct Wanted {
        var detection: Bool
        var nesting: Bool
        var contrast: Bool
        var clipping: Bool
        var any: Bool { detection || nesting || contrast || clipping }
    }

    /// One view as the walk reaches it: its state, screen frame and place in the tree.
    struct Visit {
        var view: ViewNode
        var id: String
        var state: Inherited
        /// The element ancestor the view inherited (before the view itself may become one).
        var inheritedElement: String?
        var frame: Rect
        var inTree: Bool
        var isElement: Bool
    }

    /// Walks every window's views; returns how many views were examined (in scope).
    static func run(
        tree: AXTree, views: ViewHierarchy, rootView: String?, scoped: Bool, walk: NodeChecks.WalkResult,
        into collector: inout Collector
    ) -> Int {
        let wanted = Wanted(
            detection: collector.wants(AuditCatalog.elementDetection),
            nesting: collector.wants(AuditCatalog.parentChild),
            contrast: collector.wants(AuditCatalog.contrast), clipping: collector.wants(AuditCatalog.textClipped))
        guard wanted.any else { return 0 }
        if scoped && rootView == nil { return 0 }  // a virtual root has no views below it
        let (modalViews, windowsWithModal) = modals(tree: tree, views: views)
        var examined = 0
        var stack: [(String, Inherited)] = []
        for windowID in views.roots.reversed() where tree[windowID] != nil {
            let start = Inherited(
                screenMap: .identity, visible: true, interactionEnabled: true, elementsHidden: false,
                elementAncestor: nil, background: nil, inScope: !scoped, underModal: false,
                windowHasModal: windowsWithModal.contains(windowID))
            stack.append((windowID, start))
        }
        while let (id, inherited) = stack.popLast() {
            guard let box = views.nodes.box(id) else { continue }
            let view = box.value
            var state = inheriting(inherited, view: view, id: id, rootView: rootView, modalViews: modalViews)
            let (inTree, isElement) = membership(id, tree: tree, scoped: scoped, walk: walk)
            if state.inScope {
                examined += 1
                let visit = Visit(
                    view: view, id: id, state: state, inheritedElement: inherited.elementAncestor,
                    frame: inherited.screenMap.apply(view.rectInSuperview), inTree: inTree, isElement: isElement)
                check(visit, wanted: wanted, tree: tree, views: views, into: &collector)
            }
            if !state.visible { continue }
            if isElement && state.elementAncestor == nil { state.elementAncestor = id }
            state.screenMap = inherited.screenMap.composed(with: view.boundsToSuperviewMap)
            for child in view.children.reversed() { stack.append((child, state)) }
        }
        return examined
    }

    /// The views of modal nodes and the windows that hold one.
    static func modals(tree: AXTree, views: ViewHierarchy) -> (views: Set<String>, windows: Set<String>) {
        var modalViews = Set<String>()
        var windowsWithModal = Set<String>()
        guard views.modalCandidates > 0 else { return (modalViews, windowsWithModal) }
        for (_, node) in tree.nodes where node.states.contains(.modal) {
            if let viewID = node.viewID {
                modalViews.insert(viewID)
                windowsWithModal.insert(node.windowID)
            }
        }
        return (modalViews, windowsWithModal)
    }

    /// A view's state from its parent's and its own properties (the screen map is composed after the checks).
    static func inheriting(
        _ inherited: Inherited, view: ViewNode, id: String, rootView: String?, modalViews: Set<String>
    ) -> Inherited {
        var state = inherited
        state.inScope = inherited.inScope || id == rootView
        state.visible = inherited.visible && !view.isHidden && view.alpha >= 0.01
        state.interactionEnabled = inherited.interactionEnabled && view.effectiveUserInteractionEnabled
        state.elementsHidden = inherited.elementsHidden || view.ax.elementsHidden
        state.underModal = inherited.underModal || modalViews.contains(id)
        if let background = view.control.backgroundColor { state.background = background }
        return state
    }

    /// Whether the view has a node and whether it is an element: from the walk of the whole tree, or (when the
    /// walk covered only a subtree) from the tree itself.
    static func membership(_ id: String, tree: AXTree, scoped: Bool, walk: NodeChecks.WalkResult)
        -> (inTree: Bool, isElement: Bool)
    {
        guard scoped else { return walk.contains(id) }
        let node = tree.nodes.box(id)?.value
        return (node != nil, node?.isElement == true)
    }

    /// The checks of one view in scope.
    static func check(
        _ visit: Visit, wanted: Wanted, tree: AXTree, views: ViewHierarchy, into collector: inout Collector
    ) {
        let view = visit.view
        let state = visit.state
        if wanted.detection && !visit.inTree {
            checkDetection(view, state: state, frame: visit.frame, views: views, into: &collector)
        }
        if wanted.nesting, !visit.inTree, let outer = visit.inheritedElement {
            checkNesting(view, outer: outer, state: state, tree: tree, views: views, into: &collector)
        }
        let styled = view.control.textColor != nil || view.control.fontSize != nil
        if styled && (wanted.contrast || wanted.clipping) && state.visible && !state.elementsHidden {
            checkText(
                view, background: state.background, frame: visit.frame,
                element: visit.isElement ? visit.id : visit.inheritedElement, tree: tree, into: &collector)
        }
    }

    /// D-AUDIT-1: a visible, enabled, interactive control that is in no element and not in the tree.
    static func checkDetection(
        _ view: ViewNode, state: Inherited, frame: Rect, views: ViewHierarchy, into collector: inout Collector
    ) {
        guard state.visible, !state.elementsHidden, state.interactionEnabled, state.elementAncestor == nil else {
            return
        }
        guard view.control.isEnabled, !frame.isEmpty else { return }
        if state.windowHasModal && !state.underModal { return }  // hidden by a modal view on purpose (X10)
        let declaredTraits = view.ax.traits ?? []
        let interactiveKind = Interactivity.isInteractiveKind(view)
        let interactiveTraits = !declaredTraits.isDisjoint(with: Interactivity.traits)
        guard interactiveKind || interactiveTraits else { return }
        let reason: String
        let fix: String
        var rules: [String]
        if view.ax.isAccessibilityElement == false {
            reason =
                "is an interactive \(view.className) with isAccessibilityElement = false: VoiceOver cannot reach or activate it"
            fix =
                "Remove isAccessibilityElement = false (controls are elements by default, R1, X1), or expose an element that performs its action"
            rules = ["R1", "X1"]
        } else if let container = listingContainer(of: view, views: views) {
            reason =
                "is interactive but left out of the accessibilityElements of '\(container)', so VoiceOver never reaches it"
            fix =
                "Add '\(view.id)' to '\(container)'s accessibilityElements (R37), or expose an element that performs its action"
            rules = ["R37", "R36"]
        } else if view.kind == .imageView || !interactiveKind {
            reason =
                "declares interactive traits but is not an accessibility element (a \(view.className) with no label is not exposed)"
            fix = "Set isAccessibilityElement = true and an accessibilityLabel on it (R19, X1, D-IMAGE-1)"
            rules = ["R19", "X1"]
        } else {
            reason = "is an interactive \(view.className) that is not exposed to assistive technology"
            fix = "Expose it: isAccessibilityElement = true with a label (R19)"
            rules = ["R19"]
        }
        collector.add(
            AuditCatalog.elementDetection, element: view.id, role: nil,
            label: view.ax.label ?? ControlSemantics.defaultLabel(view),
            frame: frame, reason: reason, fix: fix, rules: rules)
    }

    /// The nearest ancestor whose `accessibilityElements` list decides its children and does not list `view`.
    static func listingContainer(of view: ViewNode, views: ViewHierarchy) -> String? {
        var current = view.parent
        while let id = current, let ancestor = views[id] {
            if let entries = ancestor.ax.elements {
                let listed = entries.contains { entry in
                    if case .view(let listedID) = entry { return listedID == view.id }
                    return false
                }
                return listed ? nil : id
            }
            current = ancestor.parent
        }
        return nil
    }

    /// D-AUDIT-5: an explicit element or an interactive control inside another element (not a table cell, whose
    /// content the cell reads and whose one control it forwards to: D-CELL-1).
    static func checkNesting(
        _ view: ViewNode, outer: String, state: Inherited, tree: AXTree, views: ViewHierarchy,
        into collector: inout Collector
    ) {
        guard state.visible, !state.elementsHidden else { return }
        guard view.ax.isAccessibilityElement == true || Interactivity.isInteractiveKind(view) else { return }
        guard let outerNode = tree[outer], let outerView = views[outer] else { return }
        if outerView.kind == .tableViewCell || outerView.kind == .collectionViewCell { return }
        collector.add(
            AuditCatalog.parentChild, node: outerNode,
            reason:
                "contains '\(view.id)' (\(view.className)), an element of its own that VoiceOver never reaches inside this element",
            fix:
                "Make '\(outer)' a container (isAccessibilityElement = false, or accessibilityElements), or fold '\(view.id)' into it (X15, R19)",
            rules: ["X15", "R19"])
    }

    /// D-AUDIT-7 and D-AUDIT-8, for a view that shows text and sends its style.
    static func checkText(
        _ view: ViewNode, background: RGBColor?, frame: Rect, element: String?, tree: AXTree,
        into collector: inout Collector
    ) {
        guard let text = visibleText(view), !text.isEmpty, let elementID = element, let node = tree[elementID] else {
            return
        }
        if let foreground = view.control.textColor, let background, collector.wants(AuditCatalog.contrast) {
            let ratio = Contrast.ratio(foreground, background)
            let large = (view.control.fontSize ?? 0) >= Contrast.largeTextSize
            let required = large ? Contrast.largeTextMinimum : Contrast.normalTextMinimum
            if ratio < required {
                let shownRatio = (ratio * 100).rounded(.down) / 100
                collector.add(
                    AuditCatalog.contrast, node: node,
                    reason:
                        "text \(AuditText.quoted(text)) in \(foreground.hex) on \(background.hex) has contrast \(shownRatio):1, under \(ControlSemantics.formatNumber(required)):1",
                    fix:
                        "Darken the text or lighten the background to reach \(ControlSemantics.formatNumber(required)):1 (WCAG 1.4.3; D-AUDIT-8)",
                    rules: ["R15"])
            }
        }
        if let fontSize = view.control.fontSize, collector.wants(AuditCatalog.textClipped) {
            let lineHeight = fontSize * TextMetrics.lineHeightFactor
            let lines = max(1, (frame.height / lineHeight).rounded(.down))
            let needed = TextMetrics.minimumWidth(text, fontSize: fontSize)
            let available = frame.width * lines
            if needed > available * TextMetrics.tolerance {
                collector.add(
                    AuditCatalog.textClipped, node: node,
                    reason:
                        "text \(AuditText.quoted(text)) needs at least \(NodeChecks.format(needed.rounded())) pt at \(NodeChecks.format(fontSize)) pt; its frame holds \(NodeChecks.format(lines)) line(s) of \(NodeChecks.format(frame.width)) pt",
                    fix:
                        "Let the text wrap (more height, numberOfLines = 0) or shorten it; never rely on truncation (R15)",
                    rules: ["R15", "R22"])
            }
        }
    }

    /// The text a view draws: a label's text, a button's title, a field's text.
    static func visibleText(_ view: ViewNode) -> String? {
        if view.control.isSecureTextEntry { return ControlSemantics.maskedValue(view) }  // D-SECURE-1
        switch view.kind {
        case .label, .textField, .textView, .searchBar: return view.control.text ?? view.control.title
        default: return view.control.title ?? view.control.text
        }
    }
}

/// WCAG 2 contrast (D-AUDIT-8).
package enum Contrast {
    package static let normalTextMinimum = 4.5
    package static let largeTextMinimum = 3.0
    /// Text at least this size counts as large (WCAG: 18 pt; bold weights are not sent, so 14 pt bold is not).
    package static let largeTextSize = 18.0

    /// The contrast ratio (L1 + 0.05) / (L2 + 0.05), from 1 to 21.
    package static func ratio(_ first: RGBColor, _ second: RGBColor) -> Double {
        let lighter = max(luminance(first), luminance(second))
        let darker = min(luminance(first), luminance(second))
        return (lighter + 0.05) / (darker + 0.05)
    }

    /// Relative luminance of an sRGB colour.
    package static func luminance(_ color: RGBColor) -> Double {
        0.2126 * linear[Int(color.red)] + 0.7152 * linear[Int(color.green)] + 0.0722 * linear[Int(color.blue)]
    }

    /// sRGB channel value → linear light, for the 256 channel values.
    static let linear: [Double] = (0..<256).map { value in
        let c = Double(value) / 255
        return c <= 0.04045 ? c / 12.92 : power24((c + 0.055) / 1.055)
    }

    /// x^2.4 for x in (0, 1]: x² · (x²)^(1/5), the fifth root by Newton's method (no libm in a pure module).
    static func power24(_ x: Double) -> Double {
        let square = x * x
        var root = 1.0
        for _ in 0..<60 {
            let fourth = root * root * root * root
            let next = root - (fourth * root - square) / (5 * fourth)
            if abs(next - root) < 1e-15 { break }
            root = next
        }
        return square * root
    }
}

/// A lower bound on the width a line of text needs (D-AUDIT-7): every character at most as narrow as the
/// narrowest glyphs of its class in common UI fonts, so an estimate above the frame means the text is clipped.
package enum TextMetrics {
    package static let lineHeightFactor = 1.2
    /// Fire only when the lower bound exceeds the room by 5 %.
    package static let tolerance = 1.05

    package static func minimumWidth(_ text: String, fontSize: Double) -> Double {
        var ems = 0.0
        for character in text {
            ems += advance(character)
        }
        return ems * fontSize
    }

    static func advance(_ character: Character) -> Double {
        if "fijlrtI.,:;'!|()[]{} \u{00A0}".contains(character) { return 0.2 }
        if "mwMW@".contains(character) { return 0.65 }
        if character.isUppercase { return 0.5 }
        if character.isNumber { return 0.45 }
        if character.isLowercase { return 0.4 }
        if character.isWhitespace || character.isPunctuation { return 0.2 }
        return 0.4
    }
}
