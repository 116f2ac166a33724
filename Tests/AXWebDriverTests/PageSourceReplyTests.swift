import AXJSON
import XCTest

@testable import AXWebDriver

/// Issue 35 item 5: the page source's JSON string literal is checked and unescaped by axdriver itself
/// (`ReplyLiteral`, `PageSourceReply`) instead of AXJSON's parser. AXJSON's parser is the oracle: every literal it
/// reads must unescape to the same bytes, every literal it refuses must be refused, hostile ones included.
final class PageSourceReplyTests: XCTestCase {
    /// The literal's bytes as axdriver unescapes them, or nil when it refuses the literal.
    func unescaped(_ literal: [UInt8]) -> [UInt8]? {
        literal.withUnsafeBufferPointer { PageSourceReply.unescaped($0) }
    }

    /// The oracle: the UTF-8 of the string AXJSON's parser reads from `literal`, or nil when it refuses it.
    func parsed(_ literal: [UInt8]) -> [UInt8]? {
        guard let json = try? JSON.parse(literal), let string = json.stringValue else { return nil }
        return Array(string.utf8)
    }

    func assertAgreesWithParser(_ literal: [UInt8], accepted: Bool, line: UInt = #line) {
        let mine = unescaped(literal)
        let theirs = parsed(literal)
        XCTAssertEqual(mine, theirs, "literal \(literal.map { String($0, radix: 16) })", line: line)
        XCTAssertEqual(mine != nil, accepted, "accepted \(String(decoding: literal, as: UTF8.self))", line: line)
    }

    func testEscapesAgreeWithAXJSON() {
        let accepted: [String] = [
            #""""#, #""plain ascii""#, #""quote \" backslash \\ slash \/ and /""#, #""\b\f\n\r\t""#,
            #""\u00e9\u00E9 \u20ac \u0000 \u001f \uFFFF \uFFFE""#, #""pair \ud83d\ude00 and \uD83D\uDE00""#,
            #""max \uDBFF\uDFFF""#, #""escaped backslash before the end \\""#, #""\\\"""#,
            "\"raw € 😀 é \u{7F} DEL\"", #""&lt;a b=\"c\"/&gt;""#,
        ]
        for literal in accepted { assertAgreesWithParser(Array(literal.utf8), accepted: true) }
    }

    func testHostileLiteralsAreRefusedAsAXJSONRefusesThem() {
        let refused: [String] = [
            #""lone high \ud83d""#, #""lone high then letter \ud83dx""#, #""high then high \ud83d\ud83d""#,
            #""high then non-surrogate \ud83d\u0041""#, #""lone low \ude00""#, #""bad escape \x41""#,
            #""bad hex \u12G4""#, #""short hex \u12""#, #""unterminated"#, #""escaped end \""#, #""\"#,
            #""trailing backslash \\\""#, "\"tab\there\"", "\"newline\nhere\"", "\"nul\u{0}here\"",
            #""high at the end \ud83d\u""#, #"no quotes"#, #"""#,
        ]
        for literal in refused { assertAgreesWithParser(Array(literal.utf8), accepted: false) }
    }

    func testMalformedUTF8IsRefused() {
        let cases: [[UInt8]] = [
            [0xC0, 0x80],  // overlong NUL
            [0xC1, 0xBF],  // overlong
            [0xE0, 0x80, 0x80],  // overlong 3-byte
            [0xED, 0xA0, 0x80],  // a UTF-16 surrogate in UTF-8
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xF5, 0x80, 0x80, 0x80],  // invalid lead
            [0xE2, 0x82],  // truncated before the quote
            [0x80],  // a lone continuation byte
            [0xE2, 0x28, 0xA1],  // a bad continuation
            [0xFF],
        ]
        for bytes in cases {
            assertAgreesWithParser([0x22] + bytes + [0x22], accepted: false)
            assertAgreesWithParser([0x22, 0x61] + bytes + [0x62, 0x22], accepted: false)
        }
        for valid: [UInt8] in [
            [0xC2, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        ] {
            assertAgreesWithParser([0x22] + valid + [0x22], accepted: true)
        }
    }

