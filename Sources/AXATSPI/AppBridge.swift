import AXATSPIModel
import AXCore
import AXDBus
import AXHub
import CDBus
import Dispatch
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Stable object paths for one app: an element id gets `/org/a11y/atspi/accessible/<n>` the first time it is
/// referenced and keeps it for the app's life; a number never names another element.
/// Confined to `AppBridge.serving` (the bridge asserts it in debug builds before every use).
final class PathTable {
    private(set) var numbers: [String: UInt32] = [:]
    private(set) var ids: [String] = [""]
    private var paths: [UnsafeMutablePointer<CChar>] = []
    let rootPath: UnsafeMutablePointer<CChar> = strdup(ATSPIPaths.root)
    let nullPath: UnsafeMutablePointer<CChar> = strdup(ATSPIPaths.null)
    let cachePath: UnsafeMutablePointer<CChar> = strdup(ATSPIPaths.cache)

    init() { paths.append(strdup(ATSPIPaths.null)) }

    deinit {
        for path in paths { free(path) }
        free(rootPath)
        free(nullPath)
        free(cachePath)
    }

    @inline(__always) func number(_ id: String) -> UInt32 {
        if let number = numbers[id] { return number }
        let number = UInt32(ids.count)
        ids.append(id)
        numbers[id] = number
        paths.append(strdup(ATSPIPaths.prefix + "/" + String(number)))
        return number
    }

    @inline(__always) func path(_ id: String) -> UnsafePointer<CChar> { UnsafePointer(paths[Int(number(id))]) }
    @inline(__always) func path(number: UInt32) -> UnsafePointer<CChar> { UnsafePointer(paths[Int(number)]) }
    func id(number: UInt32) -> String? { number > 0 && Int(number) < ids.count ? ids[Int(number)] : nil }
    /// Existing number of an id without assigning one.
    func existingNumber(_ id: String) -> UInt32? { numbers[id] }
}

/// Hub changes waiting for the next flush.
struct Pending {
    var tree: AXTree?
    var changes: [ChangeSet] = []
    var focus: String?? = nil
    var notifications: [AccessibilityNotification] = []
    /// The app became the one that receives keys (true) or another app did (false) (D-ATSPI-ACTIVE-1).
    var activation: Bool?
    /// Carets the server moved in text elements (D-KEYOP-5), latest per element.
    var carets: [String: Int] = [:]
    var scheduled = false
    var lastFlush: UInt64 = 0
}

/// One mirrored app on the accessibility bus: its own connection (so it is its own application on the desktop),
/// the exported objects and the event stream.
///
/// Threading: every D-Bus handler (the bus connection's loop thread, peer-to-peer threads) and every flush runs
/// inside `serving` (holding `serveLock`), which owns `served`, `paths`, `desktop`, the sibling index and the
/// announcement queue (hence `@unchecked Sendable`); debug builds trap when they are touched outside it
/// (`assertServing`). Hub events arrive on any thread and only touch `pending` (a Mutex) before hopping to the
/// loop thread.
final class AppBridge: @unchecked Sendable {
    let appID: String
    let appName: String
    let hub: Hub
    let logger: Logger
    let listeners: EventListeners
    let serverVersion: String
    let connection: DBusConnection
    let busName: CStringBox
    let conn: OpaquePointer

    // Served state (under `serveLock`).
    /// The snapshot every answer comes from (with the transient announcement object, see `presentAsNotification`).
    var served: ServedSnapshot
    let paths = PathTable()
    var desktop: (bus: CStringBox, path: CStringBox)?
    var applicationID: Int32 = 0
    /// Sibling positions of big parents in `served` (reset on every swap).
    var siblingIndex = SiblingIndexCache()
    var lastAnnouncement: UInt64 = 0
    var announcementQueue: [(String, Int32)] = []
    var announcementTimerArmed = false

    /// Serializes everything that reads or writes the served state: handlers of the bus connection (its loop
    /// thread), handlers of peer-to-peer connections (their threads) and flushes.
    let serveLock = Mutex(())
    /// The thread inside `serving` (0 when none; maintained in debug builds only, see `assertServing`).
    let servingThread = Atomic<UInt>(0)
    /// The connection the call being handled arrived on (replies go back there); set under `serveLock`.
    var replyConn: OpaquePointer
    /// Optional peer-to-peer server (libatspi sends method calls there when GetApplicationBusAddress names it).
    var peer: DBusPeerServer?

