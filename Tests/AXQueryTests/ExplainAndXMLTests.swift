import AXCore
import AXDemo
import AXJSON
import AXQuery
import XCTest

final class ExplainTests: XCTestCase {
    func ctx() throws -> QueryContext {
        let fixtures = try Fixtures.store(Fixtures.login())
        return QueryContext(tree: fixtures.tree, views: fixtures.views)
    }

    func testTypoInLabel() throws {
        let engine = try QueryEngine.explain(try Selector(parsing: "button[label=\"Sumbit\"]"), in: try ctx())
        XCTAssertEqual(engine.count, 0)
        XCTAssertEqual(engine.canonical, "button[label=\"Sumbit\"]")
        XCTAssertEqual(engine.chains.count, 1)
        let step = engine.chains[0].steps[0]
        XCTAssertEqual(step.count, 0)
        XCTAssertEqual(step.description, "button with label \"Sumbit\"")
        XCTAssertEqual(step.nearMisses.first?.description, "button with label \"Submit\"")
        XCTAssertEqual(step.nearMisses.first?.count, 1)
        XCTAssertEqual(step.nearMisses.first?.ids, ["submit"])
        XCTAssertTrue(
            engine.summary.hasPrefix("0 button with label \"Sumbit\"; 1 button with label \"Submit\""), engine.summary)
    }

    func testWrongRoleAndCase() throws {
        let otherCtx = try ctx()
        // "Gamma" is a cell, not a button.
        let engine = try QueryEngine.explain(try Selector(parsing: "button[label=\"Gamma\"]"), in: otherCtx)
        XCTAssertTrue(
            engine.chains[0].steps[0].nearMisses.contains {
                $0.description == "cell with label \"Gamma\"" && $0.ids == ["c2"]
            },
            engine.summary)
        // Case differs: the near miss names the real label.
        let e2 = try QueryEngine.explain(try Selector(parsing: "cell[label=\"beta\"]"), in: otherCtx)
        XCTAssertEqual(e2.chains[0].steps[0].nearMisses.first?.description, "cell with label \"Beta\"")
        // A state that excludes the match: relaxing it is reported.
        let e3 = try QueryEngine.explain(try Selector(parsing: "#cancel:enabled"), in: otherCtx)
        XCTAssertTrue(
            e3.chains[0].steps[0].nearMisses.contains { $0.change == "without :enabled" && $0.ids == ["cancel"] },
            e3.summary)
    }

    func testStepCounts() throws {
        let otherCtx = try ctx()
        let engine = try QueryEngine.explain(try Selector(parsing: "window > group > button:enabled"), in: otherCtx)
        XCTAssertEqual(engine.chains[0].steps.map(\.count), [2, 1, 1])
        XCTAssertEqual(
            engine.chains[0].steps.map(\.selector), ["window", "window > group", "window > group > button:enabled"])
        XCTAssertEqual(engine.matches, ["submit"])

        let miss = try QueryEngine.explain(try Selector(parsing: "list > cell[label=\"Alpah\"] + cell"), in: otherCtx)
        XCTAssertEqual(miss.chains[0].steps.map(\.count), [1, 0, 0])
        XCTAssertEqual(miss.chains[0].steps[1].nearMisses.first?.description, "cell with label \"Alpha\"")
        XCTAssertTrue(miss.chains[0].steps[2].nearMisses.isEmpty, "only the first failing step gets near misses")

        let within = try QueryEngine.explain(try Selector(parsing: "window >> button:first"), in: otherCtx)
        XCTAssertEqual(within.chains[0].steps.map(\.count), [2, 2])
        XCTAssertEqual(within.count, 2)

        let union = try QueryEngine.explain(try Selector(parsing: "link, slider"), in: otherCtx)
        XCTAssertEqual(union.chains.map(\.count), [1, 1])
        XCTAssertEqual(union.summary, "2 matches for link, adjustable")
        let partly = try QueryEngine.explain(try Selector(parsing: "link, button[label=Sumbit]"), in: otherCtx)
        XCTAssertEqual(partly.summary, "1 match for link, button[label=\"Sumbit\"]")
        XCTAssertEqual(partly.chains[1].steps[0].nearMisses.first?.ids, ["submit"])
        // JSON-friendly
        let json = union.json
        XCTAssertEqual(json["count"]?.intValue, 2)
        XCTAssertEqual(json["canonical"]?.stringValue, "link, adjustable")
        XCTAssertEqual(json["chains"]?[1]?["steps"]?[0]?["compound"]?.stringValue, "adjustable")
    }
}

