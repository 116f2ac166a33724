import AXCore
import AXJSON
import XCTest

@testable import AXQuery

/// The selector regex engine (issue 12 item 5): linear time, a step budget per query, bounded patterns.
final class LinearRegexTests: XCTestCase {
    func search(_ pattern: String, _ text: String, flags: String = "") throws -> Bool {
        let regex = try RegexLiteral(pattern: pattern, flags: flags).compile()
        var budget = Int.max
        return try XCTUnwrap(regex.search(text, budget: &budget))
    }

    /// A store with one window holding one label per text.
    func context(labels: [String]) throws -> QueryContext {
        var children: [JSON] = []
        for (k, text) in labels.enumerated() {
            children.append(Fixtures.view("l\(k)", "UILabel", [0, Double(k * 20), 300, 20], ["text": .string(text)]))
        }
        let store = try Fixtures.store(["windows": [Fixtures.view("w", "UIWindow", [0, 0, 400, 800], [:], children)]])
        return QueryContext(tree: store.tree, views: store.views)
    }

    /// Hand-checked semantics of each supported construct.
    func testSupportedSyntax() throws {
        let cases: [(String, String, String, Bool)] = [
            ("^Item \\d+-11$", "Item 7-11", "", true),
            ("^Item \\d+-11$", "Item x-11", "", false),
            ("^(Alpha|Beta)$", "Beta", "", true),
            ("^(Alpha|Beta)$", "Gamma", "", false),
            ("^(?:ab)+$", "ababab", "", true),
            ("^(?:ab)+$", "ababa", "", false),
            ("^a{2,3}$", "aaa", "", true),
            ("^a{2,3}$", "aaaa", "", false),
            ("^a{2}$", "aa", "", true),
            ("^a{2,}$", "aaaaaa", "", true),
            ("^a{2,}$", "a", "", false),
            ("a{,2}", "a{,2}", "", true),  // not a counted repetition: literal braces
            ("^[^0-9]+$", "abc", "", true),
            ("^[^0-9]+$", "ab3", "", false),
            ("^[\\d_]+$", "1_2", "", true),
            ("^[a\\-z]$", "-", "", true),
            ("\\bcat\\b", "a cat sat", "", true),
            ("\\bcat\\b", "concat", "", false),
            ("\\Bcat", "concat", "", true),
            ("^b$", "a\nb\nc", "", false),
            ("^b$", "a\nb\nc", "m", true),
            ("a.b", "a\nb", "", false),
            ("a.b", "a\nb", "s", true),
            ("^SET", "settings", "i", true),
            ("^SET", "settings", "", false),
            ("[A-Z]", "x", "i", true),
            ("^\\u{e9}$", "\u{e9}", "", true),
            ("^\\u00e9\\x41$", "\u{e9}A", "", true),
            ("\\.", "a.b", "", true),
            ("\\.", "ab", "", false),
            ("a|", "zzz", "", true),  // the empty branch matches anywhere
            ("(a*)*b", "aaab", "", true),
            ("^\\s*$", " \t ", "", true),
            ("\\S", "   ", "", false),
            ("\\Aab\\z", "ab", "", true),
            ("x*?y", "xxy", "", true),
        ]
        for (pattern, text, flags, expected) in cases {
            XCTAssertEqual(
                try search(pattern, text, flags: flags), expected, "/\(pattern)/\(flags) on \(text.debugDescription)")
        }
    }

    /// Differential: on ASCII text without newlines, the engine agrees with Swift Regex for patterns both accept
    /// (`\b` is left out: Swift's default word boundaries follow UAX #29, ours the simple \w rule).
    func testAgreesWithSwiftRegexOnRandomInputs() throws {
        var rng = RegexTestRandom(seed: 12)
        let atoms = ["a", "b", ".", "[ab]", "[^a]", "\\d", "\\w", "\\s", "x", "(a|b)", "(?:ab|c)", "[a-c1]"]
        let quantifiers = ["", "", "*", "+", "?", "{1,2}", "{2}", "*?"]
        let alphabet = Array("abcx1 _-.AB")
        for _ in 0..<400 {
            var pattern = rng.next(3) == 0 ? "^" : ""
            for _ in 0..<(1 + rng.next(4)) {
                var atom = atoms[rng.next(atoms.count)]
                if rng.next(6) == 0 { atom = "(" + atom + atoms[rng.next(atoms.count)] + ")" }
                pattern += atom + quantifiers[rng.next(quantifiers.count)]
            }
            if rng.next(3) == 0 { pattern += "$" }
            let flags = rng.next(4) == 0 ? "i" : ""
            var reference = try Regex(pattern)
            if flags == "i" { reference = reference.ignoresCase() }
            for _ in 0..<8 {
                let text = String((0..<rng.next(10)).map { _ in alphabet[rng.next(alphabet.count)] })
                let expected = (try? reference.firstMatch(in: text)) != nil
                XCTAssertEqual(
                    try search(pattern, text, flags: flags), expected,
                    "/\(pattern)/\(flags) on \(text.debugDescription)")
            }
        }
    }

