import AXJSON
import AXProtocol

/// The accessibility trace format 1 (Specs/trace.md): JSON Lines — a header, one line per step, an end line.
/// This file builds the lines; `TraceReader` reads them back. Pure: no I/O (`TraceFile` writes and reads files).
package enum TraceFormat {
    /// The format version this code writes and the newest it reads.
    package static let version = 1
    /// The longest line a reader accepts (a first step's snapshot of a 10,000-control app is about 3 MB).
    package static let maxLineBytes = 32 << 20
    /// The largest file a reader reads.
    package static let maxFileBytes = 256 << 20
    /// Diff operations kept per step (`diffDropped` counts the rest).
    package static let maxDiffOps = 2_000
    /// Events kept per step (`eventsDropped` counts the rest).
    package static let maxEvents = 200
    /// Bytes of a step's result kept (a longer one is kept as a prefix string with `resultCut`).
    package static let maxResultBytes = 4_096
    /// What a masked text is recorded as.
    package static let maskedText = "•••"
    /// Param keys whose values are never recorded (tokens).
    package static let secretKeys: Set<String> = ["token", "auth", "password", "operatorToken"]
}

/// Who wrote a trace (the header's `source`).
package enum TraceSource: String, Sendable, CaseIterable {
    case pytest, mcp, record, python, swift
}

/// What a step is (the step's `kind`).
package enum TraceStepKind: String, Sendable, CaseIterable {
    /// A JSON-RPC call.
    case call
    /// A key press (`input.key`, `input.keys`).
    case key
    /// An MCP tool call.
    case tool
    /// A wait (`wait.for`).
    case wait
    /// A note (a server restart, a failure).
    case note
}

/// The header line.
package struct TraceHeader: Sendable, Equatable {
    package var source: TraceSource
    package var title: String
    /// RFC 3339 UTC.
    package var started: String
    package var producer: String
    package var pictures = false
    package var screenReader: String?

    package init(source: TraceSource, title: String, started: String, producer: String) {
        self.source = source
        self.title = title
        self.started = started
        self.producer = producer
    }

    /// The header as a JSON object, keys in the order of Specs/trace.md.
    package var json: JSON {
        [
            "axtrace": JSON(TraceFormat.version), "source": .string(source.rawValue), "title": .string(title),
            "started": .string(started), "producer": .string(producer), "pictures": .bool(pictures),
            "screenReader": screenReader.map(JSON.string) ?? .null,
        ]
    }
}

/// Engine and accessibility focus at one moment (element ids).
package struct TraceFocus: Sendable, Equatable {
    package var engine: String?
    package var accessibility: String?

    package init(engine: String?, accessibility: String?) {
        self.engine = engine
        self.accessibility = accessibility
    }

    var json: JSON {
        ["engine": engine.map(JSON.string) ?? .null, "accessibility": accessibility.map(JSON.string) ?? .null]
    }
}

/// What a step's call answered when it failed.
package struct TraceError: Sendable, Equatable {
    package var code: Int
    package var message: String

    package init(code: Int, message: String) {
        self.code = code
        self.message = message
    }
}

/// One step: what was called, on what, and what it changed.
package struct TraceStep: Sendable {
    package var kind: TraceStepKind
    package var method: String
    /// The params as recorded (pass them through `TraceSecrets.params` first).
    package var params: JSONObject
    /// `{id, selector, label, class}` of the element the call resolved to, or nil.
    package var target: JSONObject?
    /// Milliseconds from the trace's start to the step's start.
    package var startMs: Double
    /// The call's duration in milliseconds.
    package var durationMs: Double
    package var revision: (before: Int, after: Int)?
    /// The tree (a `tree.get` result), on the first step that has one.
    package var snapshot: JSON?
    /// The `tree.diff` result from before to after; nil when the revision did not move.
    package var diff: JSON?
    package var focus: (before: TraceFocus, after: TraceFocus)?
    package var events: [JSON] = []
    package var result: JSON?
    package var error: TraceError?

    package init(kind: TraceStepKind, method: String, params: JSONObject, startMs: Double, durationMs: Double) {
        self.kind = kind
        self.method = method
        self.params = params
        self.startMs = startMs
        self.durationMs = durationMs
    }

    /// What was left out of the step by the bounds.
    package struct Dropped: Sendable, Equatable {
        package var diffOps = 0
        package var events = 0
    }

    /// The step's line as a JSON object numbered `number`, bounded (Specs/trace.md, section Bounds), and what was left out.
    package func json(number: Int) -> (JSON, Dropped) {
        var dropped = Dropped()
        var object: JSONObject = [
            "step": JSON(number), "kind": .string(kind.rawValue), "method": .string(method),
            "params": .object(params), "target": target.map(JSON.object) ?? .null,
            "t": .number(Self.rounded(startMs)), "ms": .number(Self.rounded(durationMs)),
            "revision": revision.map { JSON.array([JSON($0.before), JSON($0.after)]) } ?? .null,
        ]
        if let snapshot { object["snapshot"] = snapshot }
        if let diff {
            let (kept, cut) = TraceBounds.diff(diff)
            object["diff"] = kept
            if cut > 0 { object["diffDropped"] = JSON(cut) }
            dropped.diffOps = cut
        } else {
            object["diff"] = .null
        }
        object["focus"] = focus.map { JSON.object(["before": $0.before.json, "after": $0.after.json]) } ?? .null
        object["events"] = .array(Array(events.prefix(TraceFormat.maxEvents)))
        if events.count > TraceFormat.maxEvents {
            dropped.events = events.count - TraceFormat.maxEvents
            object["eventsDropped"] = JSON(dropped.events)
        }
        object["speech"] = ["orca": .null, "preview": .null]
        if let result {
            let (kept, cut) = TraceBounds.result(result)
            object["result"] = kept
            if cut { object["resultCut"] = true }
        }
        object["error"] = error.map { ["code": JSON($0.code), "message": .string($0.message)] } ?? .null
        return (.object(object), dropped)
    }

    /// Milliseconds to the microsecond (shorter lines, no false precision).
    static func rounded(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return (value * 1_000).rounded() / 1_000
    }
}

