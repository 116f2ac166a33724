import AXCore
import AXJSON
import XCTest

/// D-TEXT-SPLICE-1: a text input's `text` holds an editor's file (up to 4 MiB; other strings stay at 64 KiB), and a
/// `splice` op edits a range of it, so a keystroke costs the edit, not the file.
final class TextSpliceTests: XCTestCase {
    static let file = String(repeating: "value = 42  # a line of the big module\n", count: 10_000)

    func store(text: String = file) throws -> HierarchyStore {
        let store = HierarchyStore()
        _ = try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        ["id": "editor", "class": "IDLEText", "baseClass": "UITextView", "text": .string(text)],
                        ["id": "caption", "class": "UILabel", "text": "caption"],
                    ],
                ]
            ]
        ])
        return store
    }

    func testATextViewHoldsAFileOverTheStringLimitAndOtherViewsDoNot() throws {
        let store = try store()
        XCTAssertGreaterThan(Self.file.utf8.count, Limits.maxStringBytes)
        XCTAssertEqual(store.views["editor"]?.control.text, Self.file)
        let long = String(repeating: "x", count: Limits.maxStringBytes + 1)
        XCTAssertThrowsError(
            try store.apply(json: [["op": "set", "id": "caption", "properties": ["text": .string(long)]]])
        ) { error in
            XCTAssertEqual((error as? PatchError)?.kind, .invalidProperty)
        }
        let tooLong = String(repeating: "x", count: EditableTextContent.maxBytes + 1)
        XCTAssertThrowsError(
            try store.apply(json: [["op": "set", "id": "editor", "properties": ["text": .string(tooLong)]]])
        ) { error in
            XCTAssertEqual((error as? PatchError)?.kind, .invalidProperty)
            XCTAssertTrue("\(error)".contains("\(EditableTextContent.maxBytes)"), "\(error)")
        }
        XCTAssertEqual(store.revision, 1)
    }

    func testSpliceEditsByUnicodeCharacters() throws {
        XCTAssertEqual(
            try EditableTextContent.splice("h☃llo 👋 x", location: 6, length: 1, replacement: "🌍"), "h☃llo 🌍 x")
        XCTAssertEqual(try EditableTextContent.splice(nil, location: 0, length: 0, replacement: "new"), "new")
        XCTAssertEqual(try EditableTextContent.splice("abc", location: 3, length: 0, replacement: "d"), "abcd")
        XCTAssertEqual(try EditableTextContent.splice("abc", location: 0, length: 3, replacement: ""), "")
        for (location, length) in [(4, 0), (0, 4), (-1, 0), (2, -1), (Int.max, 1), (1, Int.max)] {
            XCTAssertThrowsError(
                try EditableTextContent.splice("abc", location: location, length: length, replacement: "")
            ) {
                XCTAssertEqual(($0 as? PatchError)?.kind, .indexOutOfRange, "\(location), \(length)")
            }
        }
    }

    func testASpliceThatWouldPassTheLimitIsRefused() throws {
        let store = try store(text: "short")
        let chunk = String(repeating: "x", count: Limits.maxStringBytes)
        XCTAssertThrowsError(
            try store.apply(json: [
                ["op": "splice", "id": "caption", "location": 0, "length": 0, "text": .string(chunk)]
            ])
        ) { error in
            XCTAssertEqual((error as? PatchError)?.kind, .tooLarge)
        }
        try store.apply(json: [["op": "splice", "id": "editor", "location": 5, "length": 0, "text": .string(chunk)]])
        XCTAssertEqual(store.views["editor"]?.control.text?.utf8.count, 5 + chunk.utf8.count)
    }

    /// 200 keystrokes into a 10,000-line file, one splice patch each, through the whole store (derivation
    /// included); the figure is printed for the note.
    func testKeystrokesInABigFileAreCheap() throws {
        let store = try store()
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<200 {
            try store.apply(json: [
                ["op": "splice", "id": "editor", "location": .number(Double(index)), "length": 0, "text": "k"]
            ])
        }
        let elapsed = clock.now - start
        let baselineStart = clock.now
        for index in 0..<200 {
            try store.apply(json: [["op": "set", "id": "caption", "properties": ["text": .string("c\(index)")]]])
        }
        let baseline = clock.now - baselineStart
        print(
            "TextSpliceTests: 200 keystrokes into a \(Self.file.utf8.count)-byte text in \(elapsed); "
                + "200 label sets in \(baseline)")
        XCTAssertEqual(store.views["editor"]?.control.text?.prefix(200), Substring(String(repeating: "k", count: 200)))
        XCTAssertEqual(store.revision, 401)
        // The first version walked the whole text character by character per splice: 4.7 s here, 100× a set.
        XCTAssertLessThan(elapsed, baseline * 10 + .milliseconds(200))
    }
}
