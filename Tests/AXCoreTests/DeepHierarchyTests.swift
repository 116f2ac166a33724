import AXCore
import AXJSON
import XCTest

/// The hierarchy may be as deep as `Limits.maxDepth` (256); every part of the core must cope with that depth,
/// including on the small stacks of Swift concurrency threads, where the server runs requests.
final class DeepHierarchyTests: XCTestCase {
    static func chainOps(_ n: Int, under root: String = "w") -> JSON {
        .array(
            (1...n).map { key in
                [
                    "op": "insert", "parent": .string(key == 1 ? root : "v\(key - 1)"),
                    "view": [
                        "id": .string("v\(key)"), "class": .string(key == n ? "UIButton" : "UIView"),
                        "frame": [0, 0, 10, 10], "title": "Leaf",
                    ],
                ]
            })
    }

    static func deepStore() throws -> HierarchyStore {
        let store = HierarchyStore()
        try store.setSnapshot(["windows": [["id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800]]]])
        try store.apply(json: Self.chainOps(Limits.maxDepth - 1))
        return store
    }

    func testMaximumDepthIsAccepted() throws {
        let store = try Self.deepStore()
        XCTAssertEqual(store.views.depth(of: "v255"), 256)
        XCTAssertEqual(store.tree["v255"]?.parent, "w", "transparent views lift the deep button to the window")
        XCTAssertEqual(store.tree["v255"]?.label, "Leaf")
    }

    func testOneLevelTooDeepIsRefusedAtomically() throws {
        let store = try Self.deepStore()
        let before = store.revision
        XCTAssertThrowsError(
            try store.apply(json: [["op": "insert", "parent": "v255", "view": ["id": "x", "class": "UIView"]]])
        ) { error in
            XCTAssertEqual((error as? PatchError)?.kind, .tooDeep)
            XCTAssertEqual((error as? PatchError)?.id, "x")
        }
        XCTAssertEqual(store.revision, before)
        XCTAssertNil(store.views["x"])
    }

    func testMaximumDepthOnAConcurrencyThread() async throws {
        // Requests run on the cooperative pool, not on the main thread: the whole depth must fit there too.
        let ok = await Task.detached { () -> Bool in
            guard let store = try? DeepHierarchyTests.deepStore() else { return false }
            guard
                (try? store.apply(json: [["op": "set", "id": "v1", "properties": ["frame": [5, 5, 10, 10]]]])) != nil
            else { return false }
            guard IncrementalDerivationTests.difference(store.tree, store.rebuild()) == nil else { return false }
            guard HitTesting.viewAt(Point(x: 6, y: 6), in: store.views) != nil else { return false }
            _ = HitTesting.elementAt(Point(x: 6, y: 6), tree: store.tree)
            guard (try? store.apply(json: [["op": "remove", "id": "v1"]])) != nil else { return false }
            return store.tree["v255"] == nil
        }.value
        XCTAssertTrue(ok)
    }
}
