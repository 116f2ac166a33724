import AXATSPI
import AXATSPIModel
import AXDBus
import CDBus

/// The D-Bus argument readers: the input is a marshalled D-Bus message (demarshalled by libdbus's
/// `dbus_message_demarshal`, which validates it as the bus daemon would), read with no bus involved.
/// Checked: `DBusReader.readValue` reads every argument of every message libdbus accepts and the values'
/// signature is the message's; writing the values again (`DBusWriter`) and reading them back gives the same values;
/// the typed readers the bridge uses (references, string arrays and dictionaries, vardicts, fixed arrays) never
/// trap and succeed whenever the signature says they apply; the Collection methods' arguments are read exactly as
/// the bridge reads them (`MatchRule.read` and the trailing sort/count/traverse arguments).
enum DBusFuzz {
    static let target = FuzzTarget(
        name: "dbus",
        summary:
            "AXDBus DBusReader + AT-SPI Collection MatchRule on messages from dbus_message_demarshal: read all, round-trip",
        run: run)

    static func run(_ bytes: UnsafeRawBufferPointer) -> [String] {
        guard let base = bytes.baseAddress, bytes.count > 0, bytes.count < Int(Int32.max) else { return [] }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let raw = dbus_message_demarshal(base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), &error)
        else {
            dbus_error_free(&error)
            return []
        }
        let message = DBusMessage(retaining: raw)
        dbus_message_unref(raw)
        let signature = message.signature
        // Unix fds are not carried by marshalled bytes; reading one would duplicate whatever descriptor number it says.
        if signature.contains("h") { return [] }
        var check = FuzzCheck()
        let values = readAll(message, check: &check)
        if let values {
            let joined = values.map(\.signature).joined()
            check.expect(joined == signature, "values read have signature '\(joined)', the message says '\(signature)'")
            // A unix fd inside a variant reads as -1 (marshalled bytes carry no descriptors), which is not writable.
            if !values.contains(where: containsUnixFD) {
                roundTrip(values, check: &check)
            }
        }
        typedReaders(message, signature: signature, check: &check)
        collectionArguments(message, signature: signature, check: &check)
        return check.failures
    }

    /// Every argument read generically; nil (with a failure) when a message libdbus accepted cannot be read.
    static func readAll(_ message: DBusMessage, check: inout FuzzCheck) -> [DBusValue]? {
        let reader = DBusReader(message)
        var values: [DBusValue] = []
        do throws(AXDBus.DBusError) {
            while !reader.isAtEnd {
                values.append(try reader.readValue())
            }
        } catch {
            check.fail("readValue failed on a valid message with signature '\(message.signature)': \(error)")
            return nil
        }
        return values
    }

    /// True when `value` holds a unix fd anywhere (inside variants, arrays, structs or dict entries).
    static func containsUnixFD(_ value: DBusValue) -> Bool {
        switch value {
        case .unixFD:
            return true
        case .array(_, let items), .struct(let items):
            return items.contains(where: containsUnixFD)
        case .dictEntry(let key, let entry):
            return containsUnixFD(key) || containsUnixFD(entry)
        case .variant(let inner):
            return containsUnixFD(inner)
        default:
            return false
        }
    }

    /// Writes `values` into a new message, reads them back and compares.
    static func roundTrip(_ values: [DBusValue], check: inout FuzzCheck) {
        let copy: DBusMessage
        do {
            copy = try DBusMessage.methodCall(
                destination: nil, path: "/fuzz", interface: "org.axserver.Fuzz", member: "RoundTrip")
        } catch {
            check.fail("cannot create a message: \(error)")
            return
        }
        let writer = DBusWriter(copy)
        for value in values {
            writer.append(value)
        }
        writer.finish()
        if let error = copy.marshalError {
            check.fail("writing the values read back failed: \(error)")
            return
        }
        let reader = DBusReader(copy)
        var again: [DBusValue] = []
        do throws(AXDBus.DBusError) {
            while !reader.isAtEnd {
                again.append(try reader.readValue())
            }
        } catch {
            check.fail("reading written values failed: \(error)")
            return
        }
        // Compared as text: NaN doubles are equal to themselves that way.
        check.expect(
            again.map(\.description) == values.map(\.description),
            "values changed in a write/read round trip: \(values.map(\.description).joined(separator: ", ").prefix(300))"
        )
    }

    /// The typed readers, each on a fresh reader at the first argument: never a trap; success when the signature fits.
    static func typedReaders(_ message: DBusMessage, signature: String, check: inout FuzzCheck) {
        func attempt(_ name: String, appliesTo prefix: String, _ read: (DBusReader) throws(AXDBus.DBusError) -> Void) {
            do throws(AXDBus.DBusError) {
                try read(DBusReader(message))
            } catch {
                check.expect(!signature.hasPrefix(prefix), "\(name) failed on signature '\(signature)': \(error)")
            }
        }
        attempt("readReference", appliesTo: "(so)") { reader throws(AXDBus.DBusError) in _ = try reader.readReference()
        }
        attempt("readReferences", appliesTo: "a(so)") { reader throws(AXDBus.DBusError) in
            _ = try reader.readReferences()
        }
        attempt("readStringArray", appliesTo: "as") { reader throws(AXDBus.DBusError) in
            _ = try reader.readStringArray()
        }
        attempt("readStringDictionary", appliesTo: "a{ss}") { reader throws(AXDBus.DBusError) in
            _ = try reader.readStringDictionary()
        }
        attempt("readVardict", appliesTo: "a{sv}") { reader throws(AXDBus.DBusError) in _ = try reader.readVardict() }
        attempt("readInt32Array", appliesTo: "ai") { reader throws(AXDBus.DBusError) in _ = try reader.readInt32Array()
        }
        attempt("readUInt32Array", appliesTo: "au") { reader throws(AXDBus.DBusError) in
            _ = try reader.readUInt32Array()
        }
        attempt("readString", appliesTo: "s") { reader throws(AXDBus.DBusError) in _ = try reader.readString() }
        attempt("readObjectPath", appliesTo: "o") { reader throws(AXDBus.DBusError) in _ = try reader.readObjectPath() }
        attempt("readInt32", appliesTo: "i") { reader throws(AXDBus.DBusError) in _ = try reader.readInt32() }
        attempt("readUInt32", appliesTo: "u") { reader throws(AXDBus.DBusError) in _ = try reader.readUInt32() }
        attempt("readBool", appliesTo: "b") { reader throws(AXDBus.DBusError) in _ = try reader.readBool() }
        attempt("readDouble", appliesTo: "d") { reader throws(AXDBus.DBusError) in _ = try reader.readDouble() }
        attempt("skip", appliesTo: "") { reader throws(AXDBus.DBusError) in
            while !reader.isAtEnd {
                try reader.skip()
            }
        }
    }

    /// The Collection methods' arguments, read the way the bridge reads them after checking the signature.
    static func collectionArguments(_ message: DBusMessage, signature: String, check: inout FuzzCheck) {
        let rule = "(aiia{ss}iaiiasib)"
        let reader = DBusReader(message)
        do throws(AXDBus.DBusError) {
            if signature == rule + "uib" {
                _ = try MatchRule.read(reader)
                _ = try reader.readUInt32()
                _ = try reader.readInt32()
                _ = try reader.readBool()
            } else if signature == "o" + rule + "uubib" || signature == "o" + rule + "uuib" {
                _ = try reader.readObjectPath()
                _ = try MatchRule.read(reader)
                _ = try reader.readUInt32()
                _ = try reader.readUInt32()
                if signature.hasSuffix("uubib") {
                    _ = try reader.readBool()
                }
                _ = try reader.readInt32()
                _ = try reader.readBool()
            } else {
                // Any other message: the rule reader must refuse (or read) without trapping.
                _ = try? MatchRule.read(reader)
                return
            }
            check.expect(reader.isAtEnd, "Collection arguments left unread in signature '\(signature)'")
        } catch {
            check.fail("Collection arguments with signature '\(signature)' could not be read: \(error)")
        }
    }
}
