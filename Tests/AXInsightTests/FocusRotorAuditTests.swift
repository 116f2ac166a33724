import AXCore
import AXDemo
import AXInsight
import AXJSON
import XCTest

/// The focus and rotor checks (D-AUDIT-14…16): expected findings written from the decisions.
final class FocusRotorAuditTests: XCTestCase {
    func testCoveredMembersLeaveTheGroupUnreachable() throws {
        // The group's only button is fully covered by a view painted after it (C15, C16): the engine cannot focus
        // it, so the group has no reachable item. Its uncovered twin keeps the second group quiet.
        let findings = try AuditTests.audit(
            [
                V.view(
                    "hiddenGroup", "UIView", [0, 0, 400, 60], ["focusGroupIdentifier": "covered"],
                    children: [
                        V.view("coveredButton", "UIButton", [0, 0, 120, 44], ["title": "Covered"])
                    ]),
                V.view(
                    "cover", "UIView", [0, 0, 400, 60],
                    ["accessibilityLabel": "Banner", "isAccessibilityElement": true]),
                V.view(
                    "openGroup", "UIView", [0, 100, 400, 60], ["focusGroupIdentifier": "open"],
                    children: [
                        V.view("openButton", "UIButton", [0, 0, 120, 44], ["title": "Open"])
                    ]),
            ], checks: [AuditCatalog.focusGroup])
        XCTAssertEqual(findings.map(\.element), ["hiddenGroup"])
        XCTAssertTrue(findings.first?.rules.contains("C24") == true)
    }

    func testRootLimitsFocusGroupFindingsToItsSubtree() throws {
        let broken: (String) -> JSON = { id in
            V.view(
                id, "UIView", [0, 0, 400, 60],
                ["focusGroupIdentifier": .string(id + "Group"), "accessibilityContainerType": "semanticGroup"],
                children: [V.view(id + "Label", "UILabel", [0, 0, 200, 30], ["text": .string(id)])])
        }
        let store = try AuditTests.store([
            V.view("top", "UIView", [0, 0, 400, 100], [:], children: [broken("first")]),
            V.view("bottom", "UIView", [0, 200, 400, 100], [:], children: [broken("second")]),
        ])
        let all = Auditor.run(tree: store.tree, views: store.views, checks: [AuditCatalog.focusGroup]).findings
        XCTAssertEqual(all.map(\.element).sorted(), ["first", "second"])
        let scoped = Auditor.run(
            tree: store.tree, views: store.views, root: "second", checks: [AuditCatalog.focusGroup]
        ).findings
        XCTAssertEqual(scoped.map(\.element), ["second"])
    }

    func testFocusableNeedsAnActionAKeyboardUserMustReach() throws {
        // A header with canBecomeFocused false is not a control (its activate is the default of every element,
        // but it is not interactive); a button with the same setting is.
        let findings = try AuditTests.audit(
            [
                V.view(
                    "title", "UILabel", [0, 0, 200, 30],
                    ["text": "Title", "accessibilityTraits": ["header"], "canBecomeFocused": false]),
                V.view("go", "UIButton", [0, 50, 120, 44], ["title": "Go", "canBecomeFocused": false]),
            ], checks: [AuditCatalog.focusable])
        XCTAssertEqual(findings.map(\.element), ["go"])
        XCTAssertEqual(findings.first?.severity, .error)
    }

    func testRotorOnANodeReportsOncePerEmptyRotor() throws {
        let findings = try AuditTests.audit(
            [
                V.view(
                    "list", "UITableView", [0, 0, 400, 400],
                    [
                        "accessibilityCustomRotors": [
                            ["name": "Empty", "items": JSON.array([])],
                            ["name": "Kept", "items": ["row"]],
                        ]
                    ], children: [V.view("row", "UITableViewCell", [0, 0, 400, 44], ["accessibilityLabel": "Row"])])
            ], checks: [AuditCatalog.emptyRotor])
        XCTAssertEqual(findings.map(\.element), ["list"])
        XCTAssertTrue(findings.first?.reason.contains("Empty") == true)
        XCTAssertEqual(findings.first?.severity, .warning)
    }
}
