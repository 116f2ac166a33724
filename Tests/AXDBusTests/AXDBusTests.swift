import AXDBus
import AXTestSupport
import Foundation
import Synchronization
import XCTest

/// Collects values from handler threads.
final class Collector<T: Sendable>: Sendable {
    private let items = Mutex<[T]>([])
    func add(_ v: T) { items.withLock { $0.append(v) } }
    var all: [T] { items.withLock { $0 } }
    var count: Int { items.withLock { $0.count } }

    /// Polls until `count >= n` or the timeout; returns the items.
    @discardableResult
    func wait(for n: Int, timeout: TimeInterval = 5) -> [T] {
        let end = Date().addingTimeInterval(timeout)
        while count < n && Date() < end { usleep(2_000) }
        return all
    }
}

let testInterface = "org.axserver.Test"
let testPath = "/org/axserver/test"

/// One AT-SPI cache item `((so)(so)(so)iiassusau)` as plain Swift data.
struct CacheItem: Equatable {
    var object: (String, String), app: (String, String), parent: (String, String)
    var indexInParent: Int32, childCount: Int32
    var interfaces: [String]
    var name: String
    var role: UInt32
    var description: String
    var states: [UInt32]

    static func == (a: CacheItem, b: CacheItem) -> Bool {
        a.object == b.object && a.app == b.app && a.parent == b.parent && a.indexInParent == b.indexInParent
            && a.childCount == b.childCount && a.interfaces == b.interfaces && a.name == b.name && a.role == b.role
            && a.description == b.description && a.states == b.states
    }
}

final class AXDBusTests: XCTestCase {
    var bus: PrivateBus!
    var server: DBusConnection!
    var client: DBusConnection!

    override func setUpWithError() throws {
        bus = try PrivateBus(purpose: "AXDBus integration tests", tag: "axdbus-test")
        server = try DBusConnection.open(address: bus.address)
        client = try DBusConnection.open(address: bus.address)
    }

    override func tearDown() {
        client?.close()
        server?.close()
        bus?.stop()
    }

    // MARK: helpers

    /// Server method `Echo` (any signature): replies with the arguments it read generically.
    func exportEcho() throws {
        try server.register(path: testPath) { msg in
            guard msg.isMethodCall(testInterface, "Echo") else { return .notHandled }
            let values = try msg.values()
            return .reply(msg.makeReply().append(values: values))
        }
    }

    func callEcho(_ values: [DBusValue]) throws -> [DBusValue] {
        let message = try DBusMessage.methodCall(
            destination: server.uniqueName, path: testPath, interface: testInterface, member: "Echo")
        message.append(values: values)
        XCTAssertNil(message.marshalError)
        return try client.call(message, timeoutMilliseconds: 5_000).values()
    }

    func assertDBusError(
        _ name: String, contains text: String? = nil, file: StaticString = #filePath, line: UInt = #line,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            XCTFail("expected \(name), got success", file: file, line: line)
        } catch let otherError as DBusError {
            XCTAssertEqual(otherError.name, name, "\(otherError)", file: file, line: line)
            if let text {
                XCTAssertTrue(
                    otherError.message.contains(text), "'\(otherError.message)' lacks '\(text)'", file: file, line: line
                )
            }
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
    }

    // MARK: connection basics

