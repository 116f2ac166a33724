import AXATSPI
import XCTest

/// Text boundaries as Orca uses them: where am I reads the line at the caret with `GetTextAtOffset(caretOffset,
/// LINE_START)`, and a caret after the last character (offset == character count) is the usual place after typing.
final class TextBoundaryTests: XCTestCase {
    private func line(_ text: String, _ offset: Int) -> (Int, Int) {
        TextBoundaries.range(Array(text.unicodeScalars), offset, granularity: 3)
    }

    func testLineAtTheEndOfTheTextIsTheLastLine() {
        // GTK (ATK) and Gecko answer the last line here; an empty answer makes Orca's where am I skip the text.
        XCTAssertEqual(line("Pixel", 5).0, 0)
        XCTAssertEqual(line("Pixel", 5).1, 5)
        XCTAssertEqual(line("one\ntwo", 7).0, 4)
        XCTAssertEqual(line("one\ntwo", 7).1, 7)
    }

    func testLineAfterATrailingNewlineIsEmpty() {
        XCTAssertEqual(line("one\n", 4).0, 4)
        XCTAssertEqual(line("one\n", 4).1, 4)
    }

    func testLinesInsideTheText() {
        XCTAssertEqual(line("one\ntwo", 0).0, 0)
        XCTAssertEqual(line("one\ntwo", 0).1, 4)
        XCTAssertEqual(line("one\ntwo", 5).0, 4)
        XCTAssertEqual(line("one\ntwo", 5).1, 7)
        XCTAssertEqual(line("", 0).0, 0)
        XCTAssertEqual(line("", 0).1, 0)
    }

    func testOffsetsOutsideTheTextStayEmpty() {
        XCTAssertEqual(line("Pixel", 9).0, 5)
        XCTAssertEqual(line("Pixel", 9).1, 5)
        XCTAssertEqual(line("Pixel", -1).0, 0)
        XCTAssertEqual(line("Pixel", -1).1, 0)
        XCTAssertEqual(TextBoundaries.range(Array("Pixel".unicodeScalars), 5, granularity: 0).1, 5)
    }
}
