import AXCore
import AXHub
import AXJSON
import AXQuery
import Synchronization

/// Where every JSON-RPC method is answered (Specs/protocol.md). Transport-independent: the socket server and
/// the in-process conformance runner install the same table on an `RPCRouter`.
package enum AXMethods {
    package static let protocolVersion = "1.0"
    package static let serverVersion = "0.1.0"

    /// Session attachment keys.
    static let appKey = "ax.app"
    static let subsKey = "ax.subscriptions"

    package static func install(on router: RPCRouter, hub: Hub, options: MethodOptions = MethodOptions()) {
        installLifecycle(router, hub, options)
        installProvider(router, hub)
        installTree(router, hub)
        installQuery(router, hub)
        installActions(router, hub)
        installFocusAndWait(router, hub)
        installEvents(router, hub)
        installPolicy(router, hub, options)
        installAudit(router, hub)
        installSpeech(router, hub)
        installRender(router, hub, options)
        FocusMethods.install(router, hub)
        RotorMethods.install(router, hub)
        InputMethods.install(router, hub)
    }

    static func app(_ p: Params, _ hub: Hub, _ session: RPCSession) throws(RPCError) -> String {
        let explicit = try p.string("app") ?? session.attachment(appKey, as: String.self)
        do { return try hub.resolveApp(explicit) } catch { throw RPCError.from(error) }
    }

    static func snapshot(_ p: Params, _ hub: Hub, _ session: RPCSession) throws(RPCError) -> AppSnapshot {
        let a = try app(p, hub, session)
        do { return try hub.snapshot(a) } catch { throw RPCError.from(error) }
    }

    static func changeJSON(_ cs: ChangeSet) -> JSON {
        var upd = JSONObject()
        for id in cs.updated.keys.sorted() { upd[id] = JSON(cs.updated[id]!.sorted()) }
        return [
            "fromRevision": JSON(cs.fromRevision), "toRevision": JSON(cs.toRevision), "added": JSON(cs.added),
            "removed": JSON(cs.removed), "moved": JSON(cs.moved), "updated": .object(upd),
            "windowsChanged": .bool(cs.windowsChanged),
        ]
    }

    // MARK: - Lifecycle

    static func installLifecycle(_ r: RPCRouter, _ hub: Hub, _ options: MethodOptions) {
        // Weak: the router holds this handler, so a strong capture kept every router and its hub alive forever.
        r.registerSync("initialize", requiresInit: false) { [weak r] params, session in
            let p = try Params(params, method: "initialize")
            if let clientName = p["clientInfo"]?["name"]?.stringValue {
                session[attachment: Roles.clientNameKey] = String(clientName.prefix(64))
            }
            if let role = try p.string("role") {
                guard [Roles.provider, Roles.automation, Roles.operator].contains(role) else {
                    throw p.bad("role", "must be provider, automation or operator")
                }
                if role == Roles.operator {
                    try Roles.authenticateOperator(p, options: options, session: session)
                }
                session.role = role
            } else if session.role == nil {
                session.role = "automation"
            }
            session.initialized = true
            return [
                "protocolVersion": .string(protocolVersion),
                "serverInfo": ["name": "axserver", "version": .string(serverVersion)],
                "capabilities": [
                    "methods": JSON(r?.methods ?? []), "treeFormats": ["json", "text", "xml"],
                    "events": JSON(EventNames.all),
                ],
            ]
        }
        r.registerSync("ping", requiresInit: false) { _, _ in .string("pong") }
        // LSP's cancellation: a notification naming the id of a running concurrent request (wait.for), which then
        // answers -32800 (D-PROTO-1). Unknown or finished ids are ignored, as LSP says.
        r.registerSync("$/cancelRequest") { params, session in
            let p = try Params(params, method: "$/cancelRequest")
            guard let id = p["id"], id.stringValue != nil || id.doubleValue != nil else {
                throw p.bad("id", "is required: the id of the request to cancel")
            }
            return ["cancelled": .bool(session.inFlight.cancel(id: id))]
        }
        r.registerSync("shutdown") { _, _ in .null }
        r.registerSync("apps.list") { _, _ in
            .array(
                hub.snapshots().map { s in
                    [
                        "id": .string(s.id), "name": .string(s.name), "revision": JSON(s.revision),
                        "windows": JSON(s.tree.windows),
                        "elements": JSON(s.tree.count), "focused": JSON(s.focusedID),
                    ]
                })
        }
    }

    // MARK: - Provider role

    static func installProvider(_ r: RPCRouter, _ hub: Hub) {
        r.registerSync("app.register") { params, session in
            let p = try Params(params, method: "app.register")
            let name = try p.requiredString("name")
            guard !name.isEmpty, name.utf8.count <= 256 else { throw p.bad("name", "must be 1…256 bytes") }
            if let existing = session.attachment(appKey, as: String.self) {
                throw RPCError.invalidRequest(
                    "this connection already registered app '\(existing)'", data: ["app": .string(existing)])
            }
            let provider = RemoteProvider(peer: session.peer)
            let id = hub.registerApp(name: name, provider: provider)
            session[attachment: appKey] = id
            session.role = "provider"
            // A provider that disconnects takes its app away everywhere; pending calls fail (RPCPeer contract).
            session.peer.onClose { hub.removeApp(id) }
            return ["app": .string(id)]
        }
        r.registerSync("hierarchy.set") { params, session in
            let p = try Params(params, method: "hierarchy.set")
            let a = try Roles.ownApp(p, hub, session)
            do {
                let cs = try hub.setSnapshot(app: a, .object(p.json))
                return [
                    "app": .string(a), "revision": JSON(cs.toRevision),
                    "elements": JSON((try? hub.snapshot(a).tree.count) ?? 0),
                ]
            } catch let e as PatchError { throw RPCError.from(e) } catch let e as HubError { throw RPCError.from(e) }
        }
        r.registerSync("hierarchy.update") { params, session in
            let p = try Params(params, method: "hierarchy.update")
            let a = try Roles.ownApp(p, hub, session)
            guard let ops = p["ops"] else { throw p.bad("ops", "is required (an array of insert/remove/move/set ops)") }
            if let base = try p.int("baseRevision", in: ParamRange.revision), let cur = try? hub.snapshot(a).revision,
                base != cur
            {
                throw RPCError.contentModified(
                    "the tree is at revision \(cur), not \(base)",
                    data: ["revision": JSON(cur), "baseRevision": JSON(base)])
            }
            do {
                let cs = try hub.update(app: a, ops: ops)
                return ["app": .string(a), "revision": JSON(cs.toRevision), "changes": changeJSON(cs)]
            } catch let e as PatchError { throw RPCError.from(e) } catch let e as HubError { throw RPCError.from(e) }
        }
        r.registerSync("accessibility.post") { params, session in
            let p = try Params(params, method: "accessibility.post")
            let a = try Roles.ownApp(p, hub, session)
            let n: AccessibilityNotification
            do { n = try AccessibilityNotification.decode(.object(p.json)) } catch { throw RPCError.from(error) }
            do { try hub.post(app: a, n) } catch { throw RPCError.from(error) }
            return ["posted": .string(n.name)]
        }
    }

    // MARK: - Tree

    static func installTree(_ r: RPCRouter, _ hub: Hub) {
        r.registerSync("tree.get", offLoop: Targets.usesRegex) { params, session in
            let p = try Params(params, method: "tree.get")
            let snap = try snapshot(p, hub, session)
            let format = try p.string("format") ?? "json"
            var rootID: String?
            if let t = p["root"] { rootID = try Targets.resolveOne(t, in: snap, hub: hub, method: "tree.get") }
            let depth = try p.int("depth", in: ParamRange.count)
            let maxChildren = try p.int("maxChildren", in: ParamRange.count)
            var out: JSONObject = ["app": .string(snap.id), "revision": JSON(snap.revision), "format": .string(format)]
            switch format {
            case "json":
                var truncated: [JSON] = []
                var count = 0
                func node(_ id: String, _ d: Int) -> JSON? {
                    guard let n = snap.tree[id] else { return nil }
                    count += 1
                    var o = ElementJSON.encode(n, focusedID: snap.focusedID, childIDs: false)
                    if !n.children.isEmpty {
                        if let depth, d >= depth {
                            o["truncated"] = ["kind": "depth", "omitted": JSON(n.children.count)]
                            truncated.append(["id": .string(id), "kind": "depth", "omitted": JSON(n.children.count)])
                        } else {
                            let limit = maxChildren ?? Int.max
                            let kids = n.children.prefix(limit).compactMap { node($0, d + 1) }
                            o.appendUnchecked("children", .array(kids))
                            if n.children.count > limit {
                                o["truncated"] = ["kind": "children", "omitted": JSON(n.children.count - limit)]
                                truncated.append([
                                    "id": .string(id), "kind": "children", "omitted": JSON(n.children.count - limit),
                                ])
                            }
                        }
                    }
                    return .object(o)
                }
                let roots = rootID.map { [$0] } ?? snap.tree.windows
                out["windows"] = .array(roots.compactMap { node($0, 0) })
                out["count"] = JSON(count)
                out["truncated"] = .array(truncated)
            case "text":
                out["text"] = .string(
                    TreeText.render(snap.tree, root: rootID, frames: try p.bool("frames") ?? false, depth: depth))
            case "xml":
                out["xml"] = .string(XMLPageSource.xml(snap.tree))
            default:
                throw p.bad("format", "must be json, text or xml")
            }
            return .object(out)
        }
        r.registerSync("tree.diff") { params, session in
            let p = try Params(params, method: "tree.diff")
            let a = try app(p, hub, session)
            guard let from = try p.int("fromRevision", in: ParamRange.revision) else {
                throw p.bad("fromRevision", "is required")
            }
            do {
                return changeJSON(
                    try hub.changes(app: a, from: from, to: try p.int("toRevision", in: ParamRange.revision)))
            } catch let e as HubError { throw RPCError.from(e) }
        }
        r.registerSync("tree.revision") { params, session in
            let p = try Params(params, method: "tree.revision")
            let s = try snapshot(p, hub, session)
            return ["app": .string(s.id), "revision": JSON(s.revision)]
        }
        r.registerSync("element.get", offLoop: Targets.usesRegex) { params, session in
            let p = try Params(params, method: "element.get")
            let snap = try snapshot(p, hub, session)
            guard let t = p["target"] else { throw p.bad("target", "is required ({id} or {selector})") }
            let id = try Targets.resolveOne(t, in: snap, hub: hub, method: "element.get")
            return .object(elementDetail(id, snap))
        }
    }

    static func elementDetail(_ id: String, _ snap: AppSnapshot) -> JSONObject {
        let n = snap.tree[id]!
        var o = ElementJSON.encode(n, focusedID: snap.focusedID)
        o["hittable"] = .bool(HitTesting.isHittable(id, tree: snap.tree, views: snap.views))
        o["visible"] = .bool(n.isOnscreen && !n.frame.isEmpty)
        o["focused"] = .bool(snap.focusedID == id)
        o["revision"] = JSON(snap.revision)
        o["app"] = .string(snap.id)
        o["ancestors"] = JSON(snap.tree.ancestors(of: id))
        if let i = snap.tree.indexInParent(id) { o["index"] = JSON(i) }
        return o
    }

    // MARK: - Query

    static func installQuery(_ r: RPCRouter, _ hub: Hub) {
        @Sendable func common(_ params: JSON?, _ session: RPCSession, _ method: String) throws(RPCError) -> (
            Params, AppSnapshot, Selector, String?
        ) {
            let p = try Params(params, method: method)
            let snap = try snapshot(p, hub, session)
            guard let s = p["selector"] ?? p["ast"].map({ JSON.object(["ast": $0]) }) else {
                throw p.bad("selector", "is required")
            }
            let sel = try Targets.selector(from: s, param: "selector", method: method)
            var root: String?
            if let rt = p["root"] { root = try Targets.resolveOne(rt, in: snap, hub: hub, method: method) }
            return (p, snap, sel, root)
        }
        r.registerSync("query.find", offLoop: Targets.usesRegex) { params, session in
            let (p, snap, sel, root) = try common(params, session, "query.find")
            let limit = try p.int("limit", in: ParamRange.count)
            // limit ≤ 2^53 − 1, so one more (to tell whether the answer was truncated) cannot overflow.
            let ids = try Targets.find(sel, in: snap, root: root, limit: limit.map { $0 + 1 })
            let shown = limit.map { Array(ids.prefix($0)) } ?? ids
            var out: JSONObject = [
                "revision": JSON(snap.revision), "selector": .string(sel.canonical), "count": JSON(shown.count),
                "elements": .array(
                    shown.compactMap {
                        snap.tree[$0].map { .object(ElementJSON.encode($0, focusedID: snap.focusedID)) }
                    }),
            ]
            if let limit, ids.count > limit { out["truncated"] = ["kind": "limit", "limit": JSON(limit)] }
            return .object(out)
        }
        r.registerSync("query.one", offLoop: Targets.usesRegex) { params, session in
            let (p, snap, sel, root) = try common(params, session, "query.one")
            _ = p
            let id = try Targets.resolveOne(.string(sel.canonical), in: snap, hub: hub, method: "query.one", root: root)
            return .object(elementDetail(id, snap))
        }
        r.registerSync("query.count", offLoop: Targets.usesRegex) { params, session in
            let (_, snap, sel, root) = try common(params, session, "query.count")
            return [
                "count": JSON(try Targets.find(sel, in: snap, root: root, limit: nil).count),
                "revision": JSON(snap.revision),
            ]
        }
        r.registerSync("query.explain", offLoop: Targets.usesRegex) { params, session in
            let (_, snap, sel, _) = try common(params, session, "query.explain")
            return try Targets.nearMisses(sel, in: snap)
        }
    }

    // MARK: - Actions

    static let actionMethods: [(String, String)] = [
        ("action.activate", "activate"), ("action.increment", "increment"), ("action.decrement", "decrement"),
        ("action.scroll", "scroll"), ("action.escape", "escape"), ("action.magicTap", "magicTap"),
        ("action.custom", "custom"), ("action.setValue", "setValue"), ("action.typeText", "typeText"),
    ]

    static func installActions(_ r: RPCRouter, _ hub: Hub) {
        for (method, action) in actionMethods {
            r.register(method) { params, session in
                let p = try Params(params, method: method)
                let snap = try snapshot(p, hub, session)
                var id: String?
                if let t = p["target"] {
                    id = try Targets.resolveOne(t, in: snap, hub: hub, method: method)
                } else if action == "escape" || action == "magicTap" {
                    id = snap.focusedID  // X32, X33: start from the focused element, else the app
                } else {
                    throw p.bad("target", "is required ({id} or {selector})")
                }
                let requested = try elementAction(named: action, p)
                if let id, let node = snap.tree[id], !requested.bubblesToApp, try p.bool("force") != true {
                    try checkActionable(node, requested, snap)
                }
                let before = snap.revision
                let handled: Bool
                do {
                    handled = try await hub.perform(app: snap.id, element: id, action: requested)
                } catch { throw RPCError.from(error) }
                let after = (try? hub.snapshot(snap.id).revision) ?? before
                return [
                    "performed": .bool(handled), "element": JSON(id), "revisionBefore": JSON(before),
                    "revisionAfter": JSON(after),
                ]
            }
        }
        r.register("action.tap") { params, session in
            let p = try Params(params, method: "action.tap")
            let snap = try snapshot(p, hub, session)
            let point: Point
            if let pt = p["point"] {
                guard let x = pt["x"]?.doubleValue ?? pt[0]?.doubleValue,
                    let y = pt["y"]?.doubleValue ?? pt[1]?.doubleValue
                else {
                    throw p.bad("point", "must be {x, y} or [x, y]")
                }
                point = Point(x: x, y: y)
            } else if let t = p["target"] {
                let id = try Targets.resolveOne(t, in: snap, hub: hub, method: "action.tap")
                point = snap.tree[id]!.activationPoint
            } else {
                throw p.bad("target", "or 'point' is required")
            }
            // Through hit testing: the tap goes to whatever view is at the point (R111–R114).
            let element: String
            let hitView: String
            switch ActionRouting.tapTarget(at: point, tree: snap.tree, views: snap.views) {
            case .nothing:
                throw RPCError.notInteractable(
                    "nothing at (\(point.x), \(point.y)) receives touches", data: ["reason": "not hittable"])
            case .notAnElement(let view):
                throw RPCError.notInteractable(
                    "the view '\(view)' at that point is not part of an accessibility element",
                    data: ["reason": "notAccessibilityElement", "view": .string(view)])
            case .element(let tapped, let view):
                element = tapped
                hitView = view
            }
            do {
                let handled = try await hub.perform(app: snap.id, element: element, action: .activate)
                return ["performed": .bool(handled), "element": .string(element), "view": .string(hitView)]
            } catch { throw RPCError.from(error) }
        }
    }

    /// −32013 naming the first actionability check `node` fails for `action` (D-ACT-2).
    static func checkActionable(_ node: AXNode, _ action: ElementAction, _ snap: AppSnapshot) throws(RPCError) {
        let id = node.id
        switch ActionRouting.actionabilityFailure(of: node, for: action, tree: snap.tree, views: snap.views) {
        case nil:
            return
        case .offscreen:
            throw RPCError.notInteractable(
                "'\(id)' is not visible on screen", data: ["reason": "offscreen", "id": .string(id)])
        case .disabled:
            throw RPCError.notInteractable("'\(id)' is disabled", data: ["reason": "disabled", "id": .string(id)])
        case .notHittable(let obscuredBy):
            var data: JSONObject = ["reason": "not hittable", "id": .string(id)]
            if let obscuredBy {
                data["obscuredBy"] = .string(obscuredBy)
            }
            throw RPCError.notInteractable("a tap at '\(id)''s activation point does not reach it", data: data)
        }
    }

    /// The typed action an `action.*` method asks for, from its params (`value`, `text`, `name`, `direction`).
    static func elementAction(named action: String, _ p: Params) throws(RPCError) -> ElementAction {
        switch action {
        case "activate": return .activate
        case "increment": return .increment
        case "decrement": return .decrement
        case "escape": return .escape
        case "magicTap": return .magicTap
        case "setValue":
            guard let value = p["value"] else { throw p.bad("value", "is required") }
            return .setValue(value)
        case "typeText":
            var text = try p.string("text")
            if text == nil {
                text = try p.string("value")
            }
            guard let text else { throw p.bad("text", "is required") }
            return .typeText(text)
        case "custom":
            var idOrName = try p.string("name")
            if idOrName == nil {
                idOrName = try p.string("action")
            }
            guard let idOrName else {
                throw p.bad("name", "is required (a custom action id or name)")
            }
            return .custom(idOrName)
        case "scroll":
            let directions = ScrollDirection.allCases.map(\.rawValue)
            guard let direction = try p.string("direction").flatMap(ScrollDirection.init(rawValue:)) else {
                throw p.bad("direction", "must be one of \(directions.joined(separator: ", ")) (X40)")
            }
            return .scroll(direction)
        default:
            throw RPCError.internalError("no action '\(action)' in the action method table")
        }
    }

    // MARK: - Focus and waits

    static func installFocusAndWait(_ r: RPCRouter, _ hub: Hub) {
        r.registerSync("focus.get") { params, session in
            let p = try Params(params, method: "focus.get")
            let snap = try snapshot(p, hub, session)
            guard let f = snap.focusedID, let n = snap.tree[f] else {
                return ["element": .null, "app": .string(snap.id)]
            }
            return ["element": .object(ElementJSON.encode(n, focusedID: f)), "app": .string(snap.id)]
        }
        r.registerSync("focus.set", offLoop: Targets.usesRegex) { params, session in
            let p = try Params(params, method: "focus.set")
            let snap = try snapshot(p, hub, session)
            var id: String?
            if let t = p["target"] { id = try Targets.resolveOne(t, in: snap, hub: hub, method: "focus.set") }
            do { try hub.setFocus(app: snap.id, element: id) } catch { throw RPCError.from(error) }
            return ["focused": JSON(id)]
        }
        // Concurrent (D-PROTO-1): a wait does not hold back the connection's later requests; `$/cancelRequest`
        // ends it with -32800.
        r.register("wait.for", concurrent: true) { params, session in
            let p = try Params(params, method: "wait.for")
            let a = try app(p, hub, session)
            guard let target = p["target"] else { throw p.bad("target", "is required") }
            let state = try p.string("state") ?? "attached"
            let states = [
                "attached", "detached", "visible", "hidden", "hittable", "enabled", "disabled", "focused", "value",
                "label",
            ]
            guard states.contains(state) else {
                throw p.bad("state", "must be one of \(states.joined(separator: ", "))")
            }
            let expected = try p.string("value")
            if (state == "value" || state == "label") && expected == nil {
                throw p.bad("value", "is required for state '\(state)'")
            }
            let timeout = try p.timeout()
            let clock = ContinuousClock()
            let start = clock.now
            var lastState: JSON = .null
            while true {
                let snap: AppSnapshot
                do { snap = try hub.snapshot(a) } catch {
                    if state == "detached" {
                        return ["state": .string(state), "satisfied": true, "reason": "app removed"]
                    }
                    throw RPCError.appNotResponding("the app went away while waiting", data: ["reason": "disconnected"])
                }
                var found: String?
                do { found = try Targets.resolveOne(target, in: snap, hub: hub, method: "wait.for") } catch {
                    let e = RPCError.from(error)
                    if e.code == RPCError.Code.invalidSelector || e.code == RPCError.Code.ambiguousMatch { throw e }
                }
                let n = found.flatMap { snap.tree[$0] }
                let ok: Bool
                switch state {
                case "attached": ok = n != nil
                case "detached": ok = n == nil
                case "visible": ok = n.map { $0.isOnscreen && !$0.frame.isEmpty } ?? false
                case "hidden": ok = n.map { !$0.isOnscreen || $0.frame.isEmpty } ?? true
                case "hittable":
                    ok = found.map { HitTesting.isHittable($0, tree: snap.tree, views: snap.views) } ?? false
                case "enabled": ok = n?.isEnabled ?? false
                case "disabled": ok = n.map { !$0.isEnabled } ?? false
                case "focused": ok = found != nil && snap.focusedID == found
                case "value": ok = n?.value == expected
                default: ok = n?.label == expected
                }
                lastState = n.map { .object(ElementJSON.encode($0, focusedID: snap.focusedID)) } ?? .null
                let waited = clock.now - start
                let waitedMs = Int(
                    waited.components.seconds * 1000 + waited.components.attoseconds / 1_000_000_000_000_000)
                if ok {
                    var out: JSONObject = [
                        "state": .string(state), "satisfied": true, "revision": JSON(snap.revision),
                        "waitedMs": JSON(waitedMs),
                    ]
                    if let n { out["element"] = .object(ElementJSON.encode(n, focusedID: snap.focusedID)) }
                    return .object(out)
                }
                let remaining = timeout - waited
                if remaining <= .zero {
                    throw RPCError.timeout(
                        "timed out after \(waitedMs) ms waiting for \(state)",
                        data: [
                            "waitedFor": .string(state), "target": target, "lastState": lastState,
                            "revision": JSON(snap.revision), "waitedMs": JSON(waitedMs),
                        ])
                }
                _ = await hub.awaitChange(app: a, after: snap.revision, timeout: remaining, includeFocus: true)
                if Task.isCancelled {
                    throw CancellationError()
                }
            }
        }
    }

    // MARK: - Events

    static func installEvents(_ r: RPCRouter, _ hub: Hub) {
        r.registerSync("events.subscribe") { params, session in
            let p = try Params(params, method: "events.subscribe")
            let names = try p.stringList("events") ?? EventNames.all
            for n in names where !EventNames.all.contains(n) {
                throw p.bad("events", "has unknown event '\(n)' (known: \(EventNames.all.joined(separator: ", ")))")
            }
            var requestedApp = try p.string("app")
            if let a = requestedApp {
                do { requestedApp = try hub.resolveApp(a) } catch { throw RPCError.from(error) }
            }
            let appFilter = requestedApp
            let wanted = Set(names)
            let peer = session.peer
            let subID = Subscriptions.nextID()
            let token = hub.subscribe { event in
                guard !peer.isClosed else { return }
                EventNames.deliver(event, wanted: wanted, appFilter: appFilter, subscription: subID, peer: peer)
            }
            session.withAttachments { bag in
                var subs = bag[subsKey] as? [UInt64: UInt64] ?? [:]
                subs[subID] = token
                bag[subsKey] = subs
            }
            peer.onClose { hub.unsubscribe(token) }
            return ["subscription": JSON(Int(subID)), "events": JSON(names.sorted())]
        }
        r.registerSync("events.unsubscribe") { params, session in
            let p = try Params(params, method: "events.unsubscribe")
            guard let sid = try p.int("subscription", in: ParamRange.subscription) else {
                throw p.bad("subscription", "is required")
            }
            let token: UInt64? = session.withAttachments { bag in
                var subs = bag[subsKey] as? [UInt64: UInt64] ?? [:]
                let t = subs.removeValue(forKey: UInt64(sid))
                bag[subsKey] = subs
                return t
            }
            guard let token else { throw p.bad("subscription", "is not an active subscription of this connection") }
            hub.unsubscribe(token)
            return ["unsubscribed": JSON(sid)]
        }
    }
}

