import AXCore
import AXHub
import AXJSON
import AXProvider
import AXSchema
import XCTest

/// One action vocabulary end to end: every request the hub sends is read by the provider library as the same typed
/// action (never `.unknown`), and every name of AXSchema's `ActionName` is one the hub sends.
final class ActionVocabularyRouteTests: XCTestCase {
    static let requests: [(ActionRequest, ActionCall.Kind)] = [
        (ActionRequest(.element(.activate), target: "b", elementID: "b"), .activate),
        (ActionRequest(.element(.increment), target: "s"), .increment),
        (ActionRequest(.element(.decrement), target: "s"), .decrement),
        (ActionRequest(.element(.scroll(.next)), target: "list"), .scroll(.next)),
        (ActionRequest(.element(.escape), target: ""), .escape),
        (ActionRequest(.element(.magicTap), target: ""), .magicTap),
        (ActionRequest(.element(.custom("delete")), target: "cell"), .custom(id: "delete")),
        (ActionRequest(.element(.setValue(0.5)), target: "s"), .setValue(0.5)),
        (ActionRequest(.element(.typeText("hi")), target: "field"), .typeText("hi")),
        (ActionRequest(.element(.zoomIn(at: Point(x: 5, y: 6))), target: "map"), .zoomIn(x: 5, y: 6)),
        (ActionRequest(.element(.zoomOut(at: Point(x: 0, y: 1.5))), target: "map"), .zoomOut(x: 0, y: 1.5)),
        (ActionRequest(.element(.drag("Photo", at: Point(x: 5, y: 6))), target: "p"), .drag(name: "Photo", x: 5, y: 6)),
        (ActionRequest(.element(.drop("Album", at: Point(x: 1, y: 2))), target: "a"), .drop(name: "Album", x: 1, y: 2)),
        (
            ActionRequest(.scrollToVisible(contentOffset: Point(x: 0, y: 40)), target: "scroll"),
            .scrollToVisible(contentOffsetX: 0, contentOffsetY: 40)
        ),
        (ActionRequest(.shouldUpdateFocus(context: ["a": 1]), target: "v"), .shouldUpdateFocus(context: ["a": 1])),
        (ActionRequest(.didUpdateFocus(context: ["a": 1]), target: "v"), .didUpdateFocus(context: ["a": 1])),
        (ActionRequest(.rotorSearch(query: ["rotor": "r"]), target: "v"), .rotorSearch(query: ["rotor": "r"])),
        (ActionRequest(.key(event: ["key": "Tab"]), target: ""), .key(event: ["key": "Tab"])),
        (
            ActionRequest(.setSelectedTextRange(TextRange(location: 2, length: 3)), target: "field"),
            .setSelectedTextRange(location: 2, length: 3)
        ),
        (ActionRequest(.select(row: 1, section: 0), target: "grid", elementID: "p1"), .select(row: 1, section: 0)),
    ]

    func testTheProviderReadsEveryRequestTheHubSends() {
        for (request, expected) in Self.requests {
            let call = ActionCall(json: request.json)
            XCTAssertEqual(call.kind, expected, request.action)
            XCTAssertEqual(call.action, request.action)
            XCTAssertEqual(call.target, request.target)
            XCTAssertEqual(call.element, request.elementID)
        }
    }

    func testEveryActionNameIsSentByTheHub() {
        XCTAssertEqual(Set(Self.requests.map(\.0.actionName)), Set(ActionName.allCases))
    }

    func testTheMethodTableIsTheElementActions() {
        XCTAssertEqual(ElementAction.activate.actionName, .activate)
        XCTAssertEqual(ElementAction.scroll(.up).name, "scroll")
        XCTAssertTrue(ElementAction.magicTap.bubblesToApp)
        XCTAssertFalse(ElementAction.activate.bubblesToApp)
    }
}
