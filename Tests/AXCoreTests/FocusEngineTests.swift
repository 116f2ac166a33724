import AXCore
import AXJSON
import XCTest

/// The pure focus engine (AXCore/Focus; decisions.md D-FOCUS-4…6): focusability, the directional search, the
/// Tab sequence and scrolling, on hand-built hierarchies whose answers follow from the written algorithm.
final class FocusEngineTests: XCTestCase {
    static func button(_ id: String, _ x: Double, _ y: Double, _ extra: JSONObject = [:]) -> JSON {
        var object: JSONObject = [
            "id": .string(id), "class": "UIButton", "frame": [JSON(x), JSON(y), 100, 44], "title": .string(id),
        ]
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }

    static func engine(_ children: [JSON], window: JSONObject = [:]) throws -> FocusEngine {
        var object: JSONObject = [
            "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
            "children": .array(children),
        ]
        for (key, value) in window { object[key] = value }
        let store = HierarchyStore()
        try store.setSnapshot(["windows": [.object(object)]])
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
        let engine = try Self.engine([
            Self.button("b1", 20, 20), Self.button("b2", 140, 20), Self.button("b4", 20, 120),
        ])
        XCTAssertEqual(engine.move(from: "b2", heading: .down), .failure(.noCandidate(.down)))
        XCTAssertEqual(try engine.move(from: "b1", heading: .down).get().item, "b4")
    }

    func testNearestGapThenOffAxisDistanceWins() throws {
        // Both c1 and c2 are 30 pt to the right; c2's centre is level with the source, c1's is 30 pt lower.
        let engine = try Self.engine([
            Self.button("src", 0, 100), Self.button("c1", 130, 130), Self.button("c2", 130, 100),
            Self.button("far", 300, 100),
        ])
        XCTAssertEqual(try engine.move(from: "src", heading: .right).get().item, "c2")
        XCTAssertEqual(try engine.move(from: "c2", heading: .right).get().item, "far")
        XCTAssertEqual(try engine.move(from: "far", heading: .left).get().item, "c2")
    }

    func testCoveringViewIsFoundAcrossGridCells() throws {
        // The item straddles the middle of the window (several grid cells); the cover is declared much later.
        var children: [JSON] = [Self.button("item", 180, 380)]
        for k in 0..<50 {
            children.append([
                "id": .string("filler\(k)"), "class": "UIView", "frame": [0, JSON(Double(k) * 2), 10, 10],
            ])
        }
        children.append(["id": "cover", "class": "UIView", "frame": [150, 350, 200, 120]])
        let engine = try Self.engine(children)
        let checks = engine.checks("item")
        XCTAssertEqual(checks.last?.name, "covered")
        XCTAssertEqual(checks.last?.passed, false)
        XCTAssertEqual(checks.last?.view, "cover")
        // A view behind the item (earlier in paint order) never covers it.
        let behind = try Self.engine([
            ["id": "under", "class": "UIView", "frame": [0, 0, 400, 800]], Self.button("item", 180, 380),
        ])
        XCTAssertTrue(behind.isFocusable("item"))
    }

    func testModalSiblingHidesItsSiblingsButNotItsOwnItems() throws {
        let engine = try Self.engine([
            Self.button("back", 20, 20),
            [
                "id": "sheet", "class": "UIView", "frame": [0, 400, 400, 400], "accessibilityViewIsModal": true,
                "children": [Self.button("ok", 20, 20)],
            ],
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
        let tiles: JSON = [
            "id": "tiles", "class": "UIView", "frame": [0, 100, 400, 100], "focusGroupIdentifier": "tiles",
            "children": [Self.button("t1", 20, 0), Self.button("t2", 150, 0), Self.button("t3", 280, 0)],
        ]
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
            [
                "id": "sv", "class": "UIScrollView", "frame": [0, 100, 400, 300], "contentOffset": [0, 50],
                "children": [Self.button("top", 20, 60), Self.button("low", 20, 600)],
            ]
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

/// The directional search on a scattered layout: whatever it answers must satisfy the written rules
/// (D-FOCUS-5) against every other item, checked by brute force over all items.
final class FocusDirectionalPropertyTests: XCTestCase {
    func testAnswersSatisfyTheRulesOnAScatteredLayout() throws {
        var generator = SplitMix(seed: 7)
        var children: [JSON] = []
        var frames: [String: Rect] = [:]
        // A 12 × 12 lattice of 60 × 40 slots; each slot holds a button with a random size and offset, or nothing.
        for row in 0..<12 {
            for column in 0..<12 where generator.next() % 3 != 0 {
                let width = Double(20 + generator.next() % 40)
                let height = Double(10 + generator.next() % 30)
                let xValue = Double(column * 60) + Double(generator.next() % UInt64(61 - Int(width)))
                let yValue = Double(row * 40) + Double(generator.next() % UInt64(41 - Int(height)))
                let id = "b\(row)_\(column)"
                frames[id] = Rect(x: xValue, y: yValue, width: width, height: height)
                children.append([
                    "id": .string(id), "class": "UIButton",
                    "frame": [JSON(xValue), JSON(yValue), JSON(width), JSON(height)],
                    "title": .string(id),
                ])
            }
        }
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 720, 480], "isKeyWindow": true,
                    "children": .array(children),
                ]
            ]
        ])
        let engine = FocusEngine(index: FocusIndex(views: store.views, tree: store.tree))
        var moves = 0
        for (source, from) in frames {
            for heading in [FocusHeading.up, .down, .left, .right] {
                let inBeam = frames.filter {
                    $0.key != source && FocusEngine.gap(from: from, to: $0.value, heading: heading) != nil
                        && FocusEngine.inBeam(from: from, to: $0.value, heading: heading)
                }
                switch engine.move(from: source, heading: heading) {
                case .success(let decision):
                    moves += 1
                    let chosen = try XCTUnwrap(frames[decision.item])
                    XCTAssertNotNil(
                        inBeam[decision.item],
                        "\(source) \(heading) → \(decision.item) is not beyond the edge in the beam")
                    let gap = try XCTUnwrap(FocusEngine.gap(from: from, to: chosen, heading: heading))
                    for (other, rect) in inBeam {
                        let otherGap = try XCTUnwrap(FocusEngine.gap(from: from, to: rect, heading: heading))
                        XCTAssertGreaterThanOrEqual(
                            otherGap + 1e-9, gap, "\(source) \(heading): \(other) is nearer than \(decision.item)")
                    }
                case .failure:
                    XCTAssertTrue(
                        inBeam.isEmpty, "\(source) \(heading) failed although \(inBeam.keys.sorted()) lie in the beam")
                }
            }
        }
        XCTAssertGreaterThan(moves, 100)
    }
}

/// A small deterministic generator (the standard library's is seeded randomly).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var otherState = state
        otherState = (otherState ^ (otherState >> 30)) &* 0xBF58_476D_1CE4_E5B9
        otherState = (otherState ^ (otherState >> 27)) &* 0x94D0_49BB_1331_11EB
        return otherState ^ (otherState >> 31)
    }
}
