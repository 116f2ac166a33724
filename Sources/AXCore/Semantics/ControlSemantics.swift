/// Per-class UIKit defaults: what a standard control exposes when the app sets nothing (R1–R18, A49–A51).
/// Every function here is pure; the derivation calls them for each exposed view.
package enum ControlSemantics {

    /// Formats a number the way UIKit's default values read: integers without a fraction, else up to 2 decimals.
    package static func formatNumber(_ v: Double) -> String {
        // Beyond 1e15 a provider's number is printed as is: `Int(v)` would trap from 2^63 on.
        guard v.isFinite, abs(v) < 1e15 else { return "\(v)" }
        if v == v.rounded() { return String(Int(v)) }
        let r = (v * 100).rounded() / 100
        if r == r.rounded() { return String(Int(r)) }
        var s = String(r)
        if s.hasSuffix("0") && s.contains(".") { s.removeLast() }
        return s
    }

    /// Slider/progress percentage (R11, A50; D-VALUE-1): (value − min) / (max − min), rounded to a whole percent.
    package static func percent(_ value: Double, min lo: Double, max hi: Double) -> String {
        guard hi > lo else { return "0%" }
        let clamped = Swift.min(Swift.max(value, lo), hi)  // A43: values outside the range are clamped
        let span = hi - lo
        // 1e308 − −1e308 overflows to infinity (then the fraction is 0 or NaN): halves keep the differences finite.
        let fraction = span.isFinite ? (clamped - lo) / span : (clamped / 2 - lo / 2) / (hi / 2 - lo / 2)
        let p = (fraction * 100).rounded()
        guard p.isFinite else { return "0%" }  // `Int(p)` must never see NaN or infinity
        return "\(Int(p))%"
    }

    /// The slider's clamped value and range (A43, A44).
    package static func numericValue(_ n: ViewNode) -> AXNumericValue? {
        let c = n.control
        switch n.kind {
        case .slider:
            let lo = c.minimumValue ?? 0
            let hi = Swift.max(c.maximumValue ?? 1, lo)
            let v = Swift.min(Swift.max(c.value ?? 0, lo), hi)
            return AXNumericValue(current: v, minimum: lo, maximum: hi, step: c.stepValue ?? (hi - lo) / 10)
        case .stepper:
            // A44: a maximum below the minimum collapses both bounds to the newer value; the schema carries
            // both, so a max < min pair is read as both = max (the value set last in UIKit's own order).
            var lo = c.minimumValue ?? 0
            let hi = c.maximumValue ?? 100
            if hi < lo { lo = hi }
            let v = Swift.min(Swift.max(c.value ?? 0, lo), hi)
            return AXNumericValue(current: v, minimum: lo, maximum: hi, step: c.stepValue ?? 1)
        case .progressView:
            let v = Swift.min(Swift.max(c.progress ?? c.value ?? 0, 0), 1)
            return AXNumericValue(current: v, minimum: 0, maximum: 1, step: 0.01)
        case .pageControl:
            let count = c.numberOfPages ?? 0
            let page = Swift.min(Swift.max(c.currentPage ?? 0, 0), Swift.max(count - 1, 0))
            return AXNumericValue(current: Double(page), minimum: 0, maximum: Double(Swift.max(count - 1, 0)), step: 1)
        default:
            return nil
        }
    }

    /// The default label when the app sets no `accessibilityLabel` (R15, X2).
    package static func defaultLabel(_ n: ViewNode) -> String? {
        let c = n.control
        switch n.kind {
        case .label: return nonEmpty(c.text)
        case .button, .barButtonItem, .tabBarButton: return nonEmpty(c.title) ?? nonEmpty(c.text)
        case .textField, .searchBar: return nonEmpty(c.placeholder)
        case .switchControl: return nonEmpty(c.title)
        case .window: return nonEmpty(n.window.title) ?? nonEmpty(c.title)
        case .alertController, .actionSheet: return nonEmpty(c.title)
        case .navigationBar, .toolbar, .tabBar: return nil
        case .activityIndicator: return c.isAnimating ? "In progress" : nil
        case .progressView: return "Progress"
        case .pageControl: return nil
        default: return nonEmpty(c.title)
        }
    }

    /// The default value (R2, R11, A46, A50, A51; D-VALUE-1…4).
    package static func defaultValue(_ n: ViewNode) -> String? {
        let c = n.control
        switch n.kind {
        case .slider:
            guard let nv = numericValue(n) else { return nil }
            return percent(nv.current, min: nv.minimum, max: nv.maximum)
        case .switchControl: return c.isOn ? "on" : "off"
        case .stepper: return numericValue(n).map { formatNumber($0.current) }
        case .progressView: return numericValue(n).map { percent($0.current, min: 0, max: 1) }
        case .pageControl:
            let count = c.numberOfPages ?? 0
            guard count > 0 else { return nil }
            let page = Swift.min(Swift.max(c.currentPage ?? 0, 0), count - 1)
            return "page \(page + 1) of \(count)"
        case .textField, .searchBar, .textView:
            guard let t = c.text, !t.isEmpty else { return nil }
            if c.isSecureTextEntry { return String(repeating: "•", count: t.count) }
            return t
        case .datePicker: return nonEmpty(c.dateText)
        default: return nil
        }
    }

    /// Traits from control state that UIKit adds whatever the base traits are (R23, R24; D-TRAITS-2).
    package static func stateTraits(_ n: ViewNode) -> Traits {
        var t = Traits()
        let c = n.control
        if !c.isEnabled
            && (n.kind.isControl || n.kind == .label || n.kind == .tableViewCell || n.kind == .collectionViewCell
                || n.kind == .barButtonItem || n.kind == .tabBarButton)
        {
            t.insert(.notEnabled)
        }
        if c.isSelected { t.insert(.selected) }
        return t
    }

    /// Effective traits: the app's traits replace the class defaults; state traits are always added.
    package static func traits(_ n: ViewNode) -> Traits {
        (n.ax.traits ?? n.kind.defaultTraits).union(stateTraits(n))
    }

    /// Derives the element role from class, traits and context (Specs/hierarchy.md §Roles).
    package static func elementRole(kind: ViewClass, traits t: Traits, secure: Bool, editable: Bool, inTabBar: Bool)
        -> AXRole
    {
        if t.contains(.header) { return .header }
        switch kind {
        case .searchBar: return .searchField
        case .textField: return t.contains(.searchField) ? .searchField : (secure ? .secureTextField : .textField)
        case .textView: return editable ? .textView : .staticText
        default: break
        }
        if t.contains(.searchField) { return .searchField }
        if kind == .switchControl || t.contains(.toggleButton) { return .switch }
        if inTabBar || kind == .tabBarButton { return .tab }
        if t.contains(.adjustable) { return .adjustable }
        if t.contains(.link) { return .link }
        if t.contains(.keyboardKey) { return .keyboardKey }
        if t.contains(.button) { return .button }
        if t.contains(.image) { return .image }
        if kind == .tableViewCell || kind == .collectionViewCell { return .cell }
        if kind == .progressView { return .progressIndicator }
        if kind == .activityIndicator { return .activityIndicator }
        return .staticText
    }

    /// The standard actions an element supports (Specs/protocol.md §Actions).
    package static func actions(role: AXRole, kind: ViewClass, traits t: Traits, editable: Bool) -> [AXAction] {
        var bits = 0
        switch role {
        case .button, .link, .switch, .tab, .cell, .keyboardKey, .image, .header, .staticText, .textField,
            .secureTextField, .searchField, .textView:
            bits |= 1
        default:
            if t.contains(.button) { bits |= 1 }
        }
        if t.contains(.adjustable) || role == .adjustable || role == .pickerItem {
            bits |= 2
            if kind == .slider || kind == .stepper || kind == .pageControl { bits |= 4 }
        }
        if editable && (role == .textField || role == .secureTextField || role == .searchField || role == .textView) {
            bits |= 8
        }
        return actionLists[bits]
    }

    /// Every combination once (shared arrays: deriving an element allocates no action list).
    private static let actionLists: [[AXAction]] = (0..<16).map { bits in
        var a: [AXAction] = []
        if bits & 1 != 0 { a.append(.activate) }
        if bits & 2 != 0 { a.append(contentsOf: [.increment, .decrement]) }
        if bits & 4 != 0 { a.append(.setValue) }
        if bits & 8 != 0 { a.append(contentsOf: [.setValue, .typeText]) }
        return a
    }

    static func nonEmpty(_ s: String?) -> String? {
        guard let s, !s.isEmpty else { return nil }
        return s
    }
}
