import AXJSON
import AXProvider
import XCTest

/// The provider library's text-editing model (D-TEXT-APP-5): the server's editing rules applied by the app, with
/// minimal patches.
final class TextEditingModelTests: XCTestCase {
    func testKeysEditTheTextAndTheCaretAndAnswerOnlyWhatChanged() {
        var model = TextEditingModel(text: "Hello world")
        XCTAssertEqual(model.apply(key: "Left", modifiers: ["control"]), ["selectedTextRange": [6, 0]])
        XCTAssertEqual(model.apply(key: "BackSpace"), ["text": "Helloworld", "selectedTextRange": [5, 0]])
        XCTAssertEqual(model.apply(key: "comma", text: ","), ["text": "Hello,world", "selectedTextRange": [6, 0]])
        XCTAssertEqual(model.apply(key: "End", modifiers: ["shift"]), ["selectedTextRange": [6, 5]])
        XCTAssertEqual(model.apply(key: "X", text: "X"), ["text": "Hello,X", "selectedTextRange": [7, 0]])
        XCTAssertEqual(model.apply(key: "End"), [:], "nothing moved: an empty patch")
        XCTAssertNil(model.apply(key: "Tab"), "Tab is not an editing key")
        XCTAssertNil(model.apply(key: "Return"), "a one-line field leaves Return to the app")
    }

    func testAMultiLineViewMovesByLineAndTypesNewlines() {
        var model = TextEditingModel(text: "ab\ncd", caret: 4, multiLine: true)
        XCTAssertEqual(model.apply(key: "Up"), ["selectedTextRange": [1, 0]])
        XCTAssertEqual(model.apply(key: "Return")?["text"], "a\nb\ncd")
    }

    func testTheServersActionsMoveTheSelectionAndTypeAtTheCaret() {
        var model = TextEditingModel(text: "Hello world")
        XCTAssertEqual(model.handle(.setSelectedTextRange(location: 0, length: 5)), ["selectedTextRange": [0, 5]])
        XCTAssertEqual(model.handle(.typeText("Howdy")), ["text": "Howdy world", "selectedTextRange": [5, 0]])
        XCTAssertNil(model.handle(.setSelectedTextRange(location: 3, length: 40)), "outside the text")
        let key: JSON = ["key": "Home", "modifiers": ["control"], "phase": "both", "text": .null]
        XCTAssertEqual(model.handle(.key(event: key)), ["selectedTextRange": [0, 0]])
        XCTAssertNil(model.handle(.key(event: ["key": "Home", "phase": "release"])), "a release edits nothing")
        XCTAssertNil(model.handle(.activate))
        XCTAssertEqual(model.properties, ["text": "Howdy world", "selectedTextRange": [0, 0]])
    }
}
