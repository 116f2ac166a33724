import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXRPC
import AXTestSupport
import Synchronization
import XCTest

/// A connection into an in-process router: its own session, a peer that answers the server's `action.perform`
/// requests by recording them and saying "handled".
final class TrustTestConnection: RPCPeer, @unchecked Sendable {
    let connectionID: UInt64
    let router: RPCRouter
    /// Set once in init (the session needs the peer), read-only afterwards.
    private(set) var session: RPCSession!
    private let state = Mutex<
        (requests: [JSON], notes: [(String, JSON)], closed: Bool, handlers: [@Sendable () -> Void])
    >(([], [], false, []))
    private static let ids = Atomic<UInt64>(1000)

    init(router: RPCRouter) {
        self.router = router
        connectionID = Self.ids.add(1, ordering: .relaxed).oldValue
        session = RPCSession(peer: self)
    }

    /// Calls a method; returns the result or the error object.
    func call(_ method: String, _ params: JSON = [:]) async throws -> Result<JSON, RPCError> {
        let frame = RPCMessage.request(id: 1, method: method, params: params)
        guard let reply = await router.handle(frame: frame, session: session) else {
            return .failure(RPCError.internalError("no reply"))
        }
        let parsed = try JSON.parse(reply)
        if let error = parsed["error"], let decoded = RPCError(json: error) {
            return .failure(decoded)
        }
        return .success(parsed["result"] ?? .null)
    }

    func result(_ method: String, _ params: JSON = [:], file: StaticString = #filePath, line: UInt = #line) async throws
        -> JSON
    {
        switch try await call(method, params) {
        case .success(let value):
            return value
        case .failure(let error):
            XCTFail("\(method) failed: \(error)", file: file, line: line)
            throw error
        }
    }

    func errorCode(_ method: String, _ params: JSON = [:]) async throws -> Int? {
        if case .failure(let error) = try await call(method, params) {
            return error.code
        }
        return nil
    }

    var actionRequests: [JSON] { state.withLock { $0.requests } }
    var notifications: [(String, JSON)] { state.withLock { $0.notes } }

    func notify(_ method: String, _ params: JSON?) { state.withLock { $0.notes.append((method, params ?? .null)) } }
    func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
        state.withLock { $0.requests.append(params ?? .null) }
        return ["handled": true]
    }
    func close() {
        let handlers: [@Sendable () -> Void] = state.withLock { current in
            if current.closed { return [] }
            current.closed = true
            defer { current.handlers = [] }
            return current.handlers
        }
        for handler in handlers { handler() }
    }
    var isClosed: Bool { state.withLock { $0.closed } }
    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { current -> Bool in
            if current.closed { return true }
            current.handlers.append(handler)
            return false
        }
        if now { handler() }
    }
}

/// Issue 12 items 3 and 4, issue 15: guided access on every route, roles, and an operator policy that outlives apps.
final class GuidedAccessTrustTests: XCTestCase {
    static let operatorToken = "test-operator-token-0123456789"

