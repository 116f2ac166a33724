import AXBenchmarks
import AXCore
import AXJSON
import AXQuery
import Foundation
import XCTest

/// The selector engine against lxml XPath on the same 10,000-node tree exported by TreeXML. The counts of
/// both sides must agree (an independent check of the engine and of the XML); the timings are printed.
/// Figures: `swift test -c release --filter BenchmarkTests` (debug timings are not meaningful).
final class BenchmarkTests: XCTestCase {
    static let queries: [(name: String, selector: String, xpath: String)] = [
        ("by id", "#\"btn.250.7\"", "//*[@name=\"btn.250.7\"]"),
        ("role + label", "button[label=\"Button 7\"]", "//XCUIElementTypeButton[@label=\"Button 7\"]"),
        (
            "descendant :has", "group:has(switch[value=on]) button",
            "//XCUIElementTypeOther[.//XCUIElementTypeSwitch[@value=\"on\"]]//XCUIElementTypeButton"
        ),
        (
            "child :has", "group:has(> switch[label=\"Toggle 250\"]) > button",
            "//XCUIElementTypeOther[XCUIElementTypeSwitch[@label=\"Toggle 250\"]]/XCUIElementTypeButton"
        ),
        ("nth", "button:nth(1234)", "(//XCUIElementTypeButton)[1235]"),
        ("last per parent", "group >> button:last", "//XCUIElementTypeOther/XCUIElementTypeButton[last()]"),
        ("visible", "button:visible", "//XCUIElementTypeButton[@visible=\"true\"]"),
        ("label contains", "[label*=\"Item 39\"]", "//*[contains(@label,\"Item 39\")]"),
        (
            "disabled in group", "group > button:disabled",
            "//XCUIElementTypeOther/XCUIElementTypeButton[@enabled=\"false\"]"
        ),
    ]

    func testSelectorsVersusLxml() throws {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { throw XCTSkip("no /usr/bin/python3") }
        let script = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/bench_selectors.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw XCTSkip("Tools/bench_selectors.py not found")
        }
        let iterations = Int(ProcessInfo.processInfo.environment["AXQUERY_BENCH_ITERATIONS"] ?? "") ?? 20

        let store = try GeneratedTreeTests.store()
        let tree = store.tree
        let clock = ContinuousClock()
        var xml = ""
        let xmlTime = clock.measure { xml = TreeXML.xml(tree) }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("axquery-bench-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let xmlURL = dir.appendingPathComponent("tree.xml")
        let qURL = dir.appendingPathComponent("queries.json")
        try xml.write(to: xmlURL, atomically: true, encoding: .utf8)
        var qo = JSONObject()
        for query in Self.queries { qo[query.name] = .string(query.xpath) }
        try JSON.object(qo).jsonString.write(to: qURL, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, xmlURL.path, qURL.path, String(iterations)]
        let pipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errPipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        let err = errPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            let msg = String(decoding: err, as: UTF8.self)
            if msg.contains("No module named 'lxml'") { throw XCTSkip("python3-lxml missing") }
            XCTFail("bench_selectors.py failed: \(msg)")
            return
        }
        let lx = try JSON.parse(String(decoding: out, as: UTF8.self))
        XCTAssertEqual(lx["nodes"]?.intValue, tree.count, "the XML holds every node once")

        let ctx = QueryContext(tree: tree, views: store.views)
        let swift = SelectorBenchmark.run(tree: tree, queries: Self.queries.map(\.selector), iterations: iterations)
        let indexMs = SelectorBenchmark.indexBuildMilliseconds(tree: tree)
        var lines = [
            String(
                format: "%-20@ %10@ %10@ %8@ %7@", "query" as NSString, "axquery ms" as NSString, "lxml ms" as NSString,
                "speedup" as NSString, "count" as NSString)
        ]
        for (k, query) in Self.queries.enumerated() {
            let result = lx["queries"]?[query.name]
            let lxCount = result?["count"]?.intValue ?? -1
            let lxMs = result?["ms"]?.doubleValue ?? .nan
            let count = try QueryEngine.count(try Selector(parsing: query.selector), in: ctx)
            XCTAssertEqual(count, lxCount, "\(query.name): \(query.selector) vs \(query.xpath)")
            XCTAssertGreaterThan(count, 0, query.name)
            let ms = swift[k].1
            lines.append(
                String(format: "%-20@ %10.4f %10.4f %7.1fx %7d", query.name as NSString, ms, lxMs, lxMs / ms, count))
        }
        lines.append(
            String(
                format:
                    "nodes %d; index build %.2f ms (once per revision); TreeXML %.2f ms; lxml parse %.2f ms; %d iterations",
                tree.count, indexMs,
                Double(xmlTime.components.attoseconds) / 1e15 + Double(xmlTime.components.seconds) * 1000,
                lx["parse_ms"]?.doubleValue ?? .nan, iterations))
        let parse = SelectorBenchmark.parseMilliseconds(
            "cell:has(text[label=\"Password\"]) > securetextfield, *[traits&=header][label~=/^settings$/i]",
            iterations: 200)
        lines.append(String(format: "parse+compile of a 2-chain selector with a regex: %.4f ms", parse))
        print(lines.joined(separator: "\n"))
    }
}
