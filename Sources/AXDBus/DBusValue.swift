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
        guard code > 0, code < 256, let type = DBusType(rawValue: UInt8(code)) else { return nil }
        self = type
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
        case .array(let element, _): return "a" + element
        case .struct(let fields): return "(" + fields.map(\.signature).joined() + ")"
        case .dictEntry(let key, let value): return "{" + key.signature + value.signature + "}"
        case .variant: return "v"
        }
    }

    package var description: String {
        switch self {
        case .byte(let payload): return "y:\(payload)"
        case .bool(let payload): return "b:\(payload)"
        case .int16(let payload): return "n:\(payload)"
        case .uint16(let payload): return "q:\(payload)"
        case .int32(let payload): return "i:\(payload)"
        case .uint32(let payload): return "u:\(payload)"
        case .int64(let payload): return "x:\(payload)"
        case .uint64(let payload): return "t:\(payload)"
        case .double(let payload): return "d:\(payload)"
        case .string(let payload): return "s:\"\(payload)\""
        case .objectPath(let payload): return "o:\(payload)"
        case .signature(let payload): return "g:\(payload)"
        case .unixFD(let payload): return "h:\(payload)"
        case .array(let element, let items):
            return "a\(element)[" + items.map(\.description).joined(separator: ", ") + "]"
        case .struct(let fields): return "(" + fields.map(\.description).joined(separator: ", ") + ")"
        case .dictEntry(let key, let value): return "{\(key): \(value)}"
        case .variant(let payload): return "v<\(payload)>"
        }
    }

    // MARK: Accessors (nil when the case does not match)

    package var stringValue: String? {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): return text
        case .variant(let inner): return inner.stringValue
        default: return nil
        }
    }
    package var int32Value: Int32? {
        if case .int32(let payload) = self { return payload }
        if case .variant(let inner) = self { return inner.int32Value }
        return nil
    }
    package var uint32Value: UInt32? {
        if case .uint32(let payload) = self { return payload }
        if case .variant(let inner) = self { return inner.uint32Value }
        return nil
    }
    package var boolValue: Bool? {
        if case .bool(let payload) = self { return payload }
        if case .variant(let inner) = self { return inner.boolValue }
        return nil
    }
    package var doubleValue: Double? {
        if case .double(let payload) = self { return payload }
        if case .variant(let inner) = self { return inner.doubleValue }
        return nil
    }
    /// The elements of an array (nil otherwise).
    package var arrayValue: [DBusValue]? {
        if case .array(_, let items) = self { return items }
        return nil
    }
    /// The fields of a struct (nil otherwise).
    package var structValue: [DBusValue]? {
        if case .struct(let fields) = self { return fields }
        return nil
    }
    /// The content of a variant (nil otherwise).
    package var variantValue: DBusValue? {
        if case .variant(let inner) = self { return inner }
        return nil
    }
    /// Dictionary entries of an `a{..}` array as pairs.
    package var dictionaryEntries: [(DBusValue, DBusValue)]? {
        guard case .array(_, let items) = self else { return nil }
        var out: [(DBusValue, DBusValue)] = []
        for item in items {
            guard case .dictEntry(let key, let value) = item else { return nil }
            out.append((key, value))
        }
        return out
    }
}
