import AXATSPIModel
import AXCore
import AXDemo
import AXInsight
import XCTest

/// The Orca speech model (AXInsight) names each node with the role the bridge really exposes on AT-SPI: the
/// model's table must not drift from ATSPIMapping (Specs/atspi-mapping.md §2).
final class OrcaModelRoleTests: XCTestCase {
    func testOrcaModelRoleNamesMatchTheBridge() throws {
        for alertShown in [false, true] {
            var app = DemoApp()
            app.alertShown = alertShown
            let store = HierarchyStore()
            _ = try store.setSnapshot(app.snapshot())
            let tree = store.tree
            var checked = 0
            tree.walk { node, _ in
                let parentRole = node.parent.flatMap { tree[$0]?.role }
                XCTAssertEqual(
                    OrcaSpeech.roleName(node, parentRole: parentRole),
                    ATSPIMapping.role(node, parentRole: parentRole).name, node.id)
                checked += 1
                return true
            }
            XCTAssertGreaterThanOrEqual(checked, alertShown ? 5 : 20)
        }
    }
}
