import AXCore
import XCTest

@testable import AXInsight

/// `OrcaSpeech.roleName` reads a table for the roles whose AT-SPI role name depends on the role alone: the table
/// must name every other role (a role missing from it would silently be spoken as "panel").
final class SpeechRoleNameTableTests: XCTestCase {
    func testEveryRoleWithoutAContextRuleHasAName() {
        let contextual: Set<AXRole> = [.button, .staticText, .adjustable, .cell]
        for role in AXRole.allCases where !contextual.contains(role) {
            XCTAssertNotNil(OrcaSpeech.roleNames[role], "no AT-SPI role name for role \(role)")
        }
        for role in contextual {
            XCTAssertNil(OrcaSpeech.roleNames[role], "role \(role) is decided by its context, not by the table")
        }
    }
}
