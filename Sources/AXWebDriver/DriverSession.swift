import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPCClient
import Synchronization

/// Where axdriver finds the axserver it drives.
package struct ServerAddress: Sendable {
    /// `unix:PATH` or `tcp:HOST:PORT` (AXRPCClient's address forms).
    package var address: String
    /// The TCP token (`--token-file`), sent in `initialize`.
    package var token: String?

    package init(address: String, token: String? = nil) {
        self.address = address
        self.token = token
    }
}

/// The WebDriver session timeouts (WebDriver §9, "Timeouts"), in milliseconds.
package struct WebDriverTimeouts: Sendable, Equatable {
    package var implicit: Int = 0
    package var pageLoad: Int = 300_000
    package var script: Int? = 30_000

    /// The defaults (implicit 0, page load 300 s, script 30 s).
    package init() {}

    package var json: JSON {
        ["implicit": JSON(implicit), "pageLoad": JSON(pageLoad), "script": script.map { JSON($0) } ?? .null]
    }

    /// The longest timeout accepted (ms): 10 minutes, the default session idle timeout. WebDriver allows up to
    /// 2^53 − 1; axdriver refuses more than this (a wait that long holds a server connection and a task for
    /// nothing), Specs/webdriver.md §Limits.
    package static let maxMilliseconds = 600_000

    /// Applies a timeouts object (`POST /timeouts`, or the `timeouts` capability): each value an integer
    /// 0…`maxMilliseconds` (`script` may be null); anything else is `invalid argument`.
    package mutating func apply(_ object: JSONObject) throws(WebDriverError) {
        for (key, value) in object {
            guard ["implicit", "pageLoad", "script"].contains(key) else { continue }
            if key == "script", value.isNull {
                script = nil
                continue
            }
            guard case .number(let number) = value, number >= 0, number <= Double(WebDriverTimeouts.maxMilliseconds),
                number == number.rounded()
            else {
                throw WebDriverError(
                    "invalid argument",
                    "timeout '\(key)' must be an integer number of milliseconds in 0…\(WebDriverTimeouts.maxMilliseconds), got \(value)",
                    data: ["limit": "maxTimeoutMs", "max": JSON(WebDriverTimeouts.maxMilliseconds)])
            }
            switch key {
            case "implicit": implicit = Int(number)
            case "pageLoad": pageLoad = Int(number)
            default: script = Int(number)
            }
        }
    }
}

