import AXCore
import AXDemo
import AXJSON
import XCTest

/// Relations read off the UIKit model (AXCore/Semantics/Relations.swift; D-REL-1…D-REL-6) and rotor exposure
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
