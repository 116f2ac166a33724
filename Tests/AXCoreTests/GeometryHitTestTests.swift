import AXJSON
import XCTest

@testable import AXCore

/// Geometry (A2, A11–A14, R22, R94), hit testing (R111–R116, A16–A20) and reading order (R106, R107; D-ORDER-1).
final class GeometryHitTestTests: XCTestCase {
    func hierarchy(_ children: [JSON], windowFrame: JSON = [0, 0, 400, 800], props: JSONObject = [:]) throws
        -> HierarchyStore
    {
        var object: JSONObject = ["id": "w", "class": "UIWindow", "frame": windowFrame, "children": .array(children)]
        for (k, value) in props { object[k] = value }
        let store = HierarchyStore()
        try store.setSnapshot(["windows": [.object(object)]])
        return store
    }

    // MARK: Geometry

    func testRectContainsIsHalfOpen() {
        let rect = Rect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertTrue(rect.contains(Point(x: 0, y: 0)))
        XCTAssertTrue(rect.contains(Point(x: 9.999, y: 9.999)))
        XCTAssertFalse(rect.contains(Point(x: 10, y: 5)), "abutting views must not both contain a point")
        XCTAssertFalse(rect.contains(Point(x: -0.001, y: 5)))
    }

    func testIntersectionAndUnion() {
        let rect = Rect(x: 0, y: 0, width: 10, height: 10)
        let otherRect = Rect(x: 5, y: 5, width: 10, height: 10)
        XCTAssertEqual(rect.intersection(otherRect), Rect(x: 5, y: 5, width: 5, height: 5))
        XCTAssertEqual(rect.union(otherRect), Rect(x: 0, y: 0, width: 15, height: 15))
        XCTAssertNil(rect.intersection(Rect(x: 10, y: 0, width: 5, height: 5)), "touching edges do not intersect")
    }

    func testAxisMapComposeAndInverse() {
        let inner = AxisMap(sx: 2, sy: 3, dx: 1, dy: -1)
        let outer = AxisMap(sx: 0.5, sy: 1, dx: 10, dy: 20)
        let composed = outer.composed(with: inner)
        let point = Point(x: 4, y: 5)
        XCTAssertEqual(composed.apply(point), outer.apply(inner.apply(point)))
        let back = composed.inverse!.apply(composed.apply(point))
        XCTAssertEqual(back.x, point.x, accuracy: 1e-9)
        XCTAssertEqual(back.y, point.y, accuracy: 1e-9)
        XCTAssertNil(AxisMap(sx: 0, sy: 1).inverse, "a view scaled to nothing has no inverse")
    }

    func testScreenFrameThroughOffsetsBoundsAndTransforms() throws {
        // window at (100, 50); box at (10, 20) scrolled by (0, 30); child at (5, 40) → screen (115, 80)
        let otherHierarchy = try hierarchy(
            [
                [
                    "id": "box", "class": "UIView", "frame": [10, 20, 300, 300], "contentOffset": [0, 30],
                    "children": [
                        ["id": "b", "class": "UIButton", "frame": [5, 40, 50, 20], "title": "B"]
                    ],
                ]
            ], windowFrame: [100, 50, 400, 800])
        XCTAssertEqual(otherHierarchy.tree["b"]?.frame, Rect(x: 115, y: 80, width: 50, height: 20))
        XCTAssertEqual(otherHierarchy.tree["b"]?.activationPoint, Point(x: 140, y: 90))
        // A scale of 2 around the box's centre (160, 170 in window space): the child doubles and moves away from it.
        try otherHierarchy.apply(json: [
            [
                "op": "set", "id": "box",
                "properties": ["transform": ["scaleX": 2, "scaleY": 2], "contentOffset": [0, 0]],
            ]
        ])
        // box centre in window = (160, 170); child origin in box bounds (5, 40) is (-145, -110) from the centre.
        let fixture = otherHierarchy.tree["b"]!.frame
        XCTAssertEqual(fixture.x, 100 + 160 - 290, accuracy: 1e-9)
        XCTAssertEqual(fixture.y, 50 + 170 - 220, accuracy: 1e-9)
        XCTAssertEqual(fixture.width, 100, accuracy: 1e-9)
        XCTAssertEqual(fixture.height, 40, accuracy: 1e-9)
    }

    // MARK: Hit testing

