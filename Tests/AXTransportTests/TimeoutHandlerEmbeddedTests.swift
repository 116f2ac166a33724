import NIOCore
import NIOEmbedded
import XCTest

@testable import AXTransport

/// `RPCTimeoutHandler` between the framing handler and a stand-in dispatcher on an `EmbeddedChannel` with the
/// loop's virtual clock: the partial-frame timer runs while bytes of an incomplete message wait, a complete message
/// starts it again, and the dispatcher's pause (`RPCDispatchFlow`) stops it (issue 20 item 3).
final class TimeoutHandlerEmbeddedTests: XCTestCase {
    /// The dispatcher's place in the pipeline: records the timeout events and the messages, and signals pauses.
    final class DispatcherProbe: ChannelInboundHandler {
        typealias InboundIn = RPCInboundFrame

        var timeouts: [RPCTimeoutHandler.PartialFrameTimedOut] = []
        var messages = 0
        var context: ChannelHandlerContext?

        func handlerAdded(context: ChannelHandlerContext) { self.context = context }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) { messages += 1 }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let timeout = event as? RPCTimeoutHandler.PartialFrameTimedOut { timeouts.append(timeout) }
        }

        func signal(_ flow: RPCDispatchFlow) {
            context?.triggerUserOutboundEvent(flow, promise: nil)
        }
    }

    static func channel(timeoutSeconds: Int64 = 3) throws -> (EmbeddedChannel, DispatcherProbe) {
        let frames = RPCFrameDecodingHandler(maxFrameBytes: 1024)
        let probe = DispatcherProbe()
        let channel = EmbeddedChannel(handlers: [
            frames, RPCTimeoutHandler(partialFrameTimeout: .seconds(timeoutSeconds), frames: frames), probe,
        ])
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/embedded")).wait()
        return (channel, probe)
    }

    /// `text` as one read batch, as the socket delivers it.
    static func receive(_ channel: EmbeddedChannel, _ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
        channel.pipeline.fireChannelReadComplete()
    }

    func testAnIncompleteMessageTimesOutAfterTheTimeoutAndNotBefore() throws {
        let (channel, probe) = try Self.channel()
        try Self.receive(channel, #"{"id":1,"#)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(2999))
        XCTAssertEqual(probe.timeouts, [])
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        XCTAssertEqual(probe.timeouts, [RPCTimeoutHandler.PartialFrameTimedOut(bufferedBytes: 8)])
    }

    func testNoTimerWithoutWaitingBytes() throws {
        let (channel, probe) = try Self.channel()
        try Self.receive(channel, "{\"id\":1}\n")
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        XCTAssertEqual(probe.messages, 1)
        XCTAssertEqual(probe.timeouts, [])
    }

    func testACompleteMessageStartsTheClockAgain() throws {
        let (channel, probe) = try Self.channel()
        try Self.receive(channel, #"{"id":1"#)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        try Self.receive(channel, "}\n{\"id\":2")
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        XCTAssertEqual(probe.timeouts, [], "the first deadline passed, but a message completed meanwhile")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertEqual(probe.timeouts, [RPCTimeoutHandler.PartialFrameTimedOut(bufferedBytes: 7)])
    }

    func testMoreBytesOfTheSameMessageDoNotExtendTheDeadline() throws {
        let (channel, probe) = try Self.channel()
        try Self.receive(channel, #"{"id":"#)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        try Self.receive(channel, "1")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertEqual(probe.timeouts, [RPCTimeoutHandler.PartialFrameTimedOut(bufferedBytes: 7)])
    }

    func testNoTimeoutWhileTheDispatcherIsPausedAndAFullPeriodAfterItResumes() throws {
        let (channel, probe) = try Self.channel()
        try Self.receive(channel, #"{"id":1,"#)
        probe.signal(.paused)
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        XCTAssertEqual(probe.timeouts, [], "the server keeps the client waiting, not the client")
        probe.signal(.resumed)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        XCTAssertEqual(probe.timeouts, [])
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertEqual(probe.timeouts.count, 1)
    }

    func testAPauseSignalledWhileReadingKeepsTheTimerOff() throws {
        let (channel, probe) = try Self.channel()
        probe.signal(.paused)
        try Self.receive(channel, #"{"id":1,"#)
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        XCTAssertEqual(probe.timeouts, [])
    }

    func testAClosedConnectionHasNoTimer() throws {
        let (channel, probe) = try Self.channel()
        try Self.receive(channel, #"{"id":1,"#)
        _ = try channel.finish()
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        XCTAssertEqual(probe.timeouts, [])
    }

    func testOtherOutboundEventsPassThrough() throws {
        let (channel, probe) = try Self.channel()
        let promise = channel.embeddedEventLoop.makePromise(of: Void.self)
        probe.context?.triggerUserOutboundEvent("not a flow signal", promise: promise)
        // EmbeddedChannel's head fails unknown outbound events; reaching the head is what this checks.
        XCTAssertThrowsError(try promise.futureResult.wait())
    }
}
