import CDBus

#if canImport(Glibc)
    import Glibc
#endif

// The allocation-free fast path: typed appends and reads straight on libdbus iterators, for replies and signals
// whose signature is fixed by the code that writes them (every AT-SPI method reply and event). Unlike
// `DBusWriter`/`DBusReader` nothing is checked at run time, so the caller guarantees what libdbus would otherwise
// abort on: every value is written with the type its signature names, strings come from Swift (valid UTF-8; an
// embedded NUL merely truncates), object paths are valid (e.g. from a validated path table), and arguments are
// read only after `dbus_message_has_signature` matched.

@usableFromInline let fastTypeString = Int32(CDBUS_TYPE_STRING)
@usableFromInline let fastTypeObjectPath = Int32(CDBUS_TYPE_OBJECT_PATH)
@usableFromInline let fastTypeInt32 = Int32(CDBUS_TYPE_INT32)
@usableFromInline let fastTypeUInt32 = Int32(CDBUS_TYPE_UINT32)
@usableFromInline let fastTypeInt16 = Int32(CDBUS_TYPE_INT16)
@usableFromInline let fastTypeDouble = Int32(CDBUS_TYPE_DOUBLE)
@usableFromInline let fastTypeBoolean = Int32(CDBUS_TYPE_BOOLEAN)
@usableFromInline let fastTypeArray = Int32(CDBUS_TYPE_ARRAY)
@usableFromInline let fastTypeStruct = Int32(CDBUS_TYPE_STRUCT)
@usableFromInline let fastTypeDictEntry = Int32(CDBUS_TYPE_DICT_ENTRY)
@usableFromInline let fastTypeVariant = Int32(CDBUS_TYPE_VARIANT)

/// An append iterator on a message with typed helpers (the fast path: no checks, no allocation).
package struct DBusFastWriter {
    @usableFromInline var iterator = DBusMessageIter()

    /// Appends at the end of `message`'s arguments.
    @inlinable package init(message: OpaquePointer) { dbus_message_iter_init_append(message, &iterator) }
    @usableFromInline init() {}

    @inlinable @inline(__always) package mutating func string(_ value: String) {
        value.withCString { pointer in
            var argument: UnsafePointer<CChar>? = pointer
            _ = dbus_message_iter_append_basic(&iterator, fastTypeString, &argument)
        }
    }
    @inlinable @inline(__always) package mutating func cString(_ pointer: UnsafePointer<CChar>) {
        var argument: UnsafePointer<CChar>? = pointer
        _ = dbus_message_iter_append_basic(&iterator, fastTypeString, &argument)
    }
    /// An object path (must be valid: libdbus aborts otherwise).
    @inlinable @inline(__always) package mutating func path(_ pointer: UnsafePointer<CChar>) {
        var argument: UnsafePointer<CChar>? = pointer
        _ = dbus_message_iter_append_basic(&iterator, fastTypeObjectPath, &argument)
    }
    @inlinable @inline(__always) package mutating func int32(_ value: Int32) {
        var argument = value
        _ = dbus_message_iter_append_basic(&iterator, fastTypeInt32, &argument)
    }
    @inlinable @inline(__always) package mutating func uint32(_ value: UInt32) {
        var argument = value
        _ = dbus_message_iter_append_basic(&iterator, fastTypeUInt32, &argument)
    }
    @inlinable @inline(__always) package mutating func int16(_ value: Int16) {
        var argument = value
        _ = dbus_message_iter_append_basic(&iterator, fastTypeInt16, &argument)
    }
    /// A double (non-finite values are sent as 0).
    @inlinable @inline(__always) package mutating func double(_ value: Double) {
        var argument = value.isFinite ? value : 0
        _ = dbus_message_iter_append_basic(&iterator, fastTypeDouble, &argument)
    }
    @inlinable @inline(__always) package mutating func bool(_ value: Bool) {
        var argument: dbus_bool_t = value ? 1 : 0
        _ = dbus_message_iter_append_basic(&iterator, fastTypeBoolean, &argument)
    }

    /// Opens a container of `type` (element/variant signature `signature` for arrays and variants), lets `body`
    /// fill it, closes it.
    @inlinable @inline(__always) mutating func container(
        _ type: Int32, _ signature: UnsafePointer<CChar>?, _ body: (inout DBusFastWriter) -> Void
    ) {
        var inner = DBusFastWriter()
        _ = dbus_message_iter_open_container(&iterator, type, signature, &inner.iterator)
        body(&inner)
        _ = dbus_message_iter_close_container(&iterator, &inner.iterator)
    }
    /// A struct.
    @inlinable @inline(__always) package mutating func structure(_ body: (inout DBusFastWriter) -> Void) {
        container(fastTypeStruct, nil, body)
    }
    /// An array of `elementSignature`.
    @inlinable @inline(__always) package mutating func array(
        _ elementSignature: UnsafePointer<CChar>, _ body: (inout DBusFastWriter) -> Void
    ) {
        container(fastTypeArray, elementSignature, body)
    }
    /// A dictionary entry (inside an `a{…}` array).
    @inlinable @inline(__always) package mutating func dictEntry(_ body: (inout DBusFastWriter) -> Void) {
        container(fastTypeDictEntry, nil, body)
    }
    /// A variant holding one value of `signature`.
    @inlinable @inline(__always) package mutating func variant(
        _ signature: UnsafePointer<CChar>, _ body: (inout DBusFastWriter) -> Void
    ) {
        container(fastTypeVariant, signature, body)
    }

    /// A `(so)` reference.
    @inlinable @inline(__always) package mutating func reference(bus: UnsafePointer<CChar>, path: UnsafePointer<CChar>)
    {
        structure { fields in
            fields.cString(bus)
            fields.path(path)
        }
    }
    /// An `a{ss}` dictionary.
    @inlinable package mutating func stringDictionary(_ pairs: [(String, String)]) {
        array("{ss}") { entries in
            for (key, value) in pairs {
                entries.dictEntry { entry in
                    entry.string(key)
                    entry.string(value)
                }
            }
        }
    }

    /// Builds a method return for `call`, lets `body` append the arguments and sends it on `connection` (nothing
    /// when the caller asked for no reply).
    @inlinable @inline(__always)
    package static func sendReply(
        on connection: OpaquePointer, to call: OpaquePointer, _ body: (inout DBusFastWriter) -> Void
    ) {
        guard dbus_message_get_no_reply(call) == 0 else { return }
        guard let reply = dbus_message_new_method_return(call) else { return }
        var writer = DBusFastWriter(message: reply)
        body(&writer)
        _ = dbus_connection_send(connection, reply, nil)
        dbus_message_unref(reply)
    }

    /// Builds a signal (valid path, interface and member: libdbus aborts otherwise), lets `body` append the
    /// arguments and sends it on `connection`.
    @inlinable @inline(__always)
    package static func sendSignal(
        on connection: OpaquePointer, path: UnsafePointer<CChar>, interface: StaticString, member: StaticString,
        _ body: (inout DBusFastWriter) -> Void
    ) {
        guard let signal = dbus_message_new_signal(path, interface.cPointer, member.cPointer) else { return }
        var writer = DBusFastWriter(message: signal)
        body(&writer)
        _ = dbus_connection_send(connection, signal, nil)
        dbus_message_unref(signal)
    }
}

