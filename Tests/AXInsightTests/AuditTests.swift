import AXCore
import AXDemo
import AXInsight
import AXJSON
import XCTest

/// Unit tests of the pure audit engine. Expected findings are written from the decisions (D-AUDIT-*), not
/// copied from output.
final class AuditTests: XCTestCase {
    static func store(_ children: [JSON], frame: [Double] = [0, 0, 400, 800]) throws -> HierarchyStore {
        let store = HierarchyStore()
        _ = try store.setSnapshot(["windows": [V.view("w", "UIWindow", frame, [:], children: children)]])
        return store
    }

    static func audit(_ children: [JSON], checks: [String]? = nil) throws -> [AuditFinding] {
        let otherStore = try store(children)
        return Auditor.run(tree: otherStore.tree, views: otherStore.views, checks: checks).findings
    }

    func testSmallButtonFiresHitRegionAndBigOneDoesNot() throws {
        let findings = try Self.audit(
            [
                V.view("small", "UIButton", [0, 0, 30, 30], ["title": "Add"]),
                V.view("big", "UIButton", [0, 100, 44, 44], ["title": "Remove"]),
            ], checks: ["hitRegion"])
        XCTAssertEqual(findings.map(\.element), ["small"])
        XCTAssertEqual(findings.first?.severity, .warning)
        XCTAssertTrue(findings.first?.rules.contains("D-AUDIT-2") == true)
    }

    func testStandardSwitchIsMeasuredByWidthOnly() throws {
        // UISwitch is 51×31 in UIKit: its height is the system's, its touch area larger (D-AUDIT-2).
        let findings = try Self.audit(
            [V.view("s", "UISwitch", [0, 0, 51, 31], ["title": "Wi-Fi"])], checks: ["hitRegion"])
        XCTAssertEqual(findings, [])
    }

    func testActivationPointOutsideFrame() throws {
        let findings = try Self.audit(
            [
                V.view("b", "UIButton", [0, 0, 100, 50], ["title": "Go", "accessibilityActivationPoint": [300, 300]])
            ], checks: ["hitRegion"])
        XCTAssertEqual(findings.count, 1)
        XCTAssertTrue(findings[0].reason.contains("outside"), findings[0].reason)
    }

    func testLabelRepeatingRole() throws {
        let findings = try Self.audit(
            [
                V.view("b1", "UIButton", [0, 0, 100, 50], ["title": "Submit button"]),
                V.view("b2", "UIButton", [0, 60, 100, 50], ["title": "Button colours"]),
            ], checks: ["sufficientElementDescription"])
        XCTAssertEqual(findings.map(\.element), ["b1"])
    }

    func testContrastUsesNearestBackground() throws {
        let findings = try Self.audit(
            [
                V.view(
                    "panel", "UIView", [0, 0, 400, 400], ["backgroundColor": "#ffffff"],
                    children: [
                        V.view(
                            "pale", "UILabel", [0, 0, 300, 30],
                            ["text": "Pale", "textColor": "#cccccc", "fontSize": 17]),
                        V.view(
                            "dark", "UILabel", [0, 40, 300, 30],
                            ["text": "Dark", "textColor": "#333333", "fontSize": 17]),
                        V.view(
                            "bigGrey", "UILabel", [0, 80, 300, 40],
                            ["text": "Large", "textColor": "#888888", "fontSize": 24]),
                    ])
            ], checks: ["contrast"])
        // #cccccc on white is 1.6:1; #333333 12.6:1; #888888 3.54:1 passes 3:1 at 24 pt (large text).
        XCTAssertEqual(findings.map(\.element), ["pale"])
    }

    func testContrastRatioKnownValues() {
        let black = RGBColor(red: 0, green: 0, blue: 0)
        let white = RGBColor(red: 255, green: 255, blue: 255)
        XCTAssertEqual(Contrast.ratio(black, white), 21, accuracy: 0.01)
        XCTAssertEqual(Contrast.ratio(white, white), 1, accuracy: 0.0001)
        // WCAG's worked value: #777777 on white is 4.48:1.
        XCTAssertEqual(Contrast.ratio(RGBColor(hex: "#777")!, white), 4.48, accuracy: 0.01)
    }

