import AXATSPIModel
import AXCore
import AXDemo
import AXJSON
import XCTest

/// D-ATSPI-MODAL-1 without a bus: the served tree keeps a modal view's siblings, the change sets say only what
/// really changed, and a sibling the app deleted while the modal view was up is removed when it goes.
final class ModalRetentionTests: XCTestCase {
    /// The store's tree after `patch`, served through `retention` after `served`; the events of that step.
    func step(
        _ store: HierarchyStore, _ patch: JSON, served: inout ServedSnapshot
    ) throws -> [ATSPIUpdate] {
        let old = served
        let changes = try store.apply(json: patch)
        var new = old
        let adjusted: ChangeSet
        (new.tree, adjusted) = new.modalRetention.serve(previous: old.tree, next: store.tree, changes: changes)
        served = new
        return EventDiff.updates(from: old, to: new, changes: adjusted)
    }

    func childrenChanged(_ updates: [ATSPIUpdate]) -> [String] {
        updates.compactMap { update in
            guard case .event(let event) = update, event.kind == .childrenChanged,
                case .reference(let child) = event.data
            else { return nil }
            return "\(event.detail) \(child ?? "-")"
        }
    }

    func testSiblingsStayWhileTheAlertIsUpAndOnlyTheDeletedOneLeavesAfterIt() throws {
        let store = HierarchyStore()
        try store.setSnapshot(Snapshots.controls())
        var served = ServedSnapshot(tree: store.tree)
        let background = try XCTUnwrap(served.tree["w"]?.children)
        XCTAssertTrue(background.contains("wifi"))

        // The alert: the core hides its siblings (X10); the served tree keeps them, the alert last.
        let shown = try step(
            store,
            [
                [
                    "op": "insert", "parent": "w",
                    "view": V.view("alert", "UIAlertController", [50, 100, 300, 180], ["title": "Sure?"]),
                ]
            ], served: &served)
        XCTAssertNil(store.tree["wifi"], "the core's tree hides the alert's siblings (D-MODAL-1)")
        XCTAssertEqual(served.tree["w"]?.children, background + ["alert"])
        XCTAssertNotNil(served.tree["wifi"])
        XCTAssertEqual(childrenChanged(shown), ["add alert"])
        XCTAssertFalse(shown.contains { if case .cacheRemove = $0 { return true } else { return false } })

        // While it is up the app deletes a background view the core no longer shows: still served as it was.
        let deleted = try step(store, [["op": "remove", "id": "bt"]], served: &served)
        XCTAssertTrue(childrenChanged(deleted).isEmpty)
        XCTAssertNotNil(served.tree["bt"])

        // The alert goes: it is removed, the deleted view is removed now, nothing else is re-added.
        let dismissed = try step(store, [["op": "remove", "id": "alert"]], served: &served)
        XCTAssertEqual(served.tree["w"]?.children, background.filter { $0 != "bt" })
        XCTAssertNil(served.tree["bt"])
        XCTAssertEqual(
            Set(childrenChanged(dismissed)),
            ["remove alert", "remove bt"])
        XCTAssertTrue(dismissed.contains(.cacheRemove(elementID: "bt")))
        XCTAssertFalse(dismissed.contains(.cacheAdd(elementID: "wifi")), "the background came back as new objects")
        XCTAssertTrue(served.modalRetention.isEmpty)
    }
}
