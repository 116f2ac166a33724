import AXCore
import XCTest

/// Numbers a provider may send (any finite JSON number) must never trap in a conversion (issue 12 item 1).
final class HostileNumberTests: XCTestCase {
    /// `Int(v)` traps from 2^63 on: huge values are printed as they are.
    func testFormatNumberOfHugeValues() {
        XCTAssertEqual(ControlSemantics.formatNumber(1e300), "\(1e300)")
        XCTAssertEqual(ControlSemantics.formatNumber(-1e300), "\(-1e300)")
        XCTAssertEqual(ControlSemantics.formatNumber(9.3e18), "\(9.3e18)")
        XCTAssertEqual(ControlSemantics.formatNumber(42), "42")
        XCTAssertEqual(ControlSemantics.formatNumber(0.125), "0.13")
    }

    /// A range as wide as Double allows: the difference overflows to infinity (then NaN); still a percentage.
    func testPercentOverTheWidestRange() {
        XCTAssertEqual(ControlSemantics.percent(1e308, min: -1e308, max: 1e308), "100%")
        XCTAssertEqual(ControlSemantics.percent(0, min: -1e308, max: 1e308), "50%")
        XCTAssertEqual(ControlSemantics.percent(-1e308, min: -1e308, max: 1e308), "0%")
        let tiniest = Double.leastNonzeroMagnitude
        XCTAssertEqual(ControlSemantics.percent(tiniest, min: 0, max: tiniest), "100%")
        XCTAssertEqual(ControlSemantics.percent(0.5, min: 0, max: 1), "50%")
    }

    /// End to end: a slider whose value and range are extreme derives a value without trapping.
    func testExtremeSliderDerives() throws {
        let store = HierarchyStore()
        _ = try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        [
                            "id": "s", "class": "UISlider", "frame": [0, 0, 200, 30], "value": 1e300,
                            "minimumValue": -1e308, "maximumValue": 1e308,
                        ],
                        ["id": "p", "class": "UIProgressView", "frame": [0, 40, 200, 10], "progress": 1e300],
                    ],
                ]
            ]
        ])
        XCTAssertNotNil(store.tree["s"]?.value)
    }
}