/// The connection of one WebDriver session to axserver: `initialize`d as an automation client, subscribed to
/// the app's `tree.changed` events (which wake implicit waits), re-opened once when the server restarted.
package final class ServerLink: Sendable {
    struct State {
        var client: RPCClient?
        /// Bumped by every `tree.changed` of the app (and when the connection closes).
        var generation = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
        /// The session was deleted (or expired): no reconnecting, waits end at once, calls fail with
        /// `invalid session id`.
        var shutDown = false
    }

    let server: ServerAddress
    let state = Mutex(State())
    /// The app the session drives (an app id), set once the session resolved it.
    let app = Mutex<String?>(nil)

    init(server: ServerAddress) { self.server = server }

    /// The open connection, connecting (and initializing) when there is none or it closed.
    func client() async throws(WebDriverError) -> RPCClient {
        let (current, shutDown) = state.withLock { ($0.client, $0.shutDown) }
        if shutDown { throw ServerLink.deleted }
        if let current, !current.isClosed { return current }
        let client: RPCClient
        do { client = try await RPCClient.connect(server.address) } catch {
            throw WebDriverError(
                "unknown error", "axserver is not reachable at \(server.address): \(error)",
                data: ["reason": "server unreachable", "address": .string(server.address)])
        }
        var params: RPCParams<RPCCatalog.Initialize.Param> = [
            .role: "automation", .clientInfo: ["name": "axdriver", "version": "0.1.0"],
        ]
        if let token = server.token { params[.token] = .string(token) }
        do {
            _ = try await client.call(RPCMethodName.initialize.rawValue, .object(params.object), timeout: .seconds(10))
        } catch {
            await client.close()
            throw WebDriverError.from(error)
        }
        client.onNotification { [weak self] method, _ in
            if method == RPCEvent.treeChanged.rawValue || method == RPCEvent.focusChanged.rawValue { self?.wake() }
        }
        client.onClose { [weak self] in self?.wake() }
        if let app = app.withLock({ $0 }) {
            let subscribe: RPCParams<RPCCatalog.EventsSubscribe.Param> = [
                .events: [.string(RPCEvent.treeChanged.rawValue)]
            ]
            var params = subscribe.object
            params[rpcAppParameter] = .string(app)
            _ = try? await client.call(RPCMethodName.eventsSubscribe.rawValue, .object(params))
        }
        let (previous, deletedMeanwhile) = state.withLock { locked -> (RPCClient?, Bool) in
            if locked.shutDown { return (nil, true) }
            let previous = locked.client
            locked.client = client
            return (previous, false)
        }
        if deletedMeanwhile {
            await client.close()
            throw ServerLink.deleted
        }
        if let previous { await previous.close() }
        return client
    }

    /// The error of every command a deleted session was still running.
    static let deleted = WebDriverError(
        "invalid session id", "the session was deleted while this command ran", data: ["reason": "session deleted"])

    /// True once the session was deleted.
    var isShutDown: Bool { state.withLock { $0.shutDown } }

    /// Calls a catalog method (Sources/AXProtocol) on the session's app (or `app`); its typed error becomes the W3C
    /// error (Specs/webdriver.md §Errors).
    func call<Spec>(
        _ method: RPCMethod<Spec>, _ params: RPCParams<Spec.Param> = [:], app named: String? = nil,
        timeout: Duration = .seconds(30)
    ) async throws(WebDriverError) -> JSON {
        var params = params.object
        if let app = named ?? app.withLock({ $0 }) { params[rpcAppParameter] = .string(app) }
        let method = method.wireName
        let client = try await client()
        do { return try await client.call(method, .object(params), timeout: timeout) } catch {
            if isShutDown { throw ServerLink.deleted }
            throw WebDriverError.from(error)
        }
    }

    /// The current change generation (read before evaluating a condition).
    var generation: Int { state.withLock { $0.generation } }

    func wake() {
        let waiters = state.withLock { locked in
            locked.generation += 1
            let waiters = Array(locked.waiters.values)
            locked.waiters.removeAll()
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when the app's tree changed after `generation` was read, or at `deadline`, whichever is first.
    func waitForChange(after generation: Int, until deadline: ContinuousClock.Instant) async {
        let key = state.withLock { locked -> Int in
            locked.nextWaiter += 1
            return locked.nextWaiter
        }
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            let waiter = state.withLock { $0.waiters.removeValue(forKey: key) }
            waiter?.resume()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { locked -> Bool in
                if locked.generation != generation || locked.shutDown { return true }
                locked.waiters[key] = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        timer.cancel()
    }

    /// Closes the connection for good (the session is deleted): pending waits end at once and pending calls fail,
    /// so the session's finds and implicit waits answer `invalid session id` instead of waiting out their timeout.
    func close() async {
        let client = state.withLock { locked -> RPCClient? in
            let client = locked.client
            locked.client = nil
            locked.shutDown = true
            return client
        }
        wake()
        if let client { await client.close() }
    }
}

/// One WebDriver session: its id, app, timeouts, current window and the parsed page source of the last
/// revision read (so XPath lookups parse the page source once per tree revision, not once per poll).
package final class DriverSession: Sendable {
    struct State {
        var timeouts = WebDriverTimeouts()
        var lastUsed = ContinuousClock.now
        var window: String?
        var page: (registration: Int, revision: Int, tree: PageTree, index: [String: Int])?
        var heldModifiers: [String] = []
    }

    /// The session id (`sessionId`).
    package let id: String
    /// The app id the session drives.
    package let app: String
    let link: ServerLink
    let state: Mutex<State>
    let capabilities: JSONObject

    init(id: String, app: String, link: ServerLink, timeouts: WebDriverTimeouts, capabilities: JSONObject) {
        self.id = id
        self.app = app
        self.link = link
        self.capabilities = capabilities
        state = Mutex(State(timeouts: timeouts))
    }

    var timeouts: WebDriverTimeouts {
        get { state.withLock { $0.timeouts } }
        set { state.withLock { $0.timeouts = newValue } }
    }

    func touch() { state.withLock { $0.lastUsed = .now } }
    var lastUsed: ContinuousClock.Instant { state.withLock { $0.lastUsed } }

    /// The page source of the app's current revision, parsed (cached per revision).
    func page() async throws(WebDriverError) -> (tree: PageTree, index: [String: Int]) {
        let revisionReply = try await link.call(.treeRevision)
        let revision = revisionReply["revision"]?.intValue ?? -1
        // The app's registration: an app that registered again under the same name starts a new page (D-REG-GEN-1).
        let registration = revisionReply["registration"]?.intValue ?? -1
        let cached = state.withLock { $0.page }.flatMap { $0.registration == registration ? $0 : nil }
        if let cached, cached.revision == revision, revision >= 0 {
            return (cached.tree, cached.index)
        }
        if let cached, revision > cached.revision, let patched = await patched(cached, to: revision) {
            state.withLock { $0.page = (registration, revision, patched, cached.index) }
            return (patched, cached.index)
        }
        let reply = try await link.call(.treeGet, [.format: "xml"])
        guard let xml = reply["xml"]?.stringValue else {
            throw WebDriverError("unknown error", "tree.get answered without xml")
        }
        let tree: PageTree
        do { tree = try PageTree(xml: Array(xml.utf8)) } catch {
            throw WebDriverError("unknown error", "the page source does not parse: \(error)")
        }
        var index: [String: Int] = [:]
        index.reserveCapacity(tree.count)
        for element in 0..<tree.count {
            if let axid = tree.attribute(element, "axid") { index[axid] = element }
        }
        state.withLock { $0.page = (registration, revision, tree, index) }
        return (tree, index)
    }

    /// The most elements one change may update and still be patched into the parsed page.
    static let maxPatchedElements = 64

    /// The parsed page of `cached.revision` brought to `revision` when the change between them moved nothing
    /// (no element added, removed or moved, no window change) and updated at most `maxPatchedElements` elements:
    /// their attributes are rebuilt from `element.get` as the page source writes them (AXQuery's TreeXML), so a
    /// live app whose labels and values tick is not re-read whole after every change. Nil: read the page again.
    func patched(
        _ cached: (registration: Int, revision: Int, tree: PageTree, index: [String: Int]), to revision: Int
    ) async -> PageTree? {
        guard
            let diff = try? await link.call(
                .treeDiff, [.fromRevision: JSON(cached.revision), .toRevision: JSON(revision)]),
            diff["added"]?.arrayValue?.isEmpty == true, diff["removed"]?.arrayValue?.isEmpty == true,
            diff["moved"]?.arrayValue?.isEmpty == true, diff["windowsChanged"]?.boolValue != true,
            let updated = diff["updated"]?.objectValue, updated.count <= DriverSession.maxPatchedElements
        else { return nil }
        var tree = cached.tree
        for (id, _) in updated {
            guard let index = cached.index[id],
                let element = try? await link.call(.elementGet, [.target: ["id": .string(id)]]),
                element["role"]?.stringValue == tree.attribute(index, "role")
            else { return nil }
            tree.attributes[index] = PageTree.pageAttributes(
                of: element, type: tree.attribute(index, "type") ?? "", index: tree.attribute(index, "index"))
        }
        return tree
    }
}
