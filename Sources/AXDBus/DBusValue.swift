import CDBus

/// D-Bus type codes.
package enum DBusType: UInt8, Sendable, CustomStringConvertible {
    case byte = 121  // y
    case boolean = 98  // b
    case int16 = 110  // n
    case uint16 = 113  // q
    case int32 = 105  // i
    case uint32 = 117  // u
    case int64 = 120  // x
    case uint64 = 116  // t
    case double = 100  // d
    case string = 115  // s
    case objectPath = 111  // o
    case signature = 103  // g
    case unixFD = 104  // h
    case array = 97  // a
    case variant = 118  // v
    case `struct` = 114  // r (on the wire: '(' ... ')')
    case dictEntry = 101  // e (on the wire: '{' ... '}')

    /// The character used in signatures ("(" for struct, "{" for dict entry).
    package var signatureCharacter: Character {
        switch self {
        case .struct: return "("
        case .dictEntry: return "{"
        default: return Character(Unicode.Scalar(rawValue))
        }
    }

    package var description: String { String(signatureCharacter) }

    package var isBasic: Bool {
        switch self {
        case .array, .variant, .struct, .dictEntry: return false
        default: return true
        }
    }

    init?(code: Int32) {
        guard code > 0, code < 256, let t = DBusType(rawValue: UInt8(code)) else { return nil }
        self = t
    }
}

/// A generic, recursive D-Bus value (slow path: Properties, tests, tools).
///
/// Arrays carry their element signature so empty arrays can be written. A dictionary is an array of
/// `.dictEntry` values, e.g. `a{sv}` = `.array(elementSignature: "{sv}", [.dictEntry(.string("k"), .variant(.int32(1)))])`;
/// use `DBusValue.dictionary(...)` to build one.
package indirect enum DBusValue: Sendable, Hashable, CustomStringConvertible {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A file descriptor. When read from a message this is a dup the caller owns (close it).
    case unixFD(Int32)
    case array(elementSignature: String, [DBusValue])
    case `struct`([DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case variant(DBusValue)

    /// `a{k v}` from key/value pairs.
    package static func dictionary(keySignature: String, valueSignature: String, _ pairs: [(DBusValue, DBusValue)])
        -> DBusValue
    {
        .array(elementSignature: "{\(keySignature)\(valueSignature)}", pairs.map { .dictEntry($0.0, $0.1) })
    }

    /// `a{sv}` from string keys.
    package static func vardict(_ pairs: [(String, DBusValue)]) -> DBusValue {
        .array(elementSignature: "{sv}", pairs.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    /// `a(so)` / `(so)` helpers for AT-SPI object references.
    package static func reference(_ bus: String, _ path: String) -> DBusValue {
        .struct([.string(bus), .objectPath(path)])
    }

    /// The D-Bus signature of this value (a single complete type).
    package var signature: String {
        switch self {
        case .byte: return "y"
        case .bool: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .unixFD: return "h"
        case .array(let e, _): return "a" + e
        case .struct(let fields): return "(" + fields.map(\.signature).joined() + ")"
        case .dictEntry(let k, let v): return "{" + k.signature + v.signature + "}"
        case .variant: return "v"
        }
    }

    package var description: String {
        switch self {
        case .byte(let v): return "y:\(v)"
        case .bool(let v): return "b:\(v)"
        case .int16(let v): return "n:\(v)"
        case .uint16(let v): return "q:\(v)"
        case .int32(let v): return "i:\(v)"
        case .uint32(let v): return "u:\(v)"
        case .int64(let v): return "x:\(v)"
        case .uint64(let v): return "t:\(v)"
        case .double(let v): return "d:\(v)"
        case .string(let v): return "s:\"\(v)\""
        case .objectPath(let v): return "o:\(v)"
        case .signature(let v): return "g:\(v)"
        case .unixFD(let v): return "h:\(v)"
        case .array(let e, let items): return "a\(e)[" + items.map(\.description).joined(separator: ", ") + "]"
        case .struct(let f): return "(" + f.map(\.description).joined(separator: ", ") + ")"
        case .dictEntry(let k, let v): return "{\(k): \(v)}"
        case .variant(let v): return "v<\(v)>"
        }
    }

    // MARK: Accessors (nil when the case does not match)

    package var stringValue: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        case .variant(let v): return v.stringValue
        default: return nil
        }
    }
    package var int32Value: Int32? {
        if case .int32(let v) = self { return v }
        if case .variant(let v) = self { return v.int32Value }
        return nil
    }
    package var uint32Value: UInt32? {
        if case .uint32(let v) = self { return v }
        if case .variant(let v) = self { return v.uint32Value }
        return nil
    }
    package var boolValue: Bool? {
        if case .bool(let v) = self { return v }
        if case .variant(let v) = self { return v.boolValue }
        return nil
    }
    package var doubleValue: Double? {
        if case .double(let v) = self { return v }
        if case .variant(let v) = self { return v.doubleValue }
        return nil
    }
    /// The elements of an array (nil otherwise).
    package var arrayValue: [DBusValue]? {
        if case .array(_, let a) = self { return a }
        return nil
    }
    /// The fields of a struct (nil otherwise).
    package var structValue: [DBusValue]? {
        if case .struct(let f) = self { return f }
        return nil
    }
    /// The content of a variant (nil otherwise).
    package var variantValue: DBusValue? {
        if case .variant(let v) = self { return v }
        return nil
    }
    /// Dictionary entries of an `a{..}` array as pairs.
    package var dictionaryEntries: [(DBusValue, DBusValue)]? {
        guard case .array(_, let items) = self else { return nil }
        var out: [(DBusValue, DBusValue)] = []
        for i in items {
            guard case .dictEntry(let k, let v) = i else { return nil }
            out.append((k, v))
        }
        return out
    }
}
