import AXCore
import AXDemo
import AXDemoHost
import AXHub
import AXJSON
import AXJSONRPC
import AXProvider
import AXRPC
import AXRPCClient
import AXTestSupport
import AXTransport
import Synchronization
import XCTest

/// The text a test app holds, shared with its action handler.
final class TextBox: Sendable {
    private let text = Mutex("")
    func update(_ change: (inout String) -> Void) -> String {
        text.withLock { current in
            change(&current)
            return current
        }
    }
    var value: String { text.withLock { $0 } }
}

/// Forwards to a real transport and records the methods the publisher sent.
final class CountingTransport: ProviderTransport {
    let inner: any ProviderTransport
    private let sent = Mutex<[String]>([])
    init(_ inner: any ProviderTransport) { self.inner = inner }

    func register(name: String, onAction: @escaping @Sendable (ActionCall) async throws -> Bool) async throws -> String
    {
        try await inner.register(name: name, onAction: onAction)
    }
    func call(_ method: String, _ params: JSONObject) async throws -> JSON {
        sent.withLock { $0.append(method) }
        return try await inner.call(method, params)
    }
    var methods: [String] { sent.withLock { $0 } }
}

/// A provider whose update the server refuses: the publisher resynchronises with a full snapshot and reports the
/// refusal, and an action whose update was refused is answered with an error (−32022), never `performed: true`.
/// Everything runs over the real socket server with the real method table.
final class ProviderRecoveryTests: XCTestCase {
    static func tree(label: String, fieldText: String, extra: Bool = true) -> JSON {
        var children: [JSON] = [
            ["id": "title", "class": "UILabel", "frame": [10, 10, 200, 30], "text": .string(label)],
            ["id": "field", "class": "UITextField", "frame": [10, 50, 300, 34], "text": .string(fieldText)],
        ]
        if extra {
            children.append(["id": "footer", "class": "UILabel", "frame": [10, 100, 200, 30], "text": "Footer"])
        }
        return [
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
                    "children": .array(children),
                ]
            ]
        ]
    }

    struct Stack {
        let dir: TransportTempDir
        let hub: Hub
        let server: RPCServer
        var socket: String { "unix:" + dir.file("s.sock") }
    }

    func startServer() async throws -> Stack {
        let dir = TransportTempDir()
        let hub = Hub(actionTimeout: .seconds(5))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let server = try await transportStartServer(dir, router: router)
        return Stack(dir: dir, hub: hub, server: server)
    }

    func automationClient(_ stack: Stack) async throws -> RPCClient {
        let client = try await RPCClient.connect(stack.socket)
        _ = try await client.call("initialize", ["role": "automation"], timeout: .seconds(5))
        return client
    }

    func labelText(_ hub: Hub, _ app: String, _ id: String) throws -> String? {
        try hub.snapshot(app).tree[id]?.label
    }

    /// The server refuses a patch because its tree drifted (a view the patch sets is gone there): the publisher
    /// reports the refusal and resynchronises with `hierarchy.set`, so the server holds the app's tree again.
    /// Before the fix `publish` threw, and every later publish resent a patch against the same stale base.
    func testRefusedPatchIsReportedAndResynchronisedWithAFullSnapshot() async throws {
        let stack = try await startServer()
        let server = stack.server
        defer { Task { await server.stop() } }
        let socketTransport = try await SocketProviderTransport(address: stack.socket, token: nil)
        let transport = CountingTransport(socketTransport)
        let publisher = Publisher(transport: transport)
        try await publisher.register(name: "drift") { _ in true }
        let reports = Sink<PublishError>()
        await publisher.onError { reports.append($0) }
        let app = await publisher.appID

        try await publisher.publish(Self.tree(label: "One", fieldText: ""))
        // Behind the publisher's back the server's tree loses the footer.
        _ = try await transport.inner.call(
            "hierarchy.set",
            ["app": .string(app), "windows": Self.tree(label: "One", fieldText: "", extra: false)["windows"]!])
        XCTAssertNil(try labelText(stack.hub, app, "footer"))

        // The patch for this change sets the title and the footer's text; the footer is gone on the server.
        let changed = try XCTUnwrap(
            Self.replacingFooterText(in: Self.tree(label: "Two", fieldText: ""), with: "Footer 2"))
        let revision = try await publisher.publish(changed)

        XCTAssertEqual(try labelText(stack.hub, app, "title"), "Two")
        XCTAssertEqual(try labelText(stack.hub, app, "footer"), "Footer 2")
        XCTAssertEqual(try stack.hub.snapshot(app).revision, revision)
        XCTAssertEqual(transport.methods, ["hierarchy.set", "hierarchy.update", "hierarchy.set"])
        let report = try XCTUnwrap(reports.items.first)
        XCTAssertEqual(reports.items.count, 1)
        XCTAssertTrue(report.resynchronized)
        XCTAssertEqual(report.refusals.map(\.method), ["hierarchy.update"])
        XCTAssertEqual(report.refusals.first?.error.code, RPCError.Code.invalidParams)

        // Back in step: the next change goes as a patch again.
        try await publisher.publish(Self.tree(label: "Three", fieldText: ""))
        XCTAssertEqual(transport.methods.last, "hierarchy.update")
        XCTAssertEqual(try labelText(stack.hub, app, "title"), "Three")
    }

    static func replacingFooterText(in snapshot: JSON, with text: String) -> JSON? {
        guard var window = snapshot["windows"]?.arrayValue?.first?.objectValue,
            var children = window["children"]?.arrayValue,
            let index = children.firstIndex(where: { $0["id"]?.stringValue == "footer" }),
            var footer = children[index].objectValue
        else { return nil }
        footer["text"] = .string(text)
        children[index] = .object(footer)
        window["children"] = .array(children)
        return ["windows": [.object(window)]]
    }

    /// An app that types over 64 KiB into a field: its update is refused, and so is the full snapshot. The action
    /// is answered −32022 `update refused` (before the fix: `performed: true` while the tree never changed), the
    /// app's error handler hears of it, the same tree is not resent, and the next action that fixes the tree is
    /// published with a full snapshot and performs normally.
    func testActionWhoseUpdateIsRefusedFailsAndTheAppRecovers() async throws {
        let stack = try await startServer()
        let server = stack.server
        defer { Task { await server.stop() } }
        let transport = CountingTransport(try await SocketProviderTransport(address: stack.socket, token: nil))
        let publisher = Publisher(transport: transport)
        let text = TextBox()
        // The app ignores publish errors (`try?`), as the demo used to: the library still must not claim success.
        try await publisher.register(name: "typist") { [publisher] call in
            let next = text.update { current in
                if call.action == "typeText" { current += call.value?.stringValue ?? "" }
                if call.action == "setValue" { current = call.value?.stringValue ?? "" }
            }
            _ = try? await publisher.publish(Self.tree(label: "Typist", fieldText: next))
            return true
        }
        let reports = Sink<PublishError>()
        await publisher.onError { reports.append($0) }
        let app = await publisher.appID
        try await publisher.publish(Self.tree(label: "Typist", fieldText: ""))
        let revisionBefore = try stack.hub.snapshot(app).revision

        let client = try await automationClient(stack)
        defer { Task { await client.close() } }
        // Over the limit of a text input's text (D-TEXT-SPLICE-1; other strings stop at 64 KiB).
        let huge = String(repeating: "x", count: EditableTextContent.maxBytes + 4_000)
        do {
            let reply = try await client.call(
                "action.typeText", ["target": ["id": "field"], "text": .string(huge)], timeout: .seconds(10))
            XCTFail("the action claimed \(reply) although its update was refused")
        } catch {
            XCTAssertEqual(error.code, RPCError.Code.appError)
            XCTAssertEqual(error.kind, "app error")
            XCTAssertEqual(error.data?["reason"]?.stringValue, "update refused")
            XCTAssertTrue(error.message.contains("update refused"), error.message)
            let appError = try XCTUnwrap(error.data?["appError"])
            XCTAssertEqual(appError["code"]?.intValue, RPCError.Code.appError)
            let refusals = appError["data"]?["refusals"]?.arrayValue ?? []
            XCTAssertEqual(refusals.compactMap { $0["method"]?.stringValue }, ["hierarchy.update", "hierarchy.set"])
            XCTAssertEqual(refusals.first?["error"]?["code"]?.intValue, RPCError.Code.invalidParams)
        }
        XCTAssertEqual(try stack.hub.snapshot(app).revision, revisionBefore)
        XCTAssertEqual(reports.items.count, 1)
        XCTAssertEqual(reports.items.first?.resynchronized, false)
        XCTAssertEqual(transport.methods, ["hierarchy.set", "hierarchy.update", "hierarchy.set"])

        // The same tree again is not resent (no request), and the caller learns why.
        do {
            try await publisher.publish(Self.tree(label: "Typist", fieldText: text.value))
            XCTFail("publishing the refused tree again succeeded")
        } catch let error as PublishError {
            XCTAssertTrue(error.notRetried)
        }
        XCTAssertEqual(transport.methods.count, 3)

        // The app fixes its tree in the next action: a full snapshot goes out, the action performs.
        let reply = try await client.call(
            "action.setValue", ["target": ["id": "field"], "value": "short"], timeout: .seconds(10))
        XCTAssertEqual(reply["performed"]?.boolValue, true)
        XCTAssertEqual(transport.methods.last, "hierarchy.set")
        let field = try XCTUnwrap(try stack.hub.snapshot(app).tree["field"])
        XCTAssertEqual(field.value, "short")
        XCTAssertGreaterThan(try stack.hub.snapshot(app).revision, revisionBefore)
    }

    /// A provider's error reply is −32022 "app error" carrying the provider's error object; a reply that is not
    /// `{"handled": Bool}` is −32022 `malformed reply`. Before the fix: −32603 "unknown error", and `performed: false`.
    func testProviderErrorRepliesAndMalformedRepliesAreAppErrors() async throws {
        let stack = try await startServer()
        let server = stack.server
        defer { Task { await server.stop() } }
        let provider = try await RPCClient.connect(stack.socket)
        defer { Task { await provider.close() } }
        provider.onRequest { _, params in
            switch params?["target"]?.stringValue {
            case "busy":
                throw RPCError(code: -1, message: "the button cannot be activated now", data: ["reason": "busy"])
            case "object":
                return ["ok": true]
            default:
                return "yes"
            }
        }
        _ = try await provider.call("initialize", ["role": "provider"], timeout: .seconds(5))
        _ = try await provider.call("app.register", ["name": "raw"], timeout: .seconds(5))
        let buttons: [JSON] = ["busy", "object", "string"].enumerated().map { index, id in
            [
                "id": .string(id), "class": "UIButton", "title": .string(id),
                "frame": [10, .number(Double(10 + 50 * index)), 100, 40],
            ]
        }
        let window: JSON = [
            "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true, "children": .array(buttons),
        ]
        _ = try await provider.call("hierarchy.set", ["windows": [window]], timeout: .seconds(5))
        let client = try await automationClient(stack)
        defer { Task { await client.close() } }

        do {
            _ = try await client.call("action.activate", ["target": ["id": "busy"]], timeout: .seconds(5))
            XCTFail("an error reply became a result")
        } catch {
            XCTAssertEqual(error.code, RPCError.Code.appError)
            XCTAssertEqual(error.data?["reason"]?.stringValue, "busy")
            XCTAssertTrue(error.message.contains("the button cannot be activated now"), error.message)
            XCTAssertEqual(error.data?["appError"]?["code"]?.intValue, -1)
        }
        for target in ["object", "string"] {
            do {
                _ = try await client.call("action.activate", ["target": ["id": .string(target)]], timeout: .seconds(5))
                XCTFail("a malformed reply for \(target) became a result")
            } catch {
                XCTAssertEqual(error.code, RPCError.Code.appError)
                XCTAssertEqual(error.data?["reason"]?.stringValue, "malformed reply")
            }
        }
    }

    /// The demo's name field takes at most 64 KiB (the schema's string limit): longer typed text is turned down
    /// with an app error naming the limit, the field keeps its text, and the demo goes on working. Before the fix
    /// the demo answered `handled: true`, its update was refused and every later update carried the same text.
    func testDemoTurnsDownTextOverItsLimitAndKeepsWorking() async throws {
        XCTAssertLessThanOrEqual(DemoApp.nameFieldMaxBytes, Limits.maxStringBytes)
        let hub = Hub(actionTimeout: .seconds(5))
        let demo = DemoHost(transport: InProcessProviderTransport(hub: hub))
        try await demo.start(tick: nil)
        let app = await demo.appID
        _ = try await hub.perform(app: app, element: "nameField", action: .typeText("Pixel"))
        do {
            _ = try await hub.perform(
                app: app, element: "nameField",
                action: .typeText(String(repeating: "y", count: DemoApp.nameFieldMaxBytes)))
            XCTFail("text over the limit was accepted")
        } catch {
            guard case .appFailed(_, let reason, let details) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "maxLength")
            XCTAssertEqual(details?["data"]?["maxLength"]?.intValue, DemoApp.nameFieldMaxBytes)
        }
        XCTAssertEqual(try hub.snapshot(app).tree["nameField"]?.value, "Pixel")
        let wifiBefore = try hub.snapshot(app).tree["cellWifi"]?.value
        let handled = try await hub.perform(app: app, element: "cellWifi", action: .activate)
        XCTAssertTrue(handled)
        XCTAssertNotEqual(try hub.snapshot(app).tree["cellWifi"]?.value, wifiBefore)
        // The server's tree is the demo's current one: derive the demo's snapshot afresh and compare.
        let fresh = Hub()
        let reference = fresh.registerApp(name: "reference", provider: nil)
        try fresh.setSnapshot(app: reference, await demo.app.snapshot())
        for id in ["nameField", "cellWifi", "cellBluetooth", "uptime"] {
            XCTAssertEqual(try hub.snapshot(app).tree[id]?.value, try fresh.snapshot(reference).tree[id]?.value, id)
            XCTAssertEqual(try hub.snapshot(app).tree[id]?.label, try fresh.snapshot(reference).tree[id]?.label, id)
        }
        await demo.stop()
    }
}
