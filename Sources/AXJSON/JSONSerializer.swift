// Compact and pretty JSON serialization straight into a byte buffer (no Foundation).
//
// - Numbers: integral values with |x| <= 2^53 print as integers ("3", not "3.0"; -0 prints "0");
//   other finite values print Swift's shortest round-trip form (`description`, e.g. "0.1", "1e-07", "1e+20");
//   NaN and ±Infinity have no JSON form and serialize as `null`.
// - Strings: '"', '\\' and control characters (< 0x20) are escaped (\b \f \n \r \t, else \u00XX);
//   everything else, including non-ASCII UTF-8 and '/', is written as is.
// - Objects are written in their stored key order.

extension JSON {
    /// Appends the compact serialization of this value to `out`.
    public func serialize(into out: inout [UInt8]) {
        _JSONWriter.write(self, into: &out)
    }

    /// The compact serialization as UTF-8 bytes.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        _JSONWriter.write(self, into: &out)
        return out
    }

    /// The compact serialization as a String.
    public var jsonString: String {
        String(decoding: serialized(), as: UTF8.self)
    }

    /// A pretty-printed serialization: one member per line, `indent` spaces per level, keys in stored order,
    /// `": "` between key and value, empty containers as `[]` / `{}`.
    public func prettyString(indent: Int = 2) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        _JSONWriter.writePretty(self, into: &out, indent: max(0, indent), level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `string` as a JSON string literal (quoted and escaped) to `out`.
    public static func serializeString(_ string: String, into out: inout [UInt8]) {
        _JSONWriter.writeString(string, into: &out)
    }

    /// Appends the JSON form of a number to `out` (see the file header for the format).
    public static func serializeNumber(_ number: Double, into out: inout [UInt8]) {
        _JSONWriter.writeNumber(number, into: &out)
    }

    /// Appends the decimal digits of `value` (no sign, no allocation).
    public static func serializeDigits(_ value: UInt64, into out: inout [UInt8]) {
        _JSONWriter.writeDigits(value, into: &out)
    }

    /// Appends UTF-8 `bytes` as a JSON string literal (quoted and escaped as `serializeString`): for text already
    /// written as bytes (a page source), so it need not become a `String` first.
    public static func serializeString(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(0x22)
        _JSONWriter.writeEscaped(bytes, into: &out)
        out.append(0x22)
    }
}

extension JSON: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { jsonString }
}

@usableFromInline
enum _JSONWriter {
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func write(_ value: JSON, into out: inout [UInt8]) {
        switch value {
        case .null: append(&out, "null")
        case .bool(let flag): if flag { append(&out, "true") } else { append(&out, "false") }
        case .number(let number): writeNumber(number, into: &out)
        case .string(let string): writeString(string, into: &out)
        case .array(let elements):
            out.append(0x5B)
            var first = true
            for element in elements {
                if first { first = false } else { out.append(0x2C) }
                write(element, into: &out)
            }
            out.append(0x5D)
        case .object(let object):
            out.append(0x7B)
            let keys = object.keys
            let values = object.values
            for index in 0..<keys.count {
                if index > 0 { out.append(0x2C) }
                writeString(keys[index], into: &out)
                out.append(0x3A)
                write(values[index], into: &out)
            }
            out.append(0x7D)
        }
    }

    static func writePretty(_ value: JSON, into out: inout [UInt8], indent: Int, level: Int) {
        switch value {
        case .array(let elements):
            if elements.isEmpty {
                append(&out, "[]")
                return
            }
            out.append(0x5B)
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(0x2C) }
                newline(&out, indent * (level + 1))
                writePretty(element, into: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent * level)
            out.append(0x5D)
        case .object(let object):
            if object.isEmpty {
                append(&out, "{}")
                return
            }
            out.append(0x7B)
            let keys = object.keys
            let values = object.values
            for index in 0..<keys.count {
                if index > 0 { out.append(0x2C) }
                newline(&out, indent * (level + 1))
                writeString(keys[index], into: &out)
                out.append(0x3A)
                out.append(0x20)
                writePretty(values[index], into: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent * level)
            out.append(0x7D)
        default:
            write(value, into: &out)
        }
    }

    @inline(__always) static func newline(_ out: inout [UInt8], _ spaces: Int) {
        out.append(0x0A)
        if spaces > 0 { out.append(contentsOf: repeatElement(0x20, count: spaces)) }
    }

    @inline(__always) static func append(_ out: inout [UInt8], _ text: StaticString) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    static func writeNumber(_ number: Double, into out: inout [UInt8]) {
        guard number.isFinite else {
            append(&out, "null")
            return
        }
        // Integral and within ±2^53: print as an integer (no libm call: the Int64 round trip tests integrality).
        if number.magnitude <= 9_007_199_254_740_992, case let integer = Int64(number), Double(integer) == number {
            if integer < 0 { out.append(0x2D) }
            writeDigits(integer.magnitude, into: &out)
            return
        }
        out.append(contentsOf: number.description.utf8)
    }

    /// The decimal digits of `value`, formed on the stack (no allocation) and appended in one copy.
    @inline(__always) static func writeDigits(_ value: UInt64, into out: inout [UInt8]) {
        if value < 10 {
            out.append(0x30 &+ UInt8(value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value
            var position = 20
            while magnitude > 0 {
                position -= 1
                digits[position] = 0x30 &+ UInt8(magnitude % 10)
                magnitude /= 10
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[position...]))
        }
    }

    static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(0x22)
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
            writeEscaped(bytes, into: &out)
        }
        if done == nil {
            var copy = string
            copy.withUTF8 { bytes in writeEscaped(bytes, into: &out) }
        }
        out.append(0x22)
    }

    /// Whether any of the eight bytes in `word` is a control character (< 0x20), '"' or '\\' (bytes ≥ 0x80
    /// never are: UTF-8 sequences are copied as they are).
    @inline(__always) static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let below20 = (word &- ones &* 0x20) & ~word & highs != 0
        return below20 || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }

    /// The escape sequence of one byte that needs one (a control character, '"' or '\\').
    @inline(__always) static func writeEscape(_ byte: UInt8, into out: inout [UInt8]) {
        out.append(0x5C)
        switch byte {
        case 0x22: out.append(0x22)
        case 0x5C: out.append(0x5C)
        case 0x0A: out.append(0x6E)
        case 0x0D: out.append(0x72)
        case 0x09: out.append(0x74)
        case 0x08: out.append(0x62)
        case 0x0C: out.append(0x66)
        default:
            out.append(0x75)
            out.append(0x30)
            out.append(0x30)
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0xF)])
        }
    }

    static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var runStart = 0
        var index = 0
        while index < count {
            // ASCII fast path: skip eight bytes at a time while none of them needs an escape.
            if index &+ 8 <= count, !needsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index &+= 8
                continue
            }
            let byte = base[index]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                index += 1
                continue
            }
            if index > runStart {
                out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
            }
            writeEscape(byte, into: &out)
            index += 1
            runStart = index
        }
        if count > runStart {
            out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
        }
    }
}