    func testUniqueNamesAndBusFloorCall() throws {
        XCTAssertTrue(server.uniqueName.hasPrefix(":"))
        XCTAssertTrue(client.uniqueName.hasPrefix(":"))
        XCTAssertNotEqual(server.uniqueName, client.uniqueName)
        let otherReply = try client.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "GetNameOwner"
        ) { $0.append(self.server.uniqueName) }
        XCTAssertEqual(try otherReply.reader().readString(), server.uniqueName)
        XCTAssertTrue(client.isConnected)
        client.close()
        XCTAssertFalse(client.isConnected)
        assertDBusError(DBusError.Name.disconnected) {
            _ = try self.client.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "GetId")
        }
    }

    func testOpenBadAddressThrows() {
        XCTAssertThrowsError(try DBusConnection.open(address: "unix:path=/nonexistent/axdbus/socket")) { error in
            XCTAssertNotNil(error as? DBusError)
        }
        XCTAssertThrowsError(try DBusConnection.open(address: "this is not an address"))
    }

    func testRequestName() throws {
        XCTAssertEqual(try server.requestName("org.axserver.TestName"), .primaryOwner)
        XCTAssertEqual(try server.requestName("org.axserver.TestName"), .alreadyOwner)
        XCTAssertEqual(try client.requestName("org.axserver.TestName"), .exists)
        try exportEcho()
        let message = try DBusMessage.methodCall(
            destination: "org.axserver.TestName", path: testPath, interface: testInterface, member: "Echo")
        message.append { $0.append("via well-known name") }
        XCTAssertEqual(try client.call(message).values(), [.string("via well-known name")])
        assertDBusError(DBusError.Name.invalidArgs) { _ = try self.server.requestName("not a name") }
    }

    // MARK: round trips of every signature

    func testRoundTripBasicTypes() throws {
        try exportEcho()
        let values: [DBusValue] = [
            .byte(0), .byte(255), .bool(true), .bool(false),
            .int16(.min), .int16(.max), .uint16(.max), .int32(.min), .int32(-1), .uint32(.max),
            .int64(.min), .int64(.max), .uint64(.max), .double(-1.5e300), .double(.infinity), .double(0),
            .string(""), .string("héllo wörld ✓ 🎉"), .string(String(repeating: "x", count: 100_000)),
            .objectPath("/"), .objectPath("/org/a11y/atspi/accessible/root"), .signature(""),
            .signature("a((so)(so)(so)iiassusau)"),
        ]
        XCTAssertEqual(try callEcho(values), values)
    }

    func testRoundTripATSPISignatures() throws {
        try exportEcho()
        let ref = { (b: String, p: String) in DBusValue.reference(b, p) }
        let cacheItem = DBusValue.struct([
            ref(":1.7", "/org/a11y/atspi/accessible/12"), ref(":1.7", "/org/a11y/atspi/accessible/root"),
            ref(":1.7", "/org/a11y/atspi/accessible/3"), .int32(2), .int32(0),
            .array(elementSignature: "s", [.string("org.a11y.atspi.Accessible"), .string("org.a11y.atspi.Action")]),
            .string("OK"), .uint32(43), .string(""),
            .array(elementSignature: "u", [.uint32(1 << 8 | 1 << 11), .uint32(0)]),
        ])
        let values: [DBusValue] = [
            .array(elementSignature: "((so)(so)(so)iiassusau)", [cacheItem, cacheItem]),
            .array(elementSignature: "((so)(so)(so)iiassusau)", []),
            // (siiva{sv}) as one struct and as the top-level event body
            .struct([.string("focused"), .int32(1), .int32(0), .variant(.int32(0)), .vardict([])]),
            .string("add"), .int32(3), .int32(0), .variant(ref(":1.7", "/org/a11y/atspi/accessible/9")),
            .vardict([
                ("interfaces", .array(elementSignature: "s", [.string("x")])), ("n", .variant(.variant(.uint64(5)))),
            ]),
            .array(elementSignature: "(so)", [ref(":1.1", "/a"), ref(":1.2", "/b/c")]),
            .dictionary(
                keySignature: "s", valueSignature: "s",
                [(.string("level"), .string("2")), (.string("toolkit"), .string("AXServer"))]),
            .array(elementSignature: "u", [.uint32(0), .uint32(.max)]),
            .array(
                elementSignature: "(ua(so))",
                [
                    .struct([.uint32(15), .array(elementSignature: "(so)", [ref(":1.7", "/x")])]),
                    .struct([.uint32(16), .array(elementSignature: "(so)", [])]),
                ]),
            .array(
                elementSignature: "a{sv}",
                [.vardict([("deep", .array(elementSignature: "ay", [.array(elementSignature: "y", [.byte(1)])]))])]),
            .variant(.struct([.int32(1), .int32(2), .int32(3), .int32(4)])),
        ]
        XCTAssertEqual(try callEcho(values), values)
    }

    /// Typed writer on the server, typed reader on the client: Cache.GetItems `a((so)(so)(so)iiassusau)`.
    func testTypedGetItemsRoundTrip() throws {
        let bus = server.uniqueName
        var items: [CacheItem] = []
        for i in 0..<500 {
            let root = "/org/a11y/atspi/accessible/root"
            let parentPath: String = i == 0 ? root : "/org/a11y/atspi/accessible/\(i / 10)"
            let ifaces: [String] =
                i % 3 == 0
                ? ["org.a11y.atspi.Accessible", "org.a11y.atspi.Component", "org.a11y.atspi.Action"]
                : ["org.a11y.atspi.Accessible"]
            let childCount: Int32 = i < 50 ? 10 : 0
            let desc: String = i % 2 == 0 ? "" : "desc \(i)"
            let states: [UInt32] = [UInt32(truncatingIfNeeded: i &* 2_654_435_761), UInt32(i)]
            items.append(
                CacheItem(
                    object: (bus, "/org/a11y/atspi/accessible/\(i)"), app: (bus, root), parent: (bus, parentPath),
                    indexInParent: Int32(i % 10), childCount: childCount, interfaces: ifaces,
                    name: "Item \(i) ✓", role: UInt32(i % 130), description: desc, states: states))
        }
        let table = items
        try server.register(path: "/org/a11y/atspi/cache") { msg in
            guard msg.isMethodCall("org.a11y.atspi.Cache", "GetItems") else { return .notHandled }
            try msg.requireSignature("")
            let reply = msg.makeReply()
            let writer = reply.writer()
            writer.openArray(signature: "((so)(so)(so)iiassusau)")
            for it in table {
                writer.openStruct()
                writer.appendReference(bus: it.object.0, path: it.object.1)
                writer.appendReference(bus: it.app.0, path: it.app.1)
                writer.appendReference(bus: it.parent.0, path: it.parent.1)
                writer.append(it.indexInParent)
                writer.append(it.childCount)
                writer.openArray(signature: "s")
                for state in it.interfaces { writer.append(state) }
                writer.close()
                writer.append(it.name)
                writer.append(it.role)
                writer.append(it.description)
                writer.appendArray(it.states)
                writer.close()
            }
            writer.close()
            writer.finish()
            return .reply(reply)
        }
        let reply = try client.call(
            destination: bus, path: "/org/a11y/atspi/cache", interface: "org.a11y.atspi.Cache", member: "GetItems")
        XCTAssertEqual(reply.signature, "a((so)(so)(so)iiassusau)")
        let reader = reply.reader()
        var got: [CacheItem] = []
        try reader.enterArray(elementSignature: "((so)(so)(so)iiassusau)")
        while !reader.isAtEnd {
            try reader.enterStruct()
            let reference = try reader.readReference()
            let otherReference = try reader.readReference()
            let referenceValue = try reader.readReference()
            let idx = try reader.readInt32()
            let cc = try reader.readInt32()
            let ifaces = try reader.readStringArray()
            let name = try reader.readString()
            let role = try reader.readUInt32()
            let desc = try reader.readString()
            let states = try reader.readUInt32Array()
            try reader.leave()
            got.append(
                CacheItem(
                    object: reference, app: otherReference, parent: referenceValue, indexInParent: idx, childCount: cc,
                    interfaces: ifaces,
                    name: name, role: role, description: desc, states: states))
        }
        try reader.leave()
        XCTAssertTrue(reader.isAtEnd)
        XCTAssertEqual(got.count, items.count)
        XCTAssertEqual(got, items)
    }

    func testUnixFDRoundTrip() throws {
        try exportEcho()
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let out = try callEcho([.unixFD(fds[1]), .string("after fd")])
        guard out.count == 2, case .unixFD(let received) = out[0] else { return XCTFail("got \(out)") }
        XCTAssertNotEqual(received, fds[1])
        XCTAssertEqual(out[1], .string("after fd"))
        // The received descriptor is a duplicate of our pipe's write end.
        XCTAssertEqual(write(received, "ping", 4), 4)
        close(received)
        var buf = [UInt8](repeating: 0, count: 4)
        XCTAssertEqual(read(fds[0], &buf, 4), 4)
        XCTAssertEqual(String(decoding: buf, as: UTF8.self), "ping")
    }

    // MARK: errors and robustness

    /// Server method `Concat(ss)→s` that validates its signature.
    func exportConcat() throws {
        try server.register(path: testPath) { msg in
            if msg.isMethodCall(testInterface, "Concat") {
                try msg.requireSignature("ss")
                let reader = msg.reader()
                let string = try reader.readString()
                let otherString = try reader.readString()
                return .reply(msg.makeReply { $0.append(string + otherString) })
            }
            if msg.isMethodCall(testInterface, "ReadLoose") {
                // Reads without checking the signature first: the reader itself must report the mismatch.
                let reader = msg.reader()
                try reader.enterArray()
                var int32: Int32 = 0
                while !reader.isAtEnd {
                    try reader.enterStruct()
                    _ = try reader.readString()
                    int32 += try reader.readInt32()
                    try reader.leave()
                }
                try reader.leave()
                return .reply(msg.makeReply { $0.append(int32) })
            }
            if msg.isMethodCall(testInterface, "BadReply") {
                // A reply whose marshalling goes wrong must become a Failed error, not a crash.
                let reply = msg.makeReply()
                let writer = reply.writer()
                writer.openArray(signature: "(so)")
                writer.openStruct()
                writer.append("bus")
                writer.append(Int32(5))
                writer.close()
                writer.close()
                return .reply(reply)
            }
            if msg.isMethodCall(testInterface, "Throws") {
                struct Oops: Error {}
                throw Oops()
            }
            return .error(.unknownMethod(for: msg))
        }
    }

    func call(_ member: String, path: String = testPath, _ body: (DBusWriter) -> Void = { _ in }) throws -> DBusMessage
    {
        try client.call(
            destination: server.uniqueName, path: path, interface: testInterface, member: member,
            timeoutMilliseconds: 5_000, body)
    }

    func testErrorRepliesAndServerKeepsServing() throws {
        try exportConcat()
        XCTAssertEqual(
            try call("Concat") {
                $0.append("a")
                $0.append("b")
            }.reader().readString(), "ab")
        for _ in 0..<3 {
            assertDBusError(DBusError.Name.invalidArgs, contains: "expected signature 'ss', got 'si'") {
                _ = try self.call("Concat") {
                    $0.append("a")
                    $0.append(Int32(1))
                }
            }
            assertDBusError(DBusError.Name.invalidArgs, contains: "got ''") { _ = try self.call("Concat") }
            assertDBusError(DBusError.Name.unknownMethod, contains: "NoSuchMethod") {
                _ = try self.call("NoSuchMethod")
            }
            assertDBusError(DBusError.Name.invalidArgs, contains: "expected 'i' at struct field 2") {
                _ = try self.call("ReadLoose") { writer in
                    writer.openArray(signature: "(ss)")
                    writer.openStruct()
                    writer.append("x")
                    writer.append("y")
                    writer.close()
                    writer.close()
                }
            }
            assertDBusError(DBusError.Name.invalidArgs, contains: "expected 'a' at argument 1, got 's'") {
                _ = try self.call("ReadLoose") { $0.append("x") }
            }
            assertDBusError(DBusError.Name.failed, contains: "marshalling error") { _ = try self.call("BadReply") }
            assertDBusError(DBusError.Name.failed, contains: "Oops") { _ = try self.call("Throws") }
        }
        let ok = try call("ReadLoose") { writer in
            writer.openArray(signature: "(si)")
            for i in 1...4 {
                writer.openStruct()
                writer.append("k")
                writer.append(Int32(i))
                writer.close()
            }
            writer.close()
        }
        XCTAssertEqual(try ok.reader().readInt32(), 10)
        XCTAssertEqual(
            try call("Concat") {
                $0.append("still ")
                $0.append("alive")
            }.reader().readString(), "still alive")
    }

    func testUnknownObjectAndInterfaceFromFallback() throws {
        let known = Set(["root", "1", "2"])
        try server.registerFallback(path: "/org/a11y/atspi/accessible") { msg in
            let path = msg.path ?? ""
            let id = path.split(separator: "/").last.map(String.init) ?? ""
            guard path.hasPrefix("/org/a11y/atspi/accessible/"), known.contains(id) else {
                return .error(.unknownObject(path: msg.path))
            }
            guard msg.hasInterface("org.a11y.atspi.Accessible") else {
                return .error(.unknownInterface(msg.interface, path: msg.path))
            }
            if msg.hasMember("GetRole") { return .reply(msg.makeReply { $0.append(UInt32(id == "root" ? 75 : 43)) }) }
            return .error(.unknownMethod(for: msg))
        }
        func get(_ p: String, _ iface: String = "org.a11y.atspi.Accessible", _ member: String = "GetRole") throws
            -> DBusMessage
        {
            try client.call(destination: server.uniqueName, path: p, interface: iface, member: member)
        }
        XCTAssertEqual(try get("/org/a11y/atspi/accessible/root").reader().readUInt32(), 75)
        XCTAssertEqual(try get("/org/a11y/atspi/accessible/2").reader().readUInt32(), 43)
        assertDBusError(
            DBusError.Name.unknownObject, contains: "Object does not exist at path \"/org/a11y/atspi/accessible/99\""
        ) {
            _ = try get("/org/a11y/atspi/accessible/99")
        }
        assertDBusError(DBusError.Name.unknownObject) { _ = try get("/org/a11y/atspi/accessible/1/deeper") }
        assertDBusError(DBusError.Name.unknownInterface, contains: "org.a11y.atspi.Text") {
            _ = try get("/org/a11y/atspi/accessible/1", "org.a11y.atspi.Text")
        }
        assertDBusError(DBusError.Name.unknownMethod, contains: "GetNothing") {
            _ = try get("/org/a11y/atspi/accessible/1", "org.a11y.atspi.Accessible", "GetNothing")
        }
        // Outside the fallback subtree nothing is exported: libdbus answers by itself.
        XCTAssertThrowsError(try get("/elsewhere")) { error in XCTAssertNotNil(error as? DBusError) }
        // Registering the same path twice is an error, not a crash.
        XCTAssertThrowsError(try server.registerFallback(path: "/org/a11y/atspi/accessible") { _ in .notHandled })
        XCTAssertEqual(try get("/org/a11y/atspi/accessible/1").reader().readUInt32(), 43)
        XCTAssertTrue(server.unregister(path: "/org/a11y/atspi/accessible"))
        XCTAssertThrowsError(try get("/org/a11y/atspi/accessible/1"))
    }

    func testInvalidNamesAndMarshallingMistakesNeverCrash() throws {
        assertDBusError(DBusError.Name.invalidArgs, contains: "object path") {
            _ = try DBusMessage.methodCall(destination: nil, path: "no/leading/slash", interface: nil, member: "M")
        }
        assertDBusError(DBusError.Name.invalidArgs, contains: "interface") {
            _ = try DBusMessage.methodCall(destination: nil, path: "/a", interface: "nodots", member: "M")
        }
        assertDBusError(DBusError.Name.invalidArgs, contains: "member") {
            _ = try DBusMessage.signal(path: "/a", interface: "a.b", member: "bad-member")
        }
        assertDBusError(DBusError.Name.invalidArgs, contains: "bus name") {
            _ = try DBusMessage.methodCall(destination: "::bad", path: "/a", interface: nil, member: "M")
        }
        XCTAssertNil(DBusObjectPath("/trailing/"))
        XCTAssertNotNil(DBusObjectPath("/a/b_1"))
        for valid in ["/", "/a", "/org/a11y/atspi/accessible/root", "/A_9/z"] {
            XCTAssertTrue(DBusNames.isValidObjectPath(valid), valid)
        }
        for invalid in ["", "a", "//", "/a//b", "/a/", "/a-b", "/a.b", "/é", "/a b", "/a\u{0}b", " /a"] {
            XCTAssertFalse(DBusNames.isValidObjectPath(invalid), invalid)
        }
        XCTAssertNil(DBusSignature("a("))

        // Each of these would abort the process inside libdbus if passed through unchecked.
        let cases: [(String, (DBusWriter) -> Void)] = [
            (
                "int in a string array",
                { writer in
                    writer.openArray(signature: "s")
                    writer.append(Int32(1))
                    writer.close()
                }
            ),
            (
                "incomplete struct in array",
                { writer in
                    writer.openArray(signature: "(so)")
                    writer.openStruct()
                    writer.append("x")
                    writer.close()
                    writer.close()
                }
            ),
            ("dict entry at top level", { writer in writer.openDictEntry() }),
            (
                "two values in a variant",
                { writer in
                    writer.openVariant(signature: "i")
                    writer.append(Int32(1))
                    writer.append(Int32(2))
                    writer.close()
                }
            ),
            (
                "empty variant",
                { writer in
                    writer.openVariant(signature: "i")
                    writer.close()
                }
            ),
            ("bad variant signature", { writer in writer.openVariant(signature: "ii") }),
            ("bad array signature", { writer in writer.openArray(signature: "a") }),
            ("invalid object path", { writer in writer.appendObjectPath("//x") }),
            ("invalid signature value", { writer in writer.appendSignature("(") }),
            (
                "empty struct",
                { writer in
                    writer.openStruct()
                    writer.close()
                }
            ),
            (
                "unclosed container",
                { writer in
                    writer.openArray(signature: "i")
                    writer.append(Int32(3))
                }
            ),
            ("close at top level", { writer in writer.close() }),
            (
                "wrong array type in a{sv}",
                { writer in
                    writer.openArray(signature: "{sv}")
                    writer.openDictEntry()
                    writer.append("k")
                    writer.append("not a variant")
                    writer.close()
                    writer.close()
                }
            ),
        ]
        for (what, body) in cases {
            let message = try DBusMessage.signal(path: "/a", interface: "a.b", member: "C")
            let otherWriter = message.writer()
            body(otherWriter)
            otherWriter.finish()
            XCTAssertNotNil(otherWriter.error, what)
            XCTAssertNotNil(message.marshalError, what)
            assertDBusError(DBusError.Name.failed, contains: "marshalling error") { try self.client.send(message) }
        }
        // Writing to a locked message (received, or already sent) would abort inside libdbus.
        let sent = try DBusMessage.signal(path: "/a", interface: "a.b", member: "Sent")
        let early = sent.writer()
        early.append(Int32(1))
        try client.send(sent)
        XCTAssertTrue(sent.isLocked)
        early.append(Int32(2))
        XCTAssertNotNil(early.error)
        sent.append { $0.append("late") }
        sent.setNoReply(true)
        XCTAssertEqual(sent.signature, "i")
        // A message with a container still open is refused, and nothing aborts when its writer goes away.
        let open = try DBusMessage.signal(path: "/a", interface: "a.b", member: "Open")
        var otherWriter: DBusWriter? = open.writer()
        otherWriter?.openArray(signature: "s")
        otherWriter?.append("x")
        assertDBusError(DBusError.Name.failed, contains: "unclosed container") { try self.client.send(open) }
        otherWriter = nil
        XCTAssertNotNil(open.marshalError)
        assertDBusError(DBusError.Name.failed, contains: "marshalling error") { try self.client.send(open) }
        // Handlers get locked (received) messages.
        try server.register(path: "/locked") { msg in
            msg.append { $0.append("must not crash") }
            return .reply(msg.makeReply { $0.append(msg.isLocked) })
        }
        XCTAssertEqual(
            try client.call(destination: server.uniqueName, path: "/locked", interface: "a.b", member: "M").values(),
            [.bool(true)])

        // Strings with NUL are sanitized, not truncated or fatal.
        try exportEcho()
        XCTAssertEqual(
            try callEcho([.string("a\u{0}b"), .string("\u{FFFE}\u{FFFF}")]),
            [.string("ab"), .string("\u{FFFE}\u{FFFF}")])
    }

    func testReaderReportsWrongTypesPrecisely() throws {
        let message = try DBusMessage.signal(path: "/a", interface: "a.b", member: "Event")
        message.append { writer in
            writer.append("focused")
            writer.append(Int32(1))
            writer.append(Int32(0))
            writer.variant("i") { writer.append(Int32(0)) }
            writer.appendEmptyVardict()
        }
        XCTAssertEqual(message.signature, "siiva{sv}")
        let reader = message.reader()
        XCTAssertEqual(reader.currentType, .string)
        XCTAssertThrowsError(try reader.readInt32()) { error in
            XCTAssertEqual((error as? DBusError)?.name, DBusError.Name.invalidArgs)
            XCTAssertTrue(
                (error as? DBusError)?.message.contains("expected 'i' at argument 1, got 's'") ?? false, "\(error)")
        }
        XCTAssertEqual(try reader.readString(), "focused")
        XCTAssertThrowsError(try reader.enterStruct())
        XCTAssertThrowsError(try reader.readUInt32Array())
        XCTAssertEqual(try reader.readInt32(), 1)
        XCTAssertEqual(try reader.readInt32(), 0)
        XCTAssertThrowsError(try reader.readString())
        try reader.enterVariant()
        XCTAssertEqual(reader.currentSignature, "i")
        XCTAssertThrowsError(try reader.readUInt32())
        XCTAssertEqual(try reader.readInt32(), 0)
        XCTAssertThrowsError(try reader.readInt32()) { error in
            XCTAssertTrue("\(error)".contains("end of arguments"), "\(error)")
        }
        try reader.leave()
        XCTAssertThrowsError(try reader.enterArray(elementSignature: "{ss}")) { error in
            XCTAssertTrue("\(error)".contains("got 'a{sv}'"), "\(error)")
        }
        XCTAssertEqual(try reader.readVardict(), [:])
        XCTAssertTrue(reader.isAtEnd)
        XCTAssertThrowsError(try reader.skip())
        XCTAssertThrowsError(try reader.leave())
    }

    func testEmptyBodyAndSessionBusFromEnvironment() throws {
        let empty = try DBusMessage.signal(path: "/a", interface: "a.b", member: "Empty")
        let reader = empty.reader()
        XCTAssertTrue(reader.isAtEnd)
        XCTAssertNil(reader.currentType)
        XCTAssertThrowsError(try reader.readString()) { error in
            XCTAssertTrue("\(error)".contains("got end of arguments"), "\(error)")
        }
        XCTAssertEqual(try empty.values(), [])

        let saved = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
        defer {
            if let saved { setenv("DBUS_SESSION_BUS_ADDRESS", saved, 1) } else { unsetenv("DBUS_SESSION_BUS_ADDRESS") }
        }
        unsetenv("DBUS_SESSION_BUS_ADDRESS")
        assertDBusError(DBusError.Name.badAddress) { _ = try DBusConnection.sessionBus() }
        setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
        let session = try DBusConnection.sessionBus()
        defer { session.close() }
        XCTAssertTrue(session.uniqueName.hasPrefix(":"))
        let savedA11y = ProcessInfo.processInfo.environment["AT_SPI_BUS_ADDRESS"]
        defer {
            if let savedA11y { setenv("AT_SPI_BUS_ADDRESS", savedA11y, 1) } else { unsetenv("AT_SPI_BUS_ADDRESS") }
        }
        setenv("AT_SPI_BUS_ADDRESS", "unix:path=/tmp/some-a11y-bus", 1)
        XCTAssertEqual(try DBusConnection.accessibilityBusAddress(session: session), "unix:path=/tmp/some-a11y-bus")
    }

    // MARK: standard interfaces

    func testPropertiesIntrospectPeer() throws {
        let store = Mutex<[String: DBusValue]>(["Name": .string("OK button"), "ChildCount": .int32(0), "Id": .int32(0)])
        let accessible = "org.a11y.atspi.Accessible"
        let application = "org.a11y.atspi.Application"
        let props = DBusProperties(
            get: { msg, iface, name in
                guard msg.hasPath("/org/a11y/atspi/accessible/root") else {
                    throw DBusError.unknownObject(path: msg.path)
                }
                guard iface == accessible || iface == application else {
                    throw DBusError.unknownInterface(iface, path: msg.path)
                }
                guard let otherValue = store.withLock({ $0[name] }) else {
                    throw DBusError.unknownProperty(name, interface: iface)
                }
                return otherValue
            },
            getAll: { _, iface in
                guard iface == accessible else { return [] }
                return store.withLock { locked in
                    locked.filter { $0.key != "Id" }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
                }
            },
            set: { _, iface, name, value in
                guard iface == application, name == "Id" else {
                    throw DBusError.propertyReadOnly(name, interface: iface)
                }
                guard case .int32 = value else {
                    throw DBusError.invalidArgs("Id must be 'i', got '\(value.signature)'")
                }
                store.withLock { $0["Id"] = value }
            })
        let standard = DBusStandardInterfaces(
            properties: props,
            introspect: { msg in
                msg.hasPath("/org/a11y/atspi/accessible/root")
                    ? DBusIntrospection.xml(interfaces: [
                        DBusInterfaceDescription(
                            name: accessible, methods: [.method("GetRole", out: ["u"])],
                            properties: [.init("Name", "s")])
                    ])
                    : nil
            })
        try server.export(path: "/org/a11y/atspi/accessible", fallback: true, standard: standard) { msg in
            if msg.isMethodCall(accessible, "GetRole") { return .reply(msg.makeReply { $0.append(UInt32(75)) }) }
            return .notHandled
        }
        let dest = server.uniqueName
        let root = "/org/a11y/atspi/accessible/root"
        func pcall(_ member: String, path: String = root, _ body: (DBusWriter) -> Void) throws -> DBusMessage {
            try client.call(
                destination: dest, path: path, interface: "org.freedesktop.DBus.Properties", member: member, body)
        }
        // Get
        let otherReply = try pcall("Get") {
            $0.append(accessible)
            $0.append("Name")
        }
        XCTAssertEqual(otherReply.signature, "v")
        XCTAssertEqual(try otherReply.values(), [.variant(.string("OK button"))])
        assertDBusError(DBusError.Name.unknownProperty, contains: "Nope") {
            _ = try pcall("Get") {
                $0.append(accessible)
                $0.append("Nope")
            }
        }
        assertDBusError(DBusError.Name.unknownInterface) {
            _ = try pcall("Get") {
                $0.append("org.x.Y")
                $0.append("Name")
            }
        }
        assertDBusError(DBusError.Name.unknownObject) {
            _ = try pcall("Get", path: "/org/a11y/atspi/accessible/7") {
                $0.append(accessible)
                $0.append("Name")
            }
        }
        assertDBusError(DBusError.Name.invalidArgs, contains: "expected signature 'ss'") {
            _ = try pcall("Get") { $0.append(accessible) }
        }
        // GetAll
        let all = try pcall("GetAll") { $0.append(accessible) }
        XCTAssertEqual(all.signature, "a{sv}")
        XCTAssertEqual(try all.reader().readVardict(), ["Name": .string("OK button"), "ChildCount": .int32(0)])
        // Set (what the registry does after Embed)
        _ = try pcall("Set") { writer in
            writer.append(application)
            writer.append("Id")
            writer.variant("i") { writer.append(Int32(42)) }
        }
        XCTAssertEqual(
            try pcall("Get") {
                $0.append(application)
                $0.append("Id")
            }.values(), [.variant(.int32(42))])
        assertDBusError(DBusError.Name.propertyReadOnly) {
            _ = try pcall("Set") { writer in
                writer.append(accessible)
                writer.append("Name")
                writer.variant("s") { writer.append("x") }
            }
        }
        assertDBusError(DBusError.Name.invalidArgs, contains: "must be 'i'") {
            _ = try pcall("Set") { writer in
                writer.append(application)
                writer.append("Id")
                writer.variant("s") { writer.append("x") }
            }
        }
        // Introspect
        let xml = try client.call(
            destination: dest, path: root, interface: "org.freedesktop.DBus.Introspectable", member: "Introspect"
        ).reader().readString()
        XCTAssertTrue(xml.contains("<interface name=\"org.a11y.atspi.Accessible\">"), xml)
        XCTAssertTrue(xml.contains("<interface name=\"org.freedesktop.DBus.Properties\">"), xml)
        XCTAssertTrue(xml.contains("<method name=\"GetRole\">"), xml)
        assertDBusError(DBusError.Name.unknownObject) {
            _ = try self.client.call(
                destination: dest, path: "/org/a11y/atspi/accessible/5",
                interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
        }
        // Peer on an exported path and on a path with no handler at all (libdbus answers itself)
        for point in [root, "/", "/some/where"] {
            let pong = try client.call(
                destination: dest, path: point, interface: "org.freedesktop.DBus.Peer", member: "Ping")
            XCTAssertEqual(pong.type, .methodReturn)
        }
        let mid = try client.call(
            destination: dest, path: root, interface: "org.freedesktop.DBus.Peer", member: "GetMachineId"
        ).reader().readString()
        XCTAssertEqual(mid.count, 32)
        XCTAssertEqual(mid, DBusStandardInterfaces.machineID)
        // the normal method still works
        XCTAssertEqual(
            try client.call(destination: dest, path: root, interface: accessible, member: "GetRole").reader()
                .readUInt32(), 75)
    }

    // MARK: signals

    func testSignalsViaMatchRule() throws {
        let got = Collector<[DBusValue]>()
        let filter = DBusSignalFilter(path: nil, interface: "org.a11y.atspi.Event.Object", member: "StateChanged")
        _ = try client.subscribe(filter, arg0: "focused") { msg in
            if let otherValues = try? msg.values() { got.add(otherValues) }
        }
        let other = Collector<String>()
        // A handler without a match rule sees nothing broadcast by others...
        client.addSignalHandler(DBusSignalFilter(interface: "org.a11y.atspi.Event.Window")) { msg in
            other.add(msg.member ?? "")
        }
        func emit(_ detail: String, _ d1: Int32, path: String = "/org/a11y/atspi/accessible/5") throws {
            try server.emitSignal(path: path, interface: "org.a11y.atspi.Event.Object", member: "StateChanged") {
                writer in
                writer.append(detail)
                writer.append(d1)
                writer.append(Int32(0))
                writer.variant("i") { writer.append(Int32(0)) }
                writer.appendEmptyVardict()
            }
        }
        try emit("checked", 1)  // filtered out by arg0 in the bus
        try emit("focused", 1)
        try emit("focused", 0, path: "/org/a11y/atspi/accessible/6")
        try server.emitSignal(path: "/w", interface: "org.a11y.atspi.Event.Window", member: "Activate") { writer in
            writer.append("")
            writer.append(Int32(0))
            writer.append(Int32(0))
            writer.variant("s") { writer.append("title") }
            writer.appendEmptyVardict()
        }
        let items = got.wait(for: 2)
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual(items.first, [.string("focused"), .int32(1), .int32(0), .variant(.int32(0)), .vardict([])])
        XCTAssertEqual(items.last?[1], .int32(0))
        usleep(100_000)
        XCTAssertEqual(got.count, 2, "the 'checked' signal must not be delivered")
        XCTAssertEqual(other.count, 0, "no match rule for Event.Window: the bus must not deliver it")
        try client.addMatch(DBusSignalFilter(interface: "org.a11y.atspi.Event.Window").matchRule())
        try server.emitSignal(path: "/w", interface: "org.a11y.atspi.Event.Window", member: "Activate") { writer in
            writer.append("")
            writer.append(Int32(0))
            writer.append(Int32(0))
            writer.variant("s") { writer.append("title") }
            writer.appendEmptyVardict()
        }
        XCTAssertEqual(other.wait(for: 1), ["Activate"])
    }

    func testNameOwnerChangedSignal() throws {
        let seen = Collector<[DBusValue]>()
        _ = try client.subscribe(
            DBusSignalFilter(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged"),
            arg0: "org.axserver.Watched"
        ) { msg in
            if msg.hasSignature("sss"), let otherValues = try? msg.values() { seen.add(otherValues) }
        }
        let third = try DBusConnection.open(address: bus.address)
        XCTAssertEqual(try third.requestName("org.axserver.Watched"), .primaryOwner)
        let unique = third.uniqueName
        third.close()
        let events = seen.wait(for: 2)
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events.first, [.string("org.axserver.Watched"), .string(""), .string(unique)])
        XCTAssertEqual(events.last, [.string("org.axserver.Watched"), .string(unique), .string("")])
    }

    // MARK: async calls

    func testNonBlockingCallWithCallback() throws {
        let held = Mutex<[DBusMessage]>([])
        try server.register(path: testPath) { msg in
            if msg.isMethodCall(testInterface, "Later") {
                held.withLock { $0.append(msg) }  // reply later (or never)
                return .handled
            }
            if msg.isMethodCall(testInterface, "Now") {
                let reader = try msg.reader().readInt32()
                return .reply(msg.makeReply { $0.append(reader * 2) })
            }
            return .notHandled
        }
        let results = Collector<String>()
        let onLoop = Collector<Bool>()
        let client = self.client!
        for i in 1...20 {
            let message = try DBusMessage.methodCall(
                destination: server.uniqueName, path: testPath, interface: testInterface, member: "Now")
            message.append { $0.append(Int32(i)) }
            client.callAsync(message) { result in
                onLoop.add(client.isOnLoopThread)
                switch result {
                case .success(let reply): results.add("ok \((try? reply.reader().readInt32()) ?? -1)")
                case .failure(let error): results.add("error \(error.name)")
                }
            }
        }
        let got = results.wait(for: 20)
        XCTAssertEqual(Set(got), Set((1...20).map { "ok \($0 * 2)" }))
        XCTAssertEqual(Set(onLoop.all), [true])

        // Convenience form; invalid names come back through the callback.
        let conv = Collector<String>()
        client.callAsync(
            destination: server.uniqueName, path: testPath, interface: testInterface, member: "Now",
            { $0.append(Int32(21)) },
            reply: { result in
                conv.add((try? result.get().reader().readInt32()).map { "ok \($0)" } ?? "failed")
            })
        client.callAsync(destination: server.uniqueName, path: "bad path", interface: testInterface, member: "Now") {
            result in
            if case .failure(let error) = result { conv.add(error.name) }
        }
        XCTAssertEqual(Set(conv.wait(for: 2)), ["ok 42", DBusError.Name.invalidArgs])

        // Timeout: the server holds the call; our timer fires NoReply.
        let timeouts = Collector<DBusError>()
        let t0 = Date()
        let later = try DBusMessage.methodCall(
            destination: server.uniqueName, path: testPath, interface: testInterface, member: "Later")
        client.callAsync(later, timeoutMilliseconds: 200) { result in
            if case .failure(let error) = result { timeouts.add(error) }
        }
        let event = timeouts.wait(for: 1).first
        XCTAssertEqual(event?.name, DBusError.Name.noReply)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(t0), 0.19)
        XCTAssertLessThan(Date().timeIntervalSince(t0), 3)

        // A late reply after the server answers a held call: delivered to the right callback.
        let answered = Collector<String>()
        let later2 = try DBusMessage.methodCall(
            destination: server.uniqueName, path: testPath, interface: testInterface, member: "Later")
        later2.append { $0.append("payload") }
        client.callAsync(later2, timeoutMilliseconds: 5_000) { result in
            answered.add((try? result.get().reader().readString()) ?? "failed")
        }
        let deadline = Date().addingTimeInterval(5)
        while held.withLock({ $0.count }) < 2 && Date() < deadline { usleep(1000) }
        let pending = held.withLock { $0.last! }
        try server.send(pending.makeReply { $0.append("late " + (try pending.reader().readString())) })
        XCTAssertEqual(answered.wait(for: 1), ["late payload"])

        // Recipient disconnects without replying: the bus sends an error.
        let gone = Collector<String>()
        let later3 = try DBusMessage.methodCall(
            destination: server.uniqueName, path: testPath, interface: testInterface, member: "Later")
        client.callAsync(later3) { result in if case .failure(let error) = result { gone.add(error.name) } }
        while held.withLock({ $0.count }) < 3 && Date() < deadline { usleep(1000) }
        server.close()
        XCTAssertEqual(gone.wait(for: 1), [DBusError.Name.noReply])
    }

    func testBlockingCallFromLoopThreadViaPerform() throws {
        try exportConcat()
        let answer = client.performAndWait { [client = client!, dest = server.uniqueName] () -> String in
            (try? client.call(destination: dest, path: testPath, interface: testInterface, member: "Concat") {
                $0.append("x")
                $0.append("y")
            }
            .reader().readString()) ?? "failed"
        }
        XCTAssertEqual(answer, "xy")
    }

    // MARK: threads

    func testConcurrentCallsAndSignalsFromManyThreads() throws {
        try exportConcat()
        let signals = Collector<Int32>()
        _ = try client.subscribe(DBusSignalFilter(interface: testInterface, member: "Tick")) { msg in
            if let reader = try? msg.reader().readInt32() { signals.add(reader) }
        }
        let threads = 8
        let perThread = 300
        let errors = Collector<String>()
        let server = self.server!
        let client = self.client!
        let dest = server.uniqueName
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for i in 0..<perThread {
                do {
                    let otherReply = try client.call(
                        destination: dest, path: testPath, interface: testInterface, member: "Concat"
                    ) { writer in
                        writer.append("t\(thread)-")
                        writer.append("\(i)")
                    }
                    let otherReader = try otherReply.reader().readString()
                    if otherReader != "t\(thread)-\(i)" { errors.add("wrong reply \(otherReader) for t\(thread)-\(i)") }
                    try server.emitSignal(path: testPath, interface: testInterface, member: "Tick") {
                        $0.append(Int32(thread * perThread + i))
                    }
                } catch {
                    errors.add("\(error)")
                }
            }
        }
        XCTAssertEqual(errors.all, [])
        let got = signals.wait(for: threads * perThread, timeout: 20)
        XCTAssertEqual(got.count, threads * perThread)
        XCTAssertEqual(Set(got), Set((0..<Int32(threads * perThread)).map { $0 }))
        // Per sender thread, signals keep their order.
        for elapsed in 0..<threads {
            let mine = got.filter { Int($0) / perThread == elapsed }
            XCTAssertEqual(mine, mine.sorted(), "thread \(elapsed) signals out of order")
        }
    }

    // MARK: lifetime and fire-and-forget

    func testNoReplyCallsAndConnectionIsReleasedAfterClose() throws {
        let seen = Collector<Int32>()
        try server.register(path: testPath) { msg in
            if msg.isMethodCall(testInterface, "Set") {
                seen.add(try msg.reader().readInt32())
                return .reply(msg.makeReply())  // not sent: the caller set NO_REPLY_EXPECTED
            }
            return .notHandled
        }
        for i in 1...3 {
            let message = try DBusMessage.methodCall(
                destination: server.uniqueName, path: testPath, interface: testInterface, member: "Set")
            message.append { $0.append(Int32(i)) }
            message.setNoReply(true)
            XCTAssertTrue(message.noReplyExpected)
            try client.send(message)
        }
        XCTAssertEqual(seen.wait(for: 3), [1, 2, 3])

        weak var weakConn: DBusConnection?
        do {
            let connection = try DBusConnection.open(address: bus.address)
            weakConn = connection
            try connection.register(path: "/x") { _ in .notHandled }
            connection.close()
        }
        XCTAssertNil(weakConn, "a closed connection must be released (loop thread joined, no retain cycle)")
    }

    // MARK: benchmark (figures printed; run in release for real numbers)

    func testBenchmarkRoundTrip() throws {
        let otherCount = Int(ProcessInfo.processInfo.environment["AXDBUS_BENCH_COUNT"] ?? "") ?? 2_000
        let benchmark = try DBusBenchmark.run(address: bus.address, count: otherCount)
        print("AXDBus benchmark: \(benchmark)")
        XCTAssertGreaterThan(benchmark.medianMicros, 0)
        XCTAssertGreaterThan(benchmark.busFloorMicros, 0)
        XCTAssertLessThan(benchmark.medianMicros, 100_000)
        let (median, floor) = try DBusBenchmark.roundTrip(address: bus.address, count: 200)
        XCTAssertTrue(median.isFinite && floor.isFinite)
        let otherBenchmark = try DBusBenchmark.marshalling(iterations: 5_000, items: 1_000)
        print("AXDBus marshalling: \(otherBenchmark)")
        XCTAssertGreaterThan(otherBenchmark.getItemsBytes, 1_000 * 100)
    }
}
