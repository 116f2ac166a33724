import AXWire
import NIOCore
import NIOEmbedded
import XCTest

@testable import AXTransport

/// `RPCFrameDecodingHandler` alone on an `EmbeddedChannel`: complete messages out in order, an incomplete one held
/// (and counted for the partial-frame timer), the framing detected, the size bound and its typed error, nothing
/// after a framing error (issue 20 item 3).
final class FrameDecodingHandlerEmbeddedTests: XCTestCase {
    static func channel(maxFrameBytes: Int = 64) -> (EmbeddedChannel, RPCFrameDecodingHandler) {
        let handler = RPCFrameDecodingHandler(maxFrameBytes: maxFrameBytes)
        return (EmbeddedChannel(handler: handler), handler)
    }

    /// Everything the handler passed on, messages as text.
    static func received(_ channel: EmbeddedChannel) throws -> [String] {
        var items: [String] = []
        while let item = try channel.readInbound(as: RPCInboundFrame.self) {
            switch item {
            case .frame(var buffer): items.append(buffer.readString(length: buffer.readableBytes) ?? "")
            case .tooLarge(let size): items.append("tooLarge \(size)")
            case .malformed(let why): items.append("malformed \(why)")
            }
        }
        return items
    }

    func testCompleteLinesArePassedOnInOrderAndAnIncompleteOneWaits() throws {
        let (channel, handler) = Self.channel()
        try channel.writeInbound(ByteBuffer(string: "{\"a\":1}\n\n  \n{\"b\":2}\n{\"c\""))
        XCTAssertEqual(try Self.received(channel), [#"{"a":1}"#, #"{"b":2}"#])
        XCTAssertEqual(handler.bufferedBytes, 4, "the incomplete message waits")
        XCTAssertEqual(handler.framing, .ndjson)
        try channel.writeInbound(ByteBuffer(string: ":3}\n"))
        XCTAssertEqual(try Self.received(channel), [#"{"c":3}"#])
        XCTAssertEqual(handler.bufferedBytes, 0)
    }

    func testContentLengthFramingIsDetectedAndItsBodyPassedOn() throws {
        let (channel, handler) = Self.channel()
        let body = #"{"id":1}"#
        try channel.writeInbound(ByteBuffer(string: "Content-Length: \(body.utf8.count)\r\n\r\n" + body))
        XCTAssertEqual(try Self.received(channel), [body])
        XCTAssertEqual(handler.framing, .lsp)
    }

    func testAMessageOverTheBoundIsATypedErrorAndLaterInputIsDropped() throws {
        let (channel, handler) = Self.channel(maxFrameBytes: 16)
        try channel.writeInbound(ByteBuffer(string: "{\"ok\":1}\n" + String(repeating: "x", count: 40)))
        XCTAssertEqual(try Self.received(channel), [#"{"ok":1}"#, "tooLarge 40"])
        try channel.writeInbound(ByteBuffer(string: "\n{\"b\":2}\n"))
        XCTAssertEqual(try Self.received(channel), [], "nothing after the framing error")
        XCTAssertEqual(handler.bufferedBytes, 0)
    }

    func testAnAnnouncedLengthOverTheBoundIsRefusedBeforeTheBodyArrives() throws {
        let (channel, _) = Self.channel(maxFrameBytes: 16)
        try channel.writeInbound(ByteBuffer(string: "Content-Length: 1000\r\n\r\n"))
        XCTAssertEqual(try Self.received(channel), ["tooLarge 1000"])
    }

    func testAMalformedHeaderIsATypedError() throws {
        let (channel, _) = Self.channel()
        try channel.writeInbound(ByteBuffer(string: "Content-Length: 5\r\nbogus line\r\n\r\n"))
        let items = try Self.received(channel)
        XCTAssertEqual(items.count, 1)
        XCTAssertTrue(items[0].hasPrefix("malformed "), "\(items)")
    }

    /// A span outside the received bytes (only a decoder fault could make one) is a typed fault naming it, where the
    /// handler used to force-unwrap the slice and trap the server; the frames before it are kept.
    func testASpanOutsideTheBytesIsAFaultNotATrap() {
        var readable = ByteBuffer(string: "xx{}{\"a\":1}")
        readable.moveReaderIndex(forwardBy: 2)
        let good = RPCFrameDecodingHandler.frames(of: readable, spans: [(0, 2), (2, 7)])
        XCTAssertEqual(good.frames.map { String(buffer: $0) }, ["{}", #"{"a":1}"#])
        XCTAssertNil(good.fault)
        for bad in [(offset: 2, length: 8), (offset: 9, length: 1), (offset: -2, length: 2), (offset: 0, length: -1)] {
            let sliced = RPCFrameDecodingHandler.frames(of: readable, spans: [(0, 2), bad])
            XCTAssertEqual(sliced.frames.map { String(buffer: $0) }, ["{}"])
            XCTAssertEqual(
                sliced.fault,
                "a frame (offset \(bad.offset), \(bad.length) bytes) lies outside the 9 bytes received")
        }
    }
}
