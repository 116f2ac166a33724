import AXCore
import AXHub
import AXJSON
import AXProvider
import XCTest

/// The provider library's TreeDiff: applying diff(old, new) to a store holding `old` must give exactly `new`.
final class ProviderDiffTests: XCTestCase {
    struct RNG {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var otherState = state
            otherState = (otherState ^ (otherState >> 30)) &* 0xBF58_476D_1CE4_E5B9
            otherState = (otherState ^ (otherState >> 27)) &* 0x94D0_49BB_1331_11EB
            return otherState ^ (otherState >> 31)
        }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// A mutable model tree: id → (class, props, children).
    struct Model {
        var cls: [String: String] = [:]
        var props: [String: [String: JSON]] = [:]
        var kids: [String: [String]] = [:]
        var roots: [String] = []
        var parent: [String: String?] = [:]
        var counter = 0

        func json(_ id: String) -> JSON {
            var object = JSONObject()
            object["id"] = .string(id)
            object["class"] = .string(cls[id]!)
            for (k, value) in props[id]!.sorted(by: { $0.key < $1.key }) { object[k] = value }
            let current = kids[id] ?? []
            if !current.isEmpty { object["children"] = .array(current.map(json)) }
            return .object(object)
        }
        var snapshot: JSON { ["windows": .array(roots.map(json))] }

        func descendants(_ id: String) -> [String] { [id] + (kids[id] ?? []).flatMap(descendants) }

        mutating func add(parent p: String?, rng: inout RNG) -> String {
            counter += 1
            let id = "v\(counter)"
            let classes = ["UIView", "UILabel", "UIButton", "UISwitch", "UIStackView"]
            cls[id] = p == nil ? "UIWindow" : classes[rng.int(classes.count)]
            props[id] = ["frame": [.number(Double(rng.int(300))), .number(Double(rng.int(600))), 40, 20]]
            if cls[id] == "UILabel" { props[id]!["text"] = .string("t\(rng.int(100))") }
            kids[id] = []
            parent[id] = p
            if let p { kids[p]!.insert(id, at: rng.int(kids[p]!.count + 1)) } else { roots.append(id) }
            return id
        }

        mutating func mutate(_ rng: inout RNG) {
            let all = Array(cls.keys).sorted()
            switch rng.int(5) {
            case 0:  // insert a small subtree
                let point = all[rng.int(all.count)]
                let first = add(parent: point, rng: &rng)
                if rng.int(2) == 0 { _ = add(parent: first, rng: &rng) }
            case 1:  // remove a non-root subtree
                let candidates = all.filter { parent[$0]! != nil }
                guard let victim = candidates.isEmpty ? nil : candidates[rng.int(candidates.count)] else { return }
                let point = parent[victim]!!
                kids[point]!.removeAll { $0 == victim }
                for detail in descendants(victim) {
                    cls[detail] = nil
                    props[detail] = nil
                    kids[detail] = nil
                    parent[detail] = nil
                }
            case 2:  // move a non-root under another node that is not its descendant
                let candidates = all.filter { parent[$0]! != nil }
                guard !candidates.isEmpty else { return }
                let message = candidates[rng.int(candidates.count)]
                let forbidden = Set(descendants(message))
                let targets = all.filter { !forbidden.contains($0) }
                let elapsed = targets[rng.int(targets.count)]
                kids[parent[message]!!]!.removeAll { $0 == message }
                kids[elapsed]!.insert(message, at: rng.int(kids[elapsed]!.count + 1))
                parent[message] = elapsed
            case 3:  // change / add / drop a property
                let id = all[rng.int(all.count)]
                switch rng.int(3) {
                case 0: props[id]!["tag"] = .number(Double(rng.int(9)))
                case 1: props[id]!["tag"] = nil
                default: props[id]!["accessibilityLabel"] = .string("L\(rng.int(50))")
                }
            default:  // reorder children
                let id = all[rng.int(all.count)]
                if var key = kids[id], key.count > 1 {
                    key.swapAt(0, key.count - 1)
                    kids[id] = key
                }
            }
        }
    }

