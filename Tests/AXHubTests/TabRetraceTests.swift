import AXCore
import AXHub
import AXJSON
import AXTestSupport
import XCTest

/// Shift-Tab retraces Tab through focus groups (D-FOCUS-6; issue 21 §4): before, Shift-Tab entered a group at its
/// last item, took that item as the group's start, and the next Shift-Tab left the group at once.
final class TabRetraceTests: XCTestCase {
    static let hierarchy: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 800, 800], "isKeyWindow": true,
                "children": [
                    ["id": "search", "class": "UIButton", "title": "Search", "frame": [10, 10, 100, 44]],
                    [
                        "id": "sidebar", "class": "UIView", "frame": [0, 60, 250, 300], "focusGroupIdentifier": "side",
                        "children": [
                            ["id": "s1", "class": "UIButton", "title": "Inbox", "frame": [0, 0, 250, 44]],
                            ["id": "s2", "class": "UIButton", "title": "Sent", "frame": [0, 44, 250, 44]],
                            ["id": "s3", "class": "UIButton", "title": "Archive", "frame": [0, 88, 250, 44]],
                        ],
                    ],
                    [
                        "id": "table", "class": "UIView", "frame": [260, 60, 500, 300], "focusGroupIdentifier": "list",
                        "children": [
                            ["id": "m1", "class": "UIButton", "title": "Alice", "frame": [0, 0, 500, 44]],
                            ["id": "m2", "class": "UIButton", "title": "Bob", "frame": [0, 44, 500, 44]],
                        ],
                    ],
                    ["id": "reply", "class": "UIButton", "title": "Reply", "frame": [10, 700, 100, 44]],
                ],
            ]
        ]
    ]

    func testShiftTabRetracesTabThroughGroups() async throws {
        let hub = Hub(actionTimeout: .seconds(1))
        let app = hub.registerApp(name: "groups", provider: RecordingProvider())
        try hub.setSnapshot(app: app, Self.hierarchy)
        try hub.setServerHandlesNavigation(app: app, true)
        let tab = try XCTUnwrap(Keysyms.symbol(named: "Tab"))
        func press(_ shift: Bool) async throws -> String? {
            let outcome = try await hub.key(
                app: app, symbol: tab, modifiers: shift ? [.shift] : [], press: true, release: true,
                source: .automation)
            return outcome.focus
        }
        var forward: [String] = []
        for _ in 0..<7 { forward.append(try await press(false) ?? "-") }
        XCTAssertEqual(forward, ["search", "s1", "s2", "s3", "m1", "m2", "reply"])
        var backward: [String] = []
        for _ in 0..<6 { backward.append(try await press(true) ?? "-") }
        XCTAssertEqual(
            backward, ["m2", "m1", "s3", "s2", "s1", "search"],
            "Shift-Tab must visit Tab's stops in reverse (before: m2 then straight to s3, skipping m1)")
        // Tab again after the round trip: the groups start where Tab's order starts.
        var again: [String] = []
        for _ in 0..<3 { again.append(try await press(false) ?? "-") }
        XCTAssertEqual(again.first, "s1")
    }
}
