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

    /// The page source writes type names and role names as they are, with no escape scan (D-PERF-8): each must be
    /// ASCII letters only, for every role and view class.
    func testTypeNamesAndRoleNamesNeedNoEscaping() {
        func letters(_ text: String) -> Bool {
            !text.isEmpty && text.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        }
        for role in AXRole.allCases {
            XCTAssertTrue(letters(role.rawValue), "role \(role.rawValue.debugDescription)")
            for viewClass in ViewClass.allCases {
                let name = TreeXML.typeName(role: role, viewClass: viewClass)
                XCTAssertTrue(letters(name), "type name \(name.debugDescription) of \(role), \(viewClass)")
            }
        }
    }
}
