import AXCore
import XCTest

@testable import AXQuery

/// Issue 11 item 5: page sources as Appium users have them — UTF-16, truncated, empty fields reporting their
/// placeholder as value.
final class AppiumMigrationTests: XCTestCase {
    static let page = """
        <?xml version="1.0" encoding="UTF-8"?><AppiumAUT><XCUIElementTypeApplication name="Settings" x="0" y="0" width="390" height="844">\
        <XCUIElementTypeWindow x="0" y="0" width="390" height="844">\
        <XCUIElementTypeTextField name="email" label="Email" value="name@example.com" placeholderValue="name@example.com" x="16" y="100" width="300" height="34"/>\
        <XCUIElementTypeTextField name="city" label="City" value="Zürich" placeholderValue="Your city" x="16" y="150" width="300" height="34"/>\
        <XCUIElementTypeButton name="General" label="General" x="16" y="200" width="300" height="44"/>\
        </XCUIElementTypeWindow></XCUIElementTypeApplication></AppiumAUT>
        """

    func tree(_ bytes: [UInt8]) throws -> AXTree {
        let snapshot = try AppiumConverter.convert(try TextEncoding.utf8(bytes))
        let store = HierarchyStore()
        try store.setSnapshot(snapshot)
        return store.tree
    }

    func testPlaceholderReportedAsValueIsNotText() throws {
        let tree = try tree(Array(Self.page.utf8))
        let email = tree["email"]
        let city = tree["city"]
        XCTAssertEqual(email?.placeholder, "name@example.com")
        XCTAssertNil(email?.value, "an empty field's placeholder was taken as its text")
        XCTAssertEqual(city?.value, "Zürich")
    }

    func testUTF16PageSourcesAreRead() throws {
        for (name, units) in [
            ("LE with BOM", [0xFF, 0xFE] + Self.utf16(Self.page, little: true)),
            ("BE with BOM", [0xFE, 0xFF] + Self.utf16(Self.page, little: false)),
            ("LE without BOM", Self.utf16(Self.page, little: true)),
        ] {
            let tree = try tree(units)
            XCTAssertEqual(tree["General"]?.role, .button, name)
            XCTAssertEqual(tree["city"]?.value, "Zürich", name)
        }
        XCTAssertThrowsError(try TextEncoding.utf8([0xFF, 0xFE, 0x3C]), "an odd UTF-16 length is a truncated file")
    }

    func testATruncatedFileSaysUnexpectedEnd() {
        let cut = Array(Self.page.utf8.prefix(300))
        XCTAssertThrowsError(try AppiumConverter.convert(cut)) { error in
            XCTAssertTrue("\(error)".contains("unexpected end of file"), "\(error)")
        }
    }

    static func utf16(_ text: String, little: Bool) -> [UInt8] {
        text.utf16.flatMap { unit in
            little ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
    }

    func testTabBarButtonsAreTabsAndTheirValueIsSelection() throws {
        let page = """
            <AppiumAUT><XCUIElementTypeApplication name="App" x="0" y="0" width="390" height="844">\
            <XCUIElementTypeWindow x="0" y="0" width="390" height="844">\
            <XCUIElementTypeTabBar name="Tab Bar" x="0" y="761" width="390" height="83">\
            <XCUIElementTypeButton name="Home" label="Home" value="1" x="0" y="761" width="130" height="49"/>\
            <XCUIElementTypeButton name="Search" label="Search" x="130" y="761" width="130" height="49"/>\
            <XCUIElementTypeButton name="Profile" label="Profile" value="0" x="260" y="761" width="130" height="49"/>\
            </XCUIElementTypeTabBar></XCUIElementTypeWindow></XCUIElementTypeApplication></AppiumAUT>
            """
        let tree = try tree(Array(page.utf8))
        XCTAssertEqual(tree["Home"]?.role, .tab)
        XCTAssertEqual(tree["Profile"]?.role, .tab)
        XCTAssertTrue(
            tree["Home"]?.traits.contains(.selected) == true, "the tab XCUITest reports as value 1 is selected")
        XCTAssertFalse(tree["Profile"]?.traits.contains(.selected) == true)
        XCTAssertNotEqual(tree["Home"]?.value, "1", "selection is not read as a value")
    }
}
