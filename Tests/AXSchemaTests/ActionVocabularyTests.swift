import AXJSON
import AXSchema
import XCTest

/// The action vocabulary: names declared once, one wire encoding of `action.perform`'s params.
final class ActionVocabularyTests: XCTestCase {
    func testParamsEncodeInOneOrderAndReadBack() {
        let params = ActionPerformParams(
            action: "scroll", target: "list", element: "cell", value: ["x": 1], customAction: "c", direction: "down")
        XCTAssertEqual(
            params.json.jsonString,
            #"{"action":"scroll","target":"list","element":"cell","value":{"x":1},"customAction":"c","direction":"down"}"#
        )
        XCTAssertEqual(ActionPerformParams(json: params.json), params)
        XCTAssertEqual(
            ActionPerformParams(action: "activate", target: "").json.jsonString, #"{"action":"activate","target":""}"#)
    }

    func testMistypedParamsStayNil() {
        let params = ActionPerformParams(json: ["action": 1, "target": true, "element": 2, "direction": ["up"]])
        XCTAssertEqual(params, ActionPerformParams(action: "", target: ""))
    }

    func testElementActionsAndBubbling() {
        XCTAssertEqual(
            ActionName.elementActions.map(\.rawValue),
            [
                "activate", "increment", "decrement", "scroll", "escape", "magicTap", "custom", "setValue", "typeText",
                "zoomIn", "zoomOut", "drag", "drop",
            ])
        XCTAssertEqual(ActionName.allCases.filter(\.bubblesToApp), [.escape, .magicTap])
        XCTAssertEqual(ScrollDirection.allCases.map(\.rawValue), ["up", "down", "left", "right", "next", "previous"])
    }
}
