import AXDBus
import CDBus

/// Seed messages for the `dbus` target: one marshalled method call per AT-SPI method signature the bridge answers.
package enum DBusSeeds {
    /// (interface, member, arguments) for each seed.
    static let calls: [(String, String, @Sendable (DBusWriter) -> Void)] = [
        ("org.a11y.atspi.Accessible", "GetChildAtIndex", { $0.append(Int32(1)) }),
        ("org.a11y.atspi.Accessible", "GetChildren", { _ in }),
        (
            "org.a11y.atspi.Component", "Contains",
            {
                $0.append(Int32(5))
                $0.append(Int32(6))
                $0.append(UInt32(0))
            }
        ),
        ("org.a11y.atspi.Component", "GetExtents", { $0.append(UInt32(0)) }),
        (
            "org.a11y.atspi.Component", "ScrollToPoint",
            {
                $0.append(UInt32(0))
                $0.append(Int32(1))
                $0.append(Int32(2))
            }
        ),
        (
            "org.a11y.atspi.Component", "SetExtents",
            { w in
                for value: Int32 in [1, 2, 3, 4] { w.append(value) }
                w.append(UInt32(0))
            }
        ),
        (
            "org.a11y.atspi.Text", "GetText",
            {
                $0.append(Int32(0))
                $0.append(Int32(-1))
            }
        ),
        (
            "org.a11y.atspi.Text", "GetAttributeRun",
            {
                $0.append(Int32(0))
                $0.append(true)
            }
        ),
        (
            "org.a11y.atspi.Text", "GetStringAtOffset",
            {
                $0.append(Int32(0))
                $0.append(UInt32(1))
            }
        ),
        (
            "org.a11y.atspi.Text", "ScrollSubstringToPoint",
            { w in
                for value: Int32 in [0, 1, 2, 3] { w.append(value) }
                for value: UInt32 in [0, 1, 2] { w.append(value) }
            }
        ),
        (
            "org.a11y.atspi.EditableText", "InsertText",
            {
                $0.append(Int32(0))
                $0.append("héllo")
                $0.append(Int32(6))
            }
        ),
        ("org.a11y.atspi.EditableText", "SetTextContents", { $0.append("text") }),
        (
            "org.a11y.atspi.EditableText", "DeleteText",
            {
                $0.append(Int32(0))
                $0.append(Int32(2))
            }
        ),
        (
            "org.freedesktop.DBus.Properties", "Get",
            {
                $0.append("org.a11y.atspi.Accessible")
                $0.append("Name")
            }
        ),
        ("org.freedesktop.DBus.Properties", "GetAll", { $0.append("org.a11y.atspi.Accessible") }),
        (
            "org.freedesktop.DBus.Properties", "Set",
            { w in
                w.append("org.a11y.atspi.Value")
                w.append("CurrentValue")
                w.append(DBusValue.variant(.double(0.5)))
            }
        ),
        (
            "org.a11y.atspi.Collection", "GetMatches",
            { w in
                appendRule(w)
                w.append(UInt32(1))
                w.append(Int32(0))
                w.append(true)
            }
        ),
        (
            "org.a11y.atspi.Collection", "GetMatchesTo",
            { w in
                w.appendObjectPath("/org/a11y/atspi/accessible/1")
                appendRule(w)
                w.append(UInt32(1))
                w.append(UInt32(0))
                w.append(false)
                w.append(Int32(5))
                w.append(true)
            }
        ),
        (
            "org.a11y.atspi.Collection", "GetMatchesFrom",
            { w in
                w.appendObjectPath("/org/a11y/atspi/accessible/1")
                appendRule(w)
                w.append(UInt32(4))
                w.append(UInt32(0))
                w.append(Int32(5))
                w.append(true)
            }
        ),
        (
            "org.a11y.atspi.Registry", "RegisterEvent",
            { w in
                w.append("object:state-changed:focused")
                w.append(DBusValue.array(elementSignature: "as", []))
                w.append("app")
            }
        ),
        ("org.a11y.atspi.Socket", "Embedded", { $0.append("/org/a11y/atspi/accessible/root") }),
        (
            "org.a11y.atspi.Event.Object", "StateChanged",
            { w in
                w.append("focused")
                w.append(Int32(1))
                w.append(Int32(0))
                w.append(DBusValue.variant(.int32(0)))
                w.append(DBusValue.vardict([("key", .string("value"))]))
            }
        ),
        (
            "org.a11y.atspi.Cache", "AddAccessible",
            { w in
                w.append(
                    DBusValue.struct([
                        .reference(":1.5", "/org/a11y/atspi/accessible/1"),
                        .reference(":1.5", "/org/a11y/atspi/accessible/root"),
                        .reference(":1.5", "/org/a11y/atspi/accessible/0"),
                        .int32(0), .int32(2),
                        .array(elementSignature: "s", [.string("org.a11y.atspi.Accessible")]),
                        .string("OK"), .uint32(43), .string("push button"),
                        .array(elementSignature: "u", [.uint32(1), .uint32(0)]),
                    ]))
            }
        ),
        (
            "org.a11y.atspi.DeviceEventController", "NotifyListenersSync",
            { w in
                w.append(
                    DBusValue.struct([
                        .uint32(0), .int32(36), .uint32(36), .int32(0), .int32(0), .string("a"), .bool(false),
                    ]))
            }
        ),
    ]

    /// A Collection match rule `(aiia{ss}iaiiasib)` with something in every field.
    static func appendRule(_ w: DBusWriter) {
        w.append(
            DBusValue.struct([
                .array(elementSignature: "i", [.int32(1 << 8), .int32(0)]), .int32(1),
                .dictionary(keySignature: "s", valueSignature: "s", [(.string("tag"), .string("a:b\\:c"))]), .int32(2),
                .array(elementSignature: "i", [.int32(1 << 10), .int32(0), .int32(0), .int32(0)]), .int32(2),
                .array(elementSignature: "s", [.string("action(press)"), .string("text")]), .int32(1),
                .bool(false),
            ]))
    }

    /// The seeds, marshalled (`dbus_message_marshal`), named by member.
    package static func marshalled() -> [(name: String, bytes: [UInt8])] {
        var out: [(name: String, bytes: [UInt8])] = []
        for (interface, member, body) in calls {
            guard
                let message = try? DBusMessage.methodCall(
                    destination: ":1.7", path: "/org/a11y/atspi/accessible/1",
                    interface: interface, member: member)
            else { continue }
            let writer = DBusWriter(message)
            body(writer)
            writer.finish()
            var buffer: UnsafeMutablePointer<CChar>?
            var length: Int32 = 0
            dbus_message_set_serial(message.pointer, 7)
            guard dbus_message_marshal(message.pointer, &buffer, &length) != 0, let buffer else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
            dbus_free(buffer)
            out.append((name: member, bytes: bytes))
        }
        return out
    }
}
