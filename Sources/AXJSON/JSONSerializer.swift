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

    /// Appends `s` as a JSON string literal (quoted and escaped) to `out`.
    public static func serializeString(_ s: String, into out: inout [UInt8]) {
        _JSONWriter.writeString(s, into: &out)
    }

    /// Appends the JSON form of a number to `out` (see the file header for the format).
    public static func serializeNumber(_ d: Double, into out: inout [UInt8]) {
        _JSONWriter.writeNumber(d, into: &out)
    }
}

extension JSON: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { jsonString }
}

@usableFromInline
enum _JSONWriter {
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func write(_ v: JSON, into out: inout [UInt8]) {
        switch v {
        case .null: append(&out, "null")
        case .bool(let b): if b { append(&out, "true") } else { append(&out, "false") }
        case .number(let d): writeNumber(d, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .array(let a):
            out.append(0x5B)
            var first = true
            for e in a {
                if first { first = false } else { out.append(0x2C) }
                write(e, into: &out)
            }
            out.append(0x5D)
        case .object(let o):
            out.append(0x7B)
            let keys = o.keys
            let values = o.values
            for k in 0..<keys.count {
                if k > 0 { out.append(0x2C) }
                writeString(keys[k], into: &out)
                out.append(0x3A)
                write(values[k], into: &out)
            }
            out.append(0x7D)
        }
    }

    static func writePretty(_ v: JSON, into out: inout [UInt8], indent: Int, level: Int) {
        switch v {
        case .array(let a):
            if a.isEmpty {
                append(&out, "[]")
                return
            }
            out.append(0x5B)
            for (k, e) in a.enumerated() {
                if k > 0 { out.append(0x2C) }
                newline(&out, indent * (level + 1))
                writePretty(e, into: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent * level)
            out.append(0x5D)
        case .object(let o):
            if o.isEmpty {
                append(&out, "{}")
                return
            }
            out.append(0x7B)
            let keys = o.keys
            let values = o.values
            for k in 0..<keys.count {
                if k > 0 { out.append(0x2C) }
                newline(&out, indent * (level + 1))
                writeString(keys[k], into: &out)
                out.append(0x3A)
                out.append(0x20)
                writePretty(values[k], into: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent * level)
            out.append(0x7D)
        default:
            write(v, into: &out)
        }
    }

    @inline(__always) static func newline(_ out: inout [UInt8], _ spaces: Int) {
        out.append(0x0A)
        if spaces > 0 { out.append(contentsOf: repeatElement(0x20, count: spaces)) }
    }

    @inline(__always) static func append(_ out: inout [UInt8], _ s: StaticString) {
        out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    static func writeNumber(_ d: Double, into out: inout [UInt8]) {
        guard d.isFinite else {
            append(&out, "null")
            return
        }
        // Integral and within ±2^53: print as an integer (no libm call: the Int64 round trip tests integrality).
        if d.magnitude <= 9_007_199_254_740_992, case let i = Int64(d), Double(i) == d {
            var m = i.magnitude
            if i < 0 { out.append(0x2D) }
            if m < 10 {
                out.append(0x30 &+ UInt8(m))
                return
            }
            let start = out.count
            while m > 0 {
                out.append(0x30 &+ UInt8(m % 10))
                m /= 10
            }
            out[start...].reverse()
            return
        }
        out.append(contentsOf: d.description.utf8)
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { buf in
            writeEscaped(buf, into: &out)
        }
        if done == nil {
            var copy = s
            copy.withUTF8 { buf in writeEscaped(buf, into: &out) }
        }
        out.append(0x22)
    }

    static func writeEscaped(_ buf: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        guard let base = buf.baseAddress else { return }
        let n = buf.count
        var run = 0
        var j = 0
        while j < n {
            let b = base[j]
            if b >= 0x20 && b != 0x22 && b != 0x5C {
                j += 1
                continue
            }
            if j > run { out.append(contentsOf: UnsafeBufferPointer(start: base + run, count: j - run)) }
            out.append(0x5C)
            switch b {
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
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0xF)])
            }
            j += 1
            run = j
        }
        if n > run { out.append(contentsOf: UnsafeBufferPointer(start: base + run, count: n - run)) }
    }
}
