import AXCore

/// One problem found by an audit check on one element.
package struct AuditFinding: Sendable, Equatable {
    package var check: String
    package var severity: AuditSeverity
    /// The element: an accessibility node id, or for `elementDetection` the id of the view that is not exposed.
    package var element: String
    package var role: String?
    package var label: String?
    /// Screen coordinates.
    package var frame: Rect
    /// One line: what is wrong.
    package var reason: String
    /// One line: what to change, citing the rule.
    package var fix: String
    /// Rule and decision ids the finding rests on (R…, X…, D-AUDIT-…).
    package var rules: [String]

    package init(
        check: String, severity: AuditSeverity, element: String, role: String?, label: String?, frame: Rect,
        reason: String, fix: String, rules: [String]
    ) {
        self.check = check
        self.severity = severity
        self.element = element
        self.role = role
        self.label = label
        self.frame = frame
        self.reason = reason
        self.fix = fix
        self.rules = rules
    }
}

/// Suppresses findings: of one check (`check` set), on some elements (`elements` set), or both.
package struct AuditSuppression: Sendable, Equatable {
    package var check: String?
    package var elements: Set<String>?

    package init(check: String?, elements: Set<String>?) {
        self.check = check
        self.elements = elements
    }

    func covers(_ finding: AuditFinding) -> Bool {
        if let check, check != finding.check { return false }
        if let elements, !elements.contains(finding.element) { return false }
        return true
    }
}

/// The result of one audit run.
package struct AuditReport: Sendable, Equatable {
    /// Findings in reading order of their elements, then in catalogue order; at most `maxFindings`.
    package var findings: [AuditFinding]
    /// Findings beyond `maxFindings` that were found but not returned.
    package var omitted: Int
    /// Findings removed by suppressions.
    package var suppressed: Int
    /// Exposed nodes and views examined.
    package var nodesExamined: Int
    package var viewsExamined: Int
    package var checks: [String]
}

/// Runs the audit checks over one app's derived tree and its views. Pure: no I/O, O(nodes + views).
package enum Auditor {
    /// The default and the largest `maxFindings`.
    package static let defaultMaxFindings = 1000
    package static let maxFindingsLimit = 100_000

    /// The minimum touch target (Apple HIG; D-AUDIT-2).
    package static let minimumTarget = 44.0

    /// Audits the tree. `root`: an accessibility node id whose subtree (and whose view's subtree) is audited;
    /// nil audits every window. `checks`: the ids to run (nil = all; unknown ids are the caller's to refuse).
    package static func run(
        tree: AXTree, views: ViewHierarchy, root: String? = nil, checks: [String]? = nil,
        suppressions: [AuditSuppression] = [], maxFindings: Int = defaultMaxFindings
    ) -> AuditReport {
        let enabled = Set(checks ?? AuditCatalog.ids)
        var collector = Collector(enabled: enabled)
        let walk = NodeChecks.run(tree: tree, views: views, root: root, into: &collector)
        let positions = walk.positions
        let viewsExamined = ViewChecks.run(
            tree: tree, views: views, rootView: root.flatMap { tree[$0]?.viewID }, scoped: root != nil,
            walk: walk, into: &collector)
        FocusRotorChecks.run(tree: tree, views: views, root: root, walk: walk, into: &collector)
        var kept: [(AuditFinding, Int)] = []
        var suppressed = 0
        for (finding, position) in collector.findings {
            if suppressions.contains(where: { $0.covers(finding) }) {
                suppressed += 1
            } else {
                kept.append((finding, position))
            }
        }
        kept.sort { lhs, rhs in
            let leftOrder = positions[lhs.0.element] ?? Int.max
            let rightOrder = positions[rhs.0.element] ?? Int.max
            if leftOrder != rightOrder { return leftOrder < rightOrder }
            let leftCheck = AuditCatalog.order(lhs.0.check)
            let rightCheck = AuditCatalog.order(rhs.0.check)
            if leftCheck != rightCheck { return leftCheck < rightCheck }
            return lhs.1 < rhs.1
        }
        let limit = max(0, min(maxFindings, maxFindingsLimit))
        let findings = kept.prefix(limit).map(\.0)
        return AuditReport(
            findings: Array(findings), omitted: kept.count - findings.count, suppressed: suppressed,
            nodesExamined: positions.count, viewsExamined: viewsExamined,
            checks: AuditCatalog.ids.filter { enabled.contains($0) })
    }
}

/// Accumulates findings of the enabled checks.
struct Collector {
    /// Which checks run, as flags (the hot paths test these instead of hashing check ids).
    struct Flags {
        var hitRegion: Bool
        var trait: Bool
        var action: Bool
        var linkPurpose: Bool
        var description: Bool
        var unmaskedSecret: Bool
    }

