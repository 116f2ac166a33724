import CDBus

/// Micro benchmark: method round trips through a bus daemon.
public enum DBusBenchmark {
    public struct Figures: Sendable, CustomStringConvertible {
        /// Median µs of a blocking `Echo(s)→s` call to an object exported by a second AXDBus connection
        /// (client without loop thread: the call does its own I/O, like libatspi).
        public var medianMicros: Double
        public var p99Micros: Double
        /// Median µs of `org.freedesktop.DBus.GetId` (answered by the daemon itself: the bus floor).
        public var busFloorMicros: Double
        /// Median µs of `Peer.Ping` to the server connection (answered inside libdbus, no Swift handler).
        public var peerPingMicros: Double
        /// Median µs of the same Echo call made from a non-loop thread of a client that runs its own loop
        /// thread (async call + semaphore: one extra thread hand-off each way).
        public var loopClientMedianMicros: Double
        /// Mean µs per call with up to 64 async calls in flight.
        public var pipelinedMicrosPerCall: Double
        public var count: Int

        public var description: String {
            func f(_ d: Double) -> String { String(Double(Int(d * 10)) / 10) }
            return "calls=\(count) echo median=\(f(medianMicros))µs p99=\(f(p99Micros))µs | bus floor GetId=\(f(busFloorMicros))µs | Peer.Ping=\(f(peerPingMicros))µs | echo via loop-thread client=\(f(loopClientMedianMicros))µs | pipelined(64)=\(f(pipelinedMicrosPerCall))µs/call"
        }
    }

    /// The figures the brief asks for: (median Echo round trip, median bus floor) in µs.
    public static func roundTrip(address: String, count: Int) throws -> (medianMicros: Double, busFloorMicros: Double) {
        let f = try run(address: address, count: count)
        return (f.medianMicros, f.busFloorMicros)
    }

    public static let benchPath = "/org/axserver/bench"
    public static let benchInterface = "org.axserver.Bench"

    /// Runs every measurement (`count` calls each) against the bus at `address`.
    public static func run(address: String, count: Int) throws -> Figures {
        let server = try DBusConnection.open(address: address)
        defer { server.close() }
        try server.register(path: benchPath) { msg in
            guard msg.isMethodCall(benchInterface, "Echo") else { return .notHandled }
            try msg.requireSignature("s")
            let s = try msg.reader().readString()
            return .reply(msg.makeReply { $0.append(s) })
        }
        let client = try DBusConnection.open(address: address, startLoop: false)
        defer { client.close() }
        let dest = server.uniqueName
        let n = max(count, 10)

        func measure(_ conn: DBusConnection, _ make: () throws -> DBusMessage) throws -> [Double] {
            var samples: [Double] = []
            samples.reserveCapacity(n)
            for _ in 0..<min(200, n) { _ = try conn.call(try make()) }   // warm-up
            for _ in 0..<n {
                let t0 = monotonicNanos()
                _ = try conn.call(try make())
                samples.append(Double(monotonicNanos() - t0) / 1000)
            }
            return samples.sorted()
        }
        let echo = { @Sendable () throws -> DBusMessage in
            try DBusMessage.methodCall(destination: dest, path: benchPath, interface: benchInterface, member: "Echo").append { $0.append("hello") }
        }
        let e = try measure(client, echo)
        let floor = try measure(client) {
            try DBusMessage.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetId")
        }
        let ping = try measure(client) {
            try DBusMessage.methodCall(destination: dest, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping")
        }
        let loopClient = try DBusConnection.open(address: address)
        defer { loopClient.close() }
        let lc = try measure(loopClient, echo)

        // Pipelined: keep up to 64 calls in flight.
        let window = 64
        let done = ResultBox<Bool>()
        let sem = DispatchSemaphoreBox()
        let counter = PipelineCounter(total: n)
        let t0 = monotonicNanos()
        @Sendable func issue() {
            guard counter.takeTicket() else { return }
            guard let m = try? echo() else {
                if counter.finishOne() { done.set(true); sem.signal() }
                return
            }
            loopClient.callAsync(m) { _ in
                if counter.finishOne() { done.set(true); sem.signal() } else { issue() }
            }
        }
        for _ in 0..<window { issue() }
        sem.wait()
        let pipelined = Double(monotonicNanos() - t0) / 1000 / Double(n)

        func median(_ a: [Double]) -> Double { a[a.count / 2] }
        return Figures(medianMicros: median(e), p99Micros: e[min(e.count - 1, e.count * 99 / 100)],
                       busFloorMicros: median(floor), peerPingMicros: median(ping),
                       loopClientMedianMicros: median(lc), pipelinedMicrosPerCall: pipelined, count: n)
    }
}

import Dispatch
import Synchronization

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
