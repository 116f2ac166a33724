import AXDemo
import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol
import AXQuery
import AXRPC
import Foundation

/// `tree.get` serialisation (issue 35 item 1): the streamed reply (`TreeGet.write`, what the server sends)
/// against the `JSON` value it replaced (`TreeGet.value` serialized), on the bench tree.
///
///   axbench --treeget-mbps LEAVES [--dump FILE]   median time and MB/s of both, best of 15 runs each, and of the
///                                                 page source (`format: xml` reply, and `TreeXML.write` alone);
///                                                 FILE gets the result object (for Tools/bench_serialise.py's orjson run)
///   axbench --treeget-profile LEAVES ROUNDS [--legacy] [--xml]   ROUNDS replies (`--xml`: in the page-source
///                                                 format), for callgrind (Tools/profile_core.sh)
enum TreeGetBench {
    final class SilentPeer: RPCPeer {
        let connectionID: UInt64 = 1
        func notify(_ method: String, _ params: JSON?) {}
        func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON { .null }
        func close() {}
        var isClosed: Bool { false }
        func onClose(_ handler: @escaping @Sendable () -> Void) {}
    }

    struct Setup {
        let hub: Hub
        let router: RPCRouter
        let session: RPCSession
        let params: JSON
        let elements: Int
    }

    static func setUp(leaves: Int) throws -> Setup {
        let hub = Hub()
        let app = hub.registerApp(name: "bench", provider: nil)
        try hub.setSnapshot(app: app, BenchTree.snapshot(leaves: leaves))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let session = RPCSession(peer: SilentPeer())
        session.initialized = true
        return Setup(
            hub: hub, router: router, session: session, params: ["app": .string(app)],
            elements: try hub.snapshot(app).tree.count)
    }

    /// The whole reply as the server writes it (request checked, result streamed, envelope).
    static func streamed(_ setup: Setup, _ frame: [UInt8]) -> [UInt8] {
        guard case .reply(let reply) = setup.router.handleSync(frame: frame, session: setup.session) else { return [] }
        return reply
    }

    /// The reply as it was written before: a `JSON` value per element, then serialized.
    static func legacy(_ setup: Setup) throws -> [UInt8] {
        let request = try TreeGet.request(setup.params, setup.session, setup.hub)
        var out: [UInt8] = []
        RPCMessage.appendResult(id: 1, result: TreeGet.value(request), into: &out)
        return out
    }

    static func mbps(leaves: Int, dump: String?) throws {
        let setup = try setUp(leaves: leaves)
        let frame = RPCMessage.request(id: 1, method: RPCMethodName.treeGet.rawValue, params: setup.params)
        let clock = ContinuousClock()
        func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
        var streamedTimes: [Double] = []
        var legacyTimes: [Double] = []
        var size = 0
        for _ in 0..<15 {
            let t0 = clock.now
            let reply = streamed(setup, frame)
            let t1 = clock.now
            let old = try legacy(setup)
            let t2 = clock.now
            precondition(reply == old, "the streamed reply differs from the JSON value's")
            size = reply.count
            streamedTimes.append(seconds(t1 - t0))
            legacyTimes.append(seconds(t2 - t1))
        }
        func report(_ name: String, _ times: [Double]) {
            let sorted = times.sorted()
            let median = sorted[sorted.count / 2]
            let line =
                "  \(name): median \(String(format: "%.2f", median * 1000)) ms, "
                + "\(Int(Double(size) / median / 1e6)) MB/s (best \(Int(Double(size) / sorted[0] / 1e6)) MB/s)"
            print(line)
        }
        print("tree.get of \(setup.elements) elements, \(size) bytes:")
        report("streamed (TreeGet.write)", streamedTimes)
        report("JSON value (before)     ", legacyTimes)
        var xmlParams = setup.params.objectValue ?? [:]
        xmlParams["format"] = "xml"
        let xmlFrame = RPCMessage.request(id: 1, method: RPCMethodName.treeGet.rawValue, params: .object(xmlParams))
        var xmlReplyTimes: [Double] = []
        var pageTimes: [Double] = []
        var pageSize = 0
        let tree = try setup.hub.snapshot(setup.params["app"]?.stringValue ?? "").tree
        for _ in 0..<15 {
            let t0 = clock.now
            size = streamed(setup, xmlFrame).count
            let t1 = clock.now
            var page: [UInt8] = []
            TreeXML.write(tree, into: &page)
            let t2 = clock.now
            pageSize = page.count
            xmlReplyTimes.append(seconds(t1 - t0))
            pageTimes.append(seconds(t2 - t1))
        }
        print("tree.get format xml, \(size) bytes:")
        report("streamed reply          ", xmlReplyTimes)
        size = pageSize
        print("page source alone (TreeXML.write), \(pageSize) bytes:")
        report("TreeXML.write           ", pageTimes)
        if let dump {
            let request = try TreeGet.request(setup.params, setup.session, setup.hub)
            try Data(TreeGet.value(request).serialized()).write(to: URL(fileURLWithPath: dump))
        }
    }

    static func profile(leaves: Int, rounds: Int, legacy useLegacy: Bool, xml: Bool) throws {
        let setup = try setUp(leaves: leaves)
        var params = setup.params.objectValue ?? [:]
        if xml { params["format"] = "xml" }
        let frame = RPCMessage.request(id: 1, method: RPCMethodName.treeGet.rawValue, params: .object(params))
        var total = 0
        for _ in 0..<rounds {
            if useLegacy {
                total += try legacy(setup).count
            } else {
                total += streamed(setup, frame).count
            }
        }
        print(total)
    }

    /// Runs the mode named on the command line, if any; true when one ran.
    static func runIfAsked() throws -> Bool {
        let arguments = CommandLine.arguments
        func value(after flag: String, _ offset: Int = 1) -> Int? {
            guard let index = arguments.firstIndex(of: flag), index + offset < arguments.count else { return nil }
            return Int(arguments[index + offset])
        }
        if let leaves = value(after: "--treeget-mbps") {
            let dump = arguments.firstIndex(of: "--dump").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
            try mbps(leaves: leaves, dump: dump)
            return true
        }
        if let leaves = value(after: "--treeget-profile") {
            try profile(
                leaves: leaves, rounds: value(after: "--treeget-profile", 2) ?? 5,
                legacy: arguments.contains("--legacy"), xml: arguments.contains("--xml"))
            return true
        }
        return false
    }
}
