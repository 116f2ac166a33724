import AXHub
import AXInProcess
import AXJSON
import Logging
import NIOCore
import NIOEmbedded
import XCTest

@testable import AXTransport

/// The connection's pipeline (as the server builds it) on an `EmbeddedChannel`: framing, authentication and the
/// partial-frame timer without a socket or a real clock (issue 20 item 3; the authentication handler alone:
/// `AuthenticationHandlerEmbeddedTests`).
final class ConnectionHandlerEmbeddedTests: XCTestCase {
    static func channel(token: String? = nil, limits: RPCConnectionLimits = RPCConnectionLimits()) throws
        -> EmbeddedChannel
    {
        let router = InProcessConnection.makeRouter(hub: Hub(actionTimeout: .seconds(2)))
        let context = RPCListenerContext(
            router: router, token: token.map { Array($0.utf8) }, logger: Logger(label: "embedded-test"),
            registry: RPCConnectionRegistry(), limits: limits, onSession: nil)
        let channel = EmbeddedChannel(handlers: RPCConnectionPipeline.handlers(context))
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/embedded")).wait()
        return channel
    }

    /// Writes `text` as one read batch and returns everything the handler wrote back.
    static func exchange(_ channel: EmbeddedChannel, _ text: String) throws -> String {
        try channel.writeInbound(ByteBuffer(string: text))
        channel.pipeline.fireChannelReadComplete()
        channel.embeddedEventLoop.run()
        return try output(channel)
    }

    static func output(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            text += buffer.readString(length: buffer.readableBytes) ?? ""
        }
        return text
    }

    static let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"t"}}}"#

    func testANewlineDelimitedRequestIsAnsweredOnOneLine() throws {
        let channel = try Self.channel()
        let reply = try Self.exchange(channel, Self.initialize + "\n")
        XCTAssertTrue(reply.hasSuffix("\n"), reply)
        XCTAssertEqual(try JSON.parse(String(reply.dropLast()))["id"], 1)
        XCTAssertNotNil(try JSON.parse(String(reply.dropLast()))["result"], reply)
        XCTAssertTrue(channel.isActive)
    }

    func testAContentLengthRequestIsAnsweredWithAContentLengthHeader() throws {
        let channel = try Self.channel()
        let reply = try Self.exchange(
            channel, "Content-Length: \(Self.initialize.utf8.count)\r\n\r\n" + Self.initialize)
        XCTAssertTrue(reply.hasPrefix("Content-Length: "), reply)
        let body = try XCTUnwrap(reply.range(of: "\r\n\r\n")).upperBound
        XCTAssertNotNil(try JSON.parse(String(reply[body...]))["result"], reply)
    }

    func testAFrameSplitOverTwoReadsIsOneRequest() throws {
        let channel = try Self.channel()
        let half = Self.initialize.index(Self.initialize.startIndex, offsetBy: 30)
        XCTAssertEqual(try Self.exchange(channel, String(Self.initialize[..<half])), "")
        let reply = try Self.exchange(channel, String(Self.initialize[half...]) + "\n")
        XCTAssertNotNil(try JSON.parse(String(reply.dropLast()))["result"], reply)
    }

    func testWithATokenTheFirstMessageMustBeInitializeWithIt() throws {
        let channel = try Self.channel(token: "secret")
        let reply = try Self.exchange(channel, #"{"jsonrpc":"2.0","id":7,"method":"app.list"}"# + "\n")
        let error = try XCTUnwrap(try JSON.parse(String(reply.dropLast()))["error"], reply)
        XCTAssertEqual(error["code"]?.intValue, -32019)
        channel.embeddedEventLoop.run()
        XCTAssertFalse(channel.isActive, "the unauthenticated connection was closed")
    }

    func testTheRightTokenAuthenticates() throws {
        let channel = try Self.channel(token: "secret")
        let request = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"token":"secret"}}"#
        let reply = try Self.exchange(channel, request + "\n")
        XCTAssertNotNil(try JSON.parse(String(reply.dropLast()))["result"], reply)
        XCTAssertTrue(channel.isActive)
    }

    func testAnIncompleteFrameTimesOutOnTheLoopsClock() throws {
        let channel = try Self.channel(limits: RPCConnectionLimits(partialFrameTimeout: .seconds(3)))
        XCTAssertEqual(try Self.exchange(channel, #"{"jsonrpc":"2.0","id":1,"#), "")
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        XCTAssertEqual(try Self.output(channel), "", "not before the timeout")
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        let reply = try Self.output(channel)
        let error = try XCTUnwrap(try JSON.parse(String(reply.dropLast()))["error"], reply)
        XCTAssertEqual(error["data"]?["limit"]?.stringValue, "partialFrameTimeout")
        channel.embeddedEventLoop.run()
        XCTAssertFalse(channel.isActive)
    }
}
