#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How messages are delimited on one connection. Detected from the first non-whitespace byte the client
/// sends: 'C' / 'c' selects LSP-style `Content-Length: N\r\n\r\n` headers, anything else (normally '{' or '[')
/// newline-delimited JSON. Replies use the same framing.
public enum RPCFraming: Sendable, Equatable {
    case unknown
    /// One JSON text per line (`\n`, optionally `\r\n`); blank lines are ignored.
    case ndjson
    /// `Content-Length: N\r\n` (+ other headers, ignored) `\r\n` then N bytes of JSON.
    case lsp
}

/// Splits a byte stream into frames. Pure state machine over the readable bytes of a buffer.
package struct RPCFrameDecoder {
    /// What `next(_:)` found.
    package enum Next: Equatable {
        /// A complete frame `[start, start+length)`; consume `consumed` bytes afterwards.
        case frame(start: Int, length: Int, consumed: Int)
        /// Only whitespace to drop (`consumed` bytes); call again.
        case skip(consumed: Int)
        case needMore
        /// The frame being received exceeds `maxFrameBytes` (declared or accumulated size).
        case tooLarge(size: Int)
        /// Unparseable LSP headers.
        case malformed(String)
    }

    package static let maxHeaderBytes = 8192

    /// The framing in use (detected from the first byte while `.unknown`).
    package var framing: RPCFraming = .unknown
    /// The largest frame accepted (declared or accumulated).
    package let maxFrameBytes: Int
    /// Bytes from the start of the readable region already searched for '\n' (NDJSON) without success.
    private var scanned = 0

    /// A decoder refusing frames over `maxFrameBytes`, with `framing` fixed or left to detection.
    package init(maxFrameBytes: Int, framing: RPCFraming = .unknown) {
        self.maxFrameBytes = maxFrameBytes
        self.framing = framing
    }

    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Splits off the complete frames at the start of `buffer`, handing each to `frame` in order. Answers the bytes
    /// they (and the whitespace between them) took, and whether the stream broke: a frame over `maxFrameBytes` or
    /// malformed headers, after which nothing more can be read from it.
    package mutating func split(_ buffer: UnsafeRawBufferPointer, frame: (UnsafeRawBufferPointer) -> Void) -> (
        consumed: Int, broken: Bool
    ) {
        var consumed = 0
        while true {
            let rest = UnsafeRawBufferPointer(rebasing: buffer[consumed...])
            switch next(rest) {
            case .needMore: return (consumed, false)
            case .skip(let count): consumed += count
            case .frame(let start, let length, let frameBytes):
                frame(UnsafeRawBufferPointer(rebasing: rest[start..<(start + length)]))
                consumed += frameBytes
            case .tooLarge, .malformed: return (consumed, true)
            }
        }
    }

    /// Looks at `buf` (the unconsumed bytes) and tells what comes next. After `.frame`/`.skip` the caller
    /// must drop `consumed` bytes before calling again.
    package mutating func next(_ buf: UnsafeRawBufferPointer) -> Next {
        let count = buf.count
        guard count > 0, let base = buf.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return .needMore }
        var ws = 0
        while ws < count && Self.isSpace(base[ws]) { ws += 1 }
        if ws > 0 {
            scanned = 0
            return .skip(consumed: ws)
        }
        if framing == .unknown {
            framing = (base[0] == 0x43 || base[0] == 0x63) ? .lsp : .ndjson
        }
        switch framing {
        case .ndjson, .unknown:
            let from = min(scanned, count)
            if let hit = memchr(base + from, 0x0A, count - from) {
                let nl = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
                scanned = 0
                var len = nl
                if len > 0 && base[len - 1] == 0x0D { len -= 1 }
                if len > maxFrameBytes { return .tooLarge(size: len) }
                return .frame(start: 0, length: len, consumed: nl + 1)
            }
            scanned = count
            if count > maxFrameBytes { return .tooLarge(size: count) }
            return .needMore
        case .lsp:
            return nextLSP(base, count)
        }
    }

    private mutating func nextLSP(_ base: UnsafePointer<UInt8>, _ byteCount: Int) -> Next {
        let end = Self.headerEnd(base, limit: min(byteCount, Self.maxHeaderBytes + 4))
        if end < 0 {
            if byteCount > Self.maxHeaderBytes {
                return .malformed("LSP header block longer than \(Self.maxHeaderBytes) bytes without a blank line")
            }
            return .needMore
        }
        let length: Int
        switch Self.contentLength(base, headerEnd: end) {
        case .failure(let error): return .malformed(error.message)
        case .success(let declared): length = declared
        }
        if length > maxFrameBytes { return .tooLarge(size: length) }
        let bodyStart = end + 4
        if byteCount - bodyStart < length { return .needMore }
        return .frame(start: bodyStart, length: length, consumed: bodyStart + length)
    }

    /// The offset of the blank line (CR LF CR LF) ending the header block within `limit` bytes, or -1.
    static func headerEnd(_ base: UnsafePointer<UInt8>, limit: Int) -> Int {
        var offset = 0
        while offset + 3 < limit {
            if base[offset] == 0x0D && base[offset + 1] == 0x0A && base[offset + 2] == 0x0D && base[offset + 3] == 0x0A
            {
                return offset
            }
            offset += 1
        }
        return -1
    }

    /// Why a header block is malformed.
    struct HeaderError: Error {
        let message: String
    }

    /// The Content-Length the header lines before `headerEnd` declare (every copy must agree).
    static func contentLength(_ base: UnsafePointer<UInt8>, headerEnd end: Int) -> Result<Int, HeaderError> {
        var contentLength: Int?
        var lineStart = 0
        while lineStart < end {
            var lineEnd = lineStart
            while lineEnd + 1 < end + 2 && !(base[lineEnd] == 0x0D && base[lineEnd + 1] == 0x0A) { lineEnd += 1 }
            let line = String(
                decoding: UnsafeBufferPointer(start: base + lineStart, count: lineEnd - lineStart), as: UTF8.self)
            switch headerLength(line) {
            case .failure(let error): return .failure(error)
            case .success(nil): break
            case .success(let length?):
                if let earlier = contentLength, earlier != length {
                    return .failure(
                        HeaderError(message: "conflicting Content-Length headers (\(earlier) and \(length))"))
                }
                contentLength = length
            }
            lineStart = lineEnd + 2
        }
        guard let length = contentLength else { return .failure(HeaderError(message: "missing Content-Length header")) }
        return .success(length)
    }

    /// One `Name: value` header line: the length a Content-Length line declares, nil for any other header.
    static func headerLength(_ line: String) -> Result<Int?, HeaderError> {
        guard let colon = line.firstIndex(of: ":") else {
            return .failure(HeaderError(message: "malformed header line \(Self.quote(line)) (expected 'Name: value')"))
        }
        let name = line[..<colon].trimmingSpaces.lowercased()
        let value = line[line.index(after: colon)...].trimmingSpaces
        if name.isEmpty {
            return .failure(HeaderError(message: "malformed header line \(Self.quote(line)) (empty header name)"))
        }
        guard name == "content-length" else { return .success(nil) }
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), value.utf8.count <= 18,
            let length = Int(value)
        else {
            return .failure(
                HeaderError(
                    message: "invalid Content-Length \(Self.quote(String(value))) (expected a non-negative integer)"))
        }
        return .success(length)
    }

    static func quote(_ text: String) -> String {
        let cut = text.count > 80 ? String(text.prefix(80)) + "…" : text
        return "'" + cut + "'"
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
