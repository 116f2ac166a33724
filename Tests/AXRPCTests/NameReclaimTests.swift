import AXHub
import AXJSON
import AXTestSupport
import XCTest

@testable import AXRPC

/// Issue 19 item 7 (D-REL-8): a provider that reconnects before the server saw its old connection close came
/// back as `name-2`; with the reclaim token its first registration got, it gets its id back.
final class NameReclaimTests: XCTestCase {
    func register(_ router: RPCRouter, _ session: RPCSession, _ params: JSON) async throws -> JSON {
        let frame = JSON.object(["jsonrpc": "2.0", "id": 1, "method": "app.register", "params": params]).jsonString
        let reply = await router.handle(frame: Array(frame.utf8), session: session)
        return try JSON.parse(try XCTUnwrap(reply))
    }

    func session() -> (RPCSession, ProtocolFakePeer) {
        let peer = ProtocolFakePeer()
        let session = RPCSession(peer: peer)
        session.initialized = true
        return (session, peer)
    }

    func testAReconnectingProviderReclaimsItsIdWithItsToken() async throws {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let (first, firstPeer) = session()
        let registered = try await register(router, first, ["name": "mail"])
        XCTAssertEqual(registered["result"]?["app"], "mail")
        let token = try XCTUnwrap(registered["result"]?["reclaimToken"]?.stringValue)
        XCTAssertEqual(token.count, 64)

        // Without the token a second registration is suffixed, as before.
        let (other, _) = session()
        let suffixed = try await register(router, other, ["name": "mail"])
        XCTAssertEqual(suffixed["result"]?["app"], "mail-2")

        // The same app reconnects while its old connection still looks alive: the token gives "mail" back, the
        // stale connection is closed, and its late close does not remove the new instance.
        let (second, _) = session()
        let again = try await register(router, second, ["name": "mail", "reclaimToken": .string(token)])
        XCTAssertEqual(again["result"]?["app"], "mail", "\(again)")
        XCTAssertTrue(firstPeer.isClosed, "the stale instance's connection was not closed")
        XCTAssertEqual(Set(hub.appIDs), ["mail", "mail-2"])
        hub.removeApp("mail", ifProvidedBy: RecordingProvider())
        XCTAssertEqual(Set(hub.appIDs), ["mail", "mail-2"], "another provider's removal took the app away")

        // A wrong token reclaims nothing.
        let (third, _) = session()
        let wrong = try await register(router, third, ["name": "mail", "reclaimToken": "not-the-token"])
        XCTAssertEqual(wrong["result"]?["app"], "mail-3")
        XCTAssertEqual(Set(hub.appIDs), ["mail", "mail-2", "mail-3"])
    }

    func testATokenNeverTakesTheIdFromAnAppThatDidNotPresentIt() {
        let hub = Hub(actionTimeout: .milliseconds(200))
        let original = hub.registerApp(name: "mail", provider: RecordingProvider(), reclaimToken: nil)
        hub.removeApp(original.id)
        // Someone else registers the name after the original left; it gets a token of its own.
        let newcomer = hub.registerApp(name: "mail", provider: RecordingProvider(), reclaimToken: nil)
        XCTAssertEqual(newcomer.id, "mail")
        let back = hub.registerApp(name: "mail", provider: RecordingProvider(), reclaimToken: original.reclaimToken)
        XCTAssertEqual(back.id, "mail-2")
        XCTAssertNil(back.replaced)
    }
}
