import AXJSON
import XCTest

@testable import AXCore

/// D-ZOOM-1: `supportsZoom` elements take zoomIn / zoomOut, routed to their view with the centre in the element's own
/// coordinate space; other elements refuse them with what they support.
final class ZoomActionTests: XCTestCase {
    static let hierarchy: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                "children": [
                    [
                        "id": "photo", "class": "PhotoView", "frame": [20, 100, 300, 200],
                        "isAccessibilityElement": true, "accessibilityLabel": "Photo",
                        "accessibilityTraits": ["image", "supportsZoom"],
                    ],
                    ["id": "ok", "class": "UIButton", "title": "OK", "frame": [10, 500, 80, 40]],
                    [
                        "id": "off", "class": "UIButton", "title": "Zoomable", "frame": [20, 600, 100, 100],
                        "isEnabled": false, "accessibilityTraits": ["button", "supportsZoom"],
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

    func route(_ action: ElementAction, _ id: String) throws(ActionRouteFailure) -> ActionRoute {
        try ActionRouting.route(action, from: store.tree[id], tree: store.tree, views: store.views)
    }

    func testSupportsZoomListsBothZoomActions() {
        XCTAssertEqual(store.tree["photo"]?.actions.filter { $0 == .zoomIn || $0 == .zoomOut }, [.zoomIn, .zoomOut])
        XCTAssertEqual(store.tree["ok"]?.actions, [.activate])
    }

    func testTheCentreIsSentInTheElementsCoordinateSpace() throws {
        let centred = try route(.zoomIn(at: nil), "photo")
        XCTAssertEqual(centred.action, .zoomIn(at: Point(x: 150, y: 100)))
        XCTAssertEqual(centred.handlers, [ActionHandler(target: "photo", element: "photo")])
        let pointed = try route(.zoomOut(at: Point(x: 30, y: 110)), "photo")
        XCTAssertEqual(pointed.action, .zoomOut(at: Point(x: 10, y: 10)))
        XCTAssertEqual(pointed.action.name, "zoomOut")
    }

    func testElementsWithoutSupportsZoomOrDisabledRefuse() {
        XCTAssertThrowsError(try route(.zoomIn(at: nil), "ok")) { error in
            XCTAssertEqual(error as? ActionRouteFailure, .notSupported(action: "zoomIn", supported: ["activate"]))
        }
        XCTAssertThrowsError(try route(.zoomOut(at: nil), "off")) { error in
            XCTAssertEqual(error as? ActionRouteFailure, .disabled)
        }
    }
}
