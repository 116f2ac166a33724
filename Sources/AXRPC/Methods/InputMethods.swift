import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol

/// The keyboard methods (Specs/protocol.md §Keys): `input.key` (a key press and/or release, offered to the
/// assistive technology first, then handled per D-KEY-2), `input.type` (text into the focused or named text
/// element) and `input.configure` (a provider lets the server handle its navigation keys). The hub
/// (AXHub/KeyInput.swift) runs the key; the AT-SPI bridge forwards it (AXATSPI/KeyForwarding.swift).
enum InputMethods {
    /// The longest text `input.type` takes in one call.
    static let maxTypedCharacters = 4_096

    static func install(_ router: RPCRouter, _ hub: Hub) {
        router.register(.inputKey) { params, session in
            let arguments = try Params(params, RPCCatalog.InputKey.self)
            let symbol = try keySymbol(arguments)
            let modifiers = try keyModifiers(arguments)
            let phase = try keyPhase(arguments)
            let (app, source) = try keyApp(arguments, hub, session)
            let outcome: KeyOutcome
            do {
                outcome = try await hub.key(
                    app: app, symbol: symbol, modifiers: modifiers, press: phase != .release,
                    release: phase != .press, source: source)
            } catch let busy as KeyInputError {
                throw busyError(busy)
            } catch let denied as KeyDeniedError {
                throw deniedError(denied)
            } catch {
                throw silentAppError(error, app: app, what: "the key '\(symbol.name)'")
            }
            return outcomeJSON(outcome)
        }
        router.register(.inputType) { params, session in
            let arguments = try Params(params, RPCCatalog.InputType.self)
            guard case .string(let text)? = arguments[.text] else {
                throw arguments.bad(.text, "is required: the text to type (a string)")
            }
            guard text.count <= maxTypedCharacters else {
                throw arguments.bad(.text, "is longer than \(maxTypedCharacters) characters; type it in several calls")
            }
            let snap = try AXMethods.snapshot(arguments, hub, session)
            let element: String
            if let target = arguments[.target] {
                element = try Targets.resolveOne(target, in: snap, hub: hub, method: RPCMethodName.inputType.rawValue)
            } else if let focused = snap.focusedID {
                element = focused
            } else {
                throw RPCError.invalidParams(
                    "input.type: no element has focus; give a 'target' ({id} or {selector}) or focus a text element first",
                    data: ["param": .string(arguments.name(.target)), "reason": "noFocus"])
            }
            do {
                let typed = try await hub.perform(app: snap.id, element: element, action: .typeText(text))
                return RPCCatalog.InputType.answer([.typed: .bool(typed), .element: .string(element)])
            } catch { throw silentAppError(error, app: snap.id, what: "the text edit of '\(element)'") }
        }
        // D-SR-1: whether a screen reader runs (UIAccessibility.isVoiceOverRunning), for any client.
        router.registerSync(.accessibilityStatus) { params, _ in
            _ = try Params(params, RPCCatalog.AccessibilityStatus.self)
            return RPCCatalog.AccessibilityStatus.answer([
                .screenReaderRunning: hub.screenReaderRunning.map { JSON.bool($0) } ?? .null
            ])
        }
        router.registerSync(.inputConfigure) { params, session in
            let arguments = try Params(params, RPCCatalog.InputConfigure.self)
            let app = try Roles.ownApp(arguments, hub, session)
            guard let on = try arguments.bool(.serverHandlesNavigation) else {
                throw arguments.bad(.serverHandlesNavigation, "is required: true or false")
            }
            do { try hub.setServerHandlesNavigation(app: app, on) } catch { throw RPCError.from(error) }
            return RPCCatalog.InputConfigure.answer([
                .serverHandlesNavigation: .bool(hub.serverHandlesNavigation(app: app))
            ])
        }
    }

    // MARK: Params

    static func keySymbol(_ arguments: Params<RPCCatalog.InputKey.Param>) throws(RPCError) -> KeySymbol {
        guard let value = arguments[.key] else {
            throw RPCError.invalidParams(
                "input.key: 'key' is required: an X keysym name (\(Keysyms.acceptedSummary))",
                data: ["param": .string(arguments.name(.key)), "method": .string(arguments.method)])
        }
        guard case .string(let name) = value else {
            throw arguments.bad(
                .key, "must be a string (an X keysym name such as Tab or Return), got \(value.typeName)")
        }
        guard let symbol = Keysyms.symbol(named: name) else {
            let shown = String(name.prefix(64))
            var message = "input.key: unknown key '\(shown)'"
            let near = Keysyms.suggestion(for: shown)
            if let chord = chordSuggestion(shown) {
                message += "; a chord is the key plus 'modifiers': \(chord)"
            } else if let near {
                // D-KEY-7: a character the layout types is sent by its keysym name (`+` → `plus`).
                message += "; did you mean '\(near)'? (keys are X keysym names, case-sensitive)"
            } else if !shown.isEmpty {
                message += "; to enter text that no key types, send it with input.type {text}"
            }
            message += "; accepted: \(Keysyms.acceptedSummary)"
            var data: JSONObject = [
                "param": .string(arguments.name(.key)), "method": .string(arguments.method), "value": .string(shown),
                "reason": "unknown key",
                "accepted": JSON(Keysyms.acceptedNames),
            ]
            if let near { data["suggestion"] = .string(near) }
            throw RPCError.invalidParams(message, data: data)
        }
        return symbol
    }

    /// Modifier names people write in chords, and the modifier each means.
    static let modifierAliases: [String: KeyModifier] = [
        "shift": .shift, "ctrl": .control, "control": .control, "alt": .alt, "option": .alt, "super": .super,
        "cmd": .super, "win": .super,
    ]