/// The end line: steps written and what the bounds left out over the whole trace.
package struct TraceEnd: Sendable, Equatable {
    package var steps: Int
    package var droppedSteps = 0
    package var droppedDiffOps = 0
    package var droppedEvents = 0

    package init(steps: Int) { self.steps = steps }

    package var json: JSON {
        [
            "end": true, "steps": JSON(steps),
            "dropped": [
                "steps": JSON(droppedSteps), "diffOps": JSON(droppedDiffOps), "events": JSON(droppedEvents),
            ],
        ]
    }
}

/// The per-step bounds of Specs/trace.md, section Bounds.
package enum TraceBounds {
    /// The diff's lists in the order they are kept.
    static let diffLists = ["removed", "added", "moved"]

    /// A `tree.diff` result with at most `TraceFormat.maxDiffOps` operations (removed, added, moved, then updated
    /// ids, in that order), and how many were left out.
    package static func diff(_ diff: JSON, limit: Int = TraceFormat.maxDiffOps) -> (JSON, Int) {
        guard case .object(var object) = diff else { return (diff, 0) }
        var room = limit
        var cut = 0
        for key in diffLists {
            guard let list = object[key]?.arrayValue else { continue }
            let kept = min(room, list.count)
            cut += list.count - kept
            room -= kept
            if kept < list.count { object[key] = .array(Array(list.prefix(kept))) }
        }
        if case .object(let updated)? = object["updated"] {
            let kept = min(room, updated.count)
            cut += updated.count - kept
            if kept < updated.count {
                var shortened = JSONObject(minimumCapacity: kept)
                for (key, value) in updated.prefix(kept) { shortened[key] = value }
                object["updated"] = .object(shortened)
            }
        }
        return (.object(object), cut)
    }

    /// A result whose compact JSON is at most `limit` bytes, else that JSON's prefix (whole characters) as a
    /// string; whether it was cut.
    package static func result(_ result: JSON, limit: Int = TraceFormat.maxResultBytes) -> (JSON, Bool) {
        let bytes = result.serialized()
        guard bytes.count > limit else { return (result, false) }
        var end = limit
        // Back up to the start of a UTF-8 sequence (continuation bytes are 10xxxxxx).
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return (.string(String(decoding: bytes[..<end], as: UTF8.self)), true)
    }
}

/// Secrets never enter a trace (Specs/trace.md, section Secrets).
package enum TraceSecrets {
    /// Param keys that carry typed text.
    static let textKeys = ["text", "value"]

    /// `params` with tokens removed and, when `secureTarget`, typed text replaced by "•••" and `masked: true`.
    package static func params(_ params: JSONObject, secureTarget: Bool) -> JSONObject {
        var out = JSONObject(minimumCapacity: params.count)
        var masked = false
        for (key, value) in params {
            if TraceFormat.secretKeys.contains(key) { continue }
            if secureTarget && textKeys.contains(key), case .string = value {
                out[key] = .string(TraceFormat.maskedText)
                masked = true
            } else {
                out[key] = value
            }
        }
        if masked { out["masked"] = true }
        return out
    }

    /// Whether an element (as `element.get` or `focus.get` answer it) is secure: its states or traits hold
    /// `secure`, or its class is a secure text field.
    package static func isSecure(_ element: JSON?) -> Bool {
        guard let element, case .object = element else { return false }
        for key in ["states", "traits"] {
            if element[key]?.arrayValue?.contains(.string("secure")) == true { return true }
        }
        return element["class"]?.stringValue?.lowercased().contains("secure") == true
    }

    /// Whether a catalog method types text into its target (its text params are masked for a secure target).
    package static func typesText(_ method: String) -> Bool {
        guard let name = RPCMethodName(rawValue: method) else { return false }
        return textMethods.contains(name)
    }

    static let textMethods: Set<RPCMethodName> = [.actionTypeText, .actionSetValue, .inputType]
}
