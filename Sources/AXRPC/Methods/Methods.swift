import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol
import AXQuery
import AXSchema
import Synchronization

/// Where every JSON-RPC method is answered (Specs/protocol.md). Transport-independent: the socket server and
/// the in-process conformance runner install the same table on an `RPCRouter`.
package enum AXMethods {
    package static let protocolVersion = RPCServerInfo.protocolVersion
    package static let serverVersion = RPCServerInfo.version

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
        AppResetMethod.install(router, hub)
        FocusMethods.install(router, hub)
        RotorMethods.install(router, hub)
        InputMethods.install(router, hub)
        SettingsMethods.install(router, hub)
        ScriptQueryMethods.install(router, hub)
    }

    static func app<Key>(_ arguments: Params<Key>, _ hub: Hub, _ session: RPCSession) throws(RPCError) -> String {
        let explicit = try arguments.app() ?? session.attachment(appKey, as: String.self)
        do { return try hub.resolveApp(explicit) } catch { throw RPCError.from(error) }
    }

    /// The app's snapshot as automation sees it: the derived tree plus its automation-only nodes (D-AUTO-1).
    static func snapshot<Key>(_ arguments: Params<Key>, _ hub: Hub, _ session: RPCSession) throws(RPCError)
        -> AppSnapshot
    {
        let appID = try app(arguments, hub, session)
        var snap: AppSnapshot
        do { snap = try hub.snapshot(appID) } catch { throw RPCError.from(error) }
        snap.tree = AutomationTreeCache.shared.tree(of: snap)
        return snap
    }

    static func changeJSON(_ cs: ChangeSet) -> JSON {
        // The ids are a dictionary's keys (unique): appended unchecked. A keyed set searches the keys it has, and a
        // window moved under 20,000 views made this quadratic on the event loop (seconds; every client stalled).
        var upd = JSONObject(minimumCapacity: cs.updated.count)
        for (id, keys) in cs.updated.sorted(by: { $0.key < $1.key }) { upd.appendUnchecked(id, JSON(keys.sorted())) }
        return RPCCatalog.TreeDiff.answer([
            .fromRevision: JSON(cs.fromRevision), .toRevision: JSON(cs.toRevision), .added: JSON(cs.added),
            .removed: JSON(cs.removed), .moved: JSON(cs.moved), .updated: .object(upd),
            .windowsChanged: .bool(cs.windowsChanged),
        ])
    }

    // MARK: - Lifecycle

    static func installLifecycle(_ router: RPCRouter, _ hub: Hub, _ options: MethodOptions) {
        // Weak: the router holds this handler, so a strong capture kept every router and its hub alive forever.
        router.registerSync(.initialize) { [weak router] params, session in
            let arguments = try Params(params, RPCCatalog.Initialize.self)
            if let clientName = arguments[.clientInfo]?["name"]?.stringValue {
                session[attachment: Roles.clientNameKey] = String(clientName.prefix(64))
            }
            if let role = try arguments.string(.role) {
                guard [Roles.provider, Roles.automation, Roles.operator].contains(role) else {
                    throw arguments.bad(.role, "must be provider, automation or operator")
                }
                if role == Roles.operator {
                    try Roles.authenticateOperator(arguments, options: options, session: session)
                }
                session.role = role
            } else if session.role == nil {
                session.role = "automation"
            }
            session.initialized = true
            return RPCCatalog.Initialize.answer([
                .protocolVersion: .string(protocolVersion),
                .serverInfo: ["name": .string(RPCServerInfo.name), "version": .string(serverVersion)],
                .capabilities: [
                    "methods": JSON(router?.methods ?? []), "treeFormats": ["json", "text", "xml"],
                    "events": JSON(EventNames.all), "patchOps": ["insert", "remove", "move", "set", "splice"],
                    "maxTextContentBytes": JSON(EditableTextContent.maxBytes),
                    "maxConcurrentRequests": JSON(RPCInFlightRequests.maxConcurrent),
                ],
            ])
        }
        router.registerSync(.ping) { _, _ in .string("pong") }
        // LSP's cancellation: a notification naming the id of a running concurrent request (wait.for), which then
        // answers -32800 (D-PROTO-1). Unknown or finished ids are ignored, as LSP says.
        router.registerSync(.cancelRequest) { params, session in
            let arguments = try Params(params, RPCCatalog.CancelRequest.self)
            guard let id = arguments[.id], id.stringValue != nil || id.doubleValue != nil else {
                throw arguments.bad(.id, "is required: the id of the request to cancel")
            }
            return RPCCatalog.CancelRequest.answer([.cancelled: .bool(session.inFlight.cancel(id: id))])
        }
        router.registerSync(.shutdown) { _, _ in .null }
        router.registerSync(.appsList) { _, _ in
            .array(
                hub.snapshots().map { snapshot in
                    RPCCatalog.AppsList.answer([
                        .id: .string(snapshot.id), .name: .string(snapshot.name), .revision: JSON(snapshot.revision),
                        .registration: .number(Double(snapshot.registration)),
                        .windows: JSON(snapshot.tree.windows),
                        .elements: JSON(snapshot.tree.count), .focused: JSON(snapshot.focusedID),
                    ])
                })
        }
    }

    // MARK: - Provider role

    static func installProvider(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.appRegister) { params, session in
            let arguments = try Params(params, RPCCatalog.AppRegister.self)
            let name = try arguments.requiredString(.name)
            guard !name.isEmpty, name.utf8.count <= 256 else { throw arguments.bad(.name, "must be 1…256 bytes") }
            if let problem = Hub.appNameProblem(name) { throw arguments.bad(.name, problem) }
            if let existing = session.attachment(appKey, as: String.self) {
                throw RPCError.invalidRequest(
                    "this connection already registered app '\(existing)'", data: ["app": .string(existing)])
            }
            let reclaimToken = try arguments.string(.reclaimToken)
            if let reclaimToken, reclaimToken.utf8.count > 256 {
                throw arguments.bad(.reclaimToken, "must be at most 256 bytes (the token app.register answered)")
            }
            // `reset: true` declares that the app answers `app.reset` with its initial state (D-APP-RESET-1).
            let provider = RemoteProvider(peer: session.peer, canReset: try arguments.bool(.reset) ?? false)
            // The token from an earlier registration gives the id back, removing a stale instance (D-REL-8).
            let registration = hub.registerApp(name: name, provider: provider, reclaimToken: reclaimToken)
            let id = registration.id
            if let stale = registration.replaced as? RemoteProvider { stale.peer.close() }
            session[attachment: appKey] = id
            session.role = "provider"
            // A provider that disconnects takes its app away everywhere; pending calls fail (RPCPeer contract).
            session.peer.onClose { hub.removeApp(id, ifProvidedBy: provider) }
            return RPCCatalog.AppRegister.answer([.app: .string(id), .reclaimToken: .string(registration.reclaimToken)])
        }
        router.registerSync(.hierarchySet) { params, session in
            let arguments = try Params(params, RPCCatalog.HierarchySet.self)
            let appID = try Roles.ownApp(arguments, hub, session)
            do {
                let cs = try hub.setSnapshot(app: appID, .object(arguments.json))
                return RPCCatalog.HierarchySet.answer([
                    .app: .string(appID), .revision: JSON(cs.toRevision),
                    .elements: JSON((try? hub.snapshot(appID).tree.count) ?? 0),
                ])
            } catch let error as PatchError { throw RPCError.from(error) } catch let error as HubError {
                throw RPCError.from(error)
            }
        }
        // A large update runs on the connection's lane (in order), not on the event loop it shares with other
        // connections (D-REL-5).
        router.registerSync(.hierarchyUpdate, offLoop: LargeUpdates.runsOffLoop) { params, session in
            let arguments = try Params(params, RPCCatalog.HierarchyUpdate.self)
            let appID = try Roles.ownApp(arguments, hub, session)
            guard let ops = arguments[.ops] else {
                throw arguments.bad(.ops, "is required (an array of insert/remove/move/set ops)")
            }
            if let base = try arguments.int(.baseRevision, in: ParamRange.revision),
                let cur = try? hub.snapshot(appID).revision,
                base != cur
            {
                throw RPCError.contentModified(
                    "the tree is at revision \(cur), not \(base)",
                    data: ["revision": JSON(cur), "baseRevision": JSON(base)])
            }
            do {
                let cs = try hub.update(app: appID, ops: ops)
                return RPCCatalog.HierarchyUpdate.answer([
                    .app: .string(appID), .revision: JSON(cs.toRevision), .changes: changeJSON(cs),
                ])
            } catch let error as PatchError { throw RPCError.from(error) } catch let error as HubError {
                throw RPCError.from(error)
            }
        }
        router.registerSync(.accessibilityPost) { params, session in
            let arguments = try Params(params, RPCCatalog.AccessibilityPost.self)
            let appID = try Roles.ownApp(arguments, hub, session)
            let notification: AccessibilityNotification
            do { notification = try AccessibilityNotification.decode(.object(arguments.json)) } catch {
                throw RPCError.from(error)
            }
            do { try hub.post(app: appID, notification) } catch { throw RPCError.from(error) }
            return RPCCatalog.AccessibilityPost.answer([.posted: .string(notification.name)])
        }
    }

    // MARK: - Tree

    static func installTree(_ router: RPCRouter, _ hub: Hub) {
        router.registerSyncWriter(.treeGet, offLoop: Targets.usesRegex) { params, session, out in
            let request = try TreeGet.request(params, session, hub)
            TreeGet.write(request, into: &out)
        }
        router.registerSync(.treeDiff) { params, session in
            let arguments = try Params(params, RPCCatalog.TreeDiff.self)
            let appID = try app(arguments, hub, session)
            guard let from = try arguments.int(.fromRevision, in: ParamRange.revision) else {
                throw arguments.bad(.fromRevision, "is required")
            }
            do {
                return changeJSON(
                    try hub.changes(
                        app: appID, from: from, to: try arguments.int(.toRevision, in: ParamRange.revision)))
            } catch let error as HubError { throw RPCError.from(error) }
        }
        router.registerSync(.treeRevision) { params, session in
            let arguments = try Params(params, RPCCatalog.TreeRevision.self)
            let appID = try app(arguments, hub, session)
            let current: AppSnapshot
            do { current = try hub.snapshot(appID) } catch { throw RPCError.from(error) }
            // The automation-only nodes of this revision (D-AUTO-1): a client that patches a copy of the tree from
            // `tree.diff` (axdriver's page) needs none, since the change log never names them.
            let automationOnly = AutomationTreeCache.shared.tree(of: current).count - current.tree.count
            return RPCCatalog.TreeRevision.answer([
                .app: .string(current.id), .revision: JSON(current.revision),
                .registration: .number(Double(current.registration)), .automationOnly: JSON(automationOnly),
            ])
        }
        router.registerSync(.elementGet, offLoop: Targets.usesRegex) { params, session in
            let arguments = try Params(params, RPCCatalog.ElementGet.self)
            let snap = try snapshot(arguments, hub, session)
            guard let target = arguments[.target] else {
                throw arguments.bad(.target, "is required ({id} or {selector})")
            }
            let id = try Targets.resolveOne(target, in: snap, hub: hub, method: RPCMethodName.elementGet.rawValue)
            return .object(elementDetail(id, snap))
        }
    }

    static func elementDetail(_ id: String, _ snap: AppSnapshot) -> JSONObject {
        guard let node = snap.tree[id] else {
            return RPCResultObject<RPCElementField>([.id: .string(id), .removed: true]).object
        }
        var object = ElementJSON.encode(node, focusedID: snap.focusedID)
        func set(_ field: RPCElementField, _ value: JSON) { object[field.rawValue] = value }
        set(.hittable, .bool(HitTesting.isHittable(id, tree: snap.tree, views: snap.views)))
        set(.visible, .bool(node.isOnscreen && !node.frame.isEmpty))
        set(.focused, .bool(snap.focusedID == id))
        set(.revision, JSON(snap.revision))
        set(.app, .string(snap.id))
        set(.ancestors, JSON(snap.tree.ancestors(of: id)))
        if let index = snap.tree.indexInParent(id) { set(.index, JSON(index)) }
        return object
    }

    // MARK: - Query

    /// A query's params, the app's snapshot, its selector and its root (`query.find`, `.one`, `.count`, `.explain`).
    static func queryCall<Spec: RPCMethodSpec>(
        _ params: JSON?, _ session: RPCSession, _ hub: Hub, _ spec: Spec.Type
    ) throws(RPCError) -> (Params<Spec.Param>, AppSnapshot, Selector, String?)
    where Spec.Param: RPCSelectorParameterKey {
        let arguments = try Params(params, spec)
        let method = arguments.method
        let snap = try snapshot(arguments, hub, session)
        guard let selectorJSON = arguments[.selector] ?? arguments[.ast].map({ JSON.object(["ast": $0]) }) else {
            throw arguments.bad(.selector, "is required")
        }
        let sel = try Targets.selector(from: selectorJSON, param: arguments.name(.selector), method: method)
        var root: String?
        if let rt = arguments[.root] {
            root = try Targets.resolveOne(rt, in: snap, hub: hub, method: method, param: arguments.name(.root))
        }
        return (arguments, snap, sel, root)
    }

    static func installQuery(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.queryFind, offLoop: Targets.usesRegex) { params, session in
            let (arguments, snap, sel, root) = try queryCall(params, session, hub, RPCCatalog.QueryFind.self)
            let limit = try arguments.int(.limit, in: ParamRange.count)
            // limit ≤ 2^53 − 1, so one more (to tell whether the answer was truncated) cannot overflow.
            let ids = try Targets.find(sel, in: snap, root: root, limit: limit.map { $0 + 1 })
            let shown = limit.map { Array(ids.prefix($0)) } ?? ids
            var out: RPCResultObject<RPCCatalog.QueryFind.Member> = [
                .revision: JSON(snap.revision), .selector: .string(sel.canonical), .count: JSON(shown.count),
                .elements: .array(
                    shown.compactMap {
                        snap.tree[$0].map { .object(ElementJSON.encode($0, focusedID: snap.focusedID)) }
                    }),
            ]
            if let limit, ids.count > limit { out[.truncated] = ["kind": "limit", "limit": JSON(limit)] }
            return out.json
        }
        router.registerSync(.queryOne, offLoop: Targets.usesRegex) { params, session in
            let (_, snap, sel, root) = try queryCall(params, session, hub, RPCCatalog.QueryOne.self)
            let id = try Targets.resolveOne(
                .string(sel.canonical), in: snap, hub: hub, method: RPCMethodName.queryOne.rawValue, root: root)
            return .object(elementDetail(id, snap))
        }
        router.registerSync(.queryCount, offLoop: Targets.usesRegex) { params, session in
            let (_, snap, sel, root) = try queryCall(params, session, hub, RPCCatalog.QueryCount.self)
            return RPCCatalog.QueryCount.answer([
                .count: JSON(try Targets.find(sel, in: snap, root: root, limit: nil).count),
                .revision: JSON(snap.revision),
            ])
        }
        router.registerSync(.queryExplain, offLoop: Targets.usesRegex) { params, session in
            let (_, snap, sel, _) = try queryCall(params, session, hub, RPCCatalog.QueryExplain.self)
            return try Targets.nearMisses(sel, in: snap)
        }
    }

    // MARK: - Actions

    /// The `action.<name>` methods of AXSchema's element actions that the catalog declares (`CatalogRouteTests`
    /// fails for one it lacks, or one without a handler).
    static let actionMethods: [RPCMethodName] = ActionName.elementActions.compactMap { action in
        RPCMethodName(rawValue: actionPrefix + action.rawValue)
    }

    /// `action.`, the wire-name prefix of §Actions.
    static let actionPrefix = RPCSection.actions.methodPrefix

    static func installActions(_ router: RPCRouter, _ hub: Hub) {
        // Each element action reads its payload by its method's declared keys (D-CATALOG-3) with AXSchema's one
        // decoder for it (the provider library reads the same payload with it).
        installAction(router, hub, RPCCatalog.ActionActivate.self) { _ in .activate }
        installAction(router, hub, RPCCatalog.ActionIncrement.self) { _ in .increment }
        installAction(router, hub, RPCCatalog.ActionDecrement.self) { _ in .decrement }
        installAction(router, hub, RPCCatalog.ActionEscape.self) { _ in .escape }
        installAction(router, hub, RPCCatalog.ActionMagicTap.self) { _ in .magicTap }
        installAction(router, hub, RPCCatalog.ActionSetValue.self) { arguments throws(ActionPayloadError) in
            .setValue(try ActionPayload.value(arguments[.value]))
        }
        installAction(router, hub, RPCCatalog.ActionTypeText.self) { arguments throws(ActionPayloadError) in
            .typeText(try ActionPayload.text(arguments[.text] ?? arguments[.value], field: arguments.name(.text)))
        }
        installAction(router, hub, RPCCatalog.ActionCustom.self) { arguments throws(ActionPayloadError) in
            .custom(
                try ActionPayload.customAction(arguments[.name] ?? arguments[.action], field: arguments.name(.name)))
        }
        installAction(router, hub, RPCCatalog.ActionScroll.self) { arguments throws(ActionPayloadError) in
            .scroll(try ActionPayload.direction(arguments[.direction]))
        }
        installAction(router, hub, RPCCatalog.ActionZoomIn.self) { arguments throws(ActionPayloadError) in
            .zoomIn(at: try zoomCentre(arguments[.point], field: arguments.name(.point)))
        }
        installAction(router, hub, RPCCatalog.ActionZoomOut.self) { arguments throws(ActionPayloadError) in
            .zoomOut(at: try zoomCentre(arguments[.point], field: arguments.name(.point)))
        }
        installAction(router, hub, RPCCatalog.ActionDrag.self) { arguments throws(ActionPayloadError) in
            .drag(try ActionPayload.descriptorName(arguments[.name]), at: nil)
        }
        installAction(router, hub, RPCCatalog.ActionDrop.self) { arguments throws(ActionPayloadError) in
            .drop(try ActionPayload.descriptorName(arguments[.name]), at: nil)
        }
        installTap(router, hub)
    }

    /// Installs the method `Spec` of the element action its name ends with: resolve the target (the focused
    /// element for the actions that bubble to the app, X32, X33), read the payload with `payload`, check that the
    /// element can take it (D-ACT-2, unless `force`), and perform it through the hub. A declaration whose name is
    /// no element action gets no handler, and `CatalogRouteTests` names it.
    static func installAction<Spec: RPCMethodSpec>(
        _ router: RPCRouter, _ hub: Hub, _ spec: Spec.Type,
        payload: @escaping @Sendable (Params<Spec.Param>) throws(ActionPayloadError) -> ElementAction
    ) where Spec.Param: RPCActionParameterKey {
        let method = Spec.entry.name
        guard method.rawValue.hasPrefix(actionPrefix),
            let action = ActionName(rawValue: String(method.rawValue.dropFirst(actionPrefix.count)))
        else { return }
        router.register(method) { params, session in
            let arguments = try Params(params, Spec.self)
            let snap = try snapshot(arguments, hub, session)
            var id: String?
            if let target = arguments[.target] {
                id = try Targets.resolveOne(target, in: snap, hub: hub, method: method.rawValue)
            } else if action.bubblesToApp {
                id = snap.focusedID  // X32, X33: start from the focused element, else the app
            } else {
                throw arguments.bad(.target, "is required ({id} or {selector})")
            }
            let requested: ElementAction
            do throws(ActionPayloadError) { requested = try payload(arguments) } catch {
                throw arguments.bad(field: error.field, error.expected)
            }
            if let id, let node = snap.tree[id], let outside = ActionRouting.zoomPointOutside(requested, of: node) {
                throw arguments.bad(
                    field: RPCCatalog.ActionZoomIn.Param.point.rawValue,
                    "(\(outside.x), \(outside.y)) lies outside '\(id)' (frame \(node.frame.x), \(node.frame.y), \(node.frame.width) × \(node.frame.height)): a zoom centre is a point in the element (screen coordinates)"
                )
            }
            if let id, let node = snap.tree[id], !requested.bubblesToApp, try arguments.bool(.force) != true {
                try checkActionable(node, requested, snap)
            }
            let before = snap.revision
            let handled: Bool
            do {
                handled = try await hub.perform(app: snap.id, element: id, action: requested)
            } catch { throw RPCError.from(error) }
            let after = (try? hub.snapshot(snap.id).revision) ?? before
            return RPCResultObject<RPCActionResultMember>([
                .performed: .bool(handled), .element: JSON(id), .revisionBefore: JSON(before),
                .revisionAfter: JSON(after),
            ]).json
        }
    }

    /// `action.tap`: a tap at a point or at an element's activation point, through hit testing (R111–R114).
    static func installTap(_ router: RPCRouter, _ hub: Hub) {
        router.register(.actionTap) { params, session in
            let arguments = try Params(params, RPCCatalog.ActionTap.self)
            let snap = try snapshot(arguments, hub, session)
            let point: Point
            if arguments[.point] != nil {
                // The same point rules as element.atPoint (D-GEOM-2 range, D-HIT-1 windows).
                point = try ScriptQueryMethods.point(arguments, .point)
                try ScriptQueryMethods.refuseOutsideWindows(
                    point, snap, method: arguments.method, param: arguments.name(.point))
            } else if let target = arguments[.target] {
                let id = try Targets.resolveOne(target, in: snap, hub: hub, method: RPCMethodName.actionTap.rawValue)
                guard let node = snap.tree[id] else { throw Targets.missingID(id, snap: snap, hub: hub) }
                point = node.activationPoint
            } else {
                throw arguments.bad(.target, "or 'point' is required")
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
                let handled = try await hub.perform(app: snap.id, element: element, action: .tap)
                return RPCCatalog.ActionTap.answer([
                    .performed: .bool(handled), .element: .string(element), .view: .string(hitView),
                ])
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

    /// A zoom's centre (nil: the element's centre).
    private static func zoomCentre(_ given: JSON?, field: String) throws(ActionPayloadError) -> Point? {
        guard let given else { return nil }
        return Point(try ActionPayload.zoomCentre(given, field: field))
    }

    // MARK: - Focus and waits

    static func installFocusAndWait(_ router: RPCRouter, _ hub: Hub) {
        registerFocusGetAndSet(router, hub)
        registerWaitFor(router, hub)
    }

    static func registerFocusGetAndSet(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.focusGet) { params, session in
            let arguments = try Params(params, RPCCatalog.FocusGet.self)
            let snap = try snapshot(arguments, hub, session)
            guard let focused = snap.focusedID, let node = snap.tree[focused] else {
                return RPCCatalog.FocusGet.answer([.element: .null, .app: .string(snap.id)])
            }
            return RPCCatalog.FocusGet.answer([
                .element: .object(ElementJSON.encode(node, focusedID: focused)), .app: .string(snap.id),
            ])
        }
        router.registerSync(.focusSet, offLoop: Targets.usesRegex) { params, session in
            let arguments = try Params(params, RPCCatalog.FocusSet.self)
            let snap = try snapshot(arguments, hub, session)
            var id: String?
            if let target = arguments[.target] {
                id = try Targets.resolveOne(target, in: snap, hub: hub, method: RPCMethodName.focusSet.rawValue)
            }
            do { try hub.setFocus(app: snap.id, element: id) } catch { throw RPCError.from(error) }
            return RPCCatalog.FocusSet.answer([.focused: JSON(id)])
        }
    }

    static func registerWaitFor(_ router: RPCRouter, _ hub: Hub) {
        // Concurrent (D-PROTO-1): a wait does not hold back the connection's later requests; `$/cancelRequest`
        // ends it with -32800.
        router.register(.waitFor, concurrent: true) { params, session in
            let arguments = try Params(params, RPCCatalog.WaitFor.self)
            let appID = try app(arguments, hub, session)
            guard let target = arguments[.target] else { throw arguments.bad(.target, "is required") }
            let (state, expected) = try waitStateArguments(arguments)
            let timeout = try arguments.timeout(.timeoutMs)
            let clock = ContinuousClock()
            let start = clock.now
            var lastState: JSON = .null
            // One timer for the whole wait, however many revisions pass (D-REL-3).
            let deadline = hub.makeWaitDeadline(timeout: timeout)
            defer { deadline.finish() }
            while true {
                var snap: AppSnapshot
                do { snap = try hub.snapshot(appID) } catch {
                    if state == .detached {
                        return RPCCatalog.WaitFor.answer([
                            .state: .string(state.rawValue), .satisfied: true, .reason: "app removed",
                        ])
                    }
                    throw RPCError.appNotResponding("the app went away while waiting", data: ["reason": "disconnected"])
                }
                // The automation tree: a view listed only in `automationElements` is found too (D-AUTO-1).
                snap.tree = AutomationTreeCache.shared.tree(of: snap)
                var found: String?
                do {
                    found = try Targets.resolveOne(target, in: snap, hub: hub, method: RPCMethodName.waitFor.rawValue)
                } catch {
                    let rpcError = RPCError.from(error)
                    if rpcError.code == RPCError.Code.invalidSelector || rpcError.code == RPCError.Code.ambiguousMatch {
                        throw rpcError
                    }
                    // An element that left the tree does not come back by waiting (D-WAIT-STALE-1): only the
                    // states its absence satisfies wait on; the others end now instead of at the timeout.
                    if rpcError.code == RPCError.Code.staleElement, state != .detached, state != .hidden {
                        throw staleWait(rpcError, state: state.rawValue, since: start, clock: clock)
                    }
                }
                let matched = found.flatMap { snap.tree[$0] }
                let ok = waitState(state, holdsFor: found, node: matched, in: snap, expected: expected)
                lastState = matched.map { .object(ElementJSON.encode($0, focusedID: snap.focusedID)) } ?? .null
                let waited = clock.now - start
                let waitedMs = Int(
                    waited.components.seconds * 1000 + waited.components.attoseconds / 1_000_000_000_000_000)
                if ok {
                    var out: RPCResultObject<RPCCatalog.WaitFor.Member> = [
                        .state: .string(state.rawValue), .satisfied: true, .revision: JSON(snap.revision),
                        .waitedMs: JSON(waitedMs),
                    ]
                    if let matched { out[.element] = .object(ElementJSON.encode(matched, focusedID: snap.focusedID)) }
                    return out.json
                }
                let remaining = timeout - waited
                if remaining <= .zero || deadline.isExpired {
                    throw RPCError.timeout(
                        "timed out after \(waitedMs) ms waiting for \(state.rawValue)",
                        data: [
                            "waitedFor": .string(state.rawValue), "target": target, "lastState": lastState,
                            "revision": JSON(snap.revision), "waitedMs": JSON(waitedMs),
                        ])
                }
                _ = await hub.awaitChange(
                    app: appID, after: snap.revision, deadline: deadline, focusSeen: .some(snap.focusedID))
                if Task.isCancelled {
                    throw CancellationError()
                }
            }
        }
    }

    /// The stale-element error that ends a `wait.for` on a removed element, with the state it waited for and how long.
    static func staleWait(
        _ error: RPCError, state: String, since start: ContinuousClock.Instant, clock: ContinuousClock
    )
        -> RPCError
    {
        var data = error.data?.objectValue ?? [:]
        let waited = clock.now - start
        data["waitedFor"] = .string(state)
        data["waitedMs"] = JSON(
            Int(waited.components.seconds * 1000 + waited.components.attoseconds / 1_000_000_000_000_000))
        data["hint"] = "the element left the tree and does not come back by waiting; wait on a selector for a new one"
        return RPCError(code: error.code, message: "wait.for \(state): " + error.message, data: .object(data))
    }

    /// The `state` of a `wait.for` (default attached) and the `value` that states value and label compare with.
    static func waitStateArguments(_ arguments: Params<RPCCatalog.WaitFor.Param>) throws(RPCError) -> (
        state: RPCCatalog.WaitFor.State, expected: String?
    ) {
        let name = try arguments.string(.state) ?? RPCCatalog.WaitFor.State.attached.rawValue
        guard let state = RPCCatalog.WaitFor.State(rawValue: name) else {
            let states = RPCCatalog.WaitFor.State.allCases.map(\.rawValue)
            throw arguments.bad(.state, "must be one of \(states.joined(separator: ", "))")
        }
        let expected = try arguments.string(.value)
        if state.comparesValue && expected == nil {
            throw arguments.bad(.value, "is required for state '\(state.rawValue)'")
        }
        return (state, expected)
    }

    /// Whether the element `found` (its node `node`, nil when it is not in the tree) is in the `wait.for` state.
    static func waitState(
        _ state: RPCCatalog.WaitFor.State, holdsFor found: String?, node: AXNode?, in snap: AppSnapshot,
        expected: String?
    ) -> Bool {
        switch state {
        case .attached: return node != nil
        case .detached: return node == nil
        case .visible: return node.map { $0.isOnscreen && !$0.frame.isEmpty } ?? false
        case .hidden: return node.map { !$0.isOnscreen || $0.frame.isEmpty } ?? true
        case .hittable:
            return found.map { HitTesting.isHittable($0, tree: snap.tree, views: snap.views) } ?? false
        case .enabled: return node?.isEnabled ?? false
        case .disabled: return node.map { !$0.isEnabled } ?? false
        case .focused: return found != nil && snap.focusedID == found
        case .value: return node?.value == expected
        case .label: return node?.label == expected
        }
    }

    // MARK: - Events

    static func installEvents(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.eventsSubscribe) { params, session in
            let arguments = try Params(params, RPCCatalog.EventsSubscribe.self)
            let names = try arguments.stringList(.events) ?? EventNames.all
            for name in names where !EventNames.all.contains(name) {
                throw arguments.bad(
                    .events, "has unknown event '\(name)' (known: \(EventNames.all.joined(separator: ", ")))")
            }
            var requestedApp = try arguments.app()
            if let requested = requestedApp {
                do { requestedApp = try hub.resolveApp(requested) } catch { throw RPCError.from(error) }
            }
            let appFilter = requestedApp
            let wanted = Set(names)
            let peer = session.peer
            let key = ConnectionSubscriptions.Key(events: wanted, app: appFilter)
            // Identical subscriptions share one; distinct ones are capped per connection (D-REL-6).
            let outcome: Result<(id: UInt64, joined: Bool, installClose: Bool), RPCError> = session.withAttachments {
                bag in
                var subs = bag[subsKey] as? ConnectionSubscriptions ?? ConnectionSubscriptions()
                defer { bag[subsKey] = subs }
                if let id = subs.join(key) { return .success((id, true, false)) }
                guard subs.count < ConnectionSubscriptions.maxPerConnection else {
                    return .failure(ConnectionSubscriptions.capReached(active: subs.count))
                }
                let subID = Subscriptions.nextID()
                let token = hub.subscribe { event in
                    guard !peer.isClosed else { return }
                    EventNames.deliver(event, wanted: wanted, appFilter: appFilter, subscription: subID, peer: peer)
                }
                subs.add(id: subID, token: token, key: key)
                let installClose = !subs.closeHandlerInstalled
                subs.closeHandlerInstalled = true
                return .success((subID, false, installClose))
            }
            let subscribed = try outcome.get()
            if subscribed.installClose {
                // One close handler per connection (not one per subscribe), unsubscribing what is left.
                peer.onClose {
                    let tokens = session.withAttachments { bag in
                        (bag[subsKey] as? ConnectionSubscriptions)?.tokens ?? []
                    }
                    for token in tokens { hub.unsubscribe(token) }
                }
            }
            var reply: RPCResultObject<RPCCatalog.EventsSubscribe.Member> = [
                .subscription: JSON(Int(subscribed.id)), .events: JSON(names.sorted()),
            ]
            if subscribed.joined { reply[.shared] = true }
            return reply.json
        }
        router.registerSync(.eventsUnsubscribe) { params, session in
            let arguments = try Params(params, RPCCatalog.EventsUnsubscribe.self)
            guard let sid = try arguments.int(.subscription, in: ParamRange.subscription) else {
                throw arguments.bad(.subscription, "is required")
            }
            let outcome: ConnectionSubscriptions.LeaveOutcome = session.withAttachments { bag in
                var subs = bag[subsKey] as? ConnectionSubscriptions ?? ConnectionSubscriptions()
                defer { bag[subsKey] = subs }
                return subs.leave(UInt64(sid))
            }
            guard case .left(let token) = outcome else {
                throw arguments.bad(.subscription, "is not an active subscription of this connection")
            }
            if let token { hub.unsubscribe(token) }
            return RPCCatalog.EventsUnsubscribe.answer([.unsubscribed: JSON(sid)])
        }
    }
}

