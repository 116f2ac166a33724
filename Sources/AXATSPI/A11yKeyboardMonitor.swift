import AXCore
import AXDBus
import AXHub
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Who watches and grabs keys through `org.freedesktop.a11y.KeyboardMonitor`, and which key a grab consumes — the
/// compositor's side of the interface libatspi ≥ 2.55 uses (`atspi/atspi-device-a11y-manager.c`; the interface is
/// mutter's `data/dbus-interfaces/org.freedesktop.a11y.xml`; D-KEY-MONITOR-1). A value type: the bridge keeps one behind a
/// lock, the unit tests drive it directly.
package struct KeyboardMonitorGrabs: Sendable, Equatable {
    /// One client (a unique bus name) of the monitor.
    package struct Client: Sendable, Equatable {
        /// `WatchKeyboard`: it gets every key as a `KeyEvent` signal.
        package var watching = false
        /// `GrabKeyboard`: every key is consumed (Orca's learn mode).
        package var grabAll = false
        /// `SetKeyGrabs` modifiers: keysyms that are consumed, and while one is held every key is.
        package var modifiers: Set<UInt32> = []
        /// `SetKeyGrabs` keystrokes: (keysym, XKB modifier mask) pairs that are consumed.
        package var keystrokes: [Keystroke] = []

        package init() {}

        var isEmpty: Bool { !watching && !grabAll && modifiers.isEmpty && keystrokes.isEmpty }
    }

    /// A grabbed keystroke: the keysym and the exact modifier mask (lock modifiers aside).
    package struct Keystroke: Sendable, Equatable {
        package var keysym: UInt32
        package var modifiers: UInt32
        package init(keysym: UInt32, modifiers: UInt32) {
            self.keysym = keysym
            self.modifiers = modifiers
        }
    }

    /// Lock, Mod2 (NumLock): whether they are on never changes whether a keystroke matches
    /// (`atspi-device.c` `key_matches_modifiers`).
    static let lockModifiers: UInt32 = (1 << 1) | (1 << 4)
    /// A client may not hold more than this many grabs (a hostile `SetKeyGrabs` is refused, not stored).
    package static let grabLimit = 4_096
    /// At most this many clients (each a bus connection) are tracked.
    package static let clientLimit = 64

    package private(set) var clients: [String: Client] = [:]
    /// Grabbed modifier keys that are down now.
    private var heldModifiers: Set<UInt32> = []
    /// Keysyms whose press was consumed: their release is consumed too, so the app never sees a lone release.
    private var consumedPresses: Set<UInt32> = []

    package init() {}

    /// Whether any client watches or grabs keys (then keys go to the monitor).
    package var hasClients: Bool { clients.values.contains { !$0.isEmpty } }

    /// Clients that get a key's `KeyEvent`: the watchers, and every client with a grab.
    package var recipients: [String] { clients.filter { !$0.value.isEmpty }.map(\.key).sorted() }

    /// Applies `change` to the client `sender`; false when the client limit is reached.
    package mutating func update(_ sender: String, _ change: (inout Client) -> Void) -> Bool {
        var client = clients[sender] ?? Client()
        if clients[sender] == nil, clients.count >= Self.clientLimit { return false }
        change(&client)
        clients[sender] = client.isEmpty ? nil : client
        return true
    }

    /// The client left the bus: its watch and grabs end.
    package mutating func remove(_ sender: String) {
        clients[sender] = nil
        if !hasClients {
            heldModifiers = []
            consumedPresses = []
        }
    }

    /// Whether the key is consumed (kept from the app), updating the held-modifier state.
    package mutating func consumes(keysym: UInt32, modifiers: UInt32, pressed: Bool) -> Bool {
        let active = clients.values
        let isGrabbedModifier = active.contains { $0.modifiers.contains(keysym) }
        if !pressed {
            if isGrabbedModifier { heldModifiers.remove(keysym) }
            let pressWasConsumed = consumedPresses.remove(keysym) != nil
            return pressWasConsumed || active.contains { $0.grabAll }
        }
        var consumed = active.contains { $0.grabAll } || isGrabbedModifier || !heldModifiers.isEmpty
        if !consumed {
            let state = modifiers & ~Self.lockModifiers
            consumed = active.contains { client in
                client.keystrokes.contains { $0.keysym == keysym && $0.modifiers & ~Self.lockModifiers == state }
            }
        }
        if isGrabbedModifier { heldModifiers.insert(keysym) }
        if consumed { consumedPresses.insert(keysym) }
        return consumed
    }
}

