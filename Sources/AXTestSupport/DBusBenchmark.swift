import AXDBus
import CDBus
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Micro benchmark: method round trips through a bus daemon.
package enum DBusBenchmark {
    package struct Figures: Sendable, CustomStringConvertible {
        /// Median µs of a blocking `Echo(s)→s` call to an object exported by a second AXDBus connection
        /// (client without loop thread: the call does its own I/O, like libatspi).
        package var medianMicros: Double
        package var p99Micros: Double
        /// Median µs of `org.freedesktop.DBus.GetId` (answered by the daemon itself: the bus floor).
        package var busFloorMicros: Double
        /// Median µs of `Peer.Ping` to the server connection (answered inside libdbus, no Swift handler).
        package var peerPingMicros: Double
        /// Median µs of the same Echo call made from a non-loop thread of a client that runs its own loop
        /// thread (async call + semaphore: one extra thread hand-off each way).
        package var loopClientMedianMicros: Double
        /// Mean µs per call with up to 64 async calls in flight.
        package var pipelinedMicrosPerCall: Double
        package var count: Int

        package var description: String {
            func oneDecimal(_ value: Double) -> String { String(Double(Int(value * 10)) / 10) }
            return
                "calls=\(count) echo median=\(oneDecimal(medianMicros))µs p99=\(oneDecimal(p99Micros))µs | bus floor GetId=\(oneDecimal(busFloorMicros))µs | Peer.Ping=\(oneDecimal(peerPingMicros))µs | echo via loop-thread client=\(oneDecimal(loopClientMedianMicros))µs | pipelined(64)=\(oneDecimal(pipelinedMicrosPerCall))µs/call"
        }
    }

    /// The figures the brief asks for: (median Echo round trip, median bus floor) in µs.
    package static func roundTrip(address: String, count: Int) throws -> (medianMicros: Double, busFloorMicros: Double)
    {
        let figures = try run(address: address, count: count)
        return (figures.medianMicros, figures.busFloorMicros)
    }

    package static let benchPath = "/org/axserver/bench"
    package static let benchInterface = "org.axserver.Bench"

    /// Runs every measurement (`count` calls each) against the bus at `address`.
    package static func run(address: String, count: Int) throws -> Figures {
        let server = try DBusConnection.open(address: address)
        defer { server.close() }
        try server.register(path: benchPath) { msg in
            guard msg.isMethodCall(benchInterface, "Echo") else { return .notHandled }
            try msg.requireSignature("s")
            let text = try msg.reader().readString()
            return .reply(msg.makeReply { $0.append(text) })
        }
        let client = try DBusConnection.open(address: address, startLoop: false)
        defer { client.close() }
        let dest = server.uniqueName
        let calls = max(count, 10)

        func measure(_ conn: DBusConnection, _ make: () throws -> DBusMessage) throws -> [Double] {
            var samples: [Double] = []
            samples.reserveCapacity(calls)
            for _ in 0..<min(200, calls) { _ = try conn.call(try make()) }  // warm-up
            for _ in 0..<calls {
                let t0 = monotonicNanos()
                _ = try conn.call(try make())
                samples.append(Double(monotonicNanos() - t0) / 1000)
            }
            return samples.sorted()
        }
        let echo = { @Sendable () throws -> DBusMessage in
            try DBusMessage.methodCall(destination: dest, path: benchPath, interface: benchInterface, member: "Echo")
                .append { $0.append("hello") }
        }
        let echoSamples = try measure(client, echo)
        let floor = try measure(client) {
            try DBusMessage.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetId")
        }
        let ping = try measure(client) {
            try DBusMessage.methodCall(
                destination: dest, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping")
        }
        let loopClient = try DBusConnection.open(address: address)
        defer { loopClient.close() }
        let lc = try measure(loopClient, echo)

        // Pipelined: keep up to 64 calls in flight.
        let window = 64
        let done = ResultBox<Bool>()
        let sem = DispatchSemaphoreBox()
        let counter = PipelineCounter(total: calls)
        let t0 = monotonicNanos()
        @Sendable func issue() {
            guard counter.takeTicket() else { return }
            guard let message = try? echo() else {
                if counter.finishOne() {
                    done.set(true)
                    sem.signal()
                }
                return
            }
            loopClient.callAsync(message) { _ in
                if counter.finishOne() {
                    done.set(true)
                    sem.signal()
                } else {
                    issue()
                }
            }
        }
        for _ in 0..<window { issue() }
        sem.wait()
        let pipelined = Double(monotonicNanos() - t0) / 1000 / Double(calls)

        func median(_ sorted: [Double]) -> Double { sorted[sorted.count / 2] }
        return Figures(
            medianMicros: median(echoSamples),
            p99Micros: echoSamples[min(echoSamples.count - 1, echoSamples.count * 99 / 100)],
            busFloorMicros: median(floor), peerPingMicros: median(ping),
            loopClientMedianMicros: median(lc), pipelinedMicrosPerCall: pipelined, count: calls)
    }
}

extension DBusBenchmark {
    package struct MarshallingFigures: Sendable, CustomStringConvertible {
        /// ns (median of 20 batches) for one handler-shaped cycle without I/O: Properties.Get-style call "ss"
        /// read + reply "v:s" written.
        package var handlerCycleNanos: Double
        /// µs (best of 20) to write a Cache.GetItems reply `a((so)(so)(so)iiassusau)` with `items` entries.
        package var getItemsWriteMicros: Double
        /// µs to read it back with the typed reader.
        package var getItemsReadMicros: Double
        package var getItemsBytes: Int
        package var items: Int

        package var description: String {
            func oneDecimal(_ value: Double) -> String { String(Double(Int(value * 10)) / 10) }
            return
                "handler cycle (read ss, write v:s)=\(oneDecimal(handlerCycleNanos))ns | GetItems x\(items): write=\(oneDecimal(getItemsWriteMicros))µs read=\(oneDecimal(getItemsReadMicros))µs (\(getItemsBytes) bytes, \(oneDecimal(getItemsWriteMicros / Double(max(items, 1)) * 1000))ns/item)"
        }
    }

    /// Pure marshalling costs (no bus): what a server pays per call on top of the D-Bus round trip.
    package static func marshalling(iterations: Int = 20_000, items: Int = 1_000) throws -> MarshallingFigures {
        let call = try DBusMessage.methodCall(
            destination: ":1.1", path: "/org/a11y/atspi/accessible/12",
            interface: "org.freedesktop.DBus.Properties", member: "Get")
        call.append {
            $0.append("org.a11y.atspi.Accessible")
            $0.append("Name")
        }
        // dbus_message_new_method_return needs a serial on the call; give it one like the wire would.
        dbus_message_set_serial(call.pointer, 7)
        var sink = 0
        var batches: [Double] = []
        let batch = max(1, iterations / 20)
        for _ in 0..<20 {
            let t0 = monotonicNanos()
            for _ in 0..<batch {
                try call.requireSignature("ss")
                let reader = call.reader()
                let iface = try reader.readString()
                let name = try reader.readString()
                let reply = call.makeReply()
                let writer = reply.writer()
                writer.openVariant(signature: "s")
                writer.append(iface.count > 0 ? name + " button" : "")
                writer.close()
                writer.finish()
                sink &+= Int(dbus_message_get_serial(reply.pointer))
            }
            batches.append(Double(monotonicNanos() - t0) / Double(batch))
        }
        let cycle = batches.sorted()[batches.count / 2]

        let bus = ":1.42"
        let app = "/org/a11y/atspi/accessible/root"
        let ifaces = ["org.a11y.atspi.Accessible", "org.a11y.atspi.Component", "org.a11y.atspi.Action"]
        let reps = 20
        var writeNs: UInt64 = .max
        var readNs: UInt64 = .max
        var bytes = 0
        for _ in 0..<reps {
            let t1 = monotonicNanos()
            let reply = call.makeReply()
            let writer = reply.writer()
            writer.openArray(signature: "((so)(so)(so)iiassusau)")
            for i in 0..<items {
                writer.openStruct()
                writer.appendReference(bus: bus, path: "/org/a11y/atspi/accessible/\(i)")
                writer.appendReference(bus: bus, path: app)
                writer.appendReference(bus: bus, path: i == 0 ? app : "/org/a11y/atspi/accessible/\(i / 10)")
                writer.append(Int32(i % 10))
                writer.append(Int32(0))
                writer.openArray(signature: "s")
                for interface in ifaces { writer.append(interface) }
                writer.close()
                writer.append("Button \(i)")
                writer.append(UInt32(43))
                writer.append("")
                writer.appendArray([UInt32(0x4100_0900), 0] as [UInt32])
                writer.close()
            }
            writer.close()
            writer.finish()
            let t2 = monotonicNanos()
            var len: Int32 = 0
            var buf: UnsafeMutablePointer<CChar>? = nil
            if dbus_message_marshal(reply.pointer, &buf, &len) != 0 {
                bytes = Int(len)
                dbus_free(buf)
            }
            let t3 = monotonicNanos()
            let reader = reply.reader()
            try reader.enterArray()
            while !reader.isAtEnd {
                try reader.enterStruct()
                _ = try reader.readReference()
                _ = try reader.readReference()
                _ = try reader.readReference()
                sink &+= Int(try reader.readInt32()) &+ Int(try reader.readInt32())
                sink &+= try reader.readStringArray().count
                sink &+= try reader.readString().utf8.count
                sink &+= Int(try reader.readUInt32())
                _ = try reader.readString()
                sink &+= try reader.readUInt32Array().count
                try reader.leave()
            }
            try reader.leave()
            let t4 = monotonicNanos()
            writeNs = min(writeNs, t2 - t1)
            readNs = min(readNs, t4 - t3)
        }
        if sink == 42 { print("") }  // keep the work observable
        return MarshallingFigures(
            handlerCycleNanos: cycle, getItemsWriteMicros: Double(writeNs) / 1000,
            getItemsReadMicros: Double(readNs) / 1000, getItemsBytes: bytes, items: items)
    }
}

final class DispatchSemaphoreBox: Sendable {
    private let s = DispatchSemaphore(value: 0)
    func signal() { s.signal() }
    func wait() { s.wait() }
}

final class PipelineCounter: Sendable {
    private let issued = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)
    let total: Int
    init(total: Int) { self.total = total }
    func takeTicket() -> Bool { issued.add(1, ordering: .relaxed).newValue <= total }
    /// True when this was the last call.
    func finishOne() -> Bool { finished.add(1, ordering: .acquiringAndReleasing).newValue == total }
}

/// Holds the result of an async call for the benchmark's waiting thread.
private final class ResultBox<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func take() -> Value? { value.withLock { $0 } }
}

/// CLOCK_MONOTONIC in nanoseconds.
private func monotonicNanos() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}
