import AXCore
import AXHub
import AXJSON
import AXProvider
import AXTestSupport
import XCTest

/// Actions are typed from the hub to the provider; the wire format stays the one Specs/protocol.md gives.
final class TypedActionTests: XCTestCase {
    /// Each request kind encodes to the `action.perform` params written out by hand from the spec, and the
    /// provider library reads those params back as the matching typed kind.
    func testEveryRequestKindKeepsTheSpecifiedWireFormat() throws {
        let context: JSON = ["previouslyFocusedItem": "a", "nextFocusedItem": "b", "focusHeading": "down"]
        let query: JSON = ["rotor": "links", "direction": "next", "currentItem": .null]
        let cases: [(ActionRequest, JSON, ActionCall.Kind)] = [
            (
                ActionRequest(.element(.activate), target: "switch", elementID: "cell"),
                ["action": "activate", "target": "switch", "element": "cell"], .activate
            ),
            (
                ActionRequest(.element(.increment), target: "s", elementID: "s"),
                ["action": "increment", "target": "s", "element": "s"], .increment
            ),
            (
                ActionRequest(.element(.decrement), target: "s"),
                ["action": "decrement", "target": "s"], .decrement
            ),
            (
                ActionRequest(.element(.scroll(.previous)), target: "list"),
                ["action": "scroll", "target": "list", "direction": "previous"], .scroll(.previous)
            ),
            (
                ActionRequest(.element(.escape), target: ""),
                ["action": "escape", "target": ""], .escape
            ),
            (
                ActionRequest(.element(.magicTap), target: "player", elementID: "player"),
                ["action": "magicTap", "target": "player", "element": "player"], .magicTap
            ),
            (
                ActionRequest(.element(.custom("favorite")), target: "row", elementID: "row"),
                ["action": "custom", "target": "row", "element": "row", "customAction": "favorite"],
                .custom(id: "favorite")
            ),
            (
                ActionRequest(.element(.setValue(0.25)), target: "slider"),
                ["action": "setValue", "target": "slider", "value": 0.25], .setValue(0.25)
            ),
            (
                ActionRequest(.element(.typeText("Ada")), target: "t", elementID: "t"),
                ["action": "typeText", "target": "t", "element": "t", "value": "Ada"], .typeText("Ada")
            ),
            (
                ActionRequest(.element(.zoomIn(at: Point(x: 150, y: 100))), target: "map", elementID: "map"),
                ["action": "zoomIn", "target": "map", "element": "map", "value": ["x": 150, "y": 100]],
                .zoomIn(x: 150, y: 100)
            ),
            (
                ActionRequest(.element(.drop("Album", at: Point(x: 10, y: 20))), target: "cover", elementID: "album"),
                [
                    "action": "drop", "target": "cover", "element": "album",
                    "value": ["name": "Album", "x": 10, "y": 20],
                ],
                .drop(name: "Album", x: 10, y: 20)
            ),
            (
                ActionRequest(.scrollToVisible(contentOffset: Point(x: 0, y: 480)), target: "scroll", elementID: "b"),
                [
                    "action": "scrollToVisible", "target": "scroll", "element": "b",
                    "value": ["contentOffset": [0, 480]],
                ],
                .scrollToVisible(contentOffsetX: 0, contentOffsetY: 480)
            ),
            (
                ActionRequest(.shouldUpdateFocus(context: context), target: "grid", elementID: "b"),
                ["action": "shouldUpdateFocus", "target": "grid", "element": "b", "value": context],
                .shouldUpdateFocus(context: context)
            ),
            (
                ActionRequest(.didUpdateFocus(context: context), target: "grid", elementID: "b"),
                ["action": "didUpdateFocus", "target": "grid", "element": "b", "value": context],
                .didUpdateFocus(context: context)
            ),
            (
                ActionRequest(.rotorSearch(query: query), target: "page"),
                ["action": "rotorSearch", "target": "page", "value": query], .rotorSearch(query: query)
            ),
        ]
        for (request, wire, kind) in cases {
            XCTAssertEqual(request.json, wire, "\(request.kind)")
            XCTAssertEqual(
                request.json.jsonString, wire.jsonString, "key order of \(request.kind)")
            XCTAssertEqual(ActionCall(json: wire).kind, kind, "\(wire)")
        }
    }

    /// A provider that gets an action it does not know (a newer server), or one whose params it cannot read,
    /// sees `.unknown` with the action's name instead of a guessed action.
    func testProviderReadsUnknownOrMalformedActionsAsUnknown() {
        let malformed: [JSON] = [
            ["action": "teleport", "target": "x"],
            ["action": "scroll", "target": "x", "direction": "sideways"],
            ["action": "custom", "target": "x"],
            ["action": "typeText", "target": "x", "value": 3],
            ["action": "zoomIn", "target": "x"],
            ["action": "zoomOut", "target": "x", "value": ["x": 1]],
            ["action": "drag", "target": "x", "value": ["x": 1, "y": 2]],
            ["action": "drop", "target": "x", "value": ["name": "A", "x": 1]],
            ["action": "scrollToVisible", "target": "x", "value": ["contentOffset": "far"]],
        ]
        for params in malformed {
            let name = params["action"]?.stringValue ?? ""
            XCTAssertEqual(ActionCall(json: params).kind, .unknown(action: name), "\(params)")
        }
    }

    /// `action.custom` by name: the app is told the custom action's id (the hub resolves the name).
    func testCustomActionByNameReachesTheAppAsItsID() async throws {
        let provider = RecordingProvider()
        let hub = Hub(actionTimeout: .seconds(1))
        let app = hub.registerApp(name: "t", provider: provider)
        try hub.setSnapshot(
            app: app,
            [
                "windows": [
                    [
                        "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                        "children": [
                            [
                                "id": "row", "class": "UIView", "frame": [0, 0, 400, 44],
                                "isAccessibilityElement": true,
                                "accessibilityLabel": "Mail",
                                "accessibilityCustomActions": [["id": "fav", "name": "Favorite"]],
                            ]
                        ],
                    ]
                ]
            ])
        let handled = try await hub.perform(app: app, element: "row", action: .custom("Favorite"))
        XCTAssertTrue(handled)
        XCTAssertEqual(
            provider.requests.map(\.json),
            [["action": "custom", "target": "row", "element": "row", "customAction": "fav"]])
    }
}
