import AXCore
import AXHub
import AXJSON
import AXTestSupport
import Synchronization
import XCTest

/// A small app behind the hub that really changes: a slider, a segmented control and a text field whose state
/// follows the actions it gets, pushed back as a new snapshot (as a provider does).
final class SmallControlsApp: ActionProvider {
    struct Model {
        var level = 0.5
        var segment = 0
        var text = "ab"
        var log: [String] = []
    }
    let model = Mutex(Model())
    let hub = Mutex<(Hub, String)?>(nil)

    func attach(_ hub: Hub, _ app: String) throws {
        self.hub.withLock { $0 = (hub, app) }
        try push()
    }

    func push() throws {
        let current = model.withLock { $0 }
        guard let (hub, app) = hub.withLock({ $0 }) else { return }
        _ = try hub.setSnapshot(
            app: app,
            [
                "windows": [
                    [
                        "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
                        "children": [
                            [
                                "id": "slider", "class": "UISlider", "frame": [10, 10, 200, 30],
                                "value": .number(current.level), "accessibilityLabel": "Level",
                            ],
                            [
                                "id": "seg", "class": "UISegmentedControl", "frame": [10, 60, 300, 32],
                                "segmentTitles": ["Light", "Dark", "Automatic"],
                                "selectedSegmentIndex": .number(Double(current.segment)),
                            ],
                            [
                                "id": "field", "class": "UITextField", "frame": [10, 110, 300, 34],
                                "text": .string(current.text),
                            ],
                            ["id": "after", "class": "UIButton", "title": "After", "frame": [10, 160, 100, 44]],
                        ],
                    ]
                ]
            ])
    }

    func perform(_ request: ActionRequest, timeout: Duration) async throws(ActionError) -> Bool {
        let handled: Bool = model.withLock { model in
            model.log.append("\(request.action) \(request.target)")
            switch (request.kind, request.target) {
            case (.element(.increment), "slider"): model.level = min(1, model.level + 0.1)
            case (.element(.decrement), "slider"): model.level = max(0, model.level - 0.1)
            case (.element(.setValue(let value)), "field"):
                // Like a field that refuses '#': UIKit's shouldChangeCharacters answering false.
                guard let text = value.stringValue, !text.contains("#") else { return false }
                model.text = text
            case (.element(.typeText(let typed)), "field"): model.text += typed
            case (.element(.activate), let target) where target.hasPrefix("seg#"):
                guard let index = Int(target.dropFirst(4)) else { return false }
                model.segment = index
            default: return false
            }
            return true
        }
        if handled { try? push() }
        return handled
    }

    var log: [String] { model.withLock { $0.log } }
}

/// An app that never answers a text edit (its provider times out): every action fails `appNotResponding`.
final class SilentApp: ActionProvider {
    func perform(_ request: ActionRequest, timeout: Duration) async throws(ActionError) -> Bool {
        if case .element(.typeText) = request.kind { throw .appNotResponding(reason: "timeout") }
        if case .element(.setValue) = request.kind { throw .appNotResponding(reason: "timeout") }
        return true
    }
}

/// Keys operate the focused control through the hub (D-KEYOP-1…5), on the route every key takes (`input.key`
/// from automation, a provider's own keys, keys an AT lets through): the same rule, before navigation.
final class KeyOperationHubTests: XCTestCase {
    func makeHub() throws -> (Hub, String, SmallControlsApp) {
        let hub = Hub(actionTimeout: .seconds(1))
        let provider = SmallControlsApp()
        let app = hub.registerApp(name: "controls", provider: provider)
        try provider.attach(hub, app)
        try hub.setServerHandlesNavigation(app: app, true)
        hub.setKeyForwarder(FakeKeyForwarder())
        return (hub, app, provider)
    }

    func press(_ hub: Hub, _ app: String, _ name: String, _ modifiers: Set<KeyModifier> = []) async throws
        -> KeyOutcome
    {
        try await hub.key(
            app: app, symbol: try XCTUnwrap(Keysyms.symbol(named: name)), modifiers: modifiers, press: true,
            release: true, source: .automation)
    }

