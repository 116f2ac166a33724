import AXCore
import AXJSON
import XCTest

/// The keyboard rule (D-KEY-1, D-KEY-2) and the return of focus after a modal (D-FOCUS-7), on hand-built
/// hierarchies whose answers follow from the written rules.
final class KeyboardNavigationTests: XCTestCase {
    func symbol(_ name: String) throws -> KeySymbol { try XCTUnwrap(Keysyms.symbol(named: name), name) }

    func testKeysymTableCarriesXValuesAndUSKeycodes() throws {
        // Values from X11's keysymdef.h and the evdev keycodes of a pc105 US layout (xmodmap -pke under Xvfb).
        let expected: [(String, UInt32, UInt32)] = [
            ("Tab", 0xff09, 23), ("ISO_Left_Tab", 0xfe20, 23), ("Return", 0xff0d, 36), ("KP_Enter", 0xff8d, 104),
            ("Escape", 0xff1b, 9), ("space", 0x20, 65), ("Up", 0xff52, 111), ("Down", 0xff54, 116),
            ("Left", 0xff51, 113), ("Right", 0xff53, 114), ("Home", 0xff50, 110), ("End", 0xff57, 115),
            ("Insert", 0xff63, 118), ("KP_Insert", 0xff9e, 90), ("h", 0x68, 43), ("a", 0x61, 38), ("A", 0x41, 38),
            ("1", 0x31, 10), ("0", 0x30, 19), ("F1", 0xffbe, 67), ("F12", 0xffc9, 96),
        ]
        for (name, keysym, keycode) in expected {
            let found = try symbol(name)
            XCTAssertEqual(found.keysym, keysym, name)
            XCTAssertEqual(found.keycode, keycode, name)
        }
        XCTAssertNil(Keysyms.symbol(named: "tab"), "names are case-sensitive")
        XCTAssertNil(Keysyms.symbol(named: ""))
        XCTAssertEqual(try symbol("h").eventString, "h")
        XCTAssertEqual(try symbol("KP_Insert").eventString, "KP_Insert", "Orca finds its modifier by this string")
        XCTAssertEqual(try symbol("space").eventString, "space")
        XCTAssertEqual(Keysyms.symbol(typing: "B")?.symbol.name, "B")
        XCTAssertEqual(Keysyms.symbol(typing: "B")?.shift, true)
        XCTAssertEqual(Keysyms.symbol(typing: "7")?.symbol.name, "7", "the main row wins over the keypad")
    }

    /// Issue 32 item 5: every X keysym name is accepted; an alias of a US-layout key (Tk reports Page Up as
    /// `Prior`, keypad 9 as `KP_Prior`) is that key, so Orca's flat-review and paging keys reach it.
    func testEveryXKeysymNameAndItsAliasesAreAccepted() throws {
        let aliases: [(String, String)] = [
            ("Prior", "Page_Up"), ("Next", "Page_Down"), ("KP_Prior", "KP_Page_Up"), ("KP_Next", "KP_Page_Down"),
        ]
        for (alias, key) in aliases {
            XCTAssertEqual(try symbol(alias), try symbol(key), alias)
        }
        let others: [(String, UInt32, String?)] = [
            ("Scroll_Lock", 0xff14, nil), ("Pause", 0xff13, nil), ("Num_Lock", 0xff7f, nil), ("F35", 0xffe0, nil),
            ("KP_Equal", 0xffbd, nil), ("ISO_Level3_Shift", 0xfe03, nil), ("XF86AudioMute", 0x1008_ff12, nil),
            ("eacute", 0xe9, "é"), ("EuroSign", 0x20ac, "€"), ("U20AC", 0x0100_20ac, "€"),
        ]
        for (name, keysym, text) in others {
            let found = try symbol(name)
            XCTAssertEqual(found.keysym, keysym, name)
            XCTAssertEqual(found.text, text, name)
        }
        XCTAssertNil(Keysyms.symbol(named: "VoidSymbol"))
        XCTAssertNil(Keysyms.symbol(named: "U12"), "U needs 4-6 hex digits")
        XCTAssertNil(Keysyms.symbol(named: "U1F"))
        XCTAssertNil(Keysyms.symbol(named: "UD800"), "a surrogate is no scalar")
        XCTAssertNil(Keysyms.symbol(named: "prior"), "names stay case-sensitive")
    }

