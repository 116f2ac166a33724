import AXCore
import AXJSON
import AXJSONRPC
import AXProtocol
import AXQuery
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
        client.decodeFrames(with: PageSourceReply.decode)
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
    ) async throws(WebDriverError) -> RPCReply<Spec.Member> {
        var params = params.object
        if let app = named ?? app.withLock({ $0 }) { params[rpcAppParameter] = .string(app) }
        let method = method.wireName
        let client = try await client()
        do { return RPCReply(try await client.call(method, .object(params), timeout: timeout)) } catch {
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

/// The page source of one revision of an app, parsed, with the element index of each `axid`.
struct ParsedPage: Sendable {
    /// The app's registration (an app that registered again under the same name starts a new page, D-REG-GEN-1).
    var registration: Int
    var revision: Int
    var tree: PageTree
    var index: [String: Int]
}

/// One WebDriver session: its id, app, timeouts, current window and the parsed page source of the last
/// revision read (so XPath lookups parse the page source once per tree revision, not once per poll).
package final class DriverSession: Sendable {
    struct State {
        var timeouts = WebDriverTimeouts()
        var lastUsed = ContinuousClock.now
        var window: String?
        var page: ParsedPage?
        /// How often the page source was read whole and how often a change was patched into the parsed page
        /// (tests check which way a change went).
        var pageReads = 0
        var pagePatches = 0
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

    /// The page source of the app's current revision, parsed (cached per revision; a change since the cached
    /// revision is patched into it when `patched` can, else the page source is read again).
    func page() async throws(WebDriverError) -> (tree: PageTree, index: [String: Int]) {
        let revisionReply = try await link.call(.treeRevision)
        let revision = revisionReply[.revision]?.intValue ?? -1
        let registration = revisionReply[.registration]?.intValue ?? -1
        let cached = state.withLock { $0.page }.flatMap { $0.registration == registration ? $0 : nil }
        if let cached, cached.revision == revision, revision >= 0 {
            return (cached.tree, cached.index)
        }
        // The automation-only elements of this revision (a server that does not say is asked by `query.count`).
        let automationOnly = revisionReply[.automationOnly]?.intValue
        if let cached, revision > cached.revision,
            let patched = await patched(cached, to: revision, automationOnly: automationOnly)
        {
            state.withLock {
                $0.page = ParsedPage(
                    registration: registration, revision: revision, tree: patched.tree, index: patched.index)
                $0.pagePatches += 1
            }
            return patched
        }
        let reply = try await link.call(.treeGet, [.format: "xml"])
        guard let xml = PageSourceReply.utf8(reply.json) else {
            throw WebDriverError("unknown error", "tree.get answered without xml")
        }
        let tree: PageTree
        do { tree = try PageTree(xml: xml) } catch {
            throw WebDriverError("unknown error", "the page source does not parse: \(error)")
        }
        var index: [String: Int] = [:]
        index.reserveCapacity(tree.count)
        for element in 0..<tree.count {
            if let axid = tree.axid(element) { index[axid] = element }
        }
        // The revision the page source is of (the app may have moved on since `tree.revision`).
        let read = reply[.revision]?.intValue ?? revision
        state.withLock {
            $0.page = ParsedPage(registration: registration, revision: read, tree: tree, index: index)
            $0.pageReads += 1
        }
        return (tree, index)
    }

    /// The most elements one change may need read (`element.get`) and still be patched into the parsed page.
    static let maxPatchedElements = 64

    /// The parsed page of `cached.revision` brought to `revision` from the change between them (`tree.diff`,
    /// issue 35 item 5): elements added, removed or moved, and elements whose page attributes changed, read with
    /// `element.get` (at most `maxPatchedElements`; each answer must be of `revision`) — their attributes as the
    /// page source writes them (AXQuery's TreeXML) and, for the new ones and those whose children changed, their
    /// children — then the page is walked again in document order (`PageTree.patched`), so a live app that
    /// inserts a row is not re-read whole. Nil (read the page again): a window change, a page with automation-only
    /// elements (built per request, never in `tree.diff`; D-AUTO-1) before or after, a type that depends on the
    /// view class of a new element, anything that does not add up. `automationOnly` is `tree.revision`'s count of
    /// them at `revision` (nil: asked here).
    func patched(_ cached: ParsedPage, to revision: Int, automationOnly: Int?) async -> (
        tree: PageTree, index: [String: Int]
    )? {
        guard cached.tree.automationOnlyCount == 0,
            let diff = try? await link.call(
                .treeDiff, [.fromRevision: JSON(cached.revision), .toRevision: JSON(revision)]),
            diff[.windowsChanged]?.boolValue == false, let added = Self.strings(diff[.added]),
            let removed = Self.strings(diff[.removed]), let updated = diff[.updated]?.objectValue
        else { return nil }
        var reads = Set(added)
        for (id, keys) in updated {
            guard let keys = Self.strings(keys) else { return nil }
            if Self.changesPage(keys) { reads.insert(id) }
        }
        guard reads.count <= Self.maxPatchedElements else { return nil }
        if let automationOnly {
            guard automationOnly == 0 else { return nil }
        } else {
            guard await hasNoAutomationOnlyElements(at: revision) else { return nil }
        }
        if reads.isEmpty && removed.isEmpty { return (cached.tree, cached.index) }
        let newIDs = Set(added)
        var patches: [String: PageElementPatch] = [:]
        for id in reads.sorted() {
            let keys = updated[id].flatMap { Self.strings($0) } ?? []
            guard
                let patch = await readPatch(
                    id, of: cached, at: revision, isNew: newIDs.contains(id), keys: Set(keys))
            else { return nil }
            patches[id] = patch
        }
        if added.isEmpty && removed.isEmpty && patches.values.allSatisfy({ $0.children == nil }) {
            return cached.tree.updated(patches, index: cached.index).map { ($0, cached.index) }
        }
        return cached.tree.patched(patches, removed: Set(removed), index: cached.index)
    }

    /// Element `id` as a patch of the page (`element.get` at `revision`): its page attributes, and its children when
    /// it is new or they changed. Nil when it is not of `revision`, is automation-only or its type is not known.
    func readPatch(_ id: String, of cached: ParsedPage, at revision: Int, isNew: Bool, keys: Set<String>) async
        -> PageElementPatch?
    {
        let parsed = cached.index[id]
        guard isNew == (parsed == nil),
            let element = try? await link.call(.elementGet, [.target: ["id": .string(id)]]),
            element[.revision]?.intValue == revision, element[.removed] == nil,
            element[.id]?.stringValue == id, let role = element[.role]?.stringValue,
            let states = Self.strings(element[.states] ?? []), !states.contains("automationOnly")
        else { return nil }
        var type = Self.pageType(role: role)
        if type == nil, let parsed, cached.tree.attribute(parsed, "role") == role,
            keys.isDisjoint(with: ["role", "other", "replaced"])
        {
            type = cached.tree.attribute(parsed, "type")
        }
        guard let type else { return nil }
        var children: [String]?
        if isNew || !keys.isDisjoint(with: ["children", "replaced"]) {
            guard let ids = Self.strings(element[.children] ?? []) else { return nil }
            children = ids
        }
        let index = parsed.flatMap { cached.tree.attribute($0, "index") } ?? "0"
        return PageElementPatch(
            attributes: PageTree.pageAttributes(of: element.json, type: type, index: index), children: children,
            isNew: isNew)
    }

    /// True when the app's tree at `revision` has no automation-only elements (`query.count`, for a server whose
    /// `tree.revision` does not say: it indexes the tree, about 20 ms at 10,000 elements), so `tree.diff` names
    /// every element of its page source.
    func hasNoAutomationOnlyElements(at revision: Int) async -> Bool {
        let params: RPCParams<RPCCatalog.QueryCount.Param> = [.selector: "*:state(automationOnly)"]
        guard let reply = try? await link.call(.queryCount, params) else { return false }
        return reply[.revision]?.intValue == revision && reply[.count]?.intValue == 0
    }

    /// The change keys of `tree.diff` that never alter the page source (what it writes: type, name, label, value,
    /// enabled, visible, frame, index, role, axid); any other key, or one not known here, means the element is read.
    static let keysOutsidePage: Set<String> = [
        "hint", "traits", "activationPoint", "actions", "rotors", "numeric", "text", "headingLevel", "language",
        "placeholder", "position", "table", "indentationLevel", "isPagingEnabled", "selectedTextRange",
        "textAttributes", "readingContent",
    ]
    /// The states the page source writes (`state.NAME` change keys).
    static let statesInPage: Set<String> = ["state.enabled", "state.onscreen", "state.automationOnly"]

    /// Whether a change of these keys (one element's `updated` entry of `tree.diff`) may alter its page source.
    static func changesPage(_ keys: [String]) -> Bool {
        let stateKeys = keys.filter { $0.hasPrefix("state.") }
        if keys.contains("states") && stateKeys.isEmpty { return true }
        return keys.contains { key in
            if key == "states" { return false }
            if key.hasPrefix("state.") { return statesInPage.contains(key) }
            return !keysOutsidePage.contains(key)
        }
    }

    /// The page source's element type of `role` when it does not depend on the view class (every role but `list`
    /// and `adjustable`, AXQuery's TreeXML); nil for those and for a role not known here.
    static func pageType(role: String) -> String? {
        guard let role = AXRole(rawValue: role), role != .list, role != .adjustable else { return nil }
        return TreeXML.typeName(
            AXNode(id: "", viewID: nil, className: "", viewClass: .view, role: role, isElement: true, windowID: ""))
    }

    /// The strings of a JSON array; nil when it is not an array of strings.
    static func strings(_ value: JSON?) -> [String]? {
        guard let array = value?.arrayValue else { return nil }
        var out: [String] = []
        out.reserveCapacity(array.count)
        for item in array {
            guard let string = item.stringValue else { return nil }
            out.append(string)
        }
        return out
    }
}
