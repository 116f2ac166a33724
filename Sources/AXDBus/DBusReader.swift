import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a message's arguments through libdbus's `DBusMessageIter`, validating every type.
///
/// Every `read…`/`enter…` checks the wire type first and throws `InvalidArgs` with a precise text on a
/// mismatch (calling libdbus's `get_basic`/`recurse` on the wrong type would abort the process).
///
/// ```swift
/// try msg.requireSignature("ss")          // cheapest: check the whole signature once
/// let r = msg.reader()
/// let iface = try r.readString(), name = try r.readString()
///
/// // a(so)
/// try r.enterArray()
/// while !r.isAtEnd { try r.enterStruct(); let bus = try r.readString(); let path = try r.readObjectPath(); try r.leave() }
/// try r.leave()
/// ```
/// Not thread-safe: one reader per thread.
package final class DBusReader {
    package let message: DBusMessage
    // Single-threaded by contract: skip Swift's dynamic exclusivity checks on the hot fields.
    @exclusivity(unchecked) private var iters: UnsafeMutablePointer<DBusMessageIter>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var depth = 0
    /// Values consumed per level (for error messages and loop-progress checks).
    @exclusivity(unchecked) private var consumed: [Int] = [0]
    @exclusivity(unchecked) private var containerCodes: [UInt8] = [0]

    package init(_ message: DBusMessage) {
        self.message = message
        capacity = 4
        iters = .allocate(capacity: capacity)
        // Returns FALSE for a message without arguments; the iterator then reports INVALID (end).
        _ = dbus_message_iter_init(message.pointer, iters)
    }

    deinit { iters.deallocate() }

    @inline(__always) private var cur: UnsafeMutablePointer<DBusMessageIter> { iters + depth }

    /// The type of the value at the current position (nil at the end of the current container).
    package var currentType: DBusType? { DBusType(code: dbus_message_iter_get_arg_type(cur)) }

    /// True when the current container (or the top level) has no more values.
    package var isAtEnd: Bool { dbus_message_iter_get_arg_type(cur) == Int32(CDBUS_TYPE_INVALID) }

    /// Nesting depth (0 = top level).
    package var nestingDepth: Int { depth }

    /// Number of values consumed in the current container so far.
    package var indexInContainer: Int { consumed[depth] }

    /// The signature of the value at the current position ("" at the end).
    package var currentSignature: String {
        guard !isAtEnd, let signature = dbus_message_iter_get_signature(cur) else { return "" }
        defer { dbus_free(signature) }
        return String(cString: signature)
    }

    // MARK: Errors

    private func mismatch(_ want: String, _ got: Int32, gotSignature: String? = nil) -> DBusError {
        let gotText: String
        if let gotSignature {
            gotText = "'\(gotSignature)'"
        } else if got == Int32(CDBUS_TYPE_INVALID) {
            gotText = "end of arguments"
        } else if let type = DBusType(code: got) {
            gotText = "'\(type)'"
        } else {
            gotText = "type \(got)"
        }
        let place: String
        if depth == 0 {
            place = "argument \(consumed[0] + 1)"
        } else {
            let kind: String
            switch containerCodes[depth] {
            case UInt8(ascii: "a"): kind = "array element"
            case UInt8(ascii: "("): kind = "struct field"
            case UInt8(ascii: "{"): kind = "dict entry field"
            default: kind = "variant value"
            }
            place = "\(kind) \(consumed[depth] + 1) (nesting depth \(depth), top-level argument \(consumed[0] + 1))"
        }
        return DBusError.invalidArgs(
            "Invalid arguments for '\(message.member ?? message.errorName ?? "")' (signature '\(message.signature)'): expected '\(want)' at \(place), got \(gotText)"
        )
    }

    @inline(__always)
    private func expect(_ code: UInt8, _ name: @autoclosure () -> String) throws(DBusError) {
        let type = dbus_message_iter_get_arg_type(cur)
        if type != Int32(code) { throw mismatch(name(), type) }
    }

    @inline(__always)
    private func advance() {
        _ = dbus_message_iter_next(cur)
        consumed[depth] += 1
    }

    @inline(__always)
    private func readBasic<T>(_ code: UInt8, _ zero: T) throws(DBusError) -> T {
        try expect(code, String(Character(Unicode.Scalar(code))))
        var value = zero
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(cur, $0) }
        advance()
        return value
    }

    // MARK: Basic types

    package func readByte() throws(DBusError) -> UInt8 { try readBasic(UInt8(ascii: "y"), 0) }
    package func readBool() throws(DBusError) -> Bool { try readBasic(UInt8(ascii: "b"), dbus_bool_t(0)) != 0 }
    package func readInt16() throws(DBusError) -> Int16 { try readBasic(UInt8(ascii: "n"), 0) }
    package func readUInt16() throws(DBusError) -> UInt16 { try readBasic(UInt8(ascii: "q"), 0) }
    package func readInt32() throws(DBusError) -> Int32 { try readBasic(UInt8(ascii: "i"), 0) }
    package func readUInt32() throws(DBusError) -> UInt32 { try readBasic(UInt8(ascii: "u"), 0) }
    package func readInt64() throws(DBusError) -> Int64 { try readBasic(UInt8(ascii: "x"), 0) }
    package func readUInt64() throws(DBusError) -> UInt64 { try readBasic(UInt8(ascii: "t"), 0) }
    package func readDouble() throws(DBusError) -> Double { try readBasic(UInt8(ascii: "d"), 0) }

    /// Reads a file descriptor; the result is a duplicate that the caller owns and must close.
    package func readUnixFD() throws(DBusError) -> Int32 { try readBasic(UInt8(ascii: "h"), Int32(-1)) }

    @inline(__always)
    private func readStringLike(_ code: UInt8) throws(DBusError) -> String {
        try expect(code, String(Character(Unicode.Scalar(code))))
        var chars: UnsafePointer<CChar>? = nil
        withUnsafeMutablePointer(to: &chars) { dbus_message_iter_get_basic(cur, $0) }
        advance()
        return chars.map { String(cString: $0) } ?? ""
    }

    package func readString() throws(DBusError) -> String { try readStringLike(UInt8(ascii: "s")) }
    package func readObjectPath() throws(DBusError) -> String { try readStringLike(UInt8(ascii: "o")) }
    package func readSignature() throws(DBusError) -> String { try readStringLike(UInt8(ascii: "g")) }

    /// Compares the current string/object path with `s` without allocating; consumes it when equal.
    package func readString(equals expected: String) throws(DBusError) -> Bool {
        let type = dbus_message_iter_get_arg_type(cur)
        guard type == Int32(CDBUS_TYPE_STRING) || type == Int32(CDBUS_TYPE_OBJECT_PATH) else {
            throw mismatch("s", type)
        }
        var cString: UnsafePointer<CChar>? = nil
        withUnsafeMutablePointer(to: &cString) { dbus_message_iter_get_basic(cur, $0) }
        guard let cString else { return false }
        let eq = expected.withCString { strcmp($0, cString) == 0 }
        if eq { advance() }
        return eq
    }

    /// Skips the current value (any type).
    package func skip() throws(DBusError) {
        guard !isAtEnd else { throw mismatch("any value", Int32(CDBUS_TYPE_INVALID)) }
        advance()
    }

    // MARK: Containers

    private func push(_ code: UInt8) {
        if depth + 1 >= capacity {
            let newCapacity = capacity * 2
            let newStack = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: newCapacity)
            newStack.moveInitialize(from: iters, count: capacity)  // iterators hold no pointers to each other
            iters.deallocate()
            iters = newStack
            capacity = newCapacity
        }
        dbus_message_iter_recurse(iters + depth, iters + depth + 1)
        depth += 1
        if consumed.count > depth {
            consumed[depth] = 0
            containerCodes[depth] = code
        } else {
            consumed.append(0)
            containerCodes.append(code)
        }
    }

    /// Enters the array at the current position. Optionally checks the element signature.
    package func enterArray(elementSignature: String? = nil) throws(DBusError) {
        try expect(UInt8(ascii: "a"), "a" + (elementSignature ?? ""))
        if let es = elementSignature {
            let sig = currentSignature
            if sig.utf8.dropFirst().elementsEqual(es.utf8) == false {
                throw mismatch("a" + es, Int32(CDBUS_TYPE_ARRAY), gotSignature: sig)
            }
        }
        push(UInt8(ascii: "a"))
    }

    package func enterStruct() throws(DBusError) {
        try expect(UInt8(ascii: "r"), "(")
        push(UInt8(ascii: "("))
    }
    package func enterDictEntry() throws(DBusError) {
        try expect(UInt8(ascii: "e"), "{")
        push(UInt8(ascii: "{"))
    }
    /// Enters a variant; `currentType`/`currentSignature` then describe the contained value.
    package func enterVariant() throws(DBusError) {
        try expect(UInt8(ascii: "v"), "v")
        push(UInt8(ascii: "v"))
    }

    /// Leaves the innermost container (unread values in it are skipped) and advances past it.
    package func leave() throws(DBusError) {
        guard depth > 0 else { throw DBusError.failed("DBusReader.leave() at top level") }
        depth -= 1
        advance()
    }

    // MARK: Closure conveniences

    /// Enters an array and calls `body` once per element; `body` must consume exactly one element.
    package func forEachElement(_ body: () throws -> Void) throws {
        try enterArray()
        while !isAtEnd {
            let before = consumed[depth]
            try body()
            if consumed[depth] == before {
                throw DBusError.failed("DBusReader.forEachElement: body did not consume the element")
            }
        }
        try leave()
    }

    // MARK: Common shapes

    /// `(so)` object reference.
    package func readReference() throws(DBusError) -> (bus: String, path: String) {
        try enterStruct()
        let busName = try readString()
        let path = try readObjectPath()
        try leave()
        return (busName, path)
    }

    /// `a(so)`.
    package func readReferences() throws(DBusError) -> [(bus: String, path: String)] {
        try enterArray(elementSignature: "(so)")
        var out: [(bus: String, path: String)] = []
        while !isAtEnd { out.append(try readReference()) }
        try leave()
        return out
    }

    /// `as`.
    package func readStringArray() throws(DBusError) -> [String] {
        try enterArray(elementSignature: "s")
        var out: [String] = []
        while !isAtEnd { out.append(try readString()) }
        try leave()
        return out
    }

    /// `a{ss}`.
    package func readStringDictionary() throws(DBusError) -> [String: String] {
        try enterArray(elementSignature: "{ss}")
        var out: [String: String] = [:]
        while !isAtEnd {
            try enterDictEntry()
            let key = try readString()
            out[key] = try readString()
            try leave()
        }
        try leave()
        return out
    }

    /// `a{sv}` with generic values.
    package func readVardict() throws(DBusError) -> [String: DBusValue] {
        try enterArray(elementSignature: "{sv}")
        var out: [String: DBusValue] = [:]
        while !isAtEnd {
            try enterDictEntry()
            let key = try readString()
            try enterVariant()
            out[key] = try readValue()
            try leave()
            try leave()
        }
        try leave()
        return out
    }

    // MARK: Fixed arrays (one memcpy)

    private func readFixedArray<T>(_ code: UInt8, _: T.Type) throws(DBusError) -> [T] {
        try expect(UInt8(ascii: "a"), "a" + String(Character(Unicode.Scalar(code))))
        let et = dbus_message_iter_get_element_type(cur)
        if et != Int32(code) {
            throw mismatch(
                "a" + String(Character(Unicode.Scalar(code))), Int32(CDBUS_TYPE_ARRAY), gotSignature: currentSignature)
        }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(cur, &sub)
        var bytes: UnsafeMutableRawPointer? = nil
        var length: Int32 = 0
        withUnsafeMutablePointer(to: &bytes) { dbus_message_iter_get_fixed_array(&sub, $0, &length) }
        advance()
        guard let bytes, length > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: T.self), count: Int(length)))
    }

    /// `au` (e.g. AT-SPI state sets).
    package func readUInt32Array() throws(DBusError) -> [UInt32] { try readFixedArray(UInt8(ascii: "u"), UInt32.self) }
    package func readInt32Array() throws(DBusError) -> [Int32] { try readFixedArray(UInt8(ascii: "i"), Int32.self) }

    // MARK: Generic values

    /// Reads the current value (any type) generically.
    package func readValue() throws(DBusError) -> DBusValue {
        let argType = dbus_message_iter_get_arg_type(cur)
        guard let type = DBusType(code: argType) else { throw mismatch("any value", argType) }
        switch type {
        case .array, .struct, .dictEntry, .variant: return try readContainer(type)
        default: return try readBasic(type)
        }
    }

    /// Reads the current value of a basic type.
    private func readBasic(_ type: DBusType) throws(DBusError) -> DBusValue {
        switch type {
        case .byte: return .byte(try readByte())
        case .boolean: return .bool(try readBool())
        case .int16: return .int16(try readInt16())
        case .uint16: return .uint16(try readUInt16())
        case .int32: return .int32(try readInt32())
        case .uint32: return .uint32(try readUInt32())
        case .int64: return .int64(try readInt64())
        case .uint64: return .uint64(try readUInt64())
        case .double: return .double(try readDouble())
        case .string: return .string(try readString())
        case .objectPath: return .objectPath(try readObjectPath())
        case .signature: return .signature(try readSignature())
        case .unixFD: return .unixFD(try readUnixFD())
        default: throw mismatch("a basic value", dbus_message_iter_get_arg_type(cur))
        }
    }

    /// Reads the current container and its contents.
    private func readContainer(_ type: DBusType) throws(DBusError) -> DBusValue {
        switch type {
        case .array:
            let sig = currentSignature
            let element = String(sig.dropFirst())
            try enterArray()
            var items: [DBusValue] = []
            while !isAtEnd { items.append(try readValue()) }
            try leave()
            return .array(elementSignature: element, items)
        case .struct:
            try enterStruct()
            var fields: [DBusValue] = []
            while !isAtEnd { fields.append(try readValue()) }
            try leave()
            return .struct(fields)
        case .dictEntry:
            try enterDictEntry()
            let key = try readValue()
            let entryValue = try readValue()
            try leave()
            return .dictEntry(key, entryValue)
        case .variant:
            try enterVariant()
            let value = try readValue()
            try leave()
            return .variant(value)
        default: throw mismatch("a container", dbus_message_iter_get_arg_type(cur))
        }
    }
}
