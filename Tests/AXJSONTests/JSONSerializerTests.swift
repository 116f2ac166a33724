import XCTest

@testable import AXJSON

final class JSONSerializerTests: XCTestCase {
    func testScalars() {
        XCTAssertEqual(JSON.null.jsonString, "null")
        XCTAssertEqual(JSON.bool(true).jsonString, "true")
        XCTAssertEqual(JSON.bool(false).jsonString, "false")
        XCTAssertEqual(JSON.string("").jsonString, "\"\"")
    }

    func testNumberFormatting() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (3, "3"), (-3, "-3"), (10, "10"), (1_234_567_890, "1234567890"),
            (9_007_199_254_740_992, "9007199254740992"), (-9_007_199_254_740_992, "-9007199254740992"),
            (0.5, "0.5"), (0.1, "0.1"), (-2.25, "-2.25"), (1e-7, (1e-7).description),
            (1e300, (1e300).description), (18_014_398_509_481_984, (18_014_398_509_481_984.0).description),
            (.nan, "null"), (.infinity, "null"), (-.infinity, "null"),
        ]
        for (detail, expected) in cases {
            XCTAssertEqual(JSON.number(detail).jsonString, expected, "\(detail)")
        }
        // Every finite output must parse back to the same value.
        for detail in [
            0.1, 1e-7, 1e300, .leastNonzeroMagnitude, 1.7976931348623157e308, 123.456, -0.000123,
            18_014_398_509_481_984,
        ] {
            let text = JSON.number(detail).jsonString
            XCTAssertEqual(try JSON.parse(text).doubleValue, detail, text)
        }
    }

    func testIntValue() {
        let cases: [(JSON, Int?)] = [
            (3, 3), (-7, -7), (.number(-0.0), 0), (0.5, nil), (-2.5, nil), (.number(.nan), nil),
            (.number(.infinity), nil), (.number(9_007_199_254_740_991), 9_007_199_254_740_991),
            (.number(9_007_199_254_740_992), nil), (.number(1e300), nil), ("3", nil), (.null, nil),
        ]
        for (value, want) in cases { XCTAssertEqual(value.intValue, want, "\(value)") }
    }

    func testStringEscaping() {
        XCTAssertEqual(JSON.string("a\"b\\c").jsonString, #""a\"b\\c""#)
        XCTAssertEqual(JSON.string("\n\r\t\u{08}\u{0C}").jsonString, #""\n\r\t\b\f""#)
        XCTAssertEqual(JSON.string("\u{0}\u{1}\u{1F}").jsonString, #""\u0000\u0001\u001f""#)
        XCTAssertEqual(JSON.string("a/b").jsonString, #""a/b""#)
        XCTAssertEqual(JSON.string("héllo 中 😀").jsonString, "\"héllo 中 😀\"")
        XCTAssertEqual(JSON.string("\u{7F}").jsonString, "\"\u{7F}\"")
        // A bridged / non-contiguous string still serializes.
        let sub = "xx\"yy".dropFirst()
        XCTAssertEqual(JSON.string(String(sub)).jsonString, #""x\"yy""#)
    }

    func testContainersKeepStoredOrder() {
        var object = JSONObject()
        object["z"] = 1
        object["a"] = [true, nil, "s"]
        object["m"] = [:]
        XCTAssertEqual(JSON.object(object).jsonString, #"{"z":1,"a":[true,null,"s"],"m":{}}"#)
        XCTAssertEqual(JSON.array([]).jsonString, "[]")
        XCTAssertEqual(JSON.object(JSONObject()).description, "{}")
    }

    func testSerializeIntoAppends() {
        var out = Array("prefix:".utf8)
        JSON.array([1, 2]).serialize(into: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "prefix:[1,2]")
        XCTAssertEqual(JSON.array([1, 2]).serialized(), Array("[1,2]".utf8))
    }

    func testPrettyString() {
        let json: JSON = ["b": 1, "a": ["x", ["k": nil]], "e": [], "o": [:]]
        let expected = """
            {
              "b": 1,
              "a": [
                "x",
                {
                  "k": null
                }
              ],
              "e": [],
              "o": {}
            }
            """
        XCTAssertEqual(json.prettyString(), expected)
        XCTAssertEqual(JSON.array([1]).prettyString(indent: 4), "[\n    1\n]")
        XCTAssertEqual(try JSON.parse(json.prettyString(indent: 3)), json)
        XCTAssertEqual(JSON.string("s").prettyString(), "\"s\"")
    }

    func testRoundTrips() throws {
        let docs = [
            #"{"a":[1,2.5,-3e-7,"x\n\"y\"",true,false,null],"b":{"c":{"d":[]}},"ü":"😀"}"#,
            #"[[[[[]]]],{},"",0,-0.5,1e+100]"#,
            #""\u0000\u001f ctrl""#,
        ]
        for doc in docs {
            let json = try JSON.parse(doc)
            let again = try JSON.parse(json.serialized())
            XCTAssertEqual(json, again, doc)
            XCTAssertEqual(json.serialized(), again.serialized(), doc)
            XCTAssertEqual(try JSON.parse(json.prettyString()), json)
        }
    }

    func testRandomTreesRoundTrip() throws {
        var rng = SplitMix(seed: 0xA11CE)
        for _ in 0..<300 {
            let otherRandomJSON = randomJSON(depth: 0, rng: &rng)
            let text = otherRandomJSON.serialized()
            let back = try JSON.parse(text)
            XCTAssertEqual(back, otherRandomJSON, String(decoding: text, as: UTF8.self))
        }
    }

    func testLargeTreeSerializesQuickly() throws {
        // 5,000-element tree, each node an object like the accessibility tree nodes.
        func node(_ i: Int) -> JSON {
            [
                "id": .number(Double(i)), "role": "button", "label": .string("Button number \(i) — ok"),
                "frame": [.number(Double(i)), 10.5, 100, 44], "enabled": true, "traits": ["button", "staticText"],
            ]
        }
        var level: [JSON] = (0..<5000).map(node)
        while level.count > 1 {
            var next: [JSON] = []
            var key = 0
            while key < level.count {
                var otherNode = node(key).objectValue!
                otherNode["children"] = .array(Array(level[key..<min(key + 10, level.count)]))
                next.append(.object(otherNode))
                key += 10
            }
            level = next
        }
        let tree = level[0]
        var out: [UInt8] = []
        tree.serialize(into: &out)  // warm up
        let clock = ContinuousClock()
        var best = Duration.seconds(100)
        for _ in 0..<5 {
            var buf: [UInt8] = []
            let elapsed = clock.measure { tree.serialize(into: &buf) }
            best = min(best, elapsed)
            XCTAssertEqual(buf.count, out.count)
        }
        // A regression guard, not a speed figure (benchmarks give those): a debug build on a quiet machine takes
        // ~0.1 s; the bound leaves room for a loaded 2-core CI machine running tests in parallel.
        XCTAssertLessThan(best, .seconds(2), "serializing the 5,000+ node tree took \(best)")
        XCTAssertEqual(try JSON.parse(out), tree)
    }

    // MARK: helpers

    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var otherState = state
            otherState = (otherState ^ (otherState >> 30)) &* 0xBF58_476D_1CE4_E5B9
            otherState = (otherState ^ (otherState >> 27)) &* 0x94D0_49BB_1331_11EB
            return otherState ^ (otherState >> 31)
        }
    }

    func randomString(_ rng: inout SplitMix) -> String {
        let alphabet: [Character] = ["a", "Z", "0", " ", "\"", "\\", "\n", "\u{1}", "é", "中", "😀", "/", "\t"]
        let count = Int(rng.next() % 8)
        return String((0..<count).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
    }

    func randomJSON(depth: Int, rng: inout SplitMix) -> JSON {
        let pick = depth > 4 ? rng.next() % 4 : rng.next() % 6
        switch pick {
        case 0: return .null
        case 1: return .bool(rng.next() % 2 == 0)
        case 2:
            let raw = Double(bitPattern: rng.next())
            if raw.isFinite && rng.next() % 2 == 0 { return .number(raw) }
            return .number(Double(Int64(bitPattern: rng.next()) % 1_000_000))
        case 3: return .string(randomString(&rng))
        case 4: return .array((0..<Int(rng.next() % 5)).map { _ in randomJSON(depth: depth + 1, rng: &rng) })
        default:
            var object = JSONObject()
            for _ in 0..<Int(rng.next() % 5) { object[randomString(&rng)] = randomJSON(depth: depth + 1, rng: &rng) }
            return .object(object)
        }
    }
}
