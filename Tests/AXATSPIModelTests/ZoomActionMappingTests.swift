import AXATSPIModel
import AXCore
import XCTest

/// D-ZOOM-1 on AT-SPI: a `supportsZoom` element lists `zoom-in` and `zoom-out` after its other standard actions, and
/// `DoAction` on them asks the app to zoom at the element's centre; other elements list neither.
final class ZoomActionMappingTests: XCTestCase {
    func testSupportsZoomAddsTwoActionEntries() throws {
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        [
                            "id": "map", "class": "UIButton", "title": "Map", "frame": [0, 0, 300, 300],
                            "accessibilityTraits": ["button", "supportsZoom"],
                        ],
                        ["id": "ok", "class": "UIButton", "title": "OK", "frame": [0, 400, 80, 40]],
                    ],
                ]
            ]
        ])
        let map = try XCTUnwrap(store.tree["map"])
        let entries = ATSPIMapping.actions(map, context: ATSPIContext.of(map, in: store.tree))
        XCTAssertEqual(entries.map(\.name), ["click", "zoom-in", "zoom-out"])
        XCTAssertEqual(entries.map { ActionModel.request(for: $0) }, [.activate, .zoomIn(at: nil), .zoomOut(at: nil)])
        let ok = try XCTUnwrap(store.tree["ok"])
        XCTAssertEqual(ATSPIMapping.actions(ok, context: ATSPIContext.of(ok, in: store.tree)).map(\.name), ["click"])
    }
}
