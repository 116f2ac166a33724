import AXClient
import AXJSON
import Foundation
import XCTest

/// `startTrace()` / `stopTrace(path:)` (issue 36): every call of the client becomes a step of a trace file
/// (Specs/trace.md), read back here line by line with the JSON parser (not with the trace reader).
final class ClientTraceTests: DemoServerTestCase {
    func lines(_ path: String) throws -> [JSON] {
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
        return try data.split(separator: 0x0A).map { try JSON.parse(Array($0)) }
    }

    func testCallsBetweenStartAndStopAreStepsWithTheServersView() async throws {
        let client = try await connect()
        defer { Task { await client.close() } }
        _ = try await client.locator("tab").count()  // before the trace: not recorded
        try client.startTrace(title: "wifi")
        let wifi = client.getByIdentifier("cell.wifi")
        let performed = try await wifi.activate()
        XCTAssertTrue(performed)
        let missing = client.locator("#nothingHere")
        do {
            _ = try await missing.element()
            XCTFail("no element has that identifier")
        } catch {}
        let path = directory + "/client.axtrace"
        try client.stopTrace(path: path)
        XCTAssertThrowsError(try client.stopTrace(path: path), "a second stop has no trace")
        _ = try await client.locator("tab").count()  // after the trace: not recorded

        let all = try lines(path)
        XCTAssertEqual(all.first?["axtrace"], 1)
        XCTAssertEqual(all.first?["source"], "swift")
        XCTAssertEqual(all.first?["title"], "wifi")
        let steps = all.dropFirst().filter { $0["step"] != nil }
        XCTAssertEqual(all.last?["end"], true)
        XCTAssertEqual(all.last?["steps"]?.intValue, steps.count)
        XCTAssertFalse(steps.contains { $0["method"] == "query.count" }, "calls outside the trace are not in it")
        let activate = try XCTUnwrap(steps.first { $0["method"] == "action.activate" })
        XCTAssertEqual(activate["kind"], "call")
        XCTAssertEqual(activate["target"]?["id"], "cellWifi")
        let revision = try XCTUnwrap(activate["revision"]?.arrayValue?.compactMap(\.intValue))
        XCTAssertEqual(revision.count, 2)
        XCTAssertGreaterThan(revision[1], revision[0], "activating the cell moves the revision")
        XCTAssertTrue(activate["diff"]?.jsonString.contains("cellWifi") == true)
        XCTAssertNotNil(activate["focus"]?["after"])
        XCTAssertTrue(steps.contains { $0["error"]?["code"]?.intValue == -32010 }, "the failed lookup is a step")
        XCTAssertEqual(steps.compactMap { $0["step"]?.intValue }, Array(1...steps.count))
    }
}
