import AXJSON
import AXJSONRPC
import AXWebDriver
import XCTest

/// Routing, W3C error mapping, capabilities, element references and the HTTP trust checks.
final class RoutingTests: XCTestCase {
    func testRoutesMatchTheW3CTable() throws {
        XCTAssertEqual(try WebDriverRoute.match(method: "POST", path: "/session").command, .newSession)
        XCTAssertEqual(try WebDriverRoute.match(method: "GET", path: "/status").command, .status)
        let attribute = try WebDriverRoute.match(method: "GET", path: "/session/S1/element/E%2F1/attribute/value?x=1")
        XCTAssertEqual(
            attribute, .init(command: .getElementAttribute, sessionID: "S1", elementID: "E/1", name: "value"))
        XCTAssertEqual(
            try WebDriverRoute.match(method: "POST", path: "/wd/hub/session/S/elements/").command, .findElements)
        XCTAssertEqual(
            try WebDriverRoute.match(method: "GET", path: "/session/S/element/active").command, .getActiveElement)
        XCTAssertEqual(try WebDriverRoute.match(method: "DELETE", path: "/session/S").command, .deleteSession)
    }

    /// Issue 31 item 3: every command has one family (an exhaustive switch); the ones answered `unsupported
    /// operation` are exactly the W3C commands an accessibility tree has no counterpart for, and a session's reading
    /// commands are not among them.
    func testEveryCommandHasItsFamily() {
        let unsupported = Set(WebDriverCommand.allCases.filter { $0.family == .unsupported }.map(\.rawValue))
        XCTAssertEqual(
            unsupported,
            [
                "Navigate To", "Get Current URL", "Back", "Forward", "Refresh", "Close Window", "New Window",
                "Switch To Frame", "Switch To Parent Frame", "Set Window Rect", "Maximize Window", "Minimize Window",
                "Fullscreen Window", "Get Element Shadow Root", "Print Page",
            ])
        XCTAssertEqual(WebDriverCommand.getPageSource.family, .pageSource)
        XCTAssertEqual(WebDriverCommand.findElementsFromElement.family, .elementQuery(.find))
        XCTAssertEqual(WebDriverCommand.sendAlertText.family, .alert(.sendText))
        XCTAssertEqual(WebDriverCommand.status.family, .server(.status))
    }

    /// Issue 38 item 3: the four user-prompt endpoints route to their commands (Send Alert Text is new).
    func testAlertEndpointsRoute() throws {
        XCTAssertEqual(try WebDriverRoute.match(method: "GET", path: "/session/S/alert/text").command, .getAlertText)
        XCTAssertEqual(try WebDriverRoute.match(method: "POST", path: "/session/S/alert/text").command, .sendAlertText)
        XCTAssertEqual(try WebDriverRoute.match(method: "POST", path: "/session/S/alert/accept").command, .acceptAlert)
        XCTAssertEqual(
            try WebDriverRoute.match(method: "POST", path: "/session/S/alert/dismiss").command, .dismissAlert)
    }

    /// The values an XPath compares `@name` with, for the "name is the identifier" hint.
    func testNameHintReadsTheQuotedValues() {
        XCTAssertEqual(
            WebDriverService.quotedValues(afterName: "//*[@name='Wi-Fi' or @name = \"Device Name\"]"),
            ["Wi-Fi", "Device Name"])
        XCTAssertEqual(WebDriverService.quotedValues(afterName: "//*[@name]"), [])
        XCTAssertEqual(WebDriverService.quotedValues(afterName: "//*[@name='unterminated"), [])
    }

    func testUnknownCommandAndMethod() {
        XCTAssertThrowsError(try WebDriverRoute.match(method: "GET", path: "/session/S/nope")) { error in
            XCTAssertEqual((error as? WebDriverError)?.code, "unknown command")
            XCTAssertEqual((error as? WebDriverError)?.status, 404)
        }
        XCTAssertThrowsError(try WebDriverRoute.match(method: "PUT", path: "/session/S/source")) { error in
            XCTAssertEqual((error as? WebDriverError)?.code, "unknown method")
            XCTAssertEqual((error as? WebDriverError)?.status, 405)
        }
    }

