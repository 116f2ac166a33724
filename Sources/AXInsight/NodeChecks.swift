import AXCore

/// The checks decided on the derived accessibility tree (one pre-order walk).
enum NodeChecks {
    /// Words VoiceOver speaks for a role: a label ending with one repeats the role (D-AUDIT-3).
    static let roleWords: [AXRole: [String]] = [
        .button: ["button"], .link: ["link"], .image: ["image", "picture"], .switch: ["switch", "toggle"],
        .tab: ["tab"], .header: ["heading", "header"], .textField: ["text field"], .searchField: ["search field"],
        .adjustable: ["slider", "adjustable"],
    ]

    /// Link texts that say nothing out of context (ATF LinkPurposeUnclearCheck's list; D-AUDIT-12).
    static let unclearLinkTexts: Set<String> = [
        "click here", "tap here", "here", "more", "read more", "learn more",
        "click", "tap", "link", "this link", "details", "more info",
    ]

    /// Controls whose height UIKit fixes and whose touch area UIKit enlarges: only their width is measured (D-AUDIT-2).
    static let fixedHeightKinds: Set<ViewClass> = [
        .switchControl, .slider, .stepper, .pageControl, .textField, .searchBar,
        .segmentedControl,
    ]
    /// Bars that route touches over their whole height to their items (D-AUDIT-2).
    static let barRoles: Set<AXRole> = [.navigationBar, .toolbar, .tabBar]

    /// What the walk learns that the view checks reuse: each node's reading-order position and which are elements.
    struct WalkResult {
        /// Node id → 2 × reading-order position, plus 1 for an element (one table for both questions).
        var positions: [String: Int] = [:]
        /// Nodes that declare custom rotors, and candidates for the `focusable` check (D-AUDIT-14, D-AUDIT-16):
        /// collected here so the focus and rotor checks need no second pass over the tree.
        var rotorHolders: [AXNode] = []
        var unfocusableCandidates: [AXNode] = []

        func contains(_ id: String) -> (inTree: Bool, isElement: Bool) {
            guard let code = positions[id] else { return (false, false) }
            return (true, code & 1 == 1)
        }
    }

    /// Keys for the per-window and per-container tables (one hash instead of two nested ones).
    struct FrameKey: Hashable {
        var window: String
        var frame: Rect
    }
    struct SpokenKey: Hashable {
        var container: String
        var text: String
    }

    /// Walks the tree (or `root`'s subtree) once and runs the node checks.
    static func run(tree: AXTree, views: ViewHierarchy, root: String?, into collector: inout Collector) -> WalkResult {
        var result = WalkResult()
        result.positions.reserveCapacity(tree.count)
        var boundsByWindow: [FrameKey: String] = [:]
        // Interactive children's spoken text per container (duplicate speakable text, D-AUDIT-9).
        var spokenByContainer: [SpokenKey: String] = [:]
        var position = 0
        let wantsBounds = collector.wants(AuditCatalog.duplicateClickableBounds)
        let wantsSpoken = collector.wants(AuditCatalog.duplicateSpeakableText)
        let wantsRotors = collector.wants(AuditCatalog.emptyRotor)
        let wantsFocusable = collector.wants(AuditCatalog.focusable)
        tree.walk(from: root) { node, _ in
            result.positions[node.id] = position << 1 | (node.isElement ? 1 : 0)
            position += 1
            if wantsRotors && !node.rotors.isEmpty {
                result.rotorHolders.append(node)
            }
            guard node.isElement else { return true }
            if wantsFocusable && FocusRotorChecks.isUnfocusableCandidate(node) {
                result.unfocusableCandidates.append(node)
            }
            let interactive = Interactivity.isInteractive(node)
            checkElement(node, interactive: interactive, tree: tree, views: views, into: &collector)
            guard interactive else { return true }
            if wantsBounds && !node.frame.isEmpty {
                let key = FrameKey(window: node.windowID, frame: node.frame)
                if let first = boundsByWindow[key] {
                    collector.add(
                        AuditCatalog.duplicateClickableBounds, node: node,
                        reason: "has exactly the frame of '\(first)', so a touch there cannot tell them apart",
                        fix: "Give each element its own accessibilityFrame, or combine them into one element (R22)",
                        rules: ["R22", "R114"])
                } else {
                    boundsByWindow[key] = node.id
                }
            }
            if wantsSpoken, let parent = node.parent, !AuditText.isBlank(node.label) {
                var text = AuditText.normalized(node.label)
                if let value = node.value, !value.isEmpty { text += " " + AuditText.normalized(value) }
                let key = SpokenKey(container: parent, text: text)
                if let first = spokenByContainer[key] {
                    collector.add(
                        AuditCatalog.duplicateSpeakableText, node: node,
                        reason: "speaks the same text as its sibling '\(first)' (\(AuditText.quoted(node.label)))",
                        fix: "Make the labels say what differs, e.g. \"Delete photo 2\", or add a value (R15, R16)",
                        rules: ["R15", "R16"])
                } else {
                    spokenByContainer[key] = node.id
                }
            }
            return true
        }
        return result
    }

