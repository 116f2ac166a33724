import AXATSPIModel
import AXCore
import AXDemo
import AXJSON
import XCTest

/// What Orca trips over (issue 21 §5): SelectChild never operates a control (D-SELECT-1), Table row selection
/// agrees with the cells' SELECTED state and a selection change is announced (D-SELECT-2), a value no interface
/// carries reaches the screen reader (D-ATVALUE-1), and a text change carries the server's caret (D-KEYOP-5).
final class SelectionAndValueTests: XCTestCase {
    /// A list of folders ("Inbox" with value "3 unread" and a hint, an outline row, a row folding a switch), a
    /// button with a value, a segmented control and a stepper.
    static func mail(selected: String = "inbox") -> JSON {
        func row(_ id: String, _ y: Double, _ properties: [String: JSON], children: [JSON] = []) -> JSON {
            var all = properties
            all["isSelected"] = .bool(id == selected)
            return V.view(id, "UITableViewCell", [0, y, 250, 44], all, children: children)
        }
        let folders = V.view(
            "folders", "UITableView", [0, 0, 250, 300], [:],
            children: [
                row(
                    "inbox", 0,
                    [
                        "accessibilityLabel": "Inbox", "accessibilityValue": "3 unread",
                        "accessibilityHint": "Shows the inbox",
                    ]),
                row("archive", 44, ["accessibilityLabel": "Archive", "accessibilityExpandedStatus": "collapsed"]),
                row(
                    "sync", 88, [:],
                    children: [
                        V.view("syncLabel", "UILabel", [16, 11, 100, 22], ["text": "Sync"]),
                        V.view("syncSwitch", "UISwitch", [180, 6, 51, 31], ["isOn": true]),
                    ]),
            ])
        let window = V.view(
            "w", "UIWindow", [0, 0, 800, 600], ["isKeyWindow": true],
            children: [
                folders,
                V.view(
                    "send", "UIButton", [300, 10, 100, 44],
                    ["title": "Send", "accessibilityValue": "2 drafts"]),
                V.view(
                    "seg", "UISegmentedControl", [300, 60, 300, 32],
                    ["segmentTitles": ["Light", "Dark"], "selectedSegmentIndex": 0]),
                V.view(
                    "copies", "UIStepper", [300, 110, 94, 32],
                    ["value": 2, "minimumValue": 1, "maximumValue": 10, "accessibilityLabel": "Copies"]),
            ])
        return ["windows": [window]]
    }

    func testAValueNoInterfaceCarriesGoesIntoTheDescription() throws {
        let served = try Snapshots.served(Self.mail())
        let model = AccessibleModel(snapshot: served)
        func description(_ id: String) throws -> String {
            model.description(of: try Snapshots.node(id, in: served))
        }
        XCTAssertEqual(try description("inbox"), "3 unread, Shows the inbox", "before: only the hint reached Orca")
        XCTAssertEqual(try description("send"), "2 drafts")
        XCTAssertEqual(try description("sync"), "", "a switch row says on/off through CHECKED")
        XCTAssertEqual(try description("copies"), "", "a stepper's value is the Value interface's")
        let segment = try XCTUnwrap(served.tree["seg"]?.children.first)
        XCTAssertEqual(try description(segment), "", "a segment's 'N of M' is its position, spoken already")
    }

    func testSelectChildNeverOperatesAControlOrAnOutlineRow() throws {
        let served = try Snapshots.served(Self.mail())
        let folders = try Snapshots.node("folders", in: served)
        func selectable(_ id: String, in container: AXNode) throws -> Bool {
            SelectionModel.selectsByActivation(try Snapshots.node(id, in: served), container: container)
        }
        XCTAssertTrue(try selectable("inbox", in: folders), "a tap on a plain row selects it")
        XCTAssertFalse(try selectable("archive", in: folders), "activation would collapse or expand it")
        XCTAssertFalse(try selectable("sync", in: folders), "activation would flip the folded switch")
        let seg = try Snapshots.node("seg", in: served)
        XCTAssertTrue(try selectable(try XCTUnwrap(seg.children.last), in: seg))
    }

