import AXWebDriver
import XCTest

/// XPath 1.0 over the Appium page source: axes, predicates, functions, errors and the step budget.
final class XPathTests: XCTestCase {
    static let source = """
        <?xml version="1.0" encoding="UTF-8"?>
        <AppiumAUT>
        <XCUIElementTypeApplication type="XCUIElementTypeApplication" name="app">
          <XCUIElementTypeWindow type="XCUIElementTypeWindow" name="Settings" axid="w">
            <XCUIElementTypeTable type="XCUIElementTypeTable" name="table" axid="t">
              <XCUIElementTypeSwitch type="XCUIElementTypeSwitch" name="cell.wifi" label="Wi-Fi" value="on" axid="s1"/>
              <XCUIElementTypeSwitch type="XCUIElementTypeSwitch" name="cell.bt" label="Bluetooth" value="off" axid="s2"/>
              <XCUIElementTypeButton type="XCUIElementTypeButton" name="about" label="About &amp; more" axid="b1"/>
            </XCUIElementTypeTable>
            <XCUIElementTypeButton type="XCUIElementTypeButton" name="go" label="Go" width="60" axid="b2"/>
            <XCUIElementTypeSlider type="XCUIElementTypeSlider" name="size" value="50%" width="200" axid="sl"/>
          </XCUIElementTypeWindow>
        </XCUIElementTypeApplication>
        </AppiumAUT>
        """

    let tree = try! PageTree(xml: Array(XPathTests.source.utf8))

    func ids(_ expression: String, from context: String? = nil) throws -> [String] {
        let query = try XPathQuery(expression)
        var start = XPathNode.document
        if let context {
            let index = (0..<tree.count).first { tree.attribute($0, "axid") == context }!
            start = XPathNode(element: index, attribute: -1)
        }
        return try query.select(in: tree, from: start).map { node in
            node.isAttribute
                ? "@" + tree.attributes[node.element][node.attribute].value
                : tree.attribute(node.element, "axid") ?? tree.names[node.element]
        }
    }

    func testDescendantsByTypeAndAttribute() throws {
        XCTAssertEqual(try ids("//XCUIElementTypeSwitch"), ["s1", "s2"])
        XCTAssertEqual(try ids("//XCUIElementTypeButton[@name='go']"), ["b2"])
        XCTAssertEqual(try ids("//*[@label=\"About & more\"]"), ["b1"])
        XCTAssertEqual(try ids("/AppiumAUT/XCUIElementTypeApplication/XCUIElementTypeWindow"), ["w"])
        XCTAssertEqual(try ids("//XCUIElementTypeTable/*"), ["s1", "s2", "b1"])
        XCTAssertEqual(try ids("//XCUIElementTypeWindow//XCUIElementTypeButton"), ["b1", "b2"])
    }

    func testPositionsAreProximityPositions() throws {
        XCTAssertEqual(try ids("//XCUIElementTypeSwitch[2]"), ["s2"])
        XCTAssertEqual(try ids("(//XCUIElementTypeButton)[last()]"), ["b2"])
        XCTAssertEqual(try ids("//XCUIElementTypeTable/*[position() > 1]"), ["s2", "b1"])
        // `//x[1]` is the first x child of each parent (not the first in the document).
        XCTAssertEqual(try ids("//XCUIElementTypeButton[1]"), ["b1", "b2"])
        XCTAssertEqual(try ids("//XCUIElementTypeButton[@name='about']/preceding-sibling::*[1]"), ["s2"])
        XCTAssertEqual(try ids("//*[@axid='s1']/ancestor::*[1]"), ["t"])
    }