    func testNavigationKeysAndChords() throws {
        let tab = try symbol("Tab")
        XCTAssertEqual(KeyboardNavigation.command(for: tab, modifiers: []), .move(.next))
        XCTAssertEqual(KeyboardNavigation.command(for: tab, modifiers: [.shift]), .move(.previous))
        XCTAssertEqual(
            KeyboardNavigation.command(for: try symbol("ISO_Left_Tab"), modifiers: [.shift]), .move(.previous))
        XCTAssertNil(KeyboardNavigation.command(for: tab, modifiers: [.control]), "Control-Tab is an app shortcut")
        XCTAssertNil(KeyboardNavigation.command(for: tab, modifiers: [.alt, .shift]))
        XCTAssertEqual(KeyboardNavigation.command(for: try symbol("Up"), modifiers: []), .move(.up))
        XCTAssertEqual(KeyboardNavigation.command(for: try symbol("KP_Right"), modifiers: []), .move(.right))
        XCTAssertNil(KeyboardNavigation.command(for: try symbol("Down"), modifiers: [.shift]), "Shift-arrow selects")
        XCTAssertEqual(KeyboardNavigation.command(for: try symbol("Escape"), modifiers: []), .escape)
        for name in ["Return", "KP_Enter", "space"] {
            XCTAssertEqual(KeyboardNavigation.command(for: try symbol(name), modifiers: []), .activate, name)
        }
        for name in ["h", "Insert", "KP_Insert", "Home", "F1", "Shift_L"] {
            XCTAssertNil(KeyboardNavigation.command(for: try symbol(name), modifiers: []), name)
        }
    }

    /// Three tiles in a named group and a button outside it, level with them on the right.
    static func groupLayout() throws -> FocusEngine {
        try FocusEngineTests.engine([
            [
                "id": "tiles", "class": "UIView", "frame": [0, 100, 280, 160], "focusGroupIdentifier": "tiles",
                "children": [
                    FocusEngineTests.button("t1", 20, 20), FocusEngineTests.button("t2", 140, 20),
                    FocusEngineTests.button("t3", 140, 100),
                ],
            ],
            FocusEngineTests.button("out", 300, 120),
        ])
    }

    /// A button, a table of two cells that each fold a switch (one element, two focus items: D-CELL-1), a button.
    static func cellRowsLayout() throws -> (FocusEngine, AXTree) {
        func cell(_ id: String, _ y: Double, _ text: String) -> JSON {
            [
                "id": .string(id), "class": "UITableViewCell", "frame": [0, JSON(y), 400, 44],
                "children": [
                    [
                        "id": .string(id + ".label"), "class": "UILabel", "frame": [16, 11, 200, 22],
                        "text": .string(text),
                    ],
                    ["id": .string(id + ".switch"), "class": "UISwitch", "frame": [333, 6, 51, 31]],
                ],
            ]
        }
        let window: JSON = [
            "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
            "children": [
                FocusEngineTests.button("first", 20, 20),
                [
                    "id": "table", "class": "UITableView", "frame": [0, 100, 400, 200],
                    "children": [cell("wifi", 0, "Wi-Fi"), cell("bluetooth", 44, "Bluetooth")],
                ],
                FocusEngineTests.button("last", 20, 400),
            ],
        ]
        let store = HierarchyStore()
        try store.setSnapshot(["windows": [window]])
        return (FocusEngine(index: FocusIndex(views: store.views, tree: store.tree)), store.tree)
    }

    func testTabStopsOncePerAnnouncedElement() throws {
        let (engine, tree) = try Self.cellRowsLayout()
        // The engine's own sequence has the folded switch as a stop of its own: no new element to announce there.
        XCTAssertEqual(try engine.move(from: "wifi", heading: .next).get().item, "wifi.switch")
        XCTAssertEqual(KeyboardNavigation.announcedElement(of: "wifi.switch", engine: engine, tree: tree), "wifi")
        XCTAssertEqual(KeyboardNavigation.announcedElement(of: "first", engine: engine, tree: tree), "first")
        func tab(_ from: String, _ heading: FocusHeading) throws -> String {
            try KeyboardNavigation.tabMove(engine, from: from, heading: heading, tree: tree).get().item
        }
        XCTAssertEqual(try tab("first", .next), "wifi")
        XCTAssertEqual(try tab("wifi", .next), "bluetooth", "Tab passes over the switch the Wi-Fi cell folds")
        XCTAssertEqual(try tab("bluetooth", .next), "last")
        XCTAssertEqual(try tab("last", .previous), "bluetooth", "Shift-Tab lands on the cell, not its switch")
        XCTAssertEqual(try tab("bluetooth", .previous), "wifi")
        XCTAssertEqual(try tab("wifi", .previous), "first")
        // From the folded switch itself (engine focus put there by the app or focus.set), Tab leaves the row.
        XCTAssertEqual(try tab("wifi.switch", .next), "bluetooth")
        XCTAssertEqual(try tab("wifi.switch", .previous), "first")
        // The end of the sequence stays what the engine says.
        XCTAssertEqual(
            KeyboardNavigation.tabMove(engine, from: "last", heading: .next, tree: tree),
            engine.move(from: "last", heading: .next))
    }