/// AXServer as `org.freedesktop.a11y.Manager` on the session bus: the `org.freedesktop.a11y.KeyboardMonitor` that
/// Orca ≥ 48 on libatspi ≥ 2.55 takes its keys from when it uses the a11y-manager device (Wayland, or
/// `ATSPI_USE_A11Y_MANAGER_DEVICE=1`; `atspi-device.c` `atspi_device_new_full`). Each key AXServer delivers goes out
/// as a `KeyEvent(b released, u state, u keysym, u unichar, q keycode)` signal addressed to each client, and is
/// consumed — kept from the app — when a client's grab covers it, decided here without a round trip, as the
/// compositor does (D-KEY-MONITOR-1).
///
/// The name is claimed only when asked (`AXSERVER_A11Y_KEYBOARD_MONITOR=1`, which the project's private test stacks
/// set), never queued for and never taken from an owner: on a desktop the compositor owns it, and an Orca that
/// found AXServer there would hear AXServer's keys only, not the keyboard's.
package final class A11yKeyboardMonitor: Sendable {
    package static let busName = "org.freedesktop.a11y.Manager"
    package static let objectPath = "/org/freedesktop/a11y/Manager"
    package static let interface = "org.freedesktop.a11y.KeyboardMonitor"
    /// The environment variable that lets the server claim the name.
    package static let claimVariable = "AXSERVER_A11Y_KEYBOARD_MONITOR"

    let logger: Logger
    private let grabs = Mutex(KeyboardMonitorGrabs())
    private let connection = Mutex<DBusConnection?>(nil)
    /// Each client's process id (`GetConnectionUnixProcessID`), for the main-loop barrier (D-KEY-MONITOR-2).
    private let processIDs = Mutex<[String: UInt32]>([:])

    package init(logger: Logger) { self.logger = logger }

    /// Whether this process was asked to claim the monitor name (`AXSERVER_A11Y_KEYBOARD_MONITOR=1`).
    package static var claimRequested: Bool {
        guard let raw = getenv(claimVariable) else { return false }
        return String(cString: raw) == "1"
    }

    /// Claims the name on the session bus at `address`; false (and nothing kept) when another process owns it.
    @discardableResult
    package func start(sessionAddress address: String) throws -> Bool {
        let bus = try DBusConnection.open(address: address)
        let reply = try bus.requestName(Self.busName, flags: 4)  // DO_NOT_QUEUE, never REPLACE_EXISTING
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            logger.info("a11y keyboard monitor: \(Self.busName) has another owner; not claimed (D-KEY-MONITOR-1)")
            bus.close()
            return false
        }
        try bus.register(path: Self.objectPath) { [weak self] message in
            guard let self else { return .notHandled }
            return self.handle(message)
        }
        let owners = DBusSignalFilter(interface: "org.freedesktop.DBus", member: "NameOwnerChanged")
        _ = try bus.subscribe(owners) { [weak self] message in self?.nameOwnerChanged(message) }
        connection.withLock { $0 = bus }
        logger.info("a11y keyboard monitor: owns \(Self.busName) on \(address)")
        return true
    }

    package func stop() {
        let bus = connection.withLock { locked -> DBusConnection? in
            let current = locked
            locked = nil
            return current
        }
        bus?.close()
        grabs.withLock { $0 = KeyboardMonitorGrabs() }
        processIDs.withLock { $0 = [:] }
    }

    /// The processes of the clients that get keys (those whose process id is known).
    package var clientProcesses: Set<UInt32> {
        let recipients = grabs.withLock { $0.recipients }
        return processIDs.withLock { known in Set(recipients.compactMap { known[$0] }) }
    }

    /// Asks the bus once for the process of a new client (asynchronously; the answer is kept until it leaves).
    private func lookUpProcess(of sender: String) {
        guard processIDs.withLock({ $0[sender] == nil }), let bus = connection.withLock({ $0 }) else { return }
        let arguments: (DBusWriter) -> Void = { $0.append(sender) }
        bus.callAsync(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionUnixProcessID", timeoutMilliseconds: 5_000, arguments
        ) { [weak self] result in
            guard let self, case .success(let reply) = result, reply.hasSignature("u"),
                let process = try? reply.reader().readUInt32()
            else { return }
            let stillClient = self.grabs.withLock { $0.clients[sender] != nil }
            guard stillClient else { return }
            self.processIDs.withLock { known in
                if known.count < KeyboardMonitorGrabs.clientLimit { known[sender] = process }
            }
        }
    }

    /// Whether some client watches or grabs keys.
    package var hasClients: Bool {
        guard connection.withLock({ $0 != nil }) else { return false }
        return grabs.withLock { $0.hasClients }
    }

    /// The clients' state (tests, status).
    package var snapshot: KeyboardMonitorGrabs { grabs.withLock { $0 } }

    /// How long a key waits for a client's `Peer.Ping` reply after its `KeyEvent` (a client that does not answer
    /// costs one key this much, never more).
    static let pingTimeoutMilliseconds = 500

    /// Sends the key to every client and answers whether a grab consumed it; nil when no client listens. Before it
    /// returns, each client answered a `Peer.Ping` sent after the `KeyEvent`: the client has read the key before the
    /// app acts on it (focus events of that action then reach the client after the key, as with the registry's
    /// synchronous `NotifyListenersSync`; without it Orca 48 saw the new focus first and stayed silent).
    package func deliver(_ key: ForwardedKey) async -> KeyForwardAnswer? {
        guard let (bus, recipients, answer) = send(key) else { return nil }
        for recipient in recipients {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                bus.callAsync(
                    destination: recipient, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping",
                    timeoutMilliseconds: Self.pingTimeoutMilliseconds
                ) { _ in continuation.resume() }
            }
        }
        return answer
    }

    /// Emits the key's `KeyEvent` to every client; nil when no client listens.
    private func send(_ key: ForwardedKey) -> (DBusConnection, [String], KeyForwardAnswer)? {
        guard let bus = connection.withLock({ $0 }) else { return nil }
        let (recipients, consumed) = grabs.withLock { locked -> ([String], Bool) in
            guard locked.hasClients else { return ([], false) }
            let consumed = locked.consumes(
                keysym: key.symbol.keysym, modifiers: key.modifierMask, pressed: key.pressed)
            return (locked.recipients, consumed)
        }
        guard !recipients.isEmpty else { return nil }
        var delivered: [String] = []
        for recipient in recipients {
            do {
                let signal = try DBusMessage.signal(
                    path: Self.objectPath, interface: Self.interface, member: "KeyEvent")
                try signal.setDestination(recipient)
                let writer = signal.writer()
                Self.writeKeyEvent(writer, key)
                writer.finish()
                try bus.send(signal)
                delivered.append(recipient)
            } catch {
                logger.debug("a11y keyboard monitor: KeyEvent to \(recipient) failed: \(error)")
            }
        }
        return (bus, delivered, consumed ? .consumed : .notConsumed)
    }

    /// `(b released, u state, u keysym, u unichar, q keycode)`: the unichar is the key's text (0 for none).
    static func writeKeyEvent(_ writer: DBusWriter, _ key: ForwardedKey) {
        writer.append(!key.pressed)
        writer.append(key.modifierMask)
        writer.append(key.symbol.keysym)
        let text = key.symbol.text.flatMap { $0.unicodeScalars.count == 1 ? $0.unicodeScalars.first : nil }
        writer.append(text.map { $0.value } ?? 0)
        writer.append(UInt16(clamping: key.symbol.keycode))
    }

    // MARK: The interface

    private func handle(_ message: DBusMessage) -> DBusMethodResult {
        if message.hasInterface("org.freedesktop.DBus.Introspectable"), message.hasMember("Introspect") {
            return .reply(message.makeReply { $0.append(Self.introspection) })
        }
        guard message.hasInterface(Self.interface) || message.interface == nil, let member = message.member,
            let sender = message.sender
        else { return .notHandled }
        let change: ((inout KeyboardMonitorGrabs.Client) -> Void)
        switch member {
        case "WatchKeyboard": change = { $0.watching = true }
        case "UnwatchKeyboard": change = { $0.watching = false }
        case "GrabKeyboard": change = { $0.grabAll = true }
        case "UngrabKeyboard": change = { $0.grabAll = false }
        case "SetKeyGrabs":
            switch Self.readKeyGrabs(message) {
            case .success(let (modifiers, keystrokes)):
                change = { client in
                    client.modifiers = modifiers
                    client.keystrokes = keystrokes
                }
            case .failure(let error): return .error(error)
            }
        default: return .notHandled
        }
        guard grabs.withLock({ $0.update(sender, change) }) else {
            return .error(.failed("the keyboard monitor serves at most \(KeyboardMonitorGrabs.clientLimit) clients"))
        }
        logger.debug("a11y keyboard monitor: \(member) from \(sender)")
        lookUpProcess(of: sender)
        return .reply(message.makeReply())
    }

    /// `SetKeyGrabs(au modifiers, a(uu) keystrokes)`, checked: the signature, and at most `grabLimit` entries.
    static func readKeyGrabs(
        _ message: DBusMessage
    ) -> Result<(Set<UInt32>, [KeyboardMonitorGrabs.Keystroke]), DBusError> {
        guard message.hasSignature("aua(uu)") else {
            return .failure(
                DBusError(
                    name: DBusError.Name.invalidArgs,
                    message: "SetKeyGrabs takes (au modifiers, a(uu) keystrokes), not (\(message.signature))"))
        }
        do {
            let reader = message.reader()
            let modifiers = try reader.readUInt32Array()
            var keystrokes: [KeyboardMonitorGrabs.Keystroke] = []
            try reader.enterArray()
            while !reader.isAtEnd {
                guard keystrokes.count < KeyboardMonitorGrabs.grabLimit else { break }
                try reader.enterStruct()
                let keysym = try reader.readUInt32()
                let mask = try reader.readUInt32()
                try reader.leave()
                keystrokes.append(.init(keysym: keysym, modifiers: mask))
            }
            guard modifiers.count <= KeyboardMonitorGrabs.grabLimit, keystrokes.count < KeyboardMonitorGrabs.grabLimit
            else {
                return .failure(
                    DBusError(
                        name: DBusError.Name.invalidArgs,
                        message: "SetKeyGrabs: at most \(KeyboardMonitorGrabs.grabLimit) modifiers and keystrokes"))
            }
            return .success((Set(modifiers), keystrokes))
        } catch {
            return .failure(error)
        }
    }

    private func nameOwnerChanged(_ message: DBusMessage) {
        guard message.hasSignature("sss") else { return }
        let reader = message.reader()
        guard let name = try? reader.readString(), name.hasPrefix(":"), (try? reader.readString()) != nil,
            let newOwner = try? reader.readString(), newOwner.isEmpty
        else { return }
        grabs.withLock { $0.remove(name) }
        processIDs.withLock { _ = $0.removeValue(forKey: name) }
    }

    static let introspection = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.freedesktop.a11y.KeyboardMonitor">
            <method name="GrabKeyboard"/>
            <method name="UngrabKeyboard"/>
            <method name="WatchKeyboard"/>
            <method name="UnwatchKeyboard"/>
            <method name="SetKeyGrabs">
              <arg type="au" name="modifiers" direction="in"/>
              <arg type="a(uu)" name="keystrokes" direction="in"/>
            </method>
            <signal name="KeyEvent">
              <arg type="b" name="released"/>
              <arg type="u" name="state"/>
              <arg type="u" name="keysym"/>
              <arg type="u" name="unichar"/>
              <arg type="q" name="keycode"/>
            </signal>
          </interface>
        </node>
        """
}