enum Subscriptions {
    private static let counter = Atomic<UInt64>(1)
    static func nextID() -> UInt64 { counter.add(1, ordering: .relaxed).oldValue }
}

/// Event notifications sent to subscribers (Specs/protocol.md §Events).
package enum EventNames {
    /// The subscribable events, as the catalog declares them (in `capabilities.events` order).
    package static let all = RPCEvent.names

    static func deliver(
        _ hubEvent: HubEvent, wanted: Set<String>, appFilter: String?, subscription: UInt64, peer: any RPCPeer
    ) {
        func send(_ name: String, _ app: String?, _ body: JSONObject) {
            guard wanted.contains(name) else { return }
            if let appFilter, let app, appFilter != app { return }
            var object = body
            object["subscription"] = JSON(Int(subscription))
            if let app { object["app"] = .string(app) }
            peer.notify(name, .object(object))
        }
        switch hubEvent {
        case .appAdded(let appID): send("app.added", appID, [:])
        case .appRemoved(let appID): send("app.removed", appID, [:])
        case .treeChanged(let appID, let cs, _):
            send(
                "tree.changed", appID,
                [
                    "revision": JSON(cs.toRevision), "fromRevision": JSON(cs.fromRevision), "added": JSON(cs.added),
                    "removed": JSON(cs.removed), "moved": JSON(cs.moved), "updated": JSON(cs.updated.keys.sorted()),
                ])
        case .focusChanged(let appID, let from, let to):
            send("focus.changed", appID, ["focus": "accessibility", "from": JSON(from), "to": JSON(to)])
        case .engineFocus(let appID, let event): send(event.eventName, appID, event.body)
        case .textCaret: break
        case .screenReaderStatus(let running):
            send("a11y.voiceOverStatusDidChange", nil, ["screenReaderRunning": .bool(running)])
        case .notification(let appID, let notification):
            var body = notification.json.objectValue ?? [:]
            body["notification"] = nil
            send("a11y." + notification.name, appID, body)
        case .restrictionChanged(let app, let id, let denied, let source, let actor):
            send(
                "policy.changed", app,
                [
                    "restriction": .string(id), "state": .string(denied ? "deny" : "allow"),
                    "source": .string(source.rawValue), "by": .string(actor),
                ])
        case .guidedAccessStatusChanged(let app, let enabled):
            send("a11y.guidedAccessStatusChanged", app, ["enabled": .bool(enabled)])
        case .settingsChanged(let changed, let settings):
            send("a11y.settingsChanged", nil, SettingsMethods.changedBody(changed, settings))
        }
    }
}

