import AXJSON
import AXProtocol

/// What happened to a key the app forwarded (`input.key` as provider; Specs/protocol.md §Keys).
public struct KeyForwardResult: Sendable, Equatable {
    /// The assistive technology consumed the key: the app must not act on it.
    public var consumed: Bool
    /// `assistive-technology` (consumed), `server` (the server handled a navigation key for the app, which
    /// asked it to), or `app` (nobody took it: the app handles the key itself).
    public var handledBy: String
    /// The app's accessibility focus afterwards.
    public var focus: String?

    /// A result with these fields.
    public init(consumed: Bool, handledBy: String, focus: String?) {
        self.consumed = consumed
        self.handledBy = handledBy
        self.focus = focus
    }

    /// True when the app should handle the key itself.
    public var appShouldHandle: Bool { !consumed && handledBy == "app" }
}

extension Publisher {
    /// Forwards a keystroke the app received, like a toolkit does, before acting on it: a listening screen
    /// reader sees it first and may consume it. `key` is an X keysym name (`Tab`, `Return`, `h`), `modifiers`
    /// any of shift, control, alt, super, `phase` press, release or both. Answers within the registry's timeout
    /// (3 s) even when the screen reader does not answer.
    public func forwardKey(_ key: String, modifiers: [String] = [], phase: String = "both") async throws
        -> KeyForwardResult
    {
        var params: RPCParams<RPCCatalog.InputKey.Param> = [.key: .string(key), .phase: .string(phase)]
        if !modifiers.isEmpty { params[.modifiers] = JSON(modifiers) }
        let reply = try await transport.call(RPCMethod.inputKey.request(params, app: appID))
        return KeyForwardResult(
            consumed: reply["consumed"]?.boolValue ?? false, handledBy: reply["handledBy"]?.stringValue ?? "app",
            focus: reply["focus"]?.stringValue)
    }

    /// Lets the server handle the app's navigation keys that no assistive technology consumed: Tab and
    /// Shift-Tab move engine focus in focus order, arrows inside the focus group, Escape performs escape,
    /// Return/KP_Enter/space activate the focused element (`input.configure`; D-KEY-2).
    public func setServerHandlesNavigation(_ on: Bool) async throws {
        _ = try await transport.call(
            RPCMethod.inputConfigure.request([.serverHandlesNavigation: .bool(on)], app: appID))
    }
}
