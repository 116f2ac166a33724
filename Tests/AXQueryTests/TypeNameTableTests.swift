import AXCore
import XCTest

@testable import AXQuery

/// `TreeXML.typeName` reads a table (`tableTypeName`) for the roles whose XCUIElementType name does not depend on the view class:
/// the table must name every other role (a role missing from it would silently become XCUIElementTypeOther).
final class TypeNameTableTests: XCTestCase {
    func testEveryRoleWithoutAClassRuleHasATypeName() {
        let classDependent: Set<AXRole> = [.list, .adjustable]
        for role in AXRole.allCases where !classDependent.contains(role) {
            XCTAssertNotNil(TreeXML.tableTypeName(role), "no XCUIElementType name for role \(role)")
        }
        for role in classDependent {
            XCTAssertNil(TreeXML.tableTypeName(role), "role \(role) is decided by its view class, not by the table")
        }
    }
}