    let pending = Mutex(Pending())
    /// The item the last rotor action reached (with its range), the current item of the next one while focus
    /// stays on its element (D-ROTOR-7); written from the action's task.
    let lastRotorItem = Mutex<RotorItem?>(nil)
    let embedAnswered = Atomic<Bool>(false)
    let embedded = Atomic<Bool>(false)
    /// Whether the app's key window is the active one (D-ATSPI-ACTIVE-1): unset (every app starts active, as
    /// before any key was routed), active, or inactive since another app received keys.
    let activity = Atomic<UInt8>(AppActivity.unset)
    /// D-Bus reply deadline for actions routed to the app (libatspi gives up at 800 ms).
    let actionReplyTimeout: Duration

    init(
        appID: String, hub: Hub, address: String, logger: Logger, listeners: EventListeners, serverVersion: String,
        actionReplyTimeout: Duration
    ) throws {
        self.appID = appID
        self.hub = hub
        self.logger = logger
        self.listeners = listeners
        self.serverVersion = serverVersion
        self.actionReplyTimeout = actionReplyTimeout
        let snap = try? hub.snapshot(appID)
        appName = snap?.name ?? hub.appName(appID) ?? appID
        served = ServedSnapshot(tree: snap?.tree ?? AXTree(), focusedID: snap?.focusedID, applicationName: appName)
        connection = try DBusConnection.open(address: address)
        conn = connection.pointer
        replyConn = connection.pointer
        busName = CStringBox(connection.uniqueName)
    }

    /// Runs `body` holding `serveLock`: the contract of every read or write of the served state, the path table
    /// and the announcement queue.
    @inline(__always) func serving<Result: Sendable>(_ body: () -> Result) -> Result {
        serveLock.withLock { _ in
            #if DEBUG
                let outer = servingThread.exchange(UInt(pthread_self()), ordering: .relaxed)
                defer { servingThread.store(outer, ordering: .relaxed) }
            #endif
            return body()
        }
    }

    /// Debug builds trap unless the caller runs inside `serving` on this thread (as swift-nio's
    /// `preconditionInEventLoop` does); release builds check nothing.
    @inline(__always) func assertServing(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            precondition(
                servingThread.load(ordering: .relaxed) == UInt(pthread_self()),
                "AT-SPI bridge state touched outside serveLock", file: file, line: line)
        #endif
    }

    /// Handles a call from the bus connection (its loop thread).
    func handleBus(_ msg: DBusMessage) -> DBusMethodResult {
        serving {
            replyConn = conn
            return handle(msg)
        }
    }

