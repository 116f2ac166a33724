import AXCore
import AXJSON
import XCTest

@testable import AXQuery

/// Near-miss explanations against very long labels stay fast (issue 12 item 9: 31.6 s for a 4,000-character label).
final class NearMissBoundsTests: XCTestCase {
    func context(label: String) throws -> QueryContext {
        let store = try Fixtures.store([
            "windows": [
                Fixtures.view(
                    "w", "UIWindow", [0, 0, 400, 800], [:],
                    [
                        Fixtures.view("b", "UIButton", [0, 0, 300, 40], ["title": .string(label)])
                    ])
            ]
        ])
        return QueryContext(tree: store.tree, views: store.views)
    }

    /// Pseudo-random text (deterministic) so that windows and prefixes differ.
    static func text(_ count: Int, seed: UInt64) -> String {
        var state = seed
        let letters = Array("abcdefghij klmnop")
        return String(
            (0..<count).map { _ -> Character in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return letters[Int((state >> 33) % UInt64(letters.count))]
            })
    }

    func testExplainAgainstLongLabelsIsFast() throws {
        for length in [4_000, 60_000] {
            let label = Self.text(length, seed: UInt64(length))
            let ctx = try context(label: label)
            var typo = Array(label.prefix(4_000))
            typo[10] = "Z"
            typo[2_000] = "Z"
            let selectors = [
                "button[label=\"\(String(typo))\"]",
                "button[label*=\"\(Self.text(200, seed: 7))\"]",
                "button[label*=\"\(Self.text(3_000, seed: 8))\"]",
                "button[label^=\"\(String(typo.prefix(3_000)))\"]",
                "button[label$=\"\(Self.text(50, seed: 9))\"]",
            ]
            for source in selectors {
                let selector = try Selector(parsing: source)
                let clock = ContinuousClock()
                let start = clock.now
                let explanation = try QueryEngine.explain(selector, in: ctx)
                let elapsed = clock.now - start
                print("explain against a \(length)-character label (\(source.prefix(24))…): \(elapsed)")
                XCTAssertEqual(explanation.count, 0)
                // A regression guard, not a speed figure (figures come from the printed lines and benchmarks): before
                // the banded distance, 4,000 characters took 31.6 s. The bounds leave 10–20× room for a loaded
                // 2-core CI machine (measured quiet: under 100 ms at 4,000, under 400 ms at 60,000).
                XCTAssertLessThan(
                    elapsed, .seconds(length <= 4_000 ? 2 : 8), "\(length) characters, \(source.prefix(30))")
            }
        }
    }

    /// The distance itself, with values beyond what a hierarchy may carry (100,000 characters).
    func testDistanceIsBoundedForHugeValues() {
        let value = Self.text(100_000, seed: 3)
        var typo = Array(value.prefix(4_000))
        typo[5] = "Z"
        let cases: [(String, AttributeOp)] = [
            (String(typo), .equals), (String(typo), .prefix), (Self.text(200, seed: 4), .contains),
            (Self.text(100_000, seed: 5), .equals),
            (Self.text(100_000, seed: 6), .contains), (String(typo.prefix(50)), .suffix),
        ]
        for (needle, op) in cases {
            let clock = ContinuousClock()
            let start = clock.now
            _ = QueryEngine.distance(needle, value, op: op, caseInsensitive: false)
            let elapsed = clock.now - start
            print("distance (\(op), \(needle.count)-character needle) against 100,000 characters: \(elapsed)")
            // Regression guard with room for a loaded machine (quiet: under 100 ms).
            XCTAssertLessThan(elapsed, .seconds(2), "\(op) with a \(needle.count)-character needle")
        }
    }

    /// Still useful: a close value is suggested, for long and short labels alike.
    func testNearMissesAreStillFound() throws {
        let label = Self.text(4_000, seed: 11)
        var typo = Array(label)
        typo[100] = typo[100] == "a" ? "b" : "a"
        let ctx = try context(label: label)
        let explanation = try QueryEngine.explain(try Selector(parsing: "button[label=\"\(String(typo))\"]"), in: ctx)
        XCTAssertEqual(explanation.chains.first?.steps.first?.nearMisses.first?.ids, ["b"])
        let short = try context(label: "Submit the form now")
        let contained = try QueryEngine.explain(try Selector(parsing: "button[label*=\"Sumbit\"]"), in: short)
        XCTAssertEqual(contained.chains.first?.steps.first?.nearMisses.first?.ids, ["b"])
        XCTAssertEqual(QueryEngine.distance("Sumbit", "Submit the form now", op: .contains, caseInsensitive: false), 3)
        XCTAssertEqual(QueryEngine.distance("submit", "Submit the form now", op: .contains, caseInsensitive: false), 1)
        XCTAssertEqual(QueryEngine.distance("submit", "Submit the form now", op: .contains, caseInsensitive: true), 0)
    }
}
