import AXJSON
import AXRPCClient

/// The page source in a `tree.get` xml reply kept as the JSON string literal it arrived as (issue 35 item 5).
///
/// axdriver's connection reads each incoming frame with `decode` first (`RPCClient.decodeFrames`): in a reply whose
/// result says `"format":"xml"`, the `xml` literal is checked (`ReplyLiteral`) and kept as its JSON text under
/// `literalKey`; the rest of the reply is parsed as usual. Get Page Source writes the literal into its answer as it
/// is (it is JSON already, so the client reads the same string), and the page tree unescapes it straight into bytes:
/// the 2.4 MB string of a 10,000-element page is neither decoded into a `String` nor escaped again. A reply that does
/// not check out is left to the ordinary parser, which reports what is wrong.
enum PageSourceReply {
    /// The result member the page source's literal is kept under (the JSON text of the `xml` string, quotes included).
    static let literalKey = "axdriver:xmlLiteral"

    /// The reply `frame` with the page source kept as its literal; nil for any other frame (or one that does not
    /// check out), which the ordinary parser then reads.
    @Sendable static func decode(_ frame: UnsafeRawBufferPointer) -> JSON? {
        let bytes = frame.bindMemory(to: UInt8.self)
        // One pass over the literal: found and checked at once (the result's and the literal's ends are not looked
        // for first; the rest of the reply is parsed below, which checks its structure).
        guard let result = ReplyLiteral.memberStart("result", inObjectAt: 0, bytes),
            let format = ReplyLiteral.memberValue("format", inObjectAt: result, bytes),
            isXMLFormat(bytes, format),
            let literalStart = ReplyLiteral.memberStart("xml", inObjectAt: result, bytes),
            let literalEnd = ReplyLiteral.validStringEnd(bytes, literalStart, before: bytes.count)
        else { return nil }
        let literal = literalStart..<literalEnd
        var rest: [UInt8] = []
        rest.reserveCapacity(bytes.count - literal.count + 2)
        rest.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<literal.lowerBound]))
        rest.append(contentsOf: [ReplyLiteral.quote, ReplyLiteral.quote])
        rest.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[literal.upperBound...]))
        let limits = JSONParseLimits(maxDepth: RPCClient.maxReplyDepth, maxBytes: max(rest.count, 1))
        guard case .object(var message)? = try? JSON.parse(rest, limits: limits),
            case .object(var result)? = message["result"], result["xml"] == ""
        else { return nil }
        result["xml"] = nil
        result[literalKey] = .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[literal]), as: UTF8.self))
        message["result"] = .object(result)
        return .object(message)
    }

    static func isXMLFormat(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let wanted: [UInt8] = [0x22, 0x78, 0x6D, 0x6C, 0x22]  // "xml"
        return range.count == wanted.count && ReplyLiteral.keyEquals(bytes, range.lowerBound, wanted)
    }

    /// The page source of a `tree.get` xml result as a JSON string literal (quotes included): the literal as it
    /// came, or the `xml` string written as one when the reply was read the ordinary way.
    static func literal(_ result: JSON) -> String? {
        if let literal = result[literalKey]?.stringValue { return literal }
        guard let xml = result["xml"], xml.stringValue != nil else { return nil }
        return xml.jsonString
    }

    /// The page source of a `tree.get` xml result as UTF-8 bytes (for the page tree): the literal unescaped, or the
    /// `xml` string's bytes.
    static func utf8(_ result: JSON) -> [UInt8]? {
        if var literal = result[literalKey]?.stringValue {
            return literal.withUTF8 { unescaped($0) }
        }
        return result["xml"]?.stringValue.map { Array($0.utf8) }
    }

    /// The page source of a `tree.get` xml result as a string.
    static func string(_ result: JSON) -> String? {
        utf8(result).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The UTF-8 of the string a valid JSON string literal (quotes included, `ReplyLiteral.isValidString`) stands
    /// for: runs without a backslash copied whole, each escape written as its character; nil when it is not valid.
    static func unescaped(_ literal: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard ReplyLiteral.isValidString(literal, 0..<literal.count) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(literal.count)
        let end = literal.count - 1
        var runStart = 1
        var position = 1
        while position < end {
            position = ReplyLiteral.plainRunEnd(literal, position, end)
            guard position < end else { break }
            guard literal[position] == ReplyLiteral.backslash else {
                position += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: literal[runStart..<position]))
            position = appendEscape(literal, at: position, into: &out)
            runStart = position
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: literal[runStart..<end]))
        return out
    }

    /// Appends the character of the (valid) escape at `position` and answers the offset after it.
    static func appendEscape(_ literal: UnsafeBufferPointer<UInt8>, at position: Int, into out: inout [UInt8]) -> Int {
        let escaped = literal[position + 1]
        switch escaped {
        case 0x62: out.append(0x08)
        case 0x66: out.append(0x0C)
        case 0x6E: out.append(0x0A)
        case 0x72: out.append(0x0D)
        case 0x74: out.append(0x09)
        case 0x75:
            let unit = ReplyLiteral.hex4(literal, position + 2, literal.count) ?? 0xFFFD
            guard unit >= 0xD800 && unit <= 0xDBFF else {
                appendUTF8(unit, into: &out)
                return position + 6
            }
            let low = ReplyLiteral.hex4(literal, position + 8, literal.count) ?? 0xDC00
            appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), into: &out)
            return position + 12
        default: out.append(escaped)  // \" \\ \/
        }
        return position + 2
    }

    static func appendUTF8(_ scalar: UInt32, into out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80: out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
