import AXJSON
import NIOCore
import NIOEmbedded
import XCTest

@testable import AXTransport

/// `RPCAuthenticationHandler` in the connection's pipeline on an `EmbeddedChannel`: it holds the bytes until the
/// first message is complete, passes them on and leaves the pipeline after `initialize` with the token, refuses
/// anything else with −32019 (framed like the client's input) and closes, and times out on the loop's clock
/// (issue 20 item 3).
final class AuthenticationHandlerEmbeddedTests: XCTestCase {
    typealias Harness = ConnectionHandlerEmbeddedTests

    static let rightInitialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"token":"secret"}}"#

    static func hasAuthenticationHandler(_ channel: EmbeddedChannel) -> Bool {
        (try? channel.pipeline.syncOperations.handler(type: RPCAuthenticationHandler.self)) != nil
    }

    /// The replies in `text`, one JSON object per line.
    static func replies(_ text: String) throws -> [JSON] {
        try text.split(separator: "\n").map { try JSON.parse(String($0)) }
    }

    func testWithoutATokenThePipelineHasNoAuthenticationHandler() throws {
        XCTAssertFalse(Self.hasAuthenticationHandler(try Harness.channel()))
        XCTAssertTrue(Self.hasAuthenticationHandler(try Harness.channel(token: "secret")))
    }

    func testAnIncompleteFirstMessageIsHeldWithoutAnAnswer() throws {
        let channel = try Harness.channel(token: "secret")
        let half = Self.rightInitialize.index(Self.rightInitialize.startIndex, offsetBy: 40)
        XCTAssertEqual(try Harness.exchange(channel, String(Self.rightInitialize[..<half])), "")
        XCTAssertTrue(channel.isActive)
        XCTAssertTrue(Self.hasAuthenticationHandler(channel), "still waiting for the first message")
        let reply = try Harness.exchange(channel, String(Self.rightInitialize[half...]) + "\n")
        XCTAssertEqual(try Self.replies(reply).first?["id"], 1)
        XCTAssertNotNil(try Self.replies(reply).first?["result"], reply)
    }

    func testAfterInitializeWithTheTokenTheHandlerLeavesAndTheRestOfTheBatchIsAnswered() throws {
        let channel = try Harness.channel(token: "secret")
        let ping = #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#
        let replies = try Self.replies(try Harness.exchange(channel, Self.rightInitialize + "\n" + ping + "\n"))
        XCTAssertEqual(replies.map { $0["id"] }, [1, 2])
        guard replies.count == 2 else { return }  // reported above; indexing on would crash the whole test process
        XCTAssertNil(replies[1]["error"], "the request after initialize ran authenticated: \(replies[1])")
        XCTAssertFalse(Self.hasAuthenticationHandler(channel), "the handler removed itself")
        // Later messages reach the connection handler directly; the authentication timer is gone with the handler.
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        XCTAssertTrue(channel.isActive)
        let later = try Self.replies(try Harness.exchange(channel, #"{"jsonrpc":"2.0","id":3,"method":"ping"}"# + "\n"))
        XCTAssertEqual(later.first?["id"], 3)
        XCTAssertNil(later.first?["error"])
    }

    func testAWrongTokenIsRefusedWithTheRequestsIDAndClosed() throws {
        let channel = try Harness.channel(token: "secret")
        let request = #"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"token":"guess"}}"#
        let reply = try XCTUnwrap(try Self.replies(try Harness.exchange(channel, request + "\n")).first)
        XCTAssertEqual(reply["id"], "a")
        XCTAssertEqual(reply["error"]?["code"]?.intValue, -32019)
        XCTAssertEqual(reply["error"]?["message"]?.stringValue, "unauthorized: invalid token")
        channel.embeddedEventLoop.run()
        XCTAssertFalse(channel.isActive)
        XCTAssertEqual(try Harness.exchange(channel, Self.rightInitialize + "\n"), "", "nothing after the refusal")
    }

    func testARefusalIsFramedLikeTheClientsContentLengthInput() throws {
        let channel = try Harness.channel(token: "secret")
        let request = #"{"jsonrpc":"2.0","id":4,"method":"app.list"}"#
        let reply = try Harness.exchange(channel, "Content-Length: \(request.utf8.count)\r\n\r\n" + request)
        XCTAssertTrue(reply.hasPrefix("Content-Length: "), reply)
        let body = try XCTUnwrap(reply.range(of: "\r\n\r\n")).upperBound
        XCTAssertEqual(try JSON.parse(String(reply[body...]))["error"]?["code"]?.intValue, -32019)
    }

    func testAMalformedFirstFrameGetsTheFramingErrorAsWithoutAToken() throws {
        let channel = try Harness.channel(token: "secret")
        let reply = try Harness.exchange(channel, "Content-Length: 5\r\nbogus line\r\n\r\n")
        let body = try XCTUnwrap(reply.range(of: "\r\n\r\n"), reply).upperBound
        XCTAssertEqual(try JSON.parse(String(reply[body...]))["error"]?["code"]?.intValue, -32700, reply)
        channel.embeddedEventLoop.run()
        XCTAssertFalse(channel.isActive)
    }

    func testNoInitializeWithinTheAuthenticationTimeoutClosesOnTheLoopsClock() throws {
        let channel = try Harness.channel(
            token: "secret", limits: RPCConnectionLimits(authenticationTimeout: .seconds(5)))
        channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        XCTAssertEqual(try Harness.output(channel), "", "not before the timeout")
        XCTAssertTrue(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        let reply = try XCTUnwrap(try Self.replies(try Harness.output(channel)).first)
        XCTAssertEqual(reply["error"]?["code"]?.intValue, -32019)
        XCTAssertEqual(reply["error"]?["data"]?["limit"]?.stringValue, "authenticationTimeout")
        channel.embeddedEventLoop.run()
        XCTAssertFalse(channel.isActive)
    }
}
