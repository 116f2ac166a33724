import AXDemo
import AXDemoHost
import AXHub
import AXJSON
import AXJSONRPC
import AXMCP
import AXRPC
import AXRPCClient
import AXTransport
import Foundation
import Synchronization
import XCTest

/// The MCP layer of `axquery mcp`: the text formats and their budgets (pure), and the protocol session with its
/// tools against a real server (hub, methods, socket transport, demo app on the provider library).
final class AXMCPFormatTests: XCTestCase {
    func element(
        _ id: String, _ role: String, label: String? = nil, value: String? = nil, states: [String],
        actions: [String] = []
    ) -> JSON {
        var object: JSONObject = ["id": .string(id), "role": .string(role), "states": JSON(states)]
        if let label { object["label"] = .string(label) }
        if let value { object["value"] = .string(value) }
        if !actions.isEmpty { object["actions"] = JSON(actions) }
        return .object(object)
    }

    func testElementLineShowsRefRoleLabelValueAndTheStatesThatMatter() {
        let line = ElementLine.line(
            element("wifiSwitch", "switch", label: "Wi-Fi", value: "1", states: ["enabled", "onscreen", "checked"]))
        XCTAssertEqual(line, "wifiSwitch switch \"Wi-Fi\" =1 [checked]")
        let quoted = ElementLine.line(element("f", "textField", label: "Say \"hi\"\n", value: "a b", states: []))
        XCTAssertEqual(quoted, "f textField \"Say \\\"hi\\\"\\n\" =\"a b\" [disabled offscreen]")
    }

    func testOffscreenAndDisabledAreShownOnlyWhereTheyBegin() {
        let parent: Set<String> = ["enabled"]  // offscreen, enabled
        let child = element("c", "button", label: "B", states: ["enabled"])
        XCTAssertEqual(ElementLine.line(child, parentStates: parent), "c button \"B\"")
        XCTAssertEqual(ElementLine.line(child, parentStates: ["enabled", "onscreen"]), "c button \"B\" [offscreen]")
    }

    func testLongTextsAreCut() {
        let line = ElementLine.line(element("t", "staticText", label: String(repeating: "x", count: 250), states: []))
        XCTAssertTrue(line.contains("…(+50)"), line)
        XCTAssertLessThan(line.utf8.count, 250)
    }

    /// A tree of `groups` groups of `leaves` buttons each, under one window.
    func tree(groups: Int, leaves: Int) -> [JSON] {
        let on = ["enabled", "onscreen"]
        var groupNodes: [JSON] = []
        for group in 0..<groups {
            var kids: [JSON] = []
            for leaf in 0..<leaves {
                kids.append(
                    element(
                        "n\(group)_\(leaf)", "button", label: "Button \(group).\(leaf)", states: on,
                        actions: ["activate"]))
            }
            guard var object = element("g\(group)", "group", states: on).objectValue else { return [] }
            object["children"] = .array(kids)
            groupNodes.append(.object(object))
        }
        guard var window = element("w", "window", states: on).objectValue else { return [] }
        window["children"] = .array(groupNodes)
        return [.object(window)]
    }

    func testWholeTreeWithinBudgetHasNoMarker() {
        let snapshot = SnapshotText(windows: tree(groups: 3, leaves: 4), header: "h", maxNodes: 300, maxBytes: 16_000)
        XCTAssertEqual(snapshot.total, 16)
        XCTAssertEqual(snapshot.shown, 16)
        XCTAssertFalse(snapshot.text.contains("truncated"))
        // The groups have nothing to say: no lines, their buttons one level up (under the window line).
        XCTAssertTrue(snapshot.text.hasPrefix("h\nwindow\n n0_0 button \"Button 0.0\"\n"), snapshot.text)
        XCTAssertTrue(snapshot.text.contains("\n n1_2 button \"Button 1.2\"\n"), snapshot.text)
        XCTAssertFalse(snapshot.text.contains("group"), snapshot.text)
    }