    func assertSame(_ a: ViewHierarchy, _ b: ViewHierarchy, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.roots, b.roots, "roots", file: file, line: line)
        XCTAssertEqual(a.count, b.count, "view count", file: file, line: line)
        for (id, nb) in b.nodes {
            guard let na = a[id] else {
                XCTFail("missing \(id)", file: file, line: line)
                continue
            }
            XCTAssertEqual(na, nb, "view \(id) differs", file: file, line: line)
        }
    }

    func testDiffReproducesTheNewTree() throws {
        var rng = RNG(state: 42)
        for round in 0..<60 {
            var model = Model()
            let window = model.add(parent: nil, rng: &rng)
            for _ in 0..<(5 + rng.int(20)) {
                _ = model.add(parent: ([window] + Array(model.cls.keys).sorted())[rng.int(model.cls.count)], rng: &rng)
            }
            let store = HierarchyStore()
            try store.setSnapshot(model.snapshot)
            var old = model.snapshot
            for step in 0..<8 {
                for _ in 0..<(1 + rng.int(4)) { model.mutate(&rng) }
                let new = model.snapshot
                let ops = TreeDiff.diff(from: old, to: new)
                do { try store.apply(json: .array(ops)) } catch {
                    XCTFail("round \(round) step \(step): \(error)\nops: \(JSON.array(ops).jsonString)")
                    return
                }
                let expected = HierarchyStore()
                try expected.setSnapshot(new)
                assertSame(store.views, expected.views)
                // The derived tree matches a fresh derivation of the new snapshot too.
                XCTAssertEqual(store.tree.count, expected.tree.count, "round \(round) step \(step)")
                old = new
            }
        }
    }

    func testNoChangeMeansNoOps() throws {
        var rng = RNG(state: 7)
        var model = Model()
        let window = model.add(parent: nil, rng: &rng)
        for _ in 0..<10 { _ = model.add(parent: window, rng: &rng) }
        XCTAssertEqual(TreeDiff.diff(from: model.snapshot, to: model.snapshot).count, 0)
    }
}

/// A transport into a real hub that takes its time over patches, so overlapping publishes would interleave.
final class SlowHubTransport: ProviderTransport {
    let hub: Hub
    init(hub: Hub) { self.hub = hub }
    func register(name: String, onAction: @escaping @Sendable (ActionCall) async throws -> Bool) async throws -> String
    {
        hub.registerApp(name: name, provider: nil)
    }
    func call(_ method: String, _ params: JSONObject) async throws -> JSON {
        guard let app = params["app"]?.stringValue else { throw HubError(.invalid, "missing app") }
        // Let the other publish run up to its own await before this one reaches the hub.
        try await Task.sleep(for: .milliseconds(Int.random(in: 1...15)))
        switch method {
        case "hierarchy.set":
            return ["revision": JSON(try hub.setSnapshot(app: app, .object(params)).toRevision)]
        default:
            return ["revision": JSON(try hub.update(app: app, ops: params["ops"] ?? .array([])).toRevision)]
        }
    }
}

/// Issue 12.7 follow-up (found by the Python client's tests): overlapping publishes must reach the server in the
/// order they were made, so the server ends with the app's last tree (no lost toggle).
final class PublisherOrderTests: XCTestCase {
    func snapshot(_ on: Bool) -> JSON {
        [
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        [
                            "id": "s", "class": "UISwitch", "frame": [10, 10, 51, 31], "isOn": .bool(on),
                            "accessibilityLabel": "Wi-Fi",
                        ]
                    ],
                ]
            ]
        ]
    }

    func testOverlappingPublishesArriveInOrder() async throws {
        let hub = Hub()
        let publisher = Publisher(transport: SlowHubTransport(hub: hub))
        try await publisher.register(name: "order") { _ in true }
        try await publisher.publish(snapshot(true))
        for round in 0..<20 {
            // Each task is started after the previous one's publish was called: the last call carries the truth.
            // A `Task.yield()` does not make sure of that (on a loaded machine a later task can reach the publisher
            // first, and the test then expected the wrong tree), so wait until the publisher has counted the call.
            var tasks: [Task<Void, Never>] = []
            var state = round % 2 == 0
            for _ in 0..<4 {
                state.toggle()
                let tree = snapshot(state)
                let callsBefore = await publisher.publishCallCount
                tasks.append(Task { _ = try? await publisher.publish(tree) })
                while await publisher.publishCallCount == callsBefore { await Task.yield() }
            }
            for task in tasks { await task.value }
            let app = try hub.resolveApp("order")
            let shown = try hub.snapshot(app).tree["s"]?.value
            XCTAssertEqual(shown, state ? "on" : "off", "round \(round): the server kept an older tree")
        }
    }
}
