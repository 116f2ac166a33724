import AXJSON
import AXProtocol

/// The user's accessibility settings as a UIKit app reads them (`UIAccessibility.isReduceMotionEnabled`…,
/// `UIApplication.preferredContentSizeCategory`), from `a11y.settings` or an `a11y.settingsChanged`
/// notification (D-SET-1). A flag the server did not report reads false.
public struct UIAccessibilitySettings: Sendable, Equatable {
    /// Every value by its UIKit name (the `settings` object of the reply).
    public var values: JSONObject

    /// Settings from `a11y.settings`'s reply or `a11y.settingsChanged`'s params (both carry `settings`).
    public init(json: JSON) { values = json["settings"]?.objectValue ?? JSONObject() }

    private func flag(_ name: String) -> Bool { values[name]?.boolValue ?? false }

    /// `UIAccessibility.isReduceMotionEnabled` (GNOME: enable-animations off).
    public var isReduceMotionEnabled: Bool { flag("isReduceMotionEnabled") }
    /// `UIAccessibility.isDarkerSystemColorsEnabled` (Increase Contrast; GNOME: High Contrast).
    public var isDarkerSystemColorsEnabled: Bool { flag("isDarkerSystemColorsEnabled") }
    /// `UIAccessibility.isInvertColorsEnabled` (GNOME: the magnifier's lightness inversion).
    public var isInvertColorsEnabled: Bool { flag("isInvertColorsEnabled") }
    /// `UIAccessibility.isGrayscaleEnabled` (GNOME: the magnifier at saturation 0).
    public var isGrayscaleEnabled: Bool { flag("isGrayscaleEnabled") }
    /// `UIAccessibility.isBoldTextEnabled` (no Linux source: always false).
    public var isBoldTextEnabled: Bool { flag("isBoldTextEnabled") }
    /// `UIAccessibility.isVoiceOverRunning` (a screen reader is enabled or runs).
    public var isVoiceOverRunning: Bool { flag("isVoiceOverRunning") }
    /// `UIAccessibility.isReduceTransparencyEnabled` (no Linux source: always false).
    public var isReduceTransparencyEnabled: Bool { flag("isReduceTransparencyEnabled") }
    /// `UIAccessibility.isSwitchControlRunning` (no Linux source: always false).
    public var isSwitchControlRunning: Bool { flag("isSwitchControlRunning") }
    /// The desktop's on-screen keyboard is enabled (no UIKit flag; Linux only).
    public var isOnScreenKeyboardEnabled: Bool { flag("isOnScreenKeyboardEnabled") }
    /// `UIApplication.preferredContentSizeCategory` by its `UIContentSizeCategory` case name (`large` by default).
    public var preferredContentSizeCategory: String { values["preferredContentSizeCategory"]?.stringValue ?? "large" }
    /// The desktop's text-scaling factor (1 by default).
    public var textScalingFactor: Double { values["textScalingFactor"]?.doubleValue ?? 1 }
}

extension Publisher {
    /// The user's accessibility settings now (`a11y.settings`).
    public func accessibilitySettings() async throws -> UIAccessibilitySettings {
        UIAccessibilitySettings(json: try await transport.call(RPCMethod.a11ySettings.request()))
    }
}

extension SocketProviderTransport {
    /// Calls `handler` with the new settings and the names that changed on every `a11y.settingsChanged` (UIKit's
    /// `…StatusDidChangeNotification`s; the server coalesces bursts). Replaces the connection's notification
    /// handler. Returns the subscription id.
    @discardableResult
    public func onSettingsChanged(
        _ handler: @escaping @Sendable (UIAccessibilitySettings, [String]) -> Void
    ) async throws -> Int {
        client.onNotification { method, params in
            guard method == RPCEvent.settingsChanged.rawValue, let params else { return }
            let changed = params["changed"]?.arrayValue?.compactMap(\.stringValue) ?? []
            handler(UIAccessibilitySettings(json: params), changed)
        }
        let reply = try await call(
            RPCMethod.eventsSubscribe.request([.events: [.string(RPCEvent.settingsChanged.rawValue)]]))
        return reply["subscription"]?.intValue ?? 0
    }
}