    func testServerErrorsMapToW3CCodes() {
        let cases: [(RPCError, String, Int)] = [
            (.make(-32010, "x"), "no such element", 404),
            (.make(-32012, "x"), "stale element reference", 404),
            (.make(-32013, "x", ["reason": "disabled"]), "element not interactable", 400),
            (.make(-32013, "x", ["reason": "not hittable"]), "element click intercepted", 400),
            (.make(-32015, "x"), "invalid selector", 400),
            (.make(-32016, "x"), "timeout", 500),
            (.make(-32017, "x", ["restriction": "r"]), "invalid element state", 400),
            (.make(-32020, "x", ["reason": "disconnected"]), "no such window", 404),
            (.make(-32602, "x"), "invalid argument", 400),
            (.make(-32022, "x"), "unknown error", 500),
        ]
        for (rpc, code, status) in cases {
            let error = WebDriverError.from(rpc)
            XCTAssertEqual(error.code, code, "\(rpc)")
            XCTAssertEqual(error.status, status, "\(rpc)")
            XCTAssertEqual(error.data?["rpcCode"], JSON(rpc.code))
        }
        let body = WebDriverError("no such element", "gone").body
        XCTAssertEqual(body["value"]?["error"], "no such element")
        XCTAssertEqual(body["value"]?["message"], "gone")
    }

    func testCapabilitiesAlwaysMatchAndFirstMatch() throws {
        let merged = try Capabilities.process([
            "capabilities": [
                "alwaysMatch": ["platformName": "Linux", "axserver:app": "demo"],
                "firstMatch": [["appium:automationName": "XCUITest"], ["appium:automationName": "AXServer"]],
            ]
        ])
        XCTAssertEqual(merged["appium:automationName"], "AXServer")
        XCTAssertEqual(merged["axserver:app"], "demo")
        XCTAssertNoThrow(try Capabilities.process([:]))
        XCTAssertThrowsError(try Capabilities.process(["capabilities": ["alwaysMatch": ["platformName": "ios"]]])) {
            XCTAssertEqual(($0 as? WebDriverError)?.code, "session not created")
        }
        // D-WD-RESET-1: the capability matches; New Session asks the app (`app.reset`) and refuses when it cannot.
        XCTAssertEqual(
            try Capabilities.process(["capabilities": ["alwaysMatch": ["axserver:reset": true]]])["axserver:reset"],
            true)
        XCTAssertNoThrow(try Capabilities.process(["capabilities": ["alwaysMatch": ["axserver:reset": false]]]))
        for bad: JSON in [
            ["alwaysMatch": ["axserver:reset": "yes"]],
            ["alwaysMatch": ["platformName": 3]], ["firstMatch": []], ["firstMatch": [1]],
            ["alwaysMatch": ["timeouts": ["implicit": -1]]],
            ["alwaysMatch": ["platformName": "linux"], "firstMatch": [["platformName": "linux"]]],
        ] {
            XCTAssertThrowsError(try Capabilities.process(["capabilities": bad]), "\(bad)") {
                XCTAssertEqual(($0 as? WebDriverError)?.code, "invalid argument", "\(bad)")
            }
        }
    }

    func testTimeouts() throws {
        var timeouts = WebDriverTimeouts()
        try timeouts.apply(["implicit": 1500, "script": nil])
        XCTAssertEqual(timeouts.json, ["implicit": 1500, "pageLoad": 300_000, "script": nil])
        for bad: JSON in [-1, 1.5, "10", 1e300] {
            XCTAssertThrowsError(try timeouts.apply(["implicit": bad]), "\(bad)")
        }
    }

