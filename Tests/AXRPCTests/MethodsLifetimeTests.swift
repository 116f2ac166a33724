import AXHub
import AXJSON
import AXRPC
import AXTestSupport
import XCTest

/// A router with every method installed, and its hub, are freed when nobody uses them any more (LeakSanitizer
/// found every conformance case's router and hub leaked: the `initialize` handler held its own router).
final class MethodsLifetimeTests: XCTestCase {
    func testRouterAndHubAreFreed() async throws {
        weak var weakRouter: RPCRouter?
        weak var weakHub: Hub?
        do {
            let hub = Hub()
            let router = RPCRouter()
            AXMethods.install(on: router, hub: hub)
            weakRouter = router
            weakHub = hub
            let session = RPCSession(peer: NullTestPeer())
            let frame = Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"role":"automation"}}"#.utf8)
            let answer = await router.handle(frame: frame, session: session)
            let reply = try XCTUnwrap(answer)
            let methods = try JSON.parse(reply)["result"]?["capabilities"]?["methods"]?.arrayValue ?? []
            XCTAssertTrue(methods.contains("action.activate"), "initialize still lists the methods")
        }
        XCTAssertNil(weakRouter, "the router outlived its last user")
        XCTAssertNil(weakHub, "the hub outlived its router")
    }
}
