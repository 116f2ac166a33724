import AXConformance
import AXInProcess
import AXJSON
import Foundation
import XCTest

/// Runs every case in Specs/conformance in-process against a fresh server per case
/// (Specs/conformance/README.md). One XCTFail per failing case, naming the case, its file and the step.
final class ConformanceSuiteTests: XCTestCase {
    /// The package root, found from this file's path (Tests/AXConformanceTests/ConformanceSuiteTests.swift).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }
    static var casesDir: String { packageRoot.appendingPathComponent("Specs/conformance").path }

    static let minimumCases = 170
    static let minimumRules = 110

    func testEveryCasePasses() async throws {
        let cases = try ConformanceRunner.loadCases(Self.casesDir)
        XCTAssertGreaterThanOrEqual(
            cases.count, Self.minimumCases, "the suite must hold at least \(Self.minimumCases) cases")
        let runner = ConformanceRunner(
            operatorToken: InProcessConnection.operatorToken, server: { InProcessConnection.freshServer() })
        var failed = 0
        for testCase in cases {
            let result = await runner.run(testCase)
            if let failure = result.failure {
                failed += 1
                XCTFail("\(testCase.id) (\(URL(fileURLWithPath: testCase.file).lastPathComponent)): \(failure)")
            }
        }
        print("conformance: \(cases.count - failed) passed, \(failed) failed of \(cases.count)")
    }

    func testCasesCiteEnoughDistinctRules() throws {
        let cases = try ConformanceRunner.loadCases(Self.casesDir)
        let cited = Set(cases.flatMap(\.rules))
        let families = ["R", "X", "A", "B", "C"]
        let counted = cited.filter { id in
            families.contains { family in id.hasPrefix(family) && Int(id.dropFirst(family.count)) != nil }
        }
        for otherFamily in families {
            print("conformance: \(otherFamily) rules cited: \(counted.filter { $0.hasPrefix(otherFamily) }.count)")
        }
        XCTAssertGreaterThanOrEqual(
            counted.count, Self.minimumRules, "cases must cite at least \(Self.minimumRules) distinct R/X/A/B/C rules")
        // Every cited id is well-formed: a rule family plus a number, or a decision id from Specs/decisions.md.
        let decisions =
            (try? String(contentsOf: Self.packageRoot.appendingPathComponent("Specs/decisions.md"), encoding: .utf8))
            ?? ""
        for id in cited where !counted.contains(id) {
            XCTAssertTrue(
                id.hasPrefix("D-") && decisions.contains(id),
                "case cites '\(id)', which is neither a rule id nor a decision in Specs/decisions.md")
        }
        // Rule numbers stay within the reference's ranges.
        let ranges: [String: ClosedRange<Int>] = [
            "R": 1...122, "X": 1...55, "A": 1...51, "B": 1...35, "C": 1...41,
        ]
        for id in counted {
            let otherFamily = String(id.prefix(1))
            XCTAssertTrue(
                ranges[otherFamily]!.contains(Int(id.dropFirst())!),
                "rule id \(id) is outside \(otherFamily)\(ranges[otherFamily]!)")
        }
    }

    /// Issue 9: the focus engine and rotors are proved rule by rule — at least 35 of C1–C41 and every rotor rule.
    func testFocusAndRotorRulesAreCited() throws {
        let cases = try ConformanceRunner.loadCases(Self.casesDir)
        let cited = Set(cases.flatMap(\.rules))
        let focusRules = (1...41).map { "C\($0)" }.filter { cited.contains($0) }
        XCTAssertGreaterThanOrEqual(focusRules.count, 35, "cases must cite at least 35 of C1–C41")
        for rule in ["R57", "R58", "R59", "R60", "R61", "R62", "X24", "X54"] {
            XCTAssertTrue(cited.contains(rule), "no case cites rotor rule \(rule)")
        }
    }

    /// The matcher itself must be able to fail, or every case would pass vacuously.
    func testMatcherRejectsMismatches() {
        XCTAssertNil(Matcher.match(["a": 1], ["a": 1, "b": 2]))
        XCTAssertNotNil(Matcher.match(["a": 1], ["a": 2]))
        XCTAssertNotNil(Matcher.match(["a": 1], ["b": 1]))
        XCTAssertNotNil(Matcher.match([1, 2], [1, 2, 3]))
        XCTAssertNil(Matcher.match(["a": ["$absent": true]], ["b": 1]))
        XCTAssertNotNil(Matcher.match(["a": ["$absent": true]], ["a": 1]))
        XCTAssertNil(Matcher.match(["$contains": ["x"]], ["y", "x"]))
        XCTAssertNotNil(Matcher.match(["$contains": ["z"]], ["y", "x"]))
        XCTAssertNotNil(Matcher.match(["$notContains": ["x"]], ["y", "x"]))
        XCTAssertNil(Matcher.match(["$ordered": ["a", "c"]], ["a", "b", "c"]))
        XCTAssertNotNil(Matcher.match(["$ordered": ["c", "a"]], ["a", "b", "c"]))
        XCTAssertNil(Matcher.match(["$approx": 1.0, "$tol": 0.1], 1.05))
        XCTAssertNotNil(Matcher.match(["$approx": 1.0, "$tol": 0.01], 1.05))
        XCTAssertNil(Matcher.match(["$len": 2], ["a", "b"]))
        XCTAssertNotNil(Matcher.match(["$len": 3], ["a", "b"]))
        XCTAssertNil(Matcher.match(["$oneOf": ["a", "b"]], "b"))
        XCTAssertNotNil(Matcher.match(["$oneOf": ["a", "b"]], "c"))
        XCTAssertNil(Matcher.match(["$prefix": "ab"], "abc"))
        XCTAssertNotNil(Matcher.match(["$prefix": "b"], "abc"))
    }
}
