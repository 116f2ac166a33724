import AXCore
import AXJSON
import AXQuery
import XCTest

/// Issue 11 item 2: what `#x` means (D-SEL-1), Appium's accessibility ids (D-SEL-2), and zero-match explanations that
/// name the attribute that would have matched.
final class UserSelectorTests: XCTestCase {
    static func context() throws -> QueryContext {
        let json: JSON = [
            "windows": [
                Fixtures.view(
                    "w", "UIWindow", [0, 0, 390, 844], [:],
                    [
                        // An element with no accessibility identifier: its element id is what users see.
                        Fixtures.view(
                            "remember", "UISwitch", [16, 100, 51, 31],
                            ["isOn": true, "accessibilityLabel": "Remember me"]),
                        // The identifier wins over the element id.
                        Fixtures.view(
                            "go", "UIButton", [16, 200, 100, 44], ["title": "Go", "accessibilityIdentifier": "submit"]),
                        // Appium's name: the identifier when set, else the label.
                        Fixtures.view("general", "UIButton", [16, 300, 200, 44], ["title": "General"]),
                        Fixtures.view(
                            "about", "UIButton", [16, 400, 200, 44],
                            ["title": "About", "accessibilityIdentifier": "cell.about"]),
                        Fixtures.view(
                            "status", "UILabel", [16, 500, 200, 44], ["text": "Status", "accessibilityValue": "On"]),
                    ])
            ]
        ]
        let store = try Fixtures.store(json)
        return QueryContext(tree: store.tree, views: store.views)
    }

    func ids(_ selector: String) throws -> [String] {
        try QueryEngine.find(Selector(parsing: selector), in: Self.context())
    }

    func testHashMatchesTheIdentifierElseTheElementID() throws {
        XCTAssertEqual(
            try ids("#remember"), ["remember"], "an element without an identifier is found by the id it shows")
        XCTAssertEqual(try ids("#submit"), ["go"])
        XCTAssertEqual(try ids("#go"), [], "an element with an identifier is not found by its element id through #")
        XCTAssertEqual(try ids("[axid=go]"), ["go"], "axid still names element ids exactly")
        XCTAssertEqual(try ids("switch[id]"), [], "[id] asks whether an accessibility identifier is set")
        XCTAssertEqual(try ids("button[id]"), ["go", "about"])
    }

    func testAppiumAccessibilityIDsAndName() throws {
        XCTAssertEqual(try ids("~General"), ["general"], "no identifier: the label")
        XCTAssertEqual(try ids("~cell.about"), ["about"], "the identifier")
        XCTAssertEqual(try ids("~About"), [], "a label is not the name when an identifier is set (XCUITest)")
        XCTAssertEqual(try ids("~\"Remember me\""), ["remember"])
        XCTAssertEqual(try ids("~ Remember me "), ["remember"], "the rest of the selector, trimmed")
        XCTAssertEqual(try ids("button[name=\"General\"]"), ["general"])
        XCTAssertEqual(
            try Selector(parsing: "~General").canonical, try Selector(parsing: "[name=\"General\"]").canonical)
        XCTAssertThrowsError(try Selector(parsing: "~"))
        XCTAssertThrowsError(try Selector(parsing: "~\"a\" b"), "a quoted accessibility id is the whole selector")
    }

    func testZeroMatchNamesTheAttributeThatWouldHaveMatched() throws {
        let ctx = try Self.context()
        let byLabel = try QueryEngine.explain(Selector(parsing: "[label=\"On\"]"), in: ctx)
        XCTAssertEqual(byLabel.count, 0)
        let changes = byLabel.chains.flatMap(\.steps).flatMap(\.nearMisses).map(\.change)
        XCTAssertTrue(changes.contains("attribute label → value"), "\(changes)")
        XCTAssertTrue(byLabel.summary.contains("value \"On\""), byLabel.summary)
        let byIdentifier = try QueryEngine.explain(Selector(parsing: "button#go"), in: ctx)
        let identifierChanges = byIdentifier.chains.flatMap(\.steps).flatMap(\.nearMisses).map(\.change)
        XCTAssertTrue(identifierChanges.contains("attribute id → axid"), "\(identifierChanges)")
    }

    func testCellMatchesEveryCellBackedElementAndXCUITableIsAList() throws {
        let json: JSON = [
            "windows": [
                Fixtures.view(
                    "w", "UIWindow", [0, 0, 390, 844], [:],
                    [
                        Fixtures.view(
                            "table", "UITableView", [0, 0, 390, 600], [:],
                            [
                                Fixtures.view(
                                    "plain", "UITableViewCell", [0, 0, 390, 44], [:],
                                    [Fixtures.view("l1", "UILabel", [16, 0, 200, 44], ["text": "General"])]),
                                Fixtures.view(
                                    "withSwitch", "UITableViewCell", [0, 44, 390, 44], [:],
                                    [
                                        Fixtures.view("l2", "UILabel", [16, 0, 200, 44], ["text": "Wi-Fi"]),
                                        Fixtures.view("sw", "UISwitch", [330, 6, 51, 31], ["isOn": true]),
                                    ]),
                            ])
                    ])
            ]
        ]
        let store = try Fixtures.store(json)
        let ctx = QueryContext(tree: store.tree, views: store.views)
        let cells = try QueryEngine.find(Selector(parsing: "cell"), in: ctx)
        XCTAssertEqual(cells, ["plain", "withSwitch"], "a cell presented as its switch is still a cell")
        XCTAssertEqual(try QueryEngine.find(Selector(parsing: "switch"), in: ctx), ["withSwitch"], "and still a switch")
        XCTAssertEqual(
            try QueryEngine.find(Selector(parsing: "XCUIElementTypeCell"), in: ctx), ["plain", "withSwitch"])
        XCTAssertEqual(
            try QueryEngine.find(Selector(parsing: "XCUIElementTypeTable"), in: ctx), ["table"],
            "XCUITest's Table is a UITableView")
        XCTAssertEqual(try QueryEngine.find(Selector(parsing: "table"), in: ctx), [], "our table is a data table")
    }
}
