import AXCore
import AXHub
import AXJSON

/// `input.key` and `input.configure` for an app in the server's own process (HubProviderTransport).
enum HubKeyInput {
    static func call(_ hub: Hub, app: String, method: String, _ params: JSONObject) async throws -> JSON {
        if method == "input.configure" {
            let on = params["serverHandlesNavigation"]?.boolValue ?? false
            try hub.setServerHandlesNavigation(app: app, on)
            return ["serverHandlesNavigation": .bool(on)]
        }
        let name = params["key"]?.stringValue ?? ""
        guard let symbol = Keysyms.symbol(named: name) else {
            let hint = Keysyms.suggestion(for: name).map { "did you mean '\($0)'? " } ?? ""
            throw HubError(
                .invalid, "unknown key '\(name.prefix(64))'; \(hint)accepted: \(Keysyms.acceptedSummary)")
        }
        var modifiers: Set<KeyModifier> = []
        for item in params["modifiers"]?.arrayValue ?? [] {
            guard let modifier = item.stringValue.flatMap(KeyModifier.init(rawValue:)) else {
                throw HubError(.invalid, "unknown modifier (accepted: shift, control, alt, super)")
            }
            modifiers.insert(modifier)
        }
        let phase = params["phase"]?.stringValue ?? "both"
        guard ["press", "release", "both"].contains(phase) else {
            throw HubError(.invalid, "phase must be press, release or both")
        }
        let outcome = try await hub.key(
            app: app, symbol: symbol, modifiers: modifiers, press: phase != "release", release: phase != "press",
            source: .provider)
        return [
            "consumed": .bool(outcome.consumed), "handledBy": .string(outcome.handledBy), "focus": JSON(outcome.focus),
        ]
    }
}
