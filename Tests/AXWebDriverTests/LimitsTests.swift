import AXJSON
import AXWebDriver
import XCTest

/// Hostile input at axdriver's trust check, capabilities, timeouts and XPath budget (issue 30 items 1, 4 and 9):
/// each value comes from the wire and must be refused with a typed error, never trap or run unbounded.
final class LimitsTests: XCTestCase {
    /// Non-ASCII digits pass `Character.isNumber`; they once reached `Int(part)!` and killed axdriver (SIGILL).
    func testNonASCIIDigitsInHostAndOriginAreRefusedNotTrapped() {
        let trust = WebDriverTrust()
        for host in ["1.2.3.½", "127.0.0.٣", "1.2.3.²", "127.0.0.1:٤٧٢٣", "１２７.0.0.1", "127.0.0.1:4723\u{0}"] {
            XCTAssertEqual(trust.check(headers: [("Host", host)])?.status, 400, host)
        }
        for origin in ["http://127.0.0.²", "http://1.2.3.½:4723", "http://127.0.0.1:٤"] {
            XCTAssertEqual(trust.check(headers: [("Host", "127.0.0.1"), ("Origin", origin)])?.status, 403, origin)
        }
        XCTAssertNil(trust.check(headers: [("Host", " 127.0.0.1:4723 ")]))
        XCTAssertEqual(trust.check(headers: [("Host", "256.0.0.1")])?.status, 403)
    }

    /// A bracketed host is an IPv6 literal only when the brackets hold a valid IPv6 address and nothing but a
    /// port follows them.
    func testBracketedHostMustBeAValidIPv6Literal() {
        let trust = WebDriverTrust()
        for host in [
            "[evil.com]", "[::1]evil.com", "[::1]:", "[::1]:99999999", "[]", "[::1", "[::1%25lo]", "[1::2::3]",
        ] {
            XCTAssertEqual(trust.check(headers: [("Host", host)])?.status, 400, host)
        }
        for host in ["[::1]", "[::1]:4723", "[0:0:0:0:0:0:0:1]:4723", "[fe80::1]", "[::ffff:10.0.0.1]"] {
            XCTAssertNil(trust.check(headers: [("Host", host)]), host)
        }
        XCTAssertEqual(trust.check(headers: [("Host", "127.0.0.1"), ("Origin", "http://[evil.com]")])?.status, 403)
        XCTAssertEqual(trust.check(headers: [("Host", "127.0.0.1"), ("Origin", "http://[::1]evil.com")])?.status, 403)
        XCTAssertEqual(trust.check(headers: [("Host", "127.0.0.1"), ("Origin", "http://[fe80::1]")])?.status, 403)
        XCTAssertNil(trust.check(headers: [("Host", "127.0.0.1"), ("Origin", "http://[0::1]:4723")]))
        XCTAssertNil(trust.check(headers: [("Host", "127.0.0.1"), ("Origin", "http://[::ffff:127.0.0.1]")]))
    }

