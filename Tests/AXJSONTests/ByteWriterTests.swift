import XCTest

@testable import AXJSON

/// `ByteWriter` (D-PERF-5) writes exactly the bytes of `JSON.serializeString` and `JSON.serializeNumber`: strings
/// with every escape at every offset around the eight-byte scan and across block flushes, and numbers through the
/// integer, short-decimal and `description` paths.
final class ByteWriterTests: XCTestCase {
    static func written(_ body: (inout ByteWriter) -> Void) -> [UInt8] {
        var out: [UInt8] = []
        ByteWriter.appending(to: &out, body)
        return out
    }

    static func power(_ places: Int) -> Double {
        var result = 1.0
        for _ in 0..<places { result *= 10 }
        return result
    }

    static func reference(string: String) -> [UInt8] {
        var out: [UInt8] = []
        JSON.serializeString(string, into: &out)
        return out
    }

    static func reference(number: Double) -> [UInt8] {
        var out: [UInt8] = []
        JSON.serializeNumber(number, into: &out)
        return out
    }

    /// Every byte that needs an escape (and some that do not) at every offset of strings of 0–40 bytes, between
    /// ASCII, non-ASCII (two-, three- and four-byte UTF-8, U+2028) and long clean runs.
    func testStringsMatchTheSerializerAtEveryOffset() {
        var specials: [String] = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        specials += ["\"", "\\", "/", "\u{7F}", "é", "\u{2028}", "\u{2029}", "😀", "\u{FFFE}", "\u{FFFF}", "a"]
        for special in specials {
            for length in 0...40 {
                for offset in stride(from: 0, through: length, by: 1) {
                    let text =
                        String(repeating: "x", count: offset) + special + String(repeating: "ü", count: length - offset)
                    let out = Self.written { $0.jsonString(text) }
                    XCTAssertEqual(out, Self.reference(string: text), "\(text.debugDescription)")
                }
            }
        }
        let every = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
        XCTAssertEqual(Self.written { $0.jsonString(every) }, Self.reference(string: every))
    }

    /// Writes larger than the block, and many small ones across block boundaries, land in order.
    func testLongStringsAndManyWritesCrossTheBlock() {
        let long = String(repeating: "abc\"def\\\u{1}ghé", count: 40_000)
        XCTAssertEqual(Self.written { $0.jsonString(long) }, Self.reference(string: long))
        let clean = String(repeating: "0123456789", count: 20_000)
        XCTAssertEqual(Self.written { $0.jsonString(clean) }, Self.reference(string: clean))
        var expected: [UInt8] = [1, 2, 3]
        var out: [UInt8] = [1, 2, 3]
        ByteWriter.appending(to: &out) { writer in
            for index in 0..<50_000 {
                writer.jsonString("n\(index)")
                writer.byte(0x2C)
                writer.number(Double(index) + 0.5)
            }
        }
        for index in 0..<50_000 {
            JSON.serializeString("n\(index)", into: &expected)
            expected.append(0x2C)
            JSON.serializeNumber(Double(index) + 0.5, into: &expected)
        }
        XCTAssertEqual(out, expected)
    }

    /// Numbers at the edges: integers around ±2^53, short decimals at 1–4 places and beyond, magnitudes around
    /// the short-decimal bounds (0.001, 2^50/10⁴), subnormals, negative zero, NaN and infinities.
    func testNumbersAtTheEdgesMatchTheSerializer() {
        var values: [Double] = [
            0, -0.0, 1, -1, 0.5, -0.5, 0.1, 0.2, 0.3, 0.7, 117.5, 37.5, 33.333333333333336, 1e-7, 0.001, 0.0011,
            0.000999, 0.0001, 0.00015, 9_007_199_254_740_992, 9_007_199_254_740_993, -9_007_199_254_740_992,
            9_007_199_254_740_994, 1e21, 1e300, -1e300, .leastNonzeroMagnitude, .leastNormalMagnitude,
            .greatestFiniteMagnitude, .nan, .infinity, -.infinity, 0x1p50 / 10000, (0x1p50 / 10000).nextDown,
            (0x1p50 / 10000).nextUp, 112_589_990.6842, 112_589_990.6843, 1234567.125, 9999999.999, -9999999.5,
            0.1 + 0.2, 1.0 / 3.0, 2.675, 1.005, 0.0009999999999999998,
        ]
        for places in 1...6 {
            let power = Self.power(places)
            for numerator in [1, 5, 9, 11, 99, 101, 12345, 99999, 123_456_789, 999_999_999_999] {
                values.append(Double(numerator) / power)
                values.append(-Double(numerator) / power)
            }
        }
        for value in values {
            XCTAssertEqual(
                String(decoding: Self.written { $0.number(value) }, as: UTF8.self),
                String(decoding: Self.reference(number: value), as: UTF8.self), "\(value)")
        }
    }

