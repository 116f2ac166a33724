import XCTest

@testable import AXWire

/// A seeded generator: the random chunking below is the same on every run.
struct WireRNG: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var otherState = state
        otherState = (otherState ^ (otherState >> 30)) &* 0xBF58_476D_1CE4_E5B9
        otherState = (otherState ^ (otherState >> 27)) &* 0x94D0_49BB_1331_11EB
        return otherState ^ (otherState >> 31)
    }
}

/// The framing both ends of the socket share (`RPCFraming`, `RPCFrameDecoder`): NDJSON and LSP frames, the size
/// bound and malformed headers (moved here from AXTransportTests; issue 31 item 5).
final class FramingTests: XCTestCase {
    /// Feeding a stream in random chunks yields exactly the frames of feeding it whole (both framings).
    func testFrameDecoderRandomChunking() {
        var rng = WireRNG(seed: 99)
        let messages: [String] = (0..<300).map { index in
            #"{"jsonrpc":"2.0","id":\#(index),"method":"echo","params":{"s":"\#(String(repeating: "é", count: index % 17))"}}"#
        }
        let nd = Array(
            messages.map { $0 + (Bool.random(using: &rng) ? "\r\n" : "\n") + (Bool.random(using: &rng) ? "\n" : "") }
                .joined().utf8)
        let lsp = Array(
            messages.map { message in
                let header = Bool.random(using: &rng) ? "Content-Type: application/json\r\n" : ""
                return "Content-Length: \(message.utf8.count)\r\n" + header + "\r\n" + message
            }.joined().utf8)
        for stream in [nd, lsp] {
            var decoder = RPCFrameDecoder(maxFrameBytes: 1 << 20)
            var pending: [UInt8] = []
            var frames: [String] = []
            var pos = 0
            while pos < stream.count || !pending.isEmpty {
                let take = min(stream.count - pos, Int.random(in: 1...97, using: &rng))
                pending += stream[pos..<(pos + take)]
                pos += take
                loop: while true {
                    let decoded = pending.withUnsafeBytes { decoder.next($0) }
                    switch decoded {
                    case .frame(let start, let length, let consumed):
                        frames.append(String(decoding: pending[start..<(start + length)], as: UTF8.self))
                        pending.removeFirst(consumed)
                    case .skip(let current): pending.removeFirst(current)
                    case .needMore: break loop
                    default: return XCTFail("unexpected \(decoded)")
                    }
                }
                if take == 0 { break }
            }
            XCTAssertEqual(frames, messages)
            XCTAssertTrue(pending.isEmpty)
        }
    }

    func testFrameDecoder() {
        func decode(_ s: String, max: Int = 100) -> [RPCFrameDecoder.Next] {
            var decoder = RPCFrameDecoder(maxFrameBytes: max)
            var out: [RPCFrameDecoder.Next] = []
            var bytes = Array(s.utf8)
            while true {
                let decoded = bytes.withUnsafeBytes { decoder.next($0) }
                out.append(decoded)
                switch decoded {
                case .frame(_, _, let current), .skip(let current): bytes.removeFirst(current)
                default: return out
                }
            }
        }
        XCTAssertEqual(
            decode("{}\n[1]\r\n"),
            [.frame(start: 0, length: 2, consumed: 3), .frame(start: 0, length: 3, consumed: 5), .needMore])
        XCTAssertEqual(decode("  \n{}"), [.skip(consumed: 3), .needMore])
        XCTAssertEqual(decode(String(repeating: "x", count: 101)), [.tooLarge(size: 101)])
        XCTAssertEqual(decode(String(repeating: "x", count: 101) + "\n", max: 100), [.tooLarge(size: 101)])
        XCTAssertEqual(decode("Content-Length: 2\r\n\r\n{}"), [.frame(start: 21, length: 2, consumed: 23), .needMore])
        XCTAssertEqual(decode("Content-Length: 5\r\n\r\n{}"), [.needMore])
        XCTAssertEqual(
            decode("CONTENT-LENGTH:2\r\nX-Other: y\r\n\r\n[]"), [.frame(start: 32, length: 2, consumed: 34), .needMore])
        XCTAssertEqual(decode("Content-Length: 101\r\n\r\n"), [.tooLarge(size: 101)])
        XCTAssertEqual(
            decode("Content-Length: -1\r\n\r\n"),
            [.malformed("invalid Content-Length '-1' (expected a non-negative integer)")])
    }

    /// Hostile LSP headers get a typed `.malformed` naming the fault, never a trap or a wait for more.
    func testHostileHeadersAreMalformedWithAReason() {
        func first(_ text: String) -> RPCFrameDecoder.Next {
            var decoder = RPCFrameDecoder(maxFrameBytes: 100)
            return Array(text.utf8).withUnsafeBytes { decoder.next($0) }
        }
        XCTAssertEqual(first("Content-Type: x\r\n\r\n{}"), .malformed("missing Content-Length header"))
        XCTAssertEqual(
            first("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
            .malformed("conflicting Content-Length headers (2 and 3)"))
        XCTAssertEqual(
            first("Content-Length: 99999999999999999999\r\n\r\n"),
            .malformed("invalid Content-Length '99999999999999999999' (expected a non-negative integer)"))
        XCTAssertEqual(
            first("Content-Length 2\r\n\r\n{}"),
            .malformed("malformed header line 'Content-Length 2' (expected 'Name: value')"))
        XCTAssertEqual(
            first("Content-Length: 2\r\n: 2\r\n\r\n{}"), .malformed("malformed header line ': 2' (empty header name)"))
        let endless = "C" + String(repeating: "x", count: RPCFrameDecoder.maxHeaderBytes + 1)
        XCTAssertEqual(
            first(endless),
            .malformed("LSP header block longer than \(RPCFrameDecoder.maxHeaderBytes) bytes without a blank line"))
    }
}
