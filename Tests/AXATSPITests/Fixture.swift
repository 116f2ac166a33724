import AXATSPI
import AXCore
import AXDBus
import AXDemo
import AXHub
import AXJSON
import AXTestSupport
import Foundation
import Logging
import Synchronization
import XCTest

/// Records every action request; answers `result` after `delay`.
final class FakeProvider: ActionProvider, Sendable {
    let requests = Mutex<[ActionRequest]>([])
    let delay: Duration
    let result: Bool
    init(delay: Duration = .zero, result: Bool = true) {
        self.delay = delay
        self.result = result
    }
    func perform(_ request: ActionRequest, timeout: Duration) async throws(ActionError) -> Bool {
        requests.withLock { $0.append(request) }
        if delay > .zero { try? await Task.sleep(for: delay) }
        return result
    }
    var recorded: [ActionRequest] { requests.withLock { $0 } }
}

/// One node as a client sees it over D-Bus.
struct Seen {
    var path: String
    var name: String
    var role: UInt32
    var id: String
    var parentPath: String
}

/// A private dbus-daemon (no registry), a hub with the demo app, the bridge, and a client connection.
final class Fixture {
    let bus: PrivateBus
    let hub: Hub
    let provider: FakeProvider
    let bridge: ATSPIBridge
    let client: DBusConnection
    let app: String
    let dest: String

    /// A stand-in for at-spi2-registryd (only with `registry: true`).
    var registry: FakeRegistry?

    init(
        provider: FakeProvider = FakeProvider(), demo: AXDemo.DemoApp = AXDemo.DemoApp(),
        actionReplyTimeout: Duration = .milliseconds(600),
        registry withRegistry: Bool = false
    ) async throws {
        bus = try PrivateBus(purpose: "AT-SPI bridge tests", tag: "axatspi-test")
        if withRegistry { registry = try FakeRegistry(address: bus.address) }
        hub = Hub(actionTimeout: .seconds(3))
        self.provider = provider
        app = hub.registerApp(name: AXDemo.DemoApp.appName, provider: provider)
        try hub.setSnapshot(app: app, demo.snapshot())
        var logger = Logger(label: "atspi-test")
        logger.logLevel = .error
        bridge = ATSPIBridge(hub: hub, logger: logger, busAddress: bus.address, actionReplyTimeout: actionReplyTimeout)
        guard try bridge.start() else { throw XCTSkip("bridge did not start") }
        let registered = await bridge.waitUntilRegistered(timeout: .seconds(5))
        XCTAssertTrue(registered, "Embed (failing: no registry on this bus) was never answered")
        client = try DBusConnection.open(address: bus.address)
        guard let busName = bridge.busName(app: app) else { throw XCTSkip("app has no bus name") }
        dest = busName
    }

    func close() {
        registry?.connection.close()
        client.close()
        bridge.stop()
        bus.stop()
    }

    static let root = "/org/a11y/atspi/accessible/root"
    static let acc = "org.a11y.atspi.Accessible"

    @discardableResult
    func call(_ path: String, _ iface: String, _ member: String, _ body: (DBusWriter) -> Void = { _ in }) throws
        -> DBusMessage
    {
        try client.call(
            destination: dest, path: path, interface: iface, member: member, timeoutMilliseconds: 5_000, body)
    }

    func get(_ path: String, _ iface: String, _ prop: String) throws -> DBusValue {
        let reply = try call(path, "org.freedesktop.DBus.Properties", "Get") {
            $0.append(iface)
            $0.append(prop)
        }
        let reader = try reply.reader().readValue()
        return reader.variantValue ?? reader
    }

    func name(_ path: String) throws -> String { try get(path, Fixture.acc, "Name").stringValue ?? "<none>" }

    func role(_ path: String) throws -> UInt32 { try call(path, Fixture.acc, "GetRole").reader().readUInt32() }

    func states(_ path: String) throws -> Set<Int> {
        let words = try call(path, Fixture.acc, "GetState").reader().readUInt32Array()
        var out = Set<Int>()
        for (window, bits) in words.enumerated() {
            for second in 0..<32 where bits & (1 << UInt32(second)) != 0 { out.insert(window * 32 + second) }
        }
        return out
    }

    func attributes(_ path: String) throws -> [String: String] {
        try call(path, Fixture.acc, "GetAttributes").reader().readStringDictionary()
    }

    func children(_ path: String) throws -> [(bus: String, path: String)] {
        try call(path, Fixture.acc, "GetChildren").reader().readReferences()
    }

    func interfaces(_ path: String) throws -> [String] {
        try call(path, Fixture.acc, "GetInterfaces").reader().readStringArray()
    }

