import AXJSON
import AXJSONRPC
import AXProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP answer: status, extra headers and the JSON body.
package struct WebDriverResponse: Sendable {
    package var status: Int
    package var headers: [(String, String)]
    package var body: JSON
    /// The `value` as JSON text, written as `{"value":…}` instead of `body` (Get Page Source hands the server's
    /// string literal on as it came, issue 35 item 5).
    package var valueJSON: String?

    package init(status: Int = 200, headers: [(String, String)] = [], body: JSON) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `{"value": …}` with 200, the value given as JSON text (a valid JSON value: the caller checked it).
    package init(valueJSON: String) {
        self.init(body: .null)
        self.valueJSON = valueJSON
    }

    /// The bytes of the answer's body.
    package var bodyBytes: [UInt8] {
        guard let valueJSON else { return body.serialized() }
        var out: [UInt8] = []
        out.reserveCapacity(valueJSON.utf8.count + 10)
        out.append(contentsOf: #"{"value":"#.utf8)
        out.append(contentsOf: valueJSON.utf8)
        out.append(0x7D)
        return out
    }

    package init(_ error: WebDriverError) {
        self.init(status: error.status, body: error.body)
    }

    /// `{"value": value}` with 200.
    package static func value(_ value: JSON) -> WebDriverResponse { WebDriverResponse(body: ["value": value]) }
}

/// Limits of the WebDriver endpoint (Specs/webdriver.md §Limits).
package struct WebDriverLimits: Sendable {
    /// Sessions open at once; one more is `session not created`.
    package var maxSessions = 64
    /// A session not used for this long is deleted (its client abandoned it).
    package var sessionIdleTimeout: Duration = .seconds(600)
    /// The largest request body.
    package var maxBodyBytes = 1 << 20
    /// HTTP connections open at once; one more is closed at once.
    package var maxConnections = 512
    /// A connection with no request in progress that sends nothing for this long is closed.
    package var connectionIdleTimeout: Duration = .seconds(300)
    /// From a request's first byte, its head must be complete within this (else 408 and close).
    package var requestHeadTimeout: Duration = .seconds(10)
    /// From a request's head, its body must be complete within this (else 408 and close).
    package var requestBodyTimeout: Duration = .seconds(60)
    /// The most sessions `--max-sessions` may allow: each session holds one axserver connection, and axserver's
    /// own limit is 1,024 connections, so axdriver at most takes a quarter of them.
    package static let maxSessionsCeiling = 256

    package init() {}
}

/// The W3C WebDriver commands over axserver: sessions, locators, element commands, page source, screenshots,
/// key actions and `axserver:` script extensions. Framing-independent (the HTTP server hands it method, path and
/// body), so the unit tests call it directly.
package final class WebDriverService: Sendable {
    let server: ServerAddress
    let limits: WebDriverLimits
    let sessions = Mutex<[String: DriverSession]>([:])
    /// Sessions being created (counted against the limit while they connect).
    let creating = Mutex(0)

    package init(server: ServerAddress, limits: WebDriverLimits = WebDriverLimits()) {
        self.server = server
        self.limits = limits
    }

    /// The number of open sessions.
    package var sessionCount: Int { sessions.withLock { $0.count } }

    /// Answers one request. `body` is the raw request body (empty for GET/DELETE).
    package func handle(method: String, path: String, body: [UInt8]) async -> WebDriverResponse {
        do {
            let match = try WebDriverRoute.match(method: method, path: path)
            var parameters = JSONObject()
            if method == "POST" {
                parameters = try WebDriverService.parseBody(body)
            }
            return try await run(match, parameters)
        } catch {
            return WebDriverResponse(error)
        }
    }

    /// A POST body: a JSON object (an empty body counts as `{}`); anything else is `invalid argument`.
    static func parseBody(_ body: [UInt8]) throws(WebDriverError) -> JSONObject {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        let json: JSON
        do { json = try JSON.parse(body, limits: JSONParseLimits(maxDepth: 64, maxBytes: body.count)) } catch {
            throw .invalidArgument("the body is not valid JSON: \(error)")
        }
        guard let object = json.objectValue else {
            throw .invalidArgument("the body must be a JSON object, got \(json.typeName)")
        }
        return object
    }

    /// Deletes the sessions idle longer than the limit (run by the server's timer and before new sessions).
    package func expireIdleSessions(now: ContinuousClock.Instant = .now) async {
        let expired = sessions.withLock { table -> [DriverSession] in
            let old = table.values.filter { now - $0.lastUsed > limits.sessionIdleTimeout }
            for session in old { table[session.id] = nil }
            return old
        }
        for session in expired { await session.link.close() }
    }

    /// Closes every session (at shutdown).
    package func closeAll() async {
        let all = sessions.withLock { table -> [DriverSession] in
            let all = Array(table.values)
            table.removeAll()
            return all
        }
        for session in all { await session.link.close() }
    }

    func session(_ id: String?) throws(WebDriverError) -> DriverSession {
        guard let id, let session = sessions.withLock({ $0[id] }) else {
            throw WebDriverError(
                "invalid session id", "no session '\(id ?? "")' (it was deleted, expired or never existed)")
        }
        session.touch()
        return session
    }

    // MARK: Dispatch

    func run(_ match: WebDriverRoute.Match, _ body: JSONObject) async throws(WebDriverError) -> WebDriverResponse {
        let id = match.sessionID
        switch match.command.family {
        case .server(.status): return .value(status())
        case .server(.newSession): return .value(try await newSession(body))
        case .server(.listSessions): return .value(listSessions())
        case .pageSource: return try await pageSource(try session(id))
        case .session(let command): return .value(try await runSessionCommand(command, match, body, try session(id)))
        case .window(let command): return .value(try await runWindowCommand(command, body, try session(id)))
        case .elementQuery(let command):
            return .value(try await runElementQuery(command, match, body, try session(id)))
        case .elementAction(let command):
            return .value(try await runElementAction(command, match, body, try session(id)))
        case .alert(let command): return .value(try await runAlertCommand(command, body, try session(id)))
        case .unsupported: _ = try session(id)
        }
        throw WebDriverError(
            "unsupported operation",
            "\(match.command.rawValue) is not supported by axdriver (an accessibility tree has no \(match.command == .navigateTo || match.command == .getCurrentURL ? "URL" : "such thing"))",
            data: ["command": .string(match.command.rawValue)])
    }

    func listSessions() -> JSON {
        .array(
            sessions.withLock { table in
                table.values.sorted { $0.id < $1.id }.map {
                    ["id": .string($0.id), "capabilities": .object($0.capabilities)]
                }
            })
    }

    /// The session's own commands: delete, timeouts, screenshots, scripts, actions, cookies.
    func runSessionCommand(
        _ command: WebDriverFamily.SessionCommand, _ match: WebDriverRoute.Match, _ body: JSONObject,
        _ session: DriverSession
    ) async throws(WebDriverError) -> JSON {
        switch command {
        case .deleteSession:
            sessions.withLock { $0[session.id] = nil }
            await session.link.close()
            return .null
        case .getTimeouts: return session.timeouts.json
        case .setTimeouts:
            var timeouts = session.timeouts
            try timeouts.apply(body)
            session.timeouts = timeouts
            return .null
        case .takeScreenshot, .takeElementScreenshot: return try await screenshot(match, session)
        case .executeScript, .executeAsyncScript:
            return try await execute(session, body)
        case .performActions:
            try await performActions(session, body)
            return .null
        case .releaseActions:
            session.state.withLock { $0.heldModifiers = [] }
            return .null
        case .getAllCookies: return []
        }
    }

    /// Get Page Source: the server's page source (`tree.get` xml), its JSON string literal handed on as it came
    /// (`PageSourceReply`), so the client reads exactly the string the server wrote.
    func pageSource(_ session: DriverSession) async throws(WebDriverError) -> WebDriverResponse {
        let reply = try await session.link.call(.treeGet, [.format: "xml"])
        guard let literal = PageSourceReply.literal(reply.json) else {
            throw WebDriverError("unknown error", "tree.get answered without xml")
        }
        return WebDriverResponse(valueJSON: literal)
    }

    /// A PNG of the whole tree or of one element's subtree.
    func screenshot(_ match: WebDriverRoute.Match, _ session: DriverSession) async throws(WebDriverError) -> JSON {
        var params: RPCParams<RPCCatalog.TreeRender.Param> = [.format: "png"]
        if let reference = match.elementID {
            params[.root] = ["id": .string(try ElementReference.decode(reference))]
        }
        do {
            let reply = try await session.link.call(.treeRender, params)
            return reply[.data] ?? ""
        } catch  where error.code == "invalid argument" {
            throw WebDriverError("unable to capture screen", error.message, data: error.data)
        }
    }

    /// Title, windows and the focused element.
    func runWindowCommand(_ command: WebDriverFamily.WindowCommand, _ body: JSONObject, _ session: DriverSession)
        async throws(WebDriverError) -> JSON
    {
        switch command {
        case .getTitle: return .string(session.app)
        case .getWindowHandle: return .string(try await currentWindow(session))
        case .getWindowHandles: return JSON(try await windows(session))
        case .switchToWindow:
            guard let handle = body["handle"]?.stringValue else { throw .invalidArgument("'handle' must be a string") }
            guard try await windows(session).contains(handle) else {
                throw WebDriverError("no such window", "the app has no window '\(handle)'")
            }
            session.state.withLock { $0.window = handle }
            return .null
        case .getWindowRect:
            let window = try await session.link.call(
                .elementGet, [.target: ["id": .string(try await currentWindow(session))]])
            return rect(window.json)
        case .getActiveElement:
            let focus = try await session.link.call(.focusGet)
            guard let id = focus[.element]?["id"]?.stringValue ?? focus[.element]?.stringValue else {
                throw WebDriverError("no such element", "no element has accessibility focus")
            }
            return ElementReference.json(id)
        }
    }

    /// Finding elements and reading them.
    func runElementQuery(
        _ command: WebDriverFamily.ElementQueryCommand, _ match: WebDriverRoute.Match, _ body: JSONObject,
        _ session: DriverSession
    ) async throws(WebDriverError) -> JSON {
        switch command {
        case .find: return try await findElements(match, body, session)
        case .attributeOrProperty: return try await attributeOrProperty(match, session)
        case .cssValue: return ""
        case .text:
            let element = try await element(session, try ElementReference.decode(match.elementID ?? ""))
            return .string(
                element["text"]?.stringValue ?? element["value"]?.stringValue ?? element["label"]?.stringValue ?? "")
        case .tagName:
            let id = try ElementReference.decode(match.elementID ?? "")
            return try await attribute(session, try await element(session, id), "type")
        case .rect:
            return rect(try await element(session, try ElementReference.decode(match.elementID ?? "")))
        case .enabled, .selected, .displayed:
            let element = try await element(session, try ElementReference.decode(match.elementID ?? ""))
            let name = command == .enabled ? "enabled" : command == .selected ? "selected" : "displayed"
            return try await attribute(session, element, name)
        case .computedRole:
            return try await element(session, try ElementReference.decode(match.elementID ?? ""))["role"] ?? .null
        case .computedLabel:
            return .string(
                try await element(session, try ElementReference.decode(match.elementID ?? ""))["label"]?.stringValue
                    ?? "")
        }
    }

    /// Find Element(s), from the root or from an element.
    func findElements(_ match: WebDriverRoute.Match, _ body: JSONObject, _ session: DriverSession)
        async throws(WebDriverError) -> JSON
    {
        let multiple = match.command == .findElements || match.command == .findElementsFromElement
        var root: String?
        if let reference = match.elementID {
            let decoded = try ElementReference.decode(reference)
            root = decoded
            _ = try await element(session, decoded)
        }
        let found = try await find(session, try Locator.parse(body), root: root, multiple: multiple)
        if multiple { return .array(found.map(ElementReference.json)) }
        return ElementReference.json(found[0])
    }

    /// Get Element Property (the JSON value) or Get Element Attribute (its string form; arrays comma-joined).
    func attributeOrProperty(_ match: WebDriverRoute.Match, _ session: DriverSession) async throws(WebDriverError)
        -> JSON
    {
        let id = try ElementReference.decode(match.elementID ?? "")
        let element = try await element(session, id)
        let name = match.name ?? ""
        let value = try await attribute(session, element, name)
        if match.command == .getElementProperty { return value }
        switch value {
        case .null, .string: return value
        case .bool(let flag): return .string(flag ? "true" : "false")
        case .number: return .string(value.jsonString)
        case .array(let items): return .string(items.map { $0.stringValue ?? $0.jsonString }.joined(separator: ","))
        case .object: return .string(value.jsonString)
        }
    }

    /// Click, clear and send keys.
    func runElementAction(
        _ command: WebDriverFamily.ElementActionCommand, _ match: WebDriverRoute.Match, _ body: JSONObject,
        _ session: DriverSession
    ) async throws(WebDriverError) -> JSON {
        switch command {
        case .click:
            let id = try ElementReference.decode(match.elementID ?? "")
            _ = try await session.link.call(.actionActivate, [.target: ["id": .string(id)]])
            return .null
        case .clear:
            try await clear(session, try ElementReference.decode(match.elementID ?? ""))
            return .null
        case .sendKeys:
            let id = try ElementReference.decode(match.elementID ?? "")
            guard let text = body["text"]?.stringValue else { throw .invalidArgument("'text' must be a string") }
            try await sendKeys(session, text, to: id)
            return .null
        }
    }

    // MARK: Status and sessions

    func status() -> JSON {
        let count = sessionCount
        let ready = count < limits.maxSessions
        return [
            "ready": .bool(ready),
            "message": .string(
                ready
                    ? "axdriver ready (axserver at \(server.address); \(count) sessions)"
                    : "session limit reached (\(limits.maxSessions))"),
            "build": ["version": "0.1.0"],
        ]
    }

    /// New Session (WebDriver §8.1 and §7.2 "Processing capabilities"): `alwaysMatch` merged with each
    /// `firstMatch` entry; the first that this driver matches wins.
    func newSession(_ body: JSONObject) async throws(WebDriverError) -> JSON {
        let merged = try Capabilities.process(body)
        await expireIdleSessions()
        let reserved = sessions.withLock { table in
            creating.withLock { pending -> Bool in
                guard table.count + pending < limits.maxSessions else { return false }
                pending += 1
                return true
            }
        }
        guard reserved else {
            throw WebDriverError(
                "session not created", "the session limit (\(limits.maxSessions)) is reached; delete a session first",
                data: ["limit": "maxSessions", "max": JSON(limits.maxSessions)])
        }
        defer { creating.withLock { $0 -= 1 } }
        let link = ServerLink(server: server)
        let apps: [JSON]
        do {
            apps = try await link.call(.appsList).json.arrayValue ?? []
        } catch {
            await link.close()
            throw WebDriverError("session not created", error.message, data: error.data)
        }
        let wanted = merged["axserver:app"]?.stringValue
        let app = apps.first { app in
            guard let wanted else { return true }
            return app["id"]?.stringValue == wanted || app["name"]?.stringValue == wanted
        }
        guard let appID = app?["id"]?.stringValue else {
            await link.close()
            let names = apps.compactMap { $0["name"]?.stringValue }
            throw WebDriverError(
                "session not created",
                wanted.map { "no app named '\($0)' is running (running: \(names.joined(separator: ", ")))" }
                    ?? "no app is running on axserver at \(server.address)", data: ["apps": JSON(names)])
        }
        link.app.withLock { $0 = appID }
        if merged["axserver:reset"]?.boolValue == true {
            // D-WD-RESET-1: the app returns to its initial state before the session exists; an app that cannot
            // (or a kiosk that forbids it) refuses the session with its reason, never a session on leftover state.
            do { _ = try await link.call(.appReset, app: appID) } catch {
                await link.close()
                throw WebDriverError(
                    "session not created", "axserver:reset: \(error.message)",
                    data: ["app": .string(appID), "cause": error.data ?? .null, "error": .string(error.code)])
            }
        }
        _ = try? await link.call(.eventsSubscribe, [.events: [.string(RPCEvent.treeChanged.rawValue)]])
        var timeouts = WebDriverTimeouts()
        if let requested = merged["timeouts"]?.objectValue { try timeouts.apply(requested) }
        let id = WebDriverService.randomID()
        var capabilities: JSONObject = [
            "platformName": "linux", "browserName": "", "browserVersion": "", "acceptInsecureCerts": false,
            "pageLoadStrategy": "normal", "setWindowRect": false, "strictFileInteractability": false,
            "unhandledPromptBehavior": "ignore", "proxy": [:], "timeouts": timeouts.json,
            "appium:automationName": "AXServer", "axserver:app": .string(appID),
        ]
        let answered = Set(capabilities.keys)
        for (key, value) in merged where key.contains(":") && !answered.contains(key) {
            capabilities.appendUnchecked(key, value)
        }
        let session = DriverSession(id: id, app: appID, link: link, timeouts: timeouts, capabilities: capabilities)
        sessions.withLock { $0[id] = session }
        return ["sessionId": .string(id), "capabilities": .object(capabilities)]
    }

    static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        var out = ""
        for index in 0..<32 {
            if [8, 12, 16, 20].contains(index) { out.append("-") }
            out.append(digits[Int(generator.next() % 16)])
        }
        return out
    }

    // MARK: Windows

    func windows(_ session: DriverSession) async throws(WebDriverError) -> [String] {
        let apps = try await session.link.call(.appsList).json.arrayValue ?? []
        guard let app = apps.first(where: { $0["id"]?.stringValue == session.app }) else {
            throw WebDriverError("no such window", "the app '\(session.app)' is no longer running")
        }
        return app["windows"]?.arrayValue?.compactMap { $0.stringValue ?? $0["id"]?.stringValue } ?? []
    }

    func currentWindow(_ session: DriverSession) async throws(WebDriverError) -> String {
        let all = try await windows(session)
        if let chosen = session.state.withLock({ $0.window }), all.contains(chosen) { return chosen }
        guard let first = all.first else { throw WebDriverError("no such window", "the app has no window") }
        return first
    }

    // MARK: Elements

    /// `element.get` for a node id (no such element / stale element reference from the server).
    func element(_ session: DriverSession, _ id: String) async throws(WebDriverError) -> JSON {
        try await session.link.call(.elementGet, [.target: ["id": .string(id)]]).json
    }

    func rect(_ element: JSON) -> JSON {
        let frame = element["frame"]
        return [
            "x": frame?["x"] ?? 0, "y": frame?["y"] ?? 0, "width": frame?["width"] ?? 0,
            "height": frame?["height"] ?? 0,
        ]
    }

    /// An element attribute by its Appium / XCUITest name, or any field of the server's element (as JSON).
    func attribute(_ session: DriverSession, _ element: JSON, _ name: String) async throws(WebDriverError) -> JSON {
        let states = Set(element["states"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        switch name {
        case "name": return element["identifier"] ?? element["label"] ?? .null
        case "enabled": return .bool(states.contains("enabled"))
        case "selected": return .bool(states.contains("selected") || states.contains("checked"))
        case "checked": return .bool(states.contains("checked"))
        case "visible", "displayed": return .bool(element["visible"]?.boolValue ?? states.contains("onscreen"))
        case "focused": return .bool(element["focused"]?.boolValue ?? states.contains("focused"))
        case "accessible": return element["isElement"] ?? .bool(false)
        case "rect", "frame": return rect(element)
        case "axid", "UID": return element["id"] ?? .null
        case "type":
            guard let id = element["id"]?.stringValue else { return .null }
            let page = try await session.page()
            guard let index = page.index[id] else { return element["role"] ?? .null }
            return JSON(page.tree.attribute(index, "type"))
        default: return element[name] ?? .null
        }
    }

    /// Finds elements; with an implicit wait, evaluates again after each change of the app's tree (woken by the
    /// server's `tree.changed` events, never by a timer) until one matches or the wait ends.
    func find(_ session: DriverSession, _ locator: Locator, root: String?, multiple: Bool) async throws(WebDriverError)
        -> [String]
    {
        let implicit = session.timeouts.implicit
        let deadline = ContinuousClock.now + .milliseconds(min(implicit, 3_600_000))
        if !multiple, root == nil, implicit > 0, case .selector(let selector) = locator {
            return try await waitOnServer(session, selector, deadline: deadline, implicit: implicit)
        }
        while true {
            let generation = session.link.generation
            let found = try await evaluate(session, locator, root: root, limit: multiple ? nil : 1)
            if !found.isEmpty { return found }
            if ContinuousClock.now >= deadline {
                if multiple { return [] }
                let hint = try await nameHint(session, locator)
                throw WebDriverError(
                    "no such element",
                    "no element matches \(describe(locator))\(implicit > 0 ? " (waited \(implicit) ms)" : "")\(hint.map { "; " + $0 } ?? "")",
                    data: ["locator": .string(describe(locator))])
            }
            await session.link.waitForChange(after: generation, until: deadline)
        }
    }

    /// Find Element with an implicit wait and a selector: the server's `wait.for {state: attached}` waits (woken
    /// by the app's revisions, D-PROTO-1) and answers with the element, one round trip after the change. When
    /// several elements match (`wait.for` is strict), the first in document order is taken, as WebDriver does.
    func waitOnServer(_ session: DriverSession, _ selector: String, deadline: ContinuousClock.Instant, implicit: Int)
        async throws(WebDriverError) -> [String]
    {
        while true {
            let found = try await evaluate(session, .selector(selector), root: nil, limit: 1)
            if !found.isEmpty { return found }
            let remaining = deadline - ContinuousClock.now
            let remainingMs =
                remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
            if remainingMs <= 0 { break }
            let params: RPCParams<RPCCatalog.WaitFor.Param> = [
                .target: ["selector": .string(selector)], .state: .string(RPCCatalog.WaitFor.State.attached.rawValue),
                .timeoutMs: JSON(Int(remainingMs)),
            ]
            do {
                let reply = try await session.link.call(.waitFor, params, timeout: remaining + .seconds(10))
                if let id = reply[.element]?["id"]?.stringValue { return [id] }
            } catch  where error.code == "timeout" {
                break
            } catch  where error.data?["rpcCode"] == JSON(-32011) {
                continue  // several match now: query.find takes the first
            }
        }
        throw WebDriverError(
            "no such element", "no element matches selector \(selector) (waited \(implicit) ms)",
            data: ["locator": .string("selector \(selector)")])
    }

    func describe(_ locator: Locator) -> String {
        switch locator {
        case .selector(let selector): return "selector \(selector)"
        case .xpath(let query): return "xpath \(query.source)"
        case .className(let name): return "class name \(name)"
        }
    }

    func evaluate(_ session: DriverSession, _ locator: Locator, root: String?, limit: Int?) async throws(WebDriverError)
        -> [String]
    {
        switch locator {
        case .selector(let selector):
            var params: RPCParams<RPCCatalog.QueryFind.Param> = [.selector: .string(selector)]
            if let limit { params[.limit] = JSON(limit) }
            if let root { params[.root] = ["id": .string(root)] }
            let reply = try await session.link.call(.queryFind, params)
            return reply[.elements]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        case .xpath(let query): return try await xpathIDs(session, query, root: root, limit: limit)
        case .className(let name): return try await classNameIDs(session, name, root: root, limit: limit)
        }
    }

    /// The page-source index of `root` (an element id), or a stale-element error.
    func pageIndex(_ page: (tree: PageTree, index: [String: Int]), _ root: String) throws(WebDriverError) -> Int {
        guard let index = page.index[root] else {
            throw WebDriverError("stale element reference", "the element '\(root)' is not in the page source")
        }
        return index
    }

    /// The ids of the elements an XPath selects in the page source (from `root` when given), in document order.
    func xpathIDs(_ session: DriverSession, _ query: XPathQuery, root: String?, limit: Int?)
        async throws(WebDriverError) -> [String]
    {
        let page = try await session.page()
        var context = XPathNode.document
        if let root { context = XPathNode(element: try pageIndex(page, root), attribute: -1) }
        let nodes: [XPathNode]
        do { nodes = try query.select(in: page.tree, from: context) } catch {
            throw WebDriverError("invalid selector", "xpath \(query.source): \(error)")
        }
        var ids: [String] = []
        var seen = Set<Int>()
        for node in nodes where node.element >= 0 && seen.insert(node.element).inserted {
            if let id = page.tree.attribute(node.element, "axid") {
                ids.append(id)
                if let limit, ids.count >= limit { break }
            }
        }
        return ids
    }

    /// The ids of the elements whose XCUIElementType or role is `name` (below `root` when given).
    func classNameIDs(_ session: DriverSession, _ name: String, root: String?, limit: Int?)
        async throws(WebDriverError) -> [String]
    {
        let page = try await session.page()
        let range: Range<Int>
        if let root {
            let index = try pageIndex(page, root)
            range = (index + 1)..<page.tree.subtreeEnd[index]
        } else {
            range = 0..<page.tree.count
        }
        var ids: [String] = []
        for index in range {
            guard let id = page.tree.attribute(index, "axid") else { continue }
            if page.tree.attribute(index, "type") == name || page.tree.attribute(index, "role") == name {
                ids.append(id)
                if let limit, ids.count >= limit { break }
            }
        }
        return ids
    }

    // MARK: Keys

    /// WebDriver's key codepoints (WebDriver §17.4.2, "Keyboard actions") → X keysym names (input.key).
    static let specialKeys: [Unicode.Scalar: String] = [
        "\u{E003}": "BackSpace", "\u{E004}": "Tab", "\u{E005}": "Help", "\u{E006}": "Return", "\u{E007}": "KP_Enter",
        "\u{E00B}": "Pause", "\u{E00C}": "Escape", "\u{E00D}": "space", "\u{E00E}": "Page_Up", "\u{E00F}": "Page_Down",
        "\u{E010}": "End", "\u{E011}": "Home", "\u{E012}": "Left", "\u{E013}": "Up", "\u{E014}": "Right",
        "\u{E015}": "Down", "\u{E016}": "Insert", "\u{E017}": "Delete", "\u{E031}": "F1", "\u{E032}": "F2",
        "\u{E033}": "F3", "\u{E034}": "F4", "\u{E035}": "F5", "\u{E036}": "F6", "\u{E037}": "F7", "\u{E038}": "F8",
        "\u{E039}": "F9", "\u{E03A}": "F10", "\u{E03B}": "F11", "\u{E03C}": "F12",
    ]
    static let modifierKeys: [Unicode.Scalar: String] = [
        "\u{E008}": "shift", "\u{E050}": "shift", "\u{E009}": "control", "\u{E051}": "control", "\u{E00A}": "alt",
        "\u{E052}": "alt", "\u{E03D}": "super", "\u{E053}": "super",
    ]

    /// Perform Actions (WebDriver §17): key sources (keyDown/keyUp/pause) and pointer sources (a pointerUp taps at
    /// the pointer's position, `action.tap`); actions run tick by tick across the sources.
    func performActions(_ session: DriverSession, _ body: JSONObject) async throws(WebDriverError) {
        let ticks = try actionTicks(body)
        var pointer: (x: Double, y: Double) = (0, 0)
        for tick in ticks {
            var pause = 0.0
            for (type, action) in tick {
                let subtype = action["type"]?.stringValue ?? ""
                switch (type, subtype) {
                case (_, "pause"):
                    pause = max(pause, action["duration"]?.doubleValue ?? 0)
                case ("key", "keyDown"): try await keyDown(session, action)
                case ("key", "keyUp"): keyUp(session, action)
                case ("pointer", "pointerMove"): pointer = try await pointerMove(session, action, from: pointer)
                case ("pointer", "pointerDown"): break
                case ("pointer", "pointerUp"):
                    _ = try await session.link.call(
                        .actionTap, [.point: ["x": JSON(pointer.x), "y": JSON(pointer.y)]])
                default:
                    throw WebDriverError(
                        "unsupported operation", "the action '\(subtype)' of a \(type) source is not supported",
                        data: ["supported": ["pause", "keyDown", "keyUp", "pointerMove", "pointerDown", "pointerUp"]])
                }
            }
            if pause > 0 { try? await Task.sleep(for: .milliseconds(min(pause, 60_000))) }
        }
    }

    /// The input sources' actions grouped by tick (the nth action of every source runs in tick n).
    func actionTicks(_ body: JSONObject) throws(WebDriverError) -> [[(type: String, action: JSONObject)]] {
        guard let sources = body["actions"]?.arrayValue else { throw .invalidArgument("'actions' must be an array") }
        var ticks: [[(type: String, action: JSONObject)]] = []
        for source in sources {
            guard let type = source["type"]?.stringValue, ["key", "pointer", "none", "wheel"].contains(type),
                let actions = source["actions"]?.arrayValue
            else {
                throw .invalidArgument("each input source needs a 'type' (key, pointer, none, wheel) and 'actions'")
            }
            for (index, action) in actions.enumerated() {
                guard let object = action.objectValue else { throw .invalidArgument("an action must be an object") }
                if ticks.count <= index { ticks.append([]) }
                ticks[index].append((type, object))
            }
        }
        return ticks
    }

    /// A modifier key is held; a special key is an `input.key`; any other key is the key that types it, with the
    /// held modifiers (`pressCharacter`: `/` → slash, a character no key types is typed into the focused element).
    func keyDown(_ session: DriverSession, _ action: JSONObject) async throws(WebDriverError) {
        guard let value = action["value"]?.stringValue, value.unicodeScalars.count == 1,
            let scalar = value.unicodeScalars.first
        else { throw .invalidArgument("keyDown needs one character in 'value'") }
        if let modifier = WebDriverService.modifierKeys[scalar] {
            session.state.withLock {
                if !$0.heldModifiers.contains(modifier) { $0.heldModifiers.append(modifier) }
            }
            return
        }
        let modifiers = session.state.withLock { $0.heldModifiers }
        if let key = WebDriverService.specialKeys[scalar] {
            _ = try await session.link.call(.inputKey, [.key: .string(key), .modifiers: JSON(modifiers)])
        } else {
            // A character as the key that types it (`/` → slash), so chords such as Control+/ reach the app.
            try await pressCharacter(session, scalar, modifiers: modifiers, to: nil, editable: true)
        }
    }

    /// Releasing a modifier key; other key-ups do nothing (the key-down already pressed and released the key).
    func keyUp(_ session: DriverSession, _ action: JSONObject) {
        if let scalar = action["value"]?.stringValue?.unicodeScalars.first,
            let modifier = WebDriverService.modifierKeys[scalar]
        {
            session.state.withLock { $0.heldModifiers.removeAll { $0 == modifier } }
        }
    }

    /// The pointer's new position: relative to an element's centre, to the pointer, or to the viewport.
    func pointerMove(_ session: DriverSession, _ action: JSONObject, from pointer: (x: Double, y: Double))
        async throws(WebDriverError) -> (x: Double, y: Double)
    {
        let x = action["x"]?.doubleValue ?? 0
        let y = action["y"]?.doubleValue ?? 0
        if let origin = action["origin"], origin.objectValue != nil,
            let id = try ElementReference.nodeID(in: origin)
        {
            let frame = rect(try await element(session, id))
            return (
                (frame["x"]?.doubleValue ?? 0) + (frame["width"]?.doubleValue ?? 0) / 2 + x,
                (frame["y"]?.doubleValue ?? 0) + (frame["height"]?.doubleValue ?? 0) / 2 + y
            )
        }
        if action["origin"]?.stringValue == "pointer" { return (pointer.x + x, pointer.y + y) }
        return (x, y)
    }

    // MARK: Scripts

    /// The `axserver:` (or Appium-style `mobile:`) script extensions and the axserver methods they call.
    package static let scriptExtensions = [
        "increment", "decrement", "escape", "magicTap", "customAction", "focus", "rotor", "audit", "speech", "source",
        "tap", "zoomIn", "zoomOut", "drag", "drop",
    ]

    /// Execute Script: `axserver: NAME` with one argument object; Selenium's getAttribute/isDisplayed atoms
    /// (which its Python client sends for `get_attribute` / `is_displayed`) are answered from the element.
    func execute(_ session: DriverSession, _ body: JSONObject) async throws(WebDriverError) -> JSON {
        guard let script = body["script"]?.stringValue else { throw .invalidArgument("'script' must be a string") }
        let arguments = body["args"]?.arrayValue ?? []
        if script.hasPrefix("/* getAttribute */") || script.hasPrefix("/* isDisplayed */") {
            return try await executeAtom(session, script, arguments)
        }
        let name = try WebDriverService.extensionName(script)
        let options = arguments.first?.objectValue ?? [:]
        let target: JSON? = try ElementReference.nodeID(in: arguments.first).map { ["id": .string($0)] }
        if let answer = try await targetedExtension(session, name, target: target) { return answer }
        switch name {
        case "customAction": return try await customActionExtension(session, options, target: target)
        case "rotor": return try await rotorExtension(session, options, target: target)
        case "audit":
            var extra: RPCParams<RPCCatalog.AuditRun.Param> = [:]
            if let checks = options["checks"] ?? options["auditTypes"] { extra[.checks] = checks }
            if let target { extra[.root] = target }
            return try await session.link.call(.auditRun, extra).json
        case "speech":
            guard let target else { throw .invalidArgument("axserver: speech needs an element") }
            var extra: RPCParams<RPCCatalog.SpeechDescribe.Param> = [.target: target]
            if let model = options["model"] { extra[.model] = model }
            return try await session.link.call(.speechDescribe, extra).json
        case "source":
            let format = options["format"]?.stringValue ?? "xml"
            let reply = try await session.link.call(.treeGet, [.format: .string(format)])
            if format == "xml", let xml = PageSourceReply.string(reply.json) { return .string(xml) }
            return reply.json[format] ?? reply.json
        default:
            return try await namedAction(session, name, options: options, target: target)
        }
    }

    /// The named actions that take their own params: zoom (D-ZOOM-1: `point?` in screen coordinates) and drag and
    /// drop (D-DRAG-1: the descriptor's `name`).
    func namedAction(_ session: DriverSession, _ name: String, options: JSONObject, target: JSON?)
        async throws(WebDriverError) -> JSON
    {
        switch name {
        case "zoomIn", "zoomOut":
            var params: RPCParams<RPCCatalog.ActionZoomIn.Param> = [:]
            if let target { params[.target] = target }
            if let point = options["point"] { params[.point] = point }
            if name == "zoomIn" {
                return try await session.link.call(.actionZoomIn, params).json
            }
            return try await session.link.call(.actionZoomOut, params).json
        case "drag", "drop":
            guard let descriptor = options["name"] else {
                throw .invalidArgument("axserver: \(name) needs 'name' (a drag source or drop point)")
            }
            var params: RPCParams<RPCCatalog.ActionDrag.Param> = [.name: descriptor]
            if let target { params[.target] = target }
            if name == "drag" {
                return try await session.link.call(.actionDrag, params).json
            }
            return try await session.link.call(.actionDrop, params).json
        default:
            throw WebDriverError(
                "invalid argument",
                "unknown script extension '\(name)' (supported: \(WebDriverService.scriptExtensions.joined(separator: ", ")))",
                data: ["supported": JSON(WebDriverService.scriptExtensions)])
        }
    }

    /// The script extensions that call one method with the element (if any) as `target`; nil for another name.
    func targetedExtension(_ session: DriverSession, _ name: String, target: JSON?) async throws(WebDriverError)
        -> JSON?
    {
        let params: RPCParams<RPCCatalog.ActionIncrement.Param> = target.map { [.target: $0] } ?? [:]
        switch name {
        case "increment": return try await session.link.call(.actionIncrement, params).json
        case "decrement": return try await session.link.call(.actionDecrement, params).json
        case "escape": return try await session.link.call(.actionEscape, params).json
        case "magicTap": return try await session.link.call(.actionMagicTap, params).json
        case "tap": return try await session.link.call(.actionActivate, params).json
        case "focus": return try await session.link.call(.focusSet, target.map { [.target: $0] } ?? [:]).json
        default: return nil
        }
    }

    /// `axserver: NAME` or `mobile: NAME` → NAME; any other script is refused (axdriver runs no JavaScript).
    static func extensionName(_ script: String) throws(WebDriverError) -> String {
        let trimmed = script.trimmingPrefixWhitespace()
        var name: Substring
        if trimmed.hasPrefix("axserver:") {
            name = trimmed.dropFirst("axserver:".count)
        } else if trimmed.hasPrefix("mobile:") {
            name = trimmed.dropFirst("mobile:".count)
        } else {
            throw WebDriverError(
                "unsupported operation",
                "axdriver runs no JavaScript; scripts are 'axserver: NAME' extensions (\(WebDriverService.scriptExtensions.joined(separator: ", ")))",
                data: ["supported": JSON(WebDriverService.scriptExtensions.map { "axserver: " + $0 })])
        }
        while name.first == " " { name = name.dropFirst() }
        return String(name)
    }

    /// Selenium's getAttribute / isDisplayed atoms, answered from the element.
    func executeAtom(_ session: DriverSession, _ script: String, _ arguments: [JSON]) async throws(WebDriverError)
        -> JSON
    {
        guard let id = try ElementReference.nodeID(in: arguments.first) else {
            throw .invalidArgument("the atom needs an element argument")
        }
        let element = try await element(session, id)
        if script.hasPrefix("/* isDisplayed */") { return try await attribute(session, element, "displayed") }
        let value = try await attribute(session, element, arguments.count > 1 ? arguments[1].stringValue ?? "" : "")
        switch value {
        case .null, .string: return value
        case .bool(let flag): return flag ? "true" : .null
        default: return .string(value.stringValue ?? value.jsonString)
        }
    }

    /// `axserver: customAction` with the action's `name` (or `action`), on the element when given.
    func customActionExtension(_ session: DriverSession, _ options: JSONObject, target: JSON?)
        async throws(WebDriverError) -> JSON
    {
        guard let action = options["name"] ?? options["action"] else {
            throw .invalidArgument("axserver: customAction needs 'name'")
        }
        var params: RPCParams<RPCCatalog.ActionCustom.Param> = [.name: action]
        if let target { params[.target] = target }
        return try await session.link.call(.actionCustom, params).json
    }

    /// `axserver: rotor` with `rotor` (or `name`) and `direction` next/previous, from the element when given.
    func rotorExtension(_ session: DriverSession, _ options: JSONObject, target: JSON?) async throws(WebDriverError)
        -> JSON
    {
        guard let rotor = options["rotor"] ?? options["name"] else {
            throw .invalidArgument("axserver: rotor needs 'rotor'")
        }
        let direction = options["direction"]?.stringValue ?? "next"
        guard direction == "next" || direction == "previous" else {
            throw .invalidArgument("'direction' must be next or previous")
        }
        var extra: RPCParams<RPCCatalog.RotorNext.Param> = [.rotor: rotor]
        if let target { extra[.from] = target }
        if direction == "next" {
            return try await session.link.call(.rotorNext, extra).json
        }
        return try await session.link.call(.rotorPrevious, extra).json
    }
}

extension String {
    func trimmingPrefixWhitespace() -> Substring {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        return text
    }
}
