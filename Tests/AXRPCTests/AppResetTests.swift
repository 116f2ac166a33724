import AXDemoHost
import AXHub
import AXInProcess
import AXJSON
import AXJSONRPC
import AXProvider
import XCTest

@testable import AXRPC

/// Issue 38 (D-APP-RESET-1): `app.reset` asks the app for its initial state and answers after that tree is the
/// server's; an app that did not declare reset, and a kiosk that denies a restriction, refuse it with typed errors.
final class AppResetTests: XCTestCase {
    func automation(_ router: RPCRouter, role: String = "automation") async throws -> InProcessConnection {
        let connection = InProcessConnection(router: router)
        var params: JSONObject = ["role": .string(role)]
        if role == "operator" { params["operatorToken"] = .string(InProcessConnection.operatorToken) }
        _ = try await connection.call("initialize", .object(params)).get()
        return connection
    }

    /// The Wi-Fi switch's accessibility value ("on" or "off").
    func wifiIsOn(_ client: InProcessConnection) async throws -> String? {
        let element = try await client.call("element.get", ["app": "axserver-demo", "target": ["id": "cellWifi"]])
            .get()
        return element["value"]?.stringValue
    }

    func testTheDemoReturnsToItsInitialStateBeforeTheReplyAndForgetsFocus() async throws {
        let hub = Hub()
        let router = InProcessConnection.makeRouter(hub: hub)
        let host = DemoHost(transport: InProcessProviderTransport(router: router))
        try await host.start(tick: nil)
        let client = try await automation(router)
        let initial = try await wifiIsOn(client)
        XCTAssertNotNil(initial)
        _ = try await client.call("action.activate", ["app": "axserver-demo", "target": ["id": "cellWifi"]]).get()
        _ = try await client.call("focus.set", ["app": "axserver-demo", "target": ["id": "cellWifi"]]).get()
        let toggled = try await wifiIsOn(client)
        XCTAssertNotEqual(toggled, initial, "the toggle did not change Wi-Fi")

        let reply = try await client.call("app.reset", ["app": "axserver-demo"]).get()
        XCTAssertEqual(reply["reset"], true, "\(reply)")
        let revision = try XCTUnwrap(reply["revision"]?.intValue)
        XCTAssertGreaterThan(revision, try XCTUnwrap(reply["revisionBefore"]?.intValue))
        // The very next read sees the initial state: the reply came after the reset tree reached the server.
        let afterReset = try await wifiIsOn(client)
        XCTAssertEqual(afterReset, initial)
        let focused = try await client.call("focus.get", ["app": "axserver-demo"]).get()
        XCTAssertEqual(focused["element"], .null, "focus stayed where the previous test left it: \(focused)")
        await host.stop()
    }

    func testAnAppThatDidNotDeclareResetRefusesSayingWhatToDo() async throws {
        let hub = Hub()
        let router = InProcessConnection.makeRouter(hub: hub)
        let publisher = Publisher(transport: InProcessProviderTransport(router: router))
        try await publisher.register(name: "plain") { _ in false }
        try await publisher.publish(["windows": []])
        let client = try await automation(router)
        let result = await client.call("app.reset", ["app": "plain"])
        guard case .failure(let error) = result else { return XCTFail("a plain app was reset: \(result)") }
        XCTAssertEqual(error.code, RPCError.Code.actionNotSupported)
        XCTAssertEqual(error.data?["reason"], "reset not supported")
        XCTAssertTrue(error.message.contains("fresh app or server"), error.message)
    }

    func testGuidedAccessDenialBlocksTheReset() async throws {
        let hub = Hub()
        let router = InProcessConnection.makeRouter(hub: hub)
        let host = DemoHost(transport: InProcessProviderTransport(router: router))
        try await host.start(tick: nil)
        let operatorClient = try await automation(router, role: "operator")
        _ = try await operatorClient.call(
            "policy.set", ["app": "axserver-demo", "restriction": "org.axserver.demo.wifi", "state": "deny"]
        ).get()
        let client = try await automation(router)
        let result = await client.call("app.reset", ["app": "axserver-demo"])
        guard case .failure(let error) = result else { return XCTFail("the kiosk's app was reset: \(result)") }
        XCTAssertEqual(error.code, RPCError.Code.policyDenied)
        XCTAssertEqual(error.data?["restriction"], "org.axserver.demo.wifi")
        await host.stop()
    }

    func testConcurrentResetsAndActionsAllAnswerAndEndInADefinedState() async throws {
        let hub = Hub()
        let router = InProcessConnection.makeRouter(hub: hub)
        let host = DemoHost(transport: InProcessProviderTransport(router: router))
        try await host.start(tick: nil)
        let client = try await automation(router)
        let initial = try await wifiIsOn(client)
        let replies = await withTaskGroup(of: Bool.self) { group -> [Bool] in
            for index in 0..<8 {
                group.addTask {
                    let method = index.isMultiple(of: 2) ? "app.reset" : "action.activate"
                    let params: JSON =
                        index.isMultiple(of: 2)
                        ? ["app": "axserver-demo"] : ["app": "axserver-demo", "target": ["id": "cellWifi"]]
                    return (try? await client.call(method, params).get()) != nil
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(replies, Array(repeating: true, count: 8), "a reset or action beside it failed")
        // A last reset, after all of them, leaves the initial state whatever order they ran in.
        _ = try await client.call("app.reset", ["app": "axserver-demo"]).get()
        let final = try await wifiIsOn(client)
        XCTAssertEqual(final, initial)
        await host.stop()
    }
}
