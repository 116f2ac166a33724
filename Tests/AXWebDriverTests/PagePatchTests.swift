import AXHub
import AXJSON
import AXRPC
import AXRPCClient
import AXTransport
import Foundation
import XCTest

@testable import AXWebDriver

/// Issue 35 item 5: a structural change (insertion, removal, move) is patched into the parsed page from `tree.diff`
/// and `element.get`, and the patched page is the page a fresh read of the page source gives — names, attributes
/// (in order, `index` included), parents, children, subtrees and the axid index — against a real server (hub,
/// methods, socket transport) fed by a provider over JSON-RPC.
final class PagePatchTests: XCTestCase {
    var server: RPCServer?
    var directory = ""
    var provider: RPCClient?
    var app = ""

    override func setUp() async throws {
        directory = NSTemporaryDirectory() + "axpatch-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let hub = Hub(actionTimeout: .seconds(3))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let server = RPCServer(
            router: router, configuration: RPCServer.Configuration(unixSocketPath: directory + "/ax.sock"))
        try await server.start()
        self.server = server
        let provider = try await RPCClient.connect("unix:" + directory + "/ax.sock")
        _ = try await provider.call("initialize", ["clientInfo": ["name": "patch-test", "version": "1"]])
        let registered = try await provider.call("app.register", ["name": "patch"])
        app = try XCTUnwrap(registered["app"]?.stringValue)
        self.provider = provider
    }

    override func tearDown() async throws {
        await provider?.close()
        await server?.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func session() -> DriverSession {
        let link = ServerLink(server: ServerAddress(address: "unix:" + directory + "/ax.sock"))
        link.app.withLock { $0 = app }
        return DriverSession(
            id: UUID().uuidString, app: app, link: link, timeouts: WebDriverTimeouts(), capabilities: [:])
    }

    static func button(_ id: String, _ title: String, x: Int = 0) -> JSON {
        ["id": .string(id), "class": "UIButton", "frame": [JSON(x), 0, 40, 20], "title": .string(title)]
    }

    static func group(_ id: String, _ children: [JSON], y: Int = 0) -> JSON {
        [
            "id": .string(id), "class": "UIView", "frame": [0, JSON(y), 400, 30],
            "shouldGroupAccessibilityChildren": true,
            "accessibilityLabel": .string("Group \(id)"), "children": .array(children),
        ]
    }

    /// A window of three groups of four buttons and a label.
    static func windows() -> JSON {
        let groups = (0..<3).map { g in
            group("g\(g)", (0..<4).map { b in button("b\(g)_\(b)", "Button \(g).\(b)", x: b * 50) }, y: g * 40)
        }
        let label: JSON = ["id": "note", "class": "UILabel", "frame": [0, 200, 100, 20], "text": "Note"]
        return [
            [
                "id": "win", "class": "UIWindow", "frame": [0, 0, 400, 400], "isKeyWindow": true,
                "windowTitle": "Patch", "children": .array(groups + [label]),
            ]
        ]
    }

    func update(_ ops: [JSON]) async throws {
        let provider = try XCTUnwrap(provider)
        _ = try await provider.call("hierarchy.update", ["ops": .array(ops)])
    }

    /// The page as comparable values: names, attributes (in order), parents, children, subtree ends, the index.
    func flattened(_ page: (tree: PageTree, index: [String: Int])) -> [String] {
        var lines: [String] = []
        for element in 0..<page.tree.count {
            let attributes = page.tree.attributes[element].map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            lines.append(
                "\(element) <\(page.tree.names[element]) \(attributes)> parent \(page.tree.parent[element]) "
                    + "children \(page.tree.children[element]) end \(page.tree.subtreeEnd[element])")
        }
        lines.append(
            "index " + page.index.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ","))
        return lines
    }

    /// Applies `ops`, then checks that the patched page equals a fresh read and that it was patched (or read again).
    func check(
        _ name: String, _ ops: [JSON], patched expectPatch: Bool, _ patchedSession: DriverSession,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        try await update(ops)
        let patchesBefore = patchedSession.state.withLock { $0.pagePatches }
        let patched = try await patchedSession.page()
        let wasPatched = patchedSession.state.withLock { $0.pagePatches } > patchesBefore
        let fresh = session()
        let read = try await fresh.page()
        await fresh.link.close()
        XCTAssertEqual(wasPatched, expectPatch, "\(name): patched", file: file, line: line)
        let (mine, theirs) = (flattened(patched), flattened(read))
        XCTAssertEqual(mine.count, theirs.count, "\(name): element count", file: file, line: line)
        for (left, right) in zip(mine, theirs) where left != right {
            XCTFail("\(name): patched \(left)\n  fresh \(right)", file: file, line: line)
            break
        }
    }

    func testStructuralChangesArePatchedToTheFreshPage() async throws {
        let provider = try XCTUnwrap(provider)
        _ = try await provider.call("hierarchy.set", ["windows": Self.windows()])
        let patchedSession = session()
        _ = try await patchedSession.page()
        func insert(_ parent: String, _ view: JSON, at index: Int? = nil) -> JSON {
            var op: JSONObject = ["op": "insert", "parent": parent.isEmpty ? .null : .string(parent), "view": view]
            if let index { op["index"] = JSON(index) }
            return .object(op)
        }
        func move(_ id: String, to parent: String, at index: Int) -> JSON {
            ["op": "move", "id": .string(id), "parent": .string(parent), "index": JSON(index)]
        }
        func remove(_ id: String) -> JSON { ["op": "remove", "id": .string(id)] }
        func set(_ id: String, _ properties: JSON) -> JSON {
            ["op": "set", "id": .string(id), "properties": properties]
        }

        let s = patchedSession
        try await check(
            "insert first (siblings' index shifts)", [insert("g0", Self.button("n1", "New 1"), at: 0)], patched: true, s
        )
        try await check("insert last", [insert("g1", Self.button("n2", "New 2", x: 300))], patched: true, s)
        try await check("insert in the middle", [insert("g2", Self.button("n3", "New 3"), at: 2)], patched: true, s)
        try await check(
            "insert a subtree",
            [
                insert(
                    "win",
                    Self.group("g9", [Self.button("n4", "New 4"), Self.group("g10", [Self.button("n5", "Deep")])]),
                    at: 1)
            ],
            patched: true, s)
        try await check("remove a leaf", [remove("b0_1")], patched: true, s)
        try await check("remove a subtree", [remove("g10")], patched: true, s)
        try await check("reorder within a parent", [move("b1_3", to: "g1", at: 0)], patched: true, s)
        try await check("move to another parent", [move("b2_0", to: "g0", at: 1)], patched: true, s)
        try await check("move a subtree", [move("g9", to: "g2", at: 0)], patched: true, s)
        try await check(
            "several ops, labels and structure at once",
            [
                set("b0_0", ["title": "Renamed \"quoted\" <&>"]), insert("g1", Self.button("n6", "Tab\there\nnewline")),
                remove("b1_0"), move("note", to: "g0", at: 0),
            ], patched: true, s)
        try await check("hide a subtree", [set("g1", ["isHidden": true])], patched: true, s)
        try await check("show it again", [set("g1", ["isHidden": false])], patched: true, s)
        try await check(
            "a new slider: its type needs the view class, read again",
            [insert("g0", ["id": "slider", "class": "UISlider", "frame": [0, 0, 100, 20], "value": 0.5])],
            patched: false, s)
        try await check("a slider already read keeps its type", [set("slider", ["value": 0.75])], patched: true, s)
        try await check(
            "several changes between two reads", [insert("g2", Self.button("n7", "New 7"), at: 0)], patched: true, s)
        try await update([remove("n7")])
        try await update([insert("g0", Self.button("n8", "New 8"), at: 3)])
        try await check("(the third of them)", [move("n8", to: "g2", at: 1)], patched: true, s)
        // D-AUTO-1: a view listed in `automationElements` is an automation-only element while it shows; the change
        // log never names it, so a page that has (or gets) one is read again.
        let listing: JSON = [
            "id": "cellx", "class": "UIView", "frame": [0, 300, 100, 20], "isAccessibilityElement": true,
            "accessibilityLabel": "Cell", "automationElements": ["hid"],
            "children": [
                [
                    "id": "hid", "class": "UIButton", "frame": [0, 0, 10, 10], "isHidden": true,
                    "accessibilityIdentifier": "hidden-button",
                ]
            ],
        ]
        try await check("an element listing a hidden view", [insert("win", listing)], patched: true, s)
        try await check("the listed view shows: read again", [set("hid", ["isHidden": false])], patched: false, s)
        try await check(
            "a page with an automation-only element: read again", [set("b2_1", ["title": "T"])], patched: false, s)
        try await check("the listed view hides: read again", [set("hid", ["isHidden": true])], patched: false, s)
        try await check(
            "a new window: read again",
            [insert("", ["id": "win2", "class": "UIWindow", "frame": [0, 0, 50, 50], "windowTitle": "Two"])],
            patched: false, s)
        let reads = s.state.withLock { $0.pageReads }
        XCTAssertEqual(reads, 6, "the first read, the slider, three with an automation-only element, the window")
        await s.link.close()
    }

    /// Get Page Source answers the server's page source byte for byte: the literal handed on is the string a plain
    /// client reads from `tree.get` (labels with quotes, markup, newlines, tabs, emoji and a control character).
    func testPageSourceIsTheServersString() async throws {
        let provider = try XCTUnwrap(provider)
        _ = try await provider.call("hierarchy.set", ["windows": Self.windows()])
        try await update([
            ["op": "set", "id": "b0_0", "properties": ["title": "\"q\" <&> \n\t \u{1F600} \u{7} \\ / é"]]
        ])
        let service = WebDriverService(server: ServerAddress(address: "unix:" + directory + "/ax.sock"))
        let created = await service.handle(
            method: "POST", path: "/session",
            body: Array(#"{"capabilities":{"alwaysMatch":{"axserver:app":"\#(app)"}}}"#.utf8))
        let sessionID = try XCTUnwrap(created.body["value"]?["sessionId"]?.stringValue, "\(created.body)")
        let answer = await service.handle(method: "GET", path: "/session/\(sessionID)/source", body: [])
        let plain = try await provider.call("tree.get", ["app": .string(app), "format": "xml"])
        let xml = try XCTUnwrap(plain["xml"]?.stringValue)
        XCTAssertTrue(xml.contains("\u{1F600}") && xml.contains("&quot;q&quot;"), xml)
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(try JSON.parse(answer.bodyBytes)["value"]?.stringValue, xml)
        XCTAssertEqual(answer.bodyBytes, WebDriverResponse.value(.string(xml)).body.serialized())
        XCTAssertNotNil(answer.valueJSON, "handed on as the literal")
        await service.closeAll()
    }

    /// A seeded random walk of insertions, removals and moves: every step's patched page is the fresh page.
    func testRandomStructuralChangesMatchFreshReads() async throws {
        let provider = try XCTUnwrap(provider)
        _ = try await provider.call("hierarchy.set", ["windows": Self.windows()])
        let s = session()
        _ = try await s.page()
        var model = ViewModel()
        var random = SplitMix(seed: 35)
        for step in 0..<40 {
            let ops = model.randomOps(&random, step: step)
            try await check("random step \(step): \(ops)", ops, patched: true, s)
        }
        await s.link.close()
    }
}

/// The test's picture of the provider's views (groups and buttons under `win`), to make valid random ops.
struct ViewModel {
    var children: [String: [String]] = [
        "win": ["g0", "g1", "g2", "note"],
        "g0": ["b0_0", "b0_1", "b0_2", "b0_3"], "g1": ["b1_0", "b1_1", "b1_2", "b1_3"],
        "g2": ["b2_0", "b2_1", "b2_2", "b2_3"],
    ]
    var parent: [String: String] = [:]

    init() {
        for (id, kids) in children { for kid in kids { parent[kid] = id } }
    }

    var groups: [String] { children.keys.sorted() }

    func isInside(_ id: String, _ ancestor: String) -> Bool {
        var current: String? = id
        while let node = current {
            if node == ancestor { return true }
            current = parent[node]
        }
        return false
    }

    mutating func detach(_ id: String) {
        if let old = parent[id] { children[old]?.removeAll { $0 == id } }
        parent[id] = nil
    }

    mutating func attach(_ id: String, to group: String, at index: Int) {
        children[group, default: []].insert(id, at: index)
        parent[id] = group
    }

    mutating func randomOps(_ random: inout SplitMix, step: Int) -> [JSON] {
        let movable = parent.keys.sorted()
        switch random.next(4) {
        case 0 where !movable.isEmpty:
            let id = movable[random.next(movable.count)]
            removeSubtree(id)
            return [["op": "remove", "id": .string(id)]]
        case 1 where !movable.isEmpty:
            let id = movable[random.next(movable.count)]
            let targets = groups.filter { !isInside($0, id) }
            let target = targets[random.next(targets.count)]
            detach(id)
            let index = random.next((children[target]?.count ?? 0) + 1)
            attach(id, to: target, at: index)
            return [["op": "move", "id": .string(id), "parent": .string(target), "index": JSON(index)]]
        default:
            let target = groups[random.next(groups.count)]
            let index = random.next((children[target]?.count ?? 0) + 1)
            let id = "r\(step)"
            let view: JSON
            if random.next(3) == 0 {
                view = PagePatchTests.group(id, [PagePatchTests.button(id + "a", "Random \(step) a")])
                children[id] = []
                attach(id + "a", to: id, at: 0)
            } else {
                view = PagePatchTests.button(id, "Random \(step)")
            }
            attach(id, to: target, at: index)
            return [["op": "insert", "parent": .string(target), "view": view, "index": JSON(index)]]
        }
    }

    mutating func removeSubtree(_ id: String) {
        for kid in children[id] ?? [] { removeSubtree(kid) }
        children[id] = nil
        detach(id)
    }
}

/// A small seeded generator (SplitMix64), so a failing walk can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
    }
}