    /// Refs stand only where an agent can act (issue 35 item 4): static text is its quoted label, a labelled group
    /// keeps its line without a ref, a value equal to the label is not repeated; `ElementLine.line` (find, changes)
    /// keeps every ref.
    func testSnapshotSaysEachThingOnceAndRefsOnlyWhatCanBeActedOn() {
        let on = ["enabled", "onscreen"]
        guard var group = element("form", "group", label: "Network", states: on).objectValue,
            var window = element("w", "window", label: "Settings", states: on).objectValue
        else { return XCTFail() }
        group["children"] = [
            element("t1", "staticText", label: "Wi-Fi", value: "Wi-Fi", states: on),
            element("s1", "switch", label: "Wi-Fi", value: "1", states: on + ["checked"], actions: ["activate"]),
            element("f1", "textField", label: "Name", value: "Name", states: on, actions: ["activate", "typeText"]),
        ]
        window["children"] = [.object(group)]
        let text = SnapshotText(windows: [.object(window)], header: "h", maxNodes: 300, maxBytes: 16_000).text
        XCTAssertEqual(
            text,
            "h\nwindow \"Settings\"\n group \"Network\"\n  \"Wi-Fi\"\n  s1 switch \"Wi-Fi\" [checked]\n"
                + "  f1 textField \"Name\"\n")
        XCTAssertEqual(
            ElementLine.line(element("t1", "staticText", label: "Wi-Fi", states: on)), "t1 staticText \"Wi-Fi\"")
    }

    /// Session refs (D-MCP-REF-1): a letter naming the role the line leaves out and a base-36 number per letter,
    /// the label bare when it reads back unambiguously; the same element keeps its ref in a later snapshot; lines
    /// without actions carry none; find and change lines use the same refs.
    func testSessionRefsAreShortStableAndNameTheRoleTheyLeaveOut() {
        let on = ["enabled", "onscreen"]
        let act = ["activate"]
        let leaves: [JSON] = [
            element("okButton", "button", label: "OK", states: on, actions: act),
            element("hello", "staticText", label: "Hi", states: on),
            element("wifi", "switch", label: "Wi-Fi", value: "1", states: on + ["checked"], actions: act),
            element("volume", "adjustable", label: "Volume", value: "50%", states: on, actions: ["increment"]),
            element("row", "cell", label: "Row", states: on, actions: act),
            element("name", "textField", label: "Name", value: "", states: on, actions: ["typeText"]),
            element("say", "button", label: "Say \"hi\"", states: on, actions: act),
            element("logo", "image", label: "Logo", states: on, actions: act),
            element("tabHome", "tab", label: "Home", value: "1 of 2", states: on + ["selected"], actions: act),
        ]
        func windows(_ kids: [JSON]) -> [JSON] {
            guard var group = element("form", "group", states: on).objectValue,
                var window = element("w", "window", label: "Settings", states: on).objectValue
            else { return [] }
            group["children"] = .array(kids)
            window["children"] = [.object(group)]
            return [.object(window)]
        }
        let refs = RefTable()
        let text = SnapshotText(
            windows: windows(leaves), header: "h", maxNodes: 300, maxBytes: 16_000, refs: refs
        ).text
        XCTAssertEqual(
            text,
            "h\nwindow \"Settings\"\n b1 OK\n \"Hi\"\n"
                + " s1 Wi-Fi [checked]\n a1 Volume =50%\n c1 Row\n t1 Name\n b2 \"Say \\\"hi\\\"\"\n e1 image \"Logo\"\n"
                + " n1 Home [selected]\n")
        XCTAssertEqual(refs.id(for: "b2"), "say")
        XCTAssertEqual(refs.id(for: "cellWifi"), "cellWifi", "a server id passes through")
        // A later revision: a new button first, the rest moved; every known element keeps its ref.
        let later = SnapshotText(
            windows: windows([element("new", "button", label: "New", states: on, actions: act)] + leaves.reversed()),
            header: "h", maxNodes: 300, maxBytes: 16_000, refs: refs
        ).text
        XCTAssertTrue(later.contains("\n b3 New\n n1 Home [selected]\n e1 image \"Logo\"\n b2 \"Say"), later)
        XCTAssertEqual(
            ElementLine.line(
                element("wifi", "switch", label: "Wi-Fi", value: "0", states: on), parentStates: nil, refs: refs),
            "s1 Wi-Fi")
        XCTAssertEqual(
            ElementLine.line(element("hello", "staticText", label: "Hi", states: on), parentStates: nil, refs: refs),
            "e2 \"Hi\"")
    }

