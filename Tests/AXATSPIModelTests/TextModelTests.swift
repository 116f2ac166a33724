import AXATSPIModel
import AXCore
import XCTest

/// Text boundaries of `TextModel` (what `Text.GetTextAtOffset` and friends answer), without a bus. The expected
/// ranges are GTK 4's answers for the same text in a GtkLabel, read with pyatspi (h12's probe, see the note):
/// the reference every screen reader is tuned to.
final class TextModelTests: XCTestCase {
    /// 42 characters: two sentences on the first line, one on the second.
    let model = TextModel(text: "Hello big world. Second one!\nLine two ends")

    func range(_ text: String, _ start: Int32, _ end: Int32) -> ATSPITextRange {
        ATSPITextRange(text: text, start: start, end: end)
    }

    func testCharacterBoundaryAtStartMiddleAndEnd() {
        XCTAssertEqual(model.textAtOffset(0, boundary: .character), range("H", 0, 1))
        XCTAssertEqual(model.textAtOffset(6, boundary: .character), range("b", 6, 7))
        XCTAssertEqual(model.textAtOffset(41, boundary: .character), range("s", 41, 42))
        XCTAssertEqual(model.textAtOffset(42, boundary: .character), range("", 42, 42))
    }

    func testWordStartBoundaryAtStartMiddleAndEnd() {
        XCTAssertEqual(model.textAtOffset(0, boundary: .wordStart), range("Hello ", 0, 6))
        XCTAssertEqual(model.textAtOffset(5, boundary: .wordStart), range("Hello ", 0, 6))
        XCTAssertEqual(model.textAtOffset(6, boundary: .wordStart), range("big ", 6, 10))
        XCTAssertEqual(model.textAtOffset(16, boundary: .wordStart), range("world. ", 10, 17))
        XCTAssertEqual(model.textAtOffset(28, boundary: .wordStart), range("one!\n", 24, 29))
        XCTAssertEqual(model.textAtOffset(41, boundary: .wordStart), range("ends", 38, 42))
        // At the end of the text: the last word, not an empty string.
        XCTAssertEqual(model.textAtOffset(42, boundary: .wordStart), range("ends", 38, 42))
    }

    func testWordEndBoundaryDiffersFromWordStart() {
        // WORD_END units run from the end of one word to the end of the next (leading separators included).
        XCTAssertEqual(model.textAtOffset(0, boundary: .wordEnd), range("Hello", 0, 5))
        XCTAssertEqual(model.textAtOffset(5, boundary: .wordEnd), range(" big", 5, 9))
        XCTAssertEqual(model.textAtOffset(6, boundary: .wordEnd), range(" big", 5, 9))
        XCTAssertEqual(model.textAtOffset(16, boundary: .wordEnd), range(". Second", 15, 23))
        XCTAssertEqual(model.textAtOffset(28, boundary: .wordEnd), range("!\nLine", 27, 33))
        XCTAssertEqual(model.textAtOffset(41, boundary: .wordEnd), range(" ends", 37, 42))
        XCTAssertEqual(model.textAtOffset(42, boundary: .wordEnd), range("", 42, 42))
    }

    func testSentenceBoundariesAtStartMiddleAndEnd() {
        XCTAssertEqual(model.textAtOffset(0, boundary: .sentenceStart), range("Hello big world. ", 0, 17))
        XCTAssertEqual(model.textAtOffset(16, boundary: .sentenceStart), range("Hello big world. ", 0, 17))
        XCTAssertEqual(model.textAtOffset(17, boundary: .sentenceStart), range("Second one!\n", 17, 29))
        XCTAssertEqual(model.textAtOffset(28, boundary: .sentenceStart), range("Second one!\n", 17, 29))
        XCTAssertEqual(model.textAtOffset(41, boundary: .sentenceStart), range("Line two ends", 29, 42))
        XCTAssertEqual(model.textAtOffset(42, boundary: .sentenceStart), range("Line two ends", 29, 42))
        XCTAssertEqual(model.textAtOffset(0, boundary: .sentenceEnd), range("Hello big world.", 0, 16))
        XCTAssertEqual(model.textAtOffset(16, boundary: .sentenceEnd), range(" Second one!", 16, 28))
        XCTAssertEqual(model.textAtOffset(28, boundary: .sentenceEnd), range("\nLine two ends", 28, 42))
        XCTAssertEqual(model.textAtOffset(42, boundary: .sentenceEnd), range("", 42, 42))
    }

    func testLineBoundariesAtStartMiddleAndEnd() {
        let firstLine = "Hello big world. Second one!"
        XCTAssertEqual(model.textAtOffset(0, boundary: .lineStart), range(firstLine + "\n", 0, 29))
        XCTAssertEqual(model.textAtOffset(28, boundary: .lineStart), range(firstLine + "\n", 0, 29))
        XCTAssertEqual(model.textAtOffset(29, boundary: .lineStart), range("Line two ends", 29, 42))
        XCTAssertEqual(model.textAtOffset(42, boundary: .lineStart), range("Line two ends", 29, 42))
        XCTAssertEqual(model.textAtOffset(0, boundary: .lineEnd), range(firstLine, 0, 28))
        XCTAssertEqual(model.textAtOffset(28, boundary: .lineEnd), range(firstLine, 0, 28))
        XCTAssertEqual(model.textAtOffset(29, boundary: .lineEnd), range("\nLine two ends", 28, 42))
        XCTAssertEqual(model.textAtOffset(42, boundary: .lineEnd), range("\nLine two ends", 28, 42))
    }

