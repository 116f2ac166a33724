import AXDemoHost
import AXHub
import AXInProcess
import AXJSON
import AXJSONRPC
import AXProvider
import XCTest

/// The in-process provider transport runs the real router: parameter checks, ownership checks and the error answer
/// of an app's failure are the socket's (the dispatcher it replaced accepted unknown parameters, let any app update
/// any other, and made its own −32022).
final class InProcessRouteTests: XCTestCase {
    static let window: JSON = ["id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100]]

    func testUnknownParametersAreRefusedAsOnTheSocket() async throws {
        let transport = InProcessProviderTransport(hub: Hub(actionTimeout: .seconds(2)))
        let app = try await transport.register(name: "notes") { _ in true }
        do {
            _ = try await transport.call("hierarchy.set", ["app": .string(app), "windows": [Self.window], "colour": 1])
            XCTFail("an unknown parameter was accepted")
        } catch let error as RPCError {
            XCTAssertEqual(error.code, RPCError.Code.invalidParams)
        }
    }

    func testAnAppCannotChangeAnotherAppsTree() async throws {
        let router = InProcessConnection.makeRouter(hub: Hub(actionTimeout: .seconds(2)))
        let notes = InProcessProviderTransport(router: router)
        let mail = InProcessProviderTransport(router: router)
        let notesID = try await notes.register(name: "notes") { _ in true }
        _ = try await mail.register(name: "mail") { _ in true }
        _ = try await notes.call("hierarchy.set", ["app": .string(notesID), "windows": [Self.window]])
        do {
            _ = try await mail.call("hierarchy.set", ["app": .string(notesID), "windows": []])
            XCTFail("one app replaced another app's tree")
        } catch let error as RPCError {
            XCTAssertNotEqual(error.code, 0, error.message)
        }
    }

    func testAnAppsFailureReachesTheClientAsTheSocketsAppError() async throws {
        let router = InProcessConnection.makeRouter(hub: Hub(actionTimeout: .seconds(2)))
        let provider = InProcessProviderTransport(router: router)
        let app = try await provider.register(name: "notes") { _ in
            throw ActionFailure("the field is full", reason: "maxLength")
        }
        let button: JSON = ["id": "save", "class": "UIButton", "frame": [0, 0, 50, 20], "accessibilityLabel": "Save"]
        var window = Self.window.objectValue ?? [:]
        window["children"] = [button]
        _ = try await provider.call("hierarchy.set", ["app": .string(app), "windows": [.object(window)]])
        let client = InProcessConnection(router: router)
        _ = try await client.call("initialize", ["clientInfo": ["name": "tests"]]).get()
        let result = await client.call("action.activate", ["app": .string(app), "target": ["id": "save"]])
        guard case .failure(let error) = result else { return XCTFail("the app's failure was not reported: \(result)") }
        XCTAssertEqual(error.code, -32022)
        XCTAssertEqual(error.data?["reason"]?.stringValue, "maxLength")
        XCTAssertEqual(error.data?["appError"]?["data"]?["reason"]?.stringValue, "maxLength")
    }
}
