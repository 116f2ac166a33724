import AXCore
import XCTest

/// A schema property added in one row of AXSchema's table (issue 20's demonstration): the core reads it, `null`
/// clears it, and a value out of range is refused with the view and the property named.
final class SchemaPropertyTests: XCTestCase {
    func testNumberOfLinesIsReadClearedAndChecked() throws {
        var label = try ViewNode.decode(["id": "l", "class": "UILabel", "numberOfLines": 2])
        XCTAssertEqual(label.control.numberOfLines, 2)
        try label.setProperty("numberOfLines", .null)
        XCTAssertNil(label.control.numberOfLines)
        XCTAssertThrowsError(try ViewNode.decode(["id": "l", "numberOfLines": -1])) { error in
            XCTAssertEqual((error as? SchemaError)?.property, "numberOfLines")
            XCTAssertEqual((error as? SchemaError)?.id, "l")
        }
        XCTAssertThrowsError(try ViewNode.decode(["id": "l", "numberOfLines": "two"]))
    }
}
