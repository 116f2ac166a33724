import AXJSON
import AXProtocol

/// Element Send Keys, Element Clear and the user-prompt (alert) commands as W3C WebDriver defines them
/// (§12.5.2, §12.5.3, §16), over the app's elements (Specs/webdriver.md §Commands; D-WD-KEYS-1, D-WD-ALERT-1).
extension WebDriverService {
    // MARK: Send Keys and Clear

    /// The element's states.
    static func states(of element: JSON) -> [String] {
        element["states"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// W3C's "focusing steps" for keys: the element takes keyboard (engine) focus, where the server's editing keys
    /// and the app's keys go (D-KEY-2), and accessibility focus. A disabled element, or one that cannot take keyboard
    /// focus, is `element not interactable` with the reason the focus engine gave (`focus.explain`).
    func focusForKeys(_ session: DriverSession, _ id: String, _ element: JSON) async throws(WebDriverError) {
        let states = WebDriverService.states(of: element)
        guard states.contains("enabled") else {
            throw WebDriverError(
                "element not interactable", "the element '\(id)' is disabled; it takes no keys",
                data: ["reason": "disabled", "states": JSON(states)])
        }
        let moved: JSON
        do {
            moved = try await session.link.call(.focusUpdate, [.target: ["id": .string(id)]]).json
        } catch  where error.code == "invalid argument" {
            throw WebDriverError(
                "element not interactable",
                "the element '\(id)' cannot take keyboard focus (it is not a view the focus engine knows): \(error.message)",
                data: ["reason": "not focusable"])
        }
        guard moved["to"]?.stringValue == id else {
            let explanation = try? await session.link.call(.focusExplain, [.target: ["id": .string(id)]])
            let failed = explanation?[.failed]?.stringValue ?? moved["failure"]?.stringValue ?? "not focusable"
            throw WebDriverError(
                "element not interactable",
                "the element '\(id)' cannot take keyboard focus (focus engine: \(failed)); keys would go elsewhere",
                data: ["reason": "not focusable", "failed": .string(failed), "focus": moved["to"] ?? .null])
        }
        _ = try await session.link.call(.focusSet, [.target: ["id": .string(id)]])
    }

    /// Element Send Keys (W3C §12.5.3): the element takes focus first (`focusForKeys`). Text alone is typed at the
    /// end of the element's text (`input.type`, the app's `typeText`, one call). Text with WebDriver key codes is
    /// pressed key by key (`input.key`) after Control+End puts the caret at the end (W3C: the caret goes after the
    /// content), so BackSpace, Delete, arrows, Home/End, chords (Control+A) and typing at the caret all edit as a
    /// keyboard does (D-KEYOP-5); U+E000 (Null) releases the held modifiers.
    func sendKeys(_ session: DriverSession, _ text: String, to id: String) async throws(WebDriverError) {
        let element = try await element(session, id)
        let states = WebDriverService.states(of: element)
        let scalars = Array(text.unicodeScalars)
        let hasKeyCodes = scalars.contains { (0xE000...0xF8FF).contains($0.value) }
        let typesText = scalars.contains { !(0xE000...0xF8FF).contains($0.value) }
        if typesText && !states.contains("editable") && !hasKeyCodes {
            throw WebDriverError(
                "element not interactable", "the element '\(id)' does not take text (it is not editable)",
                data: ["reason": "not editable", "states": JSON(states)])
        }
        try await focusForKeys(session, id, element)
        if !hasKeyCodes {
            _ = try await session.link.call(.inputType, [.text: .string(text), .target: ["id": .string(id)]])
            return
        }
        if states.contains("editable") {
            _ = try await session.link.call(.inputKey, [.key: "End", .modifiers: ["control"]])
        }
        var modifiers: [String] = []
        for scalar in scalars {
            if let modifier = WebDriverService.modifierKeys[scalar] {
                if !modifiers.contains(modifier) { modifiers.append(modifier) }
            } else if scalar == "\u{E000}" {
                modifiers = []
            } else if let key = WebDriverService.specialKeys[scalar] {
                _ = try await session.link.call(.inputKey, [.key: .string(key), .modifiers: JSON(modifiers)])
            } else if (0xE000...0xF8FF).contains(scalar.value) {
                throw .invalidArgument(
                    "U+\(String(scalar.value, radix: 16, uppercase: true)) is not a WebDriver key code axdriver knows")
            } else {
                try await pressCharacter(
                    session, scalar, modifiers: modifiers, to: id, editable: states.contains("editable"))
            }
        }
    }

    /// One character as the key that types it (`a`, `A`, `space`; punctuation by the keysym name the server
    /// suggests for it, `@` → `at`). A character no key of the US layout types is typed into an editable element
    /// with `input.type` (at the end of its text); on any other element it is `element not interactable`.
    func pressCharacter(
        _ session: DriverSession, _ scalar: Unicode.Scalar, modifiers: [String], to id: String?, editable: Bool
    ) async throws(WebDriverError) {
        let name = scalar == " " ? "space" : String(scalar)
        // A capital letter is typed with Shift held, as on a keyboard (a toolkit reading the key state sees it).
        var held = modifiers
        if scalar.properties.isUppercase, !held.contains("shift") { held.append("shift") }
        do {
            _ = try await session.link.call(.inputKey, [.key: .string(name), .modifiers: JSON(held)])
            return
        } catch  where error.data?["reason"]?.stringValue == "unknown key" {
            if let suggestion = error.data?["suggestion"]?.stringValue {
                _ = try await session.link.call(.inputKey, [.key: .string(suggestion), .modifiers: JSON(held)])
                return
            }
        }
        guard editable, modifiers.isEmpty else {
            throw WebDriverError(
                "element not interactable",
                "no key types '\(String(scalar))' with \(modifiers.isEmpty ? "no modifiers" : modifiers.joined(separator: "+")) on \(id.map { "the element '\($0)'" } ?? "the focused element")",
                data: ["reason": "no such key"])
        }
        var params: RPCParams<RPCCatalog.InputType.Param> = [.text: .string(String(scalar))]
        if let id { params[.target] = ["id": .string(id)] }
        _ = try await session.link.call(.inputType, params)
    }

    /// Element Clear (W3C §12.5.2): an editable element, enabled and not read-only, is focused, emptied and
    /// left (`setValue ""`, the app's own rule). Anything else is `invalid element state` saying why.
    func clear(_ session: DriverSession, _ id: String) async throws(WebDriverError) {
        let element = try await element(session, id)
        let states = WebDriverService.states(of: element)
        guard states.contains("editable") else {
            throw WebDriverError(
                "invalid element state",
                "the element '\(id)' is not editable, so it cannot be cleared (states: \(states.joined(separator: ", ")))",
                data: ["reason": "not editable", "states": JSON(states)])
        }
        guard states.contains("enabled") else {
            throw WebDriverError(
                "invalid element state", "the element '\(id)' is disabled, so it cannot be cleared",
                data: ["reason": "disabled", "states": JSON(states)])
        }
        try await focusForKeys(session, id, element)
        _ = try await session.link.call(.actionSetValue, [.target: ["id": .string(id)], .value: ""])
    }

    // MARK: Alerts

    /// The app's open user prompt: its topmost alert (XCUIElementTypeAlert), else its topmost modal element that
    /// is on screen; `no such alert` when there is none.
    func currentAlert(_ session: DriverSession) async throws(WebDriverError) -> String {
        for selector in ["alert:visible", ":modal:visible"] {
            let reply = try await session.link.call(.queryFind, [.selector: .string(selector)])
            if let id = reply[.elements]?.arrayValue?.last?["id"]?.stringValue { return id }
        }
        throw WebDriverError("no such alert", "the app '\(session.app)' shows no alert or modal view")
    }

    /// The ids of the elements matching `selector` inside the alert, in document order.
    func alertParts(_ session: DriverSession, _ alert: String, _ selector: String) async throws(WebDriverError)
        -> [JSON]
    {
        let reply = try await session.link.call(
            .queryFind, [.selector: .string(selector), .root: ["id": .string(alert)]])
        return reply[.elements]?.arrayValue ?? []
    }

    /// Get Alert Text, Accept Alert, Dismiss Alert and Send Alert Text. An alert that goes away between finding and
    /// acting is `no such alert`.
    func runAlertCommand(_ command: WebDriverFamily.AlertCommand, _ body: JSONObject, _ session: DriverSession)
        async throws(WebDriverError) -> JSON
    {
        let alert = try await currentAlert(session)
        do throws(WebDriverError) {
            switch command {
            case .getText: return .string(try await alertText(session, alert))
            case .accept: try await pressAlertButton(session, alert, accept: true)
            case .dismiss: try await pressAlertButton(session, alert, accept: false)
            case .sendText:
                guard let text = body["text"]?.stringValue else { throw .invalidArgument("'text' must be a string") }
                guard let field = try await alertParts(session, alert, ":editable").first?["id"]?.stringValue else {
                    throw WebDriverError(
                        "element not interactable", "the alert '\(alert)' has no text field to send text to")
                }
                try await sendKeys(session, text, to: field)
            }
        } catch  where error.code == "no such element" || error.code == "stale element reference" {
            throw WebDriverError(
                "no such alert", "the alert '\(alert)' went away: \(error.message)", data: error.data)
        }
        return .null
    }

    /// The alert's title (its label) and its message lines (the static texts inside it), one a line.
    func alertText(_ session: DriverSession, _ alert: String) async throws(WebDriverError) -> String {
        let node = try await element(session, alert)
        var lines: [String] = []
        if let title = node["label"]?.stringValue, !title.isEmpty { lines.append(title) }
        for part in try await alertParts(session, alert, "staticText") {
            if let text = part["text"]?.stringValue ?? part["label"]?.stringValue, !text.isEmpty,
                !lines.contains(text)
            {
                lines.append(text)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Accept: the alert's default action, its last button (UIKit lays the cancel action first and the default
    /// last in an alert; Appium's XCUITest driver accepts with the last button too). Dismiss: escape on the alert
    /// (`accessibilityPerformEscape`, what a cancel action answers, X32); an alert that does not take escape is
    /// dismissed with its first button.
    func pressAlertButton(_ session: DriverSession, _ alert: String, accept: Bool) async throws(WebDriverError) {
        if !accept {
            let escaped = try? await session.link.call(.actionEscape, [.target: ["id": .string(alert)]])
            if escaped?[.performed]?.boolValue == true { return }
        }
        let button = try await alertButton(session, alert, accept: accept)
        _ = try await session.link.call(.actionActivate, [.target: ["id": .string(button)]])
    }

    /// How long Accept and Dismiss wait for an alert that has no enabled button yet (D-WD-ALERT-1).
    static let alertSettle: Duration = .seconds(2)

    /// The button that accepts the alert (its last enabled one) or dismisses it (its first). An alert shown a moment
    /// ago may still be getting its buttons: a toolkit maps a dialog's window before its buttons, and a client asks
    /// as soon as the alert is present. Without one, this waits for the app's tree to change (woken by its
    /// `tree.changed` events, as implicit waits are), for at most `alertSettle`, before it says there is none.
    func alertButton(_ session: DriverSession, _ alert: String, accept: Bool) async throws(WebDriverError) -> String {
        let deadline = ContinuousClock.now + Self.alertSettle
        while true {
            let generation = session.link.generation
            let buttons = try await alertParts(session, alert, "button:enabled")
            if let button = (accept ? buttons.last : buttons.first)?["id"]?.stringValue { return button }
            if ContinuousClock.now >= deadline {
                throw WebDriverError(
                    "no such alert",
                    "the alert '\(alert)' has no enabled button to \(accept ? "accept" : "dismiss") it with",
                    data: ["reason": "no button"])
            }
            await session.link.waitForChange(after: generation, until: deadline)
        }
    }
}

extension WebDriverService {
    /// For an XPath that tests `@name` and found nothing: `name` is the accessibility identifier (XCUITest's
    /// meaning), so a value that is some element's label is named with the `@label` that would match it.
    func nameHint(_ session: DriverSession, _ locator: Locator) async throws(WebDriverError) -> String? {
        guard case .xpath(let query) = locator, query.source.contains("@name") else { return nil }
        let values = WebDriverService.quotedValues(afterName: query.source)
        let page = try await session.page()
        for value in values {
            for index in 0..<page.tree.count where page.tree.attribute(index, "label") == value {
                return "in XPath, @name is the accessibility identifier (as in XCUITest); '\(value)' is the label "
                    + "of an element: use [@label='\(value)']"
            }
        }
        return "in XPath, @name is the accessibility identifier (as in XCUITest), @label the label"
    }

    /// The quoted values compared with `@name` in an XPath (`@name='Wi-Fi'`, `@name = "Wi-Fi"`), at most 8.
    package static func quotedValues(afterName source: String) -> [String] {
        var values: [String] = []
        var rest = Substring(source)
        while values.count < 8, let found = rest.firstRange(of: "@name") {
            rest = rest[found.upperBound...]
            var cursor = rest.drop { $0 == " " }
            guard cursor.first == "=" else { continue }
            cursor = cursor.dropFirst().drop { $0 == " " }
            guard let quote = cursor.first, quote == "'" || quote == "\"" else { continue }
            let body = cursor.dropFirst()
            guard let end = body.firstIndex(of: quote) else { break }
            values.append(String(body[..<end]))
            rest = body[end...]
        }
        return values
    }
}
