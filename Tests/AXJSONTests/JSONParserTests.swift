import XCTest

@testable import AXJSON

final class JSONParserTests: XCTestCase {
    private func parse(_ s: String, limits: JSONParseLimits = .default) throws -> JSON {
        try JSON.parse(s, limits: limits)
    }

    private func parseError(
        _ s: String, limits: JSONParseLimits = .default,
        file: StaticString = #filePath, line: UInt = #line
    ) -> JSONParseError? {
        do {
            let json = try JSON.parse(s, limits: limits)
            XCTFail("expected an error for \(s.debugDescription), got \(json)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func parseBytesError(_ b: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> JSONParseError? {
        do {
            let json = try JSON.parse(b)
            XCTFail("expected an error for \(b), got \(json)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testScalars() throws {
        XCTAssertEqual(try parse("null"), .null)
        XCTAssertEqual(try parse("true"), .bool(true))
        XCTAssertEqual(try parse("false"), .bool(false))
        XCTAssertEqual(try parse("0"), .number(0))
        XCTAssertEqual(try parse(" \t\r\n42 \n"), .number(42))
        XCTAssertEqual(try parse("\"hi\""), .string("hi"))
        XCTAssertEqual(try parse("\"\""), .string(""))
    }

    func testContainers() throws {
        let value = try parse(#"{"a": [1, 2, {"b": null}], "c": {}, "d": [], "e": "x"}"#)
        XCTAssertEqual(value["a"]?[0], 1)
        XCTAssertEqual(value["a"]?[2]?["b"], .null)
        XCTAssertEqual(value["c"], .object(JSONObject()))
        XCTAssertEqual(value["d"], .array([]))
        XCTAssertEqual(value["e"], "x")
        XCTAssertEqual(value.objectValue?.keys, ["a", "c", "d", "e"])
    }

    func testDuplicateKeysLastWinsFirstPositionKept() throws {
        let value = try parse(#"{"a":1,"b":2,"a":3}"#)
        XCTAssertEqual(value["a"], 3)
        XCTAssertEqual(value.objectValue?.keys, ["a", "b"])
        // Large objects take the indexed path; check it too.
        var text = "{"
        for k in 0..<40 { text += "\"k\(k)\":\(k)," }
        text += "\"k5\":\"dup\",\"k30\":\"dup2\"}"
        let big = try parse(text)
        XCTAssertEqual(big.objectValue?.count, 40)
        XCTAssertEqual(big["k5"], "dup")
        XCTAssertEqual(big["k30"], "dup2")
        XCTAssertEqual(big["k39"], 39)
        XCTAssertEqual(big.objectValue?.keys.first, "k0")
    }

    func testNumbers() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("1", 1), ("-1", -1), ("123456789", 123_456_789),
            ("9007199254740993", 9_007_199_254_740_992),  // rounds to nearest double like Double(String)
            ("12345678901234567890123", 1.2345678901234568e22),
            ("0.5", 0.5), ("-0.25", -0.25), ("3.14159", 3.14159), ("0.1", 0.1), ("0.000001", 0.000001),
            ("1e3", 1000), ("1E3", 1000), ("1e+3", 1000), ("1e-3", 0.001), ("-1.5e-7", -1.5e-7),
            ("2.5E10", 2.5e10), ("1.7976931348623157e308", 1.7976931348623157e308), ("5e-324", .leastNonzeroMagnitude),
            ("1e-400", 0), ("0e999", 0), ("123.456e-30", 123.456e-30),
            ("0.30000000000000004", 0.30000000000000004), ("1.00000000000000000000001", 1.0),
        ]
        for (text, expected) in cases {
            let value = try parse(text)
            guard case .number(let detail) = value else {
                XCTFail("\(text) did not parse to a number")
                continue
            }
            XCTAssertEqual(detail, expected, "parsing \(text)")
            XCTAssertEqual(detail, Double(text)!, "parsing \(text) should match the stdlib")
            XCTAssertEqual(detail.sign, expected.sign, "sign of \(text)")
        }
    }

    func testNumbersMatchStdlibOnManyValues() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let mant = Int64.random(in: -999_999_999_999...999_999_999_999, using: &rng)
            let exp = Int.random(in: -40...40, using: &rng)
            let frac = Int.random(in: 0...12, using: &rng)
            var state = String(mant)
            if frac > 0 {
                let digits = state.hasPrefix("-") ? String(state.dropFirst()) : state
                let padded = String(repeating: "0", count: max(0, frac + 1 - digits.count)) + digits
                let cut = padded.index(padded.endIndex, offsetBy: -frac)
                state = (mant < 0 ? "-" : "") + padded[..<cut] + "." + padded[cut...]
            }
            state += "e\(exp)"
            let value = try parse(state)
            XCTAssertEqual(value.doubleValue, Double(state), state)
        }
    }

    func testStringsAndEscapes() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\b\f\n\r\t""#), .string("a\"b\\c/d\u{08}\u{0C}\n\r\t"))
        XCTAssertEqual(try parse(#""\u0041\u00e9\u4e2d""#), .string("Aé中"))
        XCTAssertEqual(try parse(#""\uD83D\uDE00""#), .string("😀"))
        XCTAssertEqual(try parse(#""x\ud83d\ude00y""#), .string("x😀y"))
        XCTAssertEqual(try parse(#""\u0000""#), .string("\u{0}"))
        XCTAssertEqual(try parse("\"héllo wörld 中文 😀\""), .string("héllo wörld 中文 😀"))
        XCTAssertEqual(try parse("\"é\\n😀\""), .string("é\n😀"))
        // Keys go through the same path.
        XCTAssertEqual(try parse(#"{"\u006b\u00e9y": 1}"#)["ké" + "y"], 1)
    }

    func testBOMIsSkipped() throws {
        XCTAssertEqual(try JSON.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)), [1])
    }

    /// (input, expected offset, a fragment the message must contain)
    func testSyntaxErrorsNameOffsetAndExpectation() {
        let cases: [(String, Int, String)] = [
            ("", 0, "empty input"),
            ("   ", 3, "empty input"),
            ("{\"a\":1,\"b\":2 \"c\":3}", 13, "expected ',' or '}'"),
            ("[1 2]", 3, "expected ',' or ']'"),
            ("[1,]", 3, "trailing comma before ']'"),
            ("{\"a\":1,}", 7, "trailing comma before '}'"),
            ("{\"a\" 1}", 5, "expected ':'"),
            ("{a:1}", 1, "expected a string key or '}'"),
            ("{\"a\":1,a}", 7, "expected a string key after ','"),
            ("[1,2", 4, "unexpected end of input, expected ',' or ']'"),
            ("{\"a\":1", 6, "unexpected end of input, expected ',' or '}'"),
            ("[", 1, "expected a JSON value"),
            ("tru", 3, "invalid literal, expected 'true'"),
            ("nul", 3, "expected 'null'"),
            ("fals3", 4, "expected 'false'"),
            ("1 2", 2, "unexpected trailing data"),
            ("{} x", 3, "unexpected trailing data"),
            ("NaN", 0, "NaN and Infinity"),
            ("Infinity", 0, "NaN and Infinity"),
            ("-Infinity", 0, "NaN and Infinity"),
            ("[nan]", 2, "invalid literal, expected 'null'"),
            ("01", 0, "leading zeros"),
            ("-012", 0, "leading zeros"),
            ("-", 1, "expected a digit after '-'"),
            ("-a", 1, "expected a digit after '-'"),
            ("1.", 2, "expected a digit after '.'"),
            ("1.e5", 2, "expected a digit after '.'"),
            (".5", 0, "expected a JSON value"),
            ("+1", 0, "expected a JSON value"),
            ("1e", 2, "expected a digit in the exponent"),
            ("1e+", 3, "expected a digit in the exponent"),
            ("1e999", 0, "out of range"),
            ("-1e999", 0, "out of range"),
            ("\"abc", 0, "unterminated string"),
            ("\"a\nb\"", 2, "unescaped control character U+000A"),
            ("\"a\u{01}\"", 2, "unescaped control character U+0001"),
            (#""\x""#, 1, "invalid escape sequence '\\x'"),
            (#""\u12G4""#, 5, "invalid \\u escape"),
            (#""\u12""#, 1, "incomplete \\u escape"),
            (#""\uD800""#, 1, "unpaired high surrogate \\uD800"),
            (#""\uD800\u0041""#, 7, "not a low surrogate"),
            (#""\uDC00""#, 1, "unpaired low surrogate \\uDC00"),
            ("[1]]", 3, "unexpected trailing data"),
            ("}", 0, "unexpected '}'"),
        ]
        for (input, offset, fragment) in cases {
            guard let error = parseError(input) else { continue }
            XCTAssertEqual(error.offset, offset, "offset for \(input.debugDescription): \(error)")
            XCTAssertTrue(
                error.message.contains(fragment),
                "message for \(input.debugDescription) was '\(error.message)', wanted '\(fragment)'")
            XCTAssertTrue(error.description.hasSuffix("at offset \(offset)"), error.description)
            XCTAssertEqual(error.kind, error.message.hasPrefix("unpaired") ? .encoding : .syntax, input)
        }
    }

    func testExpectedMessageFormatFromBrief() {
        // "expected ',' or '}' at offset 17"
        let error = parseError(#"{"name":"x","a":1 "b":2}"#)
        XCTAssertEqual(error?.offset, 18)
        XCTAssertTrue(error?.description.contains("expected ',' or '}'") ?? false)
        XCTAssertTrue(error?.description.hasSuffix("at offset 18") ?? false)
    }

    func testInvalidUTF8IsRejected() {
        let quote: UInt8 = 0x22
        let cases: [([UInt8], Int, String)] = [
            ([quote, 0xFF, quote], 1, "never appears in UTF-8"),
            ([quote, 0xC0, 0x80, quote], 1, "never appears"),  // overlong NUL
            ([quote, 0x80, quote], 1, "unexpected continuation byte"),
            ([quote, 0xC3, quote], 2, "expected a continuation byte"),  // truncated 2-byte
            ([quote, 0xE0, 0x80, 0x80, quote], 1, "overlong 3-byte"),
            ([quote, 0xED, 0xA0, 0x80, quote], 1, "surrogate"),  // encoded U+D800
            ([quote, 0xF0, 0x80, 0x80, 0x80, quote], 1, "overlong 4-byte"),
            ([quote, 0xF4, 0x90, 0x80, 0x80, quote], 1, "above U+10FFFF"),
            ([quote, 0x61, 0xE4, 0xB8], 2, "truncated"),  // truncated at end of input
            ([quote, 0x61, 0xE4, 0xB8, 0x41, quote], 4, "expected a continuation byte"),
        ]
        for (bytes, offset, fragment) in cases {
            guard let bytesError = parseBytesError(bytes) else { continue }
            XCTAssertEqual(bytesError.offset, offset, "\(bytes): \(bytesError)")
            XCTAssertTrue(bytesError.message.contains(fragment), "\(bytes): \(bytesError.message)")
            XCTAssertEqual(bytesError.kind, .encoding)
        }
        // Valid multi-byte sequences of every length pass.
        XCTAssertEqual(
            try JSON.parse([quote, 0xC3, 0xA9, 0xE4, 0xB8, 0xAD, 0xF0, 0x9F, 0x98, 0x80, quote]), .string("é中😀"))
        // Invalid UTF-8 inside a string that also has escapes.
        XCTAssertEqual(parseBytesError([quote, 0x5C, 0x6E, 0xFF, quote])?.offset, 3)
    }

    func testDepthLimit() throws {
        let limits = JSONParseLimits(maxDepth: 10, maxBytes: 1 << 20)
        let ok = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        XCTAssertNoThrow(try parse(ok, limits: limits))
        let deep = String(repeating: "[", count: 11) + String(repeating: "]", count: 11)
        let error = parseError(deep, limits: limits)
        XCTAssertEqual(error?.kind, .depthLimit)
        XCTAssertEqual(error?.offset, 10)
        XCTAssertTrue(error?.message.contains("10") ?? false)
        let deepObj = String(repeating: "{\"a\":", count: 11) + "1" + String(repeating: "}", count: 11)
        XCTAssertEqual(parseError(deepObj, limits: limits)?.kind, .depthLimit)
    }

    func testHugeNestingIsRefusedWithoutCrashing() {
        // 1,000,000 open brackets would blow the stack of a naive recursive parser.
        let bomb = [UInt8](repeating: 0x5B, count: 1_000_000)
        XCTAssertEqual(parseBytesError(bomb)?.kind, .depthLimit)
        let objBomb = Array(String(repeating: "{\"a\":", count: 200_000).utf8)
        XCTAssertEqual(parseBytesError(objBomb)?.kind, .depthLimit)
    }

    func testSizeLimit() {
        let limits = JSONParseLimits(maxDepth: 10, maxBytes: 8)
        XCTAssertNoThrow(try parse("[1,2,3]", limits: limits))
        let error = parseError("[1,2,3,4,5]", limits: limits)
        XCTAssertEqual(error?.kind, .sizeLimit)
        XCTAssertTrue(error?.message.contains("11 bytes") ?? false, error?.message ?? "")
    }

    func testParseFromUnsafeBufferAndArrayAgree() throws {
        let text = #"{"k":[1,2.5,"s",true,null,{"x":-3}]}"#
        let json = try JSON.parse(text)
        let otherJson = try JSON.parse(Array(text.utf8))
        let current = try Array(text.utf8).withUnsafeBytes { buf in try JSON.parse(buf) }
        XCTAssertEqual(json, otherJson)
        XCTAssertEqual(json, current)
        XCTAssertEqual(json["k"]?[5]?["x"], -3)
    }

    func testMutatedInputsNeverCrashAndReportOffsetsInRange() {
        let seeds = [
            #"{"a":[1,2.5e-3,"x\n\u00e9\ud83d\ude00",true,false,null],"b":{"c":-0.0}}"#,
            #"[{"jsonrpc":"2.0","method":"tree.get","params":{"depth":3},"id":"q1"}]"#,
            "\"héllo 中文 😀\"",
        ].map { Array($0.utf8) }
        var rng = JSONSerializerTests.SplitMix(seed: 42)
        let interesting: [UInt8] =
            Array("{}[]\",:\\u0123456789eE+-.tfn ".utf8) + [
                0x00, 0x0A, 0x7F, 0x80, 0xBF, 0xC0, 0xE0, 0xED, 0xF0, 0xF4, 0xFF,
            ]
        var parsedOK = 0
        for _ in 0..<20_000 {
            var doc = seeds[Int(rng.next() % UInt64(seeds.count))]
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let pos = Int(rng.next() % UInt64(doc.count + 1))
                switch rng.next() % 3 {
                case 0: if pos < doc.count { doc[pos] = interesting[Int(rng.next() % UInt64(interesting.count))] }
                case 1: doc.insert(interesting[Int(rng.next() % UInt64(interesting.count))], at: pos)
                default: if pos < doc.count { doc.remove(at: pos) }
                }
            }
            do {
                let json = try JSON.parse(doc)
                parsedOK += 1
                // Whatever parsed must serialize to something that parses to the same value.
                XCTAssertEqual(try JSON.parse(json.serialized()), json)
            } catch {
                XCTAssertGreaterThanOrEqual(error.offset, 0)
                XCTAssertLessThanOrEqual(error.offset, doc.count, "\(error) for \(doc)")
                XCTAssertFalse(error.message.isEmpty)
            }
        }
        XCTAssertGreaterThan(parsedOK, 0)
    }

    func testDefaultDepthLimitIsSafeInsideATask() async throws {
        let depth = JSONParseLimits.default.maxDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let parsed = try await Task.detached { try JSON.parse(text) }.value
        var levels = 0
        var cur = parsed
        while let arrayValue = cur.arrayValue {
            levels += 1
            guard let first = arrayValue.first else { break }
            cur = first
        }
        XCTAssertEqual(levels, depth)
        XCTAssertEqual(parsed.serialized().count, depth * 2)
    }
}
