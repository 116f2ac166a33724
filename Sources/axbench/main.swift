// axbench — the project's benchmarks (never timed tests). Run: swift run -c release axbench [--quick]
// Other modes: --focus (focus engine and rotors: FocusBench.swift), --core-only (stop after the core section), --core-min (minimum of 21 decode/derive/build runs),
// --sizes (struct sizes), --profile-build / --profile-decode / --profile-derive / --profile-patch / --profile-wait (loops for perf or callgrind:
// Tools/profile_core.sh), --treeget-split, --profile-treeget, --insight (audits, speech, pictures: InsightBench.swift),
// --json (JSON codec throughput on a 20,000-node sample tree), --treeget-mbps / --treeget-profile (TreeGetBench.swift),
// --client-tree SOCKET (the Swift client's tree.get at the caller: ClientTreeBench.swift), --provider-rtt SOCKET (the
// provider library's connection beside the NIO client: ProviderRoundTripBench.swift).
import AXBenchmarks
import AXCore
import AXDemo
import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol
import AXQuery
import AXRPC
import AXRPCClient
import AXTransport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let quick = CommandLine.arguments.contains("--quick")
if CommandLine.arguments.contains("--sizes") {
    print(
        "ViewNode \(MemoryLayout<ViewNode>.size) AXNode \(MemoryLayout<AXNode>.size) ax \(MemoryLayout<AccessibilityProperties>.size) control \(MemoryLayout<ControlState>.size) focus \(MemoryLayout<FocusProperties>.size) window \(MemoryLayout<WindowState>.size)"
    )
    exit(0)
}
if try TreeGetBench.runIfAsked() { exit(0) }
if try await ClientTreeBench.runIfAsked() { exit(0) }
if try await ProviderRoundTripBench.runIfAsked() { exit(0) }
if CommandLine.arguments.contains("--json") {
    print("JSON codec: \(try JSONBenchmark.measure(JSONBenchmark.sampleTree(nodes: quick ? 2_000 : 20_000)))")
    exit(0)
}
if CommandLine.arguments.contains("--profile-decode") {
    let snap = BenchTree.snapshot(leaves: 8920)
    for _ in 0..<60 {
        let hierarchy = try ViewHierarchy.fromSnapshot(snap)
        withExtendedLifetime(hierarchy) {}
    }
    exit(0)
}
if CommandLine.arguments.contains("--core-min") {
    // Quick, noise-resistant figures for optimization work: minimum of 21 runs each.
    let bytes = BenchTree.snapshot(leaves: 8920).serialized()
    let clock = ContinuousClock()
    var dec: [Duration] = []
    var der: [Duration] = []
    var bld: [Duration] = []
    let parsed = try JSON.parse(bytes)
    for _ in 0..<21 {
        let t0 = clock.now
        let hierarchy = try ViewHierarchy.fromSnapshot(parsed)
        dec.append(clock.now - t0)
        withExtendedLifetime(hierarchy) {}
        let t1 = clock.now
        let store = HierarchyStore()
        try store.setSnapshot(parsed)
        let t2 = clock.now
        _ = store.rebuild()
        let t3 = clock.now
        bld.append(t2 - t1)
        der.append(t3 - t2)
    }
    print("min: decode \(dec.min()!)  derive \(der.min()!)  build \(bld.min()!)")
    exit(0)
}
if CommandLine.arguments.contains("--profile-patch") {
    let store = HierarchyStore()
    try store.setSnapshot(BenchTree.snapshot(leaves: 8920))
    for i in 0..<2000 {
        let leaf = (i * 7919) % 8920
        try store.apply([
            .set(
                id: "n\(leaf)",
                properties: leaf % 5 == 2 ? ["isOn": .bool(i % 2 == 0)] : ["accessibilityHint": .string("h\(i)")])
        ])
    }
    exit(0)
}
if CommandLine.arguments.contains("--profile-wait") {
    let arguments = CommandLine.arguments
    let rounds = arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? 2_000
    try await WaitProfile.run(rounds: rounds, waiting: !arguments.contains("--no-waiter"))
    exit(0)
}
if CommandLine.arguments.contains("--profile-derive") {
    let store = HierarchyStore()
    try store.setSnapshot(BenchTree.snapshot(leaves: 8920))
    for _ in 0..<60 { _ = store.rebuild() }
    exit(0)
}
if CommandLine.arguments.contains("--profile-build") {
    let snap = BenchTree.snapshot(leaves: 8920)
    for _ in 0..<30 {
        let store = HierarchyStore()
        try store.setSnapshot(snap)
    }
    exit(0)
}
let clock = ContinuousClock()
if CommandLine.arguments.contains("--focus") {
    try await FocusBench.run(quick: quick)
    exit(0)
}

