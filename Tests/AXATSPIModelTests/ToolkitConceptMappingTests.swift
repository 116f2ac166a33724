import AXATSPIModel
import AXCore
import AXJSON
import XCTest

/// Concepts UIKit lacks, as the mirror carries them to AT-SPI (issue 32; Specs/tk-adapter.md §Concepts UIKit
/// lacks): a modal window is a DIALOG (D-ATSPI-DIALOG-1), a control taller than wide is VERTICAL
/// (D-ATSPI-ORIENT-1), a button in a segmented control is a checked RADIO_BUTTON, menus are menus (D-MENU-1).
final class ToolkitConceptMappingTests: XCTestCase {
    static let hierarchy: JSON = [
        "windows": [
            [
                "id": "main", "class": "UIWindow", "frame": [0, 0, 400, 800],
                "children": [
                    [
                        "id": "vbar", "class": "TkScrollbar", "baseClass": "UISlider", "frame": [380, 0, 16, 300],
                        "minimumValue": 0, "maximumValue": 1, "value": 0,
                    ],
                    ["id": "hslider", "class": "UISlider", "frame": [0, 0, 200, 30], "value": 0.5],
                    [
                        "id": "colors", "class": "UISegmentedControl", "frame": [0, 40, 300, 30],
                        "children": [
                            [
                                "id": "red", "class": "UIButton", "title": "Red", "frame": [0, 0, 100, 30],
                                "isSelected": true,
                            ],
                            ["id": "blue", "class": "UIButton", "title": "Blue", "frame": [100, 0, 100, 30]],
                        ],
                    ],
                ],
            ]
        ]
    ]

    /// A modal dialog window (the core then hides the windows behind it, so it is a tree of its own here).
    static let dialog: JSON = [
        "windows": [
            [
                "id": "confirm", "class": "UIWindow", "frame": [50, 50, 200, 100], "accessibilityViewIsModal": true,
                "isKeyWindow": true, "windowTitle": "Confirm",
                "children": [["id": "ok", "class": "UIButton", "title": "OK", "frame": [10, 10, 80, 44]]],
            ]
        ]
    ]

    func testDialogOrientationAndRadioButtons() throws {
        let store = HierarchyStore()
        try store.setSnapshot(Self.hierarchy)
        let tree = store.tree
        func node(_ id: String) throws -> AXNode { try XCTUnwrap(tree[id], id) }
        func parentRole(_ id: String) throws -> AXRole? { try node(id).parent.flatMap { tree[$0]?.role } }

        XCTAssertEqual(ATSPIMapping.role(try node("main"), parentRole: nil), .frame)
        let dialogStore = HierarchyStore()
        try dialogStore.setSnapshot(Self.dialog)
        XCTAssertEqual(ATSPIMapping.role(try XCTUnwrap(dialogStore.tree["confirm"]), parentRole: nil), .dialog)

        let vertical = ATSPIMapping.states(try node("vbar"), parentRole: try parentRole("vbar"), focused: false)
        XCTAssertTrue(vertical.contains(.vertical))
        XCTAssertFalse(vertical.contains(.horizontal))
        let horizontal = ATSPIMapping.states(try node("hslider"), parentRole: try parentRole("hslider"), focused: false)
        XCTAssertTrue(horizontal.contains(.horizontal))

        XCTAssertEqual(ATSPIMapping.role(try node("red"), parentRole: try parentRole("red")), .radioButton)
        let red = ATSPIMapping.states(try node("red"), parentRole: try parentRole("red"), focused: false)
        XCTAssertTrue(red.contains(.checked))
        let blue = ATSPIMapping.states(try node("blue"), parentRole: try parentRole("blue"), focused: false)
        XCTAssertTrue(blue.contains(.checkable) && !blue.contains(.checked))
    }

