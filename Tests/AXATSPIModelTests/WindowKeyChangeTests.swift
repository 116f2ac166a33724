import AXATSPIModel
import AXCore
import AXDemo
import AXJSON
import XCTest

/// D-ATSPI-ACTIVE-1 within one app: when the app's key window changes to a window that arrives (a dialog, a second
/// window), the old key window is deactivated and the new one activated before the focus moves into it, as a window
/// manager does for GTK; an app's first window, a change inside one window and an inactive app stay silent.
final class WindowKeyChangeTests: XCTestCase {
    /// The main window, key unless a dialog is shown; with `dialog`, a second window "Rename" that is key and holds a
    /// text field.
    func snapshot(dialog: Bool, mainClaimsKey: Bool = false) -> JSON {
        let main = V.view(
            "w", "UIWindow", [0, 0, 400, 400],
            ["isKeyWindow": .bool(!dialog || mainClaimsKey), "windowTitle": "Tasks"],
            children: [V.view("rename", "UIButton", [10, 50, 80, 40], ["accessibilityLabel": "Rename"])])
        guard dialog else { return ["windows": [main]] }
        let second = V.view(
            "d", "UIWindow", [50, 50, 300, 200], ["isKeyWindow": true, "windowTitle": "Rename task"],
            children: [V.view("name", "UITextField", [10, 40, 200, 34], ["accessibilityLabel": "Name"])])
        return ["windows": [main, second]]
    }

    /// The window and focus events from one served snapshot to the next: "kind source detail1".
    func windowEvents(
        from before: JSON?, to after: JSON, focus: (String?, String?) = (nil, nil), appInactive: Bool = false
    ) throws -> [String] {
        let store = HierarchyStore()
        var old = ServedSnapshot(tree: AXTree(), focusedID: focus.0)
        if let before {
            try store.setSnapshot(before)
            old = ServedSnapshot(tree: store.tree, focusedID: focus.0)
        }
        old.appInactive = appInactive
        let changes = try store.setSnapshot(after)
        var new = ServedSnapshot(tree: store.tree, focusedID: focus.1)
        new.appInactive = appInactive
        return EventDiff.updates(from: old, to: new, changes: changes).compactMap { update in
            guard case .event(let event) = update else { return nil }
            let kinds: [ATSPIEventKind] = [.windowActivate, .windowDeactivate, .focus]
            guard kinds.contains(event.kind) || ["active", "focused"].contains(event.detail) else { return nil }
            let name = event.kind == .stateChanged ? "state-changed:\(event.detail)" : "\(event.kind)"
            return "\(name) \(event.source ?? "") \(event.detail1)"
        }
    }

    func testADialogThatTakesTheKeysActivatesAfterTheOldWindowDeactivates() throws {
        let events = try windowEvents(
            from: snapshot(dialog: false), to: snapshot(dialog: true), focus: ("rename", "name"))
        XCTAssertEqual(
            events,
            [
                "state-changed:active w 0", "windowDeactivate w 0", "windowActivate d 0", "state-changed:active d 1",
                "state-changed:focused rename 0", "state-changed:focused name 1", "focus name 0",
            ])
    }

    func testTheFrontMostClaimIsKeyWhenBothWindowsClaimIt() throws {
        let events = try windowEvents(from: snapshot(dialog: false), to: snapshot(dialog: true, mainClaimsKey: true))
        XCTAssertEqual(
            events,
            ["state-changed:active w 0", "windowDeactivate w 0", "windowActivate d 0", "state-changed:active d 1"])
    }

    func testClosingTheDialogActivatesTheOldWindowAgain() throws {
        let events = try windowEvents(
            from: snapshot(dialog: true), to: snapshot(dialog: false), focus: ("name", "rename"))
        XCTAssertEqual(
            events,
            [
                "windowActivate w 0", "state-changed:active w 1", "state-changed:focused rename 1", "focus rename 0",
            ])
    }

    func testTheAppsFirstWindowAndChangesInsideOneWindowStaySilent() throws {
        XCTAssertEqual(try windowEvents(from: nil, to: snapshot(dialog: false)), [])
        let renamed: JSON = [
            "windows": [
                V.view(
                    "w", "UIWindow", [0, 0, 400, 400], ["isKeyWindow": true, "windowTitle": "Tasks"],
                    children: [
                        V.view("rename", "UIButton", [10, 50, 80, 40], ["accessibilityLabel": "Rename…"]),
                        V.view("more", "UIButton", [10, 100, 80, 40], ["accessibilityLabel": "More"]),
                    ])
            ]
        ]
        XCTAssertEqual(try windowEvents(from: snapshot(dialog: false), to: renamed), [])
    }

    func testAnInactiveAppsNewKeyWindowIsNotActivated() throws {
        XCTAssertEqual(
            try windowEvents(from: snapshot(dialog: false), to: snapshot(dialog: true), appInactive: true), [])
    }
}
