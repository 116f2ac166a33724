import AXATSPIModel
import AXCore
import AXJSON
import XCTest

/// D-HIT-1 on AT-SPI: `GetAccessibleAtPoint` asks the same hit-testing rule as `action.tap` when it has the views,
/// so a plain view in front hides what lies behind it, and a label drawn over a button is found.
final class AccessibleAtPointTests: XCTestCase {
    static let hierarchy: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                "children": [
                    ["id": "pay", "class": "UIButton", "title": "Pay", "frame": [10, 10, 100, 44]],
                    ["id": "cover", "class": "UIView", "frame": [0, 0, 400, 60]],
                    ["id": "buy", "class": "UIButton", "title": "Buy", "frame": [10, 200, 200, 44]],
                    ["id": "badge", "class": "UILabel", "text": "New", "frame": [150, 200, 60, 20]],
                ],
            ]
        ]
    ]

    func testCoveredButtonIsNotFoundWithViewsAndIsByFramesAlone() throws {
        let store = HierarchyStore()
        try store.setSnapshot(Self.hierarchy)
        let served = ServedSnapshot(tree: store.tree, applicationName: "Checkout")
        let model = ComponentModel(snapshot: served)
        let window = try XCTUnwrap(store.tree["w"])
        // With the views (the bridge's normal case): the cover in front hides Pay.
        XCTAssertNil(model.accessibleAtPoint(in: window, x: 60, y: 32, coordinateType: .screen, views: store.views))
        XCTAssertEqual(
            model.accessibleAtPoint(in: window, x: 160, y: 205, coordinateType: .screen, views: store.views), "badge")
        XCTAssertEqual(
            model.accessibleAtPoint(in: window, x: 30, y: 220, coordinateType: .screen, views: store.views), "buy")
        // Without them (a change in flight), frames decide, as before.
        XCTAssertEqual(model.accessibleAtPoint(in: window, x: 60, y: 32, coordinateType: .screen), "pay")
    }
}
