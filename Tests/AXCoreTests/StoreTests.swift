import AXCore
import AXJSON
import XCTest

/// The store: atomic patches, revisions and the change log.
final class StoreTests: XCTestCase {
    static let base: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                "children": [
                    ["id": "a", "class": "UIButton", "frame": [0, 0, 100, 44], "title": "A"],
                    [
                        "id": "box", "class": "UIView", "frame": [0, 100, 400, 200],
                        "children": [
                            ["id": "b", "class": "UIButton", "frame": [0, 0, 100, 44], "title": "B"]
                        ],
                    ],
                ],
            ]
        ]
    ]

    func store() throws -> HierarchyStore {
        let otherStore = HierarchyStore()
        try otherStore.setSnapshot(Self.base)
        return otherStore
    }

    func assertRefused(
        _ s: HierarchyStore, _ ops: JSON, kind: PatchError.Kind, opIndex: Int, id: String?,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let revision = s.revision
        let tree = s.tree
        let views = s.views
        do {
            try s.apply(json: ops)
            XCTFail("patch was accepted", file: file, line: line)
        } catch {
            XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
            XCTAssertEqual(error.opIndex, opIndex, file: file, line: line)
            XCTAssertEqual(error.id, id, file: file, line: line)
        }
        XCTAssertEqual(s.revision, revision, "a refused patch must not bump the revision", file: file, line: line)
        XCTAssertNil(IncrementalDerivationTests.difference(s.tree, tree), file: file, line: line)
        XCTAssertEqual(Set(s.views.nodes.keys), Set(views.nodes.keys), file: file, line: line)
        for (id, value) in views.nodes {
            XCTAssertEqual(s.views[id], value, "view \(id) changed", file: file, line: line)
        }
    }

    func testRefusedPatchesLeaveEverythingUnchanged() throws {
        let otherStore = try store()
        let okSet: JSON = ["op": "set", "id": "a", "properties": ["accessibilityLabel": "Changed"]]
        assertRefused(
            otherStore, [okSet, ["op": "insert", "parent": "w", "view": ["id": "a", "class": "UIView"]]],
            kind: .duplicateId,
            opIndex: 1, id: "a")
        assertRefused(
            otherStore, [okSet, ["op": "set", "id": "zz", "properties": ["alpha": 1]]], kind: .unknownId, opIndex: 1,
            id: "zz")
        assertRefused(
            otherStore, [okSet, ["op": "move", "id": "box", "parent": "b"]], kind: .cycle, opIndex: 1, id: "box")
        assertRefused(
            otherStore,
            [okSet, ["op": "insert", "parent": "box", "index": 5, "view": ["id": "n", "class": "UIView"]]],
            kind: .indexOutOfRange, opIndex: 1, id: "box")
        assertRefused(
            otherStore, [okSet, ["op": "set", "id": "a", "properties": ["frame": [0, 0, -1, 1]]]],
            kind: .invalidGeometry,
            opIndex: 1, id: "a")
        assertRefused(
            otherStore, [okSet, ["op": "set", "id": "a", "properties": ["isHidden": 1]]], kind: .invalidProperty,
            opIndex: 1,
            id: "a")
        assertRefused(
            otherStore,
            [okSet, ["op": "insert", "parent": "w", "view": ["id": "p", "children": [["id": "q"], ["id": "q"]]]]],
            kind: .multipleParents, opIndex: 1, id: "q")
        assertRefused(
            otherStore,
            [okSet, ["op": "remove", "id": "box"], ["op": "set", "id": "b", "properties": ["alpha": 0.5]]],
            kind: .unknownId, opIndex: 2, id: "b")
    }

    func testRevisionsCountAcceptedCommits() throws {
        let otherStore = try store()
        XCTAssertEqual(otherStore.revision, 1)
        try otherStore.apply(json: [["op": "set", "id": "a", "properties": ["title": "A2"]]])
        XCTAssertEqual(otherStore.revision, 2)
        XCTAssertEqual(otherStore.tree.revision, 2)
        XCTAssertEqual(otherStore.tree["a"]?.label, "A2")
    }

    /// A first snapshot lists every node once as added, each container before its descendants (Specs/hierarchy.md).
    func testFirstSnapshotAddsEveryNodeParentsFirst() throws {
        for json in [DemoLikeTrees.settings, DemoLikeTrees.withElementsList] {
            let otherStore = HierarchyStore()
            let cs = try otherStore.setSnapshot(json)
            XCTAssertEqual(cs.added.count, otherStore.tree.count)
            XCTAssertEqual(Set(cs.added), Set(otherStore.tree.nodes.keys))
            let position = Dictionary(uniqueKeysWithValues: cs.added.enumerated().map { ($1, $0) })
            for (id, count) in otherStore.tree.nodes {
                if let parent = count.parent {
                    XCTAssertLessThan(position[parent]!, position[id]!, "\(parent) is listed after its child \(id)")
                }
            }
        }
    }

    /// D-CONTAINER-1, R32: a view has one accessibility container, so two containers may not list it.
    func testAViewListedByTwoContainersIsRefused() throws {
        let nested: JSON = [
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        [
                            "id": "outer", "class": "UIView", "frame": [0, 0, 400, 400],
                            "accessibilityElements": ["inner", "x"],
                            "children": [
                                [
                                    "id": "inner", "class": "UIView", "frame": [0, 0, 200, 200],
                                    "accessibilityElements": ["x"],
                                    "children": [
                                        ["id": "x", "class": "UIButton", "frame": [0, 0, 50, 50], "title": "X"]
                                    ],
                                ]
                            ],
                        ]
                    ],
                ]
            ]
        ]
        XCTAssertThrowsError(try HierarchyStore().setSnapshot(nested)) { error in
            let error = error as! PatchError
            XCTAssertEqual(error.kind, .multipleParents)
            XCTAssertEqual(error.id, "outer")
            XCTAssertEqual(error.property, "accessibilityElements")
            XCTAssertTrue(error.message.contains("'x'") && error.message.contains("'inner'"), error.message)
        }
        let otherStore = HierarchyStore()
        try otherStore.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        [
                            "id": "c1", "class": "UIView", "frame": [0, 0, 400, 400], "accessibilityElements": ["x"],
                            "children": [
                                [
                                    "id": "c2", "class": "UIView", "frame": [0, 0, 200, 200],
                                    "children": [
                                        ["id": "x", "class": "UIButton", "frame": [0, 0, 50, 50], "title": "X"]
                                    ],
                                ]
                            ],
                        ]
                    ],
                ]
            ]
        ])
        let listX: JSON = ["op": "set", "id": "c2", "properties": ["accessibilityElements": ["x"]]]
        assertRefused(otherStore, [listX], kind: .multipleParents, opIndex: 0, id: "c2")
        assertRefused(
            otherStore,
            [
                [
                    "op": "insert", "parent": "w",
                    "view": ["id": "c3", "class": "UIView", "accessibilityElements": ["x"]],
                ]
            ],
            kind: .multipleParents, opIndex: 0, id: "c3")
        // Once c1 stops listing x (a new list, or c1 gone), another container may list it.
        try otherStore.apply(json: [["op": "set", "id": "c1", "properties": ["accessibilityElements": ["c2"]]], listX])
        XCTAssertEqual(otherStore.tree["x"]?.parent, "c2")
        try otherStore.apply(json: [
            ["op": "set", "id": "c2", "properties": ["accessibilityElements": .null]],
            ["op": "set", "id": "c1", "properties": ["accessibilityElements": ["x"]]],
        ])
        XCTAssertEqual(otherStore.tree["x"]?.parent, "c1")
        try otherStore.apply(json: [
            ["op": "move", "id": "c2", "parent": "w"], ["op": "move", "id": "x", "parent": "c2"],
            ["op": "remove", "id": "c1"],
        ])
        try otherStore.apply(json: [listX])
        XCTAssertEqual(otherStore.tree["x"]?.parent, "c2")
        // Within one patch the order does not matter: the check is on the patch's final state.
        try otherStore.apply(json: [
            ["op": "insert", "parent": "w", "view": ["id": "c1", "class": "UIView", "frame": [0, 0, 400, 400]]],
            ["op": "move", "id": "c2", "parent": "c1"],
        ])
        try otherStore.apply(json: [
            ["op": "set", "id": "c1", "properties": ["accessibilityElements": ["x"]]],
            ["op": "set", "id": "c2", "properties": ["accessibilityElements": .null]],
        ])
        XCTAssertEqual(otherStore.tree["x"]?.parent, "c1")
        // …and the index follows the final state: x belongs to c1 now, so c2 cannot list it alone.
        assertRefused(otherStore, [listX], kind: .multipleParents, opIndex: 0, id: "c2")
        try otherStore.apply(json: [listX, ["op": "set", "id": "c1", "properties": ["accessibilityElements": .null]]])
        XCTAssertEqual(otherStore.tree["x"]?.parent, "c2")
        // Listing a view twice in one container is fine (it appears once).
        try otherStore.apply(json: [["op": "set", "id": "c2", "properties": ["accessibilityElements": ["x", "x"]]]])
        XCTAssertEqual(otherStore.tree["c2"]?.children, ["x"])
    }

    func testChangeSetOfOnePatch() throws {
        let otherStore = try store()
        let cs = try otherStore.apply(json: [
            ["op": "remove", "id": "box"],
            [
                "op": "insert", "parent": "w",
                "view": ["id": "c", "class": "UIButton", "frame": [0, 300, 10, 10], "title": "C"],
            ],
        ])
        XCTAssertEqual(cs.fromRevision, 1)
        XCTAssertEqual(cs.toRevision, 2)
        XCTAssertEqual(cs.added, ["c"])
        XCTAssertEqual(cs.removed, ["b"])
        XCTAssertEqual(cs.updated["w"], ["children"])
        XCTAssertNil(cs.updated["a"], "a did not change")
    }

    func testMergedLogIsTheNetChange() throws {
        let otherStore = try store()
        try otherStore.apply(json: [
            [
                "op": "insert", "parent": "w",
                "view": ["id": "t", "class": "UIButton", "frame": [0, 400, 10, 10], "title": "T"],
            ]
        ])  // 2
        try otherStore.apply(json: [["op": "set", "id": "a", "properties": ["title": "A2"]]])  // 3
        try otherStore.apply(json: [["op": "remove", "id": "t"]])  // 4
        try otherStore.apply(json: [["op": "move", "id": "b", "parent": "w"]])  // 5
        let net = try otherStore.changes(from: 1)
        XCTAssertEqual(net.fromRevision, 1)
        XCTAssertEqual(net.toRevision, 5)
        XCTAssertEqual(net.added, [], "t was added and removed again")
        XCTAssertEqual(net.removed, [])
        XCTAssertTrue(net.updated["a"]?.contains("label") == true)
        XCTAssertEqual(try otherStore.changes(from: 2, to: 3).updated["a"]?.contains("label"), true)
        XCTAssertEqual(try otherStore.changes(from: 3, to: 4).removed, ["t"])
        XCTAssertEqual(try otherStore.changes(from: 5).isEmpty, true)
        XCTAssertThrowsError(try otherStore.changes(from: 6))
        XCTAssertThrowsError(try otherStore.changes(from: 3, to: 2))
    }

    func testLogCapacityDropsOldRevisions() throws {
        let otherStore = HierarchyStore(logCapacity: 3)
        try otherStore.setSnapshot(Self.base)
        for i in 0..<5 {
            try otherStore.apply(json: [["op": "set", "id": "a", "properties": ["title": .string("A\(i)")]]])
        }
        XCTAssertEqual(otherStore.revision, 6)
        XCTAssertNoThrow(try otherStore.changes(from: 3))
        XCTAssertThrowsError(try otherStore.changes(from: 1)) { error in
            guard case .tooOld = error as? ChangeLogError else { return XCTFail("\(error)") }
        }
    }

    /// A node that leaves the tree and comes back changed between two revisions has changed between them.
    /// The merged log compares its value before it left with its final value (D-LOG-1).
    func testMergedLogReportsANodeThatLeftAndCameBackChanged() throws {
        let otherStore = try store()
        try otherStore.apply(json: [["op": "set", "id": "a", "properties": ["isHidden": true]]])  // 2: a leaves
        // 3: back, renamed
        try otherStore.apply(json: [["op": "set", "id": "a", "properties": ["isHidden": false, "title": "Renamed"]]])
        XCTAssertEqual(otherStore.tree["a"]?.label, "Renamed")
        let net = try otherStore.changes(from: 1, to: 3)
        // D-LOG-1: the net change of a node that left and came back is what differs before and after.
        XCTAssertFalse(net.removed.contains("a"), "\(net)")
        XCTAssertFalse(net.added.contains("a"), "\(net)")
        XCTAssertEqual(net.updated["a"]?.contains("label"), true, "\(net)")
    }
}