    static func checkElement(
        _ node: AXNode, interactive: Bool, tree: AXTree, views: ViewHierarchy, into collector: inout Collector
    ) {
        let ownsView = node.viewID == node.id
        if interactive && collector.flags.hitRegion {
            checkHitRegion(
                node, tree: tree, fixedHeightClass: ownsView && fixedHeightKinds.contains(node.viewClass),
                into: &collector)
            checkCovered(node, tree: tree, views: views, into: &collector)
        }
        // The view is needed only to tell a placeholder-only label from an explicit one.
        let placeholderOnly = node.placeholder != nil && node.label == node.placeholder
        let view =
            ownsView && placeholderOnly && Interactivity.editableRoles.contains(node.role)
            ? node.viewID.flatMap { views.nodes.box($0)?.value } : nil
        checkDescription(node, view: view, interactive: interactive, into: &collector)
        if collector.flags.unmaskedSecret, node.role == .textField || node.role == .searchField {
            checkUnmaskedSecret(node, into: &collector)
        }
        if ownsView && collector.flags.trait {
            checkTraits(node, into: &collector)
        }
        if collector.flags.trait, node.traits.contains(.adjustable), node.isEnabled, AuditText.isBlank(node.value),
            node.role != .pickerItem
        {
            collector.add(
                AuditCatalog.trait, node: node,
                reason: "is adjustable but has no accessibilityValue, so an increment or decrement speaks nothing",
                fix: "Set accessibilityValue to the current value and update it on increment/decrement (X29, R11)",
                rules: ["X29", "R11"])
        }
        if collector.flags.action && !node.customActions.isEmpty {
            checkActions(node, into: &collector)
        }
        if collector.flags.linkPurpose, node.role == .link || node.traits.contains(.link),
            unclearLinkTexts.contains(AuditText.normalized(node.label))
        {
            collector.add(
                AuditCatalog.linkPurposeUnclear, node: node,
                reason:
                    "is a link labelled \(AuditText.quoted(node.label)), which says nothing when read from a links list",
                fix: "Label the link with where it goes, e.g. \"Privacy policy\" (R15, R16)",
                rules: ["R15", "R16"])
        }
    }

    /// Issue 25 item 8: an interactive element that no tap reaches, because something in front covers all of it
    /// (D-HIT-1, D-AUDIT-2). Partly covered elements are not reported (a tap on the visible part works).
    static func checkCovered(_ node: AXNode, tree: AXTree, views: ViewHierarchy, into collector: inout Collector) {
        guard node.isOnscreen, node.isEnabled, let cover = HitTesting.coveringView(of: node, tree: tree, views: views)
        else { return }
        let front = cover.isEmpty ? "nothing takes touches there" : "the view '\(cover)' in front takes them"
        collector.add(
            AuditCatalog.hitRegion, node: node,
            reason: "is covered: no tap on it reaches it (\(front))",
            fix:
                "Move the covering view, turn off its isUserInteractionEnabled so touches pass through, or hide the element (R111, R114)",
            rules: ["R111", "R114"])
    }

    /// Whether the point lies beyond one of the frame's edges.
    static func isOutside(_ point: Point, _ frame: Rect) -> Bool {
        point.x < frame.minX || point.x > frame.maxX || point.y < frame.minY || point.y > frame.maxY
    }

    /// The height that counts for a touch target: the bar's when the element is in a bar; none (fixed) for
    /// segments and picker components, which take the height UIKit gives their control.
    static func targetHeight(_ node: AXNode, tree: AXTree, fixedHeightClass: Bool)
        -> (height: Double, fixedHeight: Bool, inBar: Bool)
    {
        var ancestor = node.parent
        while let current = ancestor, let container = tree[current] {
            if container.role == .segmentedControl || container.role == .picker {
                return (node.frame.height, true, false)
            }
            if barRoles.contains(container.role) {
                return (max(node.frame.height, container.frame.height), fixedHeightClass, true)
            }
            ancestor = container.parent
        }
        return (node.frame.height, fixedHeightClass, false)
    }

