import CDBus

/// Property access for an exported object (tree), used by `DBusStandardInterfaces` to answer
/// `org.freedesktop.DBus.Properties` `Get(ss)→v`, `GetAll(s)→a{sv}` and `Set(ssv)`.
///
/// The closures get the incoming message (for `path`/`sender`) and run on the loop thread. Throw a
/// `DBusError` (e.g. `.unknownProperty`, `.unknownObject(path:)`, `.unknownInterface`) to reply with it.
package struct DBusProperties: Sendable {
    /// Value of `interface.property` (the value itself; AXDBus wraps it in the variant).
    package var get: @Sendable (_ message: DBusMessage, _ interface: String, _ property: String) throws -> DBusValue
    /// All properties of `interface` (an unknown interface should throw or return []).
    package var getAll: @Sendable (_ message: DBusMessage, _ interface: String) throws -> [(String, DBusValue)]
    /// Sets `interface.property` to `value` (the variant's content). nil: every property is read-only.
    package var set:
        (
            @Sendable (_ message: DBusMessage, _ interface: String, _ property: String, _ value: DBusValue) throws ->
                Void
        )?

    package init(
        get: @escaping @Sendable (DBusMessage, String, String) throws -> DBusValue,
        getAll: @escaping @Sendable (DBusMessage, String) throws -> [(String, DBusValue)],
        set: (@Sendable (DBusMessage, String, String, DBusValue) throws -> Void)? = nil
    ) {
        self.get = get
        self.getAll = getAll
        self.set = set
    }
}

/// Answers the freedesktop plumbing interfaces every exported path needs:
/// `org.freedesktop.DBus.Properties`, `org.freedesktop.DBus.Introspectable` and `org.freedesktop.DBus.Peer`.
///
/// Use it first thing in a handler (`if let r = standard.handle(msg) { return r }`), or let
/// `DBusConnection.export(path:fallback:standard:_:)` do that for you.
package struct DBusStandardInterfaces: Sendable {
    package static let propertiesInterface = "org.freedesktop.DBus.Properties"
    package static let introspectableInterface = "org.freedesktop.DBus.Introspectable"
    package static let peerInterface = "org.freedesktop.DBus.Peer"

    /// nil: `Properties` calls get `UnknownInterface`.
    package var properties: DBusProperties?
    /// Introspection XML for the message's path; nil result means the object does not exist (`UnknownObject`).
    /// nil closure: AXDBus returns a minimal document listing only the standard interfaces.
    package var introspect: (@Sendable (_ message: DBusMessage) -> String?)?

    package init(properties: DBusProperties? = nil, introspect: (@Sendable (DBusMessage) -> String?)? = nil) {
        self.properties = properties
        self.introspect = introspect
    }

    /// The reply for a standard-interface call, or nil if `message` is not one (dispatch it yourself).
    package func handle(_ message: DBusMessage) -> DBusMethodResult? {
        guard message.type == .methodCall, let iface = message.interface else { return nil }
        do {
            switch iface {
            case Self.propertiesInterface: return try handleProperties(message)
            case Self.introspectableInterface:
                guard message.hasMember("Introspect") else { return .error(.unknownMethod(for: message)) }
                try message.requireSignature("")
                let xml: String?
                if let introspect { xml = introspect(message) } else { xml = DBusIntrospection.xml(interfaces: []) }
                guard let xml else { return .error(.unknownObject(path: message.path)) }
                return .reply(message.makeReply { $0.append(xml) })
            case Self.peerInterface:
                if message.hasMember("Ping") {
                    try message.requireSignature("")
                    return .reply(message.makeReply())
                }
                if message.hasMember("GetMachineId") {
                    try message.requireSignature("")
                    return .reply(message.makeReply { $0.append(DBusStandardInterfaces.machineID) })
                }
                return .error(.unknownMethod(for: message))
            default:
                return nil
            }
        } catch let dbusError as DBusError {
            return .error(dbusError)
        } catch {
            return .error(.failed("\(error)"))
        }
    }

    private func handleProperties(_ message: DBusMessage) throws -> DBusMethodResult {
        guard let properties else {
            return .error(.unknownInterface(Self.propertiesInterface, path: message.path))
        }
        if message.hasMember("Get") {
            try message.requireSignature("ss")
            let reader = message.reader()
            let iface = try reader.readString()
            let name = try reader.readString()
            let value = try properties.get(message, iface, name)
            let reply = message.makeReply()
            let writer = reply.writer()
            writer.append(.variant(value))
            writer.finish()
            return .reply(reply)
        }
        if message.hasMember("GetAll") {
            try message.requireSignature("s")
            let iface = try message.reader().readString()
            let all = try properties.getAll(message, iface)
            let reply = message.makeReply()
            let writer = reply.writer()
            writer.openArray(signature: "{sv}")
            for (k, value) in all {
                writer.openDictEntry()
                writer.append(k)
                writer.append(.variant(value))
                writer.close()
            }
            writer.close()
            writer.finish()
            return .reply(reply)
        }
        if message.hasMember("Set") {
            try message.requireSignature("ssv")
            let reader = message.reader()
            let iface = try reader.readString()
            let name = try reader.readString()
            try reader.enterVariant()
            let value = try reader.readValue()
            try reader.leave()
            guard let set = properties.set else { throw DBusError.propertyReadOnly(name, interface: iface) }
            try set(message, iface, name, value)
            return .reply(message.makeReply())
        }
        return .error(.unknownMethod(for: message))
    }

    /// This machine's D-Bus machine id (`dbus_get_local_machine_id`).
    package static let machineID: String = {
        guard let machineID = dbus_get_local_machine_id() else { return "" }
        defer { dbus_free(machineID) }
        return String(cString: machineID)
    }()
}

