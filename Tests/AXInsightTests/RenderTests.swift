import AXCore
import AXDemo
import AXInsight
import AXJSON
import XCTest

final class RenderTests: XCTestCase {
    func testDemoPictureHasEveryElementNumberedAndTheFocus() throws {
        let store = HierarchyStore()
        _ = try store.setSnapshot(DemoApp().snapshot())
        let tree = store.tree
        let picture = TreeRenderer.svg(tree: tree, focusedID: "textSize", overlays: Set(RenderOverlay.defaults))
        XCTAssertEqual(picture.drawn, tree.count)
        XCTAssertEqual(picture.omitted, 0)
        XCTAssertTrue(picture.svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        XCTAssertTrue(picture.svg.hasSuffix("</svg>\n"))
        let elements = tree.navigationOrder().count
        // One reading-order badge per element: the numbers 1…N appear as badge text.
        XCTAssertTrue(picture.svg.contains(">\(elements)</text>"))
        XCTAssertFalse(picture.svg.contains(">\(elements + 1)</text>"))
        XCTAssertEqual(
            picture.svg.components(separatedBy: "stroke=\"#f97316\"").count - 1, 1, "exactly one focus outline")
    }

    func testLabelsAreEscaped() throws {
        let store = HierarchyStore()
        _ = try store.setSnapshot([
            "windows": [
                V.view(
                    "w", "UIWindow", [0, 0, 400, 800], [:],
                    children: [
                        V.view("b", "UIButton", [0, 0, 300, 44], ["title": "<script>&\"x\""])
                    ])
            ]
        ])
        let picture = TreeRenderer.svg(tree: store.tree, overlays: [.labels])
        XCTAssertFalse(picture.svg.contains("<script>"))
        XCTAssertTrue(picture.svg.contains("&lt;script&gt;&amp;&quot;x&quot;"))
    }

    func testCapSaysWhatWasLeftOut() throws {
        let store = HierarchyStore()
        _ = try store.setSnapshot(BenchTree.snapshot(leaves: 1000))
        let picture = TreeRenderer.svg(tree: store.tree, overlays: [.labels], maxNodes: 100)
        XCTAssertEqual(picture.drawn, 100)
        XCTAssertEqual(picture.omitted, store.tree.count - 100)
        XCTAssertTrue(picture.svg.contains("\(store.tree.count - 100) of \(store.tree.count) nodes not drawn"))
    }

    func testAuditOverlayListsAndOutlinesFindings() throws {
        let store = HierarchyStore()
        _ = try store.setSnapshot(AuditDemo.snapshot())
        let findings = Auditor.run(tree: store.tree, views: store.views).findings
        let picture = TreeRenderer.svg(tree: store.tree, overlays: [.audit], findings: findings)
        XCTAssertEqual(picture.findingsListed, findings.count)
        XCTAssertTrue(
            picture.svg.contains("not exposed: payButton"), "a view-only finding is outlined where the view is")
        for number in 1...findings.count {
            XCTAssertTrue(
                picture.svg.contains(">!\(number)</text>") || picture.svg.contains(",\(number)</text>"),
                "marker \(number)")
        }
    }

    func testBase64() {
        XCTAssertEqual(Base64.encode(Array("Man".utf8)), "TWFu")
        XCTAssertEqual(Base64.encode(Array("Ma".utf8)), "TWE=")
        XCTAssertEqual(Base64.encode(Array("M".utf8)), "TQ==")
        XCTAssertEqual(Base64.encode([]), "")
    }
}
