import AXATSPIModel
import AXCore

/// The states of `AppBridge.activity`.
enum AppActivity {
    static let unset: UInt8 = 0
    static let active: UInt8 = 1
    static let inactive: UInt8 = 2
}

extension ATSPIBridge {
    /// The app whose window receives keys becomes the active one, as a window manager makes it (D-ATSPI-ACTIVE-1):
    /// every other app's key window is deactivated (`state-changed:active` 0, `window:deactivate`) and this app's
    /// is activated (`window:activate`, `state-changed:active` 1, then its focused element's `state-changed:focused`
    /// so a screen reader, which speaks only the active window, presents it). Nothing is emitted when the app is
    /// already the only active one (a single app never sees these events).
    func activate(app: String) {
        let bridges = state.withLock { Array($0.apps.values) }
        guard let target = bridges.first(where: { $0.appID == app }) else { return }
        let others = bridges.filter { $0 !== target && $0.activity.load(ordering: .acquiring) != AppActivity.inactive }
        let wasInactive = target.activity.load(ordering: .acquiring) == AppActivity.inactive
        target.activity.store(AppActivity.active, ordering: .releasing)
        guard wasInactive || !others.isEmpty else { return }
        for other in others {
            other.activity.store(AppActivity.inactive, ordering: .releasing)
            other.setActivation(false)
        }
        target.setActivation(true)
    }
}

extension AppBridge {
    /// Queues the app's activation (true) or deactivation (false) for the next flush (any thread).
    func setActivation(_ active: Bool) {
        pending.withLock { $0.activation = active }
        schedule()
    }

    /// Emits the key window's activation or deactivation after the flush swapped `served` (loop thread).
    func emitActivation(_ active: Bool) {
        assertServing()
        let tree = served.tree
        guard
            let window = tree.windows.last(where: { tree[$0]?.states.contains(.activeWindow) == true })
                ?? tree.windows.last,
            let node = tree[window]
        else { return }
        let name = ATSPIEventData.string(node.label ?? "")
        if !active {
            emit(.event(ATSPIEvent(.stateChanged, source: window, detail: "active", detail1: 0, maintainsCache: true)))
            emit(.event(ATSPIEvent(.windowDeactivate, source: window, data: name)))
            return
        }
        emit(.event(ATSPIEvent(.windowActivate, source: window, data: name)))
        emit(.event(ATSPIEvent(.stateChanged, source: window, detail: "active", detail1: 1, maintainsCache: true)))
        if let focused = served.focusedID, tree[focused] != nil {
            emit(
                .event(ATSPIEvent(.stateChanged, source: focused, detail: "focused", detail1: 1, maintainsCache: true)))
            emit(.event(ATSPIEvent(.focus, source: focused)))
        }
    }
}
