import AXATSPIModel
import AXCore
import AXDemo
import AXJSON
import XCTest

/// Attribute runs (D-TEXT-APP-3) and line boxes (D-TEXT-APP-4) an app reports, as the AT-SPI Text model serves them.
final class AppTextAttributesTests: XCTestCase {
    /// "Teh bold cat" in a label with runs: "Teh" misspelled, "bold" bold+italic (French), "cat" underlined.
    static let runs: JSON = [
        ["range": [0, 3], "attributes": ["misspelled": true]],
        ["range": [4, 4], "attributes": ["bold": true, "italic": true, "language": "fr", "fontSize": 12]],
        ["range": [9, 3], "attributes": ["underline": true, "foregroundColor": "#FF8000"]],
    ]

    static func served(_ properties: [String: JSON], className: String = "UILabel") throws -> (ServedSnapshot, AXNode) {
        let window = V.view(
            "w", "UIWindow", [100, 50, 400, 400], ["isKeyWindow": true],
            children: [V.view("t", className, [10, 10, 240, 60], properties)])
        let snapshot = try Snapshots.served(["windows": [window]])
        return (snapshot, try Snapshots.node("t", in: snapshot))
    }

    func testALabelsAttributedTextBecomesGTKAttributeRuns() throws {
        let (_, node) = try Self.served(["text": "Teh bold cat", "attributedText": Self.runs])
        let bold = TextAttributeMapping.run(at: 5, of: node, count: 12, includeDefaults: false)
        XCTAssertEqual(bold.start, 4)
        XCTAssertEqual(bold.end, 8)
        XCTAssertEqual(
            Dictionary(uniqueKeysWithValues: bold.attributes),
            ["weight": "700", "style": "italic", "language": "fr", "size": "12"])
        let misspelled = TextAttributeMapping.run(at: 0, of: node, count: 12, includeDefaults: false)
        XCTAssertEqual(misspelled.attributes.map { "\($0.0):\($0.1)" }, ["invalid:spelling"])
        let underlined = TextAttributeMapping.run(at: 11, of: node, count: 12, includeDefaults: false)
        XCTAssertEqual(
            Dictionary(uniqueKeysWithValues: underlined.attributes), ["underline": "single", "fg-color": "255,128,0"])
        // The space between two runs is a run of its own without attributes.
        let gap = TextAttributeMapping.run(at: 8, of: node, count: 12, includeDefaults: false)
        XCTAssertTrue(gap.attributes.isEmpty)
        XCTAssertEqual([gap.start, gap.end], [8, 9])
        XCTAssertEqual(TextAttributeMapping.value(at: 2, named: "invalid", of: node, count: 12), "spelling")
        XCTAssertEqual(TextAttributeMapping.value(at: 2, named: "weight", of: node, count: 12), "")
    }

    func testDefaultsComeFirstAndTheRunOverridesThem() throws {
        let (_, node) = try Self.served([
            "text": "Teh bold cat", "accessibilityLanguage": "en", "attributedText": Self.runs,
        ])
        let withDefaults = TextAttributeMapping.run(at: 5, of: node, count: 12, includeDefaults: true)
        XCTAssertEqual(withDefaults.attributes.filter { $0.0 == "language" }.map(\.1), ["fr"])
        let plain = TextAttributeMapping.run(at: 0, of: node, count: 12, includeDefaults: true)
        XCTAssertEqual(plain.attributes.filter { $0.0 == "language" }.map(\.1), ["en"])
    }

    func testTheRunsFollowTheStringTheTextInterfaceShows() throws {
        // A label with its own accessibilityLabel: the attributed label's runs, not attributedText's.
        let (_, labelled) = try Self.served([
            "text": "Teh bold cat", "attributedText": Self.runs, "accessibilityLabel": "Bold",
            "accessibilityAttributedLabel": [["range": [0, 4], "attributes": ["bold": true]]],
        ])
        XCTAssertEqual(labelled.textContent?.runs.map(\.range), [TextRange(location: 0, length: 4)])
        // A text field shows its value: the attributed value; runs past the text are clamped, empty ones dropped
        // (runs never overlap: D-TEXT-APP-7).
        let (_, field) = try Self.served(
            [
                "text": "abc",
                "accessibilityAttributedValue": [
                    ["range": [1, 10], "attributes": ["misspelled": true]],
                    ["range": [12, 2], "attributes": ["bold": true]],
                ],
            ], className: "UITextField")
        XCTAssertEqual(field.textContent?.runs.map(\.range), [TextRange(location: 1, length: 2)])
        // A label whose label is its own string but no attributed label: no runs (attributedText is for `text`).
        let (_, plain) = try Self.served(["text": "x", "accessibilityLabel": "Other", "attributedText": Self.runs])
        XCTAssertNil(plain.textContent)
    }

