import AXClient
import AXDemoHost
import AXHub
import AXRPC
import AXTransport
import Foundation
import XCTest

/// A real server for each test: the hub and every method behind a socket in a private 0700 folder, with the demo
/// app running on the provider library in process. The Swift client's test classes inherit it.
class DemoServerTestCase: XCTestCase {
    var server: RPCServer!
    var host: DemoHost!
    var directory: String!

    override func setUp() async throws {
        directory = NSTemporaryDirectory() + "axclient-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let hub = Hub(actionTimeout: .seconds(3))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        server = RPCServer(
            router: router, configuration: RPCServer.Configuration(unixSocketPath: directory + "/ax.sock"))
        try await server.start()
        host = DemoHost(transport: InProcessProviderTransport(hub: hub))
        try await host.start(tick: nil)
    }

    override func tearDown() async throws {
        await host?.stop()
        await server?.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A client connected to this test's server.
    func connect() async throws -> AXClient {
        try await AXClient.connect(directory + "/ax.sock")
    }
}