    func testNodeBudgetCutsBreadthFirstAndCountsWhatIsHidden() {
        let snapshot = SnapshotText(windows: tree(groups: 3, leaves: 4), header: "h", maxNodes: 4, maxBytes: 16_000)
        XCTAssertEqual(snapshot.shown, 4, snapshot.text)
        // The window and its three groups are kept; each group says it hides its 4 buttons.
        XCTAssertTrue(snapshot.text.contains(" g0 group +4\n"), snapshot.text)
        XCTAssertTrue(snapshot.text.contains("[truncated: 12 of 16 elements not shown (maxNodes 4)"), snapshot.text)
        XCTAssertTrue(snapshot.text.contains("snapshot ref=g0"), snapshot.text)
    }

    func testByteBudgetIsNeverExceededAndZeroNodesStillAnswers() {
        let windows = tree(groups: 100, leaves: 100)
        for maxBytes in [200, 1_000, 32_000] {
            let snapshot = SnapshotText(windows: windows, header: "h", maxNodes: 1_000_000, maxBytes: maxBytes)
            XCTAssertLessThanOrEqual(snapshot.text.utf8.count, maxBytes)
            XCTAssertTrue(snapshot.text.contains("(maxBytes \(maxBytes))"), snapshot.text)
        }
        let none = SnapshotText(windows: windows, header: "h", maxNodes: 0, maxBytes: 16_000)
        XCTAssertEqual(none.shown, 0)
        XCTAssertTrue(none.text.contains("10101 of 10101"), none.text)
    }

    func testServerTruncationIsCounted() {
        var windows = tree(groups: 1, leaves: 1)
        guard var window = windows[0].objectValue else { return XCTFail() }
        window["truncated"] = ["kind": "depth", "omitted": 7]
        windows[0] = .object(window)
        let snapshot = SnapshotText(windows: windows, header: "h", maxNodes: 100, maxBytes: 16_000)
        XCTAssertEqual(snapshot.total, 10)
        XCTAssertTrue(snapshot.text.contains("w window +7"), snapshot.text)
    }

    func testChangeTextIsBoundedAndSaysHowToSeeTheRest() {
        var updated = JSONObject()
        for index in 0..<40 { updated["e\(index)"] = ["value", "states"] }
        let changes: JSON = ["updated": .object(updated), "added": ["a1"], "removed": ["r1"]]
        let entries = ChangeText.entries(of: changes)
        XCTAssertEqual(entries.count, 42)
        let text = ChangeText.text(
            headline: "click x: done, revision 3→4", entries: entries, windowsChanged: false, since: 3, maxLines: 8,
            maxBytes: 900)
        XCTAssertLessThanOrEqual(text.utf8.count, 1_000)
        XCTAssertTrue(text.contains("~ e0 {value}"), text)
        XCTAssertTrue(text.hasSuffix("… 34 more: changes since=3"), text)
        let none = ChangeText.text(
            headline: "h", entries: [], windowsChanged: false, since: 1, maxLines: 8, maxBytes: 900)
        XCTAssertEqual(none, "h\nno change")
    }

    func testToolSchemasAreSmallAndAnnotated() {
        var total = 0
        for tool in MCPToolCatalog.tools {
            let bytes = tool.json.jsonString.utf8.count
            total += bytes
            XCTAssertLessThan(bytes, 700, tool.name)
            let annotations = tool.json["annotations"]
            if ["snapshot", "find", "wait_for", "changes", "audit", "say", "picture"].contains(tool.name) {
                XCTAssertEqual(annotations?["readOnlyHint"], true, tool.name)
            }
            if ["click", "type_text", "press_key", "act"].contains(tool.name) {
                XCTAssertEqual(annotations?["destructiveHint"], true, tool.name)
            }
        }
        XCTAssertLessThan(total, 6_000)
    }
}

/// The messages a session wrote.
final class Collected: Sendable {
    let messages = Mutex<[JSON]>([])
}