    func testArrowsStayInsideTheNamedGroup() throws {
        let engine = try Self.groupLayout()
        XCTAssertEqual(try KeyboardNavigation.arrowMove(engine, from: "t1", heading: .right).get().item, "t2")
        // The engine's directional search would leave the group for "out"; the key rule does not.
        XCTAssertEqual(try engine.move(from: "t2", heading: .right).get().item, "out")
        XCTAssertEqual(
            KeyboardNavigation.arrowMove(engine, from: "t2", heading: .right), .failure(.noCandidate(.right)))
        XCTAssertEqual(try KeyboardNavigation.arrowMove(engine, from: "t2", heading: .down).get().item, "t3")
        // Nothing of the group is in t1's column below it: the nearest group item beyond the bottom edge.
        XCTAssertEqual(try KeyboardNavigation.arrowMove(engine, from: "t1", heading: .down).get().item, "t3")
        XCTAssertEqual(KeyboardNavigation.arrowMove(engine, from: "t1", heading: .up), .failure(.noCandidate(.up)))
    }

    func testArrowsOutsideAnyGroupUseTheDirectionalSearch() throws {
        let engine = try Self.groupLayout()
        XCTAssertEqual(try KeyboardNavigation.arrowMove(engine, from: "out", heading: .left).get().item, "t2")
        // No focused item: the initial focus (C6), whatever the direction.
        XCTAssertEqual(try KeyboardNavigation.arrowMove(engine, from: nil, heading: .down).get().item, "t1")
    }

    // MARK: D-FOCUS-7

    static func alertStore(alertShown: Bool, modal: Bool = true) throws -> HierarchyStore {
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
                    "children": [
                        FocusEngineTests.button("reset", 16, 280), FocusEngineTests.button("other", 200, 280),
                        [
                            "id": "alert", "class": "UIAlertController", "frame": [45, 330, 300, 180],
                            "title": "Reset?", "isHidden": .bool(!alertShown), "accessibilityViewIsModal": .bool(modal),
                            "children": [FocusEngineTests.button("cancel", 0, 136)],
                        ],
                    ],
                ]
            ]
        ])
        return store
    }

    func testFocusIntoAModalRemembersWhereItCameFrom() throws {
        // A non-modal presentation keeps the button in the tree: moving focus into the alert remembers it.
        let store = try Self.alertStore(alertShown: true, modal: false)
        let tree = store.tree
        XCTAssertNotNil(tree["reset"], "a non-modal alert leaves its siblings in the tree")
        XCTAssertEqual(FocusReturn.modalContainer(of: "cancel", in: tree), "alert")
        XCTAssertNil(FocusReturn.modalContainer(of: "reset", in: tree))
        var stack: [String] = []
        FocusReturn.record(from: "reset", to: "cancel", tree: tree, stack: &stack)
        XCTAssertEqual(stack, ["reset"])
        // Moves inside the modal, or out of it, remember nothing.
        var other: [String] = []
        FocusReturn.record(from: "cancel", to: "alert", tree: tree, stack: &other)
        FocusReturn.record(from: "cancel", to: "reset", tree: tree, stack: &other)
        XCTAssertEqual(other, [])
    }

    func testFocusHiddenByAModalComesBackWhenItGoes() throws {
        let before = try Self.alertStore(alertShown: false)
        let shown = try Self.alertStore(alertShown: true)
        XCTAssertNotNil(before.tree["reset"])
        XCTAssertNil(shown.tree["reset"], "the alert is modal: its siblings leave the tree (X10)")
        var stack: [String] = []
        // The alert appears: the focused button leaves the tree; nothing to return to yet, so it is remembered.
        let whileShown = FocusReturn.focusAfterLoss(
            of: "reset", stack: &stack, tree: shown.tree, viewExists: { shown.views[$0] != nil })
        XCTAssertNil(whileShown)
        XCTAssertEqual(stack, ["reset"])
        // The alert goes while its Cancel button has focus: focus returns to the button.
        let after = FocusReturn.focusAfterLoss(
            of: "cancel", stack: &stack, tree: before.tree, viewExists: { before.views[$0] != nil })
        XCTAssertEqual(after, "reset")
        XCTAssertEqual(stack, [])
        // Without a modal, a lost element is not remembered (D-FOCUS-2 clears focus).
        let cleared = FocusReturn.focusAfterLoss(
            of: "gone", stack: &stack, tree: before.tree, viewExists: { _ in true })
        XCTAssertNil(cleared)
        XCTAssertEqual(stack, [])
    }

    func testRememberedIdsWhoseViewIsGoneAreDropped() throws {
        let before = try Self.alertStore(alertShown: false)
        var stack = ["removedLongAgo", "reset", "alsoGone"]
        let back = FocusReturn.focusAfterLoss(
            of: "cancel", stack: &stack, tree: before.tree, viewExists: { before.views[$0] != nil })
        XCTAssertEqual(back, "reset")
        XCTAssertEqual(stack, [])
    }
}