    let enabled: Set<String>
    let flags: Flags
    var findings: [(AuditFinding, Int)] = []

    init(enabled: Set<String>) {
        self.enabled = enabled
        flags = Flags(
            hitRegion: enabled.contains(AuditCatalog.hitRegion), trait: enabled.contains(AuditCatalog.trait),
            action: enabled.contains(AuditCatalog.action),
            linkPurpose: enabled.contains(AuditCatalog.linkPurposeUnclear),
            description: enabled.contains(AuditCatalog.sufficientElementDescription),
            unmaskedSecret: enabled.contains(AuditCatalog.unmaskedSecret))
    }

    func wants(_ check: String) -> Bool { enabled.contains(check) }

    mutating func add(_ check: String, node: AXNode, reason: String, fix: String, rules: [String]) {
        add(
            check, element: node.id, role: node.role.rawValue, label: node.label, frame: node.frame,
            reason: reason, fix: fix, rules: rules)
    }

    mutating func add(
        _ check: String, element: String, role: String?, label: String?, frame: Rect,
        reason: String, fix: String, rules: [String]
    ) {
        guard enabled.contains(check), let definition = AuditCatalog.check(check) else { return }
        let finding = AuditFinding(
            check: check, severity: definition.severity, element: element, role: role, label: label,
            frame: frame, reason: reason, fix: fix, rules: rules + [definition.decision])
        findings.append((finding, findings.count))
    }
}

/// Roles and traits that make an element something a user operates.
enum Interactivity {
    static let roles: Set<AXRole> = [
        .button, .link, .switch, .adjustable, .tab, .cell, .keyboardKey, .textField,
        .secureTextField, .searchField, .textView, .pickerItem,
    ]
    static let traits: Traits = [.button, .link, .adjustable, .keyboardKey, .toggleButton, .searchField]
    static let editableRoles: Set<AXRole> = [.textField, .secureTextField, .searchField, .textView]

    /// An element the user operates: enabled, responding to interaction, with an interactive role or trait.
    static func isInteractive(_ node: AXNode) -> Bool {
        guard node.isElement, node.isEnabled, node.states.contains(.respondsToUserInteraction) else { return false }
        if node.role == .textView && !node.states.contains(.editable) { return false }
        return roles.contains(node.role) || !node.traits.isDisjoint(with: traits)
    }

    /// View classes that are interactive controls (D-AUDIT-1).
    static func isInteractiveKind(_ view: ViewNode) -> Bool {
        switch view.kind {
        case .button, .barButtonItem, .tabBarButton, .switchControl, .slider, .stepper, .textField, .searchBar,
            .pageControl:
            return true
        case .textView:
            return view.control.isEditable
        default:
            return false
        }
    }
}

/// Text helpers shared by the checks.
enum AuditText {
    /// Lower case, punctuation dropped, words separated by one space: "Click here!" → "click here".
    static func normalized(_ text: String?) -> String {
        guard let text else { return "" }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isSeparator(scalar) {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.unicodeScalars.append(" ")
                pendingSpace = false
            }
            appendLowercased(scalar, to: &out)
        }
        return out
    }

    /// Whitespace, control characters and punctuation (ASCII letters and digits never are).
    @inline(__always) static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return scalar.properties.isWhitespace || scalar.properties.isPunctuationLike }
        let value = scalar.value
        let isLetterOrDigit =
            (value >= 48 && value <= 57) || (value >= 65 && value <= 90) || (value >= 97 && value <= 122)
        return !isLetterOrDigit && (value <= 32 || value == 127 || scalar.properties.isPunctuationLike)
    }

    @inline(__always) static func appendLowercased(_ scalar: Unicode.Scalar, to out: inout String) {
        guard scalar.isASCII else {
            out += scalar.properties.lowercaseMapping
            return
        }
        let value = scalar.value
        let lowered = value >= 65 && value <= 90 ? value + 32 : value
        out.unicodeScalars.append(Unicode.Scalar(UInt8(lowered)))
    }

    static func isBlank(_ text: String?) -> Bool {
        guard let text else { return true }
        return text.allSatisfy(\.isWhitespace)
    }

    static func quoted(_ text: String?) -> String {
        guard let text else { return "(none)" }
        let short = text.count > 60 ? String(text.prefix(57)) + "…" : text
        return "\"\(short)\""
    }
}

extension Unicode.Scalar.Properties {
    /// Punctuation and symbols that carry no words ("…", "!", "&", "-").
    var isPunctuationLike: Bool {
        switch generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }
}