/// Reads the fixed leading arguments of a call whose signature `dbus_message_has_signature` already matched
/// (the fast path: no checks).
package struct DBusFastReader {
    @usableFromInline var iterator = DBusMessageIter()

    /// Reads `message`'s arguments from the first.
    @inlinable package init(_ message: OpaquePointer) { _ = dbus_message_iter_init(message, &iterator) }

    @inlinable @inline(__always) package mutating func int32() -> Int32 {
        var value: Int32 = 0
        dbus_message_iter_get_basic(&iterator, &value)
        _ = dbus_message_iter_next(&iterator)
        return value
    }
    @inlinable @inline(__always) package mutating func uint32() -> UInt32 {
        var value: UInt32 = 0
        dbus_message_iter_get_basic(&iterator, &value)
        _ = dbus_message_iter_next(&iterator)
        return value
    }
    @inlinable @inline(__always) package mutating func string() -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iterator, &pointer)
        _ = dbus_message_iter_next(&iterator)
        return pointer.map { String(cString: $0) } ?? ""
    }
    /// The current string argument as a C pointer (valid while the message lives); advances.
    @inlinable @inline(__always) package mutating func cString() -> UnsafePointer<CChar>? {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iterator, &pointer)
        _ = dbus_message_iter_next(&iterator)
        return pointer
    }
}

/// Whether a message has exactly this signature (a static string: no allocation).
@inlinable @inline(__always) package func dbusMessageHasSignature(_ message: OpaquePointer, _ signature: StaticString)
    -> Bool
{
    dbus_message_has_signature(message, signature.cPointer) != 0
}

/// Whether an optional C string equals `other`.
@inlinable @inline(__always) package func cStringEquals(_ string: UnsafePointer<CChar>?, _ other: UnsafePointer<CChar>)
    -> Bool
{
    guard let string else { return false }
    return strcmp(string, other) == 0
}

extension StaticString {
    /// The string's bytes as a C string (a static string literal is NUL-terminated).
    @inlinable @inline(__always) package var cPointer: UnsafePointer<CChar> {
        UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

/// A retained, NUL-terminated copy of a string for the lifetime of its owner (bus names, object paths).
package final class CStringBox: @unchecked Sendable {
    /// The copy (immutable after init: safe to share).
    package let pointer: UnsafeMutablePointer<CChar>
    package init(_ string: String) { pointer = strdup(string) }
    deinit { free(pointer) }
}
