import AXCore
import AXDemoHost
import AXHub
import AXJSON
import AXJSONRPC
import AXProvider
import AXRPC
import AXTestSupport
import AXTransport
import XCTest

/// An app forwards its keystrokes (`Publisher.forwardKey`, `input.key` as provider; D-KEY-2): it learns whether an
/// AT consumed the key and whether the server handled it, over the real socket and in-process.
final class ProviderKeyTests: XCTestCase {
    static let tree: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
                "children": [
                    ["id": "b1", "class": "UIButton", "title": "One", "frame": [20, 100, 100, 44]],
                    ["id": "b2", "class": "UIButton", "title": "Two", "frame": [200, 100, 100, 44]],
                ],
            ]
        ]
    ]

    func exercise(_ publisher: Publisher, hub: Hub, forwarder: FakeKeyForwarder) async throws {
        try await publisher.publish(Self.tree)
        let app = await publisher.appID
        // Nobody consumed it and the app did not ask the server to navigate: the app handles its own key.
        let own = try await publisher.forwardKey("Tab")
        XCTAssertEqual(own, KeyForwardResult(consumed: false, handledBy: "app", focus: nil))
        XCTAssertTrue(own.appShouldHandle)
        XCTAssertEqual(try hub.focusContext(app: app).engineFocused, nil)
        // The app lets the server handle navigation keys: Tab moves focus and the app is told so.
        try await publisher.setServerHandlesNavigation(true)
        let tab = try await publisher.forwardKey("Tab")
        XCTAssertEqual(tab, KeyForwardResult(consumed: false, handledBy: "server", focus: "b1"))
        XCTAssertFalse(tab.appShouldHandle)
        // A key the AT consumes: the app must not act on it, and focus stays.
        let consumed = try await publisher.forwardKey("Tab", modifiers: ["shift"])
        XCTAssertEqual(consumed, KeyForwardResult(consumed: true, handledBy: "assistive-technology", focus: "b1"))
        XCTAssertEqual(forwarder.seen.items.last?.modifierMask, KeyModifier.shift.mask)
        // A non-navigation key goes back to the app.
        let letter = try await publisher.forwardKey("h", phase: "press")
        XCTAssertEqual(letter.handledBy, "app")
        do {
            _ = try await publisher.forwardKey("NoSuchKey")  // (Hyper_L is an X keysym: accepted since issue 32)
            XCTFail("an unknown key must be refused")
        } catch {}
    }

    func testForwardKeyOverTheSocket() async throws {
        let dir = TransportTempDir()
        let hub = Hub(actionTimeout: .seconds(5))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let stack = ProviderRecoveryTests.Stack(
            dir: dir, hub: hub, server: try await transportStartServer(dir, router: router))
        let server = stack.server
        defer { Task { await server.stop() } }
        let forwarder = FakeKeyForwarder { key in key.modifiers.contains(.shift) ? .consumed : .notConsumed }
        stack.hub.setKeyForwarder(forwarder)
        let transport = try await SocketProviderTransport(address: stack.socket, token: nil)
        let publisher = Publisher(transport: transport)
        try await publisher.register(name: "keys") { _ in true }
        try await exercise(publisher, hub: stack.hub, forwarder: forwarder)
        // Another app's provider may not configure this one.
        let other = Publisher(transport: try await SocketProviderTransport(address: stack.socket, token: nil))
        try await other.register(name: "other") { _ in true }
        let target = await publisher.appID
        do {
            let params: JSONObject = ["app": .string(target), "serverHandlesNavigation": false]
            _ = try await other.transport.call("input.configure", params)
            XCTFail("a provider may configure only its own app")
        } catch let error as RPCError {
            XCTAssertEqual(error.code, RPCError.Code.forbidden)
        }
    }

    func testForwardKeyInProcess() async throws {
        let hub = Hub(actionTimeout: .seconds(5))
        let forwarder = FakeKeyForwarder { key in key.modifiers.contains(.shift) ? .consumed : .notConsumed }
        hub.setKeyForwarder(forwarder)
        let publisher = Publisher(transport: InProcessProviderTransport(hub: hub))
        try await publisher.register(name: "keys") { _ in true }
        try await exercise(publisher, hub: hub, forwarder: forwarder)
    }
}