    func testElementReferencesRoundTrip() throws {
        for id in ["cellWifi", "navBar#title", "a/b c", "ünï", "~x"] {
            let reference = ElementReference.encode(id)
            XCTAssertTrue(reference.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "#") })
            XCTAssertEqual(try ElementReference.decode(reference), id)
        }
        XCTAssertThrowsError(try ElementReference.decode("~zz"))
        XCTAssertThrowsError(try ElementReference.decode("~abc"))
    }

    func testLocatorStrategies() throws {
        guard case .selector(let selector) = try Locator.parse(["using": "accessibility id", "value": "a\"b"]) else {
            return XCTFail("accessibility id is a selector")
        }
        XCTAssertEqual(selector, "*[name=\"a\\\"b\"]")
        guard case .selector(let byID) = try Locator.parse(["using": "css selector", "value": "[id=\"nameField\"]"]),
            case .className(let byClass) = try Locator.parse([
                "using": "css selector", "value": ".XCUIElementTypeButton",
            ])
        else { return XCTFail("Selenium's CSS forms of By.ID and By.CLASS_NAME") }
        XCTAssertEqual(byID, "*[id=\"nameField\"]")
        XCTAssertEqual(byClass, "XCUIElementTypeButton")
        XCTAssertThrowsError(try Locator.parse(["using": "css selector", "value": "div > a"])) { error in
            XCTAssertEqual((error as? WebDriverError)?.code, "invalid selector")
        }
        XCTAssertThrowsError(try Locator.parse(["using": "link text", "value": "x"])) { error in
            XCTAssertEqual((error as? WebDriverError)?.code, "invalid argument")
            XCTAssertEqual((error as? WebDriverError)?.data?["supported"], JSON(Locator.strategies))
        }
        XCTAssertThrowsError(try Locator.parse(["using": "xpath", "value": "//*["])) { error in
            XCTAssertEqual((error as? WebDriverError)?.code, "invalid selector")
        }
        XCTAssertThrowsError(try Locator.parse(["using": "xpath"]))
    }

    func testTrustChecksHostOriginAndToken() {
        let trust = WebDriverTrust()
        XCTAssertNil(trust.check(headers: [("Host", "127.0.0.1:4723")]))
        XCTAssertNil(trust.check(headers: [("host", "localhost:4723"), ("Origin", "http://localhost:4723")]))
        XCTAssertNil(trust.check(headers: [("Host", "[::1]:4723")]))
        XCTAssertNil(trust.check(headers: [("Host", "10.0.0.5:4723")]))
        XCTAssertEqual(trust.check(headers: [("Host", "evil.example:4723")])?.status, 403)
        XCTAssertEqual(trust.check(headers: [("Host", "127.0.0.1"), ("Origin", "http://evil.example")])?.status, 403)
        XCTAssertEqual(trust.check(headers: [("Host", "127.0.0.1"), ("Origin", "null")])?.status, 403)
        XCTAssertEqual(trust.check(headers: [])?.status, 400)
        XCTAssertEqual(trust.check(headers: [("Host", "a"), ("Host", "b")])?.status, 400)
        XCTAssertNil(WebDriverTrust(allowedHosts: ["grid.local"]).check(headers: [("Host", "GRID.local:4723")]))

        let guarded = WebDriverTrust(authToken: "s3cret")
        XCTAssertEqual(guarded.check(headers: [("Host", "127.0.0.1")])?.status, 401)
        // base64("user:s3cret") and base64("user:wrong")
        XCTAssertNil(guarded.check(headers: [("Host", "127.0.0.1"), ("Authorization", "Basic dXNlcjpzM2NyZXQ=")]))
        XCTAssertEqual(
            guarded.check(headers: [("Host", "127.0.0.1"), ("Authorization", "Basic dXNlcjp3cm9uZw==")])?.status, 401)
        XCTAssertEqual(guarded.check(headers: [("Host", "127.0.0.1"), ("Authorization", "Basic !!")])?.status, 401)
    }

    func testServiceAnswersWithoutAServer() async {
        let service = WebDriverService(server: ServerAddress(address: "unix:/nonexistent/ax.sock"))
        let status = await service.handle(method: "GET", path: "/status", body: [])
        XCTAssertEqual(status.status, 200)
        XCTAssertEqual(status.body["value"]?["ready"], true)
        let created = await service.handle(method: "POST", path: "/session", body: Array("{}".utf8))
        XCTAssertEqual(created.body["value"]?["error"], "session not created")
        let malformed = await service.handle(method: "POST", path: "/session", body: Array("{\"capabilities\":".utf8))
        XCTAssertEqual(malformed.status, 400)
        XCTAssertEqual(malformed.body["value"]?["error"], "invalid argument")
        let array = await service.handle(method: "POST", path: "/session", body: Array("[]".utf8))
        XCTAssertEqual(array.body["value"]?["error"], "invalid argument")
        let noSession = await service.handle(method: "GET", path: "/session/nope/source", body: [])
        XCTAssertEqual(noSession.status, 404)
        XCTAssertEqual(noSession.body["value"]?["error"], "invalid session id")
    }
}
