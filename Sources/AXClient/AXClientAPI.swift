import AXJSON
import AXJSONRPC
import AXProtocol

/// The rest of the API with Playwright's names where Playwright has one (issue 26): keys, the focus engine,
/// rotors, audits, speech and pictures. Each returns the server's result (Specs/protocol.md) and throws the
/// server's typed error (`AXClientError`: a wrong argument is −32602 with `data.accepted`).
extension AXClient {
    /// Keys as a keyboard sends them (`input.key`, `input.type`).
    public var keyboard: AXKeyboard { AXKeyboard(client: self) }
    /// The server's UIKit focus engine (`focus.*`).
    public var focusEngine: AXFocusEngine { AXFocusEngine(client: self) }
    /// VoiceOver's rotors (`rotor.*`).
    public var rotors: AXRotors { AXRotors(client: self) }

    /// `audit.run`: findings of every check (or `checks`), minus `suppress` (check ids or
    /// `{"check":…, "selector":…}`); `report` `"junit"` or `"sarif"` adds the CI report as `report`.
    public func audit(
        root: Locator? = nil, checks: [String]? = nil, suppress: [JSON]? = nil, report: String? = nil
    ) async throws(AXClientError) -> JSON {
        var params: RPCParams<RPCCatalog.AuditRun.Param> = [:]
        if let root { params[.root] = root.target }
        if let checks { params[.checks] = JSON(checks) }
        if let suppress { params[.suppress] = .array(suppress) }
        if let report { params[.report] = .string(report) }
        return try await call(.auditRun, params).json
    }

    /// `speech.describe`: what VoiceOver and Orca say for the element (`model`: `voiceOver` or `orca`).
    public func speech(_ locator: Locator, model: String? = nil) async throws(AXClientError) -> JSON {
        var params: RPCParams<RPCCatalog.SpeechDescribe.Param> = [.target: locator.target]
        if let model { params[.model] = .string(model) }
        return try await call(.speechDescribe, params).json
    }

    /// `speech.walk`: every element in reading order with what each screen reader says.
    public func speechWalk(model: String? = nil, limit: Int? = nil) async throws(AXClientError) -> JSON {
        var params: RPCParams<RPCCatalog.SpeechWalk.Param> = [:]
        if let model { params[.model] = .string(model) }
        if let limit { params[.limit] = JSON(limit) }
        return try await call(.speechWalk, params).json
    }

    /// `tree.render`: a wireframe (`svg`, or `png` through the server's rsvg-convert).
    public func render(format: String = "svg", overlays: [String]? = nil) async throws(AXClientError) -> JSON {
        var params: RPCParams<RPCCatalog.TreeRender.Param> = [.format: .string(format)]
        if let overlays { params[.overlay] = JSON(overlays) }
        return try await call(.treeRender, params).json
    }
}

/// `client.keyboard`: `press("Shift+Tab")`, `press("Orca+Shift+A")` (Orca = Insert, held around the chord),
/// `type("text")`. A listening screen reader hears each key first; keys it lets through go to the app, or move
/// the server's focus engine for an app that asks it to.
public struct AXKeyboard: Sendable {
    let client: AXClient

    /// Presses and releases a chord (`Tab`, `Shift+Tab`, `Return`, `Control+Home`, `Orca+Shift+A`); the answer
    /// is `{consumed, handledBy, focus, assistiveTechnology}`. A chord with an unknown modifier throws −32602.
    @discardableResult
    public func press(_ chord: String) async throws(AXClientError) -> JSON {
        let (key, modifiers, orca) = try Self.parse(chord)
        var params: RPCParams<RPCCatalog.InputKey.Param> = [.key: .string(key)]
        if !modifiers.isEmpty { params[.modifiers] = JSON(modifiers) }
        guard orca else { return try await client.call(.inputKey, params).json }
        try await client.call(.inputKey, [.key: "Insert", .phase: "press"])
        do {
            let answer = try await client.call(.inputKey, params).json
            try await client.call(.inputKey, [.key: "Insert", .phase: "release"])
            return answer
        } catch {
            _ = try? await client.call(.inputKey, [.key: "Insert", .phase: "release"])
            throw error
        }
    }

    /// Types `text` into the element (default: the focused one): `input.type` → `{typed, element}`.
    @discardableResult
    public func type(_ text: String, into locator: Locator? = nil) async throws(AXClientError) -> JSON {
        var params: RPCParams<RPCCatalog.InputType.Param> = [.text: .string(text)]
        if let locator { params[.target] = locator.target }
        return try await client.call(.inputType, params).json
    }

    /// `("Tab", ["shift"], false)` for `"Shift+Tab"`; an upper-case letter with Shift becomes its lower-case keysym.
    static func parse(_ chord: String) throws(AXClientError) -> (String, [String], Bool) {
        let parts = chord.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard let key = parts.last, !key.isEmpty else {
            throw AXClientError(code: RPCError.Code.invalidParams, message: "'\(chord)' has no key", data: nil)
        }
        var modifiers: [String] = []
        var orca = false
        let names = ["shift": "shift", "control": "control", "ctrl": "control", "alt": "alt", "super": "super"]
        for part in parts.dropLast() {
            let name = part.lowercased()
            if name == "orca" || name == "insert" {
                orca = true
            } else if let modifier = names[name] {
                if !modifiers.contains(modifier) { modifiers.append(modifier) }
            } else {
                throw AXClientError(
                    code: RPCError.Code.invalidParams,
                    message: "'\(chord)': unknown modifier '\(part)' (Shift, Control, Alt, Super, Orca)", data: nil)
            }
        }
        let isCapital = key.count == 1 && key.uppercased() == key && key.lowercased() != key
        let lowered = isCapital && modifiers.contains("shift")
        return (lowered ? key.lowercased() : key, modifiers, orca)
    }
}

