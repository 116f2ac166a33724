import AXATSPIModel
import AXCore
import AXDemo
import XCTest

/// D-ACT-3 (X13): JSON-RPC and AT-SPI agree on which elements can be activated — over every node of two apps, an
/// element lists `activate` exactly when AT-SPI offers it `click` (issue 25 item 8: labels listed `activate` in JSON
/// with no AT-SPI action).
final class ActivationAgreementTests: XCTestCase {
    func testJSONActivateAndATSPIClickAgreeOnBothDemos() throws {
        for snapshot in [DemoApp().snapshot(), AuditDemo.snapshot()] {
            let store = HierarchyStore()
            _ = try store.setSnapshot(snapshot)
            var informational = 0
            for node in store.tree.navigationOrder().compactMap({ store.tree[$0] }) {
                let entries = ATSPIMapping.actions(node, context: ATSPIContext.of(node, in: store.tree))
                XCTAssertEqual(
                    node.actions.contains(.activate), entries.contains { $0.name == "click" }, "\(node.id) \(node.role)"
                )
                if ActivationRule.isInformational(node.role) && !node.actions.contains(.activate) { informational += 1 }
            }
            XCTAssertGreaterThan(informational, 0, "each demo has labels that take no activate")
        }
    }
}
