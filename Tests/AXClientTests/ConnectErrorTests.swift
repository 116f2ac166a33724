import AXClient
import AXRPCClient
import Foundation
import XCTest

/// What a test author reads when no server runs: the address tried, the system's reason, and what to do.
final class ConnectErrorTests: XCTestCase {
    func testConnectingWhereNoServerListensNamesThePathAndTheFix() async throws {
        let path = NSTemporaryDirectory() + "axclient-none-\(UUID().uuidString.prefix(8)).sock"
        do {
            _ = try await AXClient.connect(path)
            XCTFail("connected to \(path), where nothing listens")
        } catch {
            let message = "\(error)"
            XCTAssertTrue(message.contains(path), message)
            XCTAssertTrue(message.contains("No such file or directory"), message)
            XCTAssertTrue(message.hasSuffix(AXSocketPath.noServerHint), "the error ends with the hint: \(message)")
            XCTAssertEqual(
                message.filter { $0 == "(" }.count, message.filter { $0 == ")" }.count,
                "balanced parentheses: \(message)")
        }
    }
}
