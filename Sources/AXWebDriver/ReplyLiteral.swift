/// Finds and checks one JSON string literal in a JSON-RPC reply's bytes without decoding the reply (issue 35 item 5):
/// the page source arrives as the `xml` member of `tree.get`'s result, 2.4 MB at 10,000 elements, and Get Page
/// Source only hands it on as the `value` of its answer, so the literal is copied as it is (it already is JSON)
/// instead of being decoded into a `String` and escaped again.
///
/// Every wire byte is checked: a literal is only handed on when it is a valid JSON string (escapes among `\" \\ \/
/// \b \f \n \r \t \uXXXX`, a high surrogate escape followed by a low one and no lone surrogate, no control
/// character, valid UTF-8 — the rules of AXJSON's parser); anything else, truncated replies included, is nil and
/// the caller decodes the reply the ordinary way, which reports the error.
package enum ReplyLiteral {
    static let quote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C

    /// The range of the value of member `name` of the object starting (after whitespace) at `start`; nil when there
    /// is no object there, it has no such member, or it is malformed before the member.
    static func memberValue(_ name: String, inObjectAt start: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let valueStart = memberStart(name, inObjectAt: start, bytes), let end = valueEnd(bytes, valueStart)
        else { return nil }
        return valueStart..<end
    }

    /// Where the value of member `name` of the object starting (after whitespace) at `start` begins, without
    /// looking for its end (the page source's literal is then found and checked in one pass, `validStringEnd`);
    /// nil as for `memberValue`.
    static func memberStart(_ name: String, inObjectAt start: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var position = skipSpace(bytes, start)
        guard position < bytes.count, bytes[position] == 0x7B else { return nil }
        position += 1
        let wanted = Array(name.utf8)
        while true {
            position = skipSpace(bytes, position)
            guard position < bytes.count, bytes[position] == quote, let keyEnd = stringEnd(bytes, position) else {
                return nil
            }
            let isWanted = keyEnd - position - 2 == wanted.count && keyEquals(bytes, position + 1, wanted)
            position = skipSpace(bytes, keyEnd)
            guard position < bytes.count, bytes[position] == 0x3A else { return nil }
            let valueStart = skipSpace(bytes, position + 1)
            if isWanted { return valueStart < bytes.count ? valueStart : nil }
            guard let valueEnd = valueEnd(bytes, valueStart) else { return nil }
            position = skipSpace(bytes, valueEnd)
            guard position < bytes.count, bytes[position] == 0x2C else { return nil }
            position += 1
        }
    }

    static func keyEquals(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ wanted: [UInt8]) -> Bool {
        for offset in 0..<wanted.count where bytes[start + offset] != wanted[offset] { return false }
        return true
    }

    static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var position = start
        while position < bytes.count,
            bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09
        {
            position += 1
        }
        return position
    }

    /// One past the closing quote of the string starting at `start` (a quote); nil when it does not end.
    static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        var position = start + 1
        while position < bytes.count {
            position = plainRunEnd(bytes, position, bytes.count)
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            if byte == quote { return position + 1 }
            position += byte == backslash ? 2 : 1
        }
        return nil
    }

    /// The first offset in `start..<end` holding a quote, a backslash, a control character or a byte ≥ 0x80 (or
    /// `end`): eight bytes are looked at a time while none of them is one.
    static func plainRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        guard let base = bytes.baseAddress else { return end }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var position = start
        while position + 8 <= end {
            let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            let special =
                ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word)
                | word
            if special & highs != 0 { break }
            position += 8
        }
        while position < end {
            let byte = bytes[position]
            if byte == quote || byte == backslash || byte < 0x20 || byte >= 0x80 { return position }
            position += 1
        }
        return end
    }

    /// One past the value starting at `start`: a string, or anything up to the bracket that closes it (strings
    /// inside skipped whole) or up to the next `,` `}` `]` or whitespace for a scalar. The value is not checked
    /// (only the literal handed on is); nil when the input ends first.
    static func valueEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        let first = bytes[start]
        if first == quote { return stringEnd(bytes, start) }
        guard first == 0x7B || first == 0x5B else {
            var position = start
            while position < bytes.count {
                let byte = bytes[position]
                if byte == 0x2C || byte == 0x7D || byte == 0x5D || byte <= 0x20 { break }
                position += 1
            }
            return position > start ? position : nil
        }
        var depth = 0
        var position = start
        while position < bytes.count {
            let byte = bytes[position]
            if byte == quote {
                guard let end = stringEnd(bytes, position) else { return nil }
                position = end
                continue
            }
            if byte == 0x7B || byte == 0x5B { depth += 1 }
            if byte == 0x7D || byte == 0x5D {
                depth -= 1
                if depth == 0 { return position + 1 }
            }
            position += 1
        }
        return nil
    }

    /// Whether `range` (quotes included) is a valid JSON string literal under AXJSON's rules.
    static func isValidString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        range.count >= 2 && validStringEnd(bytes, range.lowerBound, before: range.upperBound) == range.upperBound
    }

    /// One past the closing quote of the valid JSON string literal (AXJSON's rules) starting at `start`, all of it
    /// before `limit`; nil when there is no quote at `start`, the literal is not valid or does not end in time.
    static func validStringEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, before limit: Int) -> Int? {
        guard start < limit, limit <= bytes.count, bytes[start] == quote else { return nil }
        var position = start + 1
        while position < limit {
            position = plainRunEnd(bytes, position, limit)
            guard position < limit else { return nil }
            let byte = bytes[position]
            if byte == quote { return position + 1 }
            if byte == backslash {
                guard let next = escapeEnd(bytes, position, limit) else { return nil }
                position = next
            } else if byte >= 0x80 {
                guard let next = utf8End(bytes, position, limit) else { return nil }
                position = next
            } else {
                return nil  // a control character
            }
        }
        return nil
    }

    /// One past the escape at `start` (a backslash), before `end`; nil when it is not a valid escape.
    static func escapeEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard start + 1 < end else { return nil }
        switch bytes[start + 1] {
        case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: return start + 2
        case 0x75:
            guard let unit = hex4(bytes, start + 2, end) else { return nil }
            if unit >= 0xDC00 && unit <= 0xDFFF { return nil }  // a lone low surrogate
            guard unit >= 0xD800 && unit <= 0xDBFF else { return start + 6 }
            guard start + 7 < end, bytes[start + 6] == backslash, bytes[start + 7] == 0x75,
                let low = hex4(bytes, start + 8, end), low >= 0xDC00 && low <= 0xDFFF
            else { return nil }  // a high surrogate not followed by a low one
            return start + 12
        default: return nil
        }
    }

    /// The value of the four hex digits at `start` (all before `end`); nil when they are not.
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt32? {
        guard start + 4 <= end else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[start + offset]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// One past the UTF-8 sequence at `start` (a byte ≥ 0x80), before `end`; nil when it is not well-formed
    /// (Unicode Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
    static func utf8End(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        let lead = bytes[start]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default: return nil
        }
        guard start + length <= end, secondRange.contains(bytes[start + 1]) else { return nil }
        for offset in 2..<length where bytes[start + offset] & 0xC0 != 0x80 { return nil }
        return start + length
    }
}