    func testRefusedSyntaxNamesTheProblem() {
        let cases: [(String, String)] = [
            ("(a)\\1", "backreferences"), ("(?=a)", "only '(?:' groups"), ("(?<n>a)", "only '(?:' groups"),
            ("(?i)a", "only '(?:' groups"),
            ("a++", "possessive"), ("a{1001}", "at most 1000"), ("[z-a]", "a range from low to high"), ("(a", "')'"),
            ("a)", "unbalanced"),
            ("*a", "nothing to repeat"), ("\\q", "unknown escape"), ("[ab", "']'"),
        ]
        for (pattern, needle) in cases {
            XCTAssertThrowsError(try Selector(parsing: "[label~=/\(pattern)/]"), pattern) { error in
                let text = (error as? SelectorError)?.message ?? ""
                XCTAssertTrue(text.contains(needle), "/\(pattern)/: \(text)")
            }
        }
    }

    /// Bounded input: the pattern length and the program size after expanding repetitions.
    func testPatternSizeLimits() {
        let long = String(repeating: "a", count: RegexLiteral.maxPatternLength + 1)
        XCTAssertThrowsError(try Selector(parsing: "[label~=/\(long)/]")) { error in
            XCTAssertEqual((error as? SelectorError)?.reason, "regex too long")
        }
        XCTAssertNoThrow(
            try Selector(parsing: "[label~=/\(String(repeating: "a", count: RegexLiteral.maxPatternLength))/]"))
        // 11 × 1000 instructions > LinearRegex.maxProgram.
        XCTAssertThrowsError(try Selector(parsing: "[label~=/(a{1000}){11}/]")) { error in
            XCTAssertEqual((error as? SelectorError)?.reason, "regex too expensive")
        }
        XCTAssertThrowsError(
            try Selector(json: ["chain": [["compound": ["attrs": [["name": "label", "op": "~=", "regex": "(?=x)"]]]]]]))
    }

    /// The issue's query: `(.+)+X` against long labels. Swift Regex backtracks exponentially here; the Pike VM is
    /// linear. Reported figures are printed.
    func testCatastrophicPatternIsLinear() throws {
        for length in [4_000, 60_000] {
            let ctx = try context(labels: [String(repeating: "a", count: length)])
            let selector = try Selector(parsing: "*[label~=/(.+)+X/]")
            let clock = ContinuousClock()
            var found: [String] = ["unset"]
            let elapsed = try clock.measure { found = try QueryEngine.find(selector, in: ctx) }
            print("regex (.+)+X against a \(length)-character label: \(elapsed)")
            XCTAssertEqual(found, [])
            XCTAssertLessThan(elapsed, .seconds(2), "\(length) characters")
        }
    }

    /// A pattern that keeps many threads alive over a lot of text exhausts the per-query budget: a typed error
    /// (reason "regex too expensive"), not a frozen server.
    func testStepBudgetEndsAnExpensiveQueryWithATypedError() throws {
        // 4 labels × 3,000 positions × ~900 live threads ≈ 10 million steps: over a 1-million-step budget (the
        // server's is QueryContext.defaultRegexSteps; a smaller one keeps this debug-build test quick).
        var ctx = try context(labels: Array(repeating: String(repeating: "b", count: 3_000), count: 4))
        ctx.regexSteps = 1_000_000
        let selector = try Selector(parsing: "*[label~=/.{0,900}Z/]")
        let clock = ContinuousClock()
        let start = clock.now
        var reason: String?
        do { _ = try QueryEngine.find(selector, in: ctx) } catch { reason = error.reason }
        print("a 1,000,000-step regex budget ran out after \(clock.now - start) (debug build)")
        XCTAssertEqual(reason, "regex too expensive")
        XCTAssertThrowsError(try QueryEngine.explain(selector, in: ctx))
        XCTAssertThrowsError(try QueryEngine.count(selector, in: ctx))
        XCTAssertThrowsError(try QueryEngine.resolveOne(selector, in: ctx))
        // The same pattern over short labels fits the budget and answers.
        let small = try context(labels: ["bbbZ", "bbb"])
        XCTAssertEqual(try QueryEngine.find(selector, in: small), ["l0"])
    }
}

/// A small deterministic generator (tests must be reproducible).
struct RegexTestRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var otherState = state
        otherState = (otherState ^ (otherState >> 30)) &* 0xBF58_476D_1CE4_E5B9
        otherState = (otherState ^ (otherState >> 27)) &* 0x94D0_49BB_1331_11EB
        otherState ^= otherState >> 31
        return Int(otherState % UInt64(bound))
    }
}
