// A hand-written RFC 8259 JSON parser working directly on UTF-8 bytes (no Foundation).
//
// Rules (all documented behaviour, each covered by Tests/AXJSONTests):
// - Exactly one JSON value, optionally surrounded by whitespace (space, tab, CR, LF). Anything after it is
//   "unexpected trailing data". A leading UTF-8 byte-order mark (EF BB BF) is skipped (RFC 8259 §8.1 allows this).
// - Strings: all escapes of RFC 8259 including \uXXXX and surrogate pairs; unpaired surrogates, unescaped control
//   characters (< 0x20) and invalid UTF-8 (overlong forms, encoded surrogates, > U+10FFFF, truncated sequences,
//   stray continuation bytes) are rejected with the offset of the offending byte.
// - Numbers: the RFC grammar exactly. Leading zeros ("01"), a lone "-", "1.", ".5", "+1", NaN and Infinity are
//   rejected; numbers whose magnitude overflows a Double ("1e999") are rejected as "out of range".
// - Objects: duplicate keys are accepted and the LAST value wins; the key keeps the position of its first
//   occurrence (JSONObject semantics).
// - Limits: `JSONParseLimits.maxBytes` (input size) and `maxDepth` (nesting of arrays/objects; the top-level
//   container is depth 1). Exceeding either throws a JSONParseError whose `kind` tells which limit.

extension JSONParseError {
    /// The class of a parse error, so callers (e.g. the JSON-RPC layer) can map limit violations differently
    /// from syntax errors.
    public enum Kind: Sendable, Equatable {
        /// Malformed JSON: unexpected character, bad literal, bad number, trailing data, …
        case syntax
        /// Bytes that are not valid UTF-8, or an unpaired UTF-16 surrogate escape.
        case encoding
        /// Nesting deeper than `JSONParseLimits.maxDepth`.
        case depthLimit
        /// Input larger than `JSONParseLimits.maxBytes`.
        case sizeLimit
    }

    /// The class of this error (derived from the message for errors made by hand with `init(offset:message:)`).
    public var kind: Kind {
        if message.hasPrefix(JSONParseError.depthPrefix) { return .depthLimit }
        if message.hasPrefix(JSONParseError.sizePrefix) { return .sizeLimit }
        if message.hasPrefix("invalid UTF-8") || message.hasPrefix("unpaired") { return .encoding }
        return .syntax
    }

    static let depthPrefix = "nesting too deep"
    static let sizePrefix = "input too large"
}

extension JSON {
    /// Parses one JSON document from raw UTF-8 bytes. See the file header of JSONParser.swift for the rules.
    public static func parse(_ bytes: UnsafeRawBufferPointer, limits: JSONParseLimits = .default) throws(JSONParseError)
        -> JSON
    {
        if bytes.count > limits.maxBytes {
            throw JSONParseError(
                offset: limits.maxBytes,
                message:
                    "\(JSONParseError.sizePrefix): \(bytes.count) bytes exceeds the limit of \(limits.maxBytes) bytes")
        }
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw JSONParseError(offset: 0, message: "empty input, expected a JSON value")
        }
        var p = _JSONParser(
            base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: limits.maxDepth)
        return try p.parseDocument()
    }

    /// Parses one JSON document from UTF-8 bytes.
    public static func parse(_ bytes: [UInt8], limits: JSONParseLimits = .default) throws(JSONParseError) -> JSON {
        let r: Result<JSON, JSONParseError> = bytes.withUnsafeBytes { buf in
            do throws(JSONParseError) { return .success(try parse(buf, limits: limits)) } catch {
                return .failure(error)
            }
        }
        return try r.get()
    }

    /// Parses one JSON document from a string (its UTF-8 form).
    public static func parse(_ s: String, limits: JSONParseLimits = .default) throws(JSONParseError) -> JSON {
        var s = s
        let r: Result<JSON, JSONParseError> = s.withUTF8 { buf in
            do throws(JSONParseError) { return .success(try parse(UnsafeRawBufferPointer(buf), limits: limits)) } catch
            {
                return .failure(error)
            }
        }
        return try r.get()
    }
}

// MARK: - Implementation

