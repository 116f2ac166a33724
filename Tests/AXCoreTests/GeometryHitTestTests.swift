import AXJSON
import XCTest

@testable import AXCore

/// Geometry (A2, A11–A14, R22, R94), hit testing (R111–R116, A16–A20) and reading order (R106, R107; D-ORDER-1).
final class GeometryHitTestTests: XCTestCase {
    func hierarchy(_ children: [JSON], windowFrame: JSON = [0, 0, 400, 800], props: JSONObject = [:]) throws
        -> HierarchyStore
    {
        var w: JSONObject = ["id": "w", "class": "UIWindow", "frame": windowFrame, "children": .array(children)]
        for (k, v) in props { w[k] = v }
        let s = HierarchyStore()
        try s.setSnapshot(["windows": [.object(w)]])
        return s
    }

    // MARK: Geometry

    func testRectContainsIsHalfOpen() {
        let r = Rect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertTrue(r.contains(Point(x: 0, y: 0)))
        XCTAssertTrue(r.contains(Point(x: 9.999, y: 9.999)))
        XCTAssertFalse(r.contains(Point(x: 10, y: 5)), "abutting views must not both contain a point")
        XCTAssertFalse(r.contains(Point(x: -0.001, y: 5)))
    }

    func testIntersectionAndUnion() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        let b = Rect(x: 5, y: 5, width: 10, height: 10)
        XCTAssertEqual(a.intersection(b), Rect(x: 5, y: 5, width: 5, height: 5))
        XCTAssertEqual(a.union(b), Rect(x: 0, y: 0, width: 15, height: 15))
        XCTAssertNil(a.intersection(Rect(x: 10, y: 0, width: 5, height: 5)), "touching edges do not intersect")
    }

    func testAxisMapComposeAndInverse() {
        let inner = AxisMap(sx: 2, sy: 3, dx: 1, dy: -1)
        let outer = AxisMap(sx: 0.5, sy: 1, dx: 10, dy: 20)
        let c = outer.composed(with: inner)
        let p = Point(x: 4, y: 5)
        XCTAssertEqual(c.apply(p), outer.apply(inner.apply(p)))
        let back = c.inverse!.apply(c.apply(p))
        XCTAssertEqual(back.x, p.x, accuracy: 1e-9)
        XCTAssertEqual(back.y, p.y, accuracy: 1e-9)
        XCTAssertNil(AxisMap(sx: 0, sy: 1).inverse, "a view scaled to nothing has no inverse")
    }

    func testScreenFrameThroughOffsetsBoundsAndTransforms() throws {
        // window at (100, 50); box at (10, 20) scrolled by (0, 30); child at (5, 40) → screen (115, 80)
        let s = try hierarchy(
            [
                [
                    "id": "box", "class": "UIView", "frame": [10, 20, 300, 300], "contentOffset": [0, 30],
                    "children": [
                        ["id": "b", "class": "UIButton", "frame": [5, 40, 50, 20], "title": "B"]
                    ],
                ]
            ], windowFrame: [100, 50, 400, 800])
        XCTAssertEqual(s.tree["b"]?.frame, Rect(x: 115, y: 80, width: 50, height: 20))
        XCTAssertEqual(s.tree["b"]?.activationPoint, Point(x: 140, y: 90))
        // A scale of 2 around the box's centre (160, 170 in window space): the child doubles and moves away from it.
        try s.apply(json: [
            [
                "op": "set", "id": "box",
                "properties": ["transform": ["scaleX": 2, "scaleY": 2], "contentOffset": [0, 0]],
            ]
        ])
        // box centre in window = (160, 170); child origin in box bounds (5, 40) is (-145, -110) from the centre.
        let f = s.tree["b"]!.frame
        XCTAssertEqual(f.x, 100 + 160 - 290, accuracy: 1e-9)
        XCTAssertEqual(f.y, 50 + 170 - 220, accuracy: 1e-9)
        XCTAssertEqual(f.width, 100, accuracy: 1e-9)
        XCTAssertEqual(f.height, 40, accuracy: 1e-9)
    }

    // MARK: Hit testing

    func testHitTestDeepestFrontMost() throws {
        let s = try hierarchy([
            ["id": "back", "class": "UIButton", "frame": [0, 0, 200, 200]],
            [
                "id": "front", "class": "UIView", "frame": [100, 100, 200, 200],
                "children": [
                    ["id": "inner", "class": "UIButton", "frame": [0, 0, 50, 50]]
                ],
            ],
        ])
        XCTAssertEqual(HitTesting.viewAt(Point(x: 110, y: 110), in: s.views), "inner")
        XCTAssertEqual(
            HitTesting.viewAt(Point(x: 190, y: 190), in: s.views), "front", "later sibling wins over the one behind")
        XCTAssertEqual(HitTesting.viewAt(Point(x: 50, y: 50), in: s.views), "back")
        XCTAssertNil(HitTesting.viewAt(Point(x: 500, y: 50), in: s.views), "outside every window")
    }

    func testHitTestSkipsHiddenDisabledAndTransparent() throws {
        for (k, v): (String, JSON) in [("isHidden", true), ("isUserInteractionEnabled", false), ("alpha", 0.009)] {
            let s = try hierarchy([
                ["id": "back", "class": "UIButton", "frame": [0, 0, 200, 200]],
                [
                    "id": "cover", "class": "UIView", "frame": [0, 0, 200, 200], k: v,
                    "children": [
                        ["id": "kid", "class": "UIButton", "frame": [0, 0, 200, 200]]
                    ],
                ],
            ])
            XCTAssertEqual(
                HitTesting.viewAt(Point(x: 10, y: 10), in: s.views), "back",
                "\(k) = \(v) must be skipped with its subtree")
        }
        let s = try hierarchy([
            ["id": "back", "class": "UIButton", "frame": [0, 0, 200, 200]],
            ["id": "faint", "class": "UIButton", "frame": [0, 0, 200, 200], "alpha": 0.01],
        ])
        XCTAssertEqual(HitTesting.viewAt(Point(x: 10, y: 10), in: s.views), "faint", "alpha exactly 0.01 is hit (R111)")
    }

    func testHitTestNeverOutsideParentBounds() throws {
        let s = try hierarchy([
            [
                "id": "box", "class": "UIView", "frame": [0, 0, 100, 100],
                "children": [
                    ["id": "over", "class": "UIButton", "frame": [50, 50, 200, 200]]
                ],
            ]
        ])
        XCTAssertEqual(HitTesting.viewAt(Point(x: 60, y: 60), in: s.views), "over")
        XCTAssertEqual(
            HitTesting.viewAt(Point(x: 150, y: 150), in: s.views), "w", "the overflowing part is not hit (R113)")
    }

    func testImageViewAndLabelIgnoreTouchesByDefault() throws {
        let s = try hierarchy([
            ["id": "img", "class": "UIImageView", "frame": [0, 0, 50, 50], "accessibilityLabel": "Photo"],
            ["id": "lbl", "class": "UILabel", "frame": [100, 0, 50, 50], "text": "L"],
            ["id": "v", "class": "UIView", "frame": [200, 0, 50, 50]],
        ])
        XCTAssertEqual(
            HitTesting.viewAt(Point(x: 10, y: 10), in: s.views), "w",
            "UIImageView defaults to no user interaction (R116)")
        XCTAssertEqual(HitTesting.viewAt(Point(x: 110, y: 10), in: s.views), "w")
        XCTAssertEqual(
            HitTesting.viewAt(Point(x: 210, y: 10), in: s.views), "v", "UIView defaults to user interaction on (A1)")
        XCTAssertFalse(HitTesting.isHittable("img", tree: s.tree, views: s.views))
    }

    func testAccessibilityHitTestReturnsAnElement() throws {
        let s = try hierarchy([
            [
                "id": "grp", "class": "UIView", "frame": [0, 0, 400, 200],
                "accessibilityContainerType": "semanticGroup",
                "children": [
                    ["id": "b", "class": "UIButton", "frame": [10, 10, 50, 50], "title": "B"]
                ],
            ]
        ])
        XCTAssertEqual(HitTesting.elementAt(Point(x: 20, y: 20), tree: s.tree), "b")
        let other = HitTesting.elementAt(Point(x: 300, y: 100), tree: s.tree)
        XCTAssertNotEqual(other, "b")
    }

    // MARK: Reading order

    func items(_ frames: [(String, Rect)]) -> [Deriver.Item] { frames.map { Deriver.Item(id: $0.0, frame: $0.1) } }

    func testReadingOrderRowsThenLeadingToTrailing() {
        let d = Deriver()
        let its = items([
            ("d", Rect(x: 200, y: 100, width: 50, height: 40)), ("a", Rect(x: 0, y: 0, width: 50, height: 40)),
            ("c", Rect(x: 0, y: 100, width: 50, height: 40)), ("b", Rect(x: 200, y: 0, width: 50, height: 40)),
        ])
        XCTAssertEqual(d.readingOrder(its, rtl: false).map(\.id), ["a", "b", "c", "d"])
        XCTAssertEqual(d.readingOrder(its, rtl: true).map(\.id), ["b", "a", "d", "c"])
    }

    func testReadingOrderRowTolerance() {
        let d = Deriver()
        // Row anchor: height 40, centre y 20. Centres within 20 pt join the row; farther ones start a new row.
        let inRow = items([
            ("high-right", Rect(x: 200, y: 0, width: 50, height: 40)),
            ("low-left", Rect(x: 0, y: 20, width: 50, height: 40)),
        ])
        XCTAssertEqual(d.readingOrder(inRow, rtl: false).map(\.id), ["low-left", "high-right"])
        let newRow = items([
            ("high-right", Rect(x: 200, y: 0, width: 50, height: 40)),
            ("low-left", Rect(x: 0, y: 21, width: 50, height: 40)),
        ])
        XCTAssertEqual(d.readingOrder(newRow, rtl: false).map(\.id), ["high-right", "low-left"])
    }

    func testReadingOrderTiesKeepSubviewOrder() {
        let d = Deriver()
        let same = Rect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertEqual(
            d.readingOrder(items([("z", same), ("a", same), ("m", same)]), rtl: false).map(\.id), ["z", "a", "m"])
    }

    func testReadingOrderIsAPermutation() {
        var rng = SeededRNG(seed: 99)
        let d = Deriver()
        for _ in 0..<200 {
            let n = Int.random(in: 0...30, using: &rng)
            let its = items(
                (0..<n).map { i in
                    (
                        "e\(i)",
                        Rect(
                            x: Double(Int.random(in: 0...300, using: &rng)),
                            y: Double(Int.random(in: 0...600, using: &rng)),
                            width: Double(Int.random(in: 0...80, using: &rng)),
                            height: Double(Int.random(in: 0...60, using: &rng)))
                    )
                })
            let out = d.readingOrder(its, rtl: Bool.random(using: &rng)).map(\.id)
            XCTAssertEqual(out.sorted(), its.map(\.id).sorted(), "every item appears exactly once (R104)")
        }
    }

    /// The one-pass check that skips the sort must agree with the sort on every input: random ones (mostly
    /// unsorted), the sort's own outputs, and grid layouts in subview order (sorted, the common case).
    func testReadingOrderFastPathAgreesWithTheSort() {
        var rng = SeededRNG(seed: 7)
        let d = Deriver()
        var fastTaken = 0
        for round in 0..<600 {
            let n = Int.random(in: 2...25, using: &rng)
            let rtl = Bool.random(using: &rng)
            var its: [Deriver.Item]
            if round % 3 == 2 {
                // A grid in subview order, rows of random length, jittered within the row tolerance at times.
                let cols = Int.random(in: 1...6, using: &rng)
                its = items(
                    (0..<n).map { i in
                        let x = Double((rtl ? cols - 1 - i % cols : i % cols) * 60)
                        let y = Double(i / cols * 50)
                        let jitter = Double(Int.random(in: -3...3, using: &rng))
                        return ("g\(i)", Rect(x: x, y: y + jitter, width: 50, height: 40))
                    })
            } else {
                its = items(
                    (0..<n).map { i in
                        (
                            "e\(i)",
                            Rect(
                                x: Double(Int.random(in: 0...300, using: &rng)),
                                y: Double(Int.random(in: 0...600, using: &rng)),
                                width: Double(Int.random(in: 0...80, using: &rng)),
                                height: Double(Int.random(in: 0...60, using: &rng)))
                        )
                    })
                if round % 3 == 1 { its = d.sortedReadingOrder(its, rtl: rtl) }
            }
            if Deriver.isInReadingOrder(its, rtl: rtl) { fastTaken += 1 }
            XCTAssertEqual(
                d.readingOrder(its, rtl: rtl).map(\.id), d.sortedReadingOrder(its, rtl: rtl).map(\.id), "round \(round)"
            )
        }
        XCTAssertGreaterThan(fastTaken, 100, "the fast path was exercised")
    }
}
