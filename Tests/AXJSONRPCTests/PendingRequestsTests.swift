import AXJSON
import AXJSONRPC
import Synchronization
import XCTest

/// A lock-protected box the send closures below can capture.
final class PendingLocked<T: Sendable>: Sendable {
    private let mutex: Mutex<T>
    init(_ value: T) { mutex = Mutex(value) }
    func withLock<R: Sendable>(_ body: (inout T) -> R) -> R { mutex.withLock { body(&$0) } }
}

/// The pending-request table both ends use for requests they send (`RPCPendingRequests`): timeouts, a lost
/// connection, cancellation, ids (moved here from AXRPCRouterTests; issue 31 item 5).
final class PendingRequestsTests: XCTestCase {
    func testTimeoutGivesAppNotResponding() async {
        let requests = RPCPendingRequests()
        let start = ContinuousClock.now
        do {
            _ = try await requests.perform(method: "app.tap", timeout: .milliseconds(50)) { _ in true }
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
        XCTAssertEqual(requests.count, 0)
    }

    func testFailAllGivesDisconnectedAndLaterRequestsFailAtOnce() async throws {
        let requests = RPCPendingRequests()
        let sent = PendingLocked(0)
        let t1 = Task { () async throws(RPCError) -> JSON in
            try await requests.perform(method: "a", timeout: .seconds(30)) { _ in
                sent.withLock { $0 += 1 }
                return true
            }
        }
        let t2 = Task { () async throws(RPCError) -> JSON in
            try await requests.perform(method: "b", timeout: .seconds(30)) { _ in
                sent.withLock { $0 += 1 }
                return true
            }
        }
        for _ in 0..<400 where sent.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(5)) }
        XCTAssertEqual(requests.count, 2)
        requests.failAll(.disconnected())
        for (otherElapsed, message) in [(t1, "a"), (t2, "b")] {
            let result = await otherElapsed.result
            XCTAssertThrowsError(try result.get()) { otherError in
                let otherError = otherError as? RPCError
                XCTAssertEqual(otherError?.code, -32020)
                XCTAssertEqual(otherError?.data?["reason"], "disconnected")
                XCTAssertEqual(otherError?.data?["method"], .string(message))
            }
        }
        let sendCalled = PendingLocked(false)
        do {
            _ = try await requests.perform(method: "c", timeout: .seconds(30)) { _ in
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
        let requests = RPCPendingRequests()
        do {
            _ = try await requests.perform(method: "x", timeout: .seconds(30)) { _ in false }
            XCTFail()
        } catch {
            XCTAssertEqual(error.code, -32020)
            XCTAssertEqual(error.data?["reason"], "disconnected")
        }
    }

    func testCancellation() async throws {
        let requests = RPCPendingRequests()
        let task = Task { () async throws(RPCError) -> JSON in
            try await requests.perform(method: "slow", timeout: .seconds(30)) { _ in true }
        }
        for _ in 0..<400 where requests.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        let result = await task.result
        XCTAssertThrowsError(try result.get()) { error in XCTAssertEqual((error as? RPCError)?.code, -32800) }
        XCTAssertEqual(requests.count, 0)
    }

    func testCompleteMatchesOnlyItsOwnIdAndOnlyOnce() async throws {
        let requests = RPCPendingRequests()
        let ids = PendingLocked<[JSON]>([])
        let task = Task { () async throws(RPCError) -> JSON in
            try await requests.perform(method: "m", timeout: .seconds(30)) { id in
                ids.withLock { $0.append(id) }
                return true
            }
        }
        // The request is in the table before its send closure runs: wait for the id the closure records (reading
        // it after `count` alone trapped once in CI, the closure not having run yet).
        for _ in 0..<400 where ids.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
        let id = try XCTUnwrap(ids.withLock { $0.first }, "the request was never sent")
        XCTAssertFalse(requests.complete(id: 424242, with: .success(1)))
        XCTAssertFalse(requests.complete(id: "nonsense", with: .success(1)))
        XCTAssertFalse(requests.complete(id: .null, with: .success(1)))
        XCTAssertTrue(requests.complete(id: id, with: .success("ok")))
        XCTAssertFalse(requests.complete(id: id, with: .success("again")))
        let result = await task.result
        XCTAssertEqual(try result.get(), "ok")
    }
}
