/// Splits one direction of a JSON-RPC byte stream into messages, as `axquery record`'s proxy forwards it
/// (Specs/protocol.md framing: `Content-Length` headers when the stream starts with 'C' or 'c', else one message a
/// line). Bounded: a message is kept up to `maxFrameBytes` (a longer one is reported without its bytes and
/// skipped), a header block up to `maxHeaderBytes`; a stream whose headers do not parse is no longer split (it
/// is still forwarded: the server answers it). Pure.
package struct TraceFrameSplitter: Sendable {
    /// A message's end in the bytes just fed, and its bytes when they were kept.
    package struct Frame: Sendable, Equatable {
        /// The offset just past the message's last byte, within the chunk given to `feed`.
        package var end: Int
        /// The message (nil when it was longer than the bound).
        package var bytes: [UInt8]?

        package init(end: Int, bytes: [UInt8]?) {
            self.end = end
            self.bytes = bytes
        }
    }

    enum Mode: Sendable {
        case undecided, lines, headers
        case body(remaining: Int)
        case broken
    }

    package static let maxHeaderBytes = 8_192
    let maxFrameBytes: Int
    var mode = Mode.undecided
    var buffer: [UInt8] = []
    var oversize = false
    var contentLength = false

    package init(maxFrameBytes: Int) { self.maxFrameBytes = maxFrameBytes }

    /// Whether the stream could not be split (its headers did not parse); nothing more is reported.
    package var isBroken: Bool {
        if case .broken = mode { return true }
        return false
    }

    /// Feeds the next bytes; the messages that end in them, in order.
    package mutating func feed(_ chunk: ArraySlice<UInt8>) -> [Frame] {
        var frames: [Frame] = []
        var index = chunk.startIndex
        while index < chunk.endIndex {
            switch mode {
            case .broken:
                return frames
            case .undecided:
                let byte = chunk[index]
                if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                    index += 1
                    continue
                }
                contentLength = byte == UInt8(ascii: "C") || byte == UInt8(ascii: "c")
                mode = contentLength ? .headers : .lines
            case .lines:
                index = takeLine(chunk, from: index, into: &frames)
            case .headers:
                index = takeHeaders(chunk, from: index)
            case .body(let remaining):
                index = takeBody(chunk, from: index, remaining: remaining, into: &frames)
            }
        }
        return frames
    }

    private mutating func keep(_ bytes: ArraySlice<UInt8>) {
        guard !oversize else { return }
        if buffer.count + bytes.count > maxFrameBytes {
            oversize = true
            buffer = []
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    private mutating func emit(end: Int, chunkStart: Int, into frames: inout [Frame]) {
        frames.append(Frame(end: end - chunkStart, bytes: oversize ? nil : buffer))
        buffer = []
        oversize = false
    }

    private mutating func takeLine(_ chunk: ArraySlice<UInt8>, from index: Int, into frames: inout [Frame]) -> Int {
        guard let newline = chunk[index...].firstIndex(of: 0x0A) else {
            keep(chunk[index...])
            return chunk.endIndex
        }
        keep(chunk[index..<newline])
        let blank = !oversize && buffer.allSatisfy { $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }
        if blank {
            buffer = []
        } else {
            emit(end: newline + 1, chunkStart: chunk.startIndex, into: &frames)
        }
        return newline + 1
    }

    private mutating func takeHeaders(_ chunk: ArraySlice<UInt8>, from index: Int) -> Int {
        var at = index
        while at < chunk.endIndex {
            buffer.append(chunk[at])
            at += 1
            if buffer.count > Self.maxHeaderBytes {
                mode = .broken
                buffer = []
                return chunk.endIndex
            }
            if buffer.count >= 4 && buffer.suffix(4).elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]) {
                guard let length = Self.contentLength(buffer) else {
                    mode = .broken
                    buffer = []
                    return chunk.endIndex
                }
                buffer = []
                mode = .body(remaining: length)
                return at
            }
        }
        return at
    }

    private mutating func takeBody(
        _ chunk: ArraySlice<UInt8>, from index: Int, remaining: Int, into frames: inout [Frame]
    ) -> Int {
        let available = chunk.endIndex - index
        let take = min(available, remaining)
        keep(chunk[index..<(index + take)])
        let left = remaining - take
        if left == 0 {
            emit(end: index + take, chunkStart: chunk.startIndex, into: &frames)
            mode = .headers
        } else {
            mode = .body(remaining: left)
        }
        return index + take
    }

    /// The `Content-Length` of a header block (case-insensitive name; digits only, at most 9 of them).
    static func contentLength(_ header: [UInt8]) -> Int? {
        let text = String(decoding: header, as: UTF8.self)
        for line in text.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { continue }
            let digits = parts[1].trimmingSpaces()
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit) else { return nil }
            return Int(digits)
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