func ms(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}
func us(_ duration: Duration) -> Double { ms(duration) * 1000 }
func median(_ xs: [Double]) -> Double {
    let sorted = xs.sorted()
    return sorted[sorted.count / 2]
}
func p95(_ xs: [Double]) -> Double {
    let sorted = xs.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
}
/// Resident set size from /proc/self/statm (bytes).
func heapBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let parts = statm.split(separator: " ")
    return parts.count > 1 ? (Int(parts[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}
func fmt(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

/// Leaves giving about `views` views in the bench tree (leaves + groups of 10 and 50 + window + scroll).
func leavesFor(views: Int) -> Int {
    var leaves = views * 100 / 112
    while true {
        let viewCount = leaves + (leaves + 9) / 10 + (leaves + 49) / 50 + 2
        if viewCount >= views { return leaves }
        leaves += 1
    }
}

if CommandLine.arguments.contains("--insight") {
    try InsightBench.run(viewsTarget: 10_000, largeViews: 246_000)
    exit(0)
}
print("== core: build and patch (\(quick ? "quick" : "full"))")
let leaves = leavesFor(views: 10_000)
let snapshot = BenchTree.snapshot(leaves: leaves)
do {
    // Memory per element, measured first (before the allocator holds freed memory): RSS growth while
    // keeping several stores of the same 10,000-view tree alive (views + derived nodes + derivation cache).
    var keep: [HierarchyStore] = []
    let r0 = heapBytes()
    for _ in 0..<5 {
        let st = HierarchyStore()
        try st.setSnapshot(snapshot)
        keep.append(st)
    }
    let r1 = heapBytes()
    let views = keep[0].views.count * keep.count
    print(
        "memory: \((r1 - r0) / 1024) KiB RSS for \(keep.count) stores of \(keep[0].views.count) views → \((r1 - r0) / views) bytes per view (views + accessibility nodes + cache)"
    )
}
let bytes = snapshot.serialized()
var parseTimes: [Double] = []
var buildTimes: [Double] = []
var deriveOnly: [Double] = []
var store = HierarchyStore()
let runs = quick ? 3 : 11
for _ in 0..<runs {
    let t0 = clock.now
    let parsed = try JSON.parse(bytes)
    let t1 = clock.now
    let runStore = HierarchyStore()
    try runStore.setSnapshot(parsed)
    let t2 = clock.now
    _ = runStore.rebuild()
    let t3 = clock.now
    parseTimes.append(ms(t1 - t0))
    buildTimes.append(ms(t2 - t1))
    deriveOnly.append(ms(t3 - t2))
    store = runStore
}
let viewCount = store.views.count
print("views: \(viewCount), accessibility nodes: \(store.tree.count), snapshot JSON: \(bytes.count / 1024) KiB")
print("parse JSON: median \(fmt(median(parseTimes))) ms")
print("build tree from parsed snapshot (decode + derive): median \(fmt(median(buildTimes))) ms")
print("full re-derivation only: median \(fmt(median(deriveOnly))) ms")
do {
    let parsed = try JSON.parse(bytes)
    var decodeTimes: [Double] = []
    for _ in 0..<runs {
        let t0 = clock.now
        let hierarchy = try ViewHierarchy.fromSnapshot(parsed)
        decodeTimes.append(ms(clock.now - t0))
        withExtendedLifetime(hierarchy) {}
    }
    print("decode only (snapshot JSON → views): median \(fmt(median(decodeTimes))) ms")
}

// One-property patches on leaves spread over the tree (label text of a button / a switch toggle).
var patchTimes: [Double] = []
let patchRuns = quick ? 200 : 2000
for i in 0..<patchRuns {
    let leaf = (i * 7919) % leaves
    let id = "n\(leaf)"
    let prop: JSONObject
    switch leaf % 5 {
    case 0: prop = ["title": .string("Button \(leaf) v\(i)")]
    case 1: prop = ["text": .string("Label \(leaf) v\(i)")]
    case 2: prop = ["isOn": .bool(i % 2 == 0)]
    case 3: prop = ["value": .number(Double(i % 100))]
    default: prop = ["text": .string("t\(i)")]
    }
    let op = PatchOp.set(id: id, properties: prop)
    let t0 = clock.now
    try store.apply([op])
    patchTimes.append(us(clock.now - t0))
}
// Correctness guard: the incremental tree equals a full rebuild after all those patches.
let rebuilt = store.rebuild()
var same = rebuilt.count == store.tree.count
for (id, n) in rebuilt.nodes where same { if store.tree[id] != n { same = false } }
let patchMedian = median(patchTimes)
print(
    "one-property patch (apply + incremental derive + change set): median \(fmt(patchMedian)) µs, p95 \(fmt(p95(patchTimes))) µs"
)
print(
    "ratio full build / patch: \(fmt(median(buildTimes) * 1000 / patchMedian, 0))×  (re-derive only / patch: \(fmt(median(deriveOnly) * 1000 / patchMedian, 0))×); incremental == rebuild: \(same)"
)

if CommandLine.arguments.contains("--core-only") { exit(0) }
print("== query and JSON-RPC (5,000-element tree)")
let hub = Hub()
let app = hub.registerApp(name: "bench", provider: nil)
try hub.setSnapshot(app: app, BenchTree.snapshot(leaves: 5000))
let router = RPCRouter()
AXMethods.install(on: router, hub: hub)
final class NullPeer: RPCPeer, @unchecked Sendable {
    let connectionID: UInt64 = 1
    let events = Mutex_(0)
    func notify(_ method: String, _ params: JSON?) { events.inc() }
    func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON { .null }
    func close() {}
    var isClosed: Bool { false }
    func onClose(_ handler: @escaping @Sendable () -> Void) {}
}
final class Mutex_: @unchecked Sendable {
    let lock = NSLock()
    var value: Int
    init(_ value: Int) { self.value = value }
    func inc() {
        lock.lock()
        value += 1
        lock.unlock()
    }
}
let session = RPCSession(peer: NullPeer())
session.initialized = true
func call(_ request: RPCRequest) -> (Double, [UInt8]) {
    let frame = RPCMessage.request(id: 1, method: request.method, params: request.json)
    let t0 = clock.now
    guard case .reply(let reply) = router.handleSync(frame: frame, session: session) else {
        fatalError("not sync: \(request.method)")
    }
    return (us(clock.now - t0), reply)
}
let nodeCount = (try hub.snapshot(app)).tree.count
if CommandLine.arguments.contains("--treeget-split") {
    let snap = try hub.snapshot(app)
    for _ in 0..<5 {
        let t0 = clock.now
        var arr: [JSON] = []
        arr.reserveCapacity(snap.tree.count)
        for (_, node) in snap.tree.nodes { arr.append(.object(ElementJSON.encode(node))) }
        let t1 = clock.now
        let bytes = JSON.array(arr).serialized()
        let t2 = clock.now
        print("encode \(fmt(ms(t1 - t0))) ms, serialize \(fmt(ms(t2 - t1))) ms, \(bytes.count) bytes")
    }
    exit(0)
}
if CommandLine.arguments.contains("--profile-treeget") {
    for _ in 0..<5 { _ = call(RPCMethod.treeGet.request([.format: "json"], app: app)) }
    exit(0)
}
var q1: [Double] = []
var q2: [Double] = []
var q3: [Double] = []
for i in 0..<(quick ? 100 : 1000) {
    let leaf = (i * 7919) % 5000
    q1.append(call(RPCMethod.queryOne.request([.selector: .string("#n\(leaf)")], app: app)).0)
    q2.append(
        call(
            RPCMethod.queryOne.request(
                [.selector: .string("button[label=\"Button \(leaf - leaf % 5)\"]")], app: app)
        ).0)
    q3.append(call(RPCMethod.elementGet.request([.target: ["id": .string("n\(leaf)")]], app: app)).0)
}
print("tree: \(nodeCount) accessibility nodes")
print(
    "query.one by identifier-less id selector (#n…): median \(fmt(median(q1))) µs, p95 \(fmt(p95(q1))) µs (server-side)"
)
print("query.one button[label=…]: median \(fmt(median(q2))) µs, p95 \(fmt(p95(q2))) µs")
print("element.get {id}: median \(fmt(median(q3))) µs, p95 \(fmt(p95(q3))) µs")
var tg: [Double] = []
var size = 0
for _ in 0..<(quick ? 5 : 30) {
    let (elapsed, response) = call(RPCMethod.treeGet.request([.format: "json"], app: app))
    tg.append(elapsed / 1000)
    size = response.count
}
print(
    "tree.get of \(nodeCount) elements as JSON (build + serialize): median \(fmt(median(tg))) ms, p95 \(fmt(p95(tg))) ms, \(size / 1024) KiB"
)

print("== JSON-RPC over the Unix socket")
do {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("axbench-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let sock = dir + "/ax.sock"
    let server = RPCServer(router: router, configuration: .init(unixSocketPath: sock))
    try await server.start()
    let requestCount = quick ? 20_000 : 100_000
    var rates: [Double] = []
    for _ in 0..<(quick ? 1 : 3) {
        rates.append(
            try TransportBenchmark.run(socketPath: sock, count: requestCount, method: RPCMethodName.ping.rawValue)
                .requestsPerSecond)
    }
    print("pipelined ping: \(Int(median(rates))) req/s (median of \(rates.count) runs of \(requestCount))")
    var qrates: [Double] = []
    for _ in 0..<(quick ? 1 : 3) {
        qrates.append(
            try TransportBenchmark.run(
                socketPath: sock, count: requestCount / 10, method: RPCMethodName.elementGet.rawValue,
                params: RPCMethod.elementGet.request([.target: ["id": "n42"]], app: app).json,
                setup: [(RPCMethodName.initialize.rawValue, nil)]
            ).requestsPerSecond)
    }
    print("pipelined element.get: \(Int(median(qrates))) req/s")

    // Update → event latency: a provider client patches, a subscriber client receives tree.changed.
    let provider = try await RPCClient.connect("unix:" + sock)
    _ = try await provider.call(RPCMethod.initialize.request([.role: .string(RPCRole.provider.rawValue)]))
    let papp = try await provider.call(RPCMethod.appRegister.request([.name: "latency"]))["app"]!.stringValue!
    _ = try await provider.call(
        RPCMethod.hierarchySet.request([
            .windows: [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100],
                    "children": [
                        ["id": "l", "class": "UILabel", "text": "0", "frame": [0, 0, 50, 20]]
                    ],
                ]
            ]
        ]))
    let subscriber = try await RPCClient.connect("unix:" + sock)
    _ = try await subscriber.call(RPCMethodName.initialize.rawValue, nil)
    let arrivals = AsyncStream<ContinuousClock.Instant>.makeStream()
    subscriber.onNotification { method, _ in
        if method == RPCEvent.treeChanged.rawValue { arrivals.continuation.yield(clock.now) }
    }
    _ = try await subscriber.call(
        RPCMethod.eventsSubscribe.request([.events: [.string(RPCEvent.treeChanged.rawValue)]], app: papp))
    var it = arrivals.stream.makeAsyncIterator()
    var lat: [Double] = []
    for i in 0..<(quick ? 200 : 2000) {
        let t0 = clock.now
        provider.notify(
            RPCMethod.hierarchyUpdate.request(
                [.ops: [["op": "set", "id": "l", "properties": ["text": .string("\(i + 1)")]]]], app: papp))
        guard let t1 = await it.next() else { break }
        lat.append(us(t1 - t0))
    }
    print(
        "hierarchy.update → tree.changed at a subscriber (two clients, real socket): median \(fmt(median(lat))) µs, p95 \(fmt(p95(lat))) µs"
    )
    await provider.close()
    await subscriber.close()
    await server.stop()
} catch {
    print("socket benchmarks failed: \(error)")
}
