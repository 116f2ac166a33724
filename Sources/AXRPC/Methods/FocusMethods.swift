import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol

/// The focus-engine methods (Specs/protocol.md §Focus engine): `focus.move`, `focus.query`, `focus.update`,
/// `focus.explain`, `focus.status`, `focus.items`, `focus.activate`. They translate JSON; the engine
/// (AXCore/Focus) decides and the hub (EngineFocus.swift) keeps the engine focus.
enum FocusMethods {
    static func install(_ router: RPCRouter, _ hub: Hub) {
        installMoves(router, hub)
        installInspection(router, hub)
    }

    /// focus.move, focus.query (a simulated move) and focus.update.
    static func installMoves(_ router: RPCRouter, _ hub: Hub) {
        router.register(.focusMove) { params, session in
            let arguments = try Params(params, RPCCatalog.FocusMove.self)
            let app = try AXMethods.app(arguments, hub, session)
            let heading = try direction(arguments, .direction)
            do {
                let outcome = try await hub.updateEngineFocus(
                    app: app, heading: heading.rawValue, target: nil, simulate: false)
                return outcomeJSON(outcome, hub: hub, app: app)
            } catch { throw RPCError.from(error) }
        }
        router.registerSync(.focusQuery) { params, session in
            let arguments = try Params(params, RPCCatalog.FocusQuery.self)
            let context = try focusContext(arguments, hub, session)
            let heading = try direction(arguments, .direction)
            var from = context.engineFocused
            if let fromParam = arguments[.from] {
                from = try viewID(fromParam, arguments: arguments, param: .from, context: context, hub: hub)
            }
            // C33: the focus debugger's simulate — where focus would go; nothing changes, nothing is emitted.
            var object: RPCResultObject<RPCCatalog.FocusQuery.Member> = [
                .from: JSON(from), .heading: .string(heading.rawValue), .simulated: true,
            ]
            switch context.engine.move(from: from, heading: heading) {
            case .success(let decision):
                object[.to] = .string(decision.item)
                object[.guide] = JSON(decision.guide)
                object[.preferredChain] = JSON(decision.preferredChain)
                object[.scroll] = scrollJSON(decision.scroll, handled: nil)
                object[.element] = brief(decision.item, context.snapshot)
            case .failure(let failure):
                object[.to] = .null
                object[.failure] = .string(failure.reason)
                object[.message] = .string(failure.message)
            }
            return object.json
        }
        router.register(.focusUpdate) { params, session in
            let arguments = try Params(params, RPCCatalog.FocusUpdate.self)
            let app = try AXMethods.app(arguments, hub, session)
            var target: String?
            if let targetJSON = arguments[.target] {
                let context: FocusContext
                do { context = try hub.focusContext(app: app) } catch { throw RPCError.from(error) }
                target = try viewID(
                    targetJSON, arguments: arguments, param: .target, context: context, hub: hub, allowGuides: true)
            }
            do {
                let outcome = try await hub.updateEngineFocus(
                    app: app, heading: FocusHeading.none.rawValue, target: target, simulate: false)
                return outcomeJSON(outcome, hub: hub, app: app)
            } catch { throw RPCError.from(error) }
        }
    }

