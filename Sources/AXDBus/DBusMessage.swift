import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// The four D-Bus message types.
package enum DBusMessageType: Sendable, Equatable {
    case methodCall, methodReturn, error, signal, invalid

    init(raw: Int32) {
        switch raw {
        case Int32(CDBUS_MESSAGE_TYPE_METHOD_CALL): self = .methodCall
        case Int32(CDBUS_MESSAGE_TYPE_METHOD_RETURN): self = .methodReturn
        case Int32(CDBUS_MESSAGE_TYPE_ERROR): self = .error
        case Int32(CDBUS_MESSAGE_TYPE_SIGNAL): self = .signal
        default: self = .invalid
        }
    }
}

/// An owned reference to a libdbus `DBusMessage` (ref-counted; unref'd in `deinit`).
///
/// Sendable: libdbus messages are internally locked for ref counting, and AXDBus only mutates a
/// message (appending arguments through a `DBusWriter`) before it is handed to a connection; after
/// `send` libdbus locks the message (it becomes read-only). Do not write to one message from two
/// threads at once.
package final class DBusMessage: @unchecked Sendable {
    /// The underlying `DBusMessage*`. Valid for the lifetime of this object.
    package let pointer: OpaquePointer

    /// Set when a `DBusWriter` hit a marshalling error (or was abandoned with open containers):
    /// the message body is incomplete and AXDBus refuses to send it.
    package internal(set) var marshalError: DBusError?

    /// True once libdbus has locked the message (received from the wire, or handed to a connection).
    /// libdbus *aborts* on any later modification, so writers refuse to touch a locked message.
    package internal(set) var isLocked: Bool

    /// Containers opened by a `DBusWriter` and not yet closed (a message with open containers is never sent).
    var openContainers = 0

    /// Takes over one reference (the one returned by a `dbus_message_new*` call, or a received reply).
    init(adopting pointer: OpaquePointer, locked: Bool = false) {
        self.pointer = pointer
        self.isLocked = locked
    }

    /// Adds a reference to a message libdbus lent us (handler / filter arguments: received, so locked).
    package init(retaining pointer: OpaquePointer) {
        self.pointer = pointer
        self.isLocked = true
        dbus_message_ref(pointer)
    }

    /// Why this message cannot be sent (nil when it can). Marks it locked when it can: the caller sends it.
    func prepareForSending() -> DBusError? {
        if let marshalError { return marshalError }
        if openContainers > 0 {
            return DBusError.failed(
                "D-Bus marshalling error: message has \(openContainers) unclosed container(s) (call DBusWriter.close()/finish())"
            )
        }
        isLocked = true
        return nil
    }

    deinit { dbus_message_unref(pointer) }

    // MARK: Construction (all names validated: libdbus aborts on invalid names)

    /// A method call. `destination` may be nil on peer-to-peer connections.
    package static func methodCall(destination: String?, path: String, interface: String?, member: String)
        throws(DBusError) -> DBusMessage
    {
        if let destination { try DBusNames.require(destination, DBusNames.isValidBusName(destination), "bus name") }
        try DBusNames.require(path, DBusNames.isValidObjectPath(path), "object path")
        if let interface { try DBusNames.require(interface, DBusNames.isValidInterface(interface), "interface name") }
        try DBusNames.require(member, DBusNames.isValidMember(member), "member name")
        let created = withOptionalCString(destination) { cDestination in
            path.withCString { cPath in
                withOptionalCString(interface) { cInterface in
                    member.withCString { cMember in
                        dbus_message_new_method_call(cDestination, cPath, cInterface, cMember)
                    }
                }
            }
        }
        guard let created else {
            throw DBusError(name: DBusError.Name.noMemory, message: "dbus_message_new_method_call failed")
        }
        return DBusMessage(adopting: created)
    }

    /// A signal emitted from `path`.
    package static func signal(path: String, interface: String, member: String) throws(DBusError) -> DBusMessage {
        try DBusNames.require(path, DBusNames.isValidObjectPath(path), "object path")
        try DBusNames.require(interface, DBusNames.isValidInterface(interface), "interface name")
        try DBusNames.require(member, DBusNames.isValidMember(member), "member name")
        let created = path.withCString { cPath in
            interface.withCString { cInterface in
                member.withCString { cMember in dbus_message_new_signal(cPath, cInterface, cMember) }
            }
        }
        guard let created else {
            throw DBusError(name: DBusError.Name.noMemory, message: "dbus_message_new_signal failed")
        }
        return DBusMessage(adopting: created)
    }

    /// A method return for this method call (empty body; append with `writer()`).
    package func makeReply() -> DBusMessage {
        // Only NULL on out-of-memory; libdbus itself aborts in that case elsewhere.
        guard let created = dbus_message_new_method_return(pointer) else {
            fatalError("dbus_message_new_method_return: out of memory")
        }
        return DBusMessage(adopting: created)
    }

    /// An error reply to this method call. An invalid error name is replaced by `Failed`
    /// (libdbus would abort on it).
    package func makeErrorReply(_ error: DBusError) -> DBusMessage {
        let name = DBusNames.isValidErrorName(error.name) ? error.name : DBusError.Name.failed
        let text = DBusWriter.sanitized(error.message)
        let created = name.withCString { cName in
            text.withCString { cText in dbus_message_new_error(pointer, cName, cText) }
        }
        guard let created else { fatalError("dbus_message_new_error: out of memory") }
        return DBusMessage(adopting: created)
    }

    /// Convenience: a reply whose body is written by `body`.
    package func makeReply(_ body: (DBusWriter) throws -> Void) rethrows -> DBusMessage {
        let reply = makeReply()
        let writer = DBusWriter(reply)
        try body(writer)
        writer.finish()
        return reply
    }

    // MARK: Header fields

    package var type: DBusMessageType { DBusMessageType(raw: dbus_message_get_type(pointer)) }
    package var path: String? { dbus_message_get_path(pointer).map { String(cString: $0) } }
    package var interface: String? { dbus_message_get_interface(pointer).map { String(cString: $0) } }
    package var member: String? { dbus_message_get_member(pointer).map { String(cString: $0) } }
    package var errorName: String? { dbus_message_get_error_name(pointer).map { String(cString: $0) } }
    package var destination: String? { dbus_message_get_destination(pointer).map { String(cString: $0) } }
    package var sender: String? { dbus_message_get_sender(pointer).map { String(cString: $0) } }
    /// The body signature ("" for no arguments).
    package var signature: String { dbus_message_get_signature(pointer).map { String(cString: $0) } ?? "" }
    package var serial: UInt32 { dbus_message_get_serial(pointer) }
    package var replySerial: UInt32 { dbus_message_get_reply_serial(pointer) }
    /// True when the caller set NO_REPLY_EXPECTED (AXDBus then never sends a reply).
    package var noReplyExpected: Bool { dbus_message_get_no_reply(pointer) != 0 }

    /// Sets NO_REPLY_EXPECTED on an outgoing method call (ignored once the message is locked: libdbus would abort).
    package func setNoReply(_ value: Bool) {
        guard !isLocked else { return }
        dbus_message_set_no_reply(pointer, value ? 1 : 0)
    }

    /// Addresses an outgoing message (e.g. a signal for one client only) to the bus name `name`.
    package func setDestination(_ name: String) throws(DBusError) {
        try DBusNames.require(name, DBusNames.isValidBusName(name), "bus name")
        guard !isLocked else { throw DBusError.failed("the message is already sent") }
        guard name.withCString({ dbus_message_set_destination(pointer, $0) }) != 0 else {
            throw DBusError(name: DBusError.Name.noMemory, message: "dbus_message_set_destination failed")
        }
    }

    // MARK: Cheap comparisons (no String allocation)

    /// True if this is a method call of `interface.member` (libdbus `dbus_message_is_method_call`).
    package func isMethodCall(_ interface: String, _ member: String) -> Bool {
        interface.withCString { cInterface in
            member.withCString { cMember in dbus_message_is_method_call(pointer, cInterface, cMember) != 0 }
        }
    }

    /// True if the body signature is exactly `signature`.
    package func hasSignature(_ signature: String) -> Bool {
        signature.withCString { dbus_message_has_signature(pointer, $0) != 0 }
    }

    /// Throws `InvalidArgs` ("Invalid arguments for M: expected signature 'ss', got 'si'") unless the body
    /// signature is exactly `expected`. The first thing a method handler should do.
    package func requireSignature(_ expected: String) throws(DBusError) {
        if !hasSignature(expected) {
            throw DBusError.invalidArgs(
                "Invalid arguments for method '\(member ?? "")': expected signature '\(expected)', got '\(signature)'")
        }
    }

    package func hasMember(_ member: String) -> Bool {
        guard let own = dbus_message_get_member(pointer) else { return false }
        return member.withCString { strcmp($0, own) == 0 }
    }

    package func hasInterface(_ interface: String) -> Bool {
        guard let own = dbus_message_get_interface(pointer) else { return false }
        return interface.withCString { strcmp($0, own) == 0 }
    }

    package func hasPath(_ path: String) -> Bool {
        guard let own = dbus_message_get_path(pointer) else { return false }
        return path.withCString { strcmp($0, own) == 0 }
    }

    // MARK: Body

    /// A reader positioned at the first argument.
    package func reader() -> DBusReader { DBusReader(self) }

    /// A writer appending after the last argument.
    package func writer() -> DBusWriter { DBusWriter(self) }

    /// Appends arguments with `body` and returns self (for chaining).
    @discardableResult
    package func append(_ body: (DBusWriter) throws -> Void) rethrows -> DBusMessage {
        let writer = DBusWriter(self)
        try body(writer)
        writer.finish()
        return self
    }

    /// Appends generic values (slow path).
    @discardableResult
    package func append(values: [DBusValue]) -> DBusMessage {
        let writer = DBusWriter(self)
        for value in values { writer.append(value) }
        writer.finish()
        return self
    }

    /// All arguments as generic values (slow path).
    package func values() throws(DBusError) -> [DBusValue] {
        let bodyReader = reader()
        var out: [DBusValue] = []
        while !bodyReader.isAtEnd { out.append(try bodyReader.readValue()) }
        return out
    }

    /// If this is an error message, the error it carries (name + first string argument).
    package var asError: DBusError? {
        guard type == .error else { return nil }
        var text = ""
        let bodyReader = reader()
        if bodyReader.currentType == .string, let first = try? bodyReader.readString() { text = first }
        return DBusError(name: errorName ?? DBusError.Name.failed, message: text)
    }
}

extension DBusMessage: CustomStringConvertible {
    package var description: String {
        "DBusMessage(\(type) path=\(path ?? "-") iface=\(interface ?? "-") member=\(member ?? "-") sig='\(signature)' serial=\(serial) sender=\(sender ?? "-"))"
    }
}

/// The name the AT-SPI bridge brief uses for the handler argument.
package typealias DBusMessageRef = DBusMessage

@inline(__always)
func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    if let string { return string.withCString { body($0) } }
    return body(nil)
}
