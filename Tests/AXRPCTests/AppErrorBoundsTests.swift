import AXHub
import AXJSON
import AXJSONRPC
import Synchronization
import XCTest

@testable import AXRPC

/// A provider peer that answers every request with one error.
private final class ErringPeer: RPCPeer {
    let connectionID: UInt64 = 9
    let error: RPCError
    init(_ error: RPCError) { self.error = error }
    func notify(_ method: String, _ params: JSON?) {}
    func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON { throw error }
    func close() {}
    var isClosed: Bool { false }
    func onClose(_ handler: @escaping @Sendable () -> Void) {}
}

/// Issue 19 item 7 (D-REL-7): an app's 5 MB error message was forwarded to the automation client unabridged.
final class AppErrorBoundsTests: XCTestCase {
    func testAHugeAppErrorIsCutBeforeItReachesTheClient() async throws {
        let huge = String(repeating: "é", count: 2_500_000)  // 5 MB of UTF-8
        let error = RPCError(
            code: -32000, message: huge,
            data: ["reason": .string(String(repeating: "r", count: 10_000)), "blob": .string(huge)])
        let provider = RemoteProvider(peer: ErringPeer(error))
        do {
            _ = try await provider.perform(ActionRequest(.element(.activate), target: "b"), timeout: .seconds(1))
            XCTFail("the error was not reported")
        } catch {
            let rpcError = RPCError.from(error)
            XCTAssertEqual(rpcError.code, RPCError.Code.appError)
            XCTAssertLessThan(rpcError.json.jsonString.utf8.count, 8_192, "the client still gets megabytes")
            XCTAssertTrue(rpcError.message.contains("more bytes cut"), rpcError.message)
            XCTAssertEqual(rpcError.data?["appError"]?["dataOmitted"]?["limit"], JSON(AppErrorBounds.maxDataBytes))
        }
    }

    func testAnOrdinaryAppErrorIsForwardedWhole() async throws {
        let error = RPCError(code: -32000, message: "disk full", data: ["reason": "update refused"])
        let provider = RemoteProvider(peer: ErringPeer(error))
        do {
            _ = try await provider.perform(ActionRequest(.element(.activate), target: "b"), timeout: .seconds(1))
            XCTFail("the error was not reported")
        } catch {
            let rpcError = RPCError.from(error)
            XCTAssertTrue(rpcError.message.hasSuffix("disk full"), rpcError.message)
            XCTAssertEqual(rpcError.data?["reason"], "update refused")
            XCTAssertEqual(rpcError.data?["appError"]?["data"]?["reason"], "update refused")
        }
    }

    func testTruncationKeepsWholeCharacters() {
        XCTAssertEqual(AppErrorBounds.truncated("abc", maxBytes: 3), "abc")
        XCTAssertEqual(AppErrorBounds.truncated("ééé", maxBytes: 3), "é… (4 more bytes cut)")
    }
}