    /// Every node under the root, depth first, as seen through GetChildren.
    func walk() throws -> [Seen] {
        var out: [Seen] = []
        var stack: [(String, String)] = try children(Fixture.root).reversed().map { ($0.path, Fixture.root) }
        while let (point, parent) = stack.popLast() {
            let id = try get(point, Fixture.acc, "AccessibleId").stringValue ?? ""
            out.append(Seen(path: point, name: try name(point), role: try role(point), id: id, parentPath: parent))
            stack.append(contentsOf: try children(point).reversed().map { ($0.path, point) })
        }
        return out
    }

    func node(id: String, in seen: [Seen]) throws -> Seen {
        guard let match = seen.first(where: { $0.id == id }) else { throw XCTSkip("no node with AccessibleId \(id)") }
        return match
    }

    func node(name: String, in seen: [Seen]) throws -> Seen {
        guard let match = seen.first(where: { $0.name == name }) else { throw XCTSkip("no node named \(name)") }
        return match
    }

    /// Expects an error reply with `name`.
    func expectError(_ name: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        do {
            try body()
            XCTFail("expected \(name), got a method return", file: file, line: line)
        } catch let otherError as DBusError {
            XCTAssertEqual(otherError.name, name, otherError.message, file: file, line: line)
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
        }
    }
}

/// Collects AT-SPI event signals the client subscribed to.
final class SignalLog: Sendable {
    struct Event: Sendable {
        var path: String
        var interface: String
        var member: String
        var detail: String
        var d1: Int32
        var any: DBusValue?
        var time = Date()
    }
    let events = Mutex<[Event]>([])

    init(
        _ client: DBusConnection, interfaces: [String] = ["org.a11y.atspi.Event.Object", "org.a11y.atspi.Event.Window"]
    ) throws {
        for i in interfaces {
            try client.addMatch("type='signal',interface='\(i)'")
            client.addSignalHandler(DBusSignalFilter(interface: i)) { [self] message in
                let reader = message.reader()
                guard let detail = try? reader.readString(), let d1 = try? reader.readInt32(),
                    (try? reader.readInt32()) != nil
                else {
                    return
                }
                let any = try? reader.readValue()
                self.events.withLock {
                    $0.append(
                        Event(
                            path: message.path ?? "", interface: message.interface ?? "", member: message.member ?? "",
                            detail: detail,
                            d1: d1, any: any?.variantValue))
                }
            }
        }
    }

    /// Waits until an event matching `pred` arrived (or the timeout).
    func wait(timeout: Double = 3, _ pred: (Event) -> Bool) -> Event? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let match = events.withLock({ $0.first(where: pred) }) { return match }
            usleep(5_000)
        }
        return nil
    }

    var all: [Event] { events.withLock { $0 } }
}

/// The registry's side of registration and listener tracking: owns `org.a11y.atspi.Registry`, answers
/// `Socket.Embed` with a desktop reference and `GetRegisteredEvents` with its list, and emits
/// `EventListenerRegistered` / `Deregistered` like at-spi2-registryd.
final class FakeRegistry: Sendable {
    let connection: DBusConnection
    let embeds = Mutex<[(String, String)]>([])
    let events = Mutex<[(String, String)]>([])

    init(address: String) throws {
        connection = try DBusConnection.open(address: address)
        _ = try connection.requestName("org.a11y.atspi.Registry")
        let current = connection
        try connection.register(path: "/org/a11y/atspi/accessible/root") { [self] msg in
            guard msg.isMethodCall("org.a11y.atspi.Socket", "Embed") else { return .notHandled }
            let plug = try msg.reader().readReference()
            self.embeds.withLock { $0.append((plug.bus, plug.path)) }
            return .reply(
                msg.makeReply { writer in
                    writer.openStruct()
                    writer.append(current.uniqueName)
                    writer.appendObjectPath("/org/a11y/atspi/accessible/root")
                    writer.close()
                })
        }
        try connection.register(path: "/org/a11y/atspi/registry") { [self] msg in
            guard msg.isMethodCall("org.a11y.atspi.Registry", "GetRegisteredEvents") else { return .notHandled }
            let list = self.events.withLock { $0 }
            return .reply(
                msg.makeReply { writer in
                    writer.openArray(signature: "(ss)")
                    for (second, event) in list {
                        writer.openStruct()
                        writer.append(second)
                        writer.append(event)
                        writer.close()
                    }
                    writer.close()
                })
        }
    }

    func register(bus: String, event: String) throws {
        events.withLock { $0.append((bus, event)) }
        try connection.emitSignal(
            path: "/org/a11y/atspi/registry", interface: "org.a11y.atspi.Registry", member: "EventListenerRegistered"
        ) { writer in
            writer.append(bus)
            writer.append(event)
            writer.openArray(signature: "s")
            writer.close()
        }
    }

    func deregister(bus: String, event: String) throws {
        events.withLock { $0.removeAll { $0 == (bus, event) } }
        try connection.emitSignal(
            path: "/org/a11y/atspi/registry", interface: "org.a11y.atspi.Registry", member: "EventListenerDeregistered"
        ) { writer in
            writer.append(bus)
            writer.append(event)
        }
    }
}
