import AXClient
import AXJSON
import XCTest

/// The Swift client's keys, focus engine, rotors, audits, speech and pictures against a real server over its
/// socket, the demo on the provider library (expected values from Sources/AXDemo/DemoApp.swift: the Tab sequence
/// starts at the Edit button; the Wi-Fi cell's switch is on; "Connectivity" is a heading).
final class WholeAPITests: DemoServerTestCase {
    func testKeysAndTheFocusEngine() async throws {
        let client = try await connect()
        let answer = try await client.keyboard.press("Tab")
        XCTAssertEqual(answer["handledBy"]?.stringValue, "server")
        let status = try await client.focusEngine.status()
        XCTAssertEqual(status["engine"]?["element"]?["label"]?.stringValue, "Edit")
        let ahead = try await client.focusEngine.query("next")
        let moved = try await client.focusEngine.move("next")
        XCTAssertEqual(moved["to"], ahead["to"])
        _ = try await client.keyboard.press("Shift+Tab")
        let back = try await client.focusEngine.status()
        XCTAssertEqual(back["engine"]?["element"]?["label"]?.stringValue, "Edit")
        let explained = try await client.focusEngine.explain(client.getByIdentifier("cell.wifi"))
        XCTAssertEqual(explained["focusable"]?.boolValue, true)
        let items = try await client.focusEngine.items()
        XCTAssertGreaterThan(items.count, 3)
        try await client.focusEngine.update(client.getByIdentifier("cell.wifi"))
        let pressed = try await client.focusEngine.activate()
        XCTAssertEqual(pressed["performed"]?.boolValue, true)
        try await expect(client.getByRole("switch", name: "Wi-Fi")).toHaveValue("off")
        do {
            _ = try await client.keyboard.press("Hyper+Tab")
            XCTFail("an unknown modifier was sent")
        } catch { XCTAssertEqual(error.code, -32602) }
        do {
            _ = try await client.focusEngine.move("sideways")
            XCTFail("an unknown direction was accepted")
        } catch { XCTAssertEqual(error.code, -32602) }
        await client.close()
    }

    func testPressTypeAndToHaveText() async throws {
        let client = try await connect()
        let wifi = client.getByIdentifier("cell.wifi")
        try await wifi.press("space")
        try await expect(client.getByRole("switch", name: "Wi-Fi")).toHaveValue("off")
        let field = client.getByIdentifier("deviceName")
        let typed = try await client.keyboard.type(" TV", into: field)
        XCTAssertEqual(typed["typed"]?.boolValue, true)
        let value = try await field.value() ?? ""
        XCTAssertTrue(value.hasSuffix(" TV"), value)
        try await expect(field).toHaveText(value)
        try await expect(client.getByRole("button", name: "Edit")).toHaveText("Edit")
        do {
            try await expect(client.getByRole("button", name: "Edit"), timeout: .milliseconds(200)).toHaveText("Done")
            XCTFail("Edit does not show Done")
        } catch let error as AXAssertionError { XCTAssertTrue(error.description.contains("Edit"), error.description) }
        await client.close()
    }

    func testRotorsAuditsSpeechAndPictures() async throws {
        let client = try await connect()
        let rotors = try await client.rotors.list()
        XCTAssertTrue(rotors["rotors"]?.arrayValue?.contains { $0["name"]?.stringValue == "heading" } ?? false)
        let heading = try await client.rotors.next("heading")
        XCTAssertEqual(heading["item"]?["element"]?["role"]?.stringValue, "header")
        let audit = try await client.audit(report: "junit")
        XCTAssertGreaterThanOrEqual(audit["count"]?.intValue ?? 0, 1)
        XCTAssertTrue(audit["report"]?.stringValue?.contains("<testsuites") ?? false)
        let check = audit["findings"]?[0]?["check"]?.stringValue ?? ""
        let quiet = try await client.audit(suppress: [.string(check)])
        XCTAssertGreaterThanOrEqual(quiet["suppressed"]?.intValue ?? 0, 1)
        let sarif = try await client.audit(report: "sarif")
        XCTAssertEqual(sarif["report"]?["version"]?.stringValue, "2.1.0")
        let said = try await client.speech(client.getByIdentifier("showAlert"))
        XCTAssertTrue(said["voiceOver"]?["text"]?.stringValue?.hasPrefix("Reset All Settings") ?? false)
        let walk = try await client.speechWalk(model: "orca", limit: 3)
        XCTAssertEqual(walk["items"]?.arrayValue?.count, 3)
        let picture = try await client.render()
        XCTAssertTrue(picture["svg"]?.stringValue?.contains("<svg") ?? false)
        await client.close()
    }
}
