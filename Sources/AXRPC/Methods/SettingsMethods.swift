import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol

/// `a11y.settings` (Specs/protocol.md §Settings; D-SET-1): the user's accessibility settings under their UIKit
/// names, where each comes from, and who read them. Any role may read them; changes arrive as
/// `a11y.settingsChanged` to subscribers.
enum SettingsMethods {
    static func install(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.a11ySettings) { params, _ in
            _ = try Params(params, RPCCatalog.A11ySettings.self)
            let (settings, reader) = hub.accessibilitySettings
            return RPCCatalog.A11ySettings.answer([
                .settings: .object(settings.valuesJSON),
                .sources: .object(settings.sourcesJSON),
                .keys: .object(settings.keysJSON),
                .reader: readerJSON(reader),
            ])
        }
    }

    static func readerJSON(_ reader: SettingsReaderInfo) -> JSON {
        ["kind": .string(reader.kind), "backend": JSON(reader.backend), "note": .string(reader.note)]
    }

    /// The body of `a11y.settingsChanged`: the names that changed and every value.
    static func changedBody(_ changed: [String], _ settings: AccessibilitySettings) -> JSONObject {
        ["changed": JSON(changed), "settings": .object(settings.valuesJSON)]
    }
}
