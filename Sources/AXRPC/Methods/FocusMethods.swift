import AXCore
import AXHub
import AXJSON

/// The focus-engine methods (Specs/protocol.md §Focus engine): `focus.move`, `focus.query`, `focus.update`,
/// `focus.explain`, `focus.status`, `focus.items`, `focus.activate`. They translate JSON; the engine
/// (AXCore/Focus) decides and the hub (EngineFocus.swift) keeps the engine focus.
enum FocusMethods {
    static func install(_ r: RPCRouter, _ hub: Hub) {
        r.register("focus.move") { params, session in
            let p = try Params(params, method: "focus.move")
            let app = try AXMethods.app(p, hub, session)
            let heading = try direction(p)
            do {
                let outcome = try await hub.updateEngineFocus(
                    app: app, heading: heading.rawValue, target: nil, simulate: false)
                return outcomeJSON(outcome, hub: hub, app: app)
            } catch { throw RPCError.from(error) }
        }
        r.registerSync("focus.query") { params, session in
            let p = try Params(params, method: "focus.query")
            let context = try focusContext(p, hub, session)
            let heading = try direction(p)
            var from = context.engineFocused
            if let fromParam = p["from"] {
                from = try viewID(fromParam, p: p, param: "from", context: context, hub: hub)
            }
            // C33: the focus debugger's simulate — where focus would go; nothing changes, nothing is emitted.
            var o: JSONObject = ["from": JSON(from), "heading": .string(heading.rawValue), "simulated": true]
            switch context.engine.move(from: from, heading: heading) {
            case .success(let decision):
                o["to"] = .string(decision.item)
                o["guide"] = JSON(decision.guide)
                o["preferredChain"] = JSON(decision.preferredChain)
                o["scroll"] = scrollJSON(decision.scroll, handled: nil)
                o["element"] = brief(decision.item, context.snapshot)
            case .failure(let failure):
                o["to"] = .null
                o["failure"] = .string(failure.reason)
                o["message"] = .string(failure.message)
            }
            return .object(o)
        }
        r.register("focus.update") { params, session in
            let p = try Params(params, method: "focus.update")
            let app = try AXMethods.app(p, hub, session)
            var target: String?
            if let t = p["target"] {
                let context: FocusContext
                do { context = try hub.focusContext(app: app) } catch { throw RPCError.from(error) }
                target = try viewID(t, p: p, param: "target", context: context, hub: hub, allowGuides: true)
            }
            do {
                let outcome = try await hub.updateEngineFocus(
                    app: app, heading: FocusHeading.none.rawValue, target: target, simulate: false)
                return outcomeJSON(outcome, hub: hub, app: app)
            } catch { throw RPCError.from(error) }
        }
        r.registerSync("focus.explain") { params, session in
            let p = try Params(params, method: "focus.explain")
            let context = try focusContext(p, hub, session)
            guard let t = p["target"] else { throw p.bad("target", "is required: {\"id\": view id} or a selector") }
            let id = try viewID(t, p: p, param: "target", context: context, hub: hub)
            let checks = context.engine.checks(id)
            let failed = checks.first { !$0.passed }
            var o: JSONObject = [
                "target": .string(id), "focusable": .bool(failed == nil),
                "checks": .array(checks.map(checkJSON)), "focused": .bool(context.engineFocused == id),
            ]
            o["failed"] = failed.map { .object(checkJSON($0).objectValue ?? [:]) } ?? .null
            if let entry = context.engine.index[id] {
                o["group"] = JSON(entry.group)
                o["priority"] = JSON(entry.priority)
            }
            return .object(o)
        }
        r.registerSync("focus.status") { params, session in
            let p = try Params(params, method: "focus.status")
            let context = try focusContext(p, hub, session)
            return .object(statusJSON(context))
        }
        r.registerSync("focus.items") { params, session in
            let p = try Params(params, method: "focus.items")
            let context = try focusContext(p, hub, session)
            var rect: Rect?
            if let r = p["rect"] {
                guard case .array(let numbers) = r, numbers.count == 4 else {
                    throw p.bad("rect", "must be [x, y, width, height] in screen points")
                }
                let values = numbers.compactMap { value -> Double? in
                    guard case .number(let d) = value, d.isFinite, abs(d) < 1e7 else { return nil }
                    return d
                }
                guard values.count == 4, values[2] >= 0, values[3] >= 0 else {
                    throw p.bad("rect", "must be [x, y, width, height]: finite numbers below 10^7, sizes ≥ 0")
                }
                rect = Rect(x: values[0], y: values[1], width: values[2], height: values[3])
            }
            return ["items": JSON(context.engine.items(intersecting: rect))]
        }
        r.register("focus.activate") { params, session in
            let p = try Params(params, method: "focus.activate")
            let context = try focusContext(p, hub, session)
            // C30: a press goes to the focused item first.
            guard let focused = context.engineFocused else {
                throw RPCError.invalidParams(
                    "focus.activate: no item has engine focus (move focus first with focus.move or focus.update)",
                    data: ["reason": "noEngineFocus"])
            }
            do {
                let performed = try await hub.perform(app: context.snapshot.id, element: focused, action: .activate)
                return ["performed": .bool(performed), "element": .string(focused)]
            } catch { throw RPCError.from(error) }
        }
    }

    // MARK: Params

