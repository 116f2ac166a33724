import AXClient
import AXHub
import AXJSON
import AXProvider
import AXRPC
import AXRPCClient
import AXTransport
import Foundation
import Synchronization
import XCTest

/// `Publisher.connect(name:handler:)`: found at `$AXSERVER_SOCKET` like `AXClient.connect()`, registered in one
/// step, and the action handler publishes through the publisher it is given (a real server over its socket).
final class PublisherConnectTests: XCTestCase {
    static func snapshot(lightsOn: Bool) -> JSON {
        [
            "windows": [
                [
                    "id": "win", "class": "UIWindow", "frame": [0, 0, 400, 300], "isKeyWindow": true,
                    "children": [
                        [
                            "id": "lights", "class": "UIButton", "frame": [10, 10, 200, 44],
                            "title": .string(lightsOn ? "Lights on" : "Lights off"),
                            "accessibilityIdentifier": "lights",
                        ]
                    ],
                ]
            ]
        ]
    }

    func testConnectFindsTheSocketAndTheHandlerPublishes() async throws {
        let directory = NSTemporaryDirectory() + "axprovider-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hub = Hub(actionTimeout: .seconds(3))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let server = RPCServer(
            router: router, configuration: RPCServer.Configuration(unixSocketPath: directory + "/ax.sock"))
        try await server.start()
        let previous = getenv("AXSERVER_SOCKET").map { String(cString: $0) }
        setenv("AXSERVER_SOCKET", directory + "/ax.sock", 1)
        defer {
            if let previous { setenv("AXSERVER_SOCKET", previous, 1) } else { unsetenv("AXSERVER_SOCKET") }
        }
        let lightsOn = Mutex(false)
        let publisher = try await Publisher.connect(name: "kitchen-panel") { call, publisher in
            guard call.target == "lights" else { return false }
            let now = lightsOn.withLock { state in
                state.toggle()
                return state
            }
            _ = try await publisher.publish(Self.snapshot(lightsOn: now))
            return true
        }
        _ = try await publisher.publish(Self.snapshot(lightsOn: false))
        let appID = await publisher.appID
        XCTAssertEqual(appID, "kitchen-panel")
        let client = try await AXClient.connect(app: appID)
        let lights = client.getByIdentifier("lights")
        let before = try await lights.label()
        XCTAssertEqual(before, "Lights off")
        _ = try await lights.activate()
        let after = try await lights.label()
        XCTAssertEqual(after, "Lights on", "the handler published the new state before answering")
        await client.close()
        await server.stop()
    }

    static func startServer(at path: String) async throws -> RPCServer {
        let hub = Hub(actionTimeout: .seconds(3))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let server = RPCServer(router: router, configuration: RPCServer.Configuration(unixSocketPath: path))
        try await server.start()
        return server
    }

    func testTheAppComesBackWithItsTreeAfterTheServerRestarts() async throws {
        let directory = NSTemporaryDirectory() + "axprovider-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/ax.sock"
        let first = try await Self.startServer(at: path)
        let app = try await ReconnectingPublisher.connect(
            name: "kitchen-panel", socket: path, retry: .milliseconds(100), handler: { _, _ in false })
        try await app.publish(Self.snapshot(lightsOn: true))
        await first.stop()
        let second = try await Self.startServer(at: path)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(15)
        var label: String?
        while clock.now < deadline {
            if let client = try? await AXClient.connect(path, app: "kitchen-panel") {
                label = try? await client.getByIdentifier("lights").label(timeout: .milliseconds(200))
                await client.close()
                if label != nil { break }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTAssertEqual(label, "Lights on", "the app registered again and published its last snapshot")
        let connections = await app.connections
        XCTAssertEqual(connections, 2)
        await app.stop()
        await second.stop()
    }

    func testNoServerNamesTheAddressAndTheFix() async throws {
        let path = NSTemporaryDirectory() + "axprovider-none-\(UUID().uuidString.prefix(8)).sock"
        do {
            _ = try await Publisher.connect(name: "nobody", socket: path) { _, _ in false }
            XCTFail("connected where nothing listens")
        } catch {
            XCTAssertTrue("\(error)".contains(path), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix(AXSocketPath.noServerHint), "\(error)")
        }
    }
}
