import CDBus

/// A D-Bus error: an error name (e.g. `org.freedesktop.DBus.Error.UnknownMethod`) and a human-readable message.
///
/// This is what every failing AXDBus operation throws, what an error *reply* from a peer is turned into,
/// and what an object handler returns (or throws) to make AXDBus send an error reply.
package struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus error name, e.g. `org.freedesktop.DBus.Error.InvalidArgs`.
    package var name: String
    /// Human-readable detail.
    package var message: String

    package init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    package var description: String { "\(name): \(message)" }

    /// Well-known error names (`org.freedesktop.DBus.Error.*`).
    package enum Name {
        package static let failed = "org.freedesktop.DBus.Error.Failed"
        package static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
        package static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        package static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        package static let noReply = "org.freedesktop.DBus.Error.NoReply"
        package static let timeout = "org.freedesktop.DBus.Error.Timeout"
        package static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        package static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        package static let invalidSignature = "org.freedesktop.DBus.Error.InvalidSignature"
        package static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        package static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        package static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        package static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        package static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        package static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        package static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
        package static let objectPathInUse = "org.freedesktop.DBus.Error.ObjectPathInUse"
        package static let badAddress = "org.freedesktop.DBus.Error.BadAddress"
        package static let noServer = "org.freedesktop.DBus.Error.NoServer"
    }

    // MARK: Standard errors (messages follow libdbus / dbus-daemon wording)

    package static func failed(_ message: String) -> DBusError { DBusError(name: Name.failed, message: message) }

    package static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: Name.invalidArgs, message: message)
    }

    /// `UnknownMethod`, worded like libdbus: `No such method 'M' in interface 'I' at object path 'P' (signature 'S')`.
    package static func unknownMethod(interface: String?, member: String?, path: String?, signature: String?)
        -> DBusError
    {
        DBusError(
            name: Name.unknownMethod,
            message:
                "No such method '\(member ?? "")' in interface '\(interface ?? "")' at object path '\(path ?? "")' (signature '\(signature ?? "")')"
        )
    }

    package static func unknownMethod(for message: DBusMessage) -> DBusError {
        unknownMethod(
            interface: message.interface, member: message.member, path: message.path, signature: message.signature)
    }

    /// `UnknownObject` with the text Orca recognises as "dead object": `Object does not exist at path "P"`.
    package static func unknownObject(path: String?) -> DBusError {
        DBusError(name: Name.unknownObject, message: "Object does not exist at path \"\(path ?? "")\"")
    }

    package static func unknownInterface(_ interface: String?, path: String?) -> DBusError {
        DBusError(
            name: Name.unknownInterface,
            message: "No such interface '\(interface ?? "")' at object path '\(path ?? "")'")
    }

    package static func unknownProperty(_ property: String, interface: String) -> DBusError {
        DBusError(name: Name.unknownProperty, message: "No such property '\(property)' in interface '\(interface)'")
    }

    package static func propertyReadOnly(_ property: String, interface: String) -> DBusError {
        DBusError(
            name: Name.propertyReadOnly, message: "Property '\(property)' of interface '\(interface)' is read-only")
    }

    package static func disconnected(_ message: String = "Connection is closed") -> DBusError {
        DBusError(name: Name.disconnected, message: message)
    }

    package static func noReply(_ message: String) -> DBusError { DBusError(name: Name.noReply, message: message) }

    /// Reads and frees a libdbus `DBusError` (if set).
    static func take(_ error: inout CDBus.DBusError, fallback: String) -> DBusError {
        defer { dbus_error_free(&error) }
        if dbus_error_is_set(&error) != 0 {
            let errorName = error.name.map { String(cString: $0) } ?? Name.failed
            let errorMessage = error.message.map { String(cString: $0) } ?? fallback
            return DBusError(name: errorName, message: errorMessage)
        }
        return DBusError(name: Name.failed, message: fallback)
    }
}

/// Validation of D-Bus names without ever reaching libdbus's *fatal* argument checks.
///
/// libdbus aborts the process (`_dbus_warn_check_failed` is fatal by default) when it is handed an
/// invalid object path, interface, member, error name, bus name, signature or non-UTF-8 string.
/// Everything AXDBus passes to libdbus that did not come from libdbus itself is checked here first.
package enum DBusNames {
    /// `/` or `/elem(/elem)*` with elements of `[A-Za-z0-9_]+` (single pass, no C call: hot path).
    package static func isValidObjectPath(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            guard let first = bytes.first, first == UInt8(ascii: "/") else { return false }
            if bytes.count == 1 { return true }
            var prevSlash = true
            for byte in bytes.dropFirst() {
                if byte == UInt8(ascii: "/") {
                    if prevSlash { return false }
                    prevSlash = true
                } else if (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a)
                    || (byte >= 0x30 && byte <= 0x39) || byte == 0x5f
                {
                    prevSlash = false
                } else {
                    return false
                }
            }
            return !prevSlash
        }
    }
    package static func isValidInterface(_ name: String) -> Bool { validate(name, dbus_validate_interface) }
    package static func isValidMember(_ name: String) -> Bool { validate(name, dbus_validate_member) }
    package static func isValidErrorName(_ name: String) -> Bool { validate(name, dbus_validate_error_name) }
    package static func isValidBusName(_ name: String) -> Bool { validate(name, dbus_validate_bus_name) }

    /// A complete signature (zero or more complete types).
    package static func isValidSignature(_ signature: String) -> Bool {
        guard !containsNUL(signature) else { return false }
        return signature.withCString { dbus_signature_validate($0, nil) != 0 }
    }

    /// Exactly one complete type (what an array element or a variant needs).
    package static func isValidSingleType(_ signature: String) -> Bool {
        guard !containsNUL(signature) else { return false }
        return signature.withCString { dbus_signature_validate_single($0, nil) != 0 }
    }

    static func validate(
        _ name: String, _ validator: (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t
    ) -> Bool {
        guard !containsNUL(name) else { return false }
        return name.withCString { validator($0, nil) != 0 }
    }

    static func containsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { buf in buf.contains(0) }
    }

    static func require(_ value: String, _ valid: Bool, _ what: String) throws(DBusError) {
        if !valid { throw DBusError.invalidArgs("Invalid \(what): \"\(value)\"") }
    }
}

/// An object path that has been validated once, so it can be appended without checks or `try`.
package struct DBusObjectPath: Sendable, Hashable, CustomStringConvertible {
    package let rawValue: String

    /// Returns nil when `path` is not a valid D-Bus object path.
    package init?(_ path: String) {
        guard DBusNames.isValidObjectPath(path) else { return nil }
        rawValue = path
    }

    init(unchecked: String) { rawValue = unchecked }

    package var description: String { rawValue }
    package static let root = DBusObjectPath(unchecked: "/")
}

/// A signature that has been validated once (a sequence of complete types).
package struct DBusSignature: Sendable, Hashable, CustomStringConvertible {
    package let rawValue: String

    package init?(_ signature: String) {
        guard DBusNames.isValidSignature(signature) else { return nil }
        rawValue = signature
    }

    init(unchecked: String) { rawValue = unchecked }

    /// True when this is exactly one complete type (usable for arrays and variants).
    package var isSingleCompleteType: Bool { DBusNames.isValidSingleType(rawValue) }
    package var description: String { rawValue }
}
