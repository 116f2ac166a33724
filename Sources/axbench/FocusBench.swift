import AXCore
import AXDemo
import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPC
import Foundation

/// `axbench --focus`: the focus engine and rotors on the 10,000-view bench tree, server-side (through the
/// method router, JSON in and out), and the one-property patch with the engine idle and with engine focus set.
enum FocusBench {
    final class Peer: RPCPeer, @unchecked Sendable {
        let connectionID: UInt64 = 1
        func notify(_ method: String, _ params: JSON?) {}
        func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON { .null }
        func close() {}
        var isClosed: Bool { false }
        func onClose(_ handler: @escaping @Sendable () -> Void) {}
    }

    static func run(quick: Bool) async throws {
        let clock = ContinuousClock()
        let leaves = leavesFor(views: 10_000)
        let hub = Hub()
        let app = hub.registerApp(name: "bench", provider: nil)
        try hub.setSnapshot(app: app, BenchTree.snapshot(leaves: leaves))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let session = RPCSession(peer: Peer())
        session.initialized = true
        func timed(_ request: RPCRequest) async -> Double {
            let method = request.method
            let frame = RPCMessage.request(id: 1, method: method, params: request.json)
            let t0 = clock.now
            let reply = await router.handle(frame: frame, session: session)
            let elapsed = us(clock.now - t0)
            precondition(
                reply.map { !String(decoding: $0, as: UTF8.self).contains("\"error\"") } ?? false, "\(method) failed")
            return elapsed
        }
        let views = try hub.snapshot(app).views.count
        print("== focus engine and rotors (\(views) views, server-side through the router)")
        // The index is built on the first focus question of a revision.
        var builds: [Double] = []
        for _ in 0..<(quick ? 3 : 11) {
            try hub.update(
                app: app, ops: [["op": "set", "id": "n1", "properties": ["text": .string("rebuild \(builds.count)")]]])
            builds.append(await timed(RPCMethod.focusStatus.request(app: app)))
        }
        print("first focus call after a patch (index build + focus.status): median \(fmt(median(builds) / 1000)) ms")
        let focusable = (0..<leaves).filter { $0 % 5 != 1 }
        let runs = quick ? 200 : 2000
        var query: [Double] = []
        var explain: [Double] = []
        var rotor: [Double] = []
        var move: [Double] = []
        var tab: [Double] = []
        let directions = ["right", "down", "left", "up"]
        for i in 0..<runs {
            let leaf = focusable[(i * 7919) % focusable.count]
            let from: JSON = ["id": .string("n\(leaf)")]
            query.append(
                await timed(
                    RPCMethod.focusQuery.request([.direction: .string(directions[i % 4]), .from: from], app: app)))
            explain.append(await timed(RPCMethod.focusExplain.request([.target: from], app: app)))
            rotor.append(
                await timed(RPCMethod.rotorNext.request([.rotor: "button", .from: from, .moveFocus: false], app: app)))
        }
        _ = await timed(RPCMethod.focusUpdate.request([.target: ["id": "n0"]], app: app))
        for i in 0..<runs {
            move.append(
                await timed(RPCMethod.focusMove.request([.direction: .string(i % 2 == 0 ? "right" : "left")], app: app))
            )
        }
        for i in 0..<(runs / 4) {
            tab.append(
                await timed(
                    RPCMethod.focusMove.request([.direction: .string(i % 2 == 0 ? "next" : "previous")], app: app)))
        }
        func line(_ name: String, _ xs: [Double]) {
            print("\(name): median \(fmt(median(xs))) µs, p95 \(fmt(p95(xs))) µs")
        }
        line("focus.query {direction, from}", query)
        line("focus.move right/left", move)
        line("focus.move next/previous", tab)
        line(RPCMethodName.focusExplain.rawValue, explain)
        line("rotor.next {rotor: button, from} (system rotor)", rotor)

        // One-property patches (as in the core section, through the hub): engine idle, then with engine focus set
        // on an item the patches never touch.
        func patches(_ label: String) throws {
            var times: [Double] = []
            for i in 0..<runs {
                let leaf = (i * 7919) % leaves
                let op: JSON = [
                    "op": "set", "id": .string("n\(leaf)"),
                    "properties": leaf % 5 == 2 ? ["isOn": .bool(i % 2 == 0)] : ["accessibilityHint": .string("h\(i)")],
                ]
                let t0 = clock.now
                try hub.update(app: app, ops: [op])
                times.append(us(clock.now - t0))
            }
            print(
                "one-property patch through the hub, \(label): median \(fmt(median(times))) µs, p95 \(fmt(p95(times))) µs"
            )
        }
        let idle = Hub()
        let idleApp = idle.registerApp(name: "bench", provider: nil)
        try idle.setSnapshot(app: idleApp, BenchTree.snapshot(leaves: leaves))
        var idleTimes: [Double] = []
        for i in 0..<runs {
            let leaf = (i * 7919) % leaves
            let op: JSON = [
                "op": "set", "id": .string("n\(leaf)"),
                "properties": leaf % 5 == 2 ? ["isOn": .bool(i % 2 == 0)] : ["accessibilityHint": .string("h\(i)")],
            ]
            let t0 = clock.now
            try idle.update(app: idleApp, ops: [op])
            idleTimes.append(us(clock.now - t0))
        }
        print(
            "one-property patch through the hub, engine never used: median \(fmt(median(idleTimes))) µs, p95 \(fmt(p95(idleTimes))) µs"
        )
        _ = await timed(RPCMethod.focusUpdate.request([.target: ["id": "n0"]], app: app))
        try patches("engine focus set (on n0)")
    }
}
