import AXATSPIModel
import AXCore
import AXJSON
import XCTest

/// Issue 19 item 2 (D-REL-2): `Component.GetExtents` over frames composed from nested transforms (near 10²⁴)
/// trapped in `clampedInt32` the moment Orca asked; extents now saturate, and every answer stays in Int32.
final class ComposedExtentsTests: XCTestCase {
    func testExtentsOfNestedScaledViewsSaturate() throws {
        var inner: JSON = ["id": "far", "class": "UIButton", "title": "Far", "frame": [0, 0, 50, 20]]
        for level in 0..<4 {
            inner = [
                "id": .string("v\(level)"), "class": "UIView", "frame": [5, 5, 300, 300],
                "transform": ["scaleX": 999_999, "scaleY": -999_999, "translateX": 9_999_999],
                "children": [inner],
            ]
        }
        let snapshot = try Snapshots.served([
            "windows": [["id": "w", "class": "UIWindow", "frame": [100, 50, 400, 800], "children": [inner]]]
        ])
        let far = try Snapshots.node("far", in: snapshot)
        let model = ComponentModel(snapshot: snapshot)
        for coordinateType in [ATSPICoordinateType.screen, .window, .parent] {
            let extents = model.extents(of: far, coordinateType: coordinateType)
            XCTAssertGreaterThanOrEqual(extents.width, 0, "\(coordinateType): \(extents)")
            XCTAssertGreaterThanOrEqual(extents.height, 0, "\(coordinateType): \(extents)")
        }
        _ = model.contains(far, x: .max, y: .min, coordinateType: .screen)
        let window = try Snapshots.node("w", in: snapshot)
        _ = model.accessibleAtPoint(in: window, x: .max, y: .max, coordinateType: .window)
        XCTAssertEqual(clampedInt32(1e24), .max)
        XCTAssertEqual(clampedInt32(-1e20), .min)
        XCTAssertEqual(clampedInt32(.nan), 0)
    }
}
