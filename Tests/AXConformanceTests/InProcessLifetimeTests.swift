import AXConformance
import AXInProcess
import XCTest

/// A closed in-process connection is freed, with the server it kept alive (LeakSanitizer reported every
/// conformance case's connection, router and hub as leaked: the session held the connection, the connection the
/// session, and the case's action handler the connection).
final class InProcessLifetimeTests: XCTestCase {
    func testClosedConnectionIsFreedWithItsApp() async throws {
        weak var weakProvider: InProcessConnection?
        weak var weakClient: InProcessConnection?
        do {
            let connect = InProcessConnection.freshServer()
            let providerConnection = try await connect()
            let clientConnection = try await connect()
            let provider = try XCTUnwrap(providerConnection as? InProcessConnection)
            let client = try XCTUnwrap(clientConnection as? InProcessConnection)
            weakProvider = provider
            weakClient = client
            // As the runner does: the handler captures its own connection.
            provider.setActionHandler { _ in
                _ = await provider.call("ping", nil)
                return ["handled": true]
            }
            _ = try await provider.call("initialize", ["role": "provider"]).get()
            _ = try await provider.call("app.register", ["name": "lifetime"]).get()
            _ = try await client.call("initialize", ["role": "automation"]).get()
            await provider.close()
            await client.close()
            let afterClose = await client.call("ping", nil)
            XCTAssertThrowsError(try afterClose.get())
        }
        XCTAssertNil(weakProvider, "the closed provider connection is still alive")
        XCTAssertNil(weakClient, "the closed automation connection is still alive")
    }
}
