import AXJSON
import Foundation
import XCTest

@testable import AXFuzzTargets

/// Replays the checked-in fuzz corpus (Tests/Fuzz/corpus/<target>/) and the crash inputs found so far
/// (Tests/Fuzz/crashes/<target>/crash-*) through every target: each must keep all its invariants. Crash inputs
/// named `open-*` are recorded for bugs still open elsewhere and are only counted here (see Tests/Fuzz/README.md).
final class CorpusReplayTests: XCTestCase {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func files(_ kind: String, _ target: String) -> [URL] {
        let directory = fuzzDirectory.appendingPathComponent(kind).appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    func replay(_ targetName: String, minimumCorpus: Int) throws {
        let target = try XCTUnwrap(FuzzTarget.named(targetName))
        let corpus = Self.files("corpus", targetName)
        XCTAssertGreaterThanOrEqual(corpus.count, minimumCorpus, "corpus of \(targetName) is missing")
        let crashes = Self.files("crashes", targetName).filter { !$0.lastPathComponent.hasPrefix("open-") }
        for file in corpus + crashes {
            let bytes = try [UInt8](Data(contentsOf: file))
            let failures = target.run(bytes)
            XCTAssert(failures.isEmpty, "\(file.lastPathComponent): \(failures.joined(separator: "; "))")
        }
    }

    func testJSON() throws { try replay("json", minimumCorpus: 5) }
    func testFraming() throws { try replay("framing", minimumCorpus: 4) }
    func testRouter() throws { try replay("router", minimumCorpus: 10) }
    func testSelector() throws { try replay("selector", minimumCorpus: 10) }
    func testPatch() throws { try replay("patch", minimumCorpus: 3) }
    func testSnapshot() throws { try replay("snapshot", minimumCorpus: 3) }
    func testAppiumXML() throws { try replay("appium-xml", minimumCorpus: 2) }
    func testDBus() throws { try replay("dbus", minimumCorpus: 10) }
    func testConnections() throws { try replay("connections", minimumCorpus: 4) }
    func testATSPIModel() throws { try replay("atspi-model", minimumCorpus: 6) }
    func testWebDriverHTTP() throws { try replay("webdriver-http", minimumCorpus: 8) }
    func testMCPLines() throws { try replay("mcp-lines", minimumCorpus: 4) }

    /// Every target has a corpus directory and is covered by a test above.
    func testEveryTargetHasACorpus() {
        for target in FuzzTarget.all {
            XCTAssertFalse(Self.files("corpus", target.name).isEmpty, "no corpus for \(target.name)")
        }
        XCTAssertEqual(
            FuzzTarget.all.map(\.name).sorted(),
            [
                "appium-xml", "atspi-model", "connections", "dbus", "framing", "json", "mcp-lines", "patch", "router",
                "selector", "snapshot", "webdriver-http",
            ])
    }

    /// The router target reaches real methods on the demo app (not just initialization or lookup errors).
    func testRouterTargetServesTheDemoApp() throws {
        let frame = Array(#"{"jsonrpc":"2.0","id":4,"method":"query.count","params":{"selector":"switch"}}"#.utf8)
        // A fresh server: the shared one has taken whatever the corpus did to the hub.
        let reply = try XCTUnwrap(FuzzServer().handle(frame))
        let json = try JSON.parse(reply)
        XCTAssertEqual(json["id"], 4)
        XCTAssertGreaterThan(json["result"]?["count"]?.intValue ?? json["result"]?.intValue ?? 0, 0, json.jsonString)
    }

    /// The selector target's demo tree is the demo app's.
    func testSelectorTargetHasTheDemoTree() {
        XCTAssertGreaterThan(SelectorFuzz.demo.tree.count, 10)
    }

    /// The framing target's stream simulation, fed byte by byte, yields the frame the stream holds.
    func testFramingSimulationSplitsAStreamIntoItsFrames() {
        var check = FuzzCheck()
        let outcome = FramingFuzz.decode(Array("{\"a\":1}\n".utf8), framing: .ndjson, chunk: 1, check: &check)
        XCTAssertEqual(outcome.frames, [Array("{\"a\":1}".utf8)])
        XCTAssertTrue(check.failures.isEmpty)
    }
}
