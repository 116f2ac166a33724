extension Hub {
    // MARK: Screen reader status (D-SR-1; R70)

    /// Whether a screen reader runs (`UIAccessibility.isVoiceOverRunning`): the session's
    /// `org.a11y.Status.ScreenReaderEnabled` as the AT-SPI bridge last read it; nil when no bridge knows.
    package var screenReaderRunning: Bool? { state.withLock { $0.screenReaderRunning } }

    /// Records the screen reader status; a change emits `screenReaderStatus` (apps and clients hear
    /// `voiceOverStatusDidChange`, R70). The first known value is news too (nil → a value).
    package func setScreenReaderRunning(_ running: Bool) {
        let (changed, settingsEvent): (Bool, HubEvent?) = state.withLock { locked in
            guard locked.screenReaderRunning != running else { return (false, nil) }
            locked.screenReaderRunning = running
            let before = locked.settings
            locked.settings.screenReaderStatus = running
            let names = locked.settings.changedNames(from: before)
            return (true, names.isEmpty ? nil : .settingsChanged(changed: names, locked.settings))
        }
        if changed { emit([.screenReaderStatus(running: running)] + [settingsEvent].compactMap { $0 }) }
    }
}
