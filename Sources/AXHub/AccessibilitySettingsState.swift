import AXCore

/// Who reads the desktop's accessibility settings for the hub (D-SET-1).
package struct SettingsReaderInfo: Sendable, Equatable {
    /// `gsettings` (GIO) or `none`.
    package var kind: String
    /// The GSettings backend in use (`GKeyfileSettingsBackend`, `DConfSettingsBackend`, `GMemorySettingsBackend`).
    package var backend: String?
    /// Why nothing is read, or a note on the backend (no desktop session: values are defaults).
    package var note: String

    package init(kind: String, backend: String?, note: String) {
        self.kind = kind
        self.backend = backend
        self.note = note
    }

    package static let none = SettingsReaderInfo(
        kind: "none", backend: nil,
        note: "no settings reader runs in this server (in-process or --settings none): every value is UIKit's default")
}

extension Hub {
    // MARK: Accessibility settings (D-SET-1; R70, R72, R97–R99)

    /// The user's accessibility settings and who read them.
    package var accessibilitySettings: (settings: AccessibilitySettings, reader: SettingsReaderInfo) {
        state.withLock { ($0.settings, $0.settingsReader) }
    }

    /// Records what the settings reader found; when a value apps read changed, emits one `settingsChanged`
    /// (apps and clients hear `a11y.settingsChanged`). The reader coalesces bursts before calling this.
    package func setSettingsReadings(_ keys: [SettingsKey: SettingsKeyReading], reader: SettingsReaderInfo) {
        let event: HubEvent? = state.withLock { locked in
            let before = locked.settings
            locked.settings.keys = keys
            locked.settingsReader = reader
            let names = locked.settings.changedNames(from: before)
            return names.isEmpty ? nil : .settingsChanged(changed: names, locked.settings)
        }
        if let event { emit([event]) }
    }
}
