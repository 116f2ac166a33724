import AXCore
import AXDemo
import AXInsight
import Foundation
import XCTest

/// The pictures in Specs/images are what `tree.render` draws for the two demos today: each is rendered afresh and
/// compared with the file, so a change to the demos, the audit or the renderer that leaves a picture stale fails
/// here. `AX_UPDATE_SPEC_IMAGES=1 swift test --skip-build --filter SpecImagesTests` rewrites them (review the diff).
final class SpecImagesTests: XCTestCase {
    /// The repository's Specs/images folder, found from this file's path.
    static let imagesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Specs/images")

    /// `tree.render {overlay: [labels, order]}` of the main demo, nothing focused.
    static func demoPicture() throws -> String {
        let store = HierarchyStore()
        _ = try store.setSnapshot(DemoApp().snapshot())
        return TreeRenderer.svg(tree: store.tree, overlays: [.labels, .order]).svg
    }

    /// `tree.render {overlay: [labels, order, audit]}` of the audit demo ("Checkout", one mistake per check).
    static func auditDemoPicture() throws -> String {
        let store = HierarchyStore()
        _ = try store.setSnapshot(AuditDemo.snapshot())
        let findings = Auditor.run(tree: store.tree, views: store.views).findings
        return TreeRenderer.svg(tree: store.tree, overlays: [.labels, .order, .audit], findings: findings).svg
    }

    func check(_ name: String, _ rendered: String) throws {
        let url = Self.imagesFolder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["AX_UPDATE_SPEC_IMAGES"] == "1" {
            try rendered.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let stored = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(
            stored, rendered,
            "Specs/images/\(name) is out of date: AX_UPDATE_SPEC_IMAGES=1 swift test --skip-build --filter SpecImagesTests"
        )
    }

    func testDemoPictureIsCurrent() throws {
        try check("demo.svg", Self.demoPicture())
    }

    func testAuditDemoPictureIsCurrent() throws {
        let picture = try Self.auditDemoPicture()
        try check("audit-demo.svg", picture)
    }
}
