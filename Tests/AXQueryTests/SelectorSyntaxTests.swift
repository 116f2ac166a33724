import AXCore
import AXJSON
import AXQuery
import XCTest

/// Parse errors (positions counted by hand), canonical printing and JSON AST round trips.
final class SelectorSyntaxTests: XCTestCase {
    // (selector, position, a fragment of `expected`, `found`)
    static let errors: [(String, Int, String, String)] = [
        ("button[label=\"Submit\"", 21, "']'", "end of input"),
        ("buton", 0, "a role", "'buton'"),
        ("button[lable=\"x\"]", 7, "an attribute name", "'lable'"),
        ("button:frist", 7, "a pseudo-class", "':frist'"),
        ("button >", 8, "a selector after '>'", "end of input"),
        ("#login.password", 6, "the end of the identifier", "'.'"),
        ("[x<abc]", 3, "a number", "\"abc\""),
        ("[traits&=header,buton]", 16, "a trait name", "'buton'"),
        (":nth(x)", 5, "an integer", "'x'"),
        (":nth-last(-1)", 10, "a non-negative integer", "'-1'"),
        ("button, ", 8, "a selector", "end of input"),
        ("button)", 6, "end of input", "')'"),
        ("[label=\"a\\q\"]", 9, "an escape", "'\\q'"),
        ("[label~=/(/]", 8, "a valid regular expression", "/(/"),
        (":has(>> button)", 5, "'>', '+', '~' or a selector", "'>>'"),
        (":not()", 5, "a selector", "')'"),
        ("", 0, "a selector", "end of input"),
        ("   ", 3, "a selector", "end of input"),
        ("button[label=\"x\" q]", 17, "']' or a flag", "'q'"),
        ("[label&=x]", 6, "'&=' only on the set attributes", "'&=' on 'label'"),
        ("[index*=3]", 6, "for the numeric attribute", "'*='"),
        ("[label=/x/ i]", 7, "regex flags inside the literal", "an 'i' flag after a regex"),
        ("[label=/x/g]", 10, "regex flags i, s or m", "'g'"),
        ("[label", 6, "an operator", "end of input"),
        ("#a\\", 3, "a character after '\\'", "end of input"),
        ("[label=]", 7, "a value after '='", "']'"),
        (":first(1)", 6, "no argument after :first", "'('"),
        (":trait(header, bold)", 15, "a trait name", "'bold'"),
        (":state(visible)", 7, "a state name", "'visible'"),
        ("> button", 0, "a selector", "'>'"),
        ("button + ", 9, "a selector after '+'", "end of input"),
        ("[role=buton]", 6, "a role", "'buton'"),
        (":text(\"abc)", 11, "to close the string", "end of input"),
        ("[label=\"x\"]]", 11, "a combinator", "']'"),
    ]

    func testParseErrors() {
        for (text, pos, expected, found) in Self.errors {
            do {
                let selector = try Selector(parsing: text)
                XCTFail("\(text) parsed as \(selector.canonical)")
            } catch {
                XCTAssertEqual(error.position, pos, "\(text): \(error.message)")
                XCTAssertTrue(
                    error.expected.contains(expected), "\(text): expected '\(error.expected)' to contain '\(expected)'")
                XCTAssertTrue(
                    error.found.hasPrefix(found), "\(text): found '\(error.found)' should start with '\(found)'")
                XCTAssertNil(error.path)
            }
        }
    }

    func testErrorMessageAndHints() {
        do {
            _ = try Selector(parsing: "button[label=\"Submit\"")
            XCTFail()
        } catch {
            XCTAssertEqual(error.message, "expected ']' at position 21, found end of input")
        }
        do {
            _ = try Selector(parsing: "buton")
            XCTFail()
        } catch {
            XCTAssertEqual(error.hint, "did you mean 'button'?")
        }
        do {
            _ = try Selector(parsing: "button:frist")
            XCTFail()
        } catch {
            XCTAssertEqual(error.hint, "did you mean ':first'?")
        }
        do {
            _ = try Selector(parsing: "[lable=x]")
            XCTFail()
        } catch {
            XCTAssertEqual(error.hint, "did you mean 'label'?")
        }
        do {
            _ = try Selector(parsing: "#login.password")
            XCTFail()
        } catch {
            XCTAssertTrue(error.hint?.contains("#\"login") == true, error.message)
        }
    }

