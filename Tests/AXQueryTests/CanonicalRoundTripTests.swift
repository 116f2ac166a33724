import AXJSON
import XCTest

@testable import AXQuery

/// parse → canonical → parse gives the same canonical, also for values with combining marks next to the syntax
/// (issue 12 item 9: a label value ending with `"` followed by U+0301 printed a canonical form that did not parse).
final class CanonicalRoundTripTests: XCTestCase {
    /// Scalars that stress the grapheme-based parser: combining marks, ZWJ, variation selectors, a prepend
    /// character, quotes, backslashes, braces and selector syntax.
    static let hostileScalars: [Unicode.Scalar] = [
        "\u{301}", "\u{308}", "\u{200D}", "\u{FE0F}", "\u{0D4E}", "\u{0903}", "\u{1F600}", "\u{1F1FA}",
        "\"", "'", "\\", "{", "}", "u", "/", "]", "[", ")", "(", "=", " ", "\n", "a", "e", "1", "#", ":", ",", "~", "*",
    ]

    static func randomString(_ rng: inout RegexTestRandom, maxLength: Int) -> String {
        var out = String.UnicodeScalarView()
        for _ in 0..<rng.next(maxLength + 1) { out.append(hostileScalars[rng.next(hostileScalars.count)]) }
        return String(out)
    }

    func assertStable(_ selector: Selector, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        let canonical = selector.canonical
        do {
            let again = try Selector(parsing: canonical)
            XCTAssertEqual(again.canonical, canonical, context, file: file, line: line)
        } catch {
            XCTFail(
                "canonical \(canonical.debugDescription) of \(context) does not parse: \(error)", file: file, line: line
            )
        }
    }

    /// The issue's case, by hand.
    func testQuoteFollowedByCombiningMark() throws {
        let value = "x\"\u{301}"
        let selector = try Selector(json: ["attrs": [["name": "label", "op": "=", "value": .string(value)]]])
        let again = try Selector(parsing: selector.canonical)
        XCTAssertEqual(again, selector)
        let markFirst = try Selector(json: ["attrs": [["name": "label", "op": "=", "value": "\u{301}abc"]]])
        XCTAssertEqual(try Selector(parsing: markFirst.canonical), markFirst)
        let afterUnicodeEscape = try Selector(json: [
            "attrs": [["name": "label", "op": "=", "value": "\u{200B}\u{301}"]]
        ])
        XCTAssertEqual(try Selector(parsing: afterUnicodeEscape.canonical), afterUnicodeEscape)
    }

    /// Random values through the JSON form (any string is a valid value there): the canonical form re-parses to
    /// the same selector.
    func testRandomValuesRoundTrip() throws {
        var rng = RegexTestRandom(seed: 9)
        var checked = 0
        for _ in 0..<3_000 {
            let value = Self.randomString(&rng, maxLength: 6)
            let forms: [JSON] = [
                ["attrs": [["name": "label", "op": "=", "value": .string(value)]]],
                ["attrs": [["name": "value", "op": "*=", "value": .string(value), "caseInsensitive": true]]],
                ["attrs": [["name": "id", "op": "=", "value": .string(value)]]],
                ["attrs": [["name": "actions", "op": "*=", "value": .string(value)]]],
                ["pseudos": [["pseudo": "text", "value": .string(value)]]],
                ["pseudos": [["pseudo": "action", "name": .string(value)]]],
            ]
            for form in forms {
                guard let selector = try? Selector(json: form) else { continue }
                checked += 1
                assertStable(selector, "\(form.jsonString)")
                if let again = try? Selector(parsing: selector.canonical) {
                    XCTAssertEqual(again, selector, "\(form.jsonString) → \(selector.canonical.debugDescription)")
                }
            }
            // Regex patterns: the engine must accept them first.
            if let regex = try? Selector(json: ["attrs": [["name": "label", "op": "~=", "regex": .string(value)]]]) {
                assertStable(regex, "regex \(value.debugDescription)")
            }
        }
        XCTAssertGreaterThan(checked, 10_000, "the JSON forms were refused: the test checked nothing")
    }

    /// Random selector texts: whatever parses has a canonical form that parses to itself.
    func testRandomSelectorTextsAreStable() {
        var rng = RegexTestRandom(seed: 21)
        let heads = ["[label=\"", "[label~=/", "#", "button[value*=\"", ":text(\"", "[traits&=", "*:has([label^=\""]
        let tails = ["\"]", "/]", "", "\" i]", "\")", "]", "\"])"]
        var parsed = 0
        for _ in 0..<5_000 {
            let key = rng.next(heads.count)
            let text = heads[key] + Self.randomString(&rng, maxLength: 5) + tails[key]
            guard let selector = try? Selector(parsing: text) else { continue }
            parsed += 1
            assertStable(selector, text.debugDescription)
        }
        XCTAssertGreaterThan(parsed, 500, "too few random selectors parsed to mean anything")
    }
}
