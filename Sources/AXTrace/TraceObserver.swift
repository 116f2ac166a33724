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

/// The calls a recorder makes around a step (Specs/trace-swift.md §Recording): before it `tree.revision` and
/// `focus.status` (and `element.get` on its target, or `focus.get` for typing without one); after it the same
/// two, `tree.diff` when the revision moved, and `tree.get` on the first step. All through the catalog.
package struct TraceObserver: Sendable {
    let probe: any TraceProbe
    /// Each observation call's timeout (a recorder never waits long for itself).
    static let timeout: Duration = .seconds(5)

    package init(probe: any TraceProbe) { self.probe = probe }

    func call<Spec>(_ method: RPCMethod<Spec>, _ params: RPCParams<Spec.Param>, app: String?)
        async throws(RPCError) -> JSON
    {
        var object = params.object
        if let app { object[rpcAppParameter] = .string(app) }
        return try await probe.call(method.wireName, .object(object), timeout: Self.timeout)
    }

    /// The revision and both focuses of `app` now.
    package func moment(app: String?) async -> TraceMoment {
        let revision = try? await call(.treeRevision, [:], app: app)["revision"]?.intValue
        var focus: TraceFocus?
        if let status = try? await call(.focusStatus, [:], app: app) {
            focus = TraceFocus(
                engine: status["engine"]?["id"]?.stringValue, accessibility: status["accessibility"]?.stringValue)
        }
        return TraceMoment(revision: revision, focus: focus)
    }

    /// The moment before a call aimed at `target` (a protocol target: `{id}` or `{selector}`), and the element it
    /// resolves to. `typesText`: the call types text, so its target (or, without one, the focused element) is
    /// checked for `secure`; when that check fails the text is masked anyway.
    package func before(app: String?, target: JSON?, typesText: Bool) async -> TraceBefore {
        let moment = await moment(app: app)
        var resolved: JSONObject?
        var secure = false
        if let target, case .object(let given) = target {
            var described = JSONObject()
            for key in ["id", "selector"] { described[key] = given[key] ?? .null }
            do {
                let element = try await call(.elementGet, [.target: target], app: app)
                described["id"] = element["id"] ?? described["id"] ?? .null
                described["label"] = element["label"] ?? .null
                described["class"] = element["class"] ?? .null
                secure = TraceSecrets.isSecure(element)
            } catch {
                secure = typesText
            }
            resolved = described
        } else if typesText {
            do {
                secure = TraceSecrets.isSecure(try await call(.focusGet, [:], app: app)["element"])
            } catch {
                secure = true
            }
        }
        return TraceBefore(moment: moment, target: resolved, secureTarget: secure)
    }

    /// Fills in `step`'s revision, diff, focus and (on the trace's first step with a tree) snapshot.
    package func after(_ before: TraceMoment, app: String?, step: inout TraceStep, recorder: TraceRecorder) async {
        let now = await moment(app: app)
        if let from = before.revision, let to = now.revision {
            step.revision = (from, to)
            if from != to {
                step.diff = try? await call(
                    .treeDiff, [.fromRevision: JSON(from), .toRevision: JSON(to)], app: app)
            }
        }
        if let from = before.focus, let to = now.focus { step.focus = (from, to) }
        if now.revision != nil, recorder.claimSnapshot() {
            do {
                step.snapshot = try await call(.treeGet, [.format: "json"], app: app)
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
