import AXClient
import AXJSON
import AXJSONRPC
import AXProvider
import XCTest

/// The Swift automation client against a real server: the hub, every method, the socket transport, and the demo
/// app running on the provider library.
final class AXClientTests: DemoServerTestCase {
    func testLocatorsFindReadAndAct() async throws {
        let client = try await connect()
        defer { Task { await client.close() } }
        let wifi = client.getByIdentifier("cell.wifi")
        let before = try await wifi.states()
        XCTAssertTrue(before.contains("checked"), "the demo starts with Wi-Fi on: \(before)")
        let label = try await wifi.label()
        XCTAssertEqual(label, "Wi-Fi")
        let performed = try await wifi.activate()
        XCTAssertTrue(performed)
        try await expect(wifi).toBeVisible()
        let after = try await wifi.states()
        XCTAssertFalse(after.contains("checked"), "activating the cell turns its switch off: \(after)")
        let helpCount = try await client.getByRole("link", name: "Help").count()
        XCTAssertEqual(helpCount, 1)
        let slider = try await client.getByLabel("Text Size").element()
        XCTAssertEqual(slider.role, "adjustable")
        let tabs = try await client.locator("tabBar >> tab").all()
        XCTAssertEqual(tabs.map { $0.label ?? "" }, ["Home", "Settings", "Profile"])
        let lastTab = try await client.locator("tabBar >> tab").nth(-1).label()
        XCTAssertEqual(lastTab, "Profile")
    }

    func testTypedErrors() async throws {
        let client = try await connect()
        defer { Task { await client.close() } }
        do {
            _ = try await client.getByRole("button", name: "Nope").element()
            XCTFail("found a button that does not exist")
        } catch {
            XCTAssertTrue(error.isNoSuchElement, "\(error)")
        }
        do {
            _ = try await client.locator("button").element()
            XCTFail("a strict lookup of every button succeeded")
        } catch {
            XCTAssertTrue(error.isAmbiguous, "\(error)")
        }
        do {
            _ = try await client.locator("button[label=").count()
            XCTFail("an invalid selector was accepted")
        } catch {
            XCTAssertEqual(error.code, RPCError.Code.invalidSelector)
        }
    }

    func testExpectWaitsAndFailsWithTheLastState() async throws {
        let client = try await connect()
        defer { Task { await client.close() } }
        let field = client.getByIdentifier("deviceName")
        // Typing happens on another connection after the expectation starts waiting: the wait is woken by the
        // revision.
        let other = try await connect()
        let typer = Task {
            try await Task.sleep(for: .milliseconds(100))
            return try await other.getByIdentifier("deviceName").typeText("Kiosk")
        }
        try await expect(field, timeout: .seconds(5)).toHaveValue("Kiosk")
        _ = try await typer.value
        await other.close()
        do {
            try await expect(field, timeout: .milliseconds(200)).toHaveValue("Something else")
            XCTFail("the expectation held for a value the field never had")
        } catch let error as AXAssertionError {
            XCTAssertTrue(error.description.contains("Something else"), error.description)
            XCTAssertEqual(error.lastState?["value"]?.stringValue, "Kiosk")
        }
        try await expect(client.locator("tabBar >> tab")).toHaveCount(3)
    }

    func testEventsStreamTreeChanges() async throws {
        let client = try await connect()
        let stream = try await client.events(["tree.changed"])
        let actor = try await connect()
        try await actor.getByIdentifier("cell.wifi").activate()
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        XCTAssertEqual(first?.name, "tree.changed")
        XCTAssertNotNil(first?.params["revision"]?.intValue)
        await actor.close()
        await client.close()
        let end = await iterator.next()
        XCTAssertNil(end, "the stream ends when the connection closes")
    }
}
