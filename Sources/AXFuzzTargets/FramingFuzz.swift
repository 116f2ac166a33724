import AXTransport
import AXWire

/// Both framings (newline-delimited and LSP Content-Length) of the transport's frame decoder. The first input byte
/// picks the framing (detected, NDJSON or LSP) and the size of the chunks the stream arrives in; the rest is the
/// stream. Checked: every answer stays inside the bytes given, every frame is at most the limit and no larger
/// than the input, every step makes progress, and the stream splits into the same frames (and the same final
/// error) whether it arrives at once or in chunks.
enum FramingFuzz {
    static let target = FuzzTarget(
        name: "framing",
        summary:
            "RPCFrameDecoder, both framings: frames inside the input and under the limit, same frames in any chunking",
        run: run)

    /// Small enough that inputs reach it; the header limit (8192) is fixed by the decoder.
    static let maxFrameBytes = 4096

    /// What a whole stream decodes to.
    struct Outcome: Equatable {
        var frames: [[UInt8]] = []
        var end = "end"
    }

    static func run(_ input: UnsafeRawBufferPointer) -> [String] {
        guard let control = input.first else { return [] }
        let stream = Array(input.dropFirst())
        let framing: RPCFraming
        switch control % 3 {
        case 0: framing = .unknown
        case 1: framing = .ndjson
        default: framing = .lsp
        }
        let chunk = Int(control / 3) + 1
        var check = FuzzCheck()
        let whole = decode(stream, framing: framing, chunk: max(stream.count, 1), check: &check)
        let chunked = decode(stream, framing: framing, chunk: chunk, check: &check)
        check.expect(
            whole == chunked,
            "\(framing) stream of \(stream.count) bytes decodes differently at once (\(whole.frames.count) frames, \(whole.end)) and in chunks of \(chunk) (\(chunked.frames.count) frames, \(chunked.end))"
        )
        return check.failures
    }

    /// Feeds `stream` in chunks of `chunk` bytes to a decoder the way the connection handler does: decode what is
    /// buffered until it needs more, then append the next chunk.
    static func decode(_ stream: [UInt8], framing: RPCFraming, chunk: Int, check: inout FuzzCheck) -> Outcome {
        var decoder = RPCFrameDecoder(maxFrameBytes: maxFrameBytes, framing: framing)
        var outcome = Outcome()
        var buffer: [UInt8] = []
        var fed = 0
        var steps = 0
        while true {
            steps += 1
            if steps > 4 * stream.count + 16 {
                check.fail("decoder made no progress after \(steps) steps on a \(stream.count)-byte stream")
                return outcome
            }
            let next = buffer.withUnsafeBytes { decoder.next($0) }
            switch next {
            case .frame(let start, let length, let consumed):
                guard start >= 0, length >= 0, start + length <= consumed, consumed <= buffer.count, consumed > 0 else {
                    check.fail(
                        "frame(start: \(start), length: \(length), consumed: \(consumed)) outside the \(buffer.count) buffered bytes"
                    )
                    return outcome
                }
                check.expect(length <= maxFrameBytes, "frame of \(length) bytes exceeds the limit of \(maxFrameBytes)")
                check.expect(
                    length <= stream.count, "frame of \(length) bytes is larger than the \(stream.count)-byte input")
                outcome.frames.append(Array(buffer[start..<(start + length)]))
                buffer.removeFirst(consumed)
            case .skip(let consumed):
                guard consumed > 0, consumed <= buffer.count else {
                    check.fail("skip(consumed: \(consumed)) with \(buffer.count) bytes buffered")
                    return outcome
                }
                buffer.removeFirst(consumed)
            case .needMore:
                if fed == stream.count {
                    outcome.end = buffer.isEmpty ? "end" : "incomplete"
                    return outcome
                }
                let upTo = min(stream.count, fed + chunk)
                buffer.append(contentsOf: stream[fed..<upTo])
                fed = upTo
            case .tooLarge(let size):
                check.expect(size > maxFrameBytes, "tooLarge(size: \(size)) at or under the limit of \(maxFrameBytes)")
                outcome.end = "tooLarge"
                return outcome
            case .malformed:
                outcome.end = "malformed"
                return outcome
            }
        }
    }
}
