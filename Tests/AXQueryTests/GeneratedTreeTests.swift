import AXCore
import AXJSON
import AXQuery
import XCTest

/// A generated tree of about 10,000 nodes. Expected counts are computed from the generator's parameters,
/// never from the engine.
///
/// Window `gw` (390×844) holds `groups` groups (UIView + shouldGroupAccessibilityChildren, id `g<k>`,
/// identifier `group.<k>`), stacked vertically, each `rows × 40` pt tall. A group's rows, one per 40 pt:
///   row 0: header `h<k>` "Section <k>"
///   rows 1…B: buttons `b<k>_<j>` "Button <j>", identifier `btn.<k>.<j>`, enabled when j % 3 != 0
///   rows B+1…B+L: labels `l<k>_<j>` "Item <k>-<j>"
///   last row: switch `s<k>` "Toggle <k>", on when k is even
struct Generated {
    let groups: Int
    let buttons: Int
    let labels: Int
    var rows: Int { 3 + buttons + labels - 1 }  // header + buttons + labels + switch
    var nodeCount: Int { 1 + groups * (1 + rows) }
    var groupHeight: Double { Double(rows) * 40 }

    func json() -> JSON {
        func v(_ id: String, _ cls: String, _ row: Int, _ props: [String: JSON]) -> JSON {
            Fixtures.view(id, cls, [10, Double(row) * 40, 300, 30], props)
        }
        var gs: [JSON] = []
        gs.reserveCapacity(groups)
        for k in 0..<groups {
            var kids: [JSON] = [
                v("h\(k)", "UILabel", 0, ["text": .string("Section \(k)"), "accessibilityTraits": ["header"]])
            ]
            for j in 0..<buttons {
                kids.append(
                    v(
                        "b\(k)_\(j)", "UIButton", 1 + j,
                        [
                            "title": .string("Button \(j)"), "accessibilityIdentifier": .string("btn.\(k).\(j)"),
                            "isEnabled": .bool(j % 3 != 0),
                        ]))
            }
            for j in 0..<labels {
                kids.append(v("l\(k)_\(j)", "UILabel", 1 + buttons + j, ["text": .string("Item \(k)-\(j)")]))
            }
            kids.append(
                v(
                    "s\(k)", "UISwitch", rows - 1,
                    ["accessibilityLabel": .string("Toggle \(k)"), "isOn": .bool(k % 2 == 0)]))
            gs.append(
                Fixtures.view(
                    "g\(k)", "UIView", [0, Double(k) * groupHeight, 390, groupHeight],
                    ["shouldGroupAccessibilityChildren": true, "accessibilityIdentifier": .string("group.\(k)")], kids))
        }
        return ["windows": [Fixtures.view("gw", "UIWindow", [0, 0, 390, 844], [:], gs)]]
    }

    /// Rows of group 0 that intersect the window (y < 844); later groups start below it.
    var visibleRowsInFirstGroup: Int { (0..<rows).filter { Double($0) * 40 < 844 }.count }
}

final class GeneratedTreeTests: XCTestCase {
    static let gen = Generated(groups: 400, buttons: 10, labels: 12)
    nonisolated(unsafe) static var cached: HierarchyStore?

    static func store() throws -> HierarchyStore {
        if let fixtures = cached { return fixtures }
        let fixtures = try Fixtures.store(gen.json())
        cached = fixtures
        return fixtures
    }

