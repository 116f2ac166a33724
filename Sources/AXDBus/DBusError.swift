import CDBus

/// A D-Bus error: an error name (e.g. `org.freedesktop.DBus.Error.UnknownMethod`) and a human-readable message.
///
/// This is what every failing AXDBus operation throws, what an error *reply* from a peer is turned into,
/// and what an object handler returns (or throws) to make AXDBus send an error reply.
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus error name, e.g. `org.freedesktop.DBus.Error.InvalidArgs`.
    public var name: String
    /// Human-readable detail.
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    /// Well-known error names (`org.freedesktop.DBus.Error.*`).
    public enum Name {
        public static let failed = "org.freedesktop.DBus.Error.Failed"
        public static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        public static let timeout = "org.freedesktop.DBus.Error.Timeout"
        public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        public static let invalidSignature = "org.freedesktop.DBus.Error.InvalidSignature"
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        public static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
        public static let objectPathInUse = "org.freedesktop.DBus.Error.ObjectPathInUse"
        public static let badAddress = "org.freedesktop.DBus.Error.BadAddress"
        public static let noServer = "org.freedesktop.DBus.Error.NoServer"
    }

    // MARK: Standard errors (messages follow libdbus / dbus-daemon wording)

    public static func failed(_ message: String) -> DBusError { DBusError(name: Name.failed, message: message) }

    public static func invalidArgs(_ message: String) -> DBusError { DBusError(name: Name.invalidArgs, message: message) }

    /// `UnknownMethod`, worded like libdbus: `No such method 'M' in interface 'I' at object path 'P' (signature 'S')`.
    public static func unknownMethod(interface: String?, member: String?, path: String?, signature: String?) -> DBusError {
        DBusError(name: Name.unknownMethod,
                  message: "No such method '\(member ?? "")' in interface '\(interface ?? "")' at object path '\(path ?? "")' (signature '\(signature ?? "")')")
    }

    public static func unknownMethod(for message: DBusMessage) -> DBusError {
        unknownMethod(interface: message.interface, member: message.member, path: message.path, signature: message.signature)
    }

    /// `UnknownObject` with the text Orca recognises as "dead object": `Object does not exist at path "P"`.
    public static func unknownObject(path: String?) -> DBusError {
        DBusError(name: Name.unknownObject, message: "Object does not exist at path \"\(path ?? "")\"")
    }

    public static func unknownInterface(_ interface: String?, path: String?) -> DBusError {
        DBusError(name: Name.unknownInterface,
                  message: "No such interface '\(interface ?? "")' at object path '\(path ?? "")'")
    }

    public static func unknownProperty(_ property: String, interface: String) -> DBusError {
        DBusError(name: Name.unknownProperty, message: "No such property '\(property)' in interface '\(interface)'")
    }

    public static func propertyReadOnly(_ property: String, interface: String) -> DBusError {
        DBusError(name: Name.propertyReadOnly, message: "Property '\(property)' of interface '\(interface)' is read-only")
    }

    public static func disconnected(_ message: String = "Connection is closed") -> DBusError {
        DBusError(name: Name.disconnected, message: message)
    }

    public static func noReply(_ message: String) -> DBusError { DBusError(name: Name.noReply, message: message) }

    /// Reads and frees a libdbus `DBusError` (if set).
    static func take(_ error: inout CDBus.DBusError, fallback: String) -> DBusError {
        defer { dbus_error_free(&error) }
        if dbus_error_is_set(&error) != 0 {
            let n = error.name.map { String(cString: $0) } ?? Name.failed
            let m = error.message.map { String(cString: $0) } ?? fallback
            return DBusError(name: n, message: m)
        }
        return DBusError(name: Name.failed, message: fallback)
    }
}

/// Validation of D-Bus names without ever reaching libdbus's *fatal* argument checks.
///
/// libdbus aborts the process (`_dbus_warn_check_failed` is fatal by default) when it is handed an
/// invalid object path, interface, member, error name, bus name, signature or non-UTF-8 string.
/// Everything AXDBus passes to libdbus that did not come from libdbus itself is checked here first.
public enum DBusNames {
    /// `/` or `/elem(/elem)*` with elements of `[A-Za-z0-9_]+` (single pass, no C call: hot path).
    public static func isValidObjectPath(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { b in
            guard let first = b.first, first == UInt8(ascii: "/") else { return false }
            if b.count == 1 { return true }
            var prevSlash = true
            for c in b.dropFirst() {
                if c == UInt8(ascii: "/") {
                    if prevSlash { return false }
                    prevSlash = true
                } else if (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c == 0x5f {
                    prevSlash = false
                } else {
                    return false
                }
            }
            return !prevSlash
        }
    }
    public static func isValidInterface(_ s: String) -> Bool { validate(s, dbus_validate_interface) }
    public static func isValidMember(_ s: String) -> Bool { validate(s, dbus_validate_member) }
    public static func isValidErrorName(_ s: String) -> Bool { validate(s, dbus_validate_error_name) }
    public static func isValidBusName(_ s: String) -> Bool { validate(s, dbus_validate_bus_name) }

    /// A complete signature (zero or more complete types).
    public static func isValidSignature(_ s: String) -> Bool {
        guard !containsNUL(s) else { return false }
        return s.withCString { dbus_signature_validate($0, nil) != 0 }
    }

    /// Exactly one complete type (what an array element or a variant needs).
    public static func isValidSingleType(_ s: String) -> Bool {
        guard !containsNUL(s) else { return false }
        return s.withCString { dbus_signature_validate_single($0, nil) != 0 }
    }

    static func validate(_ s: String, _ f: (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t) -> Bool {
        guard !containsNUL(s) else { return false }
        return s.withCString { f($0, nil) != 0 }
    }

    static func containsNUL(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { buf in buf.contains(0) }
    }

    static func require(_ s: String, _ valid: Bool, _ what: String) throws(DBusError) {
        if !valid { throw DBusError.invalidArgs("Invalid \(what): \"\(s)\"") }
    }
}

/// An object path that has been validated once, so it can be appended without checks or `try`.
public struct DBusObjectPath: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    /// Returns nil when `path` is not a valid D-Bus object path.
    public init?(_ path: String) {
        guard DBusNames.isValidObjectPath(path) else { return nil }
        rawValue = path
    }

    init(unchecked: String) { rawValue = unchecked }

    public var description: String { rawValue }
    public static let root = DBusObjectPath(unchecked: "/")
}

/// A signature that has been validated once (a sequence of complete types).
public struct DBusSignature: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init?(_ signature: String) {
        guard DBusNames.isValidSignature(signature) else { return nil }
        rawValue = signature
    }

    init(unchecked: String) { rawValue = unchecked }

    /// True when this is exactly one complete type (usable for arrays and variants).
    public var isSingleCompleteType: Bool { DBusNames.isValidSingleType(rawValue) }
    public var description: String { rawValue }
}