    func testHostileInputNeverCrashes() {
        let deep = String(repeating: ":not(", count: 40) + "button" + String(repeating: ")", count: 40)
        XCTAssertThrowsError(try Selector(parsing: deep)) { error in
            XCTAssertTrue((error as? SelectorError)?.expected.contains("nested") == true)
        }
        let ok = String(repeating: ":not(", count: 10) + "button" + String(repeating: ")", count: 10)
        XCTAssertNoThrow(try Selector(parsing: ok))
        XCTAssertThrowsError(try Selector(parsing: String(repeating: "a", count: 70_000)))
        for junk in [
            "[", "]", "(", ":", "#", "\"", "/", "[a=/", "\u{0}", "💥", "button[label=\"\\u{110000}\"]",
            ":nth(99999999999999999999)",
            "[x<1e999]", "*:has(", "a,,b", ">>", "button >> >> cell", "[label~=\"(?<\"]",
        ] {
            XCTAssertThrowsError(try Selector(parsing: junk), junk)
        }
    }

    /// Canonical forms written by hand.
    static let canonical: [(String, String)] = [
        ("heading", "header"),
        ("button[label = 'Submit' i]", "button[label=\"Submit\" i]"),
        ("[id=\"login.password\"]", "#\"login.password\""),
        ("[id=submit]", "#submit"),
        ("#toolbar\\.share", "#\"toolbar.share\""),
        ("cell:last:visible", "cell:visible:last"),
        ("list>cell", "list > cell"),
        ("list   cell", "list cell"),
        ("table>>cell", "table >> cell"),
        ("tableview>>cell", "list >> cell"),
        ("*", "*"),
        ("*[label]", "[label]"),
        ("[traits&=header,button]", "[traits&=header,button]"),
        ("[traits&=\"header\"]", "[traits&=header]"),
        ("[role=heading]", "[role=header]"),
        ("[value>=.5]".replacingOccurrences(of: ".5", with: "0.5"), "[value>=0.5]"),
        ("[x<10.0]", "[x<10]"),
        ("[label=/a\\/b/is]", "[label~=/a\\/b/is]"),
        ("[label=/x/si]", "[label~=/x/is]"),
        ("[label~=\"^a\" i]", "[label~=\"^a\" i]"),
        (":has(>button)", ":has(> button)"),
        ("a:is(button,link)".replacingOccurrences(of: "a:", with: "image:"), "image:is(button, link)"),
        (":trait( header ,button )", ":trait(header, button)"),
        (":action( Delete )", ":action(\"Delete\")"),
        (":text('it''s')".replacingOccurrences(of: "''", with: "\\'"), ":text(\"it's\")"),
        ("[label=\"tab\\there\"]", "[label=\"tab\\there\"]"),
        ("button , link", "button, link"),
        ("#a:nth(-1)", "#a:nth(-1)"),
        ("slider", "adjustable"),
    ]

    func testCanonicalForms() throws {
        for (input, expected) in Self.canonical {
            let selector = try Selector(parsing: input)
            XCTAssertEqual(selector.canonical, expected, input)
            XCTAssertEqual(try Selector(parsing: expected), selector, "canonical parses back to the same AST: \(input)")
        }
    }

    static let roundTrips: [String] =
        SelectorMatchTests.table.map(\.0) + canonical.map(\.0) + [
            "cell:has(text[label=\"Password\"]) > securetextfield",
            "cell[label^=\"A\"]:last > button:nth(9)",
            "*:has(> button[value=\"Regular\"])",
            "slider[value>=0.5]:enabled",
            "*[traits&=header][label~=/^settings$/i]",
            "table >> cell:first >> button",
            "alert button[label*=\"allow\" i]",
            ":has(+ button, ~ link:not(:hidden))",
            "[label=\"quote \\\" backslash \\\\ newline \\n\"]",
            "[label=\"\\u{1F4A5} ünïcödé\"]",
            "[label~=/a\\/b\\\\/]",
        ]