@usableFromInline
struct _JSONParser {
    let p: UnsafePointer<UInt8>
    let n: Int
    var i: Int = 0
    var depth: Int = 0
    let maxDepth: Int
    var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
        self.p = base
        self.n = count
        self.maxDepth = maxDepth
    }

    // ASCII constants
    static let quote: UInt8 = 0x22, backslash: UInt8 = 0x5C, comma: UInt8 = 0x2C, colon: UInt8 = 0x3A
    static let lbrace: UInt8 = 0x7B, rbrace: UInt8 = 0x7D, lbracket: UInt8 = 0x5B, rbracket: UInt8 = 0x5D
    static let minus: UInt8 = 0x2D, plus: UInt8 = 0x2B, dot: UInt8 = 0x2E, zero: UInt8 = 0x30, nine: UInt8 = 0x39

    @inline(__always) func err(_ offset: Int, _ message: String) -> JSONParseError {
        JSONParseError(offset: offset, message: message)
    }

    /// A human-readable description of the byte at `offset`, or "end of input".
    func describe(_ offset: Int) -> String {
        guard offset < n else { return "end of input" }
        let b = p[offset]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        switch b {
        case 0x20: return "' '"
        case 0x0A: return "newline"
        case 0x0D: return "carriage return"
        case 0x09: return "tab"
        default:
            let hex = String(b, radix: 16, uppercase: true)
            return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
        }
    }

    @inline(__always) mutating func skipWS() {
        while i < n {
            let b = p[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { return }
        }
    }

    mutating func parseDocument() throws(JSONParseError) -> JSON {
        if n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { i = 3 }
        skipWS()
        if i >= n { throw err(i, "empty input, expected a JSON value") }
        let v = try parseValue()
        skipWS()
        if i < n { throw err(i, "unexpected trailing data \(describe(i)) after the JSON value, expected end of input") }
        return v
    }

    mutating func parseValue() throws(JSONParseError) -> JSON {
        skipWS()
        guard i < n else { throw err(i, "unexpected end of input, expected a JSON value") }
        switch p[i] {
        case Self.lbrace: return try parseObject()
        case Self.lbracket: return try parseArray()
        case Self.quote: return .string(try parseString())
        case 0x74:
            try literal("true")
            return .bool(true)
        case 0x66:
            try literal("false")
            return .bool(false)
        case 0x6E:
            try literal("null")
            return .null
        case Self.minus, Self.zero...Self.nine: return .number(try parseNumber())
        case 0x4E, 0x49:  // N, I
            throw err(i, "NaN and Infinity are not valid JSON numbers, expected a JSON value")
        default:
            throw err(i, "unexpected \(describe(i)), expected a JSON value")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let len = word.utf8CodeUnitCount
        let w = word.utf8Start
        var k = 0
        while k < len {
            if i + k >= n || p[i + k] != w[k] {
                throw err(i + k, "invalid literal, expected '\(word)'")
            }
            k += 1
        }
        i += len
    }

    @inline(__always) mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth {
            throw err(i, "\(JSONParseError.depthPrefix): more than \(maxDepth) nested arrays/objects")
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSON {
        try enter()
        i += 1  // '{'
        skipWS()
        if i < n && p[i] == Self.rbrace {
            i += 1
            depth -= 1
            return .object(JSONObject())
        }
        var obj = JSONObject(minimumCapacity: 4)
        var index: [String: Int]? = nil
        var afterComma = false
        while true {
            guard i < n, p[i] == Self.quote else {
                if afterComma && i < n && p[i] == Self.rbrace {
                    throw err(i, "trailing comma before '}' is not allowed, expected a string key")
                }
                throw err(
                    i,
                    afterComma
                        ? "unexpected \(describe(i)), expected a string key after ','"
                        : "unexpected \(describe(i)), expected a string key or '}'")
            }
            let key = try parseString()
            skipWS()
            guard i < n, p[i] == Self.colon else {
                throw err(i, "unexpected \(describe(i)), expected ':' after object key")
            }
            i += 1
            let value = try parseValue()
            // Duplicate keys: last one wins (position of the first occurrence is kept).
            if obj.count < 12 {
                if obj.keys.contains(key) { obj[key] = value } else { obj.appendUnchecked(key, value) }
                if obj.count == 12 {
                    var d = [String: Int](minimumCapacity: 32)
                    for (k, name) in obj.keys.enumerated() { d[name] = k }
                    index = d
                }
            } else {
                if index![key] != nil {
                    obj[key] = value
                } else {
                    index![key] = obj.count
                    obj.appendUnchecked(key, value)
                }
            }
            skipWS()
            guard i < n else { throw err(i, "unexpected end of input, expected ',' or '}'") }
            let c = p[i]
            if c == Self.comma {
                i += 1
                skipWS()
                afterComma = true
                continue
            }
            if c == Self.rbrace {
                i += 1
                depth -= 1
                return .object(obj)
            }
            throw err(i, "unexpected \(describe(i)), expected ',' or '}'")
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSON {
        try enter()
        i += 1  // '['
        skipWS()
        if i < n && p[i] == Self.rbracket {
            i += 1
            depth -= 1
            return .array([])
        }
        var arr: [JSON] = []
        arr.reserveCapacity(4)
        while true {
            let v = try parseValue()
            arr.append(v)
            skipWS()
            guard i < n else { throw err(i, "unexpected end of input, expected ',' or ']'") }
            let c = p[i]
            if c == Self.comma {
                i += 1
                skipWS()
                if i < n && p[i] == Self.rbracket {
                    throw err(i, "trailing comma before ']' is not allowed, expected a JSON value")
                }
                continue
            }
            if c == Self.rbracket {
                i += 1
                depth -= 1
                return .array(arr)
            }
            throw err(i, "unexpected \(describe(i)), expected ',' or ']'")
        }
    }

    // MARK: strings

    /// Parses a string starting at the opening quote (p[i] == '"'); leaves i after the closing quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let open = i
        var j = i + 1
        // Fast path: plain ASCII without escapes.
        while j < n {
            let b = p[j]
            if b == Self.quote {
                i = j + 1
                return String(decoding: UnsafeBufferPointer(start: p + open + 1, count: j - open - 1), as: UTF8.self)
            }
            if b == Self.backslash || b < 0x20 || b >= 0x80 { break }
            j += 1
        }
        return try parseStringSlow(open: open, from: j)
    }

    mutating func parseStringSlow(open: Int, from: Int) throws(JSONParseError) -> String {
        var j = from
        var runStart = open + 1
        var usesScratch = false
        while true {
            guard j < n else { throw err(open, "unterminated string (no closing '\"' before end of input)") }
            let b = p[j]
            if b == Self.quote {
                let s: String
                if usesScratch {
                    scratch.append(contentsOf: UnsafeBufferPointer(start: p + runStart, count: j - runStart))
                    s = String(decoding: scratch, as: UTF8.self)
                } else {
                    s = String(decoding: UnsafeBufferPointer(start: p + runStart, count: j - runStart), as: UTF8.self)
                }
                i = j + 1
                return s
            }
            if b < 0x20 {
                let hex = String(b, radix: 16, uppercase: true)
                throw err(
                    j,
                    "unescaped control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) in string (use an escape such as \\n or \\u00XX)"
                )
            }
            if b < 0x80 && b != Self.backslash {
                j += 1
                continue
            }
            if b >= 0x80 {
                j = try validateUTF8(at: j)
                continue
            }
            // Escape.
            if !usesScratch {
                usesScratch = true
                scratch.removeAll(keepingCapacity: true)
            }
            scratch.append(contentsOf: UnsafeBufferPointer(start: p + runStart, count: j - runStart))
            guard j + 1 < n else { throw err(j, "unterminated escape sequence at end of input") }
            let e = p[j + 1]
            switch e {
            case 0x22:
                scratch.append(0x22)
                j += 2
            case 0x5C:
                scratch.append(0x5C)
                j += 2
            case 0x2F:
                scratch.append(0x2F)
                j += 2
            case 0x62:
                scratch.append(0x08)
                j += 2
            case 0x66:
                scratch.append(0x0C)
                j += 2
            case 0x6E:
                scratch.append(0x0A)
                j += 2
            case 0x72:
                scratch.append(0x0D)
                j += 2
            case 0x74:
                scratch.append(0x09)
                j += 2
            case 0x75:  // u
                let u1 = try hex4(at: j + 2, escapeAt: j)
                var scalar: UInt32
                if u1 >= 0xD800 && u1 <= 0xDBFF {
                    // Need a low surrogate next.
                    guard j + 7 < n, p[j + 6] == Self.backslash, p[j + 7] == 0x75 else {
                        throw err(
                            j,
                            "unpaired high surrogate \\u\(hexString(u1)) (expected a following \\uDC00-\\uDFFF escape)")
                    }
                    let u2 = try hex4(at: j + 8, escapeAt: j + 6)
                    guard u2 >= 0xDC00 && u2 <= 0xDFFF else {
                        throw err(
                            j + 6,
                            "unpaired high surrogate \\u\(hexString(u1)) followed by \\u\(hexString(u2)) which is not a low surrogate"
                        )
                    }
                    scalar = 0x10000 + ((u1 - 0xD800) << 10) + (u2 - 0xDC00)
                    j += 12
                } else if u1 >= 0xDC00 && u1 <= 0xDFFF {
                    throw err(j, "unpaired low surrogate \\u\(hexString(u1))")
                } else {
                    scalar = u1
                    j += 6
                }
                appendUTF8(scalar)
            default:
                throw err(
                    j,
                    "invalid escape sequence '\\\(describeRaw(e))' in string (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"
                )
            }
            runStart = j
        }
    }

    func describeRaw(_ b: UInt8) -> String {
        if b >= 0x21 && b < 0x7F { return String(Character(Unicode.Scalar(b))) }
        return "<0x" + String(b, radix: 16, uppercase: true) + ">"
    }

    func hexString(_ v: UInt32) -> String {
        let h = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    func hex4(at k: Int, escapeAt: Int) throws(JSONParseError) -> UInt32 {
        guard k + 4 <= n else { throw err(escapeAt, "incomplete \\u escape, expected 4 hex digits") }
        var v: UInt32 = 0
        for m in 0..<4 {
            let c = p[k + m]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw err(k + m, "invalid \\u escape: unexpected \(describe(k + m)), expected 4 hex digits")
            }
            v = v << 4 | d
        }
        return v
    }

    mutating func appendUTF8(_ s: UInt32) {
        if s < 0x80 {
            scratch.append(UInt8(s))
        } else if s < 0x800 {
            scratch.append(UInt8(0xC0 | (s >> 6)))
            scratch.append(UInt8(0x80 | (s & 0x3F)))
        } else if s < 0x10000 {
            scratch.append(UInt8(0xE0 | (s >> 12)))
            scratch.append(UInt8(0x80 | ((s >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (s & 0x3F)))
        } else {
            scratch.append(UInt8(0xF0 | (s >> 18)))
            scratch.append(UInt8(0x80 | ((s >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((s >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (s & 0x3F)))
        }
    }

    /// Validates one UTF-8 multi-byte sequence starting at `k` (p[k] >= 0x80); returns the index after it.
    func validateUTF8(at k: Int) throws(JSONParseError) -> Int {
        let b0 = p[k]
        @inline(__always) func cont(_ idx: Int) throws(JSONParseError) -> UInt8 {
            guard idx < n else { throw err(k, "invalid UTF-8: truncated multi-byte sequence") }
            let c = p[idx]
            guard c & 0xC0 == 0x80 else {
                throw err(
                    idx,
                    "invalid UTF-8: expected a continuation byte, found byte 0x\(String(c, radix: 16, uppercase: true))"
                )
            }
            return c
        }
        switch b0 {
        case 0xC2...0xDF:
            _ = try cont(k + 1)
            return k + 2
        case 0xE0...0xEF:
            let b1 = try cont(k + 1)
            if b0 == 0xE0 && b1 < 0xA0 { throw err(k, "invalid UTF-8: overlong 3-byte sequence") }
            if b0 == 0xED && b1 >= 0xA0 { throw err(k, "invalid UTF-8: encoded UTF-16 surrogate (U+D800-U+DFFF)") }
            _ = try cont(k + 2)
            return k + 3
        case 0xF0...0xF4:
            let b1 = try cont(k + 1)
            if b0 == 0xF0 && b1 < 0x90 { throw err(k, "invalid UTF-8: overlong 4-byte sequence") }
            if b0 == 0xF4 && b1 >= 0x90 { throw err(k, "invalid UTF-8: code point above U+10FFFF") }
            _ = try cont(k + 2)
            _ = try cont(k + 3)
            return k + 4
        case 0x80...0xBF:
            throw err(k, "invalid UTF-8: unexpected continuation byte 0x\(String(b0, radix: 16, uppercase: true))")
        default:  // 0xC0, 0xC1, 0xF5...0xFF
            throw err(k, "invalid UTF-8: byte 0x\(String(b0, radix: 16, uppercase: true)) never appears in UTF-8")
        }
    }

    // MARK: numbers

    static let pow10: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = i
        var neg = false
        if p[i] == Self.minus {
            neg = true
            i += 1
            guard i < n else { throw err(i, "unexpected end of input, expected a digit after '-'") }
            if p[i] == 0x49 { throw err(start, "NaN and Infinity are not valid JSON numbers, expected a JSON value") }
        }
        var mantissa: UInt64 = 0
        var sigDigits = 0  // digits accumulated into mantissa (leading zeros of the integer part excluded)
        var tooMany = false
        let c0 = p[i]
        if c0 == Self.zero {
            i += 1
            if i < n && p[i] >= Self.zero && p[i] <= Self.nine {
                throw err(start, "leading zeros are not allowed in numbers")
            }
        } else if c0 > Self.zero && c0 <= Self.nine {
            while i < n {
                let c = p[i]
                guard c >= Self.zero && c <= Self.nine else { break }
                if sigDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(c - Self.zero)
                    sigDigits += 1
                } else {
                    tooMany = true
                }
                i += 1
            }
        } else {
            throw err(i, "unexpected \(describe(i)), expected a digit after '-'")
        }
        var fracDigits = 0
        var isInteger = true
        if i < n && p[i] == Self.dot {
            isInteger = false
            i += 1
            guard i < n, p[i] >= Self.zero && p[i] <= Self.nine else {
                throw err(i, "unexpected \(describe(i)), expected a digit after '.'")
            }
            while i < n {
                let c = p[i]
                guard c >= Self.zero && c <= Self.nine else { break }
                if sigDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(c - Self.zero)
                    if mantissa != 0 { sigDigits += 1 }
                    fracDigits += 1
                } else {
                    tooMany = true
                }
                i += 1
            }
        }
        var exp = 0
        if i < n && (p[i] == 0x65 || p[i] == 0x45) {
            isInteger = false
            i += 1
            var eneg = false
            if i < n && (p[i] == Self.plus || p[i] == Self.minus) {
                eneg = p[i] == Self.minus
                i += 1
            }
            guard i < n, p[i] >= Self.zero && p[i] <= Self.nine else {
                throw err(i, "unexpected \(describe(i)), expected a digit in the exponent")
            }
            while i < n {
                let c = p[i]
                guard c >= Self.zero && c <= Self.nine else { break }
                if exp < 100_000 { exp = exp * 10 + Int(c - Self.zero) }
                i += 1
            }
            if eneg { exp = -exp }
        }
        // Fast, exactly-rounded paths (Clinger): mantissa < 2^53 and a power of ten that is exact in a Double.
        if !tooMany && mantissa < (1 << 53) {
            if isInteger {
                let d = Double(mantissa)
                return neg ? -d : d
            }
            let e10 = exp - fracDigits
            if e10 >= -22 && e10 <= 22 {
                var d = Double(mantissa)
                if e10 < 0 { d /= Self.pow10[-e10] } else { d *= Self.pow10[e10] }
                return neg ? -d : d
            }
            if mantissa == 0 { return neg ? -0.0 : 0.0 }
        }
        // Slow path: the standard library's correctly rounded conversion.
        let text = String(decoding: UnsafeBufferPointer(start: p + start, count: i - start), as: UTF8.self)
        guard let d = Double(text) else { throw err(start, "invalid number") }
        if !d.isFinite { throw err(start, "number out of range (magnitude too large for a 64-bit float)") }
        return d
    }
}