final class DemoAppSelectorTests: XCTestCase {
    /// Expected ids written from Sources/AXDemo/DemoApp.swift (its snapshot, read by hand).
    func testDemoTable() throws {
        let store = try Fixtures.store(DemoApp().snapshot())
        let ctx = QueryContext(tree: store.tree, views: store.views)
        let table: [(String, [String])] = [
            // the navigation bar title is a synthesized header
            ("header", ["navBar#title", "hdrConnectivity", "hdrPrefs"]),
            ("[headingLevel=2]", ["hdrConnectivity", "hdrPrefs"]),
            ("tab", ["tabHome", "tabSettings", "tabProfile"]),
            ("tabBar > tab:nth(1)", ["tabSettings"]),
            ("#textSize", ["textSize"]),
            ("slider#textSize[value>=0.5]", ["textSize"]),
            ("slider#textSize[value>0.5]", []),
            ("[placeholder=\"Device Name\"]", ["nameField"]),
            ("image", ["photo"]),
            ("#decoration", []),
            ("link", ["help"]),
            (":rotor(Toggles)", ["table"]),
            ("alert", []),
            ("#uptime:trait(updatesFrequently)", ["uptime"]),
            (":action(\"Add to Favorites\")", ["cellDisplay"]),
            (":action(favorite)", ["cellDisplay"]),
            ("button[label=Edit]", ["editButton"]),
            ("[hint*=resetting i]", ["showAlert"]),
            ("#\"cell.about\"", ["cellAbout"]),
        ]
        for (query, expected) in table {
            XCTAssertEqual(try QueryEngine.find(try Selector(parsing: query), in: ctx), expected, query)
        }
        let engine = try QueryEngine.explain(try Selector(parsing: "list > switch[label=\"Wifi\"]"), in: ctx)
        XCTAssertEqual(engine.chains[0].steps.map(\.count), [1, 0])
        XCTAssertEqual(engine.chains[0].steps[1].nearMisses.first?.description, "switch with label \"Wi-Fi\"")
        XCTAssertEqual(
            try QueryEngine.explain(try Selector(parsing: "tabBar > tab"), in: ctx).chains[0].steps.map(\.count),
            [1, 3])

        var app = DemoApp()
        app.alertShown = true
        let s2 = try Fixtures.store(app.snapshot())
        let ctx2 = QueryContext(tree: s2.tree, views: s2.views)
        XCTAssertEqual(
            try QueryEngine.find(try Selector(parsing: "alert button"), in: ctx2), ["alertCancel", "alertReset"])
        XCTAssertEqual(
            try QueryEngine.find(try Selector(parsing: "alert > button[label=Reset]"), in: ctx2), ["alertReset"])
    }
}

final class TreeXMLTests: XCTestCase {
    func testShapeAndEscaping() throws {
        let store = try Fixtures.store([
            "windows": [
                Fixtures.view(
                    "w", "UIWindow", [0, 0, 390, 844], [:],
                    [
                        Fixtures.view(
                            "b", "UIButton", [10.4, 20.6, 100, 44],
                            ["title": "Say \"hi\" <&> 'you'", "accessibilityIdentifier": "greet"]),
                        Fixtures.view("l", "UILabel", [10, 100, 100, 44], ["text": "two\nlines\tand\u{1}ctl"]),
                        Fixtures.view("off", "UIButton", [10, 2000, 100, 44], ["title": "Far", "isEnabled": false]),
                    ])
            ]
        ])
        let xml = TreeXML.xml(store.tree, appName: "Demo")
        XCTAssertTrue(
            xml.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT>\n<XCUIElementTypeApplication type=\"XCUIElementTypeApplication\" name=\"Demo\""
            ), xml)
        XCTAssertTrue(
            xml.contains(
                "  <XCUIElementTypeWindow type=\"XCUIElementTypeWindow\" enabled=\"true\" visible=\"true\" x=\"0\" y=\"0\" width=\"390\" height=\"844\" index=\"0\" role=\"window\" axid=\"w\">"
            ), xml)
        XCTAssertTrue(
            xml.contains(
                "<XCUIElementTypeButton type=\"XCUIElementTypeButton\" name=\"greet\" label=\"Say &quot;hi&quot; &lt;&amp;&gt; 'you'\" enabled=\"true\" visible=\"true\" x=\"10\" y=\"21\" width=\"100\" height=\"44\" index=\"0\" role=\"button\" axid=\"b\"/>"
            ), xml)
        XCTAssertTrue(
            xml.contains(
                "<XCUIElementTypeStaticText type=\"XCUIElementTypeStaticText\" name=\"two&#10;lines&#9;and\u{FFFD}ctl\""
            ), xml)
        XCTAssertTrue(xml.contains("name=\"Far\" label=\"Far\" enabled=\"false\" visible=\"false\""), xml)
        XCTAssertTrue(xml.contains("</XCUIElementTypeWindow>\n</XCUIElementTypeApplication>\n</AppiumAUT>\n"), xml)
        // One element per node.
        XCTAssertEqual(xml.split(separator: "axid=").count - 1, store.tree.count)
    }
}