    func testHitTestDeepestFrontMost() throws {
        let otherHierarchy = try hierarchy([
            ["id": "back", "class": "UIButton", "frame": [0, 0, 200, 200]],
            [
                "id": "front", "class": "UIView", "frame": [100, 100, 200, 200],
                "children": [
                    ["id": "inner", "class": "UIButton", "frame": [0, 0, 50, 50]]
                ],
            ],
        ])
        XCTAssertEqual(HitTesting.viewAt(Point(x: 110, y: 110), in: otherHierarchy.views), "inner")
        XCTAssertEqual(
            HitTesting.viewAt(Point(x: 190, y: 190), in: otherHierarchy.views), "front",
            "later sibling wins over the one behind")
        XCTAssertEqual(HitTesting.viewAt(Point(x: 50, y: 50), in: otherHierarchy.views), "back")
        XCTAssertNil(HitTesting.viewAt(Point(x: 500, y: 50), in: otherHierarchy.views), "outside every window")
    }

    func testHitTestSkipsHiddenDisabledAndTransparent() throws {
        for (k, v): (String, JSON) in [("isHidden", true), ("isUserInteractionEnabled", false), ("alpha", 0.009)] {
            let otherHierarchy = try hierarchy([
                ["id": "back", "class": "UIButton", "frame": [0, 0, 200, 200]],
                [
                    "id": "cover", "class": "UIView", "frame": [0, 0, 200, 200], k: v,
                    "children": [
                        ["id": "kid", "class": "UIButton", "frame": [0, 0, 200, 200]]
                    ],
                ],
            ])
            XCTAssertEqual(
                HitTesting.viewAt(Point(x: 10, y: 10), in: otherHierarchy.views), "back",
                "\(k) = \(v) must be skipped with its subtree")
        }
        let otherHierarchy = try hierarchy([
            ["id": "back", "class": "UIButton", "frame": [0, 0, 200, 200]],
            ["id": "faint", "class": "UIButton", "frame": [0, 0, 200, 200], "alpha": 0.01],
        ])
        XCTAssertEqual(
            HitTesting.viewAt(Point(x: 10, y: 10), in: otherHierarchy.views), "faint",
            "alpha exactly 0.01 is hit (R111)")
    }

    func testHitTestNeverOutsideParentBounds() throws {
        let otherHierarchy = try hierarchy([
            [
                "id": "box", "class": "UIView", "frame": [0, 0, 100, 100],
                "children": [
                    ["id": "over", "class": "UIButton", "frame": [50, 50, 200, 200]]
                ],
            ]
        ])
        XCTAssertEqual(HitTesting.viewAt(Point(x: 60, y: 60), in: otherHierarchy.views), "over")
        XCTAssertEqual(
            HitTesting.viewAt(Point(x: 150, y: 150), in: otherHierarchy.views), "w",
            "the overflowing part is not hit (R113)")
    }

    func testImageViewAndLabelIgnoreTouchesByDefault() throws {
        let otherHierarchy = try hierarchy([
            ["id": "img", "class": "UIImageView", "frame": [0, 0, 50, 50], "accessibilityLabel": "Photo"],
            ["id": "lbl", "class": "UILabel", "frame": [100, 0, 50, 50], "text": "L"],
            ["id": "v", "class": "UIView", "frame": [200, 0, 50, 50]],
        ])
        XCTAssertEqual(
            HitTesting.viewAt(Point(x: 10, y: 10), in: otherHierarchy.views), "w",
            "UIImageView defaults to no user interaction (R116)")
        XCTAssertEqual(HitTesting.viewAt(Point(x: 110, y: 10), in: otherHierarchy.views), "w")
        XCTAssertEqual(
            HitTesting.viewAt(Point(x: 210, y: 10), in: otherHierarchy.views), "v",
            "UIView defaults to user interaction on (A1)")
        XCTAssertFalse(HitTesting.isHittable("img", tree: otherHierarchy.tree, views: otherHierarchy.views))
    }

    func testAccessibilityHitTestReturnsAnElement() throws {
        let otherHierarchy = try hierarchy([
            [
                "id": "grp", "class": "UIView", "frame": [0, 0, 400, 200],
                "accessibilityContainerType": "semanticGroup",
                "children": [
                    ["id": "b", "class": "UIButton", "frame": [10, 10, 50, 50], "title": "B"]
                ],
            ]
        ])
        XCTAssertEqual(HitTesting.elementAt(Point(x: 20, y: 20), tree: otherHierarchy.tree), "b")
        let other = HitTesting.elementAt(Point(x: 300, y: 100), tree: otherHierarchy.tree)
        XCTAssertNotEqual(other, "b")
    }

    // MARK: Reading order

    func items(_ frames: [(String, Rect)]) -> [Deriver.Item] { frames.map { Deriver.Item(id: $0.0, frame: $0.1) } }