    /// Handles a call from a peer-to-peer connection (that connection's thread); sends the result there.
    func handlePeer(_ peerConnection: OpaquePointer, _ raw: OpaquePointer) -> DBusHandlerResult {
        let msg = DBusMessage(retaining: raw)
        let result = serving {
            replyConn = peerConnection
            defer { replyConn = conn }
            return handle(msg)
        }
        let wantsReply = dbus_message_get_no_reply(raw) == 0
        switch result {
        case .notHandled: return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .handled: return DBUS_HANDLER_RESULT_HANDLED
        case .reply(let reply):
            if wantsReply {
                withExtendedLifetime(reply) { _ = dbus_connection_send(peerConnection, reply.pointer, nil) }
            }
        case .error(let error):
            if wantsReply {
                let errorReply = msg.makeErrorReply(error)
                withExtendedLifetime(errorReply) { _ = dbus_connection_send(peerConnection, errorReply.pointer, nil) }
            }
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }

    /// Starts the peer-to-peer server (best effort: without it libatspi simply stays on the bus).
    func startPeer() {
        do {
            peer = try DBusPeerServer(directoryPrefix: "axserver-atspi") { [unowned self] connection, message in
                self.handlePeer(connection, message)
            }
        } catch {
            logger.notice("AT-SPI: no peer-to-peer socket for \(appID): \(error)")
        }
    }

    /// Exports the objects, then embeds the application root in the registry's desktop (non-blocking).
    func register() throws {
        let handler: DBusMethodHandler = { [unowned self] msg in self.handleBus(msg) }
        try connection.registerFallback(path: ATSPIPaths.prefix, handler)
        try connection.register(path: ATSPIPaths.cache, handler)
        // Any other path: UnknownObject (libdbus answers Peer on every path by itself).
        try connection.registerFallback(path: "/") { msg in
            if msg.hasInterface(DBusStandardInterfaces.introspectableInterface) && msg.hasPath("/") {
                let xml = DBusIntrospection.xml(interfaces: [], children: ["org"])
                return .reply(msg.makeReply { $0.append(xml) })
            }
            return .error(.unknownObject(path: msg.path))
        }
        try embed()
    }

    /// `Socket.Embed((so) plug) -> (so) desktop`, answered asynchronously (never blocks the loop).
    func embed() throws {
        let message = try DBusMessage.methodCall(
            destination: "org.a11y.atspi.Registry", path: ATSPIPaths.root,
            interface: ATSPIInterface.socket, member: "Embed")
        let writer = message.writer()
        writer.openStruct()
        writer.append(connection.uniqueName)
        writer.appendObjectPath(ATSPIPaths.root)
        writer.close()
        writer.finish()
        connection.callAsync(message, timeoutMilliseconds: 5_000) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply):
                if reply.hasSignature("(so)"), let ref = try? reply.reader().readReference() {
                    self.serving { self.desktop = (CStringBox(ref.bus), CStringBox(ref.path)) }
                    self.embedded.store(true, ordering: .releasing)
                    self.logger.debug("AT-SPI: \(self.appID) embedded as \(self.connection.uniqueName) in \(ref.bus)")
                }
            case .failure(let error):
                self.logger.notice("AT-SPI: Embed of \(self.appID) failed: \(error)")
            }
            self.embedAnswered.store(true, ordering: .releasing)
        }
    }

    func reembed() {
        do { try embed() } catch { logger.warning("AT-SPI: re-embedding \(appID) failed: \(error)") }
    }

    /// Serves the hub's current snapshot (covers changes made while the connection was being opened).
    func refreshFromHub() {
        guard let snap = try? hub.snapshot(appID) else { return }
        pending.withLock { locked in
            locked.tree = snap.tree
            locked.focus = .some(snap.focusedID)
        }
        schedule()
    }

    func close() {
        peer?.stop()
        connection.close()
    }

    // MARK: Resolution

    /// Parses `/org/a11y/atspi/accessible/<n|root>` without allocating.
    func resolve(_ path: UnsafePointer<CChar>) -> ServedObject? {
        assertServing()
        let prefixLength = 27  // "/org/a11y/atspi/accessible/"
        guard strncmp(path, "/org/a11y/atspi/accessible/", prefixLength) == 0 else { return nil }
        let rest = path + prefixLength
        if strcmp(rest, "root") == 0 { return .applicationRoot }
        var number: UInt32 = 0
        var cursor = rest
        guard cursor.pointee != 0 else { return nil }
        while cursor.pointee != 0 {
            let digit = UInt8(bitPattern: cursor.pointee)
            guard digit >= 48 && digit <= 57, number < 100_000_000 else { return nil }
            number = number * 10 + UInt32(digit - 48)
            cursor += 1
        }
        guard let id = paths.id(number: number), let node = served.node(id) else { return nil }
        return .node(node)
    }

    /// The Accessible answers over the served snapshot.
    @inline(__always) var accessibleModel: AccessibleModel { AccessibleModel(snapshot: served) }

    @inline(__always) func interfaces(_ object: ServedObject) -> ATSPIInterfaces {
        accessibleModel.interfaces(of: object)
    }

    // MARK: References

    @inline(__always) func writeRef(_ out: inout DBusFastWriter, _ id: String?) {
        assertServing()
        if let id {
            out.reference(bus: busName.pointer, path: paths.path(id))
        } else {
            out.reference(bus: "", path: paths.nullPath)
        }
    }
    @inline(__always) func writeRootRef(_ out: inout DBusFastWriter) {
        out.reference(bus: busName.pointer, path: paths.rootPath)
    }
    @inline(__always) func writeNullRef(_ out: inout DBusFastWriter) { out.reference(bus: "", path: paths.nullPath) }

    /// Writes an `ObjectReference` as `(so)`.
    func writeReference(_ out: inout DBusFastWriter, _ reference: ObjectReference) {
        switch reference {
        case .desktop:
            if let desktop {
                out.reference(bus: desktop.bus.pointer, path: desktop.path.pointer)
            } else {
                writeNullRef(&out)
            }
        case .applicationRoot: writeRootRef(&out)
        case .element(let id): writeRef(&out, id)
        case .null: writeNullRef(&out)
        }
    }

    func writeParentRef(_ out: inout DBusFastWriter, _ object: ServedObject) {
        writeReference(&out, accessibleModel.parent(of: object))
    }

    // MARK: Dispatch

    func handle(_ msg: DBusMessage) -> DBusMethodResult {
        assertServing()
        let rawMessage = msg.pointer
        guard dbus_message_get_type(rawMessage) == Int32(CDBUS_MESSAGE_TYPE_METHOD_CALL),
            let path = dbus_message_get_path(rawMessage)
        else { return .notHandled }
        let iface = dbus_message_get_interface(rawMessage)
        guard let member = dbus_message_get_member(rawMessage) else { return .error(.unknownMethod(for: msg)) }
        if strcmp(path, ATSPIPaths.cache) == 0 { return handleCache(msg, iface, member) }
        guard let target = resolve(path) else {
            return .error(.unknownObject(path: String(cString: path)))
        }
        guard let iface else { return .error(.unknownMethod(for: msg)) }
        if strncmp(iface, "org.a11y.atspi.", 15) == 0 { return handleATSPI(msg, iface, member, target) }
        if strcmp(iface, "org.freedesktop.DBus.Properties") == 0 { return properties(msg, rawMessage, member, target) }
        if strcmp(iface, "org.freedesktop.DBus.Introspectable") == 0, strcmp(member, "Introspect") == 0 {
            let ifaces = interfaces(target).names.map { ATSPIIntrospection.describe($0) }
            let xml = DBusIntrospection.xml(interfaces: ifaces)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.string(xml) }
            return .handled
        }
        return .error(.unknownMethod(for: msg))
    }

    /// A call on one of the `org.a11y.atspi.*` interfaces of `target`: to the interface's handler when the object
    /// implements it, else `UnknownInterface`.
    private func handleATSPI(
        _ msg: DBusMessage, _ iface: UnsafePointer<CChar>, _ member: UnsafePointer<CChar>, _ target: ServedObject
    ) -> DBusMethodResult {
        let rawMessage = msg.pointer
        let short = String(cString: iface + 15)
        if short == "Accessible" { return accessible(msg, rawMessage, member, target) }
        if short == "Application", case .applicationRoot = target { return application(msg, rawMessage, member) }
        let ifs = interfaces(target)
        if short == "Collection", ifs.contains(.collection) { return collection(msg, rawMessage, member, target) }
        if case .node(let node) = target, let result = nodeInterfaceCall(short, ifs, msg, member, node) {
            return result
        }
        if short == "Value", ifs.contains(.value) { return .error(.unknownMethod(for: msg)) }
        return .error(
            DBusError(
                name: DBusError.Name.unknownInterface,
                message: "Object \(msg.path ?? "") does not implement \(String(cString: iface))"))
    }

    /// A call on an element's interface (Component always; the others when the element implements them); nil
    /// when the element does not implement `short`.
    private func nodeInterfaceCall(
        _ short: String, _ ifs: ATSPIInterfaces, _ msg: DBusMessage, _ member: UnsafePointer<CChar>, _ node: AXNode
    ) -> DBusMethodResult? {
        let rawMessage = msg.pointer
        switch short {
        case "Component": return component(msg, rawMessage, member, node)
        case "Action" where ifs.contains(.action): return action(msg, rawMessage, member, node)
        case "Text" where ifs.contains(.text): return text(msg, rawMessage, member, node)
        case "EditableText" where ifs.contains(.editableText): return editableText(msg, rawMessage, member, node)
        case "Selection" where ifs.contains(.selection): return selection(msg, rawMessage, member, node)
        case "Table" where ifs.contains(.table): return table(msg, rawMessage, member, node)
        case "TableCell" where ifs.contains(.tableCell): return tableCell(msg, rawMessage, member, node)
        case "Image" where ifs.contains(.image): return image(msg, rawMessage, member, node)
        default: return nil
        }
    }

    @inline(__always) func invalidArgs(_ msg: DBusMessage, _ expected: String) -> DBusMethodResult {
        .error(
            .invalidArgs(
                "Invalid arguments for method '\(msg.member ?? "")': expected signature '\(expected)', got '\(msg.signature)'"
            ))
    }

    /// Checks the signature; on mismatch returns the InvalidArgs result.
    @inline(__always) func check(_ msg: DBusMessage, _ rawMessage: OpaquePointer, _ sig: StaticString)
        -> DBusMethodResult?
    {
        if dbusMessageHasSignature(rawMessage, sig) {
            return nil
        }
        return invalidArgs(msg, sig.description)
    }
}