enum Subscriptions {
    private static let counter = Atomic<UInt64>(1)
    static func nextID() -> UInt64 { counter.add(1, ordering: .relaxed).oldValue }
}

/// Event notifications sent to subscribers (Specs/protocol.md §Events).
package enum EventNames {
    package static let all = [
        "tree.changed", "focus.changed", "a11y.announcement", "a11y.layoutChanged", "a11y.screenChanged",
        "a11y.pageScrolled", "a11y.pauseAssistiveTechnology", "a11y.resumeAssistiveTechnology",
        "app.added", "app.removed", "policy.changed", "focus.movementFailed",
    ]

    static func deliver(_ e: HubEvent, wanted: Set<String>, appFilter: String?, subscription: UInt64, peer: any RPCPeer)
    {
        func send(_ name: String, _ app: String?, _ body: JSONObject) {
            guard wanted.contains(name) else { return }
            if let appFilter, let app, appFilter != app { return }
            var o = body
            o["subscription"] = JSON(Int(subscription))
            if let app { o["app"] = .string(app) }
            peer.notify(name, .object(o))
        }
        switch e {
        case .appAdded(let a): send("app.added", a, [:])
        case .appRemoved(let a): send("app.removed", a, [:])
        case .treeChanged(let a, let cs, _):
            send(
                "tree.changed", a,
                [
                    "revision": JSON(cs.toRevision), "fromRevision": JSON(cs.fromRevision), "added": JSON(cs.added),
                    "removed": JSON(cs.removed), "moved": JSON(cs.moved), "updated": JSON(cs.updated.keys.sorted()),
                ])
        case .focusChanged(let a, let from, let to):
            send("focus.changed", a, ["focus": "accessibility", "from": JSON(from), "to": JSON(to)])
        case .engineFocus(let a, let event): send(event.eventName, a, event.body)
        case .notification(let a, let n):
            var body = n.json.objectValue ?? [:]
            body["notification"] = nil
            send("a11y." + n.name, a, body)
        case .restrictionChanged(let app, let id, let denied, let source, let actor):
            send(
                "policy.changed", app,
                [
                    "restriction": .string(id), "state": .string(denied ? "deny" : "allow"),
                    "source": .string(source.rawValue), "by": .string(actor),
                ])
        }
    }
}

