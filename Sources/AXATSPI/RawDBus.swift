import AXDBus
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

// Allocation-light marshalling straight on libdbus iterators, for the per-call hot paths (every handler reply,
// every event). Every value written here is type-correct by construction (the signature is fixed per reply),
// strings come from Swift (valid UTF-8; an embedded NUL merely truncates) and object paths come from the
// validated path table, so none of libdbus's fatal argument checks can trigger.

let tString = Int32(CDBUS_TYPE_STRING)
let tPath = Int32(CDBUS_TYPE_OBJECT_PATH)
let tInt32 = Int32(CDBUS_TYPE_INT32)
let tUInt32 = Int32(CDBUS_TYPE_UINT32)
let tInt16 = Int32(CDBUS_TYPE_INT16)
let tDouble = Int32(CDBUS_TYPE_DOUBLE)
let tBool = Int32(CDBUS_TYPE_BOOLEAN)
let tArray = Int32(CDBUS_TYPE_ARRAY)
let tStruct = Int32(CDBUS_TYPE_STRUCT)
let tDict = Int32(CDBUS_TYPE_DICT_ENTRY)
let tVariant = Int32(CDBUS_TYPE_VARIANT)

/// A libdbus append iterator with typed helpers.
struct Out {
    var it = DBusMessageIter()

    init(message: OpaquePointer) { dbus_message_iter_init_append(message, &it) }
    private init() {}

    @inline(__always) mutating func string(_ s: String) {
        s.withCString { p in
            var q: UnsafePointer<CChar>? = p
            _ = dbus_message_iter_append_basic(&it, tString, &q)
        }
    }
    @inline(__always) mutating func cString(_ p: UnsafePointer<CChar>) {
        var q: UnsafePointer<CChar>? = p
        _ = dbus_message_iter_append_basic(&it, tString, &q)
    }
    @inline(__always) mutating func path(_ p: UnsafePointer<CChar>) {
        var q: UnsafePointer<CChar>? = p
        _ = dbus_message_iter_append_basic(&it, tPath, &q)
    }
    @inline(__always) mutating func int32(_ v: Int32) {
        var x = v
        _ = dbus_message_iter_append_basic(&it, tInt32, &x)
    }
    @inline(__always) mutating func uint32(_ v: UInt32) {
        var x = v
        _ = dbus_message_iter_append_basic(&it, tUInt32, &x)
    }
    @inline(__always) mutating func int16(_ v: Int16) {
        var x = v
        _ = dbus_message_iter_append_basic(&it, tInt16, &x)
    }
    @inline(__always) mutating func double(_ v: Double) {
        var x = v.isFinite ? v : 0
        _ = dbus_message_iter_append_basic(&it, tDouble, &x)
    }
    @inline(__always) mutating func bool(_ v: Bool) {
        var x: dbus_bool_t = v ? 1 : 0
        _ = dbus_message_iter_append_basic(&it, tBool, &x)
    }

    /// Opens a container of `type` (element/variant signature `sig` for arrays and variants).
    @inline(__always) mutating func container(_ type: Int32, _ sig: UnsafePointer<CChar>?, _ body: (inout Out) -> Void)
    {
        var sub = Out()
        _ = dbus_message_iter_open_container(&it, type, sig, &sub.it)
        body(&sub)
        _ = dbus_message_iter_close_container(&it, &sub.it)
    }
    @inline(__always) mutating func structure(_ body: (inout Out) -> Void) { container(tStruct, nil, body) }
    @inline(__always) mutating func array(_ sig: UnsafePointer<CChar>, _ body: (inout Out) -> Void) {
        container(tArray, sig, body)
    }
    @inline(__always) mutating func variant(_ sig: UnsafePointer<CChar>, _ body: (inout Out) -> Void) {
        container(tVariant, sig, body)
    }

    /// `(so)` reference.
    @inline(__always) mutating func ref(_ bus: UnsafePointer<CChar>, _ path: UnsafePointer<CChar>) {
        structure { s in
            s.cString(bus)
            s.path(path)
        }
    }
    /// `au` state set (two words).
    @inline(__always) mutating func states(_ s: ATSPIStateSet) {
        array("u") { a in
            a.uint32(s.low)
            a.uint32(s.high)
        }
    }
    /// `a{ss}`.
    mutating func stringDict(_ pairs: [(String, String)]) {
        array("{ss}") { a in
            for (k, v) in pairs {
                a.container(tDict, nil) { e in
                    e.string(k)
                    e.string(v)
                }
            }
        }
    }
    mutating func rect(_ x: Int32, _ y: Int32, _ w: Int32, _ h: Int32) {
        structure { s in
            s.int32(x)
            s.int32(y)
            s.int32(w)
            s.int32(h)
        }
    }
}

/// Reads the fixed leading arguments of a call (validated with `dbus_message_has_signature` first).
struct In {
    var it = DBusMessageIter()
    init(_ message: OpaquePointer) { _ = dbus_message_iter_init(message, &it) }
    @inline(__always) mutating func int32() -> Int32 {
        var v: Int32 = 0
        dbus_message_iter_get_basic(&it, &v)
        _ = dbus_message_iter_next(&it)
        return v
    }
    @inline(__always) mutating func uint32() -> UInt32 {
        var v: UInt32 = 0
        dbus_message_iter_get_basic(&it, &v)
        _ = dbus_message_iter_next(&it)
        return v
    }
    @inline(__always) mutating func string() -> String {
        var p: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&it, &p)
        _ = dbus_message_iter_next(&it)
        return p.map { String(cString: $0) } ?? ""
    }
    /// The current string argument as a C pointer (valid while the message lives); advances.
    @inline(__always) mutating func cString() -> UnsafePointer<CChar>? {
        var p: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&it, &p)
        _ = dbus_message_iter_next(&it)
        return p
    }
}

@inline(__always) func cEqual(_ a: UnsafePointer<CChar>?, _ b: UnsafePointer<CChar>) -> Bool {
    guard let a else { return false }
    return strcmp(a, b) == 0
}

@inline(__always) func hasSig(_ m: OpaquePointer, _ s: UnsafePointer<CChar>) -> Bool {
    dbus_message_has_signature(m, s) != 0
}

/// A retained, NUL-terminated copy of a string for the lifetime of the owner (bus names, paths).
final class CStringBox: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CChar>
    init(_ s: String) { pointer = strdup(s) }
    deinit { free(pointer) }
}

/// Builds a method return for `call`, lets `body` append the arguments and sends it on `connection`.
@inline(__always)
func sendReply(_ connection: OpaquePointer, to call: OpaquePointer, _ body: (inout Out) -> Void) {
    guard dbus_message_get_no_reply(call) == 0 else { return }
    guard let r = dbus_message_new_method_return(call) else { return }
    var o = Out(message: r)
    body(&o)
    _ = dbus_connection_send(connection, r, nil)
    dbus_message_unref(r)
}

// libdbus's C `DBusError` struct is visible through CDBus; inside this module the name means AXDBus's error.
typealias DBusError = AXDBus.DBusError
typealias DBusConnection = AXDBus.DBusConnection
typealias DBusMessage = AXDBus.DBusMessage
