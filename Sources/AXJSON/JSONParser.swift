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
//   occurrence (JSONObject semantics). With `JSONParseLimits.rejectDuplicateKeys` a repeated key is an error
//   ("duplicate key 'k'", at the repeated key's offset) instead.
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
    /// The start of the message of a repeated key refused under `JSONParseLimits.rejectDuplicateKeys`.
    public static let duplicateKeyPrefix = "duplicate key"
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
        var parser = _JSONParser(
            base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: limits.maxDepth)
        parser.rejectDuplicateKeys = limits.rejectDuplicateKeys
        return try parser.parseDocument()
    }

    /// Parses one JSON document from UTF-8 bytes.
    public static func parse(_ bytes: [UInt8], limits: JSONParseLimits = .default) throws(JSONParseError) -> JSON {
        let result: Result<JSON, JSONParseError> = bytes.withUnsafeBytes { buffer in
            do throws(JSONParseError) { return .success(try parse(buffer, limits: limits)) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses one JSON document from a string (its UTF-8 form).
    public static func parse(_ text: String, limits: JSONParseLimits = .default) throws(JSONParseError) -> JSON {
        var text = text
        let result: Result<JSON, JSONParseError> = text.withUTF8 { buffer in
            do throws(JSONParseError) {
                return .success(try parse(UnsafeRawBufferPointer(buffer), limits: limits))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

// MARK: - Implementation

@usableFromInline
struct _JSONParser {
    let input: UnsafePointer<UInt8>
    let length: Int
    var position: Int = 0
    var depth: Int = 0
    let maxDepth: Int
    var rejectDuplicateKeys = false
    var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
        self.input = base
        self.length = count
        self.maxDepth = maxDepth
    }

    // ASCII constants
    static let quote: UInt8 = 0x22, backslash: UInt8 = 0x5C, comma: UInt8 = 0x2C, colon: UInt8 = 0x3A
    static let lbrace: UInt8 = 0x7B, rbrace: UInt8 = 0x7D, lbracket: UInt8 = 0x5B, rbracket: UInt8 = 0x5D
    static let minus: UInt8 = 0x2D, plus: UInt8 = 0x2B, dot: UInt8 = 0x2E, zero: UInt8 = 0x30, nine: UInt8 = 0x39

    @inline(__always) func err(_ offset: Int, _ message: String) -> JSONParseError {
        JSONParseError(offset: offset, message: message)
    }

    /// The error of a repeated key (only when `rejectDuplicateKeys`); the key is cut to 64 characters.
    func duplicate(_ key: String, at offset: Int) -> JSONParseError {
        let shown = key.count > 64 ? String(key.prefix(64)) + "…" : key
        return err(offset, "\(JSONParseError.duplicateKeyPrefix) '\(shown)' (each key may appear once in an object)")
    }

    /// A human-readable description of the byte at `offset`, or "end of input".
    func describe(_ offset: Int) -> String {
        guard offset < length else { return "end of input" }
        let byte = input[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        switch byte {
        case 0x20: return "' '"
        case 0x0A: return "newline"
        case 0x0D: return "carriage return"
        case 0x09: return "tab"
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
        }
    }

    @inline(__always) mutating func skipWS() {
        while position < length {
            let byte = input[position]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 } else { return }
        }
    }

    mutating func parseDocument() throws(JSONParseError) -> JSON {
        if length >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF { position = 3 }
        skipWS()
        if position >= length { throw err(position, "empty input, expected a JSON value") }
        let value = try parseValue()
        skipWS()
        if position < length {
            throw err(
                position, "unexpected trailing data \(describe(position)) after the JSON value, expected end of input")
        }
        return value
    }

    mutating func parseValue() throws(JSONParseError) -> JSON {
        skipWS()
        guard position < length else { throw err(position, "unexpected end of input, expected a JSON value") }
        switch input[position] {
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
            throw err(position, "NaN and Infinity are not valid JSON numbers, expected a JSON value")
        default:
            throw err(position, "unexpected \(describe(position)), expected a JSON value")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let wordLength = word.utf8CodeUnitCount
        let wordBytes = word.utf8Start
        var offset = 0
        while offset < wordLength {
            if position + offset >= length || input[position + offset] != wordBytes[offset] {
                throw err(position + offset, "invalid literal, expected '\(word)'")
            }
            offset += 1
        }
        position += wordLength
    }

    @inline(__always) mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth {
            throw err(position, "\(JSONParseError.depthPrefix): more than \(maxDepth) nested arrays/objects")
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSON {
        try enter()
        position += 1  // '{'
        skipWS()
        if position < length && input[position] == Self.rbrace {
            position += 1
            depth -= 1
            return .object(JSONObject())
        }
        var object = JSONObject(minimumCapacity: 4)
        var keyIndexes: [String: Int]? = nil
        var afterComma = false
        while true {
            guard position < length, input[position] == Self.quote else {
                if afterComma && position < length && input[position] == Self.rbrace {
                    throw err(position, "trailing comma before '}' is not allowed, expected a string key")
                }
                throw err(
                    position,
                    afterComma
                        ? "unexpected \(describe(position)), expected a string key after ','"
                        : "unexpected \(describe(position)), expected a string key or '}'")
            }
            let keyOffset = position
            let key = try parseString()
            skipWS()
            guard position < length, input[position] == Self.colon else {
                throw err(position, "unexpected \(describe(position)), expected ':' after object key")
            }
            position += 1
            let value = try parseValue()
            guard
                Self.insert(key, value, into: &object, keyIndexes: &keyIndexes, rejectDuplicates: rejectDuplicateKeys)
            else { throw duplicate(key, at: keyOffset) }
            skipWS()
            guard position < length else { throw err(position, "unexpected end of input, expected ',' or '}'") }
            let byte = input[position]
            if byte == Self.comma {
                position += 1
                skipWS()
                afterComma = true
                continue
            }
            if byte == Self.rbrace {
                position += 1
                depth -= 1
                return .object(object)
            }
            throw err(position, "unexpected \(describe(position)), expected ',' or '}'")
        }
    }

    /// Adds one member to an object being parsed; false (nothing added) for a repeated key when duplicates are
    /// refused. Otherwise the last one wins (the position of the first occurrence is kept). From 12 members on,
    /// `keyIndexes` finds keys by hash. The key and value are taken owned: the parser's hot path, a copy of each
    /// would cost a retain and a release per member.
    @inline(__always) static func insert(
        _ key: __owned String, _ value: __owned JSON, into object: inout JSONObject, keyIndexes: inout [String: Int]?,
        rejectDuplicates: Bool
    ) -> Bool {
        if object.count < 12 {
            if object.keys.contains(key) {
                if rejectDuplicates { return false }
                object[key] = value
            } else {
                object.appendUnchecked(key, value)
            }
            if object.count == 12 {
                var positions = [String: Int](minimumCapacity: 32)
                for (keyIndex, name) in object.keys.enumerated() { positions[name] = keyIndex }
                keyIndexes = positions
            }
        } else {
            if let index = keyIndexes?[key] {
                if rejectDuplicates { return false }
                object.replaceValue(at: index, with: value)  // by the hash: a repeated key costs no search
            } else {
                keyIndexes?[key] = object.count
                object.appendUnchecked(key, value)
            }
        }
        return true
    }

    mutating func parseArray() throws(JSONParseError) -> JSON {
        try enter()
        position += 1  // '['
        skipWS()
        if position < length && input[position] == Self.rbracket {
            position += 1
            depth -= 1
            return .array([])
        }
        var elements: [JSON] = []
        elements.reserveCapacity(4)
        while true {
            let element = try parseValue()
            elements.append(element)
            skipWS()
            guard position < length else { throw err(position, "unexpected end of input, expected ',' or ']'") }
            let byte = input[position]
            if byte == Self.comma {
                position += 1
                skipWS()
                if position < length && input[position] == Self.rbracket {
                    throw err(position, "trailing comma before ']' is not allowed, expected a JSON value")
                }
                continue
            }
            if byte == Self.rbracket {
                position += 1
                depth -= 1
                return .array(elements)
            }
            throw err(position, "unexpected \(describe(position)), expected ',' or ']'")
        }
    }

    // MARK: strings

    /// Parses a string starting at the opening quote (input[position] == '"'); leaves position after the closing quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let open = position
        var end = position + 1
        // Fast path: plain ASCII without escapes.
        while end < length {
            let byte = input[end]
            if byte == Self.quote {
                position = end + 1
                return String(
                    decoding: UnsafeBufferPointer(start: input + open + 1, count: end - open - 1), as: UTF8.self)
            }
            if byte == Self.backslash || byte < 0x20 || byte >= 0x80 { break }
            end += 1
        }
        return try parseStringSlow(open: open, from: end)
    }

    mutating func parseStringSlow(open: Int, from: Int) throws(JSONParseError) -> String {
        var cursor = from
        var runStart = open + 1
        var usesScratch = false
        while true {
            guard cursor < length else { throw err(open, "unterminated string (no closing '\"' before end of input)") }
            let byte = input[cursor]
            if byte == Self.quote {
                let string: String
                if usesScratch {
                    scratch.append(contentsOf: UnsafeBufferPointer(start: input + runStart, count: cursor - runStart))
                    string = String(decoding: scratch, as: UTF8.self)
                } else {
                    string = String(
                        decoding: UnsafeBufferPointer(start: input + runStart, count: cursor - runStart), as: UTF8.self)
                }
                position = cursor + 1
                return string
            }
            if byte < 0x20 {
                let hex = String(byte, radix: 16, uppercase: true)
                throw err(
                    cursor,
                    "unescaped control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) in string (use an escape such as \\n or \\u00XX)"
                )
            }
            if byte < 0x80 && byte != Self.backslash {
                cursor += 1
                continue
            }
            if byte >= 0x80 {
                cursor = try validateUTF8(at: cursor)
                continue
            }
            // Escape.
            if !usesScratch {
                usesScratch = true
                scratch.removeAll(keepingCapacity: true)
            }
            scratch.append(contentsOf: UnsafeBufferPointer(start: input + runStart, count: cursor - runStart))
            cursor = try appendEscape(at: cursor)
            runStart = cursor
        }
    }

    /// Appends the character of the escape sequence at `cursor` (a backslash) to `scratch`; returns the offset after it.
    @inline(__always) mutating func appendEscape(at cursor: Int) throws(JSONParseError) -> Int {
        guard cursor + 1 < length else { throw err(cursor, "unterminated escape sequence at end of input") }
        let escaped = input[cursor + 1]
        if escaped == 0x75 {  // u
            return try appendUnicodeEscape(at: cursor)
        }
        guard let byte = Self.escapedByte(escaped) else {
            throw err(
                cursor,
                "invalid escape sequence '\\\(describeRaw(escaped))' in string (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"
            )
        }
        scratch.append(byte)
        return cursor + 2
    }

    /// The byte a one-character escape (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`) stands for; nil for any other.
    @inline(__always) static func escapedByte(_ escaped: UInt8) -> UInt8? {
        switch escaped {
        case 0x22: return 0x22
        case 0x5C: return 0x5C
        case 0x2F: return 0x2F
        case 0x62: return 0x08
        case 0x66: return 0x0C
        case 0x6E: return 0x0A
        case 0x72: return 0x0D
        case 0x74: return 0x09
        default: return nil
        }
    }

    /// Appends the scalar of the `\uXXXX` escape at `cursor` (a surrogate pair takes two escapes); returns the offset
    /// after it.
    mutating func appendUnicodeEscape(at cursor: Int) throws(JSONParseError) -> Int {
        let unit = try hex4(at: cursor + 2, escapeAt: cursor)
        if unit >= 0xDC00 && unit <= 0xDFFF {
            throw err(cursor, "unpaired low surrogate \\u\(hexString(unit))")
        }
        guard unit >= 0xD800 && unit <= 0xDBFF else {
            appendUTF8(unit)
            return cursor + 6
        }
        // Need a low surrogate next.
        guard cursor + 7 < length, input[cursor + 6] == Self.backslash, input[cursor + 7] == 0x75 else {
            throw err(
                cursor,
                "unpaired high surrogate \\u\(hexString(unit)) (expected a following \\uDC00-\\uDFFF escape)"
            )
        }
        let lowUnit = try hex4(at: cursor + 8, escapeAt: cursor + 6)
        guard lowUnit >= 0xDC00 && lowUnit <= 0xDFFF else {
            throw err(
                cursor + 6,
                "unpaired high surrogate \\u\(hexString(unit)) followed by \\u\(hexString(lowUnit)) which is not a low surrogate"
            )
        }
        appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (lowUnit - 0xDC00))
        return cursor + 12
    }

    func describeRaw(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return String(Character(Unicode.Scalar(byte))) }
        return "<0x" + String(byte, radix: 16, uppercase: true) + ">"
    }

    func hexString(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    func hex4(at start: Int, escapeAt: Int) throws(JSONParseError) -> UInt32 {
        guard start + 4 <= length else { throw err(escapeAt, "incomplete \\u escape, expected 4 hex digits") }
        var value: UInt32 = 0
        for digitIndex in 0..<4 {
            let byte = input[start + digitIndex]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default:
                throw err(
                    start + digitIndex,
                    "invalid \\u escape: unexpected \(describe(start + digitIndex)), expected 4 hex digits")
            }
            value = value << 4 | digit
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        if scalar < 0x80 {
            scratch.append(UInt8(scalar))
        } else if scalar < 0x800 {
            scratch.append(UInt8(0xC0 | (scalar >> 6)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        } else if scalar < 0x10000 {
            scratch.append(UInt8(0xE0 | (scalar >> 12)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        } else {
            scratch.append(UInt8(0xF0 | (scalar >> 18)))
            scratch.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// Validates one UTF-8 multi-byte sequence starting at `start` (input[start] >= 0x80); returns the index after it.
    func validateUTF8(at start: Int) throws(JSONParseError) -> Int {
        let lead = input[start]
        @inline(__always) func continuation(_ offset: Int) throws(JSONParseError) -> UInt8 {
            guard offset < length else { throw err(start, "invalid UTF-8: truncated multi-byte sequence") }
            let byte = input[offset]
            guard byte & 0xC0 == 0x80 else {
                throw err(
                    offset,
                    "invalid UTF-8: expected a continuation byte, found byte 0x\(String(byte, radix: 16, uppercase: true))"
                )
            }
            return byte
        }
        switch lead {
        case 0xC2...0xDF:
            _ = try continuation(start + 1)
            return start + 2
        case 0xE0...0xEF:
            let second = try continuation(start + 1)
            if lead == 0xE0 && second < 0xA0 { throw err(start, "invalid UTF-8: overlong 3-byte sequence") }
            if lead == 0xED && second >= 0xA0 {
                throw err(start, "invalid UTF-8: encoded UTF-16 surrogate (U+D800-U+DFFF)")
            }
            _ = try continuation(start + 2)
            return start + 3
        case 0xF0...0xF4:
            let second = try continuation(start + 1)
            if lead == 0xF0 && second < 0x90 { throw err(start, "invalid UTF-8: overlong 4-byte sequence") }
            if lead == 0xF4 && second >= 0x90 { throw err(start, "invalid UTF-8: code point above U+10FFFF") }
            _ = try continuation(start + 2)
            _ = try continuation(start + 3)
            return start + 4
        case 0x80...0xBF:
            throw err(
                start, "invalid UTF-8: unexpected continuation byte 0x\(String(lead, radix: 16, uppercase: true))")
        default:  // 0xC0, 0xC1, 0xF5...0xFF
            throw err(start, "invalid UTF-8: byte 0x\(String(lead, radix: 16, uppercase: true)) never appears in UTF-8")
        }
    }

    // MARK: numbers

    static let pow10: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The digits of a number literal as read so far: what Clinger's fast path needs.
    struct NumberDigits {
        var mantissa: UInt64 = 0
        /// Digits accumulated into `mantissa` (leading zeros of the integer part excluded).
        var significantDigits = 0
        var hasExtraDigits = false
        var fractionDigits = 0
        var exponent = 0
        var isInteger = true
    }

    @inline(__always) func isDigit(at index: Int) -> Bool {
        index < length && input[index] >= Self.zero && input[index] <= Self.nine
    }

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = position
        let isNegative = try parseMinus(start: start)
        var digits = NumberDigits()
        try parseIntegerDigits(into: &digits, start: start)
        if position < length && input[position] == Self.dot {
            try parseFractionDigits(into: &digits)
        }
        if position < length && (input[position] == 0x65 || input[position] == 0x45) {
            try parseExponent(into: &digits)
        }
        if let number = Self.exactDouble(digits, isNegative: isNegative) { return number }
        return try roundedDouble(from: start)
    }

    /// Reads an optional '-'; true when there was one.
    @inline(__always) mutating func parseMinus(start: Int) throws(JSONParseError) -> Bool {
        guard input[position] == Self.minus else { return false }
        position += 1
        guard position < length else { throw err(position, "unexpected end of input, expected a digit after '-'") }
        if input[position] == 0x49 {
            throw err(start, "NaN and Infinity are not valid JSON numbers, expected a JSON value")
        }
        return true
    }

    @inline(__always) mutating func parseIntegerDigits(into digits: inout NumberDigits, start: Int)
        throws(JSONParseError)
    {
        let firstDigit = input[position]
        if firstDigit == Self.zero {
            position += 1
            if isDigit(at: position) { throw err(start, "leading zeros are not allowed in numbers") }
        } else if firstDigit > Self.zero && firstDigit <= Self.nine {
            while isDigit(at: position) {
                if digits.significantDigits < 19 {
                    digits.mantissa = digits.mantissa &* 10 &+ UInt64(input[position] - Self.zero)
                    digits.significantDigits += 1
                } else {
                    digits.hasExtraDigits = true
                }
                position += 1
            }
        } else {
            throw err(position, "unexpected \(describe(position)), expected a digit after '-'")
        }
    }

    @inline(__always) mutating func parseFractionDigits(into digits: inout NumberDigits) throws(JSONParseError) {
        digits.isInteger = false
        position += 1
        guard isDigit(at: position) else {
            throw err(position, "unexpected \(describe(position)), expected a digit after '.'")
        }
        while isDigit(at: position) {
            if digits.significantDigits < 19 {
                digits.mantissa = digits.mantissa &* 10 &+ UInt64(input[position] - Self.zero)
                if digits.mantissa != 0 { digits.significantDigits += 1 }
                digits.fractionDigits += 1
            } else {
                digits.hasExtraDigits = true
            }
            position += 1
        }
    }

    @inline(__always) mutating func parseExponent(into digits: inout NumberDigits) throws(JSONParseError) {
        digits.isInteger = false
        position += 1
        var exponentIsNegative = false
        if position < length && (input[position] == Self.plus || input[position] == Self.minus) {
            exponentIsNegative = input[position] == Self.minus
            position += 1
        }
        guard isDigit(at: position) else {
            throw err(position, "unexpected \(describe(position)), expected a digit in the exponent")
        }
        var exponent = 0
        while isDigit(at: position) {
            if exponent < 100_000 { exponent = exponent * 10 + Int(input[position] - Self.zero) }
            position += 1
        }
        digits.exponent = exponentIsNegative ? -exponent : exponent
    }

    /// Fast, exactly-rounded paths (Clinger): mantissa < 2^53 and a power of ten that is exact in a Double; nil when
    /// the number needs the slow path.
    @inline(__always) static func exactDouble(_ digits: NumberDigits, isNegative: Bool) -> Double? {
        guard !digits.hasExtraDigits && digits.mantissa < (1 << 53) else { return nil }
        if digits.isInteger {
            let number = Double(digits.mantissa)
            return isNegative ? -number : number
        }
        let decimalExponent = digits.exponent - digits.fractionDigits
        if decimalExponent >= -22 && decimalExponent <= 22 {
            var number = Double(digits.mantissa)
            if decimalExponent < 0 {
                number /= Self.pow10[-decimalExponent]
            } else {
                number *= Self.pow10[decimalExponent]
            }
            return isNegative ? -number : number
        }
        if digits.mantissa == 0 { return isNegative ? -0.0 : 0.0 }
        return nil
    }

    /// Slow path: the standard library's correctly rounded conversion of the literal from `start` to `position`.
    mutating func roundedDouble(from start: Int) throws(JSONParseError) -> Double {
        let text = String(decoding: UnsafeBufferPointer(start: input + start, count: position - start), as: UTF8.self)
        guard let number = Double(text) else { throw err(start, "invalid number") }
        if !number.isFinite { throw err(start, "number out of range (magnitude too large for a 64-bit float)") }
        return number
    }
}
