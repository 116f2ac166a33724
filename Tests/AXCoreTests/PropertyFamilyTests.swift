import AXCore
import AXJSON
import AXSchema
import XCTest

/// `setProperty` decodes each property in the small function of its family (the cases of `ViewPropertyKey` and
/// `AccessibilityPropertyKey`): every key of the schema table reaches a case of its family's function (an exhaustive
/// switch, checked by the compiler), and `null` restores UIKit's default.
final class PropertyFamilyTests: XCTestCase {
    func testEveryViewAndAccessibilityKeyAcceptsNull() throws {
        let keys = HierarchySchema.keys(of: .view) + HierarchySchema.keys(of: .accessibility)
        XCTAssertGreaterThan(keys.count, 80)
        for key in keys {
            var node = ViewNode(id: "v", className: "UIView")
            XCTAssertNoThrow(try node.setProperty(key, .null), key)
        }
    }

    /// One property of each family, set and cleared (`null`).
    func testOnePropertyOfEachFamilyIsSetAndCleared() throws {
        var node = ViewNode(id: "v", className: "UISlider")
        try node.setProperty("alpha", 0.5)
        try node.setProperty("maximumValue", 10)
        try node.setProperty("placeholder", "Name")
        try node.setProperty("indentationLevel", 2)
        try node.setProperty("windowTitle", "Main")
        try node.setProperty("focusGroupIdentifier", "group")
        try node.setProperty("accessibilityHint", "Opens it")
        try node.setProperty("accessibilityTraits", ["button", "header"])
        try node.setProperty("accessibilityRowRange", [1, 2])
        try node.setProperty("largeContentTitle", "Big")
        XCTAssertEqual(node.alpha, 0.5)
        XCTAssertEqual(node.control.maximumValue, 10)
        XCTAssertEqual(node.control.placeholder, "Name")
        XCTAssertEqual(node.control.indentationLevel, 2)
        XCTAssertEqual(node.window.title, "Main")
        XCTAssertEqual(node.focus.groupIdentifier, "group")
        XCTAssertEqual(node.ax.hint, "Opens it")
        XCTAssertEqual(node.ax.traits, [.button, .header])
        XCTAssertEqual(node.ax.rowRange?.length, 2)
        XCTAssertEqual(node.ax.largeContent.title, "Big")
        for key in [
            "alpha", "maximumValue", "placeholder", "indentationLevel", "windowTitle", "focusGroupIdentifier",
            "accessibilityHint", "accessibilityTraits", "accessibilityRowRange", "largeContentTitle",
        ] {
            try node.setProperty(key, .null)
        }
        XCTAssertEqual(node.alpha, 1)
        XCTAssertNil(node.control.maximumValue)
        XCTAssertNil(node.control.placeholder)
        XCTAssertNil(node.control.indentationLevel)
        XCTAssertNil(node.window.title)
        XCTAssertNil(node.focus.groupIdentifier)
        XCTAssertNil(node.ax.hint)
        XCTAssertNil(node.ax.traits)
        XCTAssertNil(node.ax.rowRange)
        XCTAssertNil(node.ax.largeContent.title)
    }

    /// The split decoders keep their checks: a bad value is refused with the property named.
    func testSplitDecodersStillRefuseBadValues() {
        var node = ViewNode(id: "v", className: "UITableViewCell")
        for (key, value) in [
            ("indentationLevel", JSON.number(-1)), ("alpha", JSON.number(2)),
            ("accessibilityLanguage", JSON.string("not a tag!!")),
            ("fontSize", JSON.number(0)), ("accessibilityHeadingLevel", JSON.number(7)),
        ] {
            XCTAssertThrowsError(try node.setProperty(key, value), key) { error in
                XCTAssertEqual((error as? SchemaError)?.property, key)
            }
        }
    }

    /// The trait constants are the schema table's rows (names and bits), in bit order.
    func testTraitNamesComeFromTheSchemaTable() {
        XCTAssertEqual(Traits.named.map(\.name), HierarchySchema.traits.map(\.name))
        XCTAssertEqual(Traits.named.map(\.trait.rawValue), HierarchySchema.traits.map { 1 << UInt64($0.bit) })
        XCTAssertEqual(Traits.named("toggleButton"), .toggleButton)
        XCTAssertEqual(Traits.named("none"), [])
    }
}
