import AXJSON
import XCTest

@testable import AXQuery

/// The page source's attribute escaping finds candidates eight bytes at a time (D-PERF-5); it must write exactly
/// what the byte-by-byte rule writes, for every special byte or character at every offset around the scan.
final class XMLEscapeScanTests: XCTestCase {
    /// The rule, scalar by scalar (as the page source was written before the scan).
    static func reference(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += Array("&amp;".utf8)
            case "<": out += Array("&lt;".utf8)
            case ">": out += Array("&gt;".utf8)
            case "\"": out += Array("&quot;".utf8)
            case "\n": out += Array("&#10;".utf8)
            case "\r": out += Array("&#13;".utf8)
            case "\t": out += Array("&#9;".utf8)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += Array("\u{FFFD}".utf8)
                } else {
                    out += Array(String(scalar).utf8)
                }
            }
        }
        return out
    }

    static func escaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        ByteWriter.appending(to: &out) { TreeXML.escaped(text, &$0) }
        return out
    }

    func testEveryCandidateAtEveryOffset() {
        var specials: [String] = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        // U+FFFE/U+FFFF are replaced; other EF-led characters (U+FFFD, U+F000, U+FEFF) and U+2028 pass as they are.
        specials += ["&", "<", ">", "\"", "'", "\u{7F}", "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{F000}", "\u{FEFF}"]
        specials += ["\u{2028}", "é", "😀", "a"]
        for special in specials {
            for length in 0...24 {
                for offset in 0...length {
                    let text =
                        String(repeating: "x", count: offset) + special + String(repeating: "y", count: length - offset)
                    XCTAssertEqual(Self.escaped(text), Self.reference(text), text.debugDescription)
                    let twice = special + text + special
                    XCTAssertEqual(Self.escaped(twice), Self.reference(twice), twice.debugDescription)
                }
            }
        }
    }

    /// An attribute far longer than the writer's block, with escapes throughout.
    func testLongValues() {
        let long = String(repeating: "label <b>&\"x\"\u{FFFF}\u{1}é \\", count: 20_000)
        XCTAssertEqual(Self.escaped(long), Self.reference(long))
        XCTAssertEqual(Self.escapedInJSONString(long), Self.jsonContent(Self.reference(long)))
    }

    /// An attribute written inside a JSON string (the `tree.get` xml reply, D-PERF-7).
    static func escapedInJSONString(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        ByteWriter.appending(to: &out) { TreeXML.escaped(PageSourceInJSONString.self, text, &$0) }
        return out
    }

    /// What a JSON string literal holds between its quotes for `bytes` (AXJSON's serializer as the reference).
    static func jsonContent(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        JSON.serializeString(String(decoding: bytes, as: UTF8.self), into: &out)
        return Array(out.dropFirst().dropLast())
    }

    /// Inside a JSON string an attribute is escaped for XML and for JSON in one pass: exactly the XML-escaped text
    /// JSON-escaped, for every candidate of either rule (backslashes, quotes, control characters, markup) and for
    /// characters both leave as they are (U+2028/2029, emoji, '/', DEL) at every offset around the scan.
    func testEveryCandidateInsideAJSONStringAtEveryOffset() {
        var specials: [String] = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        specials += ["\\", "\\\\", "\"", "&", "<", ">", "/", "'", "\u{7F}", "\u{2028}", "\u{2029}", "😀", "é"]
        specials += ["\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{FEFF}", "a"]
        for special in specials {
            for length in 0...24 {
                for offset in 0...length {
                    let text =
                        String(repeating: "x", count: offset) + special + String(repeating: "y", count: length - offset)
                    let expected = Self.jsonContent(Self.reference(text))
                    XCTAssertEqual(Self.escapedInJSONString(text), expected, text.debugDescription)
                    let twice = special + text + "\\" + special
                    XCTAssertEqual(
                        Self.escapedInJSONString(twice), Self.jsonContent(Self.reference(twice)), twice.debugDescription
                    )
                }
            }
        }
    }

    /// `EscapeScan.isClean` (the short-attribute path) with both page-source rules, against their byte-by-byte
    /// `contains`: every byte value at every offset of texts of 0–40 bytes, between clean bytes next to the
    /// candidates (0x21, 0x23, 0x25, 0x27, 0x3B, 0x3D, 0x3F, 0x5B, 0x5D, 0xEE, 0xF0) and bytes with the high bit set.
    func testIsCleanAgreesWithTheRulesAtEveryOffset() {
        let background: [UInt8] = [0x61, 0x21, 0x23, 0x25, 0x27, 0x3B, 0x3D, 0x3F, 0x5B, 0x5D, 0xEE, 0xF0, 0x80, 0xFF]
        var wrong: [String] = []
        func check<Rule: ByteEscapeRule>(_ rule: Rule.Type, _ text: [UInt8], _ label: String) {
            let clean = text.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { EscapeScan.isClean(Rule.self, $0, count: text.count) } ?? true
            }
            if clean == text.contains(where: Rule.contains), wrong.count < 10 { wrong.append(label) }
        }
        for length in 0...40 {
            for offset in 0..<max(length, 1) {
                for byte in UInt8.min...UInt8.max {
                    var text = (0..<length).map { background[($0 &+ Int(byte)) % background.count] }
                    if length > 0 { text[offset] = byte }
                    check(XMLEscapeRule.self, text, "xml: length \(length), byte \(byte) at \(offset)")
                    check(XMLInJSONEscapeRule.self, text, "in JSON: length \(length), byte \(byte) at \(offset)")
                }
            }
        }
        XCTAssertEqual(wrong, [])
    }
}
