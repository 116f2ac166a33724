import AXJSON
import AXTestSupport
import XCTest

@testable import AXRPCRouter

/// Number ids the Double parser cannot hold exactly come back byte for byte (issue 12 item 9).
final class RawIDTests: XCTestCase {
    func router() -> RPCRouter {
        let otherRouter = RPCRouter()
        otherRouter.registerSync("ping", requiresInit: false) { _, _ in "pong" }
        otherRouter.register("slowPing", requiresInit: false) { _, _ in "pong" }
        return otherRouter
    }

    func reply(_ frame: String) async -> String {
        let session = RPCSession(peer: ProtocolFakePeer())
        guard let out = await router().handle(frame: Array(frame.utf8), session: session) else { return "<no reply>" }
        return String(decoding: out, as: UTF8.self)
    }

    func testLargeAndFractionalIdsAreEchoedByteForByte() async {
        let ids = [
            "9007199254740993", "18446744073709551615", "-9007199254740993", "123456789012345678901234567890",
            "1.5e300", "0.1000", "2.50", "1E+300",
        ]
        for id in ids {
            for method in ["ping", "slowPing", "nope"] {
                let out = await reply(#"{"jsonrpc":"2.0","id":"# + id + #","method":""# + method + #""}"#)
                XCTAssertTrue(out.hasPrefix(#"{"jsonrpc":"2.0","id":"# + id + ","), "\(method) id \(id): \(out)")
            }
            // An invalid request still names its id exactly.
            let invalid = await reply(#"{"jsonrpc":"1.0","id":"# + id + #","method":"ping"}"#)
            XCTAssertTrue(invalid.hasPrefix(#"{"jsonrpc":"2.0","id":"# + id + ","), "invalid id \(id): \(invalid)")
        }
    }

    func testBatchElementsKeepTheirOwnIds() async {
        let frame =
            #"[{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping","params":{"id":1,"x":[{"id":2}]}},"#
            + #" {"jsonrpc":"2.0","method":"ping"}, 5, {"jsonrpc":"2.0","id":"s\"id","method":"ping"},"#
            + #"{"id":9007199254740993,"jsonrpc":"2.0","method":"slowPing"}, {"jsonrpc":"2.0","id":7,"method":"ping"}]"#
        let out = await reply(frame)
        let expected = [
            #"{"jsonrpc":"2.0","id":18446744073709551615,"result":"pong"}"#,
            #""id":null"#,
            #"{"jsonrpc":"2.0","id":"s\"id","result":"pong"}"#,
            #"{"jsonrpc":"2.0","id":9007199254740993,"result":"pong"}"#,
            #"{"jsonrpc":"2.0","id":7,"result":"pong"}"#,
        ]
        var cursor = out.startIndex
        for piece in expected {
            guard let range = out.range(of: piece, range: cursor..<out.endIndex) else {
                XCTFail("missing \(piece) (in order) in \(out)")
                return
            }
            cursor = range.upperBound
        }
    }

    /// A frame refused for its nesting depth still names a large id exactly.
    func testDepthLimitErrorEchoesALargeIdExactly() async {
        let deep = String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000)
        let out = await reply(
            #"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping","params":{"x":"# + deep + "}}")
        XCTAssertTrue(out.hasPrefix(#"{"jsonrpc":"2.0","id":18446744073709551615,"error":{"code":-32021"#), out)
    }

    /// Integers below 2^53 keep the shortest form (unchanged behaviour, and no frame scan for them).
    func testSmallIntegerIdsAreUnchanged() async {
        let out = await reply(#"{"jsonrpc":"2.0","id":42,"method":"ping"}"#)
        XCTAssertEqual(out, #"{"jsonrpc":"2.0","id":42,"result":"pong"}"#)
    }
}
