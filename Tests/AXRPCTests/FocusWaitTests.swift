import AXCore
import AXHub
import AXJSON
import AXRPC
import XCTest

@testable import AXTransport

/// `wait.for` with state `focused` wakes when accessibility focus moves without a new revision — an engine-focus
/// move (`focus.update`, a server-handled key) or an `accessibility.post` that moves focus (X37) — for a selector
/// target as for an `{id}` one (D-WAIT-FOCUS-1; found by the Tk adapter's `to_be_focused`).
final class FocusWaitTests: XCTestCase {
    static let tree: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
                "children": [
                    ["id": "a", "class": "UIButton", "frame": [20, 100, 100, 44], "title": "A"],
                    ["id": "b", "class": "UIButton", "frame": [150, 100, 100, 44], "title": "B"],
                ],
            ]
        ]
    ]

    /// Starts `wait.for {target} focused` (4 s), lets the wait register, runs `move`, and returns the wait's answer
    /// and how long it took.
    func waitThenMove(target: JSON, move: (Hub, String, TransportRawConn) throws -> Void) async throws -> (
        JSON?, Duration
    ) {
        let dir = TransportTempDir()
        let hub = Hub(actionTimeout: .seconds(1))
        let app = hub.registerApp(name: "focuswait", provider: nil)
        try hub.setSnapshot(app: app, Self.tree)
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let server = try await transportStartServer(dir, router: router)
        let connection = try TransportRawConn(unix: dir.file("s.sock"))
        connection.send(transportRequest("initialize", ["role": "automation"]) + "\n")
        XCTAssertNotNil(connection.readLine()?["result"])
        let clock = ContinuousClock()
        let start = clock.now
        connection.send(
            transportRequest("wait.for", ["target": target, "state": "focused", "timeoutMs": 4000], id: 10) + "\n")
        while hub.registeredWaiterCount == 0 && clock.now - start < .seconds(3) {
            try await Task.sleep(for: .milliseconds(2))
        }
        XCTAssertEqual(hub.registeredWaiterCount, 1, "the wait never registered")
        try move(hub, app, connection)
        var answer: JSON?
        while let line = connection.readLine(timeoutMs: 6000) {
            if line["id"] == 10 {
                answer = line
                break
            }
        }
        let took = clock.now - start
        await server.stop()
        return (answer, took)
    }

    func assertSatisfiedPromptly(_ outcome: (JSON?, Duration), file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            outcome.0?["result"]?["satisfied"], true, "\(String(describing: outcome.0))", file: file, line: line)
        XCTAssertEqual(outcome.0?["result"]?["element"]?["id"], "b", file: file, line: line)
        XCTAssertLessThan(outcome.1, .seconds(2), "the wait slept through the focus change", file: file, line: line)
    }

    func testSelectorWaitWakesWhenEngineFocusMoves() async throws {
        let outcome = try await waitThenMove(target: ["selector": "#b"]) { _, _, connection in
            connection.send(transportRequest("focus.update", ["target": ["id": "b"]], id: 11) + "\n")
        }
        assertSatisfiedPromptly(outcome)
    }

    func testIdWaitWakesWhenEngineFocusMoves() async throws {
        let outcome = try await waitThenMove(target: ["id": "b"]) { _, _, connection in
            connection.send(transportRequest("focus.update", ["target": ["id": "b"]], id: 11) + "\n")
        }
        assertSatisfiedPromptly(outcome)
    }

    func testSelectorWaitWakesWhenAPostMovesFocus() async throws {
        let outcome = try await waitThenMove(target: ["selector": #"button[label="B"]"#]) { hub, app, _ in
            try hub.post(app: app, .layoutChanged(element: "b"))
        }
        assertSatisfiedPromptly(outcome)
    }

    func testSelectorWaitWakesWhenTheAppPushesFocus() async throws {
        let outcome = try await waitThenMove(target: ["selector": "#b"]) { hub, app, _ in
            try hub.update(app: app, ops: [["op": "set", "id": "b", "properties": ["isFocused": true]]])
        }
        assertSatisfiedPromptly(outcome)
    }
}
