import AXCore
import AXJSON
import XCTest

/// The pure focus engine (AXCore/Focus; decisions.md D-FOCUS-4…6): focusability, the directional search, the
/// Tab sequence and scrolling, on hand-built hierarchies whose answers follow from the written algorithm.
final class FocusEngineTests: XCTestCase {
    static func button(_ id: String, _ x: Double, _ y: Double, _ extra: JSONObject = [:]) -> JSON {
        var o: JSONObject = ["id": .string(id), "class": "UIButton", "frame": [JSON(x), JSON(y), 100, 44], "title": .string(id)]
        for (key, value) in extra { o[key] = value }
        return .object(o)
    }

    static func engine(_ children: [JSON], window: JSONObject = [:]) throws -> FocusEngine {
        var w: JSONObject = ["id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true, "children": .array(children)]
        for (key, value) in window { w[key] = value }
        let store = HierarchyStore()
        try store.setSnapshot(["windows": [.object(w)]])
        return FocusEngine(index: FocusIndex(views: store.views, tree: store.tree))
    }

    func testPaintOrderAndSubtreeRanges() throws {
        let engine = try Self.engine([
            ["id": "box", "class": "UIView", "frame": [0, 0, 200, 200], "children": [Self.button("inner", 0, 0)]],
            Self.button("after", 0, 300),
        ])
        let index = engine.index
        XCTAssertEqual(index.entries.map(\.id), ["w", "box", "inner", "after"])
        let box = try XCTUnwrap(index.position["box"])
        XCTAssertEqual(index.entries[box].subtreeEnd, box + 2, "box's subtree is box and inner")
        XCTAssertEqual(index.entries[0].subtreeEnd, 4)
        XCTAssertTrue(index.isInSubtree(try XCTUnwrap(index.position["inner"]), of: box))
        XCTAssertFalse(index.isInSubtree(try XCTUnwrap(index.position["after"]), of: box))
    }

    func testDiagonalCandidateOutsideTheBeamIsNotTaken() throws {
        // Apple's four-button example without the guide (C20): b4 is below-left of b2, outside its column.
        let engine = try Self.engine([Self.button("b1", 20, 20), Self.button("b2", 140, 20), Self.button("b4", 20, 120)])
        XCTAssertEqual(engine.move(from: "b2", heading: .down), .failure(.noCandidate(.down)))
        XCTAssertEqual(try engine.move(from: "b1", heading: .down).get().item, "b4")
    }

    func testNearestGapThenOffAxisDistanceWins() throws {
        // Both c1 and c2 are 30 pt to the right; c2's centre is level with the source, c1's is 30 pt lower.
        let engine = try Self.engine([
            Self.button("src", 0, 100), Self.button("c1", 130, 130), Self.button("c2", 130, 100), Self.button("far", 300, 100),
        ])
        XCTAssertEqual(try engine.move(from: "src", heading: .right).get().item, "c2")
        XCTAssertEqual(try engine.move(from: "c2", heading: .right).get().item, "far")
        XCTAssertEqual(try engine.move(from: "far", heading: .left).get().item, "c2")
    }

    func testCoveringViewIsFoundAcrossGridCells() throws {
        // The item straddles the middle of the window (several grid cells); the cover is declared much later.
        var children: [JSON] = [Self.button("item", 180, 380)]
        for k in 0..<50 { children.append(["id": .string("filler\(k)"), "class": "UIView", "frame": [0, JSON(Double(k) * 2), 10, 10]]) }
        children.append(["id": "cover", "class": "UIView", "frame": [150, 350, 200, 120]])
        let engine = try Self.engine(children)
        let checks = engine.checks("item")
        XCTAssertEqual(checks.last?.name, "covered")
        XCTAssertEqual(checks.last?.passed, false)
        XCTAssertEqual(checks.last?.view, "cover")
        // A view behind the item (earlier in paint order) never covers it.
        let behind = try Self.engine([["id": "under", "class": "UIView", "frame": [0, 0, 400, 800]], Self.button("item", 180, 380)])
        XCTAssertTrue(behind.isFocusable("item"))
    }

    func testModalSiblingHidesItsSiblingsButNotItsOwnItems() throws {
        let engine = try Self.engine([
            Self.button("back", 20, 20),
            ["id": "sheet", "class": "UIView", "frame": [0, 400, 400, 400], "accessibilityViewIsModal": true, "children": [Self.button("ok", 20, 20)]],
        ])
        let failed = try XCTUnwrap(engine.checks("back").last)
        XCTAssertEqual(failed.name, "modal")
        XCTAssertFalse(failed.passed)
        XCTAssertEqual(failed.view, "sheet")
        XCTAssertTrue(engine.isFocusable("ok"))
        XCTAssertEqual(engine.initialFocus()?.item, "ok")
    }

    func testDeepestHierarchyBuildsWithoutRecursion() throws {
        let store = try DeepHierarchyTests.deepStore()
        let engine = FocusEngine(index: FocusIndex(views: store.views, tree: store.tree))
        XCTAssertEqual(engine.index.entries.count, Limits.maxDepth)
        XCTAssertTrue(engine.isFocusable("v255"))
        XCTAssertEqual(engine.index.entries[0].subtreeEnd, Limits.maxDepth)
    }

    func testGroupOrderIsRotatedToTheEntryItemWhileFocusIsInside() throws {
        let tiles: JSON = ["id": "tiles", "class": "UIView", "frame": [0, 100, 400, 100], "focusGroupIdentifier": "tiles",
                           "children": [Self.button("t1", 20, 0), Self.button("t2", 150, 0), Self.button("t3", 280, 0)]]
        var engine = try Self.engine([Self.button("s", 20, 20), tiles])
        XCTAssertEqual(engine.sequence(), ["s", "t1", "t2", "t3"])
        // Focus entered the group at t2 and stays inside: the order starts there, so Tab visits t3 then t1.
        engine.focused = "t3"
        engine.groupEntry = ["tiles": "t2"]
        XCTAssertEqual(engine.sequence(), ["s", "t2", "t3", "t1"])
        XCTAssertEqual(try engine.move(from: "t3", heading: .next).get().item, "t1")
        XCTAssertEqual(engine.move(from: "t1", heading: .next), .failure(.endOfSequence(.next)))
        // From outside, the last item focused in the group is its primary item (previouslyFocused, C22).
        engine.focused = "s"
        engine.lastFocusedInGroup = ["tiles": "t3"]
        XCTAssertEqual(engine.groups().last?.primary, "t3")
        XCTAssertEqual(try engine.move(from: "s", heading: .next).get().item, "t3")
    }

    func testScrollOffsetShowsAnItemBelowTheFold() throws {
        let engine = try Self.engine([
            ["id": "sv", "class": "UIScrollView", "frame": [0, 100, 400, 300], "contentOffset": [0, 50],
             "children": [Self.button("top", 20, 60), Self.button("low", 20, 600)]],
        ])
        // top is at screen y 110…154 (inside 100…400): nothing to scroll.
        XCTAssertNil(engine.scrollToShow("top"))
        // low is at screen y 650…694: scroll down by 294 from offset 50.
        XCTAssertEqual(engine.scrollToShow("low"), FocusScroll(container: "sv", contentOffset: Point(x: 0, y: 344)))
        XCTAssertEqual(try engine.move(from: "top", heading: .down).get().scroll?.contentOffset, Point(x: 0, y: 344))
    }

    func testPreferredEnvironmentCyclesAreBounded() throws {
        let engine = try Self.engine([
            ["id": "a", "class": "UIView", "frame": [0, 0, 10, 10], "preferredFocusEnvironments": ["b"]],
            ["id": "b", "class": "UIView", "frame": [0, 20, 10, 10], "preferredFocusEnvironments": ["a"]],
        ])
        XCTAssertNil(engine.resolve("a"), "a cycle of environments with nothing focusable resolves to nothing")
    }
}