    static func checkHitRegion(_ node: AXNode, tree: AXTree, fixedHeightClass: Bool, into collector: inout Collector) {
        guard !node.frame.isEmpty else { return }
        let frame = node.frame
        let point = node.activationPoint
        let inside = point.x >= frame.minX && point.x <= frame.maxX && point.y >= frame.minY && point.y <= frame.maxY
        if inside && frame.width >= Auditor.minimumTarget && frame.height >= Auditor.minimumTarget { return }
        if isOutside(point, frame) {
            collector.add(
                AuditCatalog.hitRegion, node: node,
                reason:
                    "its activation point (\(format(point.x)), \(format(point.y))) lies outside its frame \(format(frame))",
                fix:
                    "Move accessibilityActivationPoint inside the element's frame, or drop it to use the frame's midpoint (X6)",
                rules: ["X6", "R22"])
            return
        }
        let (height, fixedHeight, inBar) = targetHeight(node, tree: tree, fixedHeightClass: fixedHeightClass)
        let minimum = Auditor.minimumTarget
        let tooNarrow = frame.width < minimum
        let tooShort = !fixedHeight && height < minimum
        guard tooNarrow || tooShort else { return }
        let measured = fixedHeight ? "\(format(frame.width)) pt wide" : "\(format(frame.width))×\(format(height)) pt"
        let note = inBar ? " (its bar's height counted)" : ""
        collector.add(
            AuditCatalog.hitRegion, node: node,
            reason: "its touch target is \(measured)\(note), under the 44×44 pt minimum",
            fix:
                "Make the control at least 44×44 pt, or enlarge its accessibilityFrame to the area that takes touches (R22)",
            rules: ["R22", "R111"])
    }

    static func checkDescription(_ node: AXNode, view: ViewNode?, interactive: Bool, into collector: inout Collector) {
        let label = node.label
        let blank = AuditText.isBlank(label)
        if node.role == .image {
            if blank {
                collector.add(
                    AuditCatalog.unlabeledImage, node: node,
                    reason: "is an image exposed to assistive technology without a label",
                    fix:
                        "Set accessibilityLabel to what the image shows, or isAccessibilityElement = false if it is decoration (R15, R16, R19)",
                    rules: ["R4", "R16", "R19"])
            }
        } else if Interactivity.editableRoles.contains(node.role)
            && (node.role != .textView || node.states.contains(.editable))
        {
            if blank {
                collector.add(
                    AuditCatalog.unlabeledEditableText, node: node,
                    reason: "is an editable text field with no label and no placeholder",
                    fix: "Set accessibilityLabel to the field's name, e.g. \"Email\" (R15, R16)",
                    rules: ["R7", "R15", "R16"])
                return
            }
            if let view, view.ax.label == nil, let placeholder = node.placeholder, label == placeholder {
                collector.add(
                    AuditCatalog.sufficientElementDescription, node: node,
                    reason:
                        "its only label is its placeholder \(AuditText.quoted(placeholder)), which disappears once the field has text",
                    fix:
                        "Set accessibilityLabel (or a visible label) that names the field; keep the placeholder as an example (R15, R16)",
                    rules: ["R15", "R16", "X2"])
            }
        } else if interactive && blank && node.role != .pickerItem {
            collector.add(
                AuditCatalog.sufficientElementDescription, node: node,
                reason: "is \(TreeText.withArticle(node.role.rawValue)) with no label: VoiceOver can only say its role",
                fix: "Set accessibilityLabel to a short name that does not include the role, e.g. \"Add\" (R15, R16)",
                rules: ["R15", "R16"])
        }
        guard !blank, collector.flags.description, let words = roleWords[node.role], let label else { return }
        // Only the end of the label can name the role: normalize its last characters (a label that is the role
        // word alone is short enough to be whole).
        let normalized = AuditText.normalized(label.utf8.count > 40 ? String(label.suffix(40)) : label)
        for word in words where normalized == word || normalized.hasSuffix(" " + word) {
            collector.add(
                AuditCatalog.sufficientElementDescription, node: node,
                reason: "its label \(AuditText.quoted(label)) names its role, so VoiceOver says the role twice",
                fix:
                    "Drop \"\(word)\" from accessibilityLabel: the \(node.role.rawValue) trait already says it (R16, R23)",
                rules: ["R16", "R23"])
            return
        }
    }

