import AXCore
import AXHub
import AXJSON
import AXTestSupport
import XCTest

/// Issue 30 item 6 (D-GA-KEY-1): with an element guarded by a denied guided-access restriction focused, no key
/// that could operate it reaches the app — from automation (`input.key`, which WebDriver key actions, Send Keys and
/// MCP `press_key` use) or from the app's own forwarded keystrokes (the Tk adapter), whoever handles navigation.
/// Before the fix, Return and space went to the app as a `key` action naming the guarded element.
final class GuardedKeyTests: XCTestCase {
    func makeHub(_ provider: RecordingProvider, serverNavigation: Bool) throws -> (Hub, String) {
        let hub = Hub(actionTimeout: .seconds(1))
        let app = hub.registerApp(name: "kiosk", provider: provider)
        try hub.setSnapshot(app: app, HubTestTrees.guidedAccessSheet)
        try hub.setServerHandlesNavigation(app: app, serverNavigation)
        try hub.setFocus(app: app, element: "ok")
        try hub.setRestriction(app: app, id: "org.test.sheet", denied: true)
        return (hub, app)
    }

    func press(_ hub: Hub, _ app: String, _ name: String, _ modifiers: Set<KeyModifier> = [], source: KeySource)
        async throws -> KeyOutcome
    {
        let symbol = try XCTUnwrap(Keysyms.symbol(named: name))
        return try await hub.key(
            app: app, symbol: symbol, modifiers: modifiers, press: true, release: true, source: source)
    }

    func testKeysThatCouldOperateAGuardedElementNeverReachTheApp() async throws {
        for serverNavigation in [false, true] {
            for source in [KeySource.automation, .provider] {
                let provider = RecordingProvider()
                let (hub, app) = try makeHub(provider, serverNavigation: serverNavigation)
                for name in ["Return", "KP_Enter", "space", "Up", "a", "Escape"] {
                    do {
                        let outcome = try await press(hub, app, name, source: source)
                        // The server's own navigation may take a key (an arrow with nowhere to go): it stays here.
                        if !(serverNavigation && outcome.handledBy == "server") {
                            XCTFail("\(name) (\(source), server navigation \(serverNavigation)) went on: \(outcome)")
                        }
                    } catch let denied as KeyDeniedError {
                        XCTAssertEqual(denied.restriction, "org.test.sheet")
                        XCTAssertEqual(denied.element, "ok")
                        XCTAssertEqual(denied.key, name)
                    } catch let error as ActionError {
                        // The server's own rule tried to operate the element and was denied (R83).
                        XCTAssertTrue(serverNavigation, "\(name): \(error)")
                        XCTAssertEqual(error, .policyDenied(restriction: "org.test.sheet", text: "Sheet controls"))
                    }
                }
                XCTAssertEqual(provider.requests, [], "a key reached the app (\(source), \(serverNavigation))")
            }
        }
    }

    func testTabAndModifiersStillGoAndAllowingTheRestrictionLetsKeysThrough() async throws {
        let provider = RecordingProvider()
        let (hub, app) = try makeHub(provider, serverNavigation: false)
        let shift = try await press(hub, app, "Shift_L", source: .automation)
        XCTAssertEqual(shift.handledBy, "app")
        let tab = try await press(hub, app, "Tab", [.shift], source: .automation)
        XCTAssertEqual(tab.handledBy, "app", "Shift-Tab leaves the guarded element")
        XCTAssertEqual(provider.requests.map { $0.value?["key"] }, ["Shift_L", "Tab"])
        try hub.setRestriction(app: app, id: "org.test.sheet", denied: false)
        let allowed = try await press(hub, app, "Return", source: .automation)
        XCTAssertEqual(allowed.handledBy, "app")
        XCTAssertEqual(provider.requests.last?.value?["key"], "Return")
    }

    func testAKeyTheATConsumesIsNotDenied() async throws {
        let provider = RecordingProvider()
        let (hub, app) = try makeHub(provider, serverNavigation: false)
        hub.setKeyForwarder(FakeKeyForwarder { _ in .consumed })
        let outcome = try await press(hub, app, "Return", source: .provider)
        XCTAssertEqual(outcome.handledBy, "assistive-technology")
        XCTAssertEqual(provider.requests, [])
    }
}