    func testCounts() throws {
        let generator = Self.gen
        let store = try Self.store()
        XCTAssertEqual(store.tree.count, generator.nodeCount)
        XCTAssertGreaterThanOrEqual(generator.nodeCount, 10_000)
        let ctx = QueryContext(tree: store.tree, views: store.views)
        let enabledPerGroup = (0..<generator.buttons).filter { $0 % 3 != 0 }.count
        let evenGroups = (0..<generator.groups).filter { $0 % 2 == 0 }.count
        func groupsWhoseNumberStarts(_ p: String) -> Int {
            (0..<generator.groups).filter { String($0).hasPrefix(p) }.count
        }
        let visibleRows = generator.visibleRowsInFirstGroup
        let visibleLabels = max(0, min(generator.labels, visibleRows - 1 - generator.buttons))
        let cases: [(String, Int)] = [
            ("*", generator.nodeCount),
            ("button", generator.groups * generator.buttons),
            ("button:enabled", generator.groups * enabledPerGroup),
            ("button:disabled", generator.groups * (generator.buttons - enabledPerGroup)),
            ("#\"btn.250.7\"", 1),
            ("#\"btn.250.7\", #\"btn.399.9\", #\"btn.0.0\"", 3),
            ("button[label=\"Button 7\"]", generator.groups),
            ("header", generator.groups),
            ("group", generator.groups),
            ("group:has(switch:checked)", evenGroups),
            ("group:has(> switch[label=\"Toggle 250\"]) > button", generator.buttons),
            ("group > button:nth(3)", 1),
            ("group >> button:nth(3)", generator.groups),
            ("group >> button:nth(-1)", generator.groups),
            ("button:nth(1234)", 1),
            ("button:nth(\(generator.groups * generator.buttons))", 0),
            (":visible", 1 + 1 + visibleRows),
            ("text:visible", visibleLabels),
            ("switch:checked", evenGroups),
            ("switch[value=on]", evenGroups),
            ("[label^=\"Item 12\"]", groupsWhoseNumberStarts("12") * generator.labels),
            (":text(\"section 39\")", groupsWhoseNumberStarts("39")),
            ("text + switch", generator.groups),
            ("header ~ switch:checked", evenGroups),
            ("header + button:disabled", generator.groups),  // Button 0 is disabled (0 % 3 == 0)
            ("window > group:last > switch", 1),
            ("[label~=/^Item \\d+-11$/]", generator.groups),
            ("group:not(:has(switch:checked))", generator.groups - evenGroups),
            ("#\"group.7\" > *", generator.rows),
            ("[depth=2]", generator.groups * generator.rows),
            // every switch, and group g<rows-1> in the window
            ("[index=\(generator.rows - 1)]", generator.groups + (generator.groups > generator.rows - 1 ? 1 : 0)),
        ]
        for (text, expected) in cases {
            let selector = try Selector(parsing: text)
            XCTAssertEqual(try QueryEngine.count(selector, in: ctx), expected, text)
        }
        // Specific ids for a few.
        XCTAssertEqual(try QueryEngine.find(try Selector(parsing: "#\"btn.250.7\""), in: ctx), ["b250_7"])
        XCTAssertEqual(try QueryEngine.find(try Selector(parsing: "group > button:nth(3)"), in: ctx), ["b0_3"])
        XCTAssertEqual(
            try QueryEngine.find(try Selector(parsing: "window > group:last > switch"), in: ctx),
            ["s\(generator.groups - 1)"])
        XCTAssertEqual(
            try QueryEngine.find(try Selector(parsing: "button:nth(1234)"), in: ctx),
            ["b\(1234 / generator.buttons)_\(1234 % generator.buttons)"])
        XCTAssertEqual(
            try QueryEngine.find(try Selector(parsing: "button"), in: ctx, root: "g5", limit: 3),
            ["b5_0", "b5_1", "b5_2"])
    }

    /// Document order: ids come back in the tree's walk order, whatever the query shape.
    func testDocumentOrder() throws {
        let store = try Self.store()
        let ctx = QueryContext(tree: store.tree, views: store.views)
        var order: [String: Int] = [:]
        store.tree.walk { node, _ in
            order[node.id] = order.count
            return true
        }
        for query in [
            "header, switch, button:first", "group > *:has(+ switch)", "text ~ switch, header ~ text:last",
            "group >> button:last, group:first",
        ] {
            let ids = try QueryEngine.find(try Selector(parsing: query), in: ctx)
            let pos = ids.map { order[$0]! }
            XCTAssertEqual(pos, pos.sorted(), query)
            XCTAssertEqual(Set(ids).count, ids.count, query)
        }
    }

    /// Long re-rooting chains stay cheap: without positional pseudo-classes they run as descendant steps.
    func testRerootChainsAreBounded() throws {
        let generator = Self.gen
        let store = try Self.store()
        let ctx = QueryContext(tree: store.tree, views: store.views)
        let clock = ContinuousClock()
        var counts: [Int] = []
        let elapsed = try clock.measure {
            counts.append(
                try QueryEngine.count(
                    try Selector(parsing: Array(repeating: "*", count: 40).joined(separator: " >> ")), in: ctx))
            counts.append(try QueryEngine.count(try Selector(parsing: "* >> * >> *:first"), in: ctx))
        }
        // the tree is 3 levels deep; from the window, every group yields its header
        XCTAssertEqual(counts, [0, generator.groups])
        XCTAssertLessThan(elapsed, .seconds(5))
    }

    func testExplainOnALargeTree() throws {
        let generator = Self.gen
        let store = try Self.store()
        let ctx = QueryContext(tree: store.tree, views: store.views)
        let clock = ContinuousClock()
        var explanation: QueryExplanation?
        let elapsed = try clock.measure {
            explanation = try QueryEngine.explain(try Selector(parsing: "group > button[label=\"Buton 7\"]"), in: ctx)
        }
        XCTAssertEqual(explanation?.chains[0].steps.map(\.count), [generator.groups, 0])
        let miss = explanation?.chains[0].steps[1].nearMisses.first
        XCTAssertEqual(miss?.description, "button with label \"Button 7\"")
        XCTAssertEqual(miss?.count, generator.groups)
        XCTAssertLessThan(elapsed, .seconds(10))
    }

    /// Lookups by identifier use the index: far cheaper than a scan over every node.
    func testLookupsAreFast() throws {
        let store = try Self.store()
        let ctx = QueryContext(tree: store.tree, views: store.views)
        _ = ctx.index
        let byID = try Selector(parsing: "#\"btn.250.7\"")
        let scan = try Selector(parsing: "[label=\"Button 7\"]")
        let clock = ContinuousClock()
        let count = 50
        let tID = clock.measure { for _ in 0..<count { _ = try? QueryEngine.find(byID, in: ctx) } }
        let tScan = clock.measure { for _ in 0..<count { _ = try? QueryEngine.find(scan, in: ctx) } }
        XCTAssertLessThan(tID * 20, tScan, "by-id \(tID / count) vs full scan \(tScan / count)")
        XCTAssertLessThan(
            tID / count, .milliseconds(20), "a by-id lookup is an index hit (quiet debug build: well under 1 ms)")
    }
}