    /// Random literals over an alphabet of escapes, quotes, control characters and UTF-8 pieces: axdriver and
    /// AXJSON agree on each.
    func testRandomLiteralsAgreeWithAXJSON() {
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("\\\"".utf8), Array("\\\\".utf8), Array("\\/".utf8), Array("\\n".utf8),
            Array("\\u0041".utf8), Array("\\ud83d".utf8), Array("\\ude00".utf8), Array("\\u".utf8), [0x5C],
            [0x22], [0x01], [0x7F], [0xE2, 0x82, 0xAC], [0xE2, 0x82], [0xF0, 0x9F, 0x98, 0x80], [0xED, 0xA0, 0x80],
            Array("<x y=\\\"1\\\"/>".utf8),
        ]
        var random = SplitMix(seed: 5)
        var acceptedCount = 0
        for _ in 0..<3_000 {
            var literal: [UInt8] = [0x22]
            for _ in 0..<random.next(8) { literal += pieces[random.next(pieces.count)] }
            literal.append(0x22)
            let mine = unescaped(literal)
            XCTAssertEqual(mine, parsed(literal), "\(String(decoding: literal, as: UTF8.self))")
            if mine != nil { acceptedCount += 1 }
        }
        XCTAssertGreaterThan(acceptedCount, 300, "the walk reaches valid literals too")
    }

    /// A reply frame as the server writes it.
    func frame(_ xml: String, format: String = "xml", revision: Int = 7) -> [UInt8] {
        var out = Array(#"{"jsonrpc":"2.0","id":3,"result":{"app":"demo","revision":"#.utf8)
        out += Array("\(revision)".utf8)
        out += Array(#","format":"#.utf8) + Array(JSON.string(format).jsonString.utf8)
        out += Array(#","xml":"#.utf8) + Array(JSON.string(xml).jsonString.utf8) + Array("}}".utf8)
        return out
    }

    func decode(_ frame: [UInt8]) -> JSON? {
        frame.withUnsafeBytes { PageSourceReply.decode($0) }
    }

    func testAReplyKeepsItsLiteralAndTheRest() throws {
        let xml = XPathTests.source + "<x a=\"tab\t nl\n \u{1F600} \\ \u{7}\"/>"
        let bytes = frame(xml)
        let decoded = try XCTUnwrap(decode(bytes))
        let ordinary = try JSON.parse(bytes)
        let result = try XCTUnwrap(decoded["result"])
        XCTAssertEqual(PageSourceReply.string(result), ordinary["result"]?["xml"]?.stringValue)
        XCTAssertEqual(PageSourceReply.literal(result), ordinary["result"]?["xml"]?.jsonString)
        XCTAssertNil(result["xml"])
        XCTAssertEqual(result["revision"], JSON(7))
        XCTAssertEqual(result["app"], "demo")
        XCTAssertEqual(decoded["id"], JSON(3))
        // Read the ordinary way, the same accessors give the same page.
        let plain = try XCTUnwrap(ordinary["result"])
        XCTAssertEqual(PageSourceReply.literal(plain), PageSourceReply.literal(result))
        XCTAssertEqual(PageSourceReply.utf8(plain), PageSourceReply.utf8(result))
        // Get Page Source's answer is the former one, byte for byte.
        let answer = WebDriverResponse(valueJSON: try XCTUnwrap(PageSourceReply.literal(result))).bodyBytes
        XCTAssertEqual(answer, WebDriverResponse.value(.string(xml)).body.serialized())
    }

    func testOtherFramesAreLeftToTheParser() {
        XCTAssertNil(decode(frame("<a/>", format: "json")))
        XCTAssertNil(decode(Array(#"{"jsonrpc":"2.0","id":1,"result":{"format":"xml","xml":5}}"#.utf8)))
        XCTAssertNil(decode(Array(#"{"jsonrpc":"2.0","id":1,"result":{"format":"xml","x\u006dl":"<a/>"}}"#.utf8)))
        XCTAssertNil(
            decode(
                Array(
                    #"{"jsonrpc":"2.0","method":"tree.changed","params":{"result":{"format":"xml","xml":"<a/>"}}}"#.utf8
                )))
        XCTAssertNil(decode(Array(#"{"jsonrpc":"2.0","id":1,"error":{"code":-32010,"message":"x"}}"#.utf8)))
        // Two members named xml: the parser refuses the reply, so does the decoder.
        XCTAssertNil(
            decode(Array(#"{"jsonrpc":"2.0","id":1,"result":{"format":"xml","xml":"<a/>","xml":"<b/>"}}"#.utf8)))
        // Garbage after the reply.
        XCTAssertNil(decode(frame("<a/>") + Array(",".utf8)))
    }

    /// Every proper prefix of a reply (a reply cut short) is refused, as the parser refuses it.
    func testTruncatedRepliesAreRefused() {
        let bytes = frame("<a b=\"\\u00e9 \u{1F600}\"/>")
        XCTAssertNotNil(decode(bytes))
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            XCTAssertNil(decode(prefix), "prefix of \(length) bytes")
            XCTAssertNil(try? JSON.parse(prefix))
        }
    }
}