    /// D-MENU-1: a `menu` container is MENU and a `menuBar` MENU_BAR; inside them a cascade is MENU, a switch a
    /// checked CHECK_MENU_ITEM, a selected button a checked RADIO_MENU_ITEM, another button MENU_ITEM. The same
    /// buttons outside a menu stay push buttons.
    func testMenusMapAsGTKMenus() throws {
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 300],
                    "children": [
                        [
                            "id": "bar", "class": "UIToolbar", "accessibilityContainerType": "menuBar",
                            "frame": [0, 0, 400, 24],
                            "children": [
                                [
                                    "id": "file", "class": "UIButton", "title": "File", "frame": [0, 0, 40, 24],
                                    "accessibilityExpandedStatus": "collapsed",
                                ],
                                ["id": "help", "class": "UIButton", "title": "Help", "frame": [40, 0, 40, 24]],
                            ],
                        ],
                        [
                            "id": "menu", "class": "UIView", "accessibilityContainerType": "menu",
                            "frame": [0, 24, 160, 96],
                            "children": [
                                ["id": "new", "class": "UIButton", "title": "New", "frame": [0, 0, 160, 24]],
                                [
                                    "id": "wrap", "class": "UISwitch", "accessibilityLabel": "Wrap", "isOn": true,
                                    "frame": [0, 24, 160, 24],
                                ],
                                [
                                    "id": "large", "class": "UIButton", "title": "Large", "isSelected": true,
                                    "frame": [0, 48, 160, 24],
                                ],
                                [
                                    "id": "recent", "class": "UIButton", "title": "Recent", "frame": [0, 72, 160, 24],
                                    "accessibilityExpandedStatus": "collapsed",
                                ],
                            ],
                        ],
                        ["id": "plain", "class": "UIButton", "title": "Plain", "frame": [0, 200, 80, 30]],
                    ],
                ]
            ]
        ])
        let tree = store.tree
        func role(_ id: String) throws -> ATSPIRole {
            let node = try XCTUnwrap(tree[id], id)
            return ATSPIMapping.role(node, parentRole: node.parent.flatMap { tree[$0]?.role })
        }
        func states(_ id: String) throws -> ATSPIStateSet {
            let node = try XCTUnwrap(tree[id], id)
            return ATSPIMapping.states(node, parentRole: node.parent.flatMap { tree[$0]?.role }, focused: false)
        }
        XCTAssertEqual(try role("bar"), .menuBar)
        XCTAssertEqual(try role("file"), .menu)
        XCTAssertEqual(try role("help"), .menuItem)
        XCTAssertEqual(try role("menu"), .menu)
        XCTAssertEqual(try role("new"), .menuItem)
        XCTAssertEqual(try role("wrap"), .checkMenuItem)
        let wrap = try states("wrap")
        XCTAssertTrue(wrap.contains(.checkable) && wrap.contains(.checked))
        XCTAssertEqual(try role("large"), .radioMenuItem)
        let large = try states("large")
        XCTAssertTrue(large.contains(.checkable) && large.contains(.checked))
        XCTAssertEqual(try role("recent"), .menu)
        XCTAssertEqual(try role("plain"), .button)
        XCTAssertEqual(ATSPIRole.menuBar.rawValue, 34)
        XCTAssertEqual(ATSPIRole.menuItem.name, "menu item")
    }

    /// D-ATSPI-FOCUS-2: Tab into an entry whose toolkit selects its text in the same flush — the focus events go
    /// out before the entry's caret and selection events.
    func testFocusGoesOutBeforeTheNewFocusCaretAndSelection() throws {
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 300], "isKeyWindow": true,
                    "children": [
                        ["id": "name", "class": "UITextField", "frame": [10, 10, 200, 30], "text": "Ada"],
                        ["id": "pass", "class": "UITextField", "frame": [10, 50, 200, 30], "isFocused": true],
                    ],
                ]
            ]
        ])
        var before = ServedSnapshot(tree: store.tree)
        before.focusedID = "pass"
        let changes = try store.apply(json: [
            ["op": "set", "id": "name", "properties": ["selectedTextRange": [0, 3], "isFocused": true]]
        ])
        var after = ServedSnapshot(tree: store.tree)
        after.focusedID = "name"
        let aboutName = EventDiff.updates(from: before, to: after, changes: changes).compactMap { update -> String? in
            guard case .event(let event) = update, event.source == "name" else { return nil }
            switch event.kind {
            case .stateChanged where event.detail == "focused": return "focused"
            case .textCaretMoved: return "caret"
            case .textSelectionChanged: return "selection"
            default: return nil
            }
        }
        XCTAssertEqual(aboutName.first, "focused", "\(aboutName)")
        XCTAssertTrue(aboutName.contains("selection") || aboutName.contains("caret"), "\(aboutName)")
    }
}
