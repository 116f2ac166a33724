import AXCore
import AXDemo
import AXJSON
import XCTest

/// Relations read off the UIKit model (AXCore/Semantics/Relations.swift; D-REL-1…D-REL-8) and rotor exposure
/// (AXCore/Rotors/RotorExposure.swift; D-ROTOR-6, D-ROTOR-7).
final class RelationsTests: XCTestCase {
    static func demoTree(alert: Bool = false, about: Bool = false) throws -> AXTree {
        var demo = DemoApp()
        demo.alertShown = alert
        demo.aboutShown = about
        let store = HierarchyStore()
        try store.setSnapshot(demo.snapshot())
        return store.tree
    }

    static func relation(_ type: AXRelationType, of id: String, in tree: AXTree) -> [String]? {
        Relations.relations(of: id, in: tree).first { $0.type == type }?.targets
    }

    func testAlertIsDescribedByItsMessageLabel() throws {
        let tree = try Self.demoTree(alert: true)
        let message = try XCTUnwrap(tree["alert"]?.children.first { tree[$0]?.role == .staticText })
        XCTAssertEqual(tree["alert"]?.hint, tree[message]?.text, "the alert's hint is its message")
        XCTAssertEqual(Self.relation(.describedBy, of: "alert", in: tree), [message])
        XCTAssertEqual(Self.relation(.descriptionFor, of: message, in: tree), ["alert"])
        XCTAssertNil(Self.relation(.describedBy, of: "showAlert", in: try Self.demoTree()), "a hint that is no element")
    }

    func testNavigationBarIsLabelledByItsTitleAndFlowsTitleFirst() throws {
        let tree = try Self.demoTree()
        let bar = try XCTUnwrap(tree["navBar"])
        let title = try XCTUnwrap(bar.children.first { tree[$0]?.role == .header })
        XCTAssertNil(bar.label, "UIKit's bar has no label: its title names it")
        XCTAssertEqual(Self.relation(.labelledBy, of: "navBar", in: tree), [title])
        XCTAssertEqual(Self.relation(.labelFor, of: title, in: tree), ["navBar"])
        // R13: title, then back button, then the other items — not the bar's left-to-right order.
        XCTAssertEqual(bar.children.count, 3)
        XCTAssertEqual(bar.children.first, title)
        XCTAssertEqual(Self.relation(.flowsTo, of: bar.children[0], in: tree), [bar.children[1]])
        XCTAssertEqual(Self.relation(.flowsFrom, of: bar.children[1], in: tree), [bar.children[0]])
        XCTAssertEqual(Self.relation(.flowsTo, of: bar.children[1], in: tree), [bar.children[2]])
        XCTAssertNil(Self.relation(.flowsFrom, of: bar.children[0], in: tree))
        XCTAssertNil(Self.relation(.flowsTo, of: bar.children[2], in: tree))
        // A container in geometric order has no flow relations.
        let table = try XCTUnwrap(tree["table"])
        XCTAssertNil(Self.relation(.flowsTo, of: table.children[0], in: tree))
    }

    func testSegmentsAndTabsAreMembersOfTheirSet() throws {
        let tree = try Self.demoTree()
        let segments = try XCTUnwrap(tree["appearance"]?.children)
        XCTAssertEqual(segments.count, 3)
        for segment in segments { XCTAssertEqual(Self.relation(.memberOf, of: segment, in: tree), segments) }
        let tabs = try XCTUnwrap(tree["tabBar"]?.children)
        XCTAssertEqual(tabs, ["tabHome", "tabSettings", "tabProfile"])
        XCTAssertEqual(Self.relation(.memberOf, of: "tabProfile", in: tree), tabs)
        XCTAssertNil(Self.relation(.memberOf, of: "cellWifi", in: tree), "cells of a table are no exclusive set")
    }

    func testGroupTitledByItsHeading() throws {
        let tree = try Self.demoTree(about: true)
        XCTAssertEqual(Self.relation(.labelledBy, of: "warnings", in: tree), ["hdrStatus"])
        XCTAssertEqual(Self.relation(.labelFor, of: "hdrStatus", in: tree), ["warnings"])
        XCTAssertNil(Self.relation(.labelFor, of: "warnDisk", in: tree))
        XCTAssertTrue(Relations.relations(of: "noSuchNode", in: tree).isEmpty)
    }

