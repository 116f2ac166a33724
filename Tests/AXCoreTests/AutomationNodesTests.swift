import AXJSON
import XCTest

@testable import AXCore

/// D-AUTO-1: views listed only in `automationElements` become automation-only nodes of an augmented tree, with
/// their screen frame through scrolled and scaled ancestors; the derived tree is not touched.
final class AutomationNodesTests: XCTestCase {
    func testAugmentedTreeHasTheListedViewsAndTheDerivedTreeDoesNot() throws {
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        [
                            "id": "scroll", "class": "UIScrollView", "frame": [0, 100, 400, 400],
                            "contentOffset": [0, 50],
                            "children": [
                                [
                                    "id": "row", "class": "UIView", "frame": [0, 100, 400, 60],
                                    "isAccessibilityElement": true, "accessibilityLabel": "Row",
                                    "automationElements": ["delete", "missing"],
                                    "children": [
                                        [
                                            "id": "delete", "class": "UIButton", "title": "Delete",
                                            "frame": [300, 10, 80, 40],
                                        ]
                                    ],
                                ]
                            ],
                        ]
                    ],
                ]
            ]
        ])
        XCTAssertNil(store.tree["delete"])
        let augmented = AutomationNodes.augment(store.tree, views: store.views)
        let node = try XCTUnwrap(augmented["delete"])
        XCTAssertEqual(node.parent, "row")
        XCTAssertEqual(node.label, "Delete")
        XCTAssertEqual(node.role, .button)
        XCTAssertFalse(node.isElement)
        XCTAssertTrue(node.states.contains(.automationOnly))
        // 100 (scroll) + 100 (row) + 10 − 50 (content offset).
        XCTAssertEqual(node.frame, Rect(x: 300, y: 160, width: 80, height: 40))
        XCTAssertEqual(augmented["row"]?.children, store.tree["row"]?.children, "the listing's children are unchanged")
        XCTAssertEqual(AutomationNodes.children(of: try XCTUnwrap(augmented["row"]), in: augmented), ["delete"])
        XCTAssertEqual(augmented.navigationOrder(), store.tree.navigationOrder())
        XCTAssertNil(augmented["missing"], "a listed id with no view builds nothing")
        XCTAssertEqual(AutomationNodes.augment(augmented, views: store.views).count, augmented.count)
    }
}
