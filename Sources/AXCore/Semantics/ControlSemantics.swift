/// Per-class UIKit defaults: what a standard control exposes when the app sets nothing (R1–R18, A49–A51).
/// Every function here is pure; the derivation calls them for each exposed view.
package enum ControlSemantics {

    /// Formats a number the way UIKit's default values read: integers without a fraction, else up to 2 decimals.
    package static func formatNumber(_ value: Double) -> String {
        // Beyond 1e15 a provider's number is printed as is: `Int(v)` would trap from 2^63 on.
        guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
        if value == value.rounded() { return String(Int(value)) }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(rounded)
        if text.hasSuffix("0") && text.contains(".") { text.removeLast() }
        return text
    }

    /// Slider/progress percentage (R11, A50; D-VALUE-1): (value − min) / (max − min), rounded to a whole percent.
    package static func percent(_ value: Double, min lo: Double, max hi: Double) -> String {
        guard hi > lo else { return "0%" }
        let clamped = Swift.min(Swift.max(value, lo), hi)  // A43: values outside the range are clamped
        let span = hi - lo
        // 1e308 − −1e308 overflows to infinity (then the fraction is 0 or NaN): halves keep the differences finite.
        let fraction = span.isFinite ? (clamped - lo) / span : (clamped / 2 - lo / 2) / (hi / 2 - lo / 2)
        let percentage = (fraction * 100).rounded()
        guard percentage.isFinite else { return "0%" }  // `Int(p)` must never see NaN or infinity
        return "\(Int(percentage))%"
    }

    /// The slider's clamped value and range (A43, A44).
    package static func numericValue(_ view: ViewNode) -> AXNumericValue? {
        let control = view.control
        switch view.kind {
        case .slider:
            let lo = control.minimumValue ?? 0
            let hi = Swift.max(control.maximumValue ?? 1, lo)
            let current = Swift.min(Swift.max(control.value ?? 0, lo), hi)
            return AXNumericValue(current: current, minimum: lo, maximum: hi, step: control.stepValue ?? (hi - lo) / 10)
        case .stepper:
            // A44: a maximum below the minimum collapses both bounds to the newer value; the schema carries
            // both, so a max < min pair is read as both = max (the value set last in UIKit's own order).
            var lo = control.minimumValue ?? 0
            let hi = control.maximumValue ?? 100
            if hi < lo { lo = hi }
            let current = Swift.min(Swift.max(control.value ?? 0, lo), hi)
            return AXNumericValue(current: current, minimum: lo, maximum: hi, step: control.stepValue ?? 1)
        case .progressView:
            let current = Swift.min(Swift.max(control.progress ?? control.value ?? 0, 0), 1)
            return AXNumericValue(current: current, minimum: 0, maximum: 1, step: 0.01)
        case .pageControl:
            let count = control.numberOfPages ?? 0
            let page = Swift.min(Swift.max(control.currentPage ?? 0, 0), Swift.max(count - 1, 0))
            return AXNumericValue(current: Double(page), minimum: 0, maximum: Double(Swift.max(count - 1, 0)), step: 1)
        case .window, .view, .label, .button, .barButtonItem, .switchControl, .segmentedControl, .textField, .textView,
            .searchBar, .imageView, .scrollView, .tableView, .tableViewCell, .collectionView, .collectionViewCell,
            .navigationBar, .tabBar, .tabBarButton, .toolbar, .activityIndicator, .datePicker, .pickerView, .stackView,
            .alertController, .actionSheet:
            return nil
        }
    }

    /// The default label when the app sets no `accessibilityLabel` (R15, X2).
    package static func defaultLabel(_ view: ViewNode) -> String? {
        let control = view.control
        switch view.kind {
        case .label: return nonEmpty(control.text)
        case .button, .barButtonItem, .tabBarButton: return nonEmpty(control.title) ?? nonEmpty(control.text)
        case .textField, .searchBar: return nonEmpty(control.placeholder)
        case .switchControl: return nonEmpty(control.title)
        case .window: return nonEmpty(view.window.title) ?? nonEmpty(control.title)
        case .alertController, .actionSheet: return nonEmpty(control.title)
        case .navigationBar, .toolbar, .tabBar: return nil
        case .activityIndicator: return control.isAnimating ? "In progress" : nil
        case .progressView: return "Progress"
        case .pageControl: return nil
        default: return nonEmpty(control.title)
        }
    }

    /// The element's value: the app's `accessibilityValue`, else the default value — except for a secure text
    /// entry, whose value is always bullets, one per character of its text, whatever the provider sent as text or
    /// value (D-SECURE-1): every route (element JSON, selectors, MCP, WebDriver, AT-SPI, speech, audits, pictures)
    /// reads the element, so a secret never leaves the server.
    package static func value(_ view: ViewNode) -> String? {
        if view.control.isSecureTextEntry { return maskedValue(view) }
        return view.ax.value ?? defaultValue(view)
    }

    /// A secure text entry's value: "•" per character of its text (else of its `accessibilityValue`), nil when
    /// empty (D-SECURE-1).
    package static func maskedValue(_ view: ViewNode) -> String? {
        let count = view.control.text?.count ?? view.ax.value?.count ?? 0
        return count > 0 ? String(repeating: "•", count: count) : nil
    }

    /// The default value (R2, R11, A46, A50, A51; D-VALUE-1…4).
    package static func defaultValue(_ view: ViewNode) -> String? {
        let control = view.control
        switch view.kind {
        case .slider:
            guard let nv = numericValue(view) else { return nil }
            return percent(nv.current, min: nv.minimum, max: nv.maximum)
        case .switchControl: return control.isOn ? "on" : "off"
        case .stepper: return numericValue(view).map { formatNumber($0.current) }
        case .progressView: return numericValue(view).map { percent($0.current, min: 0, max: 1) }
        case .pageControl:
            let count = control.numberOfPages ?? 0
            guard count > 0 else { return nil }
            let page = Swift.min(Swift.max(control.currentPage ?? 0, 0), count - 1)
            return "page \(page + 1) of \(count)"
        case .textField, .searchBar, .textView:
            guard let text = control.text, !text.isEmpty else { return nil }
            if control.isSecureTextEntry { return maskedValue(view) }
            return text
        case .datePicker: return nonEmpty(control.dateText)
        case .window, .view, .label, .button, .barButtonItem, .segmentedControl, .imageView, .scrollView, .tableView,
            .tableViewCell, .collectionView, .collectionViewCell, .navigationBar, .tabBar, .tabBarButton, .toolbar,
            .activityIndicator, .pickerView, .stackView, .alertController, .actionSheet:
            return nil
        }
    }

    /// Traits from control state that UIKit adds whatever the base traits are (R23, R24; D-TRAITS-2).
    package static func stateTraits(_ view: ViewNode) -> Traits {
        var traits = Traits()
        let control = view.control
        if !control.isEnabled
            && (view.kind.isControl || view.kind == .label || view.kind == .tableViewCell
                || view.kind == .collectionViewCell
                || view.kind == .barButtonItem || view.kind == .tabBarButton)
        {
            traits.insert(.notEnabled)
        }
        if control.isSelected { traits.insert(.selected) }
        return traits
    }

    /// Effective traits: the app's traits replace the class defaults; state traits are always added.
    package static func traits(_ view: ViewNode) -> Traits {
        (view.ax.traits ?? view.kind.defaultTraits).union(stateTraits(view))
    }

    /// Derives the element role from class, traits and context (D-ROLE-1 in Specs/decisions.md).
    package static func elementRole(kind: ViewClass, traits: Traits, secure: Bool, editable: Bool, inTabBar: Bool)
        -> AXRole
    {
        if traits.contains(.header) { return .header }
        if let role = textInputRole(kind: kind, traits: traits, secure: secure, editable: editable) { return role }
        if traits.contains(.searchField) { return .searchField }
        if kind == .switchControl || traits.contains(.toggleButton) { return .switch }
        if inTabBar || kind == .tabBarButton { return .tab }
        if let role = traitRole(traits) { return role }
        if kind == .tableViewCell || kind == .collectionViewCell { return .cell }
        if kind == .progressView { return .progressIndicator }
        if kind == .activityIndicator { return .activityIndicator }
        return .staticText
    }

    /// Search bars, text fields and text views (a read-only text view is static text).
    @inline(__always)
    private static func textInputRole(kind: ViewClass, traits: Traits, secure: Bool, editable: Bool) -> AXRole? {
        switch kind {
        case .searchBar: return .searchField
        case .textField: return traits.contains(.searchField) ? .searchField : (secure ? .secureTextField : .textField)
        case .textView: return editable ? .textView : .staticText
        case .window, .view, .label, .button, .barButtonItem, .switchControl, .slider, .stepper, .segmentedControl,
            .imageView, .scrollView, .tableView, .tableViewCell, .collectionView, .collectionViewCell, .navigationBar,
            .tabBar, .tabBarButton, .toolbar, .pageControl, .progressView, .activityIndicator, .datePicker, .pickerView,
            .stackView, .alertController, .actionSheet:
            return nil
        }
    }

    /// The role a trait gives, in order: adjustable, link, keyboard key, button, image.
    @inline(__always)
    private static func traitRole(_ traits: Traits) -> AXRole? {
        if traits.contains(.adjustable) { return .adjustable }
        if traits.contains(.link) { return .link }
        if traits.contains(.keyboardKey) { return .keyboardKey }
        if traits.contains(.button) { return .button }
        if traits.contains(.image) { return .image }
        return nil
    }

    /// The standard actions an element supports (Specs/protocol.md §Actions).
    package static func actions(role: AXRole, kind: ViewClass, traits: Traits, editable: Bool) -> [AXAction] {
        var bits = 0
        switch role {
        case .button, .link, .switch, .tab, .cell, .keyboardKey, .image, .header, .staticText, .textField,
            .secureTextField, .searchField, .textView:
            bits |= 1
        default:
            if traits.contains(.button) { bits |= 1 }
        }
        if traits.contains(.adjustable) || role == .adjustable || role == .pickerItem {
            bits |= 2
            if kind == .slider || kind == .stepper || kind == .pageControl { bits |= 4 }
        }
        if editable && (role == .textField || role == .secureTextField || role == .searchField || role == .textView) {
            bits |= 8
        }
        // `supportsZoom` elements must implement accessibilityZoomIn/Out(at:) (D-ZOOM-1).
        if traits.contains(.supportsZoom) { bits |= 16 }
        return actionLists[bits]
    }

    /// Every combination once (shared arrays: deriving an element allocates no action list).
    private static let actionLists: [[AXAction]] = (0..<32).map { bits in
        var actions: [AXAction] = []
        if bits & 1 != 0 { actions.append(.activate) }
        if bits & 2 != 0 { actions.append(contentsOf: [.increment, .decrement]) }
        if bits & 4 != 0 { actions.append(.setValue) }
        if bits & 8 != 0 { actions.append(contentsOf: [.setValue, .typeText]) }
        if bits & 16 != 0 { actions.append(contentsOf: [.zoomIn, .zoomOut]) }
        return actions
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