    func focus(_ hub: Hub, _ app: String, _ item: String) async throws {
        _ = try await hub.updateEngineFocus(app: app, heading: "none", target: item, simulate: false)
        XCTAssertEqual(try hub.focusContext(app: app).engineFocused, item)
    }

    func testArrowsAdjustTheFocusedSliderAndFocusStays() async throws {
        let (hub, app, provider) = try makeHub()
        try await focus(hub, app, "slider")
        let right = try await press(hub, app, "Right")
        XCTAssertEqual(right.handledBy, "server")
        _ = try await press(hub, app, "Up")
        _ = try await press(hub, app, "Left")
        XCTAssertEqual(provider.log, ["increment slider", "increment slider", "decrement slider"])
        XCTAssertEqual(try hub.focusContext(app: app).engineFocused, "slider", "before: every arrow moved focus")
        XCTAssertEqual(try hub.snapshot(app).tree["slider"]?.value, "60%")
        _ = try await press(hub, app, "Tab")
        XCTAssertNotEqual(try hub.focusContext(app: app).engineFocused, "slider", "Tab still moves on")
    }

    func testArrowsMoveTheSegmentSelectionAndAccessibilityFocusFollows() async throws {
        let (hub, app, provider) = try makeHub()
        try await focus(hub, app, "seg")
        _ = try await press(hub, app, "Right")
        XCTAssertEqual(provider.log.last, "activate seg#1")
        XCTAssertEqual(try hub.snapshot(app).focusedID, "seg#1")
        _ = try await press(hub, app, "Right")
        _ = try await press(hub, app, "Right")
        XCTAssertEqual(provider.log.filter { $0.hasPrefix("activate") }, ["activate seg#1", "activate seg#2"])
        XCTAssertEqual(try hub.focusContext(app: app).engineFocused, "seg", "the last segment: focus stays")
    }

    func testKeysTypeAndEditTheFocusedTextFieldWithTheCaret() async throws {
        let (hub, app, provider) = try makeHub()
        let carets = Sink<Int>()
        let token = hub.subscribe { event in
            if case .textCaret(_, "field", let caret) = event { carets.append(caret.caret) }
        }
        defer { hub.unsubscribe(token) }
        try await focus(hub, app, "field")
        _ = try await press(hub, app, "c")
        _ = try await press(hub, app, "equal", [.shift])
        XCTAssertEqual(try hub.snapshot(app).tree["field"]?.text, "abc+")
        _ = try await press(hub, app, "Left")
        _ = try await press(hub, app, "Left")
        XCTAssertEqual(hub.textCaret(app: app, element: "field")?.caret, 2)
        _ = try await press(hub, app, "BackSpace")
        XCTAssertEqual(try hub.snapshot(app).tree["field"]?.text, "ac+")
        XCTAssertEqual(hub.textCaret(app: app, element: "field")?.caret, 1)
        _ = try await press(hub, app, "at", [.shift])
        XCTAssertEqual(try hub.snapshot(app).tree["field"]?.text, "a@c+")
        _ = try await press(hub, app, "Home")
        _ = try await press(hub, app, "Delete")
        XCTAssertEqual(try hub.snapshot(app).tree["field"]?.text, "@c+")
        XCTAssertEqual(
            provider.log,
            [
                "typeText field", "typeText field", "setValue field", "setValue field", "setValue field",
            ], "typing at the end is typeText; every other edit sets the whole value")
        XCTAssertEqual(hub.textCaret(app: app, element: "field")?.caret, 0)
        // Caret-only moves are events of their own; a text change carries its caret with the new tree (the bridge
        // reads `textCarets` then), so the AT hears text-changed before text-caret-moved.
        XCTAssertEqual(carets.items, [3, 2, 0])
        XCTAssertEqual(hub.textCarets(app: app), ["field": 0])
        XCTAssertEqual(try hub.focusContext(app: app).engineFocused, "field", "no arrow left the field")
    }