    /// Words that name a secret in a field's label, placeholder or hint (D-AUDIT-17), compared with the
    /// normalized (lower-case, punctuation as spaces) text word by word.
    static let secretWords: Set<String> = ["password", "passwort", "passcode", "passphrase", "pin", "pincode"]

    /// D-AUDIT-17: a plain (not secure) text field whose label, placeholder or hint names a secret. Its text goes
    /// everywhere (D-SECURE-1 masks secure fields only), and Orca speaks it as it is typed.
    static func checkUnmaskedSecret(_ node: AXNode, into collector: inout Collector) {
        for source in [node.label, node.placeholder, node.hint] {
            let words = AuditText.normalized(source).split(separator: " ")
            guard let word = words.first(where: { secretWords.contains(String($0)) }) else { continue }
            collector.add(
                AuditCatalog.unmaskedSecret, node: node,
                reason:
                    "is named \(AuditText.quoted(source)) (\"\(word)\") but does not mask its text: every client and the screen reader read the secret",
                fix:
                    "Set isSecureTextEntry (Tk: Entry(show=\"•\"); GTK: visibility false) so the text is masked (R7, D-SECURE-1)",
                rules: ["R7"])
            return
        }
    }

    /// The traits a control class needs at least one of when the app overrides the class's traits (D-AUDIT-4).
    static func requiredTraits(_ kind: ViewClass) -> (Traits, String)? {
        switch kind {
        case .button, .barButtonItem, .tabBarButton: return ([.button, .link, .toggleButton, .keyboardKey], "button")
        case .switchControl: return ([.button, .toggleButton], "button")
        case .slider, .stepper, .pageControl: return ([.adjustable], "adjustable")
        case .window, .view, .label, .segmentedControl, .textField, .textView, .searchBar, .imageView, .scrollView,
            .tableView, .tableViewCell, .collectionView, .collectionViewCell, .navigationBar, .tabBar, .toolbar,
            .progressView, .activityIndicator, .datePicker, .pickerView, .stackView, .alertController, .actionSheet:
            return nil
        }
    }

    /// D-AUDIT-4. The class's default traits always meet its requirement, so traits that miss it were set by the app.
    static func checkTraits(_ node: AXNode, into collector: inout Collector) {
        guard let (required, name) = requiredTraits(node.viewClass) else { return }
        guard node.traits.isDisjoint(with: required) else { return }
        let rules = name == "button" ? ["R3", "R23"] : ["R6", "R23"]
        let shown = node.traits.names.isEmpty ? "none" : node.traits.names.joined(separator: ", ")
        collector.add(
            AuditCatalog.trait, node: node,
            reason:
                "is \(TreeText.withArticle(node.className)) whose accessibilityTraits (\(shown)) drop the \(name) trait",
            fix: "Keep the class's traits when adding your own: traits.union(.\(name)) (\(rules[0]), \(rules[1]))",
            rules: rules)
    }

    static func checkActions(_ node: AXNode, into collector: inout Collector) {
        var seen: [String: String] = [:]
        for action in node.customActions {
            if AuditText.isBlank(action.name) {
                collector.add(
                    AuditCatalog.action, node: node,
                    reason: "its custom action '\(action.id)' has a blank name, which VoiceOver cannot speak",
                    fix: "Give every UIAccessibilityCustomAction a short spoken name (R48, R49)",
                    rules: ["R48", "R49"])
                continue
            }
            let key = AuditText.normalized(action.name)
            if let first = seen[key] {
                collector.add(
                    AuditCatalog.action, node: node,
                    reason:
                        "its custom actions '\(first)' and '\(action.id)' are both named \(AuditText.quoted(action.name))",
                    fix: "Give each custom action a distinct name: the actions rotor lists them by name (R49, R50)",
                    rules: ["R49", "R50"])
            } else {
                seen[key] = action.id
            }
        }
    }

    static func format(_ value: Double) -> String { ControlSemantics.formatNumber(value) }

    static func format(_ rect: Rect) -> String {
        "[\(format(rect.x)), \(format(rect.y)), \(format(rect.width)), \(format(rect.height))]"
    }
}
