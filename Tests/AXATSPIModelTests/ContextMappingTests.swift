import AXATSPIModel
import AXCore
import AXDemo
import AXJSON
import XCTest

/// The context-dependent parts of the mapping (ATSPIContext; Specs/atspi-mapping.md §2–§6, §4b; D-ATSPI-TEXT-1,
/// D-ATSPI-SEL-1, D-ATSPI-HDR-1, D-ATSPI-ESC-1, D-ROTOR-6, D-ROTOR-7), on the demo and a purpose-built tree.
final class ContextMappingTests: XCTestCase {
    static func label(_ id: String, _ frame: [Double], _ text: String, _ extra: JSONObject = [:]) -> JSON {
        var object: JSONObject = [
            "id": .string(id), "class": "UILabel", "frame": .array(frame.map { .number($0) }), "text": .string(text),
        ]
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }

    static func purposeTree() throws -> AXTree {
        let headerTraits: JSON = ["header"]
        let grid: JSON = [
            "id": "grid", "class": "UIView", "frame": [0, 0, 200, 60], "accessibilityContainerType": "dataTable",
            "accessibilityDataTable": [
                "rows": 2, "columns": 2, "columnHeaders": ["1": ["colSize"]], "rowHeaders": ["1": ["rowDisk"]],
            ],
            "children": [
                label(
                    "colSize", [100, 0, 100, 30], "Size",
                    [
                        "accessibilityTraits": headerTraits, "accessibilityRowRange": [0, 1],
                        "accessibilityColumnRange": [1, 1],
                    ]),
                label(
                    "rowDisk", [0, 30, 100, 30], "Disk",
                    [
                        "accessibilityTraits": headerTraits, "accessibilityRowRange": [1, 1],
                        "accessibilityColumnRange": [0, 1],
                    ]),
                label(
                    "valDisk", [100, 30, 100, 30], "512 GB",
                    ["accessibilityRowRange": [1, 1], "accessibilityColumnRange": [1, 1]]),
            ],
        ]
        func cell(_ id: String, _ y: Double, checked: Bool) -> JSON {
            var object: JSONObject = [
                "id": .string(id), "class": "UITableViewCell", "frame": [0, JSON(y), 390, 44],
                "children": [label(id + "Label", [16, 11, 200, 22], id)],
            ]
            if checked { object["accessoryType"] = "checkmark" }
            return .object(object)
        }
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 390, 844],
                    "children": [
                        grid,
                        [
                            "id": "terms", "class": "UITextView", "frame": [0, 100, 390, 60], "isEditable": false,
                            "text": "Terms apply.",
                        ],
                        [
                            "id": "picked", "class": "UITableView", "frame": [0, 200, 390, 88],
                            "children": [cell("alpha", 0, checked: true), cell("beta", 44, checked: false)],
                        ],
                        [
                            "id": "plain", "class": "UITableView", "frame": [0, 300, 390, 44],
                            "children": [cell("gamma", 0, checked: false)],
                        ],
                    ],
                ]
            ]
        ])
        return store.tree
    }

    func testHeaderCellsReadOnlyTextViewAndSelectableCells() throws {
        let tree = try Self.purposeTree()
        func node(_ id: String) throws -> AXNode { try XCTUnwrap(tree[id], id) }
        func context(_ id: String) throws -> ATSPIContext { ATSPIContext.of(try node(id), in: tree) }
        XCTAssertEqual(ATSPIMapping.role(try node("colSize"), context: try context("colSize")), .columnHeader)
        XCTAssertEqual(ATSPIMapping.role(try node("rowDisk"), context: try context("rowDisk")), .rowHeader)
        XCTAssertNotEqual(ATSPIMapping.role(try node("valDisk"), context: try context("valDisk")), .columnHeader)

        let terms = try node("terms")
        XCTAssertEqual(ATSPIMapping.role(terms, context: try context("terms")), .text)
        let termStates = ATSPIMapping.states(terms, context: try context("terms"), focused: false)
        XCTAssertTrue(termStates.contains(.readOnly))
        XCTAssertTrue(termStates.contains(.multiLine))
        XCTAssertFalse(termStates.contains(.editable))
        XCTAssertEqual(ATSPIMapping.text(terms), "Terms apply.")
        XCTAssertTrue(ATSPIMapping.interfaces(terms, context: try context("terms")).contains(.text))

        func selectable(_ id: String) throws -> Bool {
            ATSPIMapping.states(try node(id), context: try context(id), focused: false).contains(.selectable)
        }
        XCTAssertTrue(try selectable("alpha"), "the checked cell")
        XCTAssertTrue(try selectable("beta"), "a cell of a list with a selection")
        XCTAssertFalse(try selectable("gamma"), "no selection in its list: not selectable")
    }

    func testDismissInsideTheAlertAndRotorActionsAndAttributes() throws {
        var demo = DemoApp()
        demo.alertShown = true
        let store = HierarchyStore()
        try store.setSnapshot(demo.snapshot())
        let tree = store.tree
        let cancel = try XCTUnwrap(tree["alertCancel"])
        let cancelActions = ATSPIMapping.actions(cancel, context: ATSPIContext.of(cancel, in: tree))
        XCTAssertEqual(cancelActions.map(\.name), ["click", "dismiss"])
        XCTAssertEqual(cancelActions.last?.kind, .escape)
        XCTAssertTrue(ATSPIMapping.interfaces(cancel, context: ATSPIContext.of(cancel, in: tree)).contains(.action))

        try store.setSnapshot(DemoApp().snapshot())
        let plain = store.tree
        let table = try XCTUnwrap(plain["table"])
        let tableActions = ATSPIMapping.actions(table, context: ATSPIContext.of(table, in: plain))
        XCTAssertEqual(tableActions.map(\.name), ["next-toggles", "previous-toggles"])
        XCTAssertEqual(tableActions.first?.kind, .rotor(name: "Toggles", direction: .next))
        let edit = try XCTUnwrap(plain["editButton"])
        XCTAssertEqual(ATSPIMapping.actions(edit, context: ATSPIContext.of(edit, in: plain)).map(\.name), ["click"])
        let wifi = try XCTUnwrap(plain["cellWifi"])
        let attributes = ATSPIMapping.attributes(
            wifi, context: ATSPIContext.of(wifi, in: plain),
            rotors: RotorIndex(tree: plain).customRotors(listing: "cellWifi"))
        XCTAssertTrue(attributes.contains { $0 == ("rotor-toggles", "true") })
        XCTAssertTrue(attributes.contains { $0 == ("rotors", "Toggles") })
        XCTAssertEqual(ATSPIMapping.relationNumber(.describedBy), 18)
    }

    /// D-ATSPI-SEL-1 in the event diff: when the first cell of a list gets selected, the other cells become
    /// SELECTABLE too, and clients hear it (they were not updated themselves).
    func testSiblingCellsAnnounceSelectableWhenTheListGetsASelection() throws {
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 390, 844],
                    "children": [
                        [
                            "id": "list", "class": "UITableView", "frame": [0, 0, 390, 88],
                            "children": [
                                [
                                    "id": "first", "class": "UITableViewCell", "frame": [0, 0, 390, 44],
                                    "children": [Self.label("firstLabel", [16, 11, 200, 22], "First")],
                                ],
                                [
                                    "id": "second", "class": "UITableViewCell", "frame": [0, 44, 390, 44],
                                    "children": [Self.label("secondLabel", [16, 11, 200, 22], "Second")],
                                ],
                            ],
                        ]
                    ],
                ]
            ]
        ])
        let before = ServedSnapshot(tree: store.tree)
        let changes = try store.apply(json: [
            ["op": "set", "id": "first", "properties": ["accessoryType": "checkmark"]]
        ])
        let after = ServedSnapshot(tree: store.tree)
        let stateEvents = EventDiff.updates(from: before, to: after, changes: changes).compactMap { update in
            if case .event(let event) = update, event.kind == .stateChanged {
                return "\(event.source ?? "root") \(event.detail) \(event.detail1)"
            }
            return nil
        }
        XCTAssertTrue(stateEvents.contains("first selected 1"), "\(stateEvents)")
        XCTAssertTrue(stateEvents.contains("second selectable 1"), "\(stateEvents)")
    }
}