    func testAxes() throws {
        XCTAssertEqual(try ids("//*[@axid='s2']/following-sibling::*"), ["b1"])
        XCTAssertEqual(try ids("//*[@axid='s2']/parent::*"), ["t"])
        XCTAssertEqual(try ids("//*[@axid='s2']/.."), ["t"])
        XCTAssertEqual(try ids("//*[@axid='b1']/following::*"), ["b2", "sl"])
        XCTAssertEqual(try ids("//*[@axid='b2']/preceding::*"), ["t", "s1", "s2", "b1"])
        XCTAssertEqual(try ids("//*[@axid='t']/descendant-or-self::*"), ["t", "s1", "s2", "b1"])
        XCTAssertEqual(try ids("//XCUIElementTypeSwitch/@value"), ["@on", "@off"])
        XCTAssertEqual(try ids("./*", from: "t"), ["s1", "s2", "b1"])
        XCTAssertEqual(try ids(".//XCUIElementTypeButton", from: "t"), ["b1"])
        XCTAssertEqual(try ids("//XCUIElementTypeSwitch | //XCUIElementTypeSlider"), ["s1", "s2", "sl"])
    }

    func testFunctionsAndOperators() throws {
        XCTAssertEqual(try ids("//*[contains(@label, 'tooth')]"), ["s2"])
        XCTAssertEqual(try ids("//*[starts-with(@name, 'cell.') and @value='on']"), ["s1"])
        XCTAssertEqual(try ids("//*[ends-with(@name, '.bt') or @name='go']"), ["s2", "b2"])
        XCTAssertEqual(try ids("//*[@width > 100]"), ["sl"])
        XCTAssertEqual(try ids("//*[@width * 2 = 120]"), ["b2"])
        XCTAssertEqual(try ids("//*[not(@label)][@axid]"), ["w", "t", "sl"])
        XCTAssertEqual(try ids("//*[translate(@name, 'GO', 'go') = 'go']"), ["b2"])
        XCTAssertEqual(try ids("//*[lower-case(@label) = 'wi-fi']"), ["s1"])
        XCTAssertEqual(try ids("//*[count(*) = 3]"), ["w", "t"])
        XCTAssertEqual(try ids("//*[string-length(@name) = 2]"), ["b2"])
        XCTAssertEqual(try ids("//*[substring-before(@name, '.') = 'cell']"), ["s1", "s2"])
        XCTAssertEqual(try ids("//*[normalize-space('  a  b ') = 'a b'][@axid='w']"), ["w"])
        XCTAssertEqual(try XPathQuery("count(//XCUIElementTypeSwitch) + 1").evaluate(in: tree), .number(3))
        XCTAssertEqual(try XPathQuery("7 mod 3 = 1 and -2 < 0").evaluate(in: tree), .boolean(true))
        XCTAssertEqual(try XPathQuery("substring('12345', 2, 3)").evaluate(in: tree), .string("234"))
        XCTAssertEqual(try XPathQuery("concat('a', 1, true())").evaluate(in: tree), .string("a1true"))
        XCTAssertEqual(try XPathQuery("number('x') = number('x')").evaluate(in: tree), .boolean(false))
    }

    func testTextNodesAreAbsent() throws {
        XCTAssertEqual(try ids("//*[text()='Go']"), [])
        XCTAssertEqual(try ids("//text()"), [])
    }

    func testSyntaxErrorsNameTheOffset() {
        for (expression, offset) in [
            ("//", 2), ("//*[", 4), ("//*[@name='x'", 13), ("//foo(", 5), ("//*[@name=$v]", 10), ("1 +", 3),
            ("//*[nosuch(1)]", 4), ("//bogus::x", 2), ("//*[@name='unterminated]", 10), ("//a b", 4),
        ] {
            XCTAssertThrowsError(try XPathQuery(expression), expression) { error in
                XCTAssertEqual((error as? XPathError)?.position, offset, "\(expression): \(error)")
            }
        }
        XCTAssertThrowsError(
            try XPathQuery(String(repeating: "(", count: 200) + "1" + String(repeating: ")", count: 200)))
        XCTAssertThrowsError(try XPathQuery(String(repeating: "a", count: XPathQuery.maxLength + 1)))
    }

    func testNonNodeSetIsRefusedForFind() throws {
        XCTAssertThrowsError(try XPathQuery("count(//*)").select(in: tree))
    }