    func testJSONRoundTrips() throws {
        for text in Self.roundTrips {
            let selector = try Selector(parsing: text)
            let otherJson = selector.json
            let back = try Selector(json: otherJson)
            XCTAssertEqual(back, selector, text)
            XCTAssertEqual(back.json, otherJson, text)
            XCTAssertEqual(back.canonical, selector.canonical, text)
            // Through the serializer and parser too.
            let reparsed = try JSON.parse(otherJson.jsonString)
            XCTAssertEqual(try Selector(json: reparsed), selector, text)
            // A JSON string holds the string form.
            XCTAssertEqual(try Selector(json: .string(selector.canonical)), selector, text)
        }
    }

    func testJSONFormByHand() throws {
        let selector = try Selector(parsing: "button[label=\"Submit\"]")
        let expected: JSON = ["role": "button", "attrs": [["name": "label", "op": "=", "value": "Submit"]]]
        XCTAssertEqual(selector.json, expected)

        let chain = try Selector(parsing: "list > cell:first")
        let expectedChain: JSON = [
            "chain": [
                ["role": "list"],
                ["role": "cell", "pseudos": [["pseudo": "first"]], "combinator": "child"],
            ]
        ]
        XCTAssertEqual(chain.json, expectedChain)

        let has: JSON = [
            "role": "*",
            "pseudos": [
                [
                    "pseudo": "has",
                    "selector": [
                        "combinator": "child", "role": "button",
                        "attrs": [["name": "value", "op": "=", "value": "Regular"]],
                    ],
                ]
            ],
        ]
        XCTAssertEqual(try Selector(json: has).canonical, ":has(> button[value=\"Regular\"])")

        let union: JSON = [
            "union": [["role": "link"], ["attrs": [["name": "label", "op": "~=", "regex": "^a", "flags": "i"]]]]
        ]
        XCTAssertEqual(try Selector(json: union).canonical, "link, [label~=/^a/i]")

        // An explicit leading "descendant" inside :has is the default and prints as nothing.
        let hasDesc: JSON = ["pseudos": [["pseudo": "has", "selector": ["combinator": "descendant", "role": "cell"]]]]
        XCTAssertEqual(try Selector(json: hasDesc), try Selector(parsing: ":has(cell)"))
        // The first step's combinator is ignored.
        XCTAssertEqual(
            try Selector(chains: [Chain(steps: [Step(.child, Compound(role: .button))])]),
            try Selector(parsing: "button"))

        let nth: JSON = ["role": "button", "pseudos": [["pseudo": "nth", "n": -2], ["pseudo": "visible"]]]
        XCTAssertEqual(try Selector(json: nth).canonical, "button:visible:nth(-2)")
    }

    func testJSONErrors() {
        let cases: [(JSON, String, String)] = [
            (["role": "buton"], "$.role", "'buton'"),
            (["attrs": [["name": "label", "op": "=="]]], "$.attrs[0].op", "'=='"),
            (["attrs": [["name": "lable"]]], "$.attrs[0].name", "'lable'"),
            (["attrs": [["name": "x", "op": "<", "value": "a"]]], "$.attrs[0]", "\"a\""),
            (["pseudos": [["pseudo": "nth"]]], "$.pseudos[0].n", "nothing"),
            (["pseudos": [["pseudo": "frist"]]], "$.pseudos[0].pseudo", "'frist'"),
            (["rol": "button"], "$", "key 'rol'"),
            (["chain": []], "$.chain", "array"),
            (
                ["chain": [["role": "list"], ["role": "cell", "combinator": "parent"]]], "$.chain[1].combinator",
                "'parent'"
            ),
            (["combinator": "child", "role": "cell"], "$.combinator", "'child'"),
            (["union": [["role": "link"], 3]], "$.union[1]", "number"),
            ([1, 2], "$", "array"),
            (["pseudos": [["pseudo": "has", "selector": ["role": "buton"]]]], "$.pseudos[0].selector.role", "'buton'"),
            (["pseudos": [["pseudo": "trait", "names": ["bold"]]]], "$.pseudos[0]", "'bold'"),
            (["attrs": [["name": "label", "op": "~=", "regex": "("]]], "$.attrs[0]", "/(/"),
        ]
        for (j, path, found) in cases {
            do {
                let selector = try Selector(json: j)
                XCTFail("\(j) decoded as \(selector.canonical)")
            } catch {
                XCTAssertEqual(error.path, path, "\(j): \(error.message)")
                XCTAssertTrue(error.found.hasPrefix(found), "\(j): found \(error.found)")
            }
        }
    }
}