    /// 50,000 extension keys cost 49.9 s of CPU (a linear lookup per key); now more than `maxKeys` is a typed
    /// refusal and the work is linear below it.
    func testCapabilitiesWithHugeNumbersOfKeysAreRefusedQuickly() throws {
        var many = JSONObject(minimumCapacity: 50_000)
        for index in 0..<50_000 { many.appendUnchecked("x:key\(index)", JSON(index)) }
        let started = ContinuousClock.now
        XCTAssertThrowsError(try Capabilities.process(["capabilities": ["alwaysMatch": .object(many)]])) { error in
            XCTAssertEqual((error as? WebDriverError)?.code, "invalid argument")
            XCTAssertEqual((error as? WebDriverError)?.data?["limit"], "maxCapabilityKeys")
        }
        let firstMatch = JSON.array(Array(repeating: .object([:]), count: 50_000))
        XCTAssertThrowsError(try Capabilities.process(["capabilities": ["firstMatch": firstMatch]]))
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1))

        var allowed = JSONObject()
        // alwaysMatch's keys, the firstMatch entry and its key: exactly the limit.
        for index in 0..<Capabilities.maxKeys - 3 { allowed.appendUnchecked("x:key\(index)", JSON(index)) }
        allowed.appendUnchecked("platformName", "linux")
        let merged = try Capabilities.process([
            "capabilities": ["alwaysMatch": .object(allowed), "firstMatch": [["y:other": true]]]
        ])
        XCTAssertEqual(merged.count, Capabilities.maxKeys - 1)
        XCTAssertEqual(merged["x:key500"], 500)
        XCTAssertEqual(merged["y:other"], true)
        XCTAssertThrowsError(
            try Capabilities.process([
                "capabilities": ["alwaysMatch": ["x:a": 1], "firstMatch": [["x:a": 2]]]
            ]))
    }

    /// An implicit timeout of 2^63 ms or 24 h was accepted at New Session; beyond 10 minutes is `invalid argument`.
    func testAbsurdTimeoutsAreRefusedAtNewSessionAndSetTimeouts() throws {
        for bad: JSON in [86_400_000, 9_223_372_036_854_775_807, 9_007_199_254_740_991, 600_001] {
            for key in ["implicit", "pageLoad", "script"] {
                XCTAssertThrowsError(
                    try Capabilities.process(["capabilities": ["alwaysMatch": ["timeouts": [key: bad]]]]),
                    "\(key) \(bad)"
                ) { error in
                    XCTAssertEqual((error as? WebDriverError)?.code, "invalid argument")
                    XCTAssertEqual((error as? WebDriverError)?.data?["limit"], "maxTimeoutMs")
                }
                var timeouts = WebDriverTimeouts()
                XCTAssertThrowsError(try timeouts.apply([key: bad]), "\(key) \(bad)")
            }
        }
        var timeouts = WebDriverTimeouts()
        try timeouts.apply(["implicit": JSON(WebDriverTimeouts.maxMilliseconds), "pageLoad": 0])
        XCTAssertEqual(timeouts.implicit, WebDriverTimeouts.maxMilliseconds)
    }

    /// `substring()` of a 16,000-character literal in a predicate over every node ran 6.7 s outside the
    /// 5,000,000-visit budget; string work now counts against it.
    func testStringWorkCountsAgainstTheXPathBudget() throws {
        var xml = "<r>"
        for index in 0..<10_000 { xml += "<e axid=\"e\(index)\"/>" }
        xml += "</r>"
        let tree = try PageTree(xml: Array(xml.utf8))
        let literal = String(repeating: "a", count: 16_000)
        for expression in [
            "//*[substring('\(literal)', 2, 1) = 'b']",
            "//*[contains('\(literal.prefix(10_000))', '\(literal.prefix(5_000))b')]",
            "//*[translate('\(literal)', 'a', 'b') = 'c']", "//*[string-length(concat('\(literal)', @axid)) = 1]",
        ] {
            XCTAssertThrowsError(try XPathQuery(expression).select(in: tree), String(expression.prefix(40))) { error in
                XCTAssertTrue("\(error)".contains("too expensive"), "\(error)")
            }
        }
        // (Refused by the budget, not timed: before, each ran to the end, 6.7 s for the first; the refusal's cost is
        // bounded by the budget's count, whatever the machine's load.)
        // Ordinary string predicates stay well inside the budget.
        XCTAssertEqual(try XPathQuery("//e[contains(@axid, '9999')]").select(in: tree).count, 1)
        XCTAssertEqual(try XPathQuery("//e[translate(@axid, 'e', 'E') = 'E42']").select(in: tree).count, 1)
        XCTAssertEqual(try XPathQuery("//e[substring(@axid, 2) = '7']").select(in: tree).count, 1)
    }

    /// Each session holds one axserver connection: the ceiling keeps axdriver to a quarter of axserver's 1,024.
    func testSessionCeilingLeavesMostServerConnectionsFree() {
        XCTAssertLessThanOrEqual(WebDriverLimits.maxSessionsCeiling, 1_024 / 4)
        XCTAssertLessThanOrEqual(WebDriverLimits().maxSessions, WebDriverLimits.maxSessionsCeiling)
    }
}