    func testReadingOrderRowsThenLeadingToTrailing() {
        let deriver = Deriver()
        let its = items([
            ("d", Rect(x: 200, y: 100, width: 50, height: 40)), ("a", Rect(x: 0, y: 0, width: 50, height: 40)),
            ("c", Rect(x: 0, y: 100, width: 50, height: 40)), ("b", Rect(x: 200, y: 0, width: 50, height: 40)),
        ])
        XCTAssertEqual(deriver.readingOrder(its, rtl: false).map(\.id), ["a", "b", "c", "d"])
        XCTAssertEqual(deriver.readingOrder(its, rtl: true).map(\.id), ["b", "a", "d", "c"])
    }

    func testReadingOrderRowTolerance() {
        let deriver = Deriver()
        // Row anchor: height 40, centre y 20. Centres within 20 pt join the row; farther ones start a new row.
        let inRow = items([
            ("high-right", Rect(x: 200, y: 0, width: 50, height: 40)),
            ("low-left", Rect(x: 0, y: 20, width: 50, height: 40)),
        ])
        XCTAssertEqual(deriver.readingOrder(inRow, rtl: false).map(\.id), ["low-left", "high-right"])
        let newRow = items([
            ("high-right", Rect(x: 200, y: 0, width: 50, height: 40)),
            ("low-left", Rect(x: 0, y: 21, width: 50, height: 40)),
        ])
        XCTAssertEqual(deriver.readingOrder(newRow, rtl: false).map(\.id), ["high-right", "low-left"])
    }

    func testReadingOrderTiesKeepSubviewOrder() {
        let deriver = Deriver()
        let same = Rect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertEqual(
            deriver.readingOrder(items([("z", same), ("a", same), ("m", same)]), rtl: false).map(\.id), ["z", "a", "m"])
    }

    func testReadingOrderIsAPermutation() {
        var rng = SeededRNG(seed: 99)
        let deriver = Deriver()
        for _ in 0..<200 {
            let count = Int.random(in: 0...30, using: &rng)
            let its = items(
                (0..<count).map { index in
                    (
                        "e\(index)",
                        Rect(
                            x: Double(Int.random(in: 0...300, using: &rng)),
                            y: Double(Int.random(in: 0...600, using: &rng)),
                            width: Double(Int.random(in: 0...80, using: &rng)),
                            height: Double(Int.random(in: 0...60, using: &rng)))
                    )
                })
            let out = deriver.readingOrder(its, rtl: Bool.random(using: &rng)).map(\.id)
            XCTAssertEqual(out.sorted(), its.map(\.id).sorted(), "every item appears exactly once (R104)")
        }
    }

    /// The one-pass check that skips the sort must agree with the sort on every input: random ones (mostly
    /// unsorted), the sort's own outputs, and grid layouts in subview order (sorted, the common case).
    func testReadingOrderFastPathAgreesWithTheSort() {
        var rng = SeededRNG(seed: 7)
        let deriver = Deriver()
        var fastTaken = 0
        for round in 0..<600 {
            let count = Int.random(in: 2...25, using: &rng)
            let rtl = Bool.random(using: &rng)
            var its: [Deriver.Item]
            if round % 3 == 2 {
                // A grid in subview order, rows of random length, jittered within the row tolerance at times.
                let cols = Int.random(in: 1...6, using: &rng)
                its = items(
                    (0..<count).map { index in
                        let xValue = Double((rtl ? cols - 1 - index % cols : index % cols) * 60)
                        let yValue = Double(index / cols * 50)
                        let jitter = Double(Int.random(in: -3...3, using: &rng))
                        return ("g\(index)", Rect(x: xValue, y: yValue + jitter, width: 50, height: 40))
                    })
            } else {
                its = items(
                    (0..<count).map { index in
                        (
                            "e\(index)",
                            Rect(
                                x: Double(Int.random(in: 0...300, using: &rng)),
                                y: Double(Int.random(in: 0...600, using: &rng)),
                                width: Double(Int.random(in: 0...80, using: &rng)),
                                height: Double(Int.random(in: 0...60, using: &rng)))
                        )
                    })
                if round % 3 == 1 { its = deriver.sortedReadingOrder(its, rtl: rtl) }
            }
            if Deriver.isInReadingOrder(its, rtl: rtl) { fastTaken += 1 }
            XCTAssertEqual(
                deriver.readingOrder(its, rtl: rtl).map(\.id), deriver.sortedReadingOrder(its, rtl: rtl).map(\.id),
                "round \(round)"
            )
        }
        XCTAssertGreaterThan(fastTaken, 100, "the fast path was exercised")
    }
}
