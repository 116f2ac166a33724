import AXJSON
import AXJSONRPC

/// A result as `RPCClient.callForBytes` hands it on: the server's bytes, or the parsed value when the answer did not
/// have the server's result-frame shape.
public enum RPCResult: Sendable {
    /// The answer's bytes, unparsed.
    case bytes(RPCResultBytes)
    /// The answer as the ordinary parser read it.
    case parsed(JSON)
}

/// One result frame as the server wrote it, `{"jsonrpc":"2.0","id":N,"result":RESULT}`, and where `RESULT` is in it.
///
/// Nothing in `result` has been checked yet: the reader parses what it reads of it, and a reader that finds it is
/// not one JSON value reads `frame` whole with `decodedWhole()` (exactly what the ordinary parser makes of it).
public struct RPCResultBytes: Sendable {
    /// The whole frame (without its newline).
    public let frame: [UInt8]
    /// The bytes of the result value in `frame` (not yet checked to be one JSON value).
    public let result: Range<Int>

    /// A frame and its result's range.
    public init(frame: [UInt8], result: Range<Int>) {
        self.frame = frame
        self.result = result
    }

    static let head: [UInt8] = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    static let middle: [UInt8] = Array(#","result":"#.utf8)
    /// The most digits an id is read with (the client's ids are small counters).
    static let maxIDDigits = 15

    /// The id and the result's range of a frame of the server's shape: the exact head, an id of digits (no leading
    /// zero), `,"result":`, the result and the closing `}` (then only JSON whitespace); nil for anything else.
    static func peek(_ frame: UnsafeRawBufferPointer) -> (id: Int64, result: Range<Int>)? {
        let bytes = frame.bindMemory(to: UInt8.self)
        guard bytes.count > head.count + middle.count + 2, bytes.starts(with: head) else { return nil }
        var position = head.count
        var id: Int64 = 0
        let digitsStart = position
        while position < bytes.count, position - digitsStart < maxIDDigits, let digit = digitValue(bytes[position]) {
            id = id * 10 + Int64(digit)
            position += 1
        }
        let digits = position - digitsStart
        guard digits > 0, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
        guard UnsafeBufferPointer(rebasing: bytes[position...]).starts(with: middle) else { return nil }
        let start = position + middle.count
        var end = bytes.count
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        guard end > start + 1, bytes[end - 1] == UInt8(ascii: "}") else { return nil }
        return (id, start..<(end - 1))
    }

    static func digitValue(_ byte: UInt8) -> UInt8? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : nil
    }

    /// JSON's whitespace (RFC 8259 §2): space, tab, line feed, carriage return.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The result as the ordinary parser reads the whole frame: its `result`, or the error the frame carries, or a
    /// parse error saying what is wrong.
    public func decodedWhole() throws(RPCError) -> JSON {
        let limits = JSONParseLimits(maxDepth: RPCClient.maxReplyDepth, maxBytes: max(frame.count, 1))
        let message: JSON
        do { message = try JSON.parse(frame, limits: limits) } catch {
            throw RPCError(code: RPCError.Code.parseError, message: "the server's answer is not valid JSON: \(error)")
        }
        switch RPCInbound.classify(message) {
        case .response(_, .success(let result)): return result
        case .response(_, .failure(let error)): throw error
        case .request, .notification, .invalid:
            throw RPCError(code: RPCError.Code.parseError, message: "the server's answer is not a JSON-RPC response")
        }
    }
}