/// Small hierarchies with containers, synthesized children (segments, navigation bar) and virtual elements.
enum DemoLikeTrees {
    static let settings: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
                "children": [
                    [
                        "id": "nav", "class": "UINavigationBar", "frame": [0, 0, 400, 44], "title": "Settings",
                        "backButtonTitle": "Back",
                    ],
                    [
                        "id": "list", "class": "UITableView", "frame": [0, 44, 400, 600],
                        "children": [
                            [
                                "id": "cell", "class": "UITableViewCell", "frame": [0, 0, 400, 44],
                                "children": [
                                    ["id": "cl", "class": "UILabel", "frame": [10, 0, 200, 44], "text": "Wi-Fi"],
                                    ["id": "sw", "class": "UISwitch", "frame": [300, 5, 50, 30], "isOn": true],
                                ],
                            ],
                            [
                                "id": "seg", "class": "UISegmentedControl", "frame": [0, 50, 300, 30],
                                "segmentTitles": ["A", "B", "C"], "selectedSegmentIndex": 1,
                            ],
                            [
                                "id": "plain", "class": "UIView", "frame": [0, 100, 400, 100],
                                "children": [
                                    ["id": "b1", "class": "UIButton", "frame": [0, 0, 100, 40], "title": "One"]
                                ],
                            ],
                        ],
                    ],
                ],
            ]
        ]
    ]
    static let withElementsList: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                "children": [
                    [
                        "id": "chart", "class": "UIView", "frame": [0, 0, 400, 300],
                        "accessibilityElements": [
                            [
                                "id": "bar1", "accessibilityFrameInContainerSpace": [0, 0, 50, 100],
                                "accessibilityLabel": "Monday",
                            ],
                            "lbl",
                            [
                                "id": "bar2", "accessibilityFrameInContainerSpace": [60, 0, 50, 100],
                                "accessibilityLabel": "Tuesday",
                            ],
                        ],
                        "children": [
                            ["id": "lbl", "class": "UILabel", "frame": [0, 200, 100, 20], "text": "Week"]
                        ],
                    ]
                ],
            ]
        ]
    ]
}
