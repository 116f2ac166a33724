import AXWire
import AXWireNIO
import NIOCore
import XCTest

/// The server's side of the framing (`RPCFraming.encode(_:into:)`, AXWireNIO): what it writes into a reply's
/// `ByteBuffer` is what the shared decoder (AXWire) reads back.
final class FrameEncodingTests: XCTestCase {
    /// What `encode` writes is what the decoder reads back, in both framings, byte for byte.
    func testEncodedFramesDecodeToTheirPayloads() {
        let payloads = [Array(#"{"a":1}"#.utf8), Array("[]".utf8), Array(#"{"s":"line\nbreak é"}"#.utf8)]
        for framing in [RPCFraming.ndjson, .lsp, .unknown] {
            var buffer = ByteBuffer()
            for payload in payloads { framing.encode(payload, into: &buffer) }
            var bytes = Array(buffer.readableBytesView)
            var decoder = RPCFrameDecoder(maxFrameBytes: 1024)
            var decoded: [[UInt8]] = []
            while case .frame(let start, let length, let consumed) = bytes.withUnsafeBytes({ decoder.next($0) }) {
                decoded.append(Array(bytes[start..<(start + length)]))
                bytes.removeFirst(consumed)
            }
            XCTAssertEqual(decoded, payloads, "\(framing)")
            XCTAssertEqual(decoder.framing, framing == .lsp ? .lsp : .ndjson)
            XCTAssertTrue(bytes.isEmpty)
        }
    }
}
