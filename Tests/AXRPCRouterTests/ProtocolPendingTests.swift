import AXJSON
import AXJSONRPC
import AXRPCRouter
import AXTestSupport
import Synchronization
import XCTest

final class ProtocolPendingTests: XCTestCase {
    func testTimeoutGivesAppNotResponding() async {
        let p = RPCPendingRequests()
        let start = ContinuousClock.now
        do {
            _ = try await p.perform(method: "app.tap", timeout: .milliseconds(50)) { _ in true }
            XCTFail("should time out")
        } catch {
            XCTAssertEqual(error.code, -32020)
            XCTAssertEqual(error.kind, "app not responding")
            XCTAssertEqual(error.data?["method"], "app.tap")
            XCTAssertEqual(error.data?["timeoutMs"], 50)
        }
        let elapsed = ContinuousClock.now - start
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(45))
        XCTAssertLessThan(elapsed, .seconds(5))
        XCTAssertEqual(p.count, 0)
    }

    func testFailAllGivesDisconnectedAndLaterRequestsFailAtOnce() async throws {
        let p = RPCPendingRequests()
        let sent = ProtocolLocked(0)
        let t1 = Task { () async throws(RPCError) -> JSON in
            try await p.perform(method: "a", timeout: .seconds(30)) { _ in
                sent.withLock { $0 += 1 }
                return true
            }
        }
        let t2 = Task { () async throws(RPCError) -> JSON in
            try await p.perform(method: "b", timeout: .seconds(30)) { _ in
                sent.withLock { $0 += 1 }
                return true
            }
        }
        for _ in 0..<400 where sent.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(5)) }
        XCTAssertEqual(p.count, 2)
        p.failAll(.disconnected())
        for (t, m) in [(t1, "a"), (t2, "b")] {
            let r = await t.result
            XCTAssertThrowsError(try r.get()) { e in
                let e = e as? RPCError
                XCTAssertEqual(e?.code, -32020)
                XCTAssertEqual(e?.data?["reason"], "disconnected")
                XCTAssertEqual(e?.data?["method"], .string(m))
            }
        }
        let sendCalled = ProtocolLocked(false)
        do {
            _ = try await p.perform(method: "c", timeout: .seconds(30)) { _ in
                sendCalled.withLock { $0 = true }
                return true
            }
            XCTFail("closed table must fail at once")
        } catch {
            XCTAssertEqual(error.data?["reason"], "disconnected")
        }
        XCTAssertFalse(sendCalled.withLock { $0 }, "nothing is sent on a closed connection")
    }

    func testSendFailureIsDisconnected() async {
        let p = RPCPendingRequests()
        do {
            _ = try await p.perform(method: "x", timeout: .seconds(30)) { _ in false }
            XCTFail()
        } catch {
            XCTAssertEqual(error.code, -32020)
            XCTAssertEqual(error.data?["reason"], "disconnected")
        }
    }

    func testCancellation() async throws {
        let p = RPCPendingRequests()
        let t = Task { () async throws(RPCError) -> JSON in
            try await p.perform(method: "slow", timeout: .seconds(30)) { _ in true }
        }
        for _ in 0..<400 where p.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        t.cancel()
        let r = await t.result
        XCTAssertThrowsError(try r.get()) { e in XCTAssertEqual((e as? RPCError)?.code, -32800) }
        XCTAssertEqual(p.count, 0)
    }

    func testCompleteMatchesOnlyItsOwnIdAndOnlyOnce() async throws {
        let p = RPCPendingRequests()
        let ids = ProtocolLocked<[JSON]>([])
        let t = Task { () async throws(RPCError) -> JSON in
            try await p.perform(method: "m", timeout: .seconds(30)) { id in
                ids.withLock { $0.append(id) }
                return true
            }
        }
        for _ in 0..<400 where p.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let id = ids.withLock { $0[0] }
        XCTAssertFalse(p.complete(id: 424242, with: .success(1)))
        XCTAssertFalse(p.complete(id: "nonsense", with: .success(1)))
        XCTAssertFalse(p.complete(id: .null, with: .success(1)))
        XCTAssertTrue(p.complete(id: id, with: .success("ok")))
        XCTAssertFalse(p.complete(id: id, with: .success("again")))
        let r = await t.result
        XCTAssertEqual(try r.get(), "ok")
    }

    func testSessionStateAndAttachments() async {
        let s = RPCSession(peer: ProtocolFakePeer(id: 9))
        XCTAssertEqual(s.connectionID, 9)
        XCTAssertTrue(s.authenticated)
        XCTAssertFalse(s.initialized)
        XCTAssertNil(s.role)
        s.role = "provider"
        XCTAssertEqual(s.role, "provider")
        s[attachment: "app"] = 17
        XCTAssertEqual(s.attachment("app", as: Int.self), 17)
        XCTAssertNil(s.attachment("app", as: String.self))
        let n = s.withAttachments { bag -> Int in
            bag["count"] = 1
            return bag.count
        }
        XCTAssertEqual(n, 2)
        s[attachment: "app"] = nil
        XCTAssertNil(s[attachment: "app"])
        // Concurrent writers never lose updates.
        await withTaskGroup(of: Void.self) { g in
            for _ in 0..<8 {
                g.addTask {
                    for _ in 0..<500 {
                        s.withAttachments { bag in bag["count"] = ((bag["count"] as? Int) ?? 0) + 1 }
                    }
                }
            }
        }
        XCTAssertEqual(s.attachment("count", as: Int.self), 4001)
    }
}
