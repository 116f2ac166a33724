import AXCore
import AXJSON
import XCTest

/// Keys operate the focused control (Specs/decisions.md §Keys operate controls, D-KEYOP-1…5) and the key table's
/// shifted symbols (D-KEY-7), on hand-built hierarchies whose answers follow from the written rules.
final class KeyOperationTests: XCTestCase {
    func symbol(_ name: String) throws -> KeySymbol { try XCTUnwrap(Keysyms.symbol(named: name), name) }

    /// A slider, a stepper, a segmented control, a text field, a text view and a one-column list of three rows
    /// (the middle one an outline row, collapsed), beside a second list.
    static func tree() throws -> AXTree {
        func row(_ id: String, _ y: Double, _ extra: JSONObject = [:]) -> JSON {
            var object: JSONObject = [
                "id": .string(id), "class": "UITableViewCell", "frame": [0, JSON(y), 200, 44],
                "accessibilityLabel": .string(id),
            ]
            for (key, value) in extra { object[key] = value }
            return .object(object)
        }
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 900], "isKeyWindow": true,
                    "children": [
                        [
                            "id": "slider", "class": "UISlider", "frame": [10, 10, 200, 30], "value": 0.5,
                            "accessibilityLabel": "Volume",
                        ],
                        [
                            "id": "stepper", "class": "UIStepper", "frame": [10, 50, 94, 32], "value": 3,
                            "minimumValue": 1, "maximumValue": 10, "accessibilityLabel": "Copies",
                        ],
                        [
                            "id": "seg", "class": "UISegmentedControl", "frame": [10, 90, 300, 32],
                            "segmentTitles": ["Light", "Dark", "Automatic"], "selectedSegmentIndex": 0,
                        ],
                        ["id": "field", "class": "UITextField", "frame": [10, 130, 300, 34], "text": "hello world"],
                        [
                            "id": "notes", "class": "UITextView", "frame": [10, 170, 300, 100], "text": "one\ntwo",
                            "isEditable": true,
                        ],
                        [
                            "id": "list", "class": "UITableView", "frame": [0, 300, 200, 200],
                            "children": [
                                row("r1", 0), row("r2", 44, ["accessibilityExpandedStatus": "collapsed"]),
                                row("r3", 88),
                            ],
                        ],
                        [
                            "id": "side", "class": "UITableView", "frame": [210, 300, 190, 200],
                            "children": [row("s1", 0)],
                        ],
                    ],
                ]
            ]
        ])
        return store.tree
    }

    func operation(_ key: String, _ modifiers: Set<KeyModifier> = [], on item: String, _ tree: AXTree) throws
        -> KeyOperation?
    {
        let element = try XCTUnwrap(KeyboardNavigation.operatedElement(item, tree: tree), item)
        return KeyboardNavigation.operation(
            for: try symbol(key), modifiers: modifiers, element: element, tree: tree)
    }

    func testAdjustableElementsTakeTheArrows() throws {
        let tree = try Self.tree()
        for item in ["slider", "stepper"] {
            for key in ["Up", "Right", "KP_Up", "Page_Up"] {
                XCTAssertEqual(try operation(key, on: item, tree), .increment, "\(item) \(key)")
            }
            for key in ["Down", "Left", "KP_Left", "Page_Down"] {
                XCTAssertEqual(try operation(key, on: item, tree), .decrement, "\(item) \(key)")
            }
            XCTAssertNil(try operation("Tab", on: item, tree), "Tab stays navigation")
            XCTAssertNil(try operation("Right", [.control], on: item, tree), "a Control chord is the app's")
        }
        XCTAssertEqual(try operation("End", on: "stepper", tree), .setNumber(10))
        XCTAssertEqual(try operation("Home", on: "stepper", tree), .setNumber(1))
    }

    func testArrowsMoveTheSelectionOfASegmentedControl() throws {
        let tree = try Self.tree()
        let segments = try XCTUnwrap(tree["seg"]).children
        XCTAssertEqual(segments.count, 3)
        // Engine focus on the control itself: the operated element is its selected segment (the first).
        XCTAssertEqual(KeyboardNavigation.operatedElement("seg", tree: tree)?.id, segments[0])
        XCTAssertEqual(try operation("Right", on: "seg", tree), .select(segments[1]))
        XCTAssertEqual(try operation("Down", on: segments[1], tree), .select(segments[2]))
        XCTAssertEqual(try operation("Left", on: segments[1], tree), .select(segments[0]))
        XCTAssertEqual(try operation("End", on: "seg", tree), .select(segments[2]))
        XCTAssertEqual(try operation("Left", on: "seg", tree), .stay, "the first segment: no wrap, no focus jump")
        XCTAssertEqual(try operation("Right", on: segments[2], tree), .stay)
    }

    func testRowsMoveInsideTheirListAndOutlineRowsExpand() throws {
        let tree = try Self.tree()
        XCTAssertEqual(try operation("Down", on: "r1", tree), .focusRow("r2"))
        XCTAssertEqual(try operation("Up", on: "r3", tree), .focusRow("r2"))
        XCTAssertEqual(try operation("Up", on: "r1", tree), .stay, "the first row: focus stays in the list")
        XCTAssertEqual(try operation("End", on: "r1", tree), .focusRow("r3"))
        XCTAssertEqual(try operation("Right", on: "r1", tree), .stay, "one column: no jump to the list beside it")
        XCTAssertEqual(try operation("Right", on: "r2", tree), .toggleExpansion, "a collapsed outline row expands")
        XCTAssertEqual(try operation("plus", on: "r2", tree), .toggleExpansion)
        XCTAssertEqual(try operation("Left", on: "r2", tree), .stay, "collapsed already")
        XCTAssertEqual(try operation("Down", on: "s1", tree), .stay, "the only row of the other list")
    }

    func testTextElementsTakeTypingAndEditingKeys() throws {
        let tree = try Self.tree()
        XCTAssertEqual(try operation("h", on: "field", tree), .edit(.insert("h")))
        XCTAssertEqual(try operation("h", [.shift], on: "field", tree), .edit(.insert("H")))
        XCTAssertEqual(try operation("equal", [.shift], on: "field", tree), .edit(.insert("+")))
        XCTAssertEqual(try operation("plus", on: "field", tree), .edit(.insert("+")))
        XCTAssertEqual(try operation("space", on: "field", tree), .edit(.insert(" ")))
        XCTAssertEqual(try operation("BackSpace", on: "field", tree), .edit(.deleteBackward(word: false)))
        XCTAssertEqual(try operation("Delete", [.control], on: "field", tree), .edit(.deleteForward(word: true)))
        XCTAssertEqual(try operation("Left", on: "field", tree), .edit(.move(.characterBackward, extend: false)))
        XCTAssertEqual(try operation("Right", [.control], on: "field", tree), .edit(.move(.wordForward, extend: false)))
        XCTAssertEqual(
            try operation("Left", [.shift], on: "field", tree), .edit(.move(.characterBackward, extend: true)))
        XCTAssertEqual(try operation("Up", on: "field", tree), .edit(.move(.documentStart, extend: false)))
        XCTAssertEqual(try operation("Up", on: "notes", tree), .edit(.move(.lineUp, extend: false)))
        XCTAssertEqual(try operation("Return", on: "notes", tree), .edit(.insert("\n")))
        XCTAssertNil(try operation("Return", on: "field", tree), "Return in a field activates (navigation)")
        XCTAssertNil(try operation("Tab", on: "field", tree))
        XCTAssertNil(try operation("c", [.control], on: "field", tree), "Control-C is the app's shortcut")
    }

    func testAReadOnlyTextViewTakesTheCaretKeysOnly() throws {
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 400], "isKeyWindow": true,
                    "children": [
                        [
                            "id": "pane", "class": "UITextView", "frame": [0, 0, 400, 300], "text": "one\ntwo",
                            "isEditable": false,
                        ]
                    ],
                ]
            ]
        ])
        let tree = store.tree
        XCTAssertTrue(KeyboardNavigation.isReadOnlyTextView(try XCTUnwrap(tree["pane"])))
        XCTAssertEqual(try operation("Down", on: "pane", tree), .edit(.move(.lineDown, extend: false)))
        XCTAssertEqual(try operation("Right", [.control], on: "pane", tree), .edit(.move(.wordForward, extend: false)))
        XCTAssertNil(try operation("a", on: "pane", tree), "nothing is typed into text the user only reads")
        XCTAssertNil(try operation("BackSpace", on: "pane", tree))
        XCTAssertNil(try operation("Tab", on: "pane", tree))
    }

    func testTheEditingModel() {
        func run(_ text: String, caret: Int? = nil, _ commands: [TextEditCommand]) -> TextEditState {
            var state = TextEditState(text: text, caret: caret)
            for command in commands { state = TextEditing.apply(command, to: state) }
            return state
        }
        XCTAssertEqual(run("abc", [.insert("d")]).string, "abcd")
        let middle = run("abc", caret: 1, [.insert("X")])
        XCTAssertEqual(middle.string, "aXbc")
        XCTAssertEqual(middle.caret, 2)
        XCTAssertEqual(run("abc", [.deleteBackward(word: false)]).string, "ab")
        XCTAssertEqual(run("abc", caret: 0, [.deleteBackward(word: false)]).string, "abc", "nothing before")
        XCTAssertEqual(run("abc", caret: 1, [.deleteForward(word: false)]).string, "ac")
        XCTAssertEqual(run("hello big world", [.deleteBackward(word: true)]).string, "hello big ")
        XCTAssertEqual(run("hello world", [.move(.wordBackward, extend: false)]).caret, 6)
        XCTAssertEqual(run("hello world", caret: 0, [.move(.wordForward, extend: false)]).caret, 5)
        XCTAssertEqual(run("hello world", [.move(.lineStart, extend: false)]).caret, 0)
        let selected = run("hello world", [.move(.wordBackward, extend: true), .insert("there")])
        XCTAssertEqual(selected.string, "hello there", "typing replaces the selection")
        XCTAssertEqual(run("abc", [.selectAll, .deleteBackward(word: false)]).string, "")
        XCTAssertEqual(run("abc", [.selectAll, .move(.characterBackward, extend: false)]).caret, 0)
        // Lines: "one\ntwo\nlonger": Up from the end of "two" goes to the end of "one", Down keeps the column.
        XCTAssertEqual(run("one\ntwo", [.move(.lineUp, extend: false)]).caret, 3)
        XCTAssertEqual(run("one\ntwo\nlonger", caret: 1, [.move(.lineDown, extend: false)]).caret, 5)
        XCTAssertEqual(run("one\ntwo", caret: 5, [.move(.lineEnd, extend: false)]).caret, 7)
        XCTAssertEqual(run("é🙂", [.deleteBackward(word: false)]).string, "é", "scalars, as AT-SPI counts")
    }

    func testShiftedSymbolsAndTheirText() throws {
        let plus = try symbol("plus")
        XCTAssertEqual(plus.keysym, 0x2b)
        XCTAssertEqual(plus.keycode, try symbol("equal").keycode, "same key as equal on a US layout")
        XCTAssertEqual(try symbol("at").text, "@")
        XCTAssertEqual(try symbol("question").keycode, 61)
        XCTAssertEqual(Keysyms.resolved(try symbol("equal"), modifiers: [.shift]).name, "plus")
        XCTAssertEqual(Keysyms.resolved(try symbol("a"), modifiers: [.shift]).name, "A")
        XCTAssertEqual(Keysyms.resolved(try symbol("Tab"), modifiers: [.shift]).name, "Tab")
        XCTAssertEqual(Keysyms.text(of: try symbol("2"), modifiers: [.shift]), "@")
        XCTAssertNil(Keysyms.text(of: try symbol("a"), modifiers: [.control]))
        XCTAssertEqual(Keysyms.symbol(typing: "+")?.symbol.name, "plus")
        XCTAssertEqual(Keysyms.symbol(typing: "+")?.shift, true)
        XCTAssertEqual(Keysyms.suggestion(for: "+"), "plus")
        XCTAssertEqual(Keysyms.suggestion(for: "tab"), "Tab")
        XCTAssertNil(Keysyms.suggestion(for: "é"), "no key types it: send it as text")
    }
}
