import AXClient
import AXProvider
import Foundation
import Synchronization
import XCTest

/// Issue 38 (D-APP-RESET-1) over the real socket: a Swift provider that registers `onReset:` is reset by the
/// Swift client's `resetApp()` and the next read sees its initial tree; one without it is refused with −32014.
final class PublisherResetTests: XCTestCase {
    func testAnOptedInPublisherIsResetAndOneWithoutIsRefused() async throws {
        let directory = NSTemporaryDirectory() + "axreset-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/ax.sock"
        let server = try await PublisherConnectTests.startServer(at: path)
        let publisherBox = Mutex<Publisher?>(nil)
        let lamp = try await Publisher.connect(
            name: "lamp", socket: path,
            onReset: {
                let publisher = publisherBox.withLock { $0 }
                _ = try await publisher?.publish(PublisherConnectTests.snapshot(lightsOn: false))
            },
            onAction: { _ in false })
        publisherBox.withLock { $0 = lamp }
        _ = try await lamp.publish(PublisherConnectTests.snapshot(lightsOn: true))
        let client = try await AXClient.connect(path, app: "lamp")
        let before = try await client.getByIdentifier("lights").label()
        XCTAssertEqual(before, "Lights on")
        let reply = try await client.resetApp()
        XCTAssertEqual(reply["reset"], true, "\(reply)")
        let after = try await client.getByIdentifier("lights").label()
        XCTAssertEqual(after, "Lights off", "the read after the reset did not see the initial tree")

        let plain = try await Publisher.connect(name: "plain", socket: path) { (_: ActionCall) in false }
        _ = try await plain.publish(PublisherConnectTests.snapshot(lightsOn: true))
        let plainClient = try await AXClient.connect(path, app: "plain")
        do {
            try await plainClient.resetApp()
            XCTFail("an app without onReset was reset")
        } catch {
            XCTAssertEqual(error.code, -32014, error.message)
        }
        await client.close()
        await plainClient.close()
        for publisher in [lamp, plain] {
            if let transport = await publisher.transport as? SocketProviderTransport { await transport.close() }
        }
        await server.stop()
    }
}
