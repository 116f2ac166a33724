import AXWire
import NIOCore

/// What the framing decoder passes on: one complete message (without its framing) or the framing error that ends
/// the connection.
enum RPCInboundFrame {
    /// The message's bytes (a slice of the read buffer, not a copy).
    case frame(ByteBuffer)
    /// A message larger than `maxFrameBytes` (its announced or buffered size).
    case tooLarge(size: Int)
    /// An LSP header block that cannot be read.
    case malformed(String)
}

/// Framing of one server connection: splits the bytes into newline-delimited JSON messages (or `Content-Length`
/// framed ones, detected from the first bytes) with `RPCFrameDecoder`, bounded by `maxFrameBytes`. Passes each
/// complete message on as an `RPCInboundFrame`, in order; after a framing error (too large, malformed header) it
/// passes that on and drops all further input. The bytes of an incomplete message wait here (`bufferedBytes`, for
/// the partial-frame timer); `framing` tells the connection handler how to frame its replies. Lives on the
/// channel's event loop.
final class RPCFrameDecodingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = RPCInboundFrame

    private var decoder: RPCFrameDecoder
    private var buffer: ByteBuffer?
    private var failed = false

    init(maxFrameBytes: Int) {
        self.decoder = RPCFrameDecoder(maxFrameBytes: maxFrameBytes)
    }

    /// How the client frames its messages (`.unknown` until its first bytes arrived).
    var framing: RPCFraming { decoder.framing }

    /// Bytes received that do not make a complete message yet.
    var bufferedBytes: Int { buffer?.readableBytes ?? 0 }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        var incoming = unwrapInboundIn(data)
        // Appended in place (optional chaining keeps the buffer uniquely referenced, so nothing is copied).
        if (buffer?.readableBytes ?? 0) == 0 {
            buffer = incoming
        } else {
            buffer?.writeBuffer(&incoming)
        }
        for item in decodeFrames() {
            context.fireChannelRead(wrapInboundOut(item))
        }
    }

    /// Takes the complete messages (and a framing error) out of the buffer.
    private func decodeFrames() -> [RPCInboundFrame] {
        guard let readable = buffer else { return [] }
        var spans: [(offset: Int, length: Int)] = []
        var failure: RPCInboundFrame?
        let consumed: Int = readable.withUnsafeReadableBytes { raw in
            var total = 0
            while true {
                switch decoder.next(UnsafeRawBufferPointer(rebasing: raw[total...])) {
                case .needMore:
                    return total
                case .skip(let count):
                    total += count
                case .frame(let start, let length, let frameBytes):
                    spans.append((total + start, length))
                    total += frameBytes
                case .tooLarge(let size):
                    failure = .tooLarge(size: size)
                    return total
                case .malformed(let why):
                    failure = .malformed(why)
                    return total
                }
            }
        }
        let sliced = Self.frames(of: readable, spans: spans)
        var items = sliced.frames.map(RPCInboundFrame.frame)
        if let fault = sliced.fault { failure = .malformed(fault) }
        if let failure {
            items.append(failure)
            failed = true
            buffer = nil
            return items
        }
        buffer?.moveReaderIndex(forwardBy: consumed)
        if (buffer?.readableBytes ?? 0) == 0 {
            buffer = nil
        } else if (buffer?.readerIndex ?? 0) > 65536 {
            buffer?.discardReadBytes()
        }
        return items
    }

    /// The frames `spans` (offsets from the reader index) mark in `readable`, as slices (not copies). A span outside
    /// the readable bytes (a decoder fault, never valid input) stops the list with a `fault` to report instead of a
    /// trap; the caller then ends the connection's reading like any framing error.
    static func frames(of readable: ByteBuffer, spans: [(offset: Int, length: Int)]) -> (
        frames: [ByteBuffer], fault: String?
    ) {
        let base = readable.readerIndex
        var frames: [ByteBuffer] = []
        frames.reserveCapacity(spans.count)
        for span in spans {
            guard span.offset >= 0, span.length >= 0,
                let slice = readable.getSlice(at: base + span.offset, length: span.length)
            else {
                let fault =
                    "a frame (offset \(span.offset), \(span.length) bytes) lies outside the \(readable.readableBytes) bytes received"
                return (frames, fault)
            }
            frames.append(slice)
        }
        return (frames, nil)
    }
}
