import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXRPC
import AXRPCClient
import AXTestSupport
import AXTransport
import XCTest

/// Custom rotors whose items the app computes (`"search": "app"`, R58, D-ROTOR-5): `rotor.next` asks the app with
/// the `rotorSearch` action over the real socket; a silent app is the action timeout, an app that answers the
/// current item again is a typed error, not a loop.
final class RotorSearchTests: XCTestCase {
    struct Stack {
        let dir: TransportTempDir
        let hub: Hub
        let server: RPCServer
        var socket: String { "unix:" + dir.file("s.sock") }
    }

    static let window: JSON = [
        "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": true,
        "children": [
            [
                "id": "doc", "class": "UIView", "frame": [0, 0, 400, 600],
                "accessibilityContainerType": "semanticGroup", "accessibilityLabel": "Document",
                "accessibilityCustomRotors": [["name": "Warnings", "search": "app"]],
                "children": [
                    ["id": "first", "class": "UIButton", "title": "First", "frame": [10, 10, 100, 40]],
                    ["id": "second", "class": "UIButton", "title": "Second", "frame": [10, 60, 100, 40]],
                    ["id": "silent", "class": "UIButton", "title": "Silent", "frame": [10, 110, 100, 40]],
                    ["id": "ghostly", "class": "UIButton", "title": "Ghostly", "frame": [10, 160, 100, 40]],
                ],
            ]
        ],
    ]

    /// The app: from nothing the first warning, then the second (with a range), from the second the second again
    /// (a stuck search), from `silent` no answer at all, from `ghostly` an element that does not exist.
    static func answer(_ params: JSON?) async throws -> JSON {
        guard params?["action"]?.stringValue == "rotorSearch" else { return ["handled": true] }
        let current = params?["value"]?["currentItem"]?["target"]?.stringValue
        switch current {
        case nil:
            return ["handled": true, "item": ["target": "first"]]
        case "first":
            return ["handled": true, "item": ["target": "second", "range": [2, 3]]]
        case "second":
            return ["handled": true, "item": ["target": "second", "range": [2, 3]]]
        case "silent":
            try await Task.sleep(for: .seconds(5))
            return ["handled": true, "item": .null]
        case "ghostly":
            return ["handled": true, "item": ["target": "nowhere"]]
        default:
            return ["handled": true, "item": .null]
        }
    }

    func start() async throws -> (Stack, RPCClient, RPCClient) {
        let dir = TransportTempDir()
        let hub = Hub(actionTimeout: .milliseconds(300))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let server = try await transportStartServer(dir, router: router)
        let stack = Stack(dir: dir, hub: hub, server: server)
        let provider = try await RPCClient.connect(stack.socket)
        provider.onRequest { _, params in try await Self.answer(params) }
        _ = try await provider.call("initialize", ["role": "provider"], timeout: .seconds(5))
        _ = try await provider.call("app.register", ["name": "rotors"], timeout: .seconds(5))
        _ = try await provider.call("hierarchy.set", ["windows": [Self.window]], timeout: .seconds(5))
        let client = try await RPCClient.connect(stack.socket)
        _ = try await client.call("initialize", ["role": "automation"], timeout: .seconds(5))
        return (stack, provider, client)
    }

    func testTheAppAnswersEachStepAndFocusFollows() async throws {
        let (stack, provider, client) = try await start()
        let server = stack.server
        defer {
            Task {
                await client.close()
                await provider.close()
                await server.stop()
            }
        }
        let listed = try await client.call("rotor.list", ["target": ["id": "first"]], timeout: .seconds(5))
        let warnings = listed["rotors"]?.arrayValue?.first { $0["name"]?.stringValue == "Warnings" }
        XCTAssertEqual(warnings?["search"]?.stringValue, "app")
        XCTAssertEqual(warnings?["declaredBy"]?.stringValue, "doc")

        let firstStep = try await client.call(
            "rotor.next", ["rotor": "Warnings", "from": .null, "target": ["id": "doc"]], timeout: .seconds(5))
        XCTAssertEqual(firstStep["item"]?["target"]?.stringValue, "first")
        XCTAssertEqual(firstStep["focusMoved"]?.boolValue, true)
        let secondStep = try await client.call("rotor.next", ["rotor": "Warnings"], timeout: .seconds(5))
        XCTAssertEqual(secondStep["item"]?["target"]?.stringValue, "second")
        XCTAssertEqual(secondStep["item"]?["range"], [2, 3])
        XCTAssertEqual(try stack.hub.snapshot(try XCTUnwrap(stack.hub.snapshots().first?.id)).focusedID, "second")
        let end = try await client.call(
            "rotor.previous", ["rotor": "Warnings", "from": ["id": "doc"]], timeout: .seconds(5))
        XCTAssertEqual(end["item"], .null)
        XCTAssertEqual(end["end"]?.boolValue, true)
    }

