import AXATSPIModel
import AXCore
import AXDemo
import AXJSON
import XCTest

/// The order of `EventDiff.updates` (what the bridge sends after a change), without a bus.
final class EventDiffTests: XCTestCase {
    /// Applies `patch` to `Snapshots.controls()` and diffs the two served snapshots.
    func diff(_ patch: JSON, focusBefore: String? = nil, focusAfter: String? = nil) throws -> [ATSPIUpdate] {
        let store = HierarchyStore()
        try store.setSnapshot(Snapshots.controls(wifiOn: false))
        let before = ServedSnapshot(tree: store.tree, focusedID: focusBefore)
        let changes = try store.apply(json: patch)
        let after = ServedSnapshot(tree: store.tree, focusedID: focusAfter)
        return EventDiff.updates(from: before, to: after, changes: changes)
    }

    func events(_ updates: [ATSPIUpdate]) -> [ATSPIEvent] {
        updates.compactMap { update in
            if case .event(let event) = update { return event }
            return nil
        }
    }

    func position(
        _ updates: [ATSPIUpdate], _ predicate: (ATSPIUpdate) -> Bool, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> Int {
        try XCTUnwrap(updates.firstIndex(where: predicate), "missing update in \(updates)", file: file, line: line)
    }

    func testChildrenChangedAndCacheComeBeforePropertyStateAndFocusEvents() throws {
        let updates = try diff(
            [
                [
                    "op": "insert", "parent": "w",
                    "view": V.view("note", "UILabel", [10, 180, 200, 30], ["text": "Saved"]),
                ],
                ["op": "set", "id": "wifi", "properties": ["isOn": true]],
                ["op": "set", "id": "ok", "properties": ["accessibilityLabel": "Okay"]],
            ], focusAfter: "ok")
        let added = try position(updates) {
            guard case .event(let event) = $0 else { return false }
            return event.kind == .childrenChanged && event.detail == "add" && event.data == .reference("note")
        }
        let cached = try position(updates) { $0 == .cacheAdd(elementID: "note") }
        let renamed = try position(updates) {
            guard case .event(let event) = $0 else { return false }
            return event.kind == .propertyChange && event.detail == "accessible-name" && event.data == .string("Okay")
        }
        let checked = try position(updates) {
            guard case .event(let event) = $0 else { return false }
            return event.kind == .stateChanged && event.source == "wifi" && event.detail == "checked"
                && event.detail1 == 1
        }
        let focused = try position(updates) {
            guard case .event(let event) = $0 else { return false }
            return event.kind == .stateChanged && event.source == "ok" && event.detail == "focused"
                && event.detail1 == 1
        }
        let legacyFocus = try position(updates) {
            guard case .event(let event) = $0 else { return false }
            return event.kind == .focus && event.source == "ok"
        }
        XCTAssertLessThan(added, cached, "children-changed, then the cache item")
        XCTAssertLessThan(cached, renamed, "structure before properties")
        XCTAssertLessThan(cached, checked, "structure before states")
        XCTAssertLessThan(checked, focused, "focus after the other state changes")
        XCTAssertLessThan(renamed, focused)
        XCTAssertEqual(legacyFocus, updates.count - 1, "the legacy focus: event goes last")
        let addEvent = events(updates).first { $0.kind == .childrenChanged }
        XCTAssertEqual(addEvent?.source, "w")
        XCTAssertEqual(addEvent?.detail1, 4, "the note is the window's fifth child")
        XCTAssertEqual(addEvent?.maintainsCache, true)
    }

    func testRemovalsGoOutLastIndexFirstBeforeAdds() throws {
        let updates = try diff([
            ["op": "remove", "id": "title"],
            ["op": "remove", "id": "wifi"],
            ["op": "insert", "parent": "w", "view": V.view("note", "UILabel", [10, 180, 200, 30], ["text": "Saved"])],
        ])
        let children = events(updates).filter { $0.kind == .childrenChanged }
        XCTAssertEqual(children.map(\.detail), ["remove", "remove", "add"])
        XCTAssertEqual(children.map(\.detail1), [2, 0, 2], "removes from the last index down, then adds")
        XCTAssertEqual(children.map(\.data), [.reference("wifi"), .reference("title"), .reference("note")])
        let removes = updates.filter {
            if case .cacheRemove = $0 { return true }
            return false
        }
        XCTAssertEqual(Set(removes.map { "\($0)" }).count, 2)
        let firstRemove = try position(updates) {
            if case .cacheRemove = $0 { return true }
            return false
        }
        XCTAssertEqual(firstRemove, 0, "cache removals precede the children-changed events")
    }

    func testFocusMovesOutBeforeIn() throws {
        let updates = try diff([], focusBefore: "wifi", focusAfter: "ok")
        let focusEvents = events(updates).filter { $0.kind == .stateChanged && $0.detail == "focused" }
        XCTAssertEqual(focusEvents.map(\.source), ["wifi", "ok"])
        XCTAssertEqual(focusEvents.map(\.detail1), [0, 1])
    }

    func testTextChangeIsDeleteInsertThenCaret() throws {
        var changes = ChangeSet(fromRevision: 1, toRevision: 2)
        changes.updated = ["field": ["text"]]
        let updates = EventDiff.updates(
            from: ServedSnapshot(tree: try textFieldTree("cat")), to: ServedSnapshot(tree: try textFieldTree("cut")),
            changes: changes)
        let text = events(updates).filter { $0.kind == .textChanged || $0.kind == .textCaretMoved }
        XCTAssertEqual(text.map(\.detail), ["delete", "insert", ""])
        XCTAssertEqual(text.map(\.data), [.string("a"), .string("u"), .int(0)])
        XCTAssertEqual(text.map(\.detail1), [1, 1, 3])
    }

    func textFieldTree(_ text: String) throws -> AXTree {
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                V.view(
                    "w", "UIWindow", [0, 0, 300, 300], ["isKeyWindow": true],
                    children: [V.view("field", "UITextField", [10, 10, 200, 30], ["text": .string(text)])])
            ]
        ])
        return store.tree
    }

    /// D-TEXT-APP-3: a change of the attribute runs AT-SPI serves is `object:text-attributes-changed` from the
    /// element (once, no detail); a label change or a speech-only attribute change is not.
    func testAttributeRunChangesAreTextAttributesChanged() throws {
        func attributeEvents(_ patch: JSON) throws -> [ATSPIEvent] {
            let store = HierarchyStore()
            try store.setSnapshot(Snapshots.controls())
            _ = try store.apply(json: [
                [
                    "op": "set", "id": "title",
                    "properties": ["attributedText": [["range": [0, 3], "attributes": ["misspelled": true]]]],
                ]
            ])
            let before = ServedSnapshot(tree: store.tree)
            let changes = try store.apply(json: patch)
            let updates = EventDiff.updates(from: before, to: ServedSnapshot(tree: store.tree), changes: changes)
            return events(updates).filter { $0.kind == .textAttributesChanged }
        }
        func runs(_ runs: JSON) -> JSON { [["op": "set", "id": "title", "properties": ["attributedText": runs]]] }
        // The misspelling corrected, then another word marked bold: one event each.
        let corrected = try attributeEvents(runs([]))
        XCTAssertEqual(corrected.map(\.source), ["title"])
        XCTAssertEqual(corrected.map(\.detail), [""])
        let bold = try attributeEvents(runs([["range": [0, 3], "attributes": ["misspelled": true, "bold": true]]]))
        XCTAssertEqual(bold.map(\.source), ["title"])
        let moved = try attributeEvents(runs([["range": [1, 3], "attributes": ["misspelled": true]]]))
        XCTAssertEqual(moved.count, 1, "the run's range changed")
        XCTAssertEqual(ATSPIEventKind.textAttributesChanged.listenerMember, "textattributeschanged")
        // Not served on AT-SPI: a speech-only attribute (no GTK name); no run change at all.
        XCTAssertEqual(
            try attributeEvents(runs([["range": [0, 3], "attributes": ["misspelled": true, "spellOut": true]]])), [])
        XCTAssertEqual(
            try attributeEvents([["op": "set", "id": "ok", "properties": ["accessibilityLabel": "Fine"]]]), [])
    }
}
