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

    /// The events of `kind` in `updates`, as "source detail1".
    func events(_ kind: ATSPIEventKind, _ updates: [ATSPIUpdate]) -> [String] {
        updates.compactMap { update in
            guard case .event(let event) = update, event.kind == kind else { return nil }
            return "\(event.source ?? "-") \(event.detail1)"
        }
    }

    /// Two windows, the editor key.
    static func twoWindows() -> JSON {
        [
            "windows": [
                V.view(
                    "editor", "UIWindow", [0, 0, 800, 600], ["isKeyWindow": true, "windowTitle": "Editor"],
                    children: [
                        V.view("bold", "UIButton", [10, 10, 80, 40], ["title": "Bold"]),
                        V.view("body", "UITextView", [10, 60, 700, 400], ["text": "Hello"]),
                    ]),
                V.view(
                    "inspector", "UIWindow", [820, 0, 300, 600], ["windowTitle": "Inspector"],
                    children: [V.view("size", "UISlider", [10, 10, 200, 40], ["value": 0.5])]),
            ]
        ]
    }

    func testWindowsStayWhileAModalWindowIsUpAndOnlyTheClosedOneLeavesAfterIt() throws {
        let store = HierarchyStore()
        _ = try store.setSnapshot(Self.twoWindows())
        var served = ServedSnapshot(tree: store.tree)
        XCTAssertEqual(served.tree.windows, ["editor", "inspector"])

        // A modal window (X10 among windows): the core hides the other windows; the served tree keeps them, the
        // modal window last; the editor is no longer the active window, the modal window is.
        let dialog = V.view(
            "print", "UIWindow", [200, 150, 400, 300],
            ["isKeyWindow": true, "windowLevel": 1, "windowTitle": "Print", "accessibilityViewIsModal": true],
            children: [V.view("cancel", "UIButton", [10, 250, 100, 40], ["title": "Cancel"])])
        let shown = try step(store, [["op": "insert", "view": dialog]], served: &served)
        XCTAssertEqual(store.tree.windows, ["print"], "the core's tree hides the other windows (D-MODAL-1)")
        XCTAssertEqual(served.tree.windows, ["editor", "inspector", "print"])
        XCTAssertNotNil(served.tree["bold"])
        XCTAssertEqual(childrenChanged(shown), ["add print"])
        XCTAssertFalse(shown.contains { if case .cacheRemove = $0 { return true } else { return false } })
        XCTAssertEqual(events(.windowDeactivate, shown), ["editor 0"])
        XCTAssertEqual(events(.windowActivate, shown), ["print 0"])
        XCTAssertEqual(events(.windowDestroy, shown), [])
        XCTAssertEqual(served.tree["editor"]?.states.contains(.activeWindow), false)

        // While it is up the app closes the inspector, which the core no longer shows: still served as it was.
        let closed = try step(store, [["op": "remove", "id": "inspector"]], served: &served)
        XCTAssertTrue(childrenChanged(closed).isEmpty)
        XCTAssertNotNil(served.tree["size"])

        // The modal window goes: it and the closed inspector leave, the editor is active again, nothing re-added.
        let dismissed = try step(store, [["op": "remove", "id": "print"]], served: &served)
        XCTAssertEqual(served.tree.windows, ["editor"])
        XCTAssertEqual(Set(childrenChanged(dismissed)), ["remove print", "remove inspector"])
        let removedObjects = dismissed.compactMap { update -> String? in
            if case .cacheRemove(let id) = update { return id } else { return nil }
        }
        XCTAssertEqual(removedObjects.sorted(), ["cancel", "inspector", "print", "size"])
        XCTAssertFalse(dismissed.contains(.cacheAdd(elementID: "bold")), "the editor came back as new objects")
        XCTAssertEqual(events(.windowActivate, dismissed), ["editor 0"])
        XCTAssertTrue(served.modalRetention.isEmpty)
    }

    /// An alert inside the editor, then a modal window over everything: the editor comes with the alert's retained
    /// siblings, and when the modal window goes the alert is still up and nothing of the editor is re-added.
    func testAWindowRetainedUnderAModalWindowKeepsItsAlertsBackground() throws {
        let store = HierarchyStore()
        _ = try store.setSnapshot(Self.twoWindows())
        var served = ServedSnapshot(tree: store.tree)
        let alert = V.view("alert", "UIAlertController", [100, 100, 300, 180], ["title": "Save?"])
        _ = try step(store, [["op": "insert", "parent": "editor", "view": alert]], served: &served)
        XCTAssertEqual(served.tree["editor"]?.children, ["bold", "body", "alert"])
        let dialog = V.view(
            "print", "UIWindow", [200, 150, 400, 300],
            ["isKeyWindow": true, "windowLevel": 1, "windowTitle": "Print", "accessibilityViewIsModal": true])
        let shown = try step(store, [["op": "insert", "view": dialog]], served: &served)
        XCTAssertEqual(childrenChanged(shown), ["add print"])
        XCTAssertEqual(served.tree["editor"]?.children, ["bold", "body", "alert"])
        let dismissed = try step(store, [["op": "remove", "id": "print"]], served: &served)
        XCTAssertEqual(childrenChanged(dismissed), ["remove print"])
        XCTAssertEqual(served.tree["editor"]?.children, ["bold", "body", "alert"])
        XCTAssertNil(store.tree["bold"], "the alert still hides the editor's views from the core's tree")
        XCTAssertFalse(dismissed.contains { if case .cacheAdd = $0 { return true } else { return false } })
        XCTAssertEqual(served.modalRetention.retainedChildren, ["editor": ["bold", "body"]])
        XCTAssertTrue(served.modalRetention.retainedWindows.isEmpty)
    }
}
