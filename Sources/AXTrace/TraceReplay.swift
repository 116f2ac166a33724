import AXJSON
import AXProtocol

/// What replaying one recorded step means (`axquery trace replay`, Specs/trace-swift.md §Replay). Pure: no I/O.
package enum TraceReplayPlan: Sendable, Equatable {
    /// Not sent again, and why (a note, the connection's own `initialize`, a subscription).
    case skip(String)
    /// The step's params hold masked text (`•••`): it cannot be sent again.
    case masked
    /// A JSON-RPC call (`call`, `key`, `wait` steps). `observed`: compare the diff and focus after it.
    case call(method: String, params: JSONObject, observed: Bool)
    /// An MCP tool call (`tool` steps).
    case tool(name: String, arguments: JSONObject, observed: Bool)
}

/// A `tree.diff` result reduced to what a replay compares: ids and the names of changed fields, never values.
package struct TraceDiffShape: Sendable, Equatable {
    package var added: Set<String> = []
    package var removed: Set<String> = []
    package var moved: Set<String> = []
    /// Element id → the names of its fields that changed.
    package var updated: [String: Set<String>] = [:]

    package init() {}

    /// The shape of a `tree.diff` result (or a step's recorded `diff`; `null` is no change). Entries may be ids or
    /// element objects with an `id`; anything else is ignored.
    package init(_ diff: JSON?) {
        guard let diff, case .object(let object) = diff else { return }
        func ids(_ key: String) -> Set<String> {
            Set((object[key]?.arrayValue ?? []).compactMap { $0.stringValue ?? $0["id"]?.stringValue })
        }
        added = ids("added")
        removed = ids("removed")
        moved = ids("moved")
        for (id, fields) in object["updated"]?.objectValue ?? [:] {
            updated[id] = Set((fields.arrayValue ?? []).compactMap(\.stringValue))
        }
    }

    /// The shape without the elements `ids` (volatile or ignored elements).
    package func without(_ ids: Set<String>) -> TraceDiffShape {
        var shape = self
        shape.added.subtract(ids)
        shape.removed.subtract(ids)
        shape.moved.subtract(ids)
        for id in ids { shape.updated[id] = nil }
        return shape
    }

    /// Every element id the shape names.
    package var ids: Set<String> { added.union(removed).union(moved).union(updated.keys) }

    /// The shape as one line: `+a +b -c >d ~e{label,value}`, or `no change`.
    package var text: String {
        var parts: [String] = []
        parts += added.sorted().map { "+" + $0 }
        parts += removed.sorted().map { "-" + $0 }
        parts += moved.sorted().map { ">" + $0 }
        parts += updated.keys.sorted().map { id in "~\(id){\((updated[id] ?? []).sorted().joined(separator: ","))}" }
        return parts.isEmpty ? "no change" : parts.joined(separator: " ")
    }
}

/// What a replayed step did: its error code, and (observed steps) the shape of its diff and the focus after it.
package struct TraceOutcome: Sendable, Equatable {
    package var errorCode: Int?
    package var diff: TraceDiffShape?
    package var focusAfter: TraceFocus?

    package init(errorCode: Int?, diff: TraceDiffShape? = nil, focusAfter: TraceFocus? = nil) {
        self.errorCode = errorCode
        self.diff = diff
        self.focusAfter = focusAfter
    }
}

/// One way a replayed step differs from its recording.
package struct TraceDifference: Sendable, Equatable {
    /// `error`, `diff`, `focus.accessibility` or `focus.engine`.
    package var what: String
    package var expected: String
    package var happened: String

    package init(what: String, expected: String, happened: String) {
        self.what = what
        self.expected = expected
        self.happened = happened
    }
}

/// The pure half of `axquery trace replay`: which steps are sent again and how a step's outcome is compared.
///
/// Compared (D-TRACE-REPLAY-1): the error code (absent or which) on every step; on steps whose recording has a
/// `revision` (observed steps), the diff's shape — ids added, removed, moved and updated with the names of the
/// updated fields, never values — without the volatile elements, and the focus after (engine and accessibility
/// ids) when the recording has it. Read-only steps are sent again but differ only by their error.
package enum TraceReplay {
    /// Methods never sent again: the replaying connection has its own session and subscriptions.
    package static let skippedMethods: Set<String> = [
        RPCMethodName.initialize.rawValue, RPCMethodName.shutdown.rawValue, RPCMethodName.eventsSubscribe.rawValue,
        RPCMethodName.eventsUnsubscribe.rawValue,
    ]

    /// How step `step` (a recorded step line) is replayed; `app` replaces the params' `app` when given.
    package static func plan(_ step: JSONObject, app: String?) -> TraceReplayPlan {
        let kind = step["kind"]?.stringValue.flatMap(TraceStepKind.init(rawValue:)) ?? .note
        let method = step["method"]?.stringValue ?? ""
        var params = step["params"]?.objectValue ?? [:]
        if params["masked"] == .bool(true) || params.values.contains(.string(TraceFormat.maskedText)) {
            return .masked
        }
        params["masked"] = nil
        let observed = step["revision"].map { $0 != .null } ?? false
        switch kind {
        case .note: return .skip("a note")
        case .tool:
            if let app { params["app"] = .string(app) }
            return .tool(name: method, arguments: params, observed: observed)
        case .call, .key, .wait:
            if skippedMethods.contains(method) { return .skip("the replaying connection has its own") }
            if let app { params[rpcAppParameter] = .string(app) }
            return .call(method: method, params: params, observed: observed)
        }
    }

    /// How `replayed` differs from the recorded step `step`, ignoring the elements `volatile`; empty when it agrees.
    package static func compare(_ step: JSONObject, _ replayed: TraceOutcome, volatile: Set<String>)
        -> [TraceDifference]
    {
        var differences: [TraceDifference] = []
        let expectedCode = step["error"]?["code"]?.intValue
        if expectedCode != replayed.errorCode {
            differences.append(
                TraceDifference(
                    what: "error", expected: errorText(expectedCode, step["error"]?["message"]?.stringValue),
                    happened: errorText(replayed.errorCode, nil)))
        }
        guard step["revision"].map({ $0 != .null }) ?? false, replayed.errorCode == nil || expectedCode != nil else {
            return differences
        }
        if let diff = replayed.diff {
            let expected = TraceDiffShape(step["diff"]).without(volatile)
            let happened = diff.without(volatile)
            if expected != happened {
                differences.append(TraceDifference(what: "diff", expected: expected.text, happened: happened.text))
            }
        }
        differences += focusDifferences(step["focus"]?["after"], replayed.focusAfter)
        return differences
    }

    static func focusDifferences(_ recorded: JSON?, _ replayed: TraceFocus?) -> [TraceDifference] {
        guard let recorded, case .object = recorded, let replayed else { return [] }
        var differences: [TraceDifference] = []
        for (key, now) in [("accessibility", replayed.accessibility), ("engine", replayed.engine)] {
            let then = recorded[key]?.stringValue
            if then != now {
                differences.append(
                    TraceDifference(what: "focus.\(key)", expected: then ?? "none", happened: now ?? "none"))
            }
        }
        return differences
    }

    static func errorText(_ code: Int?, _ message: String?) -> String {
        guard let code else { return "no error" }
        return message.map { "error \(code) \($0)" } ?? "error \(code)"
    }

    /// Ids a tree changed by itself between two moments (`tree.diff` of a gap with no call): updated elements only
    /// — an element that appears or leaves on its own is not called volatile.
    package static func volatileIds(inGap diff: JSON?) -> Set<String> {
        Set(TraceDiffShape(diff).updated.keys)
    }
}
