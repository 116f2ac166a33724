import AXCore
import AXJSON
import XCTest

/// Issue 19 item 5 (D-REL-5): one `hierarchy.update` of 100,000 inserts held its event loop for 27.5 s: each
/// insert copied its parent's whole child list (quadratic), and the update had no bound tighter than 100,000 ops.
final class LargeUpdateTests: XCTestCase {
    static func inserts(_ count: Int, from start: Int = 0) -> JSON {
        .array(
            (start..<(start + count)).map { index -> JSON in
                [
                    "op": "insert", "parent": "list",
                    "view": ["id": .string("row\(index)"), "class": "UILabel", "text": "r", "frame": [0, 0, 10, 10]],
                ]
            })
    }

    func store() throws -> HierarchyStore {
        let store = HierarchyStore()
        _ = try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [["id": "list", "class": "UIView", "frame": [0, 0, 400, 800]]],
                ]
            ]
        ])
        return store
    }

    func testAnUpdateOverTheOpLimitIsRefusedSayingHowToSplitIt() throws {
        let store = try store()
        let limit = Limits.maxOpsPerPatch
        XCTAssertThrowsError(try store.apply(json: Self.inserts(limit + 1))) { error in
            let patchError = error as? PatchError
            XCTAssertEqual(patchError?.kind, .tooLarge)
            XCTAssertTrue(patchError?.message.contains("split") ?? false, "\(String(describing: patchError))")
            XCTAssertTrue(patchError?.message.contains("\(limit)") ?? false)
        }
        XCTAssertEqual(store.revision, 1, "nothing applied")
    }

    /// Inserting into one parent costs per insert, not per child already there: ten updates of the maximum size
    /// into one parent (100,000 children) each take about as long as the first (they took ~10× longer).
    func testInsertsIntoALargeParentStayLinear() throws {
        let store = try store()
        let limit = Limits.maxOpsPerPatch
        let clock = ContinuousClock()
        var durations: [Duration] = []
        for round in 0..<10 {
            let ops = Self.inserts(limit, from: round * limit)
            let start = clock.now
            try store.apply(json: ops)
            durations.append(clock.now - start)
        }
        XCTAssertEqual(store.views["list"]?.children.count, 10 * limit)
        let first = durations[0...1].min()!
        let last = durations[8...9].min()!
        print("LargeUpdateTests: first update \(first), last update \(last)")
        XCTAssertLessThan(last, first * 4, "the 10th update into the same parent took \(last), the first \(first)")
    }
}