    func testStepBudgetStopsQuadraticQueries() throws {
        // 3,000 elements: //*[count(//*) > 0] visits about 9 million nodes; nested once more, 27 billion.
        var xml = "<r>"
        for index in 0..<3_000 { xml += "<e axid=\"e\(index)\"/>" }
        xml += "</r>"
        let big = try PageTree(xml: Array(xml.utf8))
        XCTAssertThrowsError(try XPathQuery("//*[count(//*[count(//*) > 0]) > 0]").select(in: big)) { error in
            XCTAssertTrue("\(error)".contains("too expensive"), "\(error)")
        }
        XCTAssertEqual(try XPathQuery("//e[@axid='e2999']").select(in: big).count, 1)
    }

    func testMalformedPageSourceIsAnError() {
        XCTAssertThrowsError(try PageTree(xml: Array("<a><b></a>".utf8)))
        XCTAssertThrowsError(try PageTree(xml: Array("".utf8)))
    }
}

/// The page tree read straight from the page source (issue 35 item 5): document order, parents, subtrees and
/// attributes as the XML says, whatever surrounds or sits between the elements.
final class PageTreeTests: XCTestCase {
    func testArraysFollowTheDocument() throws {
        let source = """
            \u{FEFF}<?xml version="1.0"?><!-- page --><!DOCTYPE x>
            <AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name='a &amp; b'>
            <XCUIElementTypeWindow type="XCUIElementTypeWindow" axid="w"><![CDATA[ <skipped/> ]]>
            <XCUIElementTypeButton type="XCUIElementTypeButton" label="x&#10;&lt;y&gt;&#x1F600;" axid="b1"/>
            <XCUIElementTypeOther type="XCUIElementTypeOther" axid="g"><?pi?>
            <XCUIElementTypeButton type="XCUIElementTypeButton" axid="b2"></XCUIElementTypeButton >
            </XCUIElementTypeOther></XCUIElementTypeWindow>
            <XCUIElementTypeWindow type="XCUIElementTypeWindow" axid="w2" /></XCUIElementTypeApplication></AppiumAUT>
            """
        let tree = try PageTree(xml: Array(source.utf8))
        XCTAssertEqual(tree.count, 7)
        XCTAssertEqual(
            tree.names,
            [
                "AppiumAUT", "XCUIElementTypeApplication", "XCUIElementTypeWindow", "XCUIElementTypeButton",
                "XCUIElementTypeOther", "XCUIElementTypeButton", "XCUIElementTypeWindow",
            ])
        XCTAssertEqual(tree.parent, [-1, 0, 1, 2, 2, 4, 1])
        XCTAssertEqual(tree.children, [[1], [2, 6], [3, 4], [], [5], [], []])
        XCTAssertEqual(tree.subtreeEnd, [7, 7, 6, 4, 6, 6, 7])
        XCTAssertEqual(tree.attribute(1, "name"), "a & b")
        XCTAssertEqual(tree.attribute(3, "label"), "x\n<y>\u{1F600}")
        XCTAssertEqual(tree.attributes[5].map(\.name), ["type", "axid"])
        XCTAssertEqual(tree.attribute(5, "type"), "XCUIElementTypeButton")
        XCTAssertNil(tree.attribute(5, "label"))
    }

    func testErrorsNameWhatIsWrong() {
        func check(_ source: String, _ expected: String, line: UInt = #line) {
            do {
                _ = try PageTree(xml: Array(source.utf8))
                XCTFail("parsed: \(source)", line: line)
            } catch {
                // "line L, column C: message"
                XCTAssertTrue("\(error)".hasSuffix(": " + expected), "\(error)", line: line)
            }
        }
        check("<a><b></a>", "expected </b>, found </a>")
        check("<a x='1' x='2'/>", "attribute 'x' appears twice")
        check("<a><b/>", "unexpected end of file (truncated?): element <a> is not closed")
        check("<a/><b/>", "content after the root element")
        check("<!-- only -->", "no root element")
        check("<a x='&nope;'/>", "unknown entity '&nope;'")
        check(String(repeating: "<a>", count: 513), "elements nested deeper than 512")
        let wide = "<a " + (0..<40).map { "k\($0)='v'" }.joined(separator: " ") + " k7='again'/>"
        check(wide, "attribute 'k7' appears twice")
    }
}
