import AXCore
import XCTest

@testable import AXQuery

/// The page-source walk's set of written boxes (D-PERF-8): every box inserted is found, no other is, a second
/// insert says so, and the set grows past the capacity it was made for without losing one.
final class BoxSetTests: XCTestCase {
    static func box(_ id: String) -> Box<AXNode> {
        Box(
            AXNode(
                id: id, viewID: id, className: "UIView", viewClass: .view, role: .group, isElement: false,
                windowID: "w"))
    }

    func testInsertContainsAndGrowth() {
        let boxes = (0..<5_000).map { Self.box("n\($0)") }
        let others = (0..<5_000).map { Self.box("o\($0)") }
        var set = BoxSet(capacity: 100)
        for (index, box) in boxes.enumerated() {
            XCTAssertTrue(set.insert(box), "first insert of \(index)")
            if index % 7 == 0 { XCTAssertFalse(set.insert(box), "second insert of \(index)") }
        }
        for box in boxes { XCTAssertTrue(set.contains(box)) }
        XCTAssertFalse(others.contains { set.contains($0) }, "a box never inserted was found")
        var small = BoxSet(capacity: 0)
        XCTAssertFalse(small.contains(boxes[0]))
        XCTAssertTrue(small.insert(boxes[0]))
        XCTAssertTrue(small.contains(boxes[0]))
        XCTAssertFalse(small.contains(boxes[1]))
    }
}
