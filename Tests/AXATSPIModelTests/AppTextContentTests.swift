import AXATSPIModel
import AXCore
import AXDemo
import AXJSON
import XCTest

/// The caret and selection an app reports with `selectedTextRange` (D-TEXT-APP-1): decoded, clamped to the text,
/// read by the AT-SPI Text model and announced by `text-caret-moved` / `text-selection-changed`.
final class AppTextContentTests: XCTestCase {
    /// A window with a text field "Hello wörld" (11 scalars) and a multi-line text view; extra properties per view.
    static func hierarchy(field: [String: JSON] = [:], notes: [String: JSON] = [:]) -> JSON {
        let fieldProperties = field.merging(["text": "Hello wörld", "accessibilityLabel": "Name"]) { mine, _ in mine }
        let notesProperties = notes.merging(["text": "one\ntwo", "accessibilityLabel": "Notes"]) { mine, _ in mine }
        let window = V.view(
            "w", "UIWindow", [0, 0, 400, 400], ["isKeyWindow": true],
            children: [
                V.view("name", "UITextField", [10, 10, 200, 30], fieldProperties),
                V.view("notes", "UITextView", [10, 50, 200, 100], notesProperties),
            ])
        return ["windows": [window]]
    }

    func testTheAppsRangeReachesTheElementClampedToItsText() throws {
        let store = HierarchyStore()
        try store.setSnapshot(
            Self.hierarchy(field: ["selectedTextRange": [6, 5]], notes: ["selectedTextRange": [5, 40]]))
        XCTAssertEqual(store.tree["name"]?.textContent?.selectedRange, TextRange(location: 6, length: 5))
        // Past the end of "one\ntwo" (7 scalars): clamped.
        XCTAssertEqual(store.tree["notes"]?.textContent?.selectedRange, TextRange(location: 5, length: 2))
        try store.setSnapshot(Self.hierarchy())
        XCTAssertNil(store.tree["name"]?.textContent, "no range sent: nothing reported")
    }

    func testANegativeOrMalformedRangeIsRefusedNamingTheProperty() {
        for bad: JSON in [[-1, 2], [1, -2], "3", [1.5, 2]] {
            let store = HierarchyStore()
            XCTAssertThrowsError(try store.setSnapshot(Self.hierarchy(field: ["selectedTextRange": bad]))) { error in
                XCTAssertTrue("\(error)".contains("selectedTextRange"), "\(error)")
            }
        }
    }

    func testTheTextModelReadsTheAppsCaretBeforeTheServers() throws {
        var snapshot = try Snapshots.served(Self.hierarchy(field: ["selectedTextRange": [2, 3]]))
        let field = try Snapshots.node("name", in: snapshot)
        // The caret is the end of the selection; the server's caret (D-KEYOP-5) does not override the app's.
        snapshot.carets["name"] = 9
        XCTAssertEqual(TextModel.caretOffset(of: field, in: snapshot), 5)
        XCTAssertEqual(field.textContent?.selection, 2..<5)
        // Without the app's range, the text input's caret stays where the server has it (then at the end).
        let plain = try Snapshots.served(Self.hierarchy())
        XCTAssertEqual(TextModel.caretOffset(of: try Snapshots.node("name", in: plain), in: plain), 11)
    }

    /// Applies `patch` to the hierarchy whose field reports `range`, and diffs the two served snapshots.
    func events(from range: JSON, patch: JSON) throws -> [ATSPIEvent] {
        let store = HierarchyStore()
        try store.setSnapshot(Self.hierarchy(field: ["selectedTextRange": range]))
        let before = ServedSnapshot(tree: store.tree)
        let changes = try store.apply(json: patch)
        let after = ServedSnapshot(tree: store.tree)
        return EventDiff.updates(from: before, to: after, changes: changes).compactMap {
            if case .event(let event) = $0 { return event }
            return nil
        }
    }

    func testMovingTheCaretEmitsCaretMovedAndNoSelectionChange() throws {
        let events = try events(
            from: [11, 0], patch: [["op": "set", "id": "name", "properties": ["selectedTextRange": [3, 0]]]])
        XCTAssertEqual(
            events.filter { $0.kind == .textCaretMoved }.map { "\($0.source ?? "")@\($0.detail1)" }, ["name@3"])
        XCTAssertFalse(events.contains { $0.kind == .textSelectionChanged })
    }

    func testSelectingEmitsSelectionChangedAndTheCaretAtItsEnd() throws {
        let selected = try events(
            from: [0, 0], patch: [["op": "set", "id": "name", "properties": ["selectedTextRange": [0, 5]]]])
        XCTAssertEqual(selected.filter { $0.kind == .textCaretMoved }.map(\.detail1), [5])
        XCTAssertEqual(selected.filter { $0.kind == .textSelectionChanged }.map(\.source), ["name"])
        let collapsed = try events(
            from: [0, 5], patch: [["op": "set", "id": "name", "properties": ["selectedTextRange": [5, 0]]]])
        XCTAssertEqual(collapsed.filter { $0.kind == .textSelectionChanged }.count, 1, "the selection went away")
        XCTAssertFalse(collapsed.contains { $0.kind == .textCaretMoved }, "the caret stayed at 5")
    }

    func testAnEditReportsTheAppsCaretWithTheTextChangeOnce() throws {
        // Typing "X" at offset 0: the text change carries the caret the app reports (1), not the end (12).
        let events = try events(
            from: [0, 0],
            patch: [["op": "set", "id": "name", "properties": ["text": "XHello wörld", "selectedTextRange": [1, 0]]]])
        XCTAssertEqual(events.filter { $0.kind == .textChanged }.map(\.detail), ["insert"])
        XCTAssertEqual(events.filter { $0.kind == .textCaretMoved }.map(\.detail1), [1])
    }
}
