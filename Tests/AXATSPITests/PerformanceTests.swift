import AXDBus
import Foundation
import XCTest

final class BridgePerformanceTests: XCTestCase {
    /// Median round trip of libatspi's most frequent call (Properties.Get Name) against the bus floor
    /// (org.freedesktop.DBus.GetId, answered by the daemon itself), from a client that does its own I/O like
    /// libatspi. The bound is generous (shared CI machines); the figures are printed for the report.
    func testRoundTripAgainstBusFloor() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let raw = try DBusConnection.open(address: fixture.bus.address, startLoop: false)
        defer { raw.close() }
        let target = try fixture.children(Fixture.root)[0].path
        func median(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
            for _ in 0..<200 { try body() }
            var state: [Double] = []
            state.reserveCapacity(count)
            for _ in 0..<count {
                let t0 = DispatchTime.now().uptimeNanoseconds
                try body()
                state.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000)
            }
            state.sort()
            return state[count / 2]
        }
        let count = 3000
        let floor = try median(count) {
            _ = try raw.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetId")
        }
        let getName = try median(count) {
            _ = try raw.call(
                destination: fixture.dest, path: target, interface: "org.freedesktop.DBus.Properties", member: "Get"
            ) { writer in
                writer.append("org.a11y.atspi.Accessible")
                writer.append("Name")
            }
        }
        let getState = try median(count) {
            _ = try raw.call(
                destination: fixture.dest, path: target, interface: "org.a11y.atspi.Accessible", member: "GetState")
        }
        let extents = try median(count) {
            _ = try raw.call(
                destination: fixture.dest, path: target, interface: "org.a11y.atspi.Component", member: "GetExtents"
            ) { $0.append(UInt32(0)) }
        }
        // Answered inside libdbus on the app connection's loop (no bridge code): the transport's own share.
        let ping = try median(count) {
            _ = try raw.call(
                destination: fixture.dest, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping")
        }
        // The same call over the peer-to-peer socket libatspi uses when GetApplicationBusAddress names one.
        let address = try fixture.call(Fixture.root, "org.a11y.atspi.Application", "GetApplicationBusAddress").reader()
            .readString()
        let p2p = try DBusConnection.open(address: address, registerOnBus: false, startLoop: false)
        defer { p2p.close() }
        let p2pName = try median(count) {
            _ = try p2p.call(
                destination: nil, path: target, interface: "org.freedesktop.DBus.Properties", member: "Get"
            ) { writer in
                writer.append("org.a11y.atspi.Accessible")
                writer.append("Name")
            }
        }
        print("AT-SPI peer-to-peer Get(Name) median µs: \(p2pName) (ratio to bus floor \(p2pName / floor))")
        // Medians on a shared machine are noisy: the hard checks are relative and generous (the figures go to
        // Specs/atspi-mapping.md from quiet release runs).
        // Quiet, the peer-to-peer socket beats the bus path by ~2×; under a loaded CI machine medians swap places
        // now and then, so only a gross inversion fails (figures: Tools/bench_atspi.sh).
        XCTAssertLessThan(p2pName, getName * 2, "the peer-to-peer socket must not be slower than the bus path")
        let ratio = getName / floor
        print(
            "AT-SPI round trip (median µs): bus floor GetId=\(floor) Peer.Ping=\(ping) Get(Name)=\(getName) GetState=\(getState) GetExtents=\(extents) ratio=\(ratio)"
        )
        // Quiet: ~2.9; under a fully loaded 2-core machine it reached 5.4. The figure goes to the notes from
        // benchmarks; this only catches an order-of-magnitude regression.
        XCTAssertLessThan(ratio, 20.0, "Properties.Get(Name) \(getName) µs vs bus floor \(floor) µs")
    }
}
