import AXJSON
import AXJSONRPC
import AXRPCRouter
import AXTestSupport
import Synchronization
import XCTest

/// A session's state and attachments (the pending-request table's tests are in AXJSONRPCTests).
final class RPCSessionTests: XCTestCase {
    func testSessionStateAndAttachments() async {
        let session = RPCSession(peer: ProtocolFakePeer(id: 9))
        XCTAssertEqual(session.connectionID, 9)
        XCTAssertTrue(session.authenticated)
        XCTAssertFalse(session.initialized)
        XCTAssertNil(session.role)
        session.role = "provider"
        XCTAssertEqual(session.role, "provider")
        session[attachment: "app"] = 17
        XCTAssertEqual(session.attachment("app", as: Int.self), 17)
        XCTAssertNil(session.attachment("app", as: String.self))
        let attachmentCount = session.withAttachments { bag -> Int in
            bag["count"] = 1
            return bag.count
        }
        XCTAssertEqual(attachmentCount, 2)
        session[attachment: "app"] = nil
        XCTAssertNil(session[attachment: "app"])
        // Concurrent writers never lose updates.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 {
                        session.withAttachments { bag in bag["count"] = ((bag["count"] as? Int) ?? 0) + 1 }
                    }
                }
            }
        }
        XCTAssertEqual(session.attachment("count", as: Int.self), 4001)
    }
}