/// `client.focusEngine`: move, query (simulate), explain, status.
public struct AXFocusEngine: Sendable {
    let client: AXClient

    /// `focus.move`: `next` (Tab), `previous` (Shift+Tab), `up`, `down`, `left`, `right`.
    @discardableResult
    public func move(_ direction: String = "next") async throws(AXClientError) -> JSON {
        try await client.call(.focusMove, [.direction: .string(direction)]).json
    }

    /// `focus.query`: where focus would go, changing nothing.
    public func query(_ direction: String = "next") async throws(AXClientError) -> JSON {
        try await client.call(.focusQuery, [.direction: .string(direction)]).json
    }

    /// `focus.explain`: whether the element can take keyboard focus, check by check.
    public func explain(_ locator: Locator) async throws(AXClientError) -> JSON {
        try await client.call(.focusExplain, [.target: locator.target]).json
    }

    /// `focus.status`: the engine's focus, groups, Tab sequence and guides.
    public func status() async throws(AXClientError) -> JSON {
        try await client.call(.focusStatus).json
    }

    /// `focus.update`: a focus request for the element (nil: evaluate the default focus again).
    @discardableResult
    public func update(_ locator: Locator? = nil) async throws(AXClientError) -> JSON {
        try await client.call(.focusUpdate, locator.map { [.target: $0.target] } ?? [:]).json
    }

    /// `focus.items`: the focusable items in Tab order.
    public func items() async throws(AXClientError) -> [JSON] {
        try await client.call(.focusItems)[.items]?.arrayValue ?? []
    }

    /// `focus.activate`: a press on the engine-focused item.
    @discardableResult
    public func activate() async throws(AXClientError) -> JSON {
        try await client.call(.focusActivate).json
    }
}

/// `client.rotors`: list, next, previous.
public struct AXRotors: Sendable {
    let client: AXClient

    /// `rotor.list` at the accessibility focus.
    public func list() async throws(AXClientError) -> JSON {
        try await client.call(.rotorList).json
    }

    /// `rotor.next`: the next item of `rotor` after the accessibility focus (moving it there unless `moveFocus`
    /// is false).
    @discardableResult
    public func next(_ rotor: String, moveFocus: Bool = true) async throws(AXClientError) -> JSON {
        try await client.call(.rotorNext, [.rotor: .string(rotor), .moveFocus: .bool(moveFocus)]).json
    }

    /// `rotor.previous`: the item of `rotor` before the accessibility focus.
    @discardableResult
    public func previous(_ rotor: String, moveFocus: Bool = true) async throws(AXClientError) -> JSON {
        try await client.call(.rotorPrevious, [.rotor: .string(rotor), .moveFocus: .bool(moveFocus)]).json
    }
}

extension Locator {
    /// Playwright's `locator.press`: gives the element keyboard focus (`focus.update`), then presses `chord`.
    @discardableResult
    public func press(_ chord: String) async throws(AXClientError) -> JSON {
        let element = try await self.element()
        try await client.call(.focusUpdate, [.target: ["id": .string(element.id)]])
        return try await client.keyboard.press(chord)
    }
}

extension LocatorAssertions {
    /// Playwright's `toHaveText`: waits until the element's label (the text it shows) or its value (a text
    /// field's contents) is `text`, woken by tree revisions; throws `AXAssertionError` with the last state.
    public func toHaveText(_ text: String) async throws {
        let client = locator.client
        let events = try await client.events([RPCEvent.treeChanged])
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        @Sendable func shows() async -> Bool {
            guard let element = try? await locator.element() else { return false }
            return element.label == text || element.value == text
        }
        if await shows() { return }
        let held: Bool = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in events where await shows() { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: clock)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if held { return }
        if await shows() { return }
        let last = try? await locator.element()
        throw AXAssertionError(
            description: "expected \(locator.selector) to have text \"\(text)\"; label \(last?.label ?? "nil"), "
                + "value \(last?.value ?? "nil")",
            lastState: last?.json)
    }
}

extension AXClient {
    /// `a11y.settings`: the user's accessibility settings under their UIKit names (`settings`), where each comes
    /// from (`sources`, `keys`) and who read them (`reader`; D-SET-1). Changes arrive as `a11y.settingsChanged`
    /// (`events(["a11y.settingsChanged"])`).
    public func accessibilitySettings() async throws(AXClientError) -> JSON {
        try await call(.a11ySettings, [:], addApp: false).json
    }
}

extension AXClient {
    /// `app.reset`: the app returns to its initial state; answers `{app, reset, revisionBefore, revision, ms}` once
    /// that tree is the server's, so the next find sees it (D-APP-RESET-1). An app that cannot reset throws
    /// −32014 (start a fresh app or server instead), a kiosk denial −32017, an app that does not answer within
    /// `timeoutMs` (default 10 s) or leaves mid-reset −32020.
    @discardableResult
    public func resetApp(timeoutMs: Int? = nil) async throws(AXClientError) -> JSON {
        var params: RPCParams<RPCCatalog.AppReset.Param> = [:]
        var wait = Duration.seconds(30)
        if let timeoutMs {
            params[.timeoutMs] = JSON(timeoutMs)
            wait = max(wait, .milliseconds(timeoutMs) + .seconds(5))
        }
        return try await call(.appReset, params, timeout: wait).json
    }
}