/// The provider side of a connection: the server asks the app to act with a server→client request.
final class RemoteProvider: ResettableProvider {
    let peer: any RPCPeer
    /// The app declared `reset: true` at `app.register`.
    let canReset: Bool
    init(peer: any RPCPeer, canReset: Bool = false) {
        self.peer = peer
        self.canReset = canReset
    }

    /// The provider's error answer to a server request: a timeout stays −32020 (`appNotResponding`); anything else is
    /// `.appFailed` saying what the app was `doing`, its words bounded before they reach a client (D-REL-7).
    static func actionError(_ error: RPCError, doing: String) -> ActionError {
        if error.code == RPCError.Code.appNotResponding {
            return .appNotResponding(reason: error.data?["reason"]?.stringValue ?? "timeout")
        }
        let reason = AppErrorBounds.truncated(
            error.data?["reason"]?.stringValue ?? "app error", maxBytes: AppErrorBounds.maxReasonBytes)
        let message = AppErrorBounds.truncated(error.message, maxBytes: AppErrorBounds.maxMessageBytes)
        return .appFailed(
            message: "the app reported an error \(doing): \(message)", reason: reason,
            details: AppErrorBounds.details(error))
    }

    /// Sends `app.reset` to the provider, which answers `{"reset": true, "revision": N}` after publishing its
    /// initial tree (D-APP-RESET-1). A closed connection is `appNotResponding(ActionError.appLeftReason)`.
    func reset(timeout: Duration) async throws(ActionError) -> AppResetAnswer {
        let reply: JSON
        do {
            reply = try await peer.request(RPCServerMessage.appReset.rawValue, .object([:]), timeout: timeout)
        } catch {
            if peer.isClosed || error.data?["reason"]?.stringValue == "disconnected" {
                throw .appNotResponding(reason: ActionError.appLeftReason)
            }
            throw Self.actionError(error, doing: "resetting")
        }
        guard reply["reset"]?.boolValue == true else {
            throw .appFailed(
                message:
                    "the app answered 'app.reset' with \(reply.typeName) instead of {\"reset\": true, \"revision\": N}",
                reason: "malformed reply", details: nil)
        }
        return AppResetAnswer(revision: reply["revision"]?.intValue)
    }
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
            reply = try await peer.request(RPCServerMessage.actionPerform.rawValue, request.json, timeout: timeout)
        } catch {
            throw Self.actionError(error, doing: "performing '\(request.action)'")
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
