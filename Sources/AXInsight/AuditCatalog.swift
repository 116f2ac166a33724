/// How bad a finding is. `error`: assistive technology cannot use the element as it stands; `warning`: it can,
/// but badly or only by luck.
package enum AuditSeverity: String, Sendable, CaseIterable {
    case error
    case warning
}

/// One audit check: its id (what `checks` and `suppress` name), default severity, provenance and the
/// decision that defines exactly when it fires (Specs/decisions.md §Audits).
package struct AuditCheck: Sendable, Equatable {
    package let id: String
    package let severity: AuditSeverity
    package let summary: String
    /// Where the check comes from: Apple's `XCUIAccessibilityAuditType` or Google ATF's check name.
    package let source: String
    package let decision: String

    package init(id: String, severity: AuditSeverity, summary: String, source: String, decision: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.source = source
        self.decision = decision
    }
}

/// Every check `audit.run` knows, in report order.
package enum AuditCatalog {
    package static let elementDetection = "elementDetection"
    package static let hitRegion = "hitRegion"
    package static let sufficientElementDescription = "sufficientElementDescription"
    package static let trait = "trait"
    package static let parentChild = "parentChild"
    package static let action = "action"
    package static let textClipped = "textClipped"
    package static let contrast = "contrast"
    package static let duplicateSpeakableText = "duplicateSpeakableText"
    package static let duplicateClickableBounds = "duplicateClickableBounds"
    package static let unlabeledImage = "unlabeledImage"
    package static let unlabeledEditableText = "unlabeledEditableText"
    package static let linkPurposeUnclear = "linkPurposeUnclear"
    package static let focusable = "focusable"
    package static let focusGroup = "focusGroup"
    package static let emptyRotor = "emptyRotor"
    package static let unmaskedSecret = "unmaskedSecret"

    package static let checks: [AuditCheck] = [
        AuditCheck(
            id: elementDetection, severity: .error,
            summary: "an interactive view that assistive technology cannot reach",
            source: "XCUIAccessibilityAuditType.elementDetection", decision: "D-AUDIT-1"),
        AuditCheck(
            id: hitRegion, severity: .warning,
            summary: "touch target under 44×44 pt, or activation point outside the element's frame",
            source: "XCUIAccessibilityAuditType.hitRegion", decision: "D-AUDIT-2"),
        AuditCheck(
            id: sufficientElementDescription, severity: .error,
            summary:
                "interactive element without a label, with a placeholder-only label, or a label that names its role",
            source: "XCUIAccessibilityAuditType.sufficientElementDescription", decision: "D-AUDIT-3"),
        AuditCheck(
            id: trait, severity: .error,
            summary:
                "traits that contradict the control (a button without the button trait, adjustable without a value)",
            source: "XCUIAccessibilityAuditType.trait", decision: "D-AUDIT-4"),
        AuditCheck(
            id: parentChild, severity: .error,
            summary: "an element nested inside another element, which assistive technology never reaches",
            source: "XCUIAccessibilityAuditType.parentChild", decision: "D-AUDIT-5"),
        AuditCheck(
            id: action, severity: .error,
            summary: "a custom action with an empty name or a name another of the element's actions has",
            source: "XCUIAccessibilityAuditType.action", decision: "D-AUDIT-6"),
        AuditCheck(
            id: textClipped, severity: .warning,
            summary: "text longer than its frame can show at the font size the app sends",
            source: "XCUIAccessibilityAuditType.textClipped", decision: "D-AUDIT-7"),
        AuditCheck(
            id: contrast, severity: .error,
            summary: "text colour against its background below 4.5:1 (3:1 for text of 18 pt and more)",
            source: "XCUIAccessibilityAuditType.contrast; ATF TextContrastCheck", decision: "D-AUDIT-8"),
        AuditCheck(
            id: duplicateSpeakableText, severity: .warning,
            summary: "sibling interactive elements that speak the same text",
            source: "ATF DuplicateSpeakableTextCheck", decision: "D-AUDIT-9"),
        AuditCheck(
            id: duplicateClickableBounds, severity: .error,
            summary: "two interactive elements with the same frame",
            source: "ATF DuplicateClickableBoundsCheck", decision: "D-AUDIT-10"),
        AuditCheck(
            id: unlabeledImage, severity: .error,
            summary: "an exposed image without a label",
            source: "ATF SpeakableTextPresentCheck (images)", decision: "D-AUDIT-11"),
        AuditCheck(
            id: unlabeledEditableText, severity: .error,
            summary: "an editable text field without a label or placeholder",
            source: "ATF EditableContentDescCheck", decision: "D-AUDIT-11"),
        AuditCheck(
            id: linkPurposeUnclear, severity: .warning,
            summary: "a link whose text says nothing out of context (\"click here\", \"more\")",
            source: "ATF LinkPurposeUnclearCheck", decision: "D-AUDIT-12"),
        AuditCheck(
            id: focusable, severity: .error,
            summary:
                "an interactive element whose view the app made unable to take keyboard focus (canBecomeFocused false)",
            source: "focus engine (UIFocusItem.canBecomeFocused)", decision: "D-AUDIT-14"),
        AuditCheck(
            id: focusGroup, severity: .error,
            summary: "a focus group none of whose members can take keyboard focus",
            source: "focus engine (focusGroupIdentifier)", decision: "D-AUDIT-15"),
        AuditCheck(
            id: emptyRotor, severity: .warning,
            summary: "a custom rotor whose items are empty or name no element in the tree",
            source: "rotors (UIAccessibilityCustomRotor)", decision: "D-AUDIT-16"),
        AuditCheck(
            id: unmaskedSecret, severity: .error,
            summary: "a text field named or hinted as a password, passcode or PIN that does not mask its text",
            source: "UITextInputTraits.isSecureTextEntry", decision: "D-AUDIT-17"),
    ]

    package static var ids: [String] { checks.map(\.id) }

    package static func check(_ id: String) -> AuditCheck? { checks.first { $0.id == id } }

    /// The position of a check in the catalogue (findings are ordered by element, then by this).
    static func order(_ id: String) -> Int { checks.firstIndex { $0.id == id } ?? checks.count }
}
