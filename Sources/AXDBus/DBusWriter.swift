import CDBus

/// Appends typed arguments to a message through libdbus's `DBusMessageIter`.
///
/// Safety: libdbus *aborts the process* when an append does not match what the enclosing array or
/// variant signature requires, when a container is closed incomplete, or when handed an invalid
/// string/path/signature. `DBusWriter` tracks the expected signature of every open container and
/// validates every value before calling libdbus; the first mistake is recorded in `error` (and in the
/// message's `marshalError`), all open containers are abandoned, further calls are ignored, and the
/// connection refuses to send the message (a method handler's reply becomes a `Failed` error reply).
///
/// ```swift
/// let reply = call.makeReply()
/// let w = reply.writer()
/// w.openArray(signature: "(so)")
/// for child in children { w.openStruct(); w.append(bus); w.appendObjectPath(child); w.close() }
/// w.close()
/// w.finish()
/// ```
/// Not thread-safe: use one writer per message on one thread.
package final class DBusWriter {
    package let message: DBusMessage

    /// One open container (or the top level).
    struct Level {
        var code: UInt8  // 0 top level, 'a', '(', '{', 'v'
        var expected: ArraySlice<UInt8>?  // nil: free (top level / unconstrained struct)
        var pos: Int  // index into `expected`
        var count: Int  // values written at this level
    }

    // Single-threaded by contract: skip Swift's dynamic exclusivity checks on the hot fields.
    @exclusivity(unchecked) private var iters: UnsafeMutablePointer<DBusMessageIter>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var levels: [Level]
    /// Length of the signature written at free levels (the message body signature), max 255.
    @exclusivity(unchecked) private var freeSignatureLength = 0
    /// The first marshalling error (the writer is dead afterwards).
    @exclusivity(unchecked) package private(set) var error: DBusError?

    package init(_ message: DBusMessage) {
        self.message = message
        capacity = 4
        iters = .allocate(capacity: capacity)
        dbus_message_iter_init_append(message.pointer, iters)
        levels = [Level(code: 0, expected: nil, pos: 0, count: 0)]
        levels.reserveCapacity(8)
        if message.isLocked {
            // Appending to a received or already-sent message makes libdbus abort: refuse up front.
            error = DBusError.failed(
                "D-Bus marshalling error: message is locked (received or already sent); create a new one")
        }
    }

    deinit {
        if levels.count > 1 && error == nil {
            fail("writer released with \(levels.count - 1) open container(s)")
        }
        iters.deallocate()
    }

    /// Number of open containers.
    package var depth: Int { levels.count - 1 }

    /// Checks that every container was closed (records an error otherwise). Call when done.
    package func finish() {
        if levels.count > 1 && error == nil {
            fail("\(levels.count - 1) container(s) left open")
        }
    }

    // MARK: Failure

    private func fail(_ text: String) {
        guard error == nil else { return }
        let marshalError = DBusError.failed("D-Bus marshalling error: \(text)")
        error = marshalError
        message.marshalError = marshalError
        // Abandon open containers innermost first so libdbus's message state stays consistent.
        var depth = levels.count - 1
        if !message.isLocked {
            while depth > 0 {
                dbus_message_iter_abandon_container_if_open(iters + (depth - 1), iters + depth)
                depth -= 1
            }
        }
        message.openContainers = 0
        levels.removeSubrange(1...)
    }

    // MARK: Expectation tracking

    /// Length of the single complete type starting at `i` in `sig`, or nil if malformed.
    static func completeTypeLength(_ sig: ArraySlice<UInt8>, _ start: Int) -> Int? {
        guard start < sig.endIndex else { return nil }
        switch sig[start] {
        case UInt8(ascii: "a"):
            guard let typeLength = completeTypeLength(sig, start + 1) else { return nil }
            return 1 + typeLength
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let close: UInt8 = sig[start] == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            var end = start + 1
            while end < sig.endIndex, sig[end] != close {
                guard let length = completeTypeLength(sig, end) else { return nil }
                end += length
            }
            guard end < sig.endIndex else { return nil }
            return end - start + 1
        default:
            return 1
        }
    }

    /// Describes what the current level expects next (for error messages).
    private func expectedDescription(_ level: Level) -> String {
        guard let expected = level.expected else { return "any" }
        if level.pos >= expected.endIndex { return "end of container" }
        return String(decoding: expected[level.pos...], as: UTF8.self)
    }

    /// Consumes `len` signature bytes at the current level if they equal `sig` (or the level is free).
    /// Returns false (after recording the error) on mismatch.
    @inline(__always)
    private func consume(_ code: UInt8) -> Bool {
        guard error == nil else { return false }
        if message.isLocked {
            fail("message is locked (already sent); create a new one")
            return false
        }
        let depth = levels.count - 1
        if let expected = levels[depth].expected {
            var position = levels[depth].pos
            if position >= expected.endIndex, levels[depth].code == UInt8(ascii: "a") { position = expected.startIndex }
            guard position < expected.endIndex, expected[position] == code else {
                fail(
                    "cannot write '\(Character(Unicode.Scalar(code)))' here: container expects '\(expectedDescription(levels[depth]))'"
                )
                return false
            }
            levels[depth].pos = position + 1
        } else {
            freeSignatureLength += 1
            if freeSignatureLength > 255 {
                fail("signature longer than 255 bytes")
                return false
            }
        }
        levels[depth].count += 1
        return true
    }

    // MARK: Basic types

    @inline(__always)
    private func appendBasic<T>(_ code: UInt8, _ value: T) {
        guard consume(code) else { return }
        var copy = value
        _ = withUnsafePointer(to: &copy) { dbus_message_iter_append_basic(iters + (levels.count - 1), Int32(code), $0) }
    }

    package func append(_ value: UInt8) { appendBasic(UInt8(ascii: "y"), value) }
    package func append(_ value: Bool) { appendBasic(UInt8(ascii: "b"), dbus_bool_t(value ? 1 : 0)) }
    package func append(_ value: Int16) { appendBasic(UInt8(ascii: "n"), value) }
    package func append(_ value: UInt16) { appendBasic(UInt8(ascii: "q"), value) }
    package func append(_ value: Int32) { appendBasic(UInt8(ascii: "i"), value) }
    package func append(_ value: UInt32) { appendBasic(UInt8(ascii: "u"), value) }
    package func append(_ value: Int64) { appendBasic(UInt8(ascii: "x"), value) }
    package func append(_ value: UInt64) { appendBasic(UInt8(ascii: "t"), value) }
    package func append(_ value: Double) { appendBasic(UInt8(ascii: "d"), value) }

    /// Appends a string (`s`). Embedded NUL characters are removed (D-Bus strings cannot contain them).
    package func append(_ string: String) { appendStringLike(UInt8(ascii: "s"), DBusWriter.sanitized(string)) }

    /// Appends an object path (`o`); an invalid path records an error (libdbus would abort).
    package func appendObjectPath(_ path: String) {
        guard error == nil else { return }
        guard DBusNames.isValidObjectPath(path) else {
            fail("invalid object path \"\(path)\"")
            return
        }
        appendStringLike(UInt8(ascii: "o"), path)
    }

    /// Appends a pre-validated object path (no check needed).
    package func append(_ path: DBusObjectPath) { appendStringLike(UInt8(ascii: "o"), path.rawValue) }

    /// Appends a signature value (`g`); an invalid signature records an error.
    package func appendSignature(_ sig: String) {
        guard error == nil else { return }
        guard DBusNames.isValidSignature(sig) else {
            fail("invalid signature \"\(sig)\"")
            return
        }
        appendStringLike(UInt8(ascii: "g"), sig)
    }

    /// Appends a file descriptor (`h`); libdbus duplicates it, the caller keeps ownership of `fd`.
    package func appendUnixFD(_ fd: Int32) {
        guard error == nil else { return }
        guard fd >= 0 else {
            fail("invalid file descriptor \(fd)")
            return
        }
        appendBasic(UInt8(ascii: "h"), fd)
    }

    @inline(__always)
    private func appendStringLike(_ code: UInt8, _ string: String) {
        guard consume(code) else { return }
        string.withCString { cs in
            var cString: UnsafePointer<CChar>? = cs
            _ = dbus_message_iter_append_basic(iters + (levels.count - 1), Int32(code), &cString)
        }
    }

    /// D-Bus strings are UTF-8 without NUL. Swift strings are always valid UTF-8; only NUL needs removing.
    static func sanitized(_ string: String) -> String {
        if !DBusNames.containsNUL(string) { return string }
        return String(string.unicodeScalars.filter { $0.value != 0 }.map(Character.init))
    }

    // MARK: Fixed arrays (one memcpy)

    /// Appends `au` in one go (e.g. AT-SPI `GetState`).
    package func appendArray(_ values: [UInt32]) { appendFixedArray(UInt8(ascii: "u"), values) }
    package func appendArray(_ values: [Int32]) { appendFixedArray(UInt8(ascii: "i"), values) }
    package func appendArray(_ values: [UInt8]) { appendFixedArray(UInt8(ascii: "y"), values) }
    package func appendArray(_ values: [Double]) { appendFixedArray(UInt8(ascii: "d"), values) }

    private func appendFixedArray<T>(_ code: UInt8, _ values: [T]) {
        let sig = String(Character(Unicode.Scalar(code)))
        guard openContainer(UInt8(ascii: "a"), elementSignature: sig) else { return }
        let depth = levels.count - 1
        values.withUnsafeBufferPointer { buf in
            var base = buf.baseAddress
            withUnsafeMutablePointer(to: &base) { bp in
                _ = dbus_message_iter_append_fixed_array(
                    iters + depth, Int32(code), UnsafeRawPointer(bp), Int32(buf.count))
            }
        }
        levels[depth].count = values.count
        close()
    }

    // MARK: Containers

    /// Opens an array whose elements have the single complete type `signature` (e.g. "(so)", "{sv}", "u").
    package func openArray(signature: String) { _ = openContainer(UInt8(ascii: "a"), elementSignature: signature) }
    /// Opens a struct; write its fields then `close()`.
    package func openStruct() { _ = openContainer(UInt8(ascii: "("), elementSignature: nil) }
    /// Opens a dict entry (only inside an array of dict entries); write key and value then `close()`.
    package func openDictEntry() { _ = openContainer(UInt8(ascii: "{"), elementSignature: nil) }
    /// Opens a variant holding one value of the single complete type `signature`.
    package func openVariant(signature: String) { _ = openContainer(UInt8(ascii: "v"), elementSignature: signature) }

    /// Closes the innermost open container (which must be complete).
    package func close() {
        guard error == nil else { return }
        let depth = levels.count - 1
        guard depth > 0 else {
            fail("close() without an open container")
            return
        }
        let level = levels[depth]
        if let expected = level.expected {
            let complete: Bool
            switch level.code {
            case UInt8(ascii: "a"): complete = level.pos == expected.startIndex || level.pos == expected.endIndex
            default: complete = level.pos == expected.endIndex
            }
            if !complete {
                fail("container closed before it was complete: still expects '\(expectedDescription(level))'")
                return
            }
        } else if level.count == 0 {
            fail("empty struct (a struct needs at least one field)")
            return
        }
        dbus_message_iter_close_container(iters + (depth - 1), iters + depth)
        message.openContainers -= 1
        levels.removeLast()
    }

    private func growIfNeeded() {
        if levels.count < capacity { return }
        let newCapacity = capacity * 2
        let newStack = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: newCapacity)
        // DBusMessageIter holds no pointers to other iterators, so moving them is safe.
        newStack.moveInitialize(from: iters, count: capacity)
        iters.deallocate()
        iters = newStack
        capacity = newCapacity
    }

    private func openContainer(_ code: UInt8, elementSignature: String?) -> Bool {
        guard error == nil else { return false }
        if message.isLocked {
            fail("message is locked (already sent); create a new one")
            return false
        }
        let depth = levels.count - 1
        guard depth < 64 else {
            fail("containers nested deeper than 64")
            return false
        }
        var sub: ArraySlice<UInt8>? = nil
        if let expected = levels[depth].expected {
            guard constrainedContainer(code, elementSignature, expected: expected, depth: depth, sub: &sub) else {
                return false
            }
        } else {
            guard freeContainer(code, elementSignature, sub: &sub) else { return false }
        }
        levels[depth].count += 1
        growIfNeeded()
        guard openIterator(code, elementSignature, depth: depth) else { return false }
        message.openContainers += 1
        // A free struct stays free only at free levels; containers under an expectation inherit it.
        levels.append(Level(code: code, expected: sub, pos: sub?.startIndex ?? 0, count: 0))
        return true
    }

    /// Opening a container where the signature expects one: it must be the expected type; `sub` becomes what the
    /// new level expects.
    private func constrainedContainer(
        _ code: UInt8, _ elementSignature: String?, expected: ArraySlice<UInt8>, depth: Int,
        sub: inout ArraySlice<UInt8>?
    ) -> Bool {
        let parent = levels[depth]
        var position = parent.pos
        if position >= expected.endIndex, parent.code == UInt8(ascii: "a") { position = expected.startIndex }
        // An array level's expectation is exactly one complete type: no need to scan it per element.
        let quick: Int? =
            (parent.code == UInt8(ascii: "a") && position == expected.startIndex) ? expected.count : nil
        guard position < expected.endIndex, let len = quick ?? DBusWriter.completeTypeLength(expected, position)
        else {
            fail("cannot open a container here: container expects '\(expectedDescription(parent))'")
            return false
        }
        let want = expected[position..<position + len]
        switch code {
        case UInt8(ascii: "a"):
            guard want.first == code, let es = elementSignature, es.utf8.elementsEqual(want.dropFirst()) else {
                fail(
                    "cannot open array 'a\(elementSignature ?? "")' here: container expects '\(String(decoding: want, as: UTF8.self))'"
                )
                return false
            }
            sub = want.dropFirst()
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            guard want.first == code else {
                fail(
                    "cannot open '\(Character(Unicode.Scalar(code)))' here: container expects '\(String(decoding: want, as: UTF8.self))'"
                )
                return false
            }
            if code == UInt8(ascii: "{") && parent.code != UInt8(ascii: "a") {
                fail("dict entry outside an array")
                return false
            }
            sub = want.dropFirst().dropLast()
        default:  // variant
            guard want.first == code, let vs = elementSignature else {
                fail("cannot open a variant here: container expects '\(String(decoding: want, as: UTF8.self))'")
                return false
            }
            guard DBusNames.isValidSingleType(vs) else {
                fail("variant signature \"\(vs)\" is not a single complete type")
                return false
            }
            sub = ArraySlice(Array(vs.utf8))
        }
        levels[depth].pos = position + len
        return true
    }

    /// Opening a container at a free level: its signature is checked and counted into the body signature.
    private func freeContainer(_ code: UInt8, _ elementSignature: String?, sub: inout ArraySlice<UInt8>?) -> Bool {
        switch code {
        case UInt8(ascii: "a"), UInt8(ascii: "v"):
            // "{sv}" alone is not a valid signature; validate the array type "a{sv}" instead.
            guard let es = elementSignature,
                DBusNames.isValidSingleType(code == UInt8(ascii: "a") ? "a" + es : es)
            else {
                fail(
                    "\(code == UInt8(ascii: "a") ? "array element" : "variant") signature \"\(elementSignature ?? "")\" is not a single complete type"
                )
                return false
            }
            sub = ArraySlice(Array(es.utf8))
            freeSignatureLength += code == UInt8(ascii: "a") ? 1 + es.utf8.count : 1
        case UInt8(ascii: "{"):
            fail("dict entry outside an array")
            return false
        default:
            sub = nil
            freeSignatureLength += 2
        }
        if freeSignatureLength > 255 {
            fail("signature longer than 255 bytes")
            return false
        }
        return true
    }

    /// Opens libdbus's iterator for the container one level below `depth`.
    private func openIterator(_ code: UInt8, _ elementSignature: String?, depth: Int) -> Bool {
        let ctype: Int32
        switch code {
        case UInt8(ascii: "a"): ctype = Int32(CDBUS_TYPE_ARRAY)
        case UInt8(ascii: "("): ctype = Int32(CDBUS_TYPE_STRUCT)
        case UInt8(ascii: "{"): ctype = Int32(CDBUS_TYPE_DICT_ENTRY)
        default: ctype = Int32(CDBUS_TYPE_VARIANT)
        }
        let ok: dbus_bool_t
        if code == UInt8(ascii: "a") || code == UInt8(ascii: "v") {
            ok = (elementSignature ?? "").withCString {
                dbus_message_iter_open_container(iters + depth, ctype, $0, iters + depth + 1)
            }
        } else {
            ok = dbus_message_iter_open_container(iters + depth, ctype, nil, iters + depth + 1)
        }
        guard ok != 0 else {
            fail("out of memory opening a container")
            return false
        }
        return true
    }

    // MARK: Closure conveniences

    /// `openArray(signature:)`, `body`, `close()`.
    package func array(_ elementSignature: String, _ body: () throws -> Void) rethrows {
        openArray(signature: elementSignature)
        try body()
        close()
    }
    package func structure(_ body: () throws -> Void) rethrows {
        openStruct()
        try body()
        close()
    }
    package func dictEntry(_ body: () throws -> Void) rethrows {
        openDictEntry()
        try body()
        close()
    }
    package func variant(_ signature: String, _ body: () throws -> Void) rethrows {
        openVariant(signature: signature)
        try body()
        close()
    }

    // MARK: AT-SPI-flavoured helpers

    /// `(so)`: an object reference (bus name, object path).
    package func appendReference(bus: String, path: String) {
        openStruct()
        append(bus)
        appendObjectPath(path)
        close()
    }

    /// `(so)` with a pre-validated path.
    package func appendReference(bus: String, path: DBusObjectPath) {
        openStruct()
        append(bus)
        append(path)
        close()
    }

    /// An empty `a{sv}`.
    package func appendEmptyVardict() {
        openArray(signature: "{sv}")
        close()
    }

    // MARK: Generic values

    /// Appends a generic value (recursively).
    package func append(_ value: DBusValue) {
        guard error == nil else { return }
        switch value {
        case .array, .struct, .dictEntry, .variant: appendContainer(value)
        default: appendBasic(value)
        }
    }

    /// Appends a value of a basic type.
    private func appendBasic(_ value: DBusValue) {
        switch value {
        case .byte(let payload): append(payload)
        case .bool(let payload): append(payload)
        case .int16(let payload): append(payload)
        case .uint16(let payload): append(payload)
        case .int32(let payload): append(payload)
        case .uint32(let payload): append(payload)
        case .int64(let payload): append(payload)
        case .uint64(let payload): append(payload)
        case .double(let payload): append(payload)
        case .string(let payload): append(payload)
        case .objectPath(let payload): appendObjectPath(payload)
        case .signature(let payload): appendSignature(payload)
        case .unixFD(let payload): appendUnixFD(payload)
        default: break  // containers: appendContainer
        }
    }

    /// Appends a container and its contents.
    private func appendContainer(_ value: DBusValue) {
        switch value {
        case .array(let elementSignature, let items):
            openArray(signature: elementSignature)
            for item in items { append(item) }
            close()
        case .struct(let fields):
            openStruct()
            for field in fields { append(field) }
            close()
        case .dictEntry(let key, let entryValue):
            openDictEntry()
            append(key)
            append(entryValue)
            close()
        case .variant(let inner):
            openVariant(signature: inner.signature)
            append(inner)
            close()
        default: break  // basic types: appendBasic
        }
    }
}
