import AXCore
import AXJSON
import XCTest

/// Issue 19 item 2 (D-REL-2): each transform is bounded but what nested transforms compose to was not; frames
/// near 10²⁴ trapped every Double → Int conversion on the output paths. Composed frames are saturated.
final class ComposedGeometryTests: XCTestCase {
    /// `depth` nested views, each scaled by `scale` (and translated), around a button and a label.
    static func nested(depth: Int = 4, scale: Double = 999_999, translate: Double = 9_999_999) -> JSON {
        var inner: JSON = [
            "id": "leaf", "class": "UIView", "frame": [10, 10, 100, 40],
            "children": [
                ["id": "deep-button", "class": "UIButton", "title": "Far", "frame": [0, 0, 50, 20]],
                ["id": "deep-label", "class": "UILabel", "text": "Far away", "frame": [0, 20, 50, 20]],
            ],
        ]
        for level in 0..<depth {
            inner = [
                "id": .string("v\(level)"), "class": "UIView", "frame": [5, 5, 300, 300],
                "transform": ["scaleX": .number(scale), "scaleY": .number(-scale), "translateX": .number(translate)],
                "children": [inner],
            ]
        }
        return [
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        ["id": "near", "class": "UIButton", "title": "Near", "frame": [0, 0, 80, 40]], inner,
                    ],
                ]
            ]
        ]
    }

    func testComposedFramesAreSaturatedToTheBound() throws {
        let store = HierarchyStore()
        _ = try store.setSnapshot(Self.nested())
        let bound = GeometryBounds.maxComposedCoordinate
        var checked = 0
        for id in ["deep-button", "deep-label", "leaf", "v0", "v3"] {
            guard let node = store.tree[id] else { continue }
            checked += 1
            XCTAssertTrue(node.frame.isFinite, "\(id): \(node.frame)")
            for value in [node.frame.minX, node.frame.minY, node.frame.maxX, node.frame.maxY] {
                XCTAssertLessThanOrEqual(abs(value), bound, "\(id): \(node.frame)")
            }
            XCTAssertGreaterThanOrEqual(node.frame.width, 0)
        }
        XCTAssertGreaterThan(checked, 0)
        XCTAssertEqual(store.tree["near"]?.frame, Rect(x: 0, y: 0, width: 80, height: 40), "ordinary frames unchanged")
    }

    func testSaturatingConversionsNeverTrap() {
        XCTAssertEqual(1e24.saturatingInt, .max)
        XCTAssertEqual((-1e24).saturatingInt, .min)
        XCTAssertEqual(Double(Int.max).saturatingInt, .max)
        XCTAssertEqual(Double.nan.saturatingInt, 0)
        XCTAssertEqual(Double.infinity.saturatingInt32, .max)
        XCTAssertEqual((-2.5e9).saturatingInt32, .min)
        XCTAssertEqual(41.6.saturatingInt32, 42)
        XCTAssertEqual(1e30.saturatingTruncatedInt, .max)
        XCTAssertEqual(7.9.saturatingTruncatedInt, 7)
        XCTAssertEqual(
            Rect(x: -1e24, y: .nan, width: 2e24, height: 5).saturated, Rect(x: -1e9, y: 0, width: 2e9, height: 0))
    }

    /// Hit testing and focus search over the composed geometry answer without trapping.
    func testHitTestingAndFocusSearchOverComposedGeometry() throws {
        let store = HierarchyStore()
        _ = try store.setSnapshot(Self.nested(depth: 6))
        XCTAssertEqual(HitTesting.elementAt(Point(x: 10, y: 10), tree: store.tree), "near")
        for point in [Point(x: 1e9, y: -1e9), Point(x: 5e8, y: 5e8), Point(x: -1e9, y: 1e9), Point(x: 1e20, y: 1e20)] {
            _ = HitTesting.elementAt(point, tree: store.tree)
            _ = HitTesting.viewAt(point, in: store.views)
        }
        _ = HitTesting.isHittable("deep-button", tree: store.tree, views: store.views)
    }
}