/// The session and the tools against a real server with the demo app.
final class AXMCPSessionTests: XCTestCase {
    var server: RPCServer!
    var host: DemoHost!
    var hub: Hub!
    var directory: String!
    let collected = Collected()

    override func setUp() async throws {
        directory = NSTemporaryDirectory() + "axmcp-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try await startServer()
    }

    /// A server with the demo app on `directory`/ax.sock.
    func startServer() async throws {
        let hub = Hub(actionTimeout: .seconds(3))
        self.hub = hub
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        server = RPCServer(
            router: router, configuration: RPCServer.Configuration(unixSocketPath: directory + "/ax.sock"))
        try await server.start()
        host = DemoHost(transport: HubProviderTransport(hub: hub))
        try await host.start(tick: nil)
    }

    override func tearDown() async throws {
        await host?.stop()
        await server?.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func makeSession() -> (MCPSession, LiveBackend) {
        let backend = LiveBackend(address: "unix:" + directory + "/ax.sock", token: nil)
        let collected = self.collected
        let session = MCPSession(runner: MCPToolRunner(backend: backend), serverVersion: "test") { bytes in
            if let message = try? JSON.parse(bytes) { collected.messages.withLock { $0.append(message) } }
        }
        return (session, backend)
    }

    func send(_ session: MCPSession, _ text: String) {
        session.receive(Array(text.utf8)[...])
    }

    /// The answer to request `id`, waiting up to 10 s.
    func answer(_ id: Int) async throws -> JSON {
        for _ in 0..<1_000 {
            if let found = collected.messages.withLock({ $0.first { $0["id"] == JSON(id) } }) { return found }
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTFail("no answer to \(id)")
        return .null
    }

    func call(_ session: MCPSession, _ id: Int, _ tool: String, _ arguments: JSON) async throws -> (String, Bool) {
        let request: JSON = [
            "jsonrpc": "2.0", "id": JSON(id), "method": "tools/call",
            "params": ["name": .string(tool), "arguments": arguments],
        ]
        send(session, request.jsonString)
        let reply = try await answer(id)
        let result = reply["result"]
        return (result?["content"]?[0]?["text"]?.stringValue ?? "", result?["isError"]?.boolValue ?? false)
    }

    func testProtocolBasicsAndMalformedInput() async throws {
        let (session, backend) = makeSession()
        defer { Task { await backend.close() } }
        send(session, #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#)
        let initialized = try await answer(1)
        XCTAssertEqual(initialized["result"]?["protocolVersion"], "2025-06-18")
        XCTAssertNotNil(initialized["result"]?["capabilities"]?["tools"])
        send(session, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        send(session, #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
        let list = try await answer(2)
        XCTAssertEqual(list["result"]?["tools"]?.arrayValue?.count, MCPToolCatalog.tools.count)
        send(session, "{not json")
        send(session, #"[{"jsonrpc":"2.0","id":3,"method":"ping"}]"#)
        send(session, #"{"jsonrpc":"2.0","id":4,"method":"nope"}"#)
        send(session, #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fly"}}"#)
        send(session, #"{"jsonrpc":"2.0","id":6,"method":"ping"}"#)
        let unknownMethod = try await answer(4)
        XCTAssertEqual(unknownMethod["error"]?["code"], -32601)
        let unknownTool = try await answer(5)
        XCTAssertEqual(unknownTool["error"]?["code"], -32602)
        XCTAssertEqual(unknownTool["error"]?["data"]?["accepted"]?.arrayValue?.count, MCPToolCatalog.tools.count)
        let pong = try await answer(6)
        XCTAssertEqual(pong["result"], [:])
        let errors = collected.messages.withLock { $0.filter { $0["id"] == .null } }
        XCTAssertEqual(errors.compactMap { $0["error"]?["code"]?.intValue }.sorted(), [-32700, -32600])
    }

    func testHostileLinesGetTypedErrorsAndNeverCrash() async throws {
        let (session, backend) = makeSession()
        defer { Task { await backend.close() } }
        let hostile: [[UInt8]] = [
            Array(repeating: UInt8(ascii: "["), count: 100_000),
            [0xFF, 0xFE, 0x7B, 0x22],
            Array(#"{"jsonrpc":"2.0","id":1e400,"method":"ping"}"#.utf8),
            Array(#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#.utf8),
            Array(#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"x"}"#.utf8),
            Array(#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":7}}"#.utf8),
            Array(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"x":1}}}"#.utf8),
            Array(repeating: UInt8(ascii: "x"), count: MCPSession.maxLineBytes + 1),
        ]
        for line in hostile { session.receive(line[...]) }
        send(session, #"{"jsonrpc":"2.0","id":9,"method":"ping"}"#)
        let pong = try await answer(9)
        XCTAssertEqual(pong["result"], [:])
        let codes = collected.messages.withLock { $0.compactMap { $0["error"]?["code"]?.intValue } }
        XCTAssertEqual(codes.sorted(), [-32700, -32700, -32700, -32602, -32600, -32600, -32600].sorted(), "\(codes)")
    }

    func testFindClickAnswersTheChangeAndStaleRefNamesTheNearestElement() async throws {
        let (session, backend) = makeSession()
        defer { Task { await backend.close() } }
        let (found, _) = try await call(session, 1, "find", ["selector": "switch[label=\"Wi-Fi\"]"])
        XCTAssertTrue(found.hasPrefix("1 match"), found)
        XCTAssertTrue(found.contains("[checked]"), found)
        let (clicked, clickFailed) = try await call(session, 2, "click", ["selector": "switch[label=\"Wi-Fi\"]"])
        XCTAssertFalse(clickFailed, clicked)
        XCTAssertTrue(clicked.contains(": done, revision"), clicked)
        XCTAssertTrue(clicked.contains("~ "), clicked)
        XCTAssertLessThan(clicked.utf8.count, 1_024)
        // The session's short ref (D-MCP-REF-1) names the switch in find, and click takes it back.
        let wifiRef = String(found.split(separator: "\n")[1].split(separator: " ")[0])
        XCTAssertTrue(wifiRef.hasPrefix("s") && wifiRef.utf8.count <= 3, found)
        let (byRef, byRefFailed) = try await call(session, 10, "click", ["ref": .string(wifiRef)])
        XCTAssertFalse(byRefFailed, byRef)
        XCTAssertTrue(byRef.hasPrefix("click \(wifiRef): done"), byRef)
        let (unknown, unknownFailed) = try await call(session, 11, "click", ["ref": "b9zz"])
        XCTAssertTrue(unknownFailed)
        XCTAssertTrue(unknown.contains("ref 'b9zz' is unknown") && unknown.contains("take a new snapshot"), unknown)
        let (miss, missFailed) = try await call(session, 3, "find", ["selector": "button[label=\"Sumbit\"]"])
        XCTAssertFalse(missFailed)
        XCTAssertTrue(miss.hasPrefix("0 match") && miss.contains("closest"), miss)
        // The alert's Cancel button: shown, then gone.
        _ = try await call(session, 4, "click", ["selector": "#showAlert"])
        let (cancel, _) = try await call(session, 5, "find", ["selector": "#\"alert.cancel\""])
        let ref = String(cancel.split(separator: "\n")[1].split(separator: " ")[0])
        _ = try await call(session, 6, "click", ["ref": .string(ref)])
        let (stale, staleFailed) = try await call(session, 7, "click", ["ref": .string(ref)])
        XCTAssertTrue(staleFailed)
        XCTAssertTrue(stale.contains("ref '\(ref)' is stale"), stale)
        let (bad, badFailed) = try await call(session, 8, "snapshot", ["maxNodes": 1e12, "depth": 2])
        XCTAssertTrue(badFailed)
        XCTAssertTrue(bad.contains("unknown argument 'depth'") && bad.contains("accepted: app, ref"), bad)
    }

    /// Issue 25: `act` offers zoom (D-ZOOM-1) and drag and drop (D-DRAG-1) as their own actions, not as custom
    /// action names: a button without supportsZoom is refused naming zoomIn; drag needs a descriptor name.
    func testActOffersZoomAndDragAndDrop() async throws {
        let (session, backend) = makeSession()
        defer { Task { await backend.close() } }
        let (zoom, zoomFailed) = try await call(session, 1, "act", ["selector": "#showAlert", "action": "zoomIn"])
        XCTAssertTrue(zoomFailed, zoom)
        XCTAssertTrue(zoom.contains("'zoomIn'") && !zoom.contains("custom:"), zoom)
        let (drag, dragFailed) = try await call(session, 2, "act", ["selector": "#showAlert", "action": "drag"])
        XCTAssertTrue(dragFailed)
        XCTAssertTrue(drag.contains("needs 'name'"), drag)
        let (drop, dropFailed) = try await call(
            session, 3, "act", ["selector": "#showAlert", "action": "drop", "name": "Here"])
        XCTAssertTrue(dropFailed, drop)
        XCTAssertTrue(drop.contains("'drop'"), drop)
        let act = try XCTUnwrap(MCPToolCatalog.tools.first { $0.name == "act" })
        print("act tool entry: \(act.json.jsonString.utf8.count) bytes")
    }

    func testWaitIsCancelledAndNotAnswered() async throws {
        let (session, backend) = makeSession()
        defer { Task { await backend.close() } }
        let request: JSON = [
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": [
                "name": "wait_for", "arguments": ["selector": "#never", "state": "attached", "timeoutMs": 30_000],
            ],
        ]
        send(session, request.jsonString)
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertEqual(session.runningCount, 1)
        send(session, #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#)
        for _ in 0..<200 where session.runningCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(session.runningCount, 0)
        send(session, #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        _ = try await answer(2)
        XCTAssertNil(collected.messages.withLock { $0.first { $0["id"] == 1 } })
    }

    /// Cancelling the task of an `RPCClient` call tells the server (`$/cancelRequest`), so the server's wait ends
    /// too: 256 cancelled waits must not keep the connection's wait slots (256 waits run beside the others, one more
    /// is let through, the next queues in order; Specs/protocol.md D-PROTO-1). Before the client sent
    /// `$/cancelRequest`, the two waits after them queued for the cancelled ones' whole timeout.
    func testCancelledClientCallsEndTheirServerWaits() async throws {
        let client = try await RPCClient.connect("unix:" + directory + "/ax.sock")
        _ = try await client.call("initialize", ["role": "automation"])
        let never: JSON = ["target": "#neverThere", "state": "attached", "timeoutMs": 60_000]
        var tasks: [Task<Void, Never>] = []
        for _ in 0..<256 {
            tasks.append(Task { _ = try? await client.call("wait.for", never, timeout: .seconds(70)) })
        }
        try await Task.sleep(for: .milliseconds(300))
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        try await Task.sleep(for: .milliseconds(100))
        let another = Task { _ = try? await client.call("wait.for", never, timeout: .seconds(70)) }
        defer { another.cancel() }
        try await Task.sleep(for: .milliseconds(100))
        let started = ContinuousClock.now
        let answer = try await client.call(
            "wait.for", ["target": "#showAlert", "state": "attached", "timeoutMs": 1_000], timeout: .seconds(5))
        XCTAssertEqual(answer["satisfied"], true)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(4))
        await client.close()
    }

    /// Issue 30 item 5 (D-MCP-CONN-1): concurrent first calls share one connection. Before, each call that found
    /// no connection opened its own (500 calls: 261 connections and 132 "cannot connect").
    func testConcurrentFirstCallsShareOneConnection() async throws {
        let (session, backend) = makeSession()
        defer { Task { await backend.close() } }
        let calls = 500
        var lines: [String] = []
        for id in 1...calls {
            lines.append(
                #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"find","arguments":{"selector":"switch"}}}"#
            )
        }
        for line in lines { send(session, line) }
        var mostConnections = 0
        for _ in 0..<2_000 {
            mostConnections = max(mostConnections, server.connectionCount)
            if collected.messages.withLock({ $0.count }) >= calls { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        let answers = collected.messages.withLock { $0 }
        XCTAssertEqual(answers.count, calls)
        let failed = answers.filter { $0["result"]?["isError"] == true }
        XCTAssertEqual(failed.count, 0, "\(failed.first?.jsonString ?? "")")
        XCTAssertEqual(backend.connectionsOpened, 1)
        XCTAssertLessThanOrEqual(mostConnections, 2, "the demo app's connection and the session's")
    }

    /// Issue 30 item 5: 1,000 `wait_for` calls, all cancelled, free everything at once: the next `find` answers
    /// without waiting for their timeouts (before: no answer for 30 s, 3 of 3), and no wait is left on the server.
    func testCancellingAThousandWaitsFreesEverything() async throws {
        let (session, backend) = makeSession()
        defer { Task { await backend.close() } }
        _ = try await call(session, 1, "find", ["selector": "switch"])
        let waits = 1_000
        for id in 2...(waits + 1) {
            send(
                session,
                ##"{"jsonrpc":"2.0","id":\##(id),"method":"tools/call","params":{"name":"wait_for","arguments":{"selector":"#never","state":"attached","timeoutMs":60000}}}"##
            )
        }
        for _ in 0..<500 where backend.callsInFlight < 64 { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertGreaterThan(backend.callsInFlight, 0)
        XCTAssertEqual(session.runningCount, waits)
        for id in 2...(waits + 1) {
            send(session, #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":\#(id)}}"#)
        }
        let started = ContinuousClock.now
        let (found, failed) = try await call(session, 5_000, "find", ["selector": "switch"])
        let elapsed = ContinuousClock.now - started
        XCTAssertFalse(failed, found)
        XCTAssertLessThan(elapsed, .seconds(2), "the next find waited \(elapsed)")
        for _ in 0..<300 where session.runningCount > 0 || hub.registeredWaiterCount > 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertEqual(session.runningCount, 0)
        XCTAssertEqual(backend.queuedCalls, 0)
        XCTAssertEqual(hub.registeredWaiterCount, 0, "a cancelled wait still waits on the server")
        XCTAssertEqual(backend.connectionsOpened, 1)
        let answeredWaits = collected.messages.withLock {
            $0.filter { ($0["id"]?.intValue ?? 0) > 1 && ($0["id"]?.intValue ?? 0) <= waits + 1 }
        }
        XCTAssertEqual(answeredWaits.count, 0, "a cancelled call was answered")
    }

    /// Issue 30 item 5: calls beyond the running and queued bounds are answered −32023 `busy` at once.
    func testCallsBeyondTheBoundsAreBusy() async throws {
        let (session, backend) = makeSession()
        defer { Task { await backend.close() } }
        let total = MCPSession.maxRunning + MCPSession.maxQueued + 5
        for id in 1...total {
            send(
                session,
                ##"{"jsonrpc":"2.0","id":\##(id),"method":"tools/call","params":{"name":"wait_for","arguments":{"selector":"#never","state":"attached","timeoutMs":60000}}}"##
            )
        }
        let busy = collected.messages.withLock { $0.filter { $0["error"]?["code"] == -32023 } }
        XCTAssertEqual(busy.count, 5)
        XCTAssertEqual(busy.first?["error"]?["data"]?["maxQueued"]?.intValue, MCPSession.maxQueued)
        XCTAssertEqual(session.runningCount, MCPSession.maxRunning)
        XCTAssertEqual(session.queuedCount, MCPSession.maxQueued)
        session.cancelAll()
        for _ in 0..<500 where session.runningCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(session.runningCount, 0)
        XCTAssertEqual(session.queuedCount, 0)
    }

    func testServerGoneIsATypedErrorAndTheNextCallReconnects() async throws {
        let (session, backend) = makeSession()
        defer { Task { await backend.close() } }
        _ = try await call(session, 1, "find", ["selector": "button"])
        await host.stop()
        await server.stop()
        let (gone, failed) = try await call(session, 2, "find", ["selector": "button"])
        XCTAssertTrue(failed)
        // Specs/mcp.md: −32020 (`disconnected`) when the shared connection broke under the call, −32024 when
        // nothing answers at the address any more; which one depends on when the call sees the server go.
        XCTAssertTrue(gone.contains("-32024 no server") || gone.contains("-32020"), gone)
        try await startServer()
        let (again, againFailed) = try await call(session, 3, "find", ["selector": "button"])
        XCTAssertFalse(againFailed, again)
    }
}