    func testEndOfTextEndingInANewlineIsTheEmptyLastLine() {
        let twoLines = TextModel(text: "ab\n")
        XCTAssertEqual(twoLines.textAtOffset(3, boundary: .lineStart), range("", 3, 3))
        XCTAssertEqual(twoLines.textAtOffset(1, boundary: .lineStart), range("ab\n", 0, 3))
    }

    func testBeforeAndAfterWalkByWholeUnits() {
        XCTAssertEqual(model.textBeforeOffset(6, boundary: .wordStart), range("Hello ", 0, 6))
        XCTAssertEqual(model.textAfterOffset(6, boundary: .wordStart), range("world. ", 10, 17))
        XCTAssertEqual(model.textBeforeOffset(0, boundary: .wordStart), range("", 0, 0))
        XCTAssertEqual(model.textAfterOffset(41, boundary: .wordStart), range("", 42, 42))
        XCTAssertEqual(model.textAfterOffset(0, boundary: .lineEnd), range("\nLine two ends", 28, 42))
        XCTAssertEqual(model.textBeforeOffset(30, boundary: .lineEnd), range("Hello big world. Second one!", 0, 28))
    }

    func testEmptyTextAndHostileOffsets() {
        let empty = TextModel(text: "")
        for boundary in ATSPITextBoundary.allCases {
            XCTAssertEqual(empty.textAtOffset(0, boundary: boundary), range("", 0, 0), "\(boundary)")
        }
        XCTAssertEqual(model.textAtOffset(-5, boundary: .wordStart), range("", 0, 0))
        XCTAssertEqual(model.textAtOffset(Int32.max, boundary: .lineStart), range("", 42, 42))
        XCTAssertEqual(model.textBeforeOffset(Int32.min, boundary: .character), range("", 0, 0))
        XCTAssertEqual(model.text(from: 10, to: -1), "world. Second one!\nLine two ends")
        XCTAssertEqual(model.text(from: 30, to: 20), "")
        XCTAssertEqual(model.character(at: 42), 0)
        XCTAssertEqual(model.character(at: 0), Int32(UInt8(ascii: "H")))
    }

    func testRangeExtentsShareTheWidthEvenly() {
        let single = TextModel(text: "Hello big world. Second one! Line two ends")
        let element = ATSPIRect(x: 10, y: 20, width: 84, height: 30)
        // One line, 42 characters over 84 points: 2 points each.
        XCTAssertEqual(
            single.characterExtents(at: 6, elementExtents: element), ATSPIRect(x: 22, y: 20, width: 2, height: 30))
        XCTAssertEqual(
            single.rangeExtents(from: 0, to: 42, elementExtents: element),
            ATSPIRect(x: 10, y: 20, width: 84, height: 30))
        // Two lines (D-TEXT-LINES-1): each its own row of 15 points; the longest line (28 characters) sets the
        // column width, 3 points. Before, both lines sat side by side on one row, and flat review read them as one.
        XCTAssertEqual(
            model.characterExtents(at: 6, elementExtents: element), ATSPIRect(x: 28, y: 20, width: 3, height: 15))
        XCTAssertEqual(
            model.characterExtents(at: 29, elementExtents: element), ATSPIRect(x: 10, y: 35, width: 3, height: 15),
            "the first character of the second line starts the second row")
        XCTAssertEqual(
            model.rangeExtents(from: 29, to: 33, elementExtents: element),
            ATSPIRect(x: 10, y: 35, width: 12, height: 15))
        XCTAssertEqual(
            model.rangeExtents(from: 0, to: 42, elementExtents: element), ATSPIRect(x: 10, y: 20, width: 84, height: 30)
        )
        XCTAssertEqual(
            model.rangeExtents(from: 5, to: 5, elementExtents: element), ATSPIRect(x: 10, y: 20, width: 0, height: 30))
        XCTAssertEqual(
            model.characterExtents(at: Int32.max, elementExtents: element).width, 0,
            "past the end: nothing left to cover")
    }

    func testTextEditKeepsCommonPrefixAndSuffix() {
        let edit = TextEdit(from: "Hello world", to: "Hello brave new world")
        XCTAssertEqual(edit.offset, 6)
        XCTAssertEqual(edit.deleted, "")
        XCTAssertEqual(edit.inserted, "brave new ")
        XCTAssertEqual(edit.insertedLength, 10)
        XCTAssertEqual(edit.newLength, 21)
        let replacement = TextEdit(from: "cat", to: "cut")
        XCTAssertEqual([replacement.deleted, replacement.inserted], ["a", "u"])
        XCTAssertEqual(replacement.offset, 1)
    }
}