    /// For a chord spelled in `key` (`ctrl+c`, `Shift-Tab`), how to send it: `{"key": "c", "modifiers": ["ctrl"]}`
    /// (D-KEY-BAD-1); nil when `name` is not such a chord.
    static func chordSuggestion(_ name: String) -> String? {
        let separators: Set<Character> = ["+", "-"]
        let parts = name.split(whereSeparator: { separators.contains($0) }).map(String.init)
        guard parts.count >= 2, let key = parts.last, Keysyms.symbol(named: key) != nil else { return nil }
        var modifiers: [String] = []
        for part in parts.dropLast() {
            guard let modifier = modifierAliases[part.lowercased()] else { return nil }
            modifiers.append("\"\(modifier.rawValue)\"")
        }
        return "{\"key\": \"\(key)\", \"modifiers\": [\(modifiers.joined(separator: ", "))]}"
    }

    /// An app that did not answer a key or a text edit in time: −32020 naming the app, what it did not answer and the
    /// timeout (D-KEY-BAD-1); any other error as `RPCError.from`.
    static func silentAppError(_ error: any Error, app: String, what: String) -> RPCError {
        guard case .appNotResponding(let reason)? = error as? ActionError else { return RPCError.from(error) }
        return .appNotResponding(
            "app '\(app)' did not answer \(what): \(reason); the server keeps serving and the app's later requests",
            data: ["reason": .string(reason), "app": .string(app)])
    }

    /// The most names a `modifiers` list may hold: each modifier twice over (a repeat counts once, so a client that
    /// lists a chord's modifiers per key is served), and never an unbounded list.
    static let maxListedModifiers = 2 * KeyModifier.allCases.count

    static func keyModifiers(_ arguments: Params<RPCCatalog.InputKey.Param>) throws(RPCError) -> Set<KeyModifier> {
        guard let value = arguments[.modifiers] else { return [] }
        let accepted = KeyModifier.allCases.map(\.rawValue)
        guard case .array(let items) = value, items.count <= maxListedModifiers else {
            throw arguments.bad(
                .modifiers,
                "must be a list of at most \(maxListedModifiers) names (repeats count once) of "
                    + accepted.joined(separator: ", "))
        }
        var out: Set<KeyModifier> = []
        for item in items {
            guard case .string(let name) = item, let modifier = KeyModifier(rawValue: name) else {
                let shown = item.stringValue.map { "'\(String($0.prefix(32)))'" } ?? "a \(item.typeName)"
                throw RPCError.invalidParams(
                    "input.key: unknown modifier \(shown) (accepted: \(accepted.joined(separator: ", ")))",
                    data: [
                        "param": .string(arguments.name(.modifiers)), "method": .string(arguments.method),
                        "accepted": JSON(accepted),
                    ])
            }
            out.insert(modifier)
        }
        return out
    }

    static func keyPhase(_ arguments: Params<RPCCatalog.InputKey.Param>) throws(RPCError) -> RPCCatalog.InputKey.Phase {
        guard let name = try arguments.string(.phase) else { return .both }
        guard let phase = RPCCatalog.InputKey.Phase(rawValue: name) else {
            throw arguments.bad(.phase, "must be press, release or both (got '\(String(name.prefix(32)))')")
        }
        return phase
    }

    /// The app and who is sending: a provider's own app (its keys), else the named or default app (automation).
    static func keyApp(_ arguments: Params<RPCCatalog.InputKey.Param>, _ hub: Hub, _ session: RPCSession)
        throws(RPCError) -> (String, KeySource)
    {
        if session.attachment(AXMethods.appKey, as: String.self) != nil {
            return (try Roles.ownApp(arguments, hub, session), .provider)
        }
        return (try AXMethods.app(arguments, hub, session), .automation)
    }

    // MARK: Results

    static func outcomeJSON(_ outcome: KeyOutcome) -> JSON {
        var object: RPCResultObject<RPCCatalog.InputKey.Member> = [
            .consumed: .bool(outcome.consumed), .handledBy: .string(outcome.handledBy), .focus: JSON(outcome.focus),
        ]
        object[.assistiveTechnology] = .string(outcome.answers.first.map(answerName) ?? "noListener")
        return object.json
    }

    static func answerName(_ answer: KeyForwardAnswer) -> String {
        switch answer {
        case .noListener: return "noListener"
        case .consumed: return "consumed"
        case .notConsumed: return "notConsumed"
        case .timedOut: return "timeout"
        case .failed: return "failed"
        }
    }

    /// −32017 for a key kept from a guarded element (D-GA-KEY-1), saying what still works.
    static func deniedError(_ denied: KeyDeniedError) -> RPCError {
        .policyDenied(
            "input.key: guided access denies '\(denied.restriction)'" + (denied.text.map { " (\($0))" } ?? "")
                + "; the focused element '\(denied.element)' is guarded, so '\(denied.key)' was not sent to the app"
                + " (Tab and Shift-Tab still move focus away)",
            data: [
                "restriction": .string(denied.restriction), "element": .string(denied.element),
                "key": .string(denied.key), "reason": "guarded element focused",
            ])
    }

    static func busyError(_ error: KeyInputError) -> RPCError {
        switch error {
        case .busy(let app, let waiting):
            return RPCError.make(
                RPCError.Code.busy,
                "input.key: app '\(app)' already has \(waiting) keys waiting for the assistive technology; retry after the pending keys are answered",
                ["app": .string(app), "waiting": JSON(waiting), "limit": JSON(KeyInputState.queueLimit)])
        case .cancelled(let app):
            return RPCError.make(
                RPCError.Code.cancelled, "input.key: cancelled while it waited for app '\(app)'; the key was not sent",
                ["app": .string(app)])
        }
    }
}