    func testMemberOfGoesOutLastMemberFirstForOrca43() throws {
        let served = try Snapshots.served(Self.mail())
        let segments = try Snapshots.node("seg", in: served).children
        let first = try Snapshots.node(try XCTUnwrap(segments.first), in: served)
        let memberOf = AccessibleModel(snapshot: served).relations(of: .node(first)).first { $0.type == 5 }
        // Orca 43 speaks position = total − index + 1: the first segment must be last in the list ("1 of 2").
        XCTAssertEqual(memberOf?.targets, Array(segments.reversed()))
    }

    func testTableRowSelectionAgreesWithTheCells() throws {
        var hierarchy = Snapshots.table()
        // Select Ann's row (both cells), as a table selecting a row marks its cells.
        func select(_ node: inout JSON) {
            guard case .object(var object) = node else { return }
            if let id = object["id"]?.stringValue, id == "c10" || id == "c11" { object["isSelected"] = true }
            if case .array(var children)? = object["children"] {
                for index in children.indices { select(&children[index]) }
                object["children"] = .array(children)
            }
            node = .object(object)
        }
        if case .array(var windows)? = hierarchy["windows"] {
            for index in windows.indices { select(&windows[index]) }
            hierarchy = ["windows": .array(windows)]
        }
        let served = try Snapshots.served(hierarchy)
        let table = TableModel(table: try Snapshots.node("grid", in: served), snapshot: served)
        XCTAssertEqual(table.selectedRows, [1], "before: GetSelectedRows was always empty")
        XCTAssertTrue(table.isRowSelected(1))
        XCTAssertFalse(table.isRowSelected(0))
        XCTAssertTrue(table.isSelected(row: 1, column: 0), "IsSelected agrees")
    }

    func testASelectionChangeIsAnnouncedOncePerContainer() throws {
        let store = HierarchyStore()
        try store.setSnapshot(Self.mail(selected: "inbox"))
        let before = ServedSnapshot(tree: store.tree)
        let changes = try store.apply(json: [
            ["op": "set", "id": "inbox", "properties": ["isSelected": false]],
            ["op": "set", "id": "archive", "properties": ["isSelected": true]],
        ])
        let after = ServedSnapshot(tree: store.tree)
        let selection = EventDiff.updates(from: before, to: after, changes: changes).compactMap { update in
            if case .event(let event) = update, event.kind == .selectionChanged { return event.source }
            return nil
        }
        XCTAssertEqual(selection, ["folders"])
        XCTAssertEqual(ATSPIEventKind.selectionChanged.listenerMember, "selectionchanged")
    }

    func testATextChangeCarriesTheServersCaret() throws {
        let hierarchy: (String) -> JSON = { text in
            [
                "windows": [
                    V.view(
                        "w", "UIWindow", [0, 0, 300, 300], ["isKeyWindow": true],
                        children: [V.view("field", "UITextField", [10, 10, 200, 30], ["text": .string(text)])])
                ]
            ]
        }
        let store = HierarchyStore()
        try store.setSnapshot(hierarchy("abc"))
        let before = ServedSnapshot(tree: store.tree)
        let changes = try store.apply(json: [["op": "set", "id": "field", "properties": ["text": "aXbc"]]])
        var after = ServedSnapshot(tree: store.tree)
        after.carets = ["field": 2]
        let carets = EventDiff.updates(from: before, to: after, changes: changes).compactMap { update in
            if case .event(let event) = update, event.kind == .textCaretMoved { return event.detail1 }
            return nil
        }
        XCTAssertEqual(carets, [2], "the caret after the typed X, not at the end")
        XCTAssertEqual(TextModel.caretOffset(of: try Snapshots.node("field", in: after), in: after), 2)
    }
}