    func testAnAppThatNeverAnswersAnEditGetsATypedErrorAndKeysGoOn() async throws {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let app = hub.registerApp(name: "silent", provider: SilentApp())
        try hub.setSnapshot(
            app: app,
            [
                "windows": [
                    [
                        "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
                        "children": [
                            ["id": "field", "class": "UITextField", "frame": [10, 10, 300, 34], "text": "ab"],
                            ["id": "b", "class": "UIButton", "title": "B", "frame": [10, 60, 100, 44]],
                        ],
                    ]
                ]
            ])
        try hub.setServerHandlesNavigation(app: app, true)
        try await focus(hub, app, "field")
        _ = try await press(hub, app, "Left")
        do {
            _ = try await press(hub, app, "x")
            XCTFail("an edit the app never answers must fail")
        } catch let error as ActionError {
            XCTAssertEqual(error, .appNotResponding(reason: "timeout"))
        }
        XCTAssertEqual(hub.textCaret(app: app, element: "field")?.caret, 1, "the caret stays where the edit failed")
        let left = try await press(hub, app, "Left")
        XCTAssertEqual(left.handledBy, "server", "the next key still runs")
        XCTAssertEqual(hub.textCaret(app: app, element: "field")?.caret, 0)
        _ = try hub.setSnapshot(
            app: app,
            [
                "windows": [
                    [
                        "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
                        "children": [["id": "b", "class": "UIButton", "title": "B", "frame": [10, 60, 100, 44]]],
                    ]
                ]
            ])
        let after = try await press(hub, app, "Right")
        XCTAssertNotEqual(after.focus, "field", "a key after the field left the tree acts on what is there")
        XCTAssertNil(hub.textCaret(app: app, element: "field"))
    }

    func testCaretKeysMoveThroughAReadOnlyTextViewFromItsStart() async throws {
        let hub = Hub(actionTimeout: .seconds(1))
        let provider = RecordingProvider()
        let app = hub.registerApp(name: "reader", provider: provider)
        try hub.setSnapshot(
            app: app,
            [
                "windows": [
                    [
                        "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
                        "children": [
                            [
                                "id": "pane", "class": "UITextView", "frame": [0, 0, 400, 300],
                                "text": "Hi,\nare we on?\nAlice", "isEditable": false,
                            ]
                        ],
                    ]
                ]
            ])
        try hub.setServerHandlesNavigation(app: app, true)
        try hub.setFocus(app: app, element: "pane")
        _ = try await press(hub, app, "Down")
        XCTAssertEqual(hub.textCaret(app: app, element: "pane")?.caret, 4, "from the start to the second line")
        _ = try await press(hub, app, "End")
        XCTAssertEqual(hub.textCaret(app: app, element: "pane")?.caret, 14)
        _ = try await press(hub, app, "x")
        XCTAssertTrue(
            provider.requests.filter { $0.action != "key" }.isEmpty, "reading never edits: \(provider.requests)")
    }

    func testAKeyTheAppRefusesLeavesTheCaret() async throws {
        let (hub, app, _) = try makeHub()
        try await focus(hub, app, "field")
        _ = try await press(hub, app, "Left")
        XCTAssertEqual(hub.textCaret(app: app, element: "field")?.caret, 1)
        _ = try await press(hub, app, "numbersign")
        XCTAssertEqual(try hub.snapshot(app).tree["field"]?.text, "ab", "the app turned the edit down")
        XCTAssertEqual(hub.textCaret(app: app, element: "field")?.caret, 1, "so the caret stays where it was")
        _ = try await press(hub, app, "Tab")
        XCTAssertEqual(try hub.focusContext(app: app).engineFocused, "after", "Tab leaves a text field")
        _ = try await press(hub, app, "Right")
        XCTAssertEqual(hub.textCaret(app: app, element: "field")?.caret, 1, "a key on another control")
    }
}
