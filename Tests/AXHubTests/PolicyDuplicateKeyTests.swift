import AXHub
import AXJSON
import XCTest

/// Issue 19 item 4 (D-REL-4): a policy file that writes a key twice (`"deny": ["r.a"], "deny": ["r.b"]`) silently
/// lost the first denial (the last value won). The reader asks the parser to refuse duplicates, with the line.
final class PolicyDuplicateKeyTests: XCTestCase {
    func testDuplicateKeysAreRefusedWithTheirLine() {
        let cases: [(String, Int, String)] = [
            ("{\"version\": 1,\n\"apps\": {\"kiosk\": {\n\"deny\": [\"r.a\"],\n\"deny\": [\"r.b\"]}}}", 4, "'deny'"),
            ("{\"version\": 1,\n\"apps\": {\n\"kiosk\": {\"deny\": [\"r.a\"]},\n\"kiosk\": {}}}", 4, "'kiosk'"),
            ("{\"version\": 1,\n\"version\": 1}", 2, "'version'"),
            ("{\"version\": 1, \"unknownApps\": \"deny\",\n\n\"unknownApps\": \"allow\"}", 3, "'unknownApps'"),
        ]
        for (text, line, key) in cases {
            do {
                _ = try GuidedAccessPolicy.parse(Array(text.utf8))
                XCTFail("accepted: \(text)")
            } catch {
                XCTAssertEqual(error.line, line, text)
                XCTAssertTrue(error.reason.contains("duplicate key \(key)"), error.reason)
            }
        }
    }

    func testAnObjectWithManyKeysStillFindsTheDuplicate() {
        // Past 12 keys the parser indexes keys in a table; the check must hold there too.
        let apps = (0..<20).map { "\"app\($0)\": {\"deny\": [\"x\"]}" }.joined(separator: ",\n")
        let text = "{\"version\": 1, \"apps\": {\n" + apps + ",\n\"app7\": {}}}"
        do {
            _ = try GuidedAccessPolicy.parse(Array(text.utf8))
            XCTFail("accepted a duplicate app")
        } catch {
            XCTAssertEqual(error.line, 22)
            XCTAssertTrue(error.reason.contains("duplicate key 'app7'"), error.reason)
        }
    }

    func testTheParserStillLetsTheLastValueWinUnlessAsked() throws {
        let text = #"{"a": 1, "a": 2}"#
        XCTAssertEqual(try JSON.parse(text)["a"], 2)
        XCTAssertThrowsError(try JSON.parse(text, limits: JSONParseLimits(rejectDuplicateKeys: true))) { error in
            let parseError = error as? JSONParseError
            XCTAssertEqual(parseError?.offset, 9)
            XCTAssertEqual(parseError?.message.hasPrefix(JSONParseError.duplicateKeyPrefix), true)
        }
        // Nested objects are checked, and the same key in different objects is not a duplicate.
        XCTAssertNoThrow(
            try JSON.parse(#"{"a": {"a": 1}, "b": {"a": 2}}"#, limits: JSONParseLimits(rejectDuplicateKeys: true)))
        XCTAssertThrowsError(try JSON.parse(#"[{"x": 1, "x": 1}]"#, limits: JSONParseLimits(rejectDuplicateKeys: true)))
    }
}