/// The provider side of a connection: the server asks the app to act with a server→client request.
final class RemoteProvider: ActionProvider {
    let peer: any RPCPeer
    init(peer: any RPCPeer) { self.peer = peer }
    /// The provider answers `{"handled": Bool}` (a bare Bool is accepted too). An error reply from the provider
    /// becomes `.appFailed` (−32022 "app error" carrying the provider's error object); so does any other result,
    /// with `reason: malformed reply`. A timeout or disconnection stays −32020.
    func perform(_ request: ActionRequest, timeout: Duration) async throws(ActionError) -> Bool {
        let reply = try await answer(request, timeout: timeout)
        return reply["handled"]?.boolValue ?? false
    }

    /// The provider's whole answer, as `{"handled": Bool, …}` (a bare Bool becomes `{"handled": Bool}`);
    /// `rotorSearch` answers carry an `item` too (D-ROTOR-5).
    func answer(_ request: ActionRequest, timeout: Duration) async throws(ActionError) -> JSON {
        let reply: JSON
        do {
            reply = try await peer.request("action.perform", request.json, timeout: timeout)
        } catch {
            if error.code == RPCError.Code.appNotResponding {
                throw .appNotResponding(reason: error.data?["reason"]?.stringValue ?? "timeout")
            }
            let reason = error.data?["reason"]?.stringValue ?? "app error"
            throw .appFailed(
                message: "the app reported an error performing '\(request.action)': \(error.message)",
                reason: reason, details: error.json)
        }
        if case .bool(let handled) = reply {
            return ["handled": .bool(handled)]
        }
        if case .bool? = reply["handled"] {
            return reply
        }
        let got = reply.objectValue == nil ? "a \(reply.typeName)" : "an object without a Boolean 'handled'"
        throw .appFailed(
            message: "the app answered '\(request.action)' with \(got) instead of {\"handled\": true|false}",
            reason: "malformed reply", details: nil)
    }
}