extension DBusConnection {
    /// Exports `handler` at `path` (exactly, or as a fallback for the subtree) with `standard` answering
    /// Properties / Introspectable / Peer first. The handler sees every other call.
    package func export(
        path: String, fallback: Bool = false, standard: DBusStandardInterfaces,
        _ handler: @escaping DBusMethodHandler
    ) throws(DBusError) {
        let dispatch: DBusMethodHandler = { msg in
            if let reply = standard.handle(msg) { return reply }
            return try handler(msg)
        }
        if fallback { try registerFallback(path: path, dispatch) } else { try register(path: path, dispatch) }
    }
}

/// A D-Bus interface description for introspection XML.
package struct DBusInterfaceDescription: Sendable {
    package struct Argument: Sendable {
        package var name: String, type: String, direction: String?
        package init(_ name: String, _ type: String, direction: String? = nil) {
            self.name = name
            self.type = type
            self.direction = direction
        }
    }
    package struct Member: Sendable {
        package var name: String
        package var arguments: [Argument]
        package init(_ name: String, _ arguments: [Argument] = []) {
            self.name = name
            self.arguments = arguments
        }
        /// A method with in/out argument types (names generated: arg0…).
        package static func method(_ name: String, in ins: [String] = [], out outs: [String] = []) -> Member {
            var arguments: [Argument] = []
            for (i, type) in ins.enumerated() { arguments.append(Argument("arg\(i)", type, direction: "in")) }
            for (i, type) in outs.enumerated() { arguments.append(Argument("out\(i)", type, direction: "out")) }
            return Member(name, arguments)
        }
        package static func signal(_ name: String, _ types: [String] = []) -> Member {
            Member(name, types.enumerated().map { Argument("arg\($0.offset)", $0.element) })
        }
    }
    package struct Property: Sendable {
        package var name: String, type: String, access: String
        package init(_ name: String, _ type: String, access: String = "read") {
            self.name = name
            self.type = type
            self.access = access
        }
    }

    package var name: String
    package var methods: [Member]
    package var signals: [Member]
    package var properties: [Property]

    package init(name: String, methods: [Member] = [], signals: [Member] = [], properties: [Property] = []) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }

    package static let properties = DBusInterfaceDescription(
        name: DBusStandardInterfaces.propertiesInterface,
        methods: [
            .method("Get", in: ["s", "s"], out: ["v"]), .method("GetAll", in: ["s"], out: ["a{sv}"]),
            .method("Set", in: ["s", "s", "v"]),
        ],
        signals: [.signal("PropertiesChanged", ["s", "a{sv}", "as"])])
    package static let introspectable = DBusInterfaceDescription(
        name: DBusStandardInterfaces.introspectableInterface, methods: [.method("Introspect", out: ["s"])])
    package static let peer = DBusInterfaceDescription(
        name: DBusStandardInterfaces.peerInterface, methods: [.method("Ping"), .method("GetMachineId", out: ["s"])])
}

/// Builds introspection XML.
package enum DBusIntrospection {
    package static let doctype =
        "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n \"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n"

    /// `<node>` with the given interfaces (plus Properties, Introspectable, Peer) and child node names.
    package static func xml(
        interfaces: [DBusInterfaceDescription], children: [String] = [], includeStandard: Bool = true
    ) -> String {
        var xml = doctype + "<node>\n"
        let all = (includeStandard ? [DBusInterfaceDescription.properties, .introspectable, .peer] : []) + interfaces
        for interface in all {
            xml += "  <interface name=\"\(escape(interface.name))\">\n"
            for method in interface.methods {
                xml += "    <method name=\"\(escape(method.name))\">\n"
                for argument in method.arguments {
                    xml +=
                        "      <arg name=\"\(escape(argument.name))\" type=\"\(escape(argument.type))\""
                        + (argument.direction.map { " direction=\"\($0)\"" } ?? "") + "/>\n"
                }
                xml += "    </method>\n"
            }
            for signal in interface.signals {
                xml += "    <signal name=\"\(escape(signal.name))\">\n"
                for argument in signal.arguments {
                    xml += "      <arg name=\"\(escape(argument.name))\" type=\"\(escape(argument.type))\"/>\n"
                }
                xml += "    </signal>\n"
            }
            for property in interface.properties {
                xml +=
                    "    <property name=\"\(escape(property.name))\" type=\"\(escape(property.type))\" access=\"\(escape(property.access))\"/>\n"
            }
            xml += "  </interface>\n"
        }
        for child in children { xml += "  <node name=\"\(escape(child))\"/>\n" }
        return xml + "</node>\n"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }
}
