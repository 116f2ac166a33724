import AXCore
import AXDemo
import AXHub
import AXInsight
import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPC
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `axbench --insight`: audits, speech and pictures on the 10,000-view bench tree (issue 14's targets:
/// audit.run ≤ 50 ms, speech.walk ≤ 20 ms, tree.render SVG ≤ 50 ms), then a ~246,000-view tree (bounded
/// memory and caps). Pure engine times and whole JSON-RPC calls (params, engine, JSON encoding, serialization).
enum InsightBench {
    static let runs = 21

    static func run(viewsTarget: Int, largeViews: Int) throws {
        let clock = ContinuousClock()
        func milliseconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        }
        func medianOf(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }
        /// CPU time of this thread (ms): what the work costs, whatever else the shared machine runs.
        func threadCPU() -> Double {
            var spec = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
            return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1e6
        }
        func time(_ body: () throws -> Void) rethrows -> (wall: [Double], cpu: [Double]) {
            var wall: [Double] = []
            var cpu: [Double] = []
            for _ in 0..<runs {
                let start = clock.now
                let cpuStart = threadCPU()
                try body()
                cpu.append(threadCPU() - cpuStart)
                wall.append(milliseconds(clock.now - start))
            }
            return (wall, cpu)
        }
        func report(_ name: String, _ samples: (wall: [Double], cpu: [Double]), target: Double?) {
            let wall = samples.wall.sorted()
            let cpu = samples.cpu.sorted()
            let line =
                "\(name): CPU median \(String(format: "%.2f", medianOf(cpu))) ms (min \(String(format: "%.2f", cpu[0]))); wall median \(String(format: "%.2f", medianOf(wall))) ms (min \(String(format: "%.2f", wall[0])))"
            print(line + (target.map { " — target ≤ \(Int($0)) ms" } ?? ""))
        }

        let hub = Hub()
        let app = hub.registerApp(name: "insight", provider: nil)
        try hub.setSnapshot(app: app, BenchTree.snapshot(leaves: leavesFor(views: viewsTarget)))
        let snap = try hub.snapshot(app)
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let session = RPCSession(peer: NullPeer())
        session.initialized = true
        func rpc(_ request: RPCRequest) -> Int {
            let frame = RPCMessage.request(id: 1, method: request.method, params: request.json)
            guard case .reply(let reply) = router.handleSync(frame: frame, session: session) else {
                fatalError("not sync: \(request.method)")
            }
            return reply.count
        }
        print(
            "== insight: \(snap.views.count) views, \(snap.tree.count) nodes, \(snap.tree.navigationOrder().count) elements"
        )
        var findings = 0
        report(
            "audit (engine, all 16 checks)",
            time {
                let auditReport = Auditor.run(tree: snap.tree, views: snap.views)
                findings = auditReport.findings.count + auditReport.omitted
            }, target: 50)
        let focusAndRotorChecks = [AuditCatalog.focusable, AuditCatalog.focusGroup, AuditCatalog.emptyRotor]
        report(
            "audit (engine, focusable + focusGroup + emptyRotor only)",
            time {
                _ = Auditor.run(tree: snap.tree, views: snap.views, checks: focusAndRotorChecks)
            }, target: nil)
        var bytes = 0
        report(
            "audit.run (JSON-RPC, default cap 1,000 findings)",
            time { bytes = rpc(RPCMethod.auditRun.request()) }, target: 50)
        print("  findings \(findings); reply \(bytes) bytes")
        report(
            "speech walk (engine, both models)", time { _ = SpeechWalk.walk(snap.tree, root: nil, limit: 250_000) },
            target: 20)
        report(
            "speech.walk (JSON-RPC, both models, limit 10,000)",
            time { bytes = rpc(RPCMethod.speechWalk.request([.limit: 10_000])) },
            target: 20)
        print("  reply \(bytes) bytes")
        var picture: RenderedPicture?
        report(
            "render SVG (engine, every node, default overlays)",
            time {
                picture = TreeRenderer.svg(
                    tree: snap.tree, focusedID: nil, overlays: Set(RenderOverlay.defaults), maxNodes: 20_000)
            }, target: 50)
        print("  drawn \(picture?.drawn ?? 0), omitted \(picture?.omitted ?? 0), \(picture?.svg.utf8.count ?? 0) bytes")
        report(
            "tree.render svg (JSON-RPC, every node)",
            time { bytes = rpc(RPCMethod.treeRender.request([.maxNodes: 20_000])) },
            target: 50)
        print("  reply \(bytes) bytes")

        // The largest tree the schema allows: bounded memory and caps.
        let before = heapBytes()
        let large = hub.registerApp(name: "insight-large", provider: nil)
        try hub.setSnapshot(app: large, BenchTree.snapshot(leaves: leavesFor(views: largeViews)))
        let largeSnap = try hub.snapshot(large)
        let loaded = heapBytes()
        print(
            "== insight: \(largeSnap.views.count) views, \(largeSnap.tree.count) nodes (RSS +\((loaded - before) >> 20) MiB for the tree)"
        )
        var largeReport = Auditor.run(tree: largeSnap.tree, views: largeSnap.views)
        let auditStart = clock.now
        largeReport = Auditor.run(tree: largeSnap.tree, views: largeSnap.views)
        print(
            "audit (engine): \(String(format: "%.1f", milliseconds(clock.now - auditStart))) ms, \(largeReport.findings.count) findings returned, \(largeReport.omitted) left out; RSS now +\((heapBytes() - loaded) >> 20) MiB over the loaded tree"
        )
        let renderStart = clock.now
        let largePicture = TreeRenderer.svg(tree: largeSnap.tree, overlays: Set(RenderOverlay.defaults))
        print(
            "render SVG (engine, default cap): \(String(format: "%.1f", milliseconds(clock.now - renderStart))) ms, drawn \(largePicture.drawn), omitted \(largePicture.omitted), \(largePicture.svg.utf8.count >> 10) KiB"
        )
        let walkStart = clock.now
        let walk = SpeechWalk.walk(largeSnap.tree, root: nil, limit: 5000)
        print(
            "speech walk (engine, default limit 5,000): \(String(format: "%.1f", milliseconds(clock.now - walkStart))) ms, \(walk.items.count) items, \(walk.omitted) left out"
        )
        print("RSS after the large runs: +\((heapBytes() - loaded) >> 20) MiB over the loaded tree")
    }
}
