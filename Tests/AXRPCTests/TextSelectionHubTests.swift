import AXCore
import AXHub
import AXJSON
import AXRPC
import Synchronization
import XCTest

/// A notes app that owns its caret: a text field reporting `selectedTextRange`, which follows the
/// `setSelectedTextRange` actions it gets (and records every request), beside a field that reports none.
final class CaretOwningApp: ActionProvider {
    struct Model {
        var text = "Hello world"
        var range = [11, 0]
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
        let range: JSON = [JSON(current.range[0]), JSON(current.range[1])]
        _ = try hub.setSnapshot(
            app: app,
            [
                "windows": [
                    [
                        "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
                        "children": [
                            [
                                "id": "owned", "class": "UITextField", "frame": [10, 10, 300, 34],
                                "text": .string(current.text), "selectedTextRange": range,
                            ],
                            ["id": "plain", "class": "UITextField", "frame": [10, 60, 300, 34], "text": "abcdef"],
                            ["id": "label", "class": "UILabel", "frame": [10, 110, 300, 34], "text": "Static"],
                        ],
                    ]
                ]
            ])
    }

    func perform(_ request: ActionRequest, timeout: Duration) async throws(ActionError) -> Bool {
        let handled: Bool = model.withLock { model in
            model.log.append("\(request.action) \(request.target) \(request.value.map { "\($0)" } ?? "")")
            guard case .setSelectedTextRange(let range) = request.kind else { return request.action == "key" }
            model.range = [range.location, range.length]
            return true
        }
        if handled { try? push() }
        return handled
    }

    var log: [String] { model.withLock { $0.log } }
}

/// D-TEXT-APP-2: the caret belongs to whoever reports it — the app (asked with `setSelectedTextRange`, and its
/// editing keys go to it) or the server (D-KEYOP-5).
final class TextSelectionHubTests: XCTestCase {
    func makeHub() throws -> (Hub, String, CaretOwningApp) {
        let hub = Hub(actionTimeout: .seconds(1))
        let provider = CaretOwningApp()
        let app = hub.registerApp(name: "notes", provider: provider)
        try provider.attach(hub, app)
        return (hub, app, provider)
    }

    func testSelectingInAnAppOwnedCaretAsksTheAppAndTheTreeFollows() async throws {
        let (hub, app, provider) = try makeHub()
        let moved = try await hub.selectText(app: app, element: "owned", range: 6..<11)
        XCTAssertTrue(moved)
        XCTAssertEqual(provider.log, ["setSelectedTextRange owned [6,5]"])
        XCTAssertEqual(
            try hub.snapshot(app).tree["owned"]?.textContent?.selectedRange, TextRange(location: 6, length: 5))
        XCTAssertNil(hub.textCaret(app: app, element: "owned"), "the server keeps no caret of its own for it")
    }

    func testAFieldWithoutTheAppsCaretGetsTheServersCaret() async throws {
        let (hub, app, provider) = try makeHub()
        let moved = try await hub.selectText(app: app, element: "plain", range: 1..<3)
        XCTAssertTrue(moved)
        XCTAssertEqual(hub.textCaret(app: app, element: "plain"), TextCaret(caret: 3, anchor: 1))
        XCTAssertEqual(provider.log, [], "nothing asked of the app")
    }

    func testOutOfTheTextOrWithoutACaretNothingMoves() async throws {
        let (hub, app, provider) = try makeHub()
        let past = try await hub.selectText(app: app, element: "owned", range: 3..<12)
        XCTAssertFalse(past)
        let label = try await hub.selectText(app: app, element: "label", range: 0..<0)
        XCTAssertFalse(label, "a label has no caret")
        XCTAssertEqual(provider.log, [])
        do {
            _ = try await hub.selectText(app: app, element: "gone", range: 0..<0)
            XCTFail("an element that is not in the tree must fail")
        } catch {
            XCTAssertEqual(error, .noSuchElement("gone"))
        }
    }

    func testEditingKeysOnAnAppOwnedCaretGoToTheAppEvenWithServerNavigation() async throws {
        let (hub, app, provider) = try makeHub()
        try hub.setServerHandlesNavigation(app: app, true)
        _ = try await hub.updateEngineFocus(app: app, heading: "none", target: "owned", simulate: false)
        for name in ["Left", "x"] {
            let outcome = try await hub.key(
                app: app, symbol: try XCTUnwrap(Keysyms.symbol(named: name)), modifiers: [], press: true,
                release: true, source: .automation)
            XCTAssertEqual(outcome.handledBy, "app", name)
        }
        XCTAssertEqual(provider.log.map { $0.split(separator: " ").first.map(String.init) }, ["key", "key"])
        XCTAssertEqual(try hub.focusContext(app: app).engineFocused, "owned", "Left did not move focus")
        // The server still edits a field that reports no caret (D-KEYOP-5).
        _ = try await hub.updateEngineFocus(app: app, heading: "none", target: "plain", simulate: false)
        let left = try await hub.key(
            app: app, symbol: try XCTUnwrap(Keysyms.symbol(named: "Left")), modifiers: [], press: true, release: true,
            source: .automation)
        XCTAssertEqual(left.handledBy, "server")
        XCTAssertEqual(hub.textCaret(app: app, element: "plain")?.caret, 5)
    }

    func testTheElementJSONCarriesTheRange() throws {
        let (hub, app, _) = try makeHub()
        let node = try XCTUnwrap(try hub.snapshot(app).tree["owned"])
        XCTAssertEqual(ElementJSON.encode(node)["selectedTextRange"], [11, 0])
        let plain = try XCTUnwrap(try hub.snapshot(app).tree["plain"])
        XCTAssertNil(ElementJSON.encode(plain)["selectedTextRange"])
    }
}
