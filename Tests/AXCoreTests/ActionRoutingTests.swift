import AXJSON
import XCTest

@testable import AXCore

/// UIKit's action semantics over a served tree (ActionRouting): bubbling routes (X30, X32, X33), what an element
/// takes (D-ACT-1), actionability (D-ACT-2) and tap resolution (R111–R114).
final class ActionRoutingTests: XCTestCase {
    /// A window with a modal sheet (OK button, a disabled Delete button, a slider, a row with a custom action),
    /// a settings cell whose switch takes its actions, an off-screen button, and a button covered by a banner.
    static let hierarchy: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                "children": [
                    [
                        "id": "table", "class": "UITableView", "frame": [0, 500, 400, 300],
                        "children": [
                            [
                                "id": "cell", "class": "UITableViewCell", "frame": [0, 0, 400, 44],
                                "children": [
                                    ["id": "label", "class": "UILabel", "text": "Wi-Fi", "frame": [16, 0, 200, 44]],
                                    ["id": "wifi", "class": "UISwitch", "isOn": true, "frame": [330, 6, 51, 31]],
                                ],
                            ]
                        ],
                    ],
                    ["id": "far", "class": "UIButton", "title": "Far", "frame": [900, 10, 80, 40]],
                    ["id": "covered", "class": "UIButton", "title": "Covered", "frame": [10, 420, 80, 40]],
                    ["id": "banner", "class": "UIView", "frame": [0, 400, 400, 80]],
                    [
                        "id": "sheet", "class": "UIView", "frame": [0, 0, 400, 400],
                        "children": [
                            [
                                "id": "group", "class": "UIView", "frame": [0, 0, 400, 200],
                                "children": [
                                    ["id": "ok", "class": "UIButton", "title": "OK", "frame": [10, 10, 80, 40]],
                                    [
                                        "id": "delete", "class": "UIButton", "title": "Delete", "isEnabled": false,
                                        "frame": [100, 10, 80, 40],
                                    ],
                                ],
                            ],
                            [
                                "id": "slider", "class": "UISlider", "value": 0.5, "frame": [10, 260, 200, 30],
                                "accessibilityLabel": "Level",
                            ],
                            [
                                "id": "row", "class": "UIView", "frame": [0, 300, 400, 44],
                                "isAccessibilityElement": true,
                                "accessibilityLabel": "Mail",
                                "accessibilityCustomActions": [["id": "fav", "name": "Favorite"]],
                            ],
                        ],
                    ],
                ],
            ]
        ]
    ]

    var store: HierarchyStore!

    override func setUpWithError() throws {
        store = HierarchyStore()
        try store.setSnapshot(Self.hierarchy)
    }

    func route(_ action: ElementAction, _ id: String?) throws(ActionRouteFailure) -> ActionRoute {
        let node = id.flatMap { store.tree[$0] }
        return try ActionRouting.route(action, from: node, tree: store.tree, views: store.views)
    }

    func handlers(_ ids: [(String, String?)]) -> [ActionHandler] {
        ids.map { ActionHandler(target: $0.0, element: $0.1) }
    }

    /// X32, X33: the element, every ancestor view (exposed or not), then the application.
    func testEscapeAndMagicTapBubbleThroughEveryAncestorToTheApp() throws {
        // The window is an accessibility container, so its request names it as the element; group and sheet are not.
        let expected = handlers([("ok", "ok"), ("group", nil), ("sheet", nil), ("w", "w"), ("", nil)])
        XCTAssertEqual(try route(.escape, "ok").handlers, expected)
        XCTAssertEqual(try route(.magicTap, "ok").handlers, expected)
        XCTAssertEqual(try route(.magicTap, "ok").action, .magicTap)
    }

    /// With nothing focused, escape goes to the application alone (X32).
    func testEscapeWithoutAnElementGoesToTheApp() throws {
        XCTAssertEqual(try route(.escape, nil).handlers, handlers([("", nil)]))
    }

    /// A cell acting for its switch: the switch first, then the cell, then the cell's ancestors.
    func testACellActingForItsControlIsAskedRightAfterIt() throws {
        XCTAssertEqual(store.tree["cell"]?.actionTarget, "wifi", "fixture: the cell forwards to its switch")
        XCTAssertEqual(
            try route(.escape, "cell").handlers,
            handlers([("wifi", "cell"), ("cell", "cell"), ("table", "table"), ("w", "w"), ("", nil)]))
    }

    /// X30: scroll is offered to the element's own view and every view ancestor, never the app.
    func testScrollBubblesUpTheViewAncestors() throws {
        let route = try route(.scroll(.down), "ok")
        XCTAssertEqual(route.handlers, handlers([("ok", nil), ("group", nil), ("sheet", nil), ("w", nil)]))
        XCTAssertEqual(route.action, .scroll(.down))
    }

    /// D-ACT-1: a custom action named by its name is sent by its id, to the element's view.
    func testCustomActionByNameIsSentByID() throws {
        let route = try route(.custom("Favorite"), "row")
        XCTAssertEqual(route.action, .custom("fav"))
        XCTAssertEqual(route.handlers, handlers([("row", "row")]))
        XCTAssertEqual(try self.route(.custom("fav"), "row").action, .custom("fav"))
    }

    /// D-ACT-1: actions the element does not list are refused with what it supports; disabled elements refuse.
    func testUnsupportedAndDisabledActionsHaveNoRoute() {
        XCTAssertThrowsError(try route(.increment, "ok")) { error in
            XCTAssertEqual(
                error as? ActionRouteFailure, .notSupported(action: "increment", supported: ["activate"]))
        }
        XCTAssertThrowsError(try route(.custom("Archive"), "row")) { error in
            XCTAssertEqual(error as? ActionRouteFailure, .notSupported(action: "custom:Archive", supported: ["fav"]))
        }
        XCTAssertThrowsError(try route(.activate, "delete")) { error in
            XCTAssertEqual(error as? ActionRouteFailure, .disabled)
        }
        XCTAssertThrowsError(try route(.activate, nil)) { error in
            XCTAssertEqual(error as? ActionRouteFailure, .noElement)
        }
        XCTAssertEqual(try route(.increment, "slider").handlers, handlers([("slider", "slider")]))
    }

    /// D-ACT-2: visible, then enabled, then (activate only) hittable, naming the covering view.
    func testActionabilityChecksInOrder() throws {
        func failure(_ id: String, _ action: ElementAction) throws -> ActionabilityFailure? {
            let node = try XCTUnwrap(store.tree[id])
            return ActionRouting.actionabilityFailure(of: node, for: action, tree: store.tree, views: store.views)
        }
        XCTAssertNil(try failure("ok", .activate))
        XCTAssertEqual(try failure("far", .activate), .offscreen)
        XCTAssertEqual(try failure("delete", .activate), .disabled)
        XCTAssertEqual(try failure("covered", .activate), .notHittable(obscuredBy: "banner"))
        XCTAssertNil(try failure("covered", .scroll(.up)), "only activate is hit-tested")
        XCTAssertNil(try failure("far", .escape), "escape is not checked: it bubbles to whoever handles it")
    }

    /// R111–R114: a tap reaches the element of the hit view, an element child of a container, or nothing.
    func testTapResolution() {
        func tap(_ x: Double, _ y: Double) -> TapTarget {
            ActionRouting.tapTarget(at: Point(x: x, y: y), tree: store.tree, views: store.views)
        }
        XCTAssertEqual(tap(20, 20), .element("ok", view: "ok"))
        XCTAssertEqual(tap(300, 430), .notAnElement(view: "banner"))
        XCTAssertEqual(
            tap(20, 430), .notAnElement(view: "banner"),
            "D-HIT-1: the banner in front blocks the tap; the element behind it is a sibling, not on its chain")
        XCTAssertEqual(tap(340, 510), .element("cell", view: "wifi"), "the switch's tap lands on its cell")
        XCTAssertEqual(tap(-5, -5), .nothing)
    }
}