    func testUnknownAttributesAndBadValuesAreRefusedNamingThem() {
        let bad: [(JSON, String)] = [
            ([["range": [0, 1], "attributes": ["blink": true]]], "blink"),
            ([["range": [0, 1], "attributes": ["bold": "yes"]]], "bold"),
            ([["range": [0, 1], "attributes": ["language": "not a tag!!"]]], "language"),
            ([["range": [0, 1], "attributes": ["foregroundColor": "red"]]], "foregroundColor"),
            ([["range": [-1, 1]]], "attributedText[0]"),
            ([["attributes": [:]]], "range"),
            ("bold", "attributedText"),
        ]
        for (runs, expected) in bad {
            XCTAssertThrowsError(try Self.served(["text": "abc", "attributedText": runs]), "\(runs)") { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) should name \(expected)")
            }
        }
    }

    func testTheFourAttributeRotorsServeTheRuns() throws {
        let (snapshot, _) = try Self.served(["text": "Teh bold cat", "attributedText": Self.runs])
        let engine = RotorEngine(index: RotorIndex(tree: snapshot.tree))
        let names = engine.list(at: "t").map(\.name)
        for rotor in ["boldText", "italicText", "underlineText", "misspelledWord"] {
            XCTAssertTrue(names.contains(rotor), "\(rotor) in \(names)")
        }
        XCTAssertFalse(SystemRotors.unavailable.contains { $0.name == "boldText" })
        let first = engine.step("misspelledWord", at: "t", from: nil, direction: .next)
        XCTAssertEqual(first?.item, RotorItem(target: "t", range: TextRange(location: 0, length: 3)))
        let bold = engine.step("boldText", at: "t", from: nil, direction: .next)
        XCTAssertEqual(bold?.item?.range, TextRange(location: 4, length: 4))
        XCTAssertNil(engine.step("boldText", at: "t", from: bold?.item, direction: .next)?.item, "one bold run")
    }

    // MARK: Reading content (D-TEXT-APP-4)

    /// A canvas drawing "Hello big world" wrapped on two lines, 20 pt high each, with no `text` of its own.
    static let reading: JSON = [
        "lines": [
            ["content": "Hello big", "frame": [4, 0, 90, 20]],
            ["content": "world", "frame": [4, 20, 50, 20]],
        ]
    ]

    func testReadingContentGivesTheTextItsLinesAndExtents() throws {
        let (_, node) = try Self.served(
            [
                "accessibilityReadingContent": Self.reading, "isAccessibilityElement": true,
                "accessibilityTraits": ["staticText"],
            ], className: "CanvasView")
        XCTAssertEqual(node.text, "Hello big\nworld", "the lines become the text, one per line")
        var model = TextModel(node: node)
        XCTAssertEqual(model.lineBoxes.map(\.start), [0, 10])
        XCTAssertEqual(model.textAtOffset(12, boundary: .lineStart).text, "world")
        XCTAssertEqual(model.string(at: 2, granularity: .line).text, "Hello big\n")
        // Screen extents: the element sits at (110, 60); the second line's box is (4, 20, 50, 20) inside it.
        let element = ATSPIRect(x: 110, y: 60, width: 240, height: 60)
        let w = model.characterExtents(at: 10, elementExtents: element)
        XCTAssertEqual([w.x, w.y, w.width, w.height], [114, 80, 10, 20])
        // Window coordinates shift the same way as the element's own extents.
        let inWindow = model.characterExtents(at: 10, elementExtents: ATSPIRect(x: 10, y: 10, width: 240, height: 60))
        XCTAssertEqual([inWindow.x, inWindow.y], [14, 30])
        XCTAssertEqual(model.offset(atScreenPoint: Point(x: 125, y: 85), in: node), 11)
        model.lineBoxes = []
        XCTAssertEqual(
            model.offset(atScreenPoint: Point(x: 125, y: 85), in: node), 0,
            "without boxes the rows share the element's height evenly: the point is on the first line")
    }

    func testSoftWrappedLinesSplitTheTextWithoutNewlines() throws {
        // A text view whose one paragraph wraps on two lines: the lines, not the newlines, make line boundaries.
        let (_, node) = try Self.served(
            ["text": "Hello big world", "isEditable": false, "accessibilityReadingContent": Self.reading],
            className: "UITextView")
        let model = TextModel(node: node)
        XCTAssertEqual(model.lineBoxes.map(\.start), [0, 10])
        XCTAssertEqual(model.textAtOffset(3, boundary: .lineStart).text, "Hello big ")
        XCTAssertEqual(model.textAfterOffset(3, boundary: .lineStart).text, "world")
        XCTAssertEqual(
            node.textContent?.lines.map(\.frame),
            [Rect(x: 114, y: 60, width: 90, height: 20), Rect(x: 114, y: 80, width: 50, height: 20)])
    }

    func testAVirtualElementsAttributedLabelGivesItsRuns() throws {
        let window = V.view(
            "w", "UIWindow", [0, 0, 400, 400], ["isKeyWindow": true],
            children: [
                V.view(
                    "chart", "ChartView", [0, 0, 300, 200],
                    [
                        "accessibilityElements": [
                            [
                                "id": "bar", "accessibilityLabel": "Sales up", "accessibilityFrame": [0, 0, 50, 50],
                                "accessibilityAttributedLabel": [["range": [6, 2], "attributes": ["bold": true]]],
                            ]
                        ]
                    ])
            ])
        let snapshot = try Snapshots.served(["windows": [window]])
        let bar = try Snapshots.node("bar", in: snapshot)
        XCTAssertEqual(bar.textContent?.runs.map(\.range), [TextRange(location: 6, length: 2)])
        XCTAssertEqual(
            TextAttributeMapping.run(at: 6, of: bar, count: 8, includeDefaults: false).attributes.map(\.1), ["700"])
    }
}
