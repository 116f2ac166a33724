import AXJSON
import XCTest

@testable import AXCore

/// The store's debug-build contracts (Sources/AXCore/Store/Invariants.swift) hold on real hierarchies and fail on
/// broken ones (the checks can fail).
final class InvariantTests: XCTestCase {
    static let snapshot: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100],
                "children": [
                    ["id": "a", "class": "UIView", "children": [["id": "b", "class": "UILabel", "text": "B"]]],
                    ["id": "c", "class": "UIButton", "accessibilityLabel": "C"],
                ],
            ]
        ]
    ]

    func testAPatchedHierarchyIsATree() throws {
        let store = HierarchyStore()
        try store.setSnapshot(Self.snapshot)
        try store.apply(json: [["op": "move", "id": "b", "parent": "c", "index": 0]])
        XCTAssertTrue(store.views.isTree(around: ["w", "a", "b", "c"]))
    }

    func testABrokenParentLinkIsNotATree() throws {
        var views = try ViewHierarchy.fromSnapshot(Self.snapshot)
        var label = try XCTUnwrap(views.nodes["b"])
        label.parent = "c"  // c does not list b
        views.nodes["b"] = label
        XCTAssertFalse(views.isTree(around: ["b"]))
    }

    func testACycleIsNotATree() throws {
        var views = try ViewHierarchy.fromSnapshot(Self.snapshot)
        var container = try XCTUnwrap(views.nodes["a"])
        container.parent = "b"
        views.nodes["a"] = container
        var label = try XCTUnwrap(views.nodes["b"])
        label.children = ["a"]
        views.nodes["b"] = label
        XCTAssertFalse(views.isTree(around: ["a"]))
    }

    func testRevisionsOnlyGrow() throws {
        let store = HierarchyStore()
        let first = try store.setSnapshot(Self.snapshot)
        let second = try store.apply(json: [["op": "set", "id": "c", "properties": ["accessibilityLabel": "D"]]])
        XCTAssertTrue(
            HierarchyStore.committed(second, tree: store.tree, revision: store.revision, previousRevision: 1))
        XCTAssertFalse(
            HierarchyStore.committed(first, tree: store.tree, revision: store.revision, previousRevision: 1),
            "a change set of an older revision does not pass")
        XCTAssertFalse(
            HierarchyStore.committed(second, tree: store.tree, revision: store.revision, previousRevision: 2))
    }
}