    /// 200,000 values: random decimals at 1–5 places (the short-decimal path and just past it) and random bit
    /// patterns (every path), each against `JSON.serializeNumber`.
    func testRandomNumbersMatchTheSerializer() {
        var generator = SystemRandomNumberGenerator()
        var mismatches: [String] = []
        for round in 0..<200_000 {
            let value: Double
            if round % 2 == 0 {
                let places = Int.random(in: 1...5, using: &generator)
                let magnitude = Int64.random(
                    in: 0...Int64(1) << Int.random(in: 1...52, using: &generator), using: &generator)
                value = Double(magnitude) / Self.power(places) * (Bool.random(using: &generator) ? 1 : -1)
            } else {
                value = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            }
            let out = Self.written { $0.number(value) }
            if out != Self.reference(number: value), mismatches.count < 10 {
                mismatches.append("\(value.bitPattern): \(String(decoding: out, as: UTF8.self))")
            }
        }
        XCTAssertEqual(mismatches, [])
    }

    /// `integer` and `digits` against Swift's own decimal form, at the edges.
    func testIntegersMatchDescription() {
        for value in [0, 1, 9, 10, 99, 100, -1, -10, Int.max, Int.min, 1_000_000_007, -987_654_321] {
            XCTAssertEqual(String(decoding: Self.written { $0.integer(value) }, as: UTF8.self), String(value))
        }
        XCTAssertEqual(String(decoding: Self.written { $0.digits(.max) }, as: UTF8.self), String(UInt64.max))
    }

    /// Every value under 10,000 (the short path: four digits stored at once, leading zeros dropped) and the first
    /// values past it, written after an odd number of bytes, against Swift's decimal form.
    func testShortIntegersMatchDescription() {
        var out: [UInt8] = []
        var expected: [UInt8] = []
        ByteWriter.appending(to: &out) { writer in
            for value in 0..<10_100 {
                writer.byte(0x2C)
                writer.digits(UInt64(value))
                writer.number(Double(value))
            }
        }
        for value in 0..<10_100 { expected += Array(",\(value)\(value)".utf8) }
        XCTAssertEqual(out, expected)
    }

    /// `EscapeScan.isClean` (the short-string path of `jsonString`) against a byte-by-byte check: every byte value
    /// at every offset of texts of 0–40 bytes, the other bytes clean (next to the flagged ones: 0x21, 0x23, 0x5B,
    /// 0x5D; and bytes with the high bit set, where a borrow could hide or fake a flag).
    func testIsCleanFindsEveryFlaggedByteAtEveryOffset() {
        let background: [UInt8] = [0x61, 0x80, 0xFF, 0x21, 0x5B, 0x5D, 0x23, 0xA2, 0xDC, 0x20]
        var wrong: [String] = []
        for length in 0...40 {
            for offset in 0..<max(length, 1) {
                for byte in UInt8.min...UInt8.max {
                    var text = (0..<length).map { background[($0 &+ Int(byte)) % background.count] }
                    if length > 0 { text[offset] = byte }
                    let clean = text.withUnsafeBufferPointer { buffer in
                        buffer.baseAddress.map { EscapeScan.isClean(JSONEscapeRule.self, $0, count: length) } ?? true
                    }
                    let expected = !text.contains(where: JSONEscapeRule.contains)
                    if clean != expected, wrong.count < 10 {
                        wrong.append("length \(length), byte \(byte) at \(offset)")
                    }
                }
            }
        }
        XCTAssertEqual(wrong, [])
    }
}