    /// focus.explain, focus.status, focus.items and focus.activate.
    static func installInspection(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.focusExplain) { params, session in
            let arguments = try Params(params, RPCCatalog.FocusExplain.self)
            let context = try focusContext(arguments, hub, session)
            guard let target = arguments[.target] else {
                throw arguments.bad(.target, "is required: {\"id\": view id} or a selector")
            }
            let id = try viewID(target, arguments: arguments, param: .target, context: context, hub: hub)
            let checks = context.engine.checks(id)
            let failed = checks.first { !$0.passed }
            var object: RPCResultObject<RPCCatalog.FocusExplain.Member> = [
                .target: .string(id), .focusable: .bool(failed == nil),
                .checks: .array(checks.map(checkJSON)), .focused: .bool(context.engineFocused == id),
            ]
            object[.failed] = failed.map { .object(checkJSON($0).objectValue ?? [:]) } ?? .null
            if let entry = context.engine.index[id] {
                object[.group] = JSON(entry.group)
                object[.priority] = JSON(entry.priority)
            }
            return object.json
        }
        router.registerSync(.focusStatus) { params, session in
            let arguments = try Params(params, RPCCatalog.FocusStatus.self)
            let context = try focusContext(arguments, hub, session)
            return statusJSON(context)
        }
        router.registerSync(.focusItems) { params, session in
            let arguments = try Params(params, RPCCatalog.FocusItems.self)
            let context = try focusContext(arguments, hub, session)
            let rect = try itemsRect(arguments)
            return RPCCatalog.FocusItems.answer([.items: JSON(context.engine.items(intersecting: rect))])
        }
        router.register(.focusActivate) { params, session in
            let arguments = try Params(params, RPCCatalog.FocusActivate.self)
            let context = try focusContext(arguments, hub, session)
            // C30: a press goes to the focused item first.
            guard let focused = context.engineFocused else {
                throw RPCError.invalidParams(
                    "focus.activate: no item has engine focus (move focus first with focus.move or focus.update)",
                    data: ["reason": "noEngineFocus"])
            }
            do {
                let performed = try await hub.perform(app: context.snapshot.id, element: focused, action: .activate)
                return RPCCatalog.FocusActivate.answer([.performed: .bool(performed), .element: .string(focused)])
            } catch { throw RPCError.from(error) }
        }
    }

    // MARK: Params

    /// The optional `rect` of focus.items: `[x, y, width, height]`, finite numbers below 10^7, sizes ≥ 0.
    static func itemsRect(_ arguments: Params<RPCCatalog.FocusItems.Param>) throws(RPCError) -> Rect? {
        guard let rectJSON = arguments[.rect] else { return nil }
        guard case .array(let numbers) = rectJSON, numbers.count == 4 else {
            throw arguments.bad(.rect, "must be [x, y, width, height] in screen points")
        }
        let values = numbers.compactMap { value -> Double? in
            guard case .number(let number) = value, number.isFinite, abs(number) < 1e7 else { return nil }
            return number
        }
        guard values.count == 4, values[2] >= 0, values[3] >= 0 else {
            throw arguments.bad(.rect, "must be [x, y, width, height]: finite numbers below 10^7, sizes ≥ 0")
        }
        return Rect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    static func focusContext<Key>(_ arguments: Params<Key>, _ hub: Hub, _ session: RPCSession) throws(RPCError)
        -> FocusContext
    {
        let app = try AXMethods.app(arguments, hub, session)
        do { return try hub.focusContext(app: app) } catch { throw RPCError.from(error) }
    }

    static func direction<Key>(_ arguments: Params<Key>, _ key: Key) throws(RPCError) -> FocusHeading {
        let accepted = FocusHeading.movable.map(\.rawValue)
        guard let value = arguments[key] else {
            throw RPCError.invalidParams(
                "\(arguments.method): '\(key.rawValue)' is required (one of \(accepted.joined(separator: ", ")))",
                data: ["param": .string(key.rawValue), "accepted": JSON(accepted)])
        }
        guard case .string(let name) = value, let heading = FocusHeading(rawValue: name), heading != .none else {
            let shown = value.stringValue.map { "'\($0)'" } ?? "a \(value.typeName)"
            throw RPCError.invalidParams(
                "\(arguments.method): unknown direction \(shown) (accepted: \(accepted.joined(separator: ", ")))",
                data: ["param": .string(key.rawValue), "value": value, "accepted": JSON(accepted)])
        }
        return heading
    }

    /// A focus target names a view (focus items are views, not only accessibility elements): `{"id": view}`, or
    /// a selector matching one element.
    static func viewID<Key>(
        _ target: JSON, arguments: Params<Key>, param: Key, context: FocusContext, hub: Hub, allowGuides: Bool = false
    )
        throws(RPCError) -> String
    {
        if case .object(let object) = target, let id = object["id"]?.stringValue {
            if context.snapshot.views[id] != nil { return id }
            if allowGuides, context.engine.index.guides.contains(where: { $0.id == id }) { return id }
            throw RPCError.invalidParams(
                "\(arguments.method): '\(param.rawValue)' names no view '\(id)' (give the id of a view\(allowGuides ? " or a focus guide" : "") in app '\(context.snapshot.id)')",
                data: ["param": .string(param.rawValue), "id": .string(id), "reason": "no such view"])
        }
        return try Targets.resolveOne(target, in: context.snapshot, hub: hub, method: arguments.method)
    }

    // MARK: Results

    static func checkJSON(_ check: FocusCheck) -> JSON {
        var object: JSONObject = [
            "check": .string(check.name), "passed": .bool(check.passed), "message": .string(check.message),
        ]
        if let value = check.view { object["view"] = .string(value) }
        return .object(object)
    }

    static func brief(_ id: String, _ snap: AppSnapshot) -> JSON {
        snap.tree[id].map(ElementJSON.brief) ?? ["id": .string(id)]
    }

    static func scrollJSON(_ scroll: FocusScroll?, handled: Bool?) -> JSON {
        guard let scroll else { return .null }
        var object: JSONObject = [
            "container": .string(scroll.container),
            "contentOffset": [JSON(scroll.contentOffset.x), JSON(scroll.contentOffset.y)],
        ]
        if let handled { object["handled"] = .bool(handled) }
        return .object(object)
    }

    static func outcomeJSON(_ outcome: FocusUpdateOutcome, hub: Hub, app: String) -> JSON {
        var object: RPCResultObject<RPCFocusMoveMember> = [
            .from: JSON(outcome.from), .to: JSON(outcome.to), .heading: .string(outcome.heading),
            .moved: .bool(outcome.to != nil && outcome.to != outcome.from && outcome.cancelledBy == nil),
        ]
        object[.guide] = JSON(outcome.guide)
        object[.preferredChain] = JSON(outcome.preferredChain)
        if let failure = outcome.failure {
            object[.failure] = .string(failure)
            object[.message] = JSON(outcome.failureMessage)
        }
        if let cancelledBy = outcome.cancelledBy { object[.cancelledBy] = .string(cancelledBy) }
        if let scroll = outcome.scroll {
            object[.scroll] = scrollJSON(
                FocusScroll(container: scroll.container, contentOffset: scroll.contentOffset), handled: scroll.handled)
        } else {
            object[.scroll] = .null
        }
        if let to = outcome.to, let snap = try? hub.snapshot(app) { object[.element] = brief(to, snap) }
        return object.json
    }

    static func statusJSON(_ context: FocusContext) -> JSON {
        let engine = context.engine
        let groups = engine.groups()
        let focused = context.engineFocused
        var object: RPCResultObject<RPCCatalog.FocusStatus.Member> = [:]
        object[.engine] = focused.map { ["id": .string($0), "element": brief($0, context.snapshot)] } ?? .null
        object[.accessibility] = context.snapshot.focusedID.map { .string($0) } ?? .null
        object[.group] = JSON(focused.flatMap { engine.index[$0]?.group })
        object[.groups] = .array(
            groups.map { group in
                var groupJSON: JSONObject = [
                    "identifier": JSON(group.identifier), "items": JSON(group.items), "primary": JSON(group.primary),
                ]
                groupJSON["priorities"] = .object(
                    JSONObject(group.items.compactMap { id in engine.index[id].map { (id, JSON($0.priority)) } }))
                return .object(groupJSON)
            })
        object[.sequence] = JSON(groups.flatMap(\.items))
        let initial = engine.initialFocus()
        object[.initial] = JSON(initial?.item)
        object[.preferredChain] = JSON(initial?.chain ?? [])
        object[.keyWindow] =
            engine.index.keyWindow >= 0 ? .string(engine.index.entries[engine.index.keyWindow].id) : .null
        object[.guides] = .array(
            engine.index.guides.map { guide in
                [
                    "id": .string(guide.id), "owner": .string(engine.index.entries[guide.owner].id),
                    "frame": ElementJSON.rect(guide.frame),
                    "preferredFocusEnvironments": JSON(guide.preferred), "isEnabled": .bool(guide.isEnabled),
                ]
            })
        return object.json
    }
}

extension EngineFocusEvent {
    /// The event's notification name and body (Specs/protocol.md §Events).
    var eventName: String {
        switch self {
        case .changed: return "focus.changed"
        case .movementFailed: return "focus.movementFailed"
        }
    }

    var body: JSONObject {
        switch self {
        case .changed(let from, let to, let heading, let reason):
            return [
                "focus": "engine", "from": JSON(from), "to": JSON(to), "heading": .string(heading),
                "reason": .string(reason),
            ]
        case .movementFailed(let from, let heading, let reason, let message):
            return [
                "focus": "engine", "from": JSON(from), "heading": .string(heading), "reason": .string(reason),
                "message": .string(message),
            ]
        }
    }
}
