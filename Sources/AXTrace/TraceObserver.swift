import AXJSON
import AXJSONRPC
import AXProtocol

/// Where a recorder's own calls go (the live server): `axquery mcp`'s backend, `axquery record`'s side connection.
package protocol TraceProbe: Sendable {
    /// Calls `method` on the server.
    func call(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON
}

/// The app's state at one moment: its revision and focus (nil when the server could not say).
package struct TraceMoment: Sendable, Equatable {
    package var revision: Int?
    package var focus: TraceFocus?
}

/// What a recorder learned before a call: the moment, the element the call aims at, whether it is secure.
package struct TraceBefore: Sendable {
    package var moment: TraceMoment
    package var target: JSONObject?
    package var secureTarget: Bool
}

/// The calls a recorder makes around a step (Specs/trace-swift.md §Recording): before it `tree.revision`, the
/// focus (`focus.get`, `focus.query`) and `element.get` on its target (or `focus.get` for typing without one);
/// after it `tree.diff` from the revision before, the focus, and `tree.get` on the first step. All through the
/// catalog.
package struct TraceObserver: Sendable {
    let probe: any TraceProbe
    /// Each observation call's timeout (a recorder never waits long for itself).
    static let timeout: Duration = .seconds(5)

    package init(probe: any TraceProbe) { self.probe = probe }

    func call<Spec>(_ method: RPCMethod<Spec>, _ params: RPCParams<Spec.Param>, app: String?)
        async throws(RPCError) -> RPCReply<Spec.Member>
    {
        var object = params.object
        if let app { object[rpcAppParameter] = .string(app) }
        return RPCReply(try await probe.call(method.wireName, .object(object), timeout: Self.timeout))
    }

    /// The revision and both focuses of `app` now (the two calls in flight together).
    package func moment(app: String?) async -> TraceMoment {
        async let revision = try? await call(.treeRevision, [:], app: app)[.revision]?.intValue
        async let focus = focusNow(app: app)
        return await TraceMoment(revision: revision, focus: focus)
    }

    /// Accessibility focus from `focus.get` and engine focus from `focus.query {direction: next}`'s `from` (a
    /// simulation: nothing moves, nothing is emitted), both in flight together; nil when either failed.
    /// (`focus.status` says both but lists every focus group and item: 765 KB and 134 ms on 10,000 controls.)
    func focusNow(app: String?) async -> TraceFocus? {
        async let accessibility = try? await call(.focusGet, [:], app: app)
        async let engine = try? await call(.focusQuery, [.direction: "next"], app: app)
        guard let accessibility = await accessibility, let engine = await engine else { return nil }
        return TraceFocus(
            engine: engine[.from]?.stringValue, accessibility: accessibility[.element]?["id"]?.stringValue)
    }

    /// The moment before a call aimed at `target` (a protocol target: `{id}` or `{selector}`), and the element it
    /// resolves to. `typesText`: the call types text, so its target (or, without one, the focused element) is
    /// checked for `secure`; when that check fails the text is masked anyway. All calls are in flight together.
    package func before(app: String?, target: JSON?, typesText: Bool) async -> TraceBefore {
        async let moment = moment(app: app)
        async let aimed = resolve(app: app, target: target, typesText: typesText)
        let (resolved, secure) = await aimed
        return await TraceBefore(moment: moment, target: resolved, secureTarget: secure)
    }

    /// The element `target` names (`{id, selector, label, class}`) and whether typed text must be masked.
    func resolve(app: String?, target: JSON?, typesText: Bool) async -> (JSONObject?, Bool) {
        guard let target, case .object(let given) = target else {
            guard typesText else { return (nil, false) }
            do {
                return (nil, TraceSecrets.isSecure(try await call(.focusGet, [:], app: app)[.element]))
            } catch {
                return (nil, true)
            }
        }
        var described = JSONObject()
        for key in ["id", "selector"] { described[key] = given[key] ?? .null }
        do {
            let element = try await call(.elementGet, [.target: target], app: app)
            described["id"] = element[.id] ?? described["id"] ?? .null
            described["label"] = element[.label] ?? .null
            described["class"] = element[.class] ?? .null
            return (described, TraceSecrets.isSecure(element.json))
        } catch {
            return (described, typesText)
        }
    }

    /// Fills in `step`'s revision, diff, focus and (on the trace's first step with a tree) snapshot: `tree.diff`
    /// from the revision before to now (its `toRevision` is the revision after) beside the focus.
    package func after(_ before: TraceMoment, app: String?, step: inout TraceStep, recorder: TraceRecorder) async {
        async let focus = focusNow(app: app)
        var revisionAfter: Int?
        if let from = before.revision {
            let diff = try? await call(.treeDiff, [.fromRevision: JSON(from)], app: app)
            if let to = diff?[.toRevision]?.intValue {
                revisionAfter = to
                step.revision = (from, to)
                if to != from { step.diff = diff?.json }
            }
        }
        if let from = before.focus, let to = await focus { step.focus = (from, to) }
        if revisionAfter != nil, recorder.claimSnapshot() {
            do {
                step.snapshot = try await call(.treeGet, [.format: "json"], app: app).json
            } catch {
                recorder.releaseSnapshot()
            }
        }
    }
}

/// How a recorder treats a catalog method it sees a client call (`axquery record`).
package enum TraceCalls {
    /// The step kind of a call of `method`: `key` for the Keys section, `wait` for Waiting, else `call`.
    package static func kind(of method: String) -> TraceStepKind {
        guard let name = RPCMethodName(rawValue: method) else { return .call }
        switch name.entry.section {
        case .keys: return .key
        case .waiting: return .wait
        case .lifecycle, .providerRole, .tree, .query, .appReset, .actions, .scriptQueries, .focus, .focusEngine,
            .settings, .rotors, .events, .guidedAccess, .audits, .speech, .pictures:
            return .call
        }
    }

    /// Whether a call of `method` is observed before and after (revision, diff, focus). Calls that only read
    /// (Lifecycle, Tree, Query, Script queries, Events, Audits, Speech, Pictures) are recorded without; a method
    /// outside the catalog is observed.
    package static func observes(_ method: String) -> Bool {
        guard let name = RPCMethodName(rawValue: method) else { return true }
        switch name.entry.section {
        case .lifecycle, .tree, .query, .scriptQueries, .events, .audits, .speech, .pictures: return false
        case .providerRole, .waiting, .appReset, .actions, .focus, .focusEngine, .keys, .settings, .rotors,
            .guidedAccess:
            return true
        }
    }
}
