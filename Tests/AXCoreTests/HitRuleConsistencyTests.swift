import AXJSON
import XCTest

@testable import AXCore

/// D-HIT-1: one hit-testing rule answers every route. For every element of two different apps, a tap at its
/// activation point reaches it exactly when it is hittable, and when it is not, the view named as obscuring it is
/// the view the tap reaches.
final class HitRuleConsistencyTests: XCTestCase {
    /// A checkout screen: a button under a plain banner, a button under a pass-through glass view, a label drawn
    /// over a button, a chart that draws virtual bars, and a toast covering one bar.
    static let checkout: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                "children": [
                    ["id": "pay", "class": "UIButton", "title": "Pay", "frame": [10, 10, 100, 44]],
                    ["id": "banner", "class": "UIView", "frame": [0, 0, 400, 60]],
                    ["id": "help", "class": "UIButton", "title": "Help", "frame": [10, 100, 100, 44]],
                    ["id": "glass", "class": "UIView", "frame": [0, 90, 400, 60], "isUserInteractionEnabled": false],
                    ["id": "buy", "class": "UIButton", "title": "Buy", "frame": [10, 200, 200, 44]],
                    ["id": "badge", "class": "UILabel", "text": "New", "frame": [150, 200, 60, 20]],
                    [
                        "id": "chart", "class": "ChartView", "frame": [0, 300, 400, 200],
                        "isAccessibilityElement": false,
                        "accessibilityElements": [
                            ["id": "jan", "accessibilityLabel": "January", "accessibilityFrame": [0, 300, 100, 200]],
                            [
                                "id": "feb", "accessibilityLabel": "February",
                                "accessibilityFrame": [100, 300, 100, 200],
                            ],
                        ],
                    ],
                    ["id": "toast", "class": "UIView", "frame": [100, 300, 120, 200]],
                ],
            ]
        ]
    ]

    func store(_ hierarchy: JSON) throws -> HierarchyStore {
        let store = HierarchyStore()
        try store.setSnapshot(hierarchy)
        return store
    }

    func assertRoutesAgree(_ store: HierarchyStore, file: StaticString = #filePath, line: UInt = #line) {
        let tree = store.tree
        let views = store.views
        for id in tree.navigationOrder() {
            guard let node = tree[id], node.isOnscreen else { continue }
            let hittable = HitTesting.isHittable(id, tree: tree, views: views)
            let tap = HitTesting.tapTarget(at: node.activationPoint, tree: tree, views: views)
            if case .element(let reached, _) = tap, reached == id {
                XCTAssertTrue(hittable, "\(id): a tap at its activation point reaches it", file: file, line: line)
            } else {
                XCTAssertFalse(hittable, "\(id): a tap reaches \(tap), so it is not hittable", file: file, line: line)
                let failure = ActionRouting.actionabilityFailure(of: node, for: .activate, tree: tree, views: views)
                let tapView: String? =
                    switch tap {
                    case .element(_, let view), .notAnElement(let view): view
                    case .nothing: nil
                    }
                // An element that lists no activate (an informational label, D-ACT-3) is refused as not supporting
                // it, not as covered.
                let expected: ActionabilityFailure? =
                    node.actions.contains(.activate) ? .notHittable(obscuredBy: tapView) : nil
                XCTAssertEqual(failure, expected, "\(id)", file: file, line: line)
            }
        }
    }

    func testCheckoutRoutesAgree() throws {
        let store = try store(Self.checkout)
        assertRoutesAgree(store)
        let tree = store.tree
        let views = store.views
        XCTAssertFalse(HitTesting.isHittable("pay", tree: tree, views: views), "under the plain banner")
        XCTAssertTrue(HitTesting.isHittable("help", tree: tree, views: views), "the glass lets touches through")
        XCTAssertEqual(
            HitTesting.tapTarget(at: Point(x: 160, y: 205), tree: tree, views: views), .element("buy", view: "buy"))
        XCTAssertEqual(HitTesting.elementAt(Point(x: 160, y: 205), tree: tree, views: views), "badge")
        XCTAssertEqual(HitTesting.elementAt(Point(x: 50, y: 400), tree: tree, views: views), "jan")
        XCTAssertFalse(HitTesting.isHittable("feb", tree: tree, views: views), "the toast covers February's centre")
        XCTAssertNil(HitTesting.elementAt(Point(x: 150, y: 400), tree: tree, views: views), "the toast hides it")
        XCTAssertNil(HitTesting.elementAt(Point(x: 50, y: 15), tree: tree, views: views), "the banner hides Pay")
    }

    func testSettingsRoutesAgree() throws {
        assertRoutesAgree(try store(ActionRoutingTests.hierarchy))
    }
}