    func testTextClippedOnlyWhenSurelyTooLong() throws {
        let findings = try Self.audit(
            [
                V.view("long", "UILabel", [0, 0, 80, 22], ["text": "Display & Brightness settings", "fontSize": 17]),
                V.view("fits", "UILabel", [0, 40, 200, 22], ["text": "Display", "fontSize": 17]),
                V.view(
                    "wraps", "UILabel", [0, 80, 120, 90], ["text": "Display & Brightness settings", "fontSize": 17]),
            ], checks: ["textClipped"])
        XCTAssertEqual(findings.map(\.element), ["long"])
    }

    func testElementDetectionHiddenButtonAndOptOut() throws {
        let findings = try Self.audit(
            [
                V.view("optOut", "UIButton", [0, 0, 100, 44], ["title": "Pay", "isAccessibilityElement": false]),
                V.view("hidden", "UIButton", [0, 50, 100, 44], ["title": "Hidden", "isHidden": true]),
                V.view("decor", "UIImageView", [0, 100, 44, 44], [:]),
            ], checks: ["elementDetection"])
        XCTAssertEqual(findings.map(\.element), ["optOut"])
    }

    func testMainDemoHasOnlyThePlaceholderFinding() throws {
        let store = HierarchyStore()
        _ = try store.setSnapshot(DemoApp().snapshot())
        let report = Auditor.run(tree: store.tree, views: store.views)
        XCTAssertEqual(report.findings.map { "\($0.check) \($0.element)" }, ["sufficientElementDescription nameField"])
    }

    func testSuppressionByCheckAndElement() throws {
        let state = try Self.store([
            V.view("a", "UIButton", [0, 0, 30, 30], ["title": "A"]),
            V.view("b", "UIButton", [0, 100, 30, 30], ["title": "B"]),
        ])
        let report = Auditor.run(
            tree: state.tree, views: state.views, checks: ["hitRegion"],
            suppressions: [AuditSuppression(check: "hitRegion", elements: ["a"])])
        XCTAssertEqual(report.findings.map(\.element), ["b"])
        XCTAssertEqual(report.suppressed, 1)
    }

    func testMaxFindingsSaysWhatWasLeftOut() throws {
        let buttons = (0..<10).map {
            V.view("b\($0)", "UIButton", [0, Double($0) * 40, 30, 30], ["title": .string("B\($0)")])
        }
        let state = try Self.store(buttons)
        let report = Auditor.run(tree: state.tree, views: state.views, checks: ["hitRegion"], maxFindings: 3)
        XCTAssertEqual(report.findings.count, 3)
        XCTAssertEqual(report.omitted, 7)
    }

    func testReportsAreWellFormed() throws {
        let finding = AuditFinding(
            check: "hitRegion", severity: .warning, element: "a<b", role: "button", label: "A & B",
            frame: Rect(x: 0, y: 0, width: 1, height: 1), reason: "r \"q\"", fix: "f", rules: ["R22"])
        let junit = AuditFormats.junit([finding], checks: ["hitRegion", "trait"], suiteName: "demo")
        XCTAssertTrue(junit.contains("<testcase classname=\"accessibility.audit\" name=\"trait\"/>"))
        XCTAssertTrue(junit.contains("a&lt;b"))
        XCTAssertFalse(junit.contains("a<b"))
        let sarif = AuditFormats.sarif([finding], checks: ["hitRegion"], toolVersion: "1")
        XCTAssertEqual(sarif["version"]?.stringValue, "2.1.0")
        XCTAssertEqual(sarif["runs"]?[0]?["results"]?[0]?["ruleId"]?.stringValue, "hitRegion")
        XCTAssertEqual(AuditFormats.finding(AuditFormats.json(finding)), finding)
    }
}

/// The audit demo screen gets exactly its deliberate mistakes reported.
final class AuditDemoTests: XCTestCase {
    func testAuditDemoReportsExactlyItsMistakes() throws {
        let store = HierarchyStore()
        _ = try store.setSnapshot(AuditDemo.snapshot())
        let report = Auditor.run(tree: store.tree, views: store.views)
        let found = report.findings.map { "\($0.check) \($0.element)" }.sorted()
        let expected = AuditDemo.expectedFindings.map { "\($0.check) \($0.element)" }.sorted()
        XCTAssertEqual(
            found, expected, report.findings.map { "\($0.check) \($0.element): \($0.reason)" }.joined(separator: "\n"))
        // Every check of the catalogue is demonstrated once.
        XCTAssertEqual(Set(AuditDemo.expectedFindings.map(\.check)), Set(AuditCatalog.ids))
    }
}
