import AXATSPIModel
import AXDBus
import AXHub
import Dispatch
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The AT-SPI2 bridge: every mirrored app becomes its own application on the accessibility bus (one
/// libdbus connection per app), served from the hub's immutable snapshots, with events derived from the
/// hub's change sets. See Specs/atspi-mapping.md.
package final class ATSPIBridge: Sendable {
    let hub: Hub
    let logger: Logger
    let addressOverride: String?
    let serverVersion: String
    let actionReplyTimeout: Duration
    let peerToPeer: Bool
    let listeners = EventListeners()
    /// Keys to assistive technologies through the registry (KeyForwarding.swift).
    let keys: KeyForwarding
    /// Follows whether a screen reader runs (D-SR-1).
    let screenReader: ScreenReaderWatch
    /// `org.freedesktop.a11y.Manager` on the session bus, claimed only when asked (D-KEY-MONITOR-1).
    let keyboardMonitor: A11yKeyboardMonitor

    struct State {
        var address: String?
        var control: DBusConnection?
        var apps: [String: AppBridge] = [:]
        var opening = 0
        var token: UInt64?
        var stopped = false
    }
    let state = Mutex(State())
    private let queue = DispatchQueue(label: "axserver.atspi.apps")

    /// - Parameters:
    ///   - busAddress: the accessibility bus to use; nil = `$AT_SPI_BUS_ADDRESS`, else `org.a11y.Bus.GetAddress`
    ///     on the session bus.
    ///   - actionReplyTimeout: how long a D-Bus caller waits for the app to answer an action before it gets a
    ///     `NoReply` error (kept under libatspi's 800 ms so the app is never marked hung).
    ///   - peerToPeer: offer each app's objects on a private socket too (`GetApplicationBusAddress`), so libatspi
    ///     clients skip the bus daemon for method calls; `AXSERVER_ATSPI_P2P=0` turns it off.
    package init(
        hub: Hub, logger: Logger, busAddress: String? = nil, serverVersion: String = "0.1.0",
        actionReplyTimeout: Duration = .milliseconds(600), peerToPeer: Bool = true
    ) {
        var p2p = peerToPeer
        if let value = getenv("AXSERVER_ATSPI_P2P"), String(cString: value) == "0" { p2p = false }
        self.peerToPeer = p2p
        self.hub = hub
        self.logger = logger
        self.addressOverride = busAddress
        self.serverVersion = serverVersion
        self.actionReplyTimeout = min(actionReplyTimeout, hub.actionTimeout)
        self.keys = KeyForwarding(logger: logger)
        self.screenReader = ScreenReaderWatch(hub: hub, logger: logger)
        self.keyboardMonitor = A11yKeyboardMonitor(logger: logger)
    }

    /// Connects to the accessibility bus and registers every current app; false when there is no bus.
    package func start() throws -> Bool {
        let address: String
        if let override = addressOverride {
            address = override
        } else {
            let session = try? DBusConnection.sessionBus(startLoop: false)
            defer { session?.close() }
            do { address = try DBusConnection.accessibilityBusAddress(session: session) } catch {
                logger.debug("AT-SPI: no accessibility bus: \(error)")
                return false
            }
        }
        let control = try DBusConnection.open(address: address)
        state.withLock { locked in
            locked.address = address
            locked.control = control
            locked.stopped = false
        }
        trackListeners(control)
        keys.start(control)
        startKeyboardMonitor()
        keys.onKeysRouted { [weak self] app in self?.activate(app: app) }
        screenReader.start()
        hub.setKeyForwarder(keys)
        let token = hub.subscribe { [weak self] event in self?.hubEvent(event) }
        state.withLock { $0.token = token }
        for id in hub.appIDs { enqueueAdd(id) }
        return true
    }

    /// Claims `org.freedesktop.a11y.Manager` on the session bus when `AXSERVER_A11Y_KEYBOARD_MONITOR=1` (D-KEY-MONITOR-1); a
    /// failure leaves keys on the registry path only.
    private func startKeyboardMonitor() {
        guard A11yKeyboardMonitor.claimRequested else { return }
        guard let raw = getenv("DBUS_SESSION_BUS_ADDRESS"), raw.pointee != 0 else {
            logger.warning("a11y keyboard monitor: asked for, but DBUS_SESSION_BUS_ADDRESS is not set")
            return
        }
        do {
            if try keyboardMonitor.start(sessionAddress: String(cString: raw)) { keys.attach(keyboardMonitor) }
        } catch {
            logger.warning("a11y keyboard monitor: cannot claim \(A11yKeyboardMonitor.busName): \(error)")
        }
    }

    /// Returns true once every current app's `Embed` has been answered (reply or error).
    package func waitUntilRegistered(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let done = state.withLock { locked in
                locked.opening == 0 && locked.apps.values.allSatisfy { $0.embedAnswered.load(ordering: .acquiring) }
            }
            if done { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    /// e.g. `bus=unix:path=/run/user/0/at-spi/bus apps=2 embedded=2 listeners=3`.
    package var status: String {
        let (addr, apps) = state.withLock { ($0.address, Array($0.apps.values)) }
        guard let addr else { return "off" }
        let embedded = apps.filter { $0.embedded.load(ordering: .acquiring) }.count
        return "bus=\(addr) apps=\(apps.count) embedded=\(embedded) \(listeners.summary)"
    }

    /// The a11y-bus unique name of an app's connection (its AT-SPI application), if it is registered.
    package func busName(app: String) -> String? {
        state.withLock { $0.apps[app]?.connection.uniqueName }
    }

    /// The accessibility bus address in use.
    package var busAddress: String? { state.withLock { $0.address } }

    package func stop() {
        let (apps, control, token) = state.withLock { locked -> ([AppBridge], DBusConnection?, UInt64?) in
            locked.stopped = true
            let apps = Array(locked.apps.values)
            locked.apps = [:]
            let control = locked.control
            locked.control = nil
            let token = locked.token
            locked.token = nil
            return (apps, control, token)
        }
        if let token { hub.unsubscribe(token) }
        hub.setKeyForwarder(nil)
        keys.onKeysRouted(nil)
        keys.stop()
        keys.attach(nil)
        keyboardMonitor.stop()
        screenReader.stop()
        queue.sync {}
        for app in apps { app.close() }
        control?.close()
    }

    // MARK: Apps

    private func hubEvent(_ event: HubEvent) {
        switch event {
        case .appAdded(let id): enqueueAdd(id)
        case .appRemoved(let id):
            queue.async { [weak self] in
                guard let self else { return }
                let bridge = self.state.withLock { $0.apps.removeValue(forKey: id) }
                bridge?.close()  // its bus name vanishes: the registry removes it from the desktop
            }
        case .focusChanged(let app, _, _):
            // A window activation waiting for a key comes before the focus change (D-ATSPI-ACTIVE-1).
            keys.releaseDeferredRoute(for: app)
            state.withLock { $0.apps[app] }?.receive(event)
        case .treeChanged(let app, _, _), .notification(let app, _), .textCaret(let app, _, _):
            state.withLock { $0.apps[app] }?.receive(event)
        case .restrictionChanged, .engineFocus, .guidedAccessStatusChanged, .screenReaderStatus, .settingsChanged:
            break
        }
    }

    private func enqueueAdd(_ id: String) {
        state.withLock { $0.opening += 1 }
        queue.async { [weak self] in
            guard let self else { return }
            defer { self.state.withLock { $0.opening -= 1 } }
            let (address, stopped, exists) = self.state.withLock { ($0.address, $0.stopped, $0.apps[id] != nil) }
            guard let address, !stopped, !exists, self.hub.appName(id) != nil else { return }
            let bridge: AppBridge
            do {
                bridge = try AppBridge(
                    appID: id, hub: self.hub, address: address, logger: self.logger, listeners: self.listeners,
                    serverVersion: self.serverVersion, actionReplyTimeout: self.actionReplyTimeout)
            } catch {
                self.logger.warning("AT-SPI: cannot connect app \(id) to the accessibility bus: \(error)")
                return
            }
            do {
                if self.peerToPeer { bridge.startPeer() }
                try bridge.register()
            } catch {
                bridge.close()  // its loop thread must not outlive the handlers' owner
                self.logger.warning("AT-SPI: cannot register app \(id): \(error)")
                return
            }
            self.state.withLock { $0.apps[id] = bridge }
            bridge.refreshFromHub()
            // Removed (or the bridge stopped) while we were connecting: undo.
            if self.hub.appName(id) == nil || self.state.withLock({ $0.stopped }) {
                _ = self.state.withLock { $0.apps.removeValue(forKey: id) }
                bridge.close()
            }
        }
    }

    // MARK: Event listeners (Registry)

    private func trackListeners(_ connection: DBusConnection) {
        let reg = "org.a11y.atspi.Registry"
        _ = try? connection.addMatch("type='signal',sender='\(reg)',interface='\(reg)',path='\(ATSPIPaths.registry)'")
        _ = try? connection.addMatch(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(reg)'"
        )
        connection.addSignalHandler(DBusSignalFilter(interface: reg, member: "EventListenerRegistered")) {
            [weak self] signal in
            guard let self, signal.signature.hasPrefix("ss") else { return }
            let reader = signal.reader()
            guard let bus = try? reader.readString(), let ev = try? reader.readString() else { return }
            self.listeners.add(bus: bus, event: ev)
        }
        connection.addSignalHandler(DBusSignalFilter(interface: reg, member: "EventListenerDeregistered")) {
            [weak self] signal in
            guard let self, signal.signature.hasPrefix("ss") else { return }
            let reader = signal.reader()
            guard let bus = try? reader.readString(), let ev = try? reader.readString() else { return }
            self.listeners.remove(bus: bus, event: ev)
        }
        connection.addSignalHandler(DBusSignalFilter(interface: "org.freedesktop.DBus", member: "NameOwnerChanged")) {
            [weak self] signal in
            guard let self, signal.hasSignature("sss") else { return }
            let reader = signal.reader()
            guard let name = try? reader.readString(), name == reg, (try? reader.readString()) != nil,
                let newOwner = try? reader.readString()
            else { return }
            if newOwner.isEmpty {
                self.listeners.setUnknown()
            } else {
                // The registry restarted: embed every app again and re-read the listeners.
                self.logger.notice("AT-SPI: registry restarted; embedding apps again")
                for bridge in self.state.withLock({ Array($0.apps.values) }) { bridge.reembed() }
                self.queryListeners(connection)
            }
        }
        queryListeners(connection)
    }

    private func queryListeners(_ connection: DBusConnection) {
        guard
            let message = try? DBusMessage.methodCall(
                destination: "org.a11y.atspi.Registry", path: ATSPIPaths.registry,
                interface: "org.a11y.atspi.Registry", member: "GetRegisteredEvents")
        else { return }
        connection.callAsync(message, timeoutMilliseconds: 5_000) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply) where reply.hasSignature("a(ss)"):
                var pairs: [(String, String)] = []
                let rd = reply.reader()
                do {
                    try rd.enterArray()
                    while !rd.isAtEnd {
                        try rd.enterStruct()
                        let bus = try rd.readString()
                        let event = try rd.readString()
                        try rd.leave()
                        pairs.append((bus, event))
                    }
                    try rd.leave()
                    self.listeners.setAll(pairs)
                } catch {
                    self.listeners.setUnknown()
                }
            default:
                // No registry (or an old one): stay chatty.
                self.listeners.setUnknown()
            }
        }
    }
}
