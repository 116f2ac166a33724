import AXClient
import AXProvider
import Foundation
import XCTest

/// The Swift provider keeps the `reclaimToken` that `app.register` answers and presents it when it registers
/// again, so a reconnecting app gets its id back even while the server still holds its stale connection
/// (D-REL-8). Real server over its socket; a second app stays registered throughout.
final class PublisherReclaimTests: XCTestCase {
    func testAPublisherPresentingItsTokenGetsItsIDBackFromAStaleConnection() async throws {
        let directory = NSTemporaryDirectory() + "axreclaim-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/ax.sock"
        let server = try await PublisherConnectTests.startServer(at: path)
        let bystander = try await Publisher.connect(name: "bystander", socket: path) { _, _ in false }
        _ = try await bystander.publish(PublisherConnectTests.snapshot(lightsOn: false))
        // The first instance stays connected: the server has not seen it go (a hung process).
        let stale = try await Publisher.connect(name: "kitchen-panel", socket: path) { _, _ in false }
        let staleID = await stale.appID
        let staleToken = await stale.reclaimToken
        let token = try XCTUnwrap(staleToken, "app.register answered no reclaim token")
        XCTAssertEqual(staleID, "kitchen-panel")
        // Without the token the id is taken.
        let newcomer = try await Publisher.connect(name: "kitchen-panel", socket: path) { _, _ in false }
        let newcomerID = await newcomer.appID
        XCTAssertEqual(newcomerID, "kitchen-panel-2")
        if let transport = await newcomer.transport as? SocketProviderTransport { await transport.close() }
        // With it, the id comes back.
        let revived = try await Publisher.connect(name: staleID, socket: path, reclaimToken: token) { _, _ in false }
        let revivedID = await revived.appID
        XCTAssertEqual(revivedID, "kitchen-panel")
        let newToken = await revived.reclaimToken
        XCTAssertNotNil(newToken)
        XCTAssertNotEqual(newToken, token)
        _ = try await revived.publish(PublisherConnectTests.snapshot(lightsOn: true))
        let client = try await AXClient.connect(path, app: "kitchen-panel")
        let label = try await client.getByIdentifier("lights").label()
        XCTAssertEqual(label, "Lights on", "the revived instance serves the id")
        await client.close()
        for publisher in [bystander, stale, revived] {
            if let transport = await publisher.transport as? SocketProviderTransport { await transport.close() }
        }
        await server.stop()
    }
}