    func testAnAppThatNeverAnswersIsTheActionTimeoutNotAHang() async throws {
        let (stack, provider, client) = try await start()
        let server = stack.server
        defer {
            Task {
                await client.close()
                await provider.close()
                await server.stop()
            }
        }
        let started = ContinuousClock.now
        do {
            _ = try await client.call(
                "rotor.next", ["rotor": "Warnings", "from": ["id": "silent"]], timeout: .seconds(4))
            XCTFail("a silent app produced a result")
        } catch {
            XCTAssertEqual(error.code, RPCError.Code.appNotResponding, error.message)
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(3))
    }

    func testTheCurrentItemAgainOrAnUnknownTargetIsATypedError() async throws {
        let (stack, provider, client) = try await start()
        let server = stack.server
        defer {
            Task {
                await client.close()
                await provider.close()
                await server.stop()
            }
        }
        do {
            _ = try await client.call(
                "rotor.next", ["rotor": "Warnings", "from": ["id": "second"], "fromRange": [2, 3]], timeout: .seconds(5)
            )
            XCTFail("a stuck search produced a result")
        } catch {
            XCTAssertEqual(error.code, RPCError.Code.appError, error.message)
            XCTAssertEqual(error.data?["reason"]?.stringValue, "rotor search loop")
            XCTAssertTrue(error.message.contains("current item 'second' again"), error.message)
        }
        do {
            _ = try await client.call(
                "rotor.next", ["rotor": "Warnings", "from": ["id": "ghostly"]], timeout: .seconds(5))
            XCTFail("an unknown target produced a result")
        } catch {
            XCTAssertEqual(error.code, RPCError.Code.appError, error.message)
            XCTAssertEqual(error.data?["reason"]?.stringValue, "unknown target")
        }
    }

    func testSearchAppRotorsCarryNoStaticItems() throws {
        let hub = Hub()
        let app = hub.registerApp(name: "t", provider: nil)
        let bad: JSON = [
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 10, 10],
                    "accessibilityCustomRotors": [["name": "R", "search": "app", "items": ["w"]]],
                ]
            ]
        ]
        XCTAssertThrowsError(try hub.setSnapshot(app: app, bad))
        let unknown: JSON = [
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 10, 10],
                    "accessibilityCustomRotors": [["name": "R", "search": "server"]],
                ]
            ]
        ]
        XCTAssertThrowsError(try hub.setSnapshot(app: app, unknown)) { error in
            XCTAssertTrue("\(error)".contains("accepted: items, app"), "\(error)")
        }
    }

    /// The AT-SPI rotor actions' hub call (D-ROTOR-7): steps from accessibility focus through the app's search,
    /// moves focus, ends without moving; an unknown rotor or declaring node is a typed error, and a stuck search is
    /// still the loop error (never a hang).
    func testRotorActionStepsFromFocusThroughTheAppAndRefusesUnknownRotors() async throws {
        let (stack, provider, client) = try await start()
        let server = stack.server
        defer {
            Task {
                await client.close()
                await provider.close()
                await server.stop()
            }
        }
        let hub = stack.hub
        let app = try XCTUnwrap(hub.snapshots().first?.id)
        let first = try await hub.performRotorAction(app: app, declaredBy: "doc", rotor: "Warnings", direction: .next)
        XCTAssertEqual(first.target, "first")
        XCTAssertTrue(first.targetIsFocusable)
        XCTAssertEqual(first.targetText, "First")
        XCTAssertEqual(try hub.snapshot(app).focusedID, "first")
        let second = try await hub.performRotorAction(app: app, declaredBy: "doc", rotor: "Warnings", direction: .next)
        XCTAssertEqual(second.target, "second")
        XCTAssertEqual(second.item, RotorItem(target: "second", range: TextRange(location: 2, length: 3)))
        do {
            // The bridge passes the item it reached back: the app answering it again is the loop error.
            _ = try await hub.performRotorAction(
                app: app, declaredBy: "doc", rotor: "Warnings", direction: .next, lastItem: second.item)
            XCTFail("a stuck search moved focus")
        } catch {
            guard case .appFailed(_, let reason, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "rotor search loop")
        }
        XCTAssertEqual(try hub.snapshot(app).focusedID, "second", "a failed step moves nothing")
        do {
            _ = try await hub.performRotorAction(app: app, declaredBy: "doc", rotor: "Nope", direction: .next)
            XCTFail("an unknown rotor was stepped")
        } catch {
            XCTAssertEqual(error, .notSupported(action: "rotor 'Nope'", supported: ["Warnings"]))
        }
        do {
            _ = try await hub.performRotorAction(app: app, declaredBy: "gone", rotor: "Warnings", direction: .next)
            XCTFail("a missing declaring node was stepped")
        } catch {
            XCTAssertEqual(error, .noSuchElement("gone"))
        }
    }
}