    static func focusContext(_ p: Params, _ hub: Hub, _ session: RPCSession) throws(RPCError) -> FocusContext {
        let app = try AXMethods.app(p, hub, session)
        do { return try hub.focusContext(app: app) } catch { throw RPCError.from(error) }
    }

    static func direction(_ p: Params) throws(RPCError) -> FocusHeading {
        let accepted = FocusHeading.movable.map(\.rawValue)
        guard let v = p["direction"] else {
            throw RPCError.invalidParams(
                "\(p.method): 'direction' is required (one of \(accepted.joined(separator: ", ")))",
                data: ["param": "direction", "accepted": JSON(accepted)])
        }
        guard case .string(let s) = v, let heading = FocusHeading(rawValue: s), heading != .none else {
            let shown = v.stringValue.map { "'\($0)'" } ?? "a \(v.typeName)"
            throw RPCError.invalidParams(
                "\(p.method): unknown direction \(shown) (accepted: \(accepted.joined(separator: ", ")))",
                data: ["param": "direction", "value": v, "accepted": JSON(accepted)])
        }
        return heading
    }

    /// A focus target names a view (focus items are views, not only accessibility elements): `{"id": view}`, or
    /// a selector matching one element.
    static func viewID(_ v: JSON, p: Params, param: String, context: FocusContext, hub: Hub, allowGuides: Bool = false)
        throws(RPCError) -> String
    {
        if case .object(let o) = v, let id = o["id"]?.stringValue {
            if context.snapshot.views[id] != nil { return id }
            if allowGuides, context.engine.index.guides.contains(where: { $0.id == id }) { return id }
            throw RPCError.invalidParams(
                "\(p.method): '\(param)' names no view '\(id)' (give the id of a view\(allowGuides ? " or a focus guide" : "") in app '\(context.snapshot.id)')",
                data: ["param": .string(param), "id": .string(id), "reason": "no such view"])
        }
        return try Targets.resolveOne(v, in: context.snapshot, hub: hub, method: p.method)
    }

    // MARK: Results

    static func checkJSON(_ c: FocusCheck) -> JSON {
        var o: JSONObject = ["check": .string(c.name), "passed": .bool(c.passed), "message": .string(c.message)]
        if let v = c.view { o["view"] = .string(v) }
        return .object(o)
    }

    static func brief(_ id: String, _ snap: AppSnapshot) -> JSON {
        snap.tree[id].map(ElementJSON.brief) ?? ["id": .string(id)]
    }

    static func scrollJSON(_ s: FocusScroll?, handled: Bool?) -> JSON {
        guard let s else { return .null }
        var o: JSONObject = [
            "container": .string(s.container), "contentOffset": [JSON(s.contentOffset.x), JSON(s.contentOffset.y)],
        ]
        if let handled { o["handled"] = .bool(handled) }
        return .object(o)
    }

    static func outcomeJSON(_ outcome: FocusUpdateOutcome, hub: Hub, app: String) -> JSON {
        var o: JSONObject = [
            "from": JSON(outcome.from), "to": JSON(outcome.to), "heading": .string(outcome.heading),
            "moved": .bool(outcome.to != nil && outcome.to != outcome.from && outcome.cancelledBy == nil),
        ]
        o["guide"] = JSON(outcome.guide)
        o["preferredChain"] = JSON(outcome.preferredChain)
        if let failure = outcome.failure {
            o["failure"] = .string(failure)
            o["message"] = JSON(outcome.failureMessage)
        }
        if let cancelledBy = outcome.cancelledBy { o["cancelledBy"] = .string(cancelledBy) }
        if let scroll = outcome.scroll {
            o["scroll"] = scrollJSON(
                FocusScroll(container: scroll.container, contentOffset: scroll.contentOffset), handled: scroll.handled)
        } else {
            o["scroll"] = .null
        }
        if let to = outcome.to, let snap = try? hub.snapshot(app) { o["element"] = brief(to, snap) }
        return .object(o)
    }

    static func statusJSON(_ context: FocusContext) -> JSONObject {
        let engine = context.engine
        let groups = engine.groups()
        let focused = context.engineFocused
        var o: JSONObject = [:]
        o["engine"] = focused.map { ["id": .string($0), "element": brief($0, context.snapshot)] } ?? .null
        o["accessibility"] = context.snapshot.focusedID.map { .string($0) } ?? .null
        o["group"] = JSON(focused.flatMap { engine.index[$0]?.group })
        o["groups"] = .array(
            groups.map { group in
                var g: JSONObject = [
                    "identifier": JSON(group.identifier), "items": JSON(group.items), "primary": JSON(group.primary),
                ]
                g["priorities"] = .object(
                    JSONObject(group.items.compactMap { id in engine.index[id].map { (id, JSON($0.priority)) } }))
                return .object(g)
            })
        o["sequence"] = JSON(groups.flatMap(\.items))
        let initial = engine.initialFocus()
        o["initial"] = JSON(initial?.item)
        o["preferredChain"] = JSON(initial?.chain ?? [])
        o["keyWindow"] = engine.index.keyWindow >= 0 ? .string(engine.index.entries[engine.index.keyWindow].id) : .null
        o["guides"] = .array(
            engine.index.guides.map { guide in
                [
                    "id": .string(guide.id), "owner": .string(engine.index.entries[guide.owner].id),
                    "frame": ElementJSON.rect(guide.frame),
                    "preferredFocusEnvironments": JSON(guide.preferred), "isEnabled": .bool(guide.isEnabled),
                ]
            })
        return o
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