    /// A settings table whose Wi-Fi cell holds a switch guarded by a restriction; the cell itself is unguarded.
    static let settings: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                "children": [
                    [
                        "id": "table", "class": "UITableView", "frame": [0, 0, 400, 800],
                        "children": [
                            [
                                "id": "cell", "class": "UITableViewCell", "frame": [0, 0, 400, 44],
                                "children": [
                                    ["id": "label", "class": "UILabel", "text": "Wi-Fi", "frame": [16, 0, 200, 44]],
                                    [
                                        "id": "wifi", "class": "UISwitch", "isOn": true, "frame": [330, 6, 51, 31],
                                        "restrictionIdentifiers": ["org.test.wifi"],
                                    ],
                                ],
                            ]
                        ],
                    ]
                ],
            ]
        ], "guidedAccessRestrictions": [["id": "org.test.wifi", "text": "Wi-Fi switch"]],
    ]

    struct Server {
        let hub: Hub
        let router: RPCRouter
    }

    func makeServer(policy: GuidedAccessPolicy = GuidedAccessPolicy(), failPersist: Bool = false) -> (
        Server, Sink<GuidedAccessPolicy>
    ) {
        let hub = Hub(actionTimeout: .seconds(1), policy: policy)
        let router = RPCRouter()
        let written = Sink<GuidedAccessPolicy>()
        let options = MethodOptions(
            operatorToken: Self.operatorToken,
            persistPolicy: { updated in
                if failPersist {
                    throw RPCError.internalError("disk full")
                }
                written.append(updated)
            })
        AXMethods.install(on: router, hub: hub, options: options)
        return (Server(hub: hub, router: router), written)
    }

    func provider(_ server: Server, name: String = "kiosk", hierarchy: JSON = settings) async throws -> (
        TrustTestConnection, String
    ) {
        let connection = TrustTestConnection(router: server.router)
        _ = try await connection.result("initialize", ["role": "provider"])
        let app = try await connection.result("app.register", ["name": .string(name)])["app"]?.stringValue ?? ""
        _ = try await connection.result("hierarchy.set", hierarchy)
        return (connection, app)
    }

    func automation(_ server: Server) async throws -> TrustTestConnection {
        let connection = TrustTestConnection(router: server.router)
        _ = try await connection.result("initialize", ["role": "automation"])
        return connection
    }

    func operatorConnection(_ server: Server) async throws -> TrustTestConnection {
        let connection = TrustTestConnection(router: server.router)
        _ = try await connection.result(
            "initialize", ["role": "operator", "operatorToken": .string(Self.operatorToken)])
        return connection
    }

    /// Asserts that the call fails with `code`.
    func expectError(
        _ connection: TrustTestConnection, _ method: String, _ params: JSON = [:], _ code: Int, _ message: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let got = try await connection.errorCode(method, params)
        XCTAssertEqual(got, code, "\(method) \(params.jsonString) \(message)", file: file, line: line)
    }

    // MARK: Issue 12.3 — the check follows the action to the view that handles it (D-GA-2)

    func testDeniedSwitchInsideUnguardedCellIsBlockedOnEveryJSONRPCRoute() async throws {
        let (server, _) = makeServer()
        let (app, appID) = try await provider(server)
        let client = try await automation(server)
        let operatorClient = try await operatorConnection(server)
        _ = try await operatorClient.result(
            "policy.set", ["app": .string(appID), "restriction": "org.test.wifi", "state": "deny"])
        // The cell is the accessibility element; it forwards its actions to the switch (the cell has no own guard).
        let cell = try await client.result("element.get", ["target": ["id": "cell"]])
        XCTAssertEqual(cell["actionTarget"]?.stringValue, "wifi", "the cell acts through its switch")
        let routes: [(String, JSON)] = [
            ("action.activate", ["target": ["id": "cell"]]),
            ("action.escape", ["target": ["id": "cell"]]),
            ("action.magicTap", ["target": ["id": "cell"]]),
            ("action.tap", ["target": ["id": "cell"]]),
            ("action.tap", ["point": ["x": 100, "y": 22]]),
        ]
        for (method, params) in routes {
            let code = try await client.errorCode(method, params)
            XCTAssertEqual(code, RPCError.Code.policyDenied, "\(method) \(params.jsonString) was not blocked")
        }
        let check = try await client.result("policy.check", ["target": ["id": "cell"]])
        XCTAssertEqual(check["allowed"], false)
        XCTAssertEqual(check["restriction"]?.stringValue, "org.test.wifi")
        XCTAssertEqual(app.actionRequests.count, 0, "a denied action reached the app: \(app.actionRequests)")
        // Allowed again, the same route reaches the switch.
        _ = try await operatorClient.result(
            "policy.set", ["app": .string(appID), "restriction": "org.test.wifi", "state": "allow"])
        _ = try await client.result("action.activate", ["target": ["id": "cell"]])
        XCTAssertEqual(app.actionRequests.first?["target"]?.stringValue, "wifi")
    }

    func testEscapeBubblingIntoADeniedAncestorIsBlocked() async throws {
        // The restriction guards the window, which handles escape; the button and the panel do not.
        let guarded: JSON = [
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "restrictionIdentifiers": ["org.test.close"],
                    "children": [
                        [
                            "id": "panel", "class": "UIView", "frame": [0, 0, 400, 400],
                            "children": [
                                ["id": "ok", "class": "UIButton", "title": "OK", "frame": [10, 10, 80, 40]]
                            ],
                        ]
                    ],
                ]
            ], "guidedAccessRestrictions": [["id": "org.test.close", "text": "Close panels"]],
        ]
        let hub = Hub(actionTimeout: .seconds(1))
        let recorder = RecordingProvider { $0.target == "w" }
        let app = hub.registerApp(name: "bubbles", provider: recorder)
        try hub.setSnapshot(app: app, guarded)
        try hub.setRestriction(app: app, id: "org.test.close", denied: true)
        do {
            _ = try await hub.perform(app: app, element: "ok", action: .escape)
            XCTFail("escape reached a denied window")
        } catch {
            XCTAssertEqual(error, .policyDenied(restriction: "org.test.close", text: "Close panels"))
        }
    }

    // MARK: Issue 12.4 — roles (D-TRUST-1)

    func testOnlyTheRegisteredProviderChangesItsOwnApp() async throws {
        let (server, _) = makeServer()
        let (_, appID) = try await provider(server)
        let client = try await automation(server)
        let stranger = TrustTestConnection(router: server.router)
        _ = try await stranger.result("initialize", ["role": "provider"])
        let forbidden = RPCError.Code.forbidden
        // A connection that never registered cannot replace, patch or speak for the app.
        try await expectError(stranger, "hierarchy.set", ["app": .string(appID), "windows": []], forbidden)
        try await expectError(client, "hierarchy.update", ["app": .string(appID), "ops": []], forbidden)
        try await expectError(
            client, "accessibility.post", ["app": .string(appID), "notification": "announcement", "argument": "spoof"],
            forbidden)
        // Another provider may change only its own app.
        let (other, otherID) = try await provider(server, name: "other")
        XCTAssertNotEqual(otherID, appID)
        try await expectError(other, "hierarchy.set", ["app": .string(appID), "windows": []], forbidden)
        try await expectError(
            other, "accessibility.post", ["app": .string(appID), "notification": "announcement", "argument": "x"],
            forbidden)
        // The tree is untouched.
        let count = try await client.result("query.count", ["app": .string(appID), "selector": "switch"])
        XCTAssertEqual(count["count"]?.intValue, 1)
    }

    func testOnlyTheOperatorChangesRestrictions() async throws {
        let (server, _) = makeServer()
        let (app, appID) = try await provider(server)
        let client = try await automation(server)
        let params: JSON = ["app": .string(appID), "restriction": "org.test.wifi", "state": "deny"]
        try await expectError(client, "policy.set", params, RPCError.Code.forbidden)
        try await expectError(app, "policy.set", params, RPCError.Code.forbidden, "the app itself is no operator")
        let impostor = TrustTestConnection(router: server.router)
        try await expectError(
            impostor, "initialize", ["role": "operator", "operatorToken": "guess-guess-guess-guess"],
            RPCError.Code.unauthorized)
        try await expectError(impostor, "policy.set", params, RPCError.Code.notInitialized)
        let state = try await client.result("policy.get", ["app": .string(appID)])
        XCTAssertEqual(state["restrictions"]?[0]?["state"]?.stringValue, "allow")
        let operatorClient = try await operatorConnection(server)
        _ = try await operatorClient.result("policy.set", params)
        let after = try await client.result("policy.get", ["app": .string(appID)])
        XCTAssertEqual(after["restrictions"]?[0]?["state"]?.stringValue, "deny")
        XCTAssertEqual(after["restrictions"]?[0]?["source"]?.stringValue, "operator")
    }

    func testNoOperatorCredentialMeansNoOperator() async throws {
        let hub = Hub()
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let connection = TrustTestConnection(router: router)
        try await expectError(
            connection, "initialize", ["role": "operator", "operatorToken": "anything-at-all-here"],
            RPCError.Code.unauthorized)
    }

    // MARK: Issue 15 — the policy outlives the app (D-GA-3)

    func testDenialSurvivesDisconnectReRegistrationAndRedeclaration() async throws {
        let (server, written) = makeServer()
        let (first, appID) = try await provider(server)
        let operatorClient = try await operatorConnection(server)
        _ = try await operatorClient.result(
            "policy.set", ["app": .string(appID), "restriction": "org.test.wifi", "state": "deny"])
        XCTAssertEqual(
            written.items.last?.rule(forAppNamed: "kiosk", restriction: "org.test.wifi").denied, true,
            "the change was not persisted")
        // The app crashes and comes back under the same name.
        first.close()
        XCTAssertTrue(server.hub.appIDs.isEmpty)
        let (second, secondID) = try await provider(server)
        XCTAssertEqual(secondID, "kiosk")
        let client = try await automation(server)
        try await expectError(client, "action.activate", ["target": ["id": "cell"]], RPCError.Code.policyDenied)
        // Dropping the restriction and declaring it again does not clear the denial.
        let withoutRestriction: JSON = ["windows": Self.settings["windows"]!]
        _ = try await second.result("hierarchy.set", withoutRestriction)
        _ = try await second.result("hierarchy.set", Self.settings)
        try await expectError(client, "action.activate", ["target": ["id": "cell"]], RPCError.Code.policyDenied)
        let state = try await client.result("policy.get")
        XCTAssertEqual(state["restrictions"]?[0]?["state"]?.stringValue, "deny")
        XCTAssertEqual(second.actionRequests.count, 0)
    }

    func testFileRulesApplyWhenDeclaredAndUnknownAppsCanStartLockedDown() async throws {
        let file = Array(
            """
            {
              "version": 1,
              "unknownApps": "deny",
              "apps": {
                "kiosk": {"deny": ["org.test.wifi"], "allow": ["org.test.other"]},
                "photos": {"allow": ["org.test.wifi"], "matchSuffixedNames": true}
              }
            }
            """.utf8)
        let policy = try GuidedAccessPolicy.parse(file)
        let (server, _) = makeServer(policy: policy)
        let client = try await automation(server)
        let (_, kiosk) = try await provider(server, name: "kiosk")
        let (_, unknown) = try await provider(server, name: "visitor-app")
        let (_, photos2) = try await provider(server, name: "photos-2")
        for (appID, expected, source) in [
            (kiosk, "deny", "file"), (unknown, "deny", "default"), (photos2, "allow", "file"),
        ] {
            let state = try await client.result("policy.get", ["app": .string(appID)])
            XCTAssertEqual(state["restrictions"]?[0]?["state"]?.stringValue, expected, appID)
            XCTAssertEqual(state["restrictions"]?[0]?["source"]?.stringValue, source, appID)
        }
        try await expectError(
            client, "action.activate", ["app": .string(unknown), "target": ["id": "cell"]], RPCError.Code.policyDenied)
    }

    func testAPersistFailureChangesNothing() async throws {
        let (server, _) = makeServer(failPersist: true)
        let (_, appID) = try await provider(server)
        let operatorClient = try await operatorConnection(server)
        let failed = try await operatorClient.call(
            "policy.set", ["app": .string(appID), "restriction": "org.test.wifi", "state": "deny"])
        guard case .failure(let error) = failed else {
            return XCTFail("policy.set succeeded although the policy could not be written")
        }
        XCTAssertEqual(error.data?["reason"]?.stringValue, "policy file not written")
        XCTAssertEqual(server.hub.policy, GuidedAccessPolicy())
        let state = try await operatorClient.result("policy.get", ["app": .string(appID)])
        XCTAssertEqual(state["restrictions"]?[0]?["state"]?.stringValue, "allow")
    }

    func testConcurrentOperatorCallsLeaveFileAndRunningPolicyEqual() async throws {
        let (server, written) = makeServer()
        let restrictions: JSON = .array((0..<20).map { ["id": .string("r\($0)"), "text": .string("R\($0)")] })
        let (_, appID) = try await provider(
            server, hierarchy: ["windows": Self.settings["windows"]!, "guidedAccessRestrictions": restrictions])
        let operators = [try await operatorConnection(server), try await operatorConnection(server)]
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                let connection = operators[index % 2]
                group.addTask {
                    let params: JSON = [
                        "app": .string(appID), "restriction": .string("r\(index % 20)"),
                        "state": index % 3 == 0 ? "allow" : "deny",
                    ]
                    _ = try? await connection.call("policy.set", params)
                }
            }
        }
        XCTAssertEqual(written.items.count, 200)
        XCTAssertEqual(written.items.last, server.hub.policy, "the last write differs from the running policy")
    }

    func testPolicyChangedEventsSayWhoChangedWhat() async throws {
        let (server, _) = makeServer()
        let (_, appID) = try await provider(server)
        let watcher = try await automation(server)
        _ = try await watcher.result("events.subscribe", ["events": ["policy.changed"]])
        let operatorClient = try await operatorConnection(server)
        _ = try await operatorClient.result(
            "policy.set", ["app": .string(appID), "restriction": "org.test.wifi", "state": "deny"])
        server.hub.replacePolicy(GuidedAccessPolicy(), actor: "policy file reload (SIGHUP)")
        let events = watcher.notifications.filter { $0.0 == "policy.changed" }.map(\.1)
        XCTAssertEqual(events.count, 2, "\(events)")
        XCTAssertEqual(events.first?["state"]?.stringValue, "deny")
        XCTAssertEqual(events.first?["source"]?.stringValue, "operator")
        XCTAssertTrue(events.first?["by"]?.stringValue?.hasPrefix("operator connection") == true)
        XCTAssertEqual(events.last?["state"]?.stringValue, "allow")
        XCTAssertEqual(events.last?["by"]?.stringValue, "policy file reload (SIGHUP)")
    }

    // MARK: The policy file format

    func testMalformedPolicyFilesAreRefusedWithTheirLine() {
        let cases: [(String, Int, String)] = [
            ("{\"version\": 1,\n \"apps\": {\n  \"a\": {\"deny\": [\"x\",]}\n }\n}", 3, "not valid JSON"),
            ("{\"version\": 2}", 1, "'version' must be 1"),
            ("{\n\"version\": 1,\n\"unknownApps\": \"maybe\"\n}", 3, "unknownApps"),
            (
                "{\"version\": 1,\n\"apps\": {\n\"a\": {\"deny\": [\"x\"],\n\"allow\": [\"x\"]}}}", 4,
                "both 'deny' and 'allow'"
            ),
            ("{\"version\": 1,\n\"apps\": {\"a\": {\n\"denied\": []}}}", 3, "unknown key 'denied'"),
            ("{\"version\": 1, \"apps\": {\"a\": {\"deny\": [7]}}}", 1, "a number"),
            (
                "{\"version\": 1, \"apps\": {\"a\": {\"deny\": [\"x\"], \"matchSuffixedNames\": \"yes\"}}}", 1,
                "true or false"
            ),
            ("{\"version\": 1, \"apps\": {\"a\": {\"deny\": [\"x\"]", 1, "not valid JSON"),
            ("[]", 1, "one JSON object"),
            ("{\"apps\": {}}", 1, "'version' is required"),
        ]
        for (text, line, reason) in cases {
            do {
                _ = try GuidedAccessPolicy.parse(Array(text.utf8))
                XCTFail("accepted: \(text)")
            } catch {
                XCTAssertEqual(error.line, line, text)
                XCTAssertTrue(error.reason.contains(reason), "\(error.reason) does not say \(reason)")
            }
        }
    }

    func testPolicyFileRoundTrip() throws {
        var policy = GuidedAccessPolicy(lockDownUnknownApps: true)
        policy.set(appNamed: "kiosk", restriction: "b", denied: true, source: .operator)
        policy.set(appNamed: "kiosk", restriction: "a", denied: false, source: .operator)
        policy.apps["photos", default: .init()].matchSuffixedNames = true
        let reread = try GuidedAccessPolicy.parse(policy.fileBytes())
        XCTAssertEqual(reread, policy.marked(.file))
        XCTAssertTrue(reread.rule(forAppNamed: "kiosk", restriction: "b").denied)
        XCTAssertFalse(reread.rule(forAppNamed: "kiosk", restriction: "a").denied)
        XCTAssertTrue(reread.rule(forAppNamed: "stranger", restriction: "a").denied, "unknown apps are locked down")
        XCTAssertNil(reread.entry(forAppNamed: "kiosk-2"), "kiosk's rules do not match suffixed names")
        XCTAssertEqual(reread.entry(forAppNamed: "photos-12")?.name, "photos")
        XCTAssertNil(reread.entry(forAppNamed: "photos-x"))
    }
}