    static func explicitOrderStore(elements: [String]) throws -> HierarchyStore {
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        [
                            "id": "form", "class": "UIView", "frame": [0, 0, 400, 400],
                            "accessibilityElements": JSON(elements),
                            "children": [
                                ["id": "top", "class": "UILabel", "frame": [0, 0, 200, 30], "text": "Top"],
                                ["id": "bottom", "class": "UILabel", "frame": [0, 100, 200, 30], "text": "Bottom"],
                            ],
                        ]
                    ],
                ]
            ]
        ])
        return store
    }

    func testExplicitOrderAgainstGeometryFlowsAndChangesAreReported() throws {
        let store = try Self.explicitOrderStore(elements: ["bottom", "top"])
        let reversed = store.tree
        XCTAssertEqual(Self.relation(.flowsTo, of: "bottom", in: reversed), ["top"])
        XCTAssertEqual(Self.relation(.flowsFrom, of: "top", in: reversed), ["bottom"])
        let changes = try store.apply(json: [
            ["op": "set", "id": "form", "properties": ["accessibilityElements": ["top", "bottom"]]]
        ])
        let natural = store.tree
        XCTAssertNil(Self.relation(.flowsTo, of: "top", in: natural), "geometric order: no flow relation")
        let changedIDs = changes.added + changes.removed + changes.moved + Array(changes.updated.keys)
        XCTAssertEqual(Relations.changedRelations(old: reversed, new: natural, changed: changedIDs), ["bottom", "top"])
        XCTAssertEqual(Relations.changedRelations(old: natural, new: natural, changed: changedIDs), [])
    }

    func testRelationsNeverNameNodesThatLeft() throws {
        let store = try Self.explicitOrderStore(elements: ["bottom", "top"])
        let before = store.tree
        _ = try store.apply(json: [["op": "remove", "id": "top"]])
        let after = store.tree
        XCTAssertTrue(Relations.relations(of: "top", in: after).isEmpty)
        XCTAssertTrue(Relations.relations(of: "bottom", in: after).isEmpty, "one child left: no flow")
        XCTAssertEqual(Relations.changedRelations(old: before, new: after, changed: ["top"]), ["bottom"])
    }

    // MARK: Outline rows (D-REL-8)

    /// A table whose cells set `indentationLevel` (rows given as id → level; nil leaves it unset), one row showing
    /// an expanded disclosure, beside a flat table and a list-cell collection view.
    static func outlineStore(levels: [(String, Int?)]) throws -> HierarchyStore {
        var rows: [JSON] = []
        for (index, (rowID, level)) in levels.enumerated() {
            var row: JSONObject = [
                "id": JSON.string(rowID), "class": "UITableViewCell", "frame": [0, JSON(Double(index * 44)), 400, 44],
                "text": JSON.string(rowID),
            ]
            if let level { row["indentationLevel"] = JSON(level) }
            if index == 0 { row["accessibilityExpandedStatus"] = "expanded" }
            rows.append(.object(row))
        }
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        [
                            "id": "outline", "class": "UITableView", "frame": [0, 0, 400, 300],
                            "children": .array(rows),
                        ],
                        [
                            "id": "flat", "class": "UITableView", "frame": [0, 300, 400, 100],
                            "children": [
                                ["id": "f1", "class": "UITableViewCell", "frame": [0, 300, 400, 44], "text": "F1"],
                                ["id": "f2", "class": "UITableViewCell", "frame": [0, 344, 400, 44], "text": "F2"],
                            ],
                        ],
                        [
                            "id": "sidebar", "class": "UICollectionView", "frame": [0, 400, 400, 100],
                            "children": [
                                [
                                    "id": "s1", "class": "UICollectionViewListCell",
                                    "baseClass": "UICollectionViewCell",
                                    "frame": [0, 400, 400, 44], "text": "Mail",
                                    "accessibilityExpandedStatus": "collapsed",
                                ],
                                [
                                    "id": "s2", "class": "UICollectionViewListCell",
                                    "baseClass": "UICollectionViewCell",
                                    "frame": [0, 444, 400, 44], "text": "Notes",
                                ],
                            ],
                        ],
                    ],
                ]
            ]
        ])
        return store
    }

    func testOutlineRowsAreNodeChildrenOfTheNearestShallowerRow() throws {
        let store = try Self.outlineStore(levels: [("a", 0), ("a1", 1), ("a1x", 2), ("a2", 1), ("b", nil), ("b2", 2)])
        let tree = store.tree
        XCTAssertEqual(tree["outline"]?.children, ["a", "a1", "a1x", "a2", "b", "b2"], "cells are the list's rows")
        XCTAssertEqual(Self.relation(.nodeChildOf, of: "a", in: tree), ["outline"], "top level: child of the list")
        XCTAssertEqual(Self.relation(.nodeChildOf, of: "a1", in: tree), ["a"])
        XCTAssertEqual(Self.relation(.nodeChildOf, of: "a1x", in: tree), ["a1"])
        XCTAssertEqual(Self.relation(.nodeChildOf, of: "a2", in: tree), ["a"])
        XCTAssertEqual(Self.relation(.nodeChildOf, of: "b", in: tree), ["outline"], "an unset level is UIKit's 0")
        XCTAssertEqual(Self.relation(.nodeChildOf, of: "b2", in: tree), ["b"], "a skipped level: nearest shallower")
        XCTAssertEqual(Self.relation(.nodeParentOf, of: "a", in: tree), ["a1", "a2"])
        XCTAssertEqual(Self.relation(.nodeParentOf, of: "a1", in: tree), ["a1x"])
        XCTAssertEqual(Self.relation(.nodeParentOf, of: "b", in: tree), ["b2"])
        XCTAssertNil(Self.relation(.nodeParentOf, of: "a2", in: tree), "a leaf row")
        XCTAssertEqual(Self.relation(.nodeParentOf, of: "outline", in: tree), ["a", "b"])
        XCTAssertNil(Self.relation(.nodeChildOf, of: "outline", in: tree))
        XCTAssertTrue(tree["a"]?.states.contains(.expanded) ?? false, "the disclosure state stays a state")
    }

    func testFlatListsHaveNoNodeRelationsAndDisclosureMakesAnOutline() throws {
        let tree = try Self.outlineStore(levels: [("a", 0)]).tree
        XCTAssertNil(Self.relation(.nodeChildOf, of: "f1", in: tree), "a flat list is no outline")
        XCTAssertNil(Self.relation(.nodeParentOf, of: "flat", in: tree))
        XCTAssertEqual(Self.relation(.nodeChildOf, of: "s1", in: tree), ["sidebar"], "a collapsed list cell")
        XCTAssertEqual(Self.relation(.nodeChildOf, of: "s2", in: tree), ["sidebar"])
        XCTAssertEqual(Self.relation(.nodeParentOf, of: "sidebar", in: tree), ["s1", "s2"])
        XCTAssertEqual(Self.relation(.nodeChildOf, of: "a", in: tree), ["outline"], "an expanded row alone")
    }

    func testIndentationChangeIsAReportedRelationChange() throws {
        let store = try Self.outlineStore(levels: [("a", 0), ("a1", 1), ("a2", 1)])
        let before = store.tree
        let changes = try store.apply(json: [["op": "set", "id": "a2", "properties": ["indentationLevel": 2]]])
        let after = store.tree
        XCTAssertEqual(Self.relation(.nodeChildOf, of: "a2", in: after), ["a1"])
        XCTAssertEqual(Self.relation(.nodeParentOf, of: "a1", in: after), ["a2"])
        let changedIDs = changes.added + changes.removed + changes.moved + Array(changes.updated.keys)
        XCTAssertEqual(Relations.changedRelations(old: before, new: after, changed: changedIDs), ["a", "a1", "a2"])
    }

    func testIndentationLevelIsCheckedOnTheWire() throws {
        let store = try Self.outlineStore(levels: [("a", 0)])
        for bad: JSON in [-1, 1001, 1.5, "2", true] {
            XCTAssertThrowsError(
                try store.apply(json: [["op": "set", "id": "a", "properties": ["indentationLevel": bad]]]),
                "\(bad)")
        }
        _ = try store.apply(json: [["op": "set", "id": "a", "properties": ["indentationLevel": 1000]]])
        XCTAssertEqual(store.tree["a"]?.indentationLevel, 1000)
        _ = try store.apply(json: [["op": "set", "id": "a", "properties": ["indentationLevel": nil]]])
        XCTAssertNil(store.tree["a"]?.indentationLevel, "null restores UIKit's default")
    }

    // MARK: Page control and paging scroll view (D-REL-7)

    /// A page control beside the given scroll views (id → isPagingEnabled), all in one semantic group.
    static func pagingStore(scrollViews: [(String, Bool)]) throws -> HierarchyStore {
        var children: [JSON] = [
            ["id": "dots", "class": "UIPageControl", "frame": [0, 360, 400, 30], "numberOfPages": 3]
        ]
        for (index, (viewID, paging)) in scrollViews.enumerated() {
            children.append([
                "id": .string(viewID), "class": "UICollectionView", "frame": [0, JSON(Double(index * 100)), 400, 100],
                "isPagingEnabled": .bool(paging),
                "children": [
                    [
                        "id": .string(viewID + ".page"), "class": "UICollectionViewCell",
                        "frame": [0, JSON(Double(index * 100)), 400, 100], "accessibilityLabel": "Page",
                    ]
                ],
            ])
        }
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        [
                            "id": "onboarding", "class": "UIView", "frame": [0, 0, 400, 400],
                            "accessibilityLabel": "Onboarding", "accessibilityContainerType": "semanticGroup",
                            "children": .array(children),
                        ]
                    ],
                ]
            ]
        ])
        return store
    }

    func testPageControlControlsThePagingScrollViewBesideIt() throws {
        let store = try Self.pagingStore(scrollViews: [("pages", true), ("thumbnails", false)])
        let tree = store.tree
        XCTAssertEqual(tree["dots"]?.parent, "onboarding")
        XCTAssertEqual(tree["pages"]?.parent, "onboarding")
        XCTAssertEqual(Self.relation(.controllerFor, of: "dots", in: tree), ["pages"])
        XCTAssertEqual(Self.relation(.controlledBy, of: "pages", in: tree), ["dots"])
        XCTAssertNil(Self.relation(.controlledBy, of: "thumbnails", in: tree), "not paging: not controlled")
        let before = tree
        let changes = try store.apply(json: [["op": "set", "id": "pages", "properties": ["isPagingEnabled": false]]])
        let after = store.tree
        XCTAssertNil(Self.relation(.controllerFor, of: "dots", in: after))
        let changedIDs = changes.added + changes.removed + changes.moved + Array(changes.updated.keys)
        XCTAssertEqual(Relations.changedRelations(old: before, new: after, changed: changedIDs), ["dots", "pages"])
    }

    func testPageControlWithTwoOrNoPagingCandidatesControlsNothing() throws {
        let two = try Self.pagingStore(scrollViews: [("pages", true), ("more", true)]).tree
        XCTAssertNil(Self.relation(.controllerFor, of: "dots", in: two), "two paging views: which one is a guess")
        XCTAssertNil(Self.relation(.controlledBy, of: "pages", in: two))
        let none = try Self.pagingStore(scrollViews: []).tree
        XCTAssertTrue(Relations.relations(of: "dots", in: none).isEmpty)
    }

    // MARK: Rotors

    func testRotorSlugsAndActions() throws {
        XCTAssertEqual(RotorExposure.slug("Form Controls"), "form-controls")
        XCTAssertEqual(RotorExposure.slug("  Warnings!! "), "warnings")
        XCTAssertEqual(RotorExposure.slug("***"), "rotor")
        let tree = try Self.demoTree(about: true)
        let actions = RotorExposure.actions(of: try XCTUnwrap(tree["warnings"]))
        XCTAssertEqual(actions.map(\.name), ["next-warnings", "previous-warnings"])
        XCTAssertEqual(actions.map(\.localizedName), ["Next Warnings", "Previous Warnings"])
        var node = try XCTUnwrap(tree["warnings"])
        node.rotors = [CustomRotor(name: "A b", items: []), CustomRotor(name: "a-b", items: [])]
        XCTAssertEqual(
            RotorExposure.actions(of: node).map(\.name), ["next-a-b", "previous-a-b", "next-a-b-2", "previous-a-b-2"])
        XCTAssertTrue(RotorExposure.actions(of: try XCTUnwrap(tree["warnDisk"])).isEmpty)
    }

    func testRotorMembershipAttributes() throws {
        let tree = try Self.demoTree(about: true)
        let index = RotorIndex(tree: tree)
        XCTAssertEqual(index.customRotors(listing: "warnDisk"), ["Warnings"])
        XCTAssertEqual(index.customRotors(listing: "cellBluetooth"), ["Toggles"])
        XCTAssertEqual(index.customRotors(listing: "okNetwork"), [])
        let attributes = RotorExposure.attributes(forRotors: ["Warnings", "Form Controls"])
        XCTAssertEqual(attributes.map(\.0), ["rotors", "rotor-warnings", "rotor-form-controls"])
        XCTAssertEqual(attributes.map(\.1), ["Warnings,Form Controls", "true", "true"])
        XCTAssertTrue(RotorExposure.attributes(forRotors: []).isEmpty)
    }
}
