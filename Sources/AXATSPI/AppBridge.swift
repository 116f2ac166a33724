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
/// Loop-thread confined (only the app connection's loop thread touches it).
final class PathTable {
    private(set) var numbers: [String: UInt32] = [:]
    private(set) var ids: [String] = [""]
    private var paths: [UnsafeMutablePointer<CChar>] = []
    let rootPath: UnsafeMutablePointer<CChar> = strdup(ATSPIPaths.root)
    let nullPath: UnsafeMutablePointer<CChar> = strdup(ATSPIPaths.null)
    let cachePath: UnsafeMutablePointer<CChar> = strdup(ATSPIPaths.cache)

    init() { paths.append(strdup(ATSPIPaths.null)) }

    deinit {
        for p in paths { free(p) }
        free(rootPath)
        free(nullPath)
        free(cachePath)
    }

    @inline(__always) func number(_ id: String) -> UInt32 {
        if let n = numbers[id] { return n }
        let n = UInt32(ids.count)
        ids.append(id)
        numbers[id] = n
        paths.append(strdup(ATSPIPaths.prefix + "/" + String(n)))
        return n
    }

    @inline(__always) func path(_ id: String) -> UnsafePointer<CChar> { UnsafePointer(paths[Int(number(id))]) }
    @inline(__always) func path(number n: UInt32) -> UnsafePointer<CChar> { UnsafePointer(paths[Int(n)]) }
    func id(number n: UInt32) -> String? { n > 0 && Int(n) < ids.count ? ids[Int(n)] : nil }
    /// Existing number of an id without assigning one.
    func existingNumber(_ id: String) -> UInt32? { numbers[id] }
}

/// What one served object is.
enum Target {
    case root
    case node(AXNode)
}

/// The snapshot the D-Bus side answers from (swapped atomically on the loop thread, before events go out).
struct Served {
    var tree: AXTree
    var focusedID: String?
}

/// Hub changes waiting for the next flush.
struct Pending {
    var tree: AXTree?
    var changes: [ChangeSet] = []
    var focus: String?? = nil
    var notifications: [AccessibilityNotification] = []
    var scheduled = false
    var lastFlush: UInt64 = 0
}

/// One mirrored app on the accessibility bus: its own connection (so it is its own application on the desktop),
/// the exported objects and the event stream.
///
/// Threading: every D-Bus handler and every flush runs on the connection's loop thread, which owns `served`,
/// `paths`, `desktop` and the lazy tables (hence `@unchecked Sendable`). Hub events arrive on any thread and only
/// touch `pending` (a Mutex) before hopping to the loop thread.
final class AppBridge: @unchecked Sendable {
    let appID: String
    let appName: String
    let hub: Hub
    let logger: Logger
    let listeners: ListenerState
    let serverVersion: String
    let connection: DBusConnection
    let busName: CStringBox
    let conn: OpaquePointer

    // Loop-thread state.
    var served: Served
    let paths = PathTable()
    var desktop: (bus: CStringBox, path: CStringBox)?
    var applicationID: Int32 = 0
    var bigParentIndex: [String: [String: Int32]] = [:]
    var lastAnnouncement: UInt64 = 0
    /// The transient NOTIFICATION object that presents the latest announcement to screen readers that do not
    /// handle the Announcement event (Orca 43 speaks a notification when it becomes showing).
    var announcementNode: AXNode?
    static let announcementID = "\u{1}announcement"
    var announcementQueue: [(String, Int32)] = []
    var announcementTimerArmed = false

    /// Serializes everything that reads or writes the served state: handlers of the bus connection (its loop
    /// thread), handlers of peer-to-peer connections (their threads) and flushes.
    let serveLock = Mutex(())
    /// The connection the call being handled arrived on (replies go back there); set under `serveLock`.
    var replyConn: OpaquePointer
    /// Optional peer-to-peer server (libatspi sends method calls there when GetApplicationBusAddress names it).
    var peer: PeerServer?

    let pending = Mutex(Pending())
    let embedAnswered = Atomic<Bool>(false)
    let embedded = Atomic<Bool>(false)
    /// D-Bus reply deadline for actions routed to the app (libatspi gives up at 800 ms).
    let actionReplyTimeout: Duration

    static let localeString: String = {
        for k in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let v = getenv(k), v.pointee != 0 { return String(cString: v) }
        }
        return "C"
    }()

    init(
        appID: String, hub: Hub, address: String, logger: Logger, listeners: ListenerState, serverVersion: String,
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
        served = Served(tree: snap?.tree ?? AXTree(), focusedID: snap?.focusedID)
        connection = try DBusConnection.open(address: address)
        conn = connection.pointer
        replyConn = connection.pointer
        busName = CStringBox(connection.uniqueName)
    }

    /// Handles a call from the bus connection (its loop thread).
    func handleBus(_ msg: DBusMessage) -> DBusMethodResult {
        serveLock.withLock { _ in
            replyConn = conn
            return handle(msg)
        }
    }

    /// Handles a call from a peer-to-peer connection (that connection's thread); sends the result there.
    func handlePeer(_ c: OpaquePointer, _ raw: OpaquePointer) -> DBusHandlerResult {
        let msg = DBusMessage(retaining: raw)
        let r = serveLock.withLock { _ in
            replyConn = c
            defer { replyConn = conn }
            return handle(msg)
        }
        let wantsReply = dbus_message_get_no_reply(raw) == 0
        switch r {
        case .notHandled: return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .handled: return DBUS_HANDLER_RESULT_HANDLED
        case .reply(let m):
            if wantsReply { withExtendedLifetime(m) { _ = dbus_connection_send(c, m.pointer, nil) } }
        case .error(let e):
            if wantsReply {
                let m = msg.makeErrorReply(e)
                withExtendedLifetime(m) { _ = dbus_connection_send(c, m.pointer, nil) }
            }
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }

    /// Starts the peer-to-peer server (best effort: without it libatspi simply stays on the bus).
    func startPeer() {
        do { peer = try PeerServer(bridge: self) } catch {
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
        let m = try DBusMessage.methodCall(
            destination: "org.a11y.atspi.Registry", path: ATSPIPaths.root,
            interface: ATSPIInterface.socket, member: "Embed")
        let w = m.writer()
        w.openStruct()
        w.append(connection.uniqueName)
        w.appendObjectPath(ATSPIPaths.root)
        w.close()
        w.finish()
        connection.callAsync(m, timeoutMilliseconds: 5_000) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply):
                if reply.hasSignature("(so)"), let ref = try? reply.reader().readReference() {
                    self.serveLock.withLock { _ in self.desktop = (CStringBox(ref.bus), CStringBox(ref.path)) }
                    self.embedded.store(true, ordering: .releasing)
                    self.logger.debug("AT-SPI: \(self.appID) embedded as \(self.connection.uniqueName) in \(ref.bus)")
                }
            case .failure(let e):
                self.logger.notice("AT-SPI: Embed of \(self.appID) failed: \(e)")
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
        pending.withLock { p in
            p.tree = snap.tree
            p.focus = .some(snap.focusedID)
        }
        schedule()
    }

    func close() {
        peer?.stop()
        connection.close()
    }

    // MARK: Resolution

    /// Parses `/org/a11y/atspi/accessible/<n|root>` without allocating.
    func resolve(_ path: UnsafePointer<CChar>) -> Target? {
        let prefixLen = 27  // "/org/a11y/atspi/accessible/"
        guard strncmp(path, "/org/a11y/atspi/accessible/", prefixLen) == 0 else { return nil }
        let rest = path + prefixLen
        if strcmp(rest, "root") == 0 { return .root }
        var n: UInt32 = 0
        var p = rest
        guard p.pointee != 0 else { return nil }
        while p.pointee != 0 {
            let c = UInt8(bitPattern: p.pointee)
            guard c >= 48 && c <= 57, n < 100_000_000 else { return nil }
            n = n * 10 + UInt32(c - 48)
            p += 1
        }
        guard let id = paths.id(number: n) else { return nil }
        if let node = served.tree[id] { return .node(node) }
        if id == AppBridge.announcementID, let a = announcementNode { return .node(a) }
        return nil
    }

    @inline(__always) func parentRole(_ n: AXNode) -> AXRole? {
        guard let p = n.parent else { return nil }
        return served.tree[p]?.role
    }

    @inline(__always) func states(_ n: AXNode) -> ATSPIStateSet {
        ATSPIMapping.states(n, parentRole: parentRole(n), focused: n.id == served.focusedID)
    }

    @inline(__always) func interfaces(_ t: Target) -> ATSPIInterfaces {
        switch t {
        case .root: return [.accessible, .application, .collection]
        case .node(let n): return ATSPIMapping.interfaces(n, parentRole: parentRole(n))
        }
    }

    @inline(__always) func role(_ n: AXNode) -> ATSPIRole { ATSPIMapping.role(n, parentRole: parentRole(n)) }

    /// Children of a target (windows for the root).
    @inline(__always) func children(_ t: Target) -> [String] {
        switch t {
        case .root: return served.tree.windows
        case .node(let n): return n.children
        }
    }

    func indexInParent(_ n: AXNode) -> Int32 {
        let siblings: [String]
        let key: String
        if let p = n.parent, let pn = served.tree[p] {
            siblings = pn.children
            key = p
        } else {
            siblings = served.tree.windows
            key = ""
        }
        if siblings.count <= 32 {
            if let i = siblings.firstIndex(of: n.id) { return Int32(i) }
            return -1
        }
        if let m = bigParentIndex[key] { return m[n.id] ?? -1 }
        var m: [String: Int32] = [:]
        m.reserveCapacity(siblings.count)
        for (i, s) in siblings.enumerated() { m[s] = Int32(i) }
        bigParentIndex[key] = m
        return m[n.id] ?? -1
    }

    // MARK: References

    @inline(__always) func writeRef(_ o: inout Out, _ id: String?) {
        if let id { o.ref(busName.pointer, paths.path(id)) } else { o.ref("", paths.nullPath) }
    }
    @inline(__always) func writeRootRef(_ o: inout Out) { o.ref(busName.pointer, paths.rootPath) }
    @inline(__always) func writeNullRef(_ o: inout Out) { o.ref("", paths.nullPath) }

    func writeParentRef(_ o: inout Out, _ t: Target) {
        switch t {
        case .root:
            if let d = desktop { o.ref(d.bus.pointer, d.path.pointer) } else { writeNullRef(&o) }
        case .node(let n):
            if let p = n.parent, served.tree[p] != nil { writeRef(&o, p) } else { writeRootRef(&o) }
        }
    }

    @inline(__always) func writePath(_ o: inout Out, _ t: Target) {
        switch t {
        case .root: o.path(paths.rootPath)
        case .node(let n): o.path(paths.path(n.id))
        }
    }

    // MARK: Dispatch

    func handle(_ msg: DBusMessage) -> DBusMethodResult {
        let m = msg.pointer
        guard dbus_message_get_type(m) == Int32(CDBUS_MESSAGE_TYPE_METHOD_CALL) else { return .notHandled }
        guard let path = dbus_message_get_path(m) else { return .notHandled }
        let iface = dbus_message_get_interface(m)
        guard let member = dbus_message_get_member(m) else { return .error(.unknownMethod(for: msg)) }
        if strcmp(path, ATSPIPaths.cache) == 0 { return handleCache(msg, iface, member) }
        guard let target = resolve(path) else {
            return .error(.unknownObject(path: String(cString: path)))
        }
        guard let iface else { return .error(.unknownMethod(for: msg)) }
        if strncmp(iface, "org.a11y.atspi.", 15) == 0 {
            let short = iface + 15
            if strcmp(short, "Accessible") == 0 { return accessible(msg, m, member, target) }
            if strcmp(short, "Component") == 0, case .node(let n) = target { return component(msg, m, member, n) }
            let ifs = interfaces(target)
            if strcmp(short, "Action") == 0, ifs.contains(.action), case .node(let n) = target {
                return action(msg, m, member, n)
            }
            if strcmp(short, "Text") == 0, ifs.contains(.text), case .node(let n) = target {
                return text(msg, m, member, n)
            }
            if strcmp(short, "EditableText") == 0, ifs.contains(.editableText), case .node(let n) = target {
                return editableText(msg, m, member, n)
            }
            if strcmp(short, "Selection") == 0, ifs.contains(.selection), case .node(let n) = target {
                return selection(msg, m, member, n)
            }
            if strcmp(short, "Table") == 0, ifs.contains(.table), case .node(let n) = target {
                return table(msg, m, member, n)
            }
            if strcmp(short, "TableCell") == 0, ifs.contains(.tableCell), case .node(let n) = target {
                return tableCell(msg, m, member, n)
            }
            if strcmp(short, "Image") == 0, ifs.contains(.image), case .node(let n) = target {
                return image(msg, m, member, n)
            }
            if strcmp(short, "Collection") == 0, ifs.contains(.collection) { return collection(msg, m, member, target) }
            if strcmp(short, "Application") == 0, case .root = target { return application(msg, m, member) }
            if strcmp(short, "Value") == 0, ifs.contains(.value) { return .error(.unknownMethod(for: msg)) }
            return .error(
                DBusError(
                    name: DBusError.Name.unknownInterface,
                    message: "Object \(String(cString: path)) does not implement \(String(cString: iface))"))
        }
        if strcmp(iface, "org.freedesktop.DBus.Properties") == 0 { return properties(msg, m, member, target) }
        if strcmp(iface, "org.freedesktop.DBus.Introspectable") == 0, strcmp(member, "Introspect") == 0 {
            let ifaces = interfaces(target).names.map { DBusInterfaceDescription(name: $0) }
            let xml = DBusIntrospection.xml(interfaces: ifaces)
            sendReply(replyConn, to: m) { $0.string(xml) }
            return .handled
        }
        return .error(.unknownMethod(for: msg))
    }

    @inline(__always) func invalidArgs(_ msg: DBusMessage, _ expected: String) -> DBusMethodResult {
        .error(
            .invalidArgs(
                "Invalid arguments for method '\(msg.member ?? "")': expected signature '\(expected)', got '\(msg.signature)'"
            ))
    }

    /// Checks the signature; on mismatch returns the InvalidArgs result.
    @inline(__always) func check(_ msg: DBusMessage, _ m: OpaquePointer, _ sig: StaticString) -> DBusMethodResult? {
        if dbus_message_has_signature(m, UnsafeRawPointer(sig.utf8Start).assumingMemoryBound(to: CChar.self)) != 0 {
            return nil
        }
        return invalidArgs(msg, sig.description)
    }

    // MARK: Accessible

    func name(_ t: Target) -> String {
        switch t {
        case .root: return appName
        case .node(let n): return n.label ?? ""
        }
    }

    func accessible(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ t: Target)
        -> DBusMethodResult
    {
        switch String(cString: member) {
        case "GetChildAtIndex":
            if let e = check(msg, m, "i") { return e }
            var i = In(m)
            let idx = i.int32()
            let kids = children(t)
            guard idx >= 0 else { return .error(.invalidArgs("GetChildAtIndex: negative index \(idx)")) }
            sendReply(replyConn, to: m) { o in
                if Int(idx) < kids.count { writeRef(&o, kids[Int(idx)]) } else { writeNullRef(&o) }
            }
        case "GetChildren":
            if let e = check(msg, m, "") { return e }
            let kids = children(t)
            sendReply(replyConn, to: m) { o in o.array("(so)") { a in for k in kids { writeRef(&a, k) } } }
        case "GetIndexInParent":
            if let e = check(msg, m, "") { return e }
            let idx: Int32
            if case .node(let n) = t { idx = indexInParent(n) } else { idx = -1 }
            sendReply(replyConn, to: m) { $0.int32(idx) }
        case "GetRelationSet":
            if let e = check(msg, m, "") { return e }
            sendReply(replyConn, to: m) { o in o.array("(ua(so))") { _ in } }
        case "GetRole":
            if let e = check(msg, m, "") { return e }
            let r: UInt32
            if case .node(let n) = t { r = role(n).rawValue } else { r = ATSPIRole.application.rawValue }
            sendReply(replyConn, to: m) { $0.uint32(r) }
        case "GetRoleName", "GetLocalizedRoleName":
            if let e = check(msg, m, "") { return e }
            let r: ATSPIRole
            if case .node(let n) = t { r = role(n) } else { r = .application }
            sendReply(replyConn, to: m) { $0.string(r.name) }
        case "GetState":
            if let e = check(msg, m, "") { return e }
            let s: ATSPIStateSet
            if case .node(let n) = t { s = states(n) } else { s = ATSPIStateSet() }
            sendReply(replyConn, to: m) { $0.states(s) }
        case "GetAttributes":
            if let e = check(msg, m, "") { return e }
            let a: [(String, String)]
            if case .node(let n) = t {
                a = ATSPIMapping.attributes(n, parentRole: parentRole(n))
            } else {
                a = [("toolkit", ATSPIMapping.toolkitName)]
            }
            sendReply(replyConn, to: m) { $0.stringDict(a) }
        case "GetApplication":
            if let e = check(msg, m, "") { return e }
            sendReply(replyConn, to: m) { writeRootRef(&$0) }
        case "GetInterfaces":
            if let e = check(msg, m, "") { return e }
            let names = interfaces(t).names
            sendReply(replyConn, to: m) { o in o.array("s") { a in for n in names { a.string(n) } } }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }

    // MARK: Application

    func application(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>) -> DBusMethodResult {
        if strcmp(member, "GetLocale") == 0 {
            if let e = check(msg, m, "u") { return e }
            sendReply(replyConn, to: m) { $0.string(AppBridge.localeString) }
            return .handled
        }
        if strcmp(member, "GetApplicationBusAddress") == 0 {
            if let e = check(msg, m, "") { return e }
            let address = peer?.address ?? ""
            sendReply(replyConn, to: m) { $0.string(address) }
            return .handled
        }
        return .error(.unknownMethod(for: msg))
    }

    // MARK: Component

    func windowOrigin(_ n: AXNode) -> (Double, Double) {
        if n.role == .window { return (n.frame.x, n.frame.y) }
        if let w = served.tree[n.windowID] { return (w.frame.x, w.frame.y) }
        return (0, 0)
    }

    /// The frame in the requested coordinate space (0 screen, 1 window, 2 parent).
    func extents(_ n: AXNode, _ coord: UInt32) -> (Int32, Int32, Int32, Int32) {
        var x = n.frame.x
        var y = n.frame.y
        switch coord {
        case 1:
            let o = windowOrigin(n)
            x -= o.0
            y -= o.1
        case 2:
            if let p = n.parent, let pn = served.tree[p] {
                x -= pn.frame.x
                y -= pn.frame.y
            } else {
                let o = windowOrigin(n)
                x -= o.0
                y -= o.1
            }
        default: break
        }
        return (clampInt(x), clampInt(y), clampInt(n.frame.width), clampInt(n.frame.height))
    }

    /// Converts a point given in `coord` relative to `n` to screen coordinates.
    func toScreen(_ n: AXNode, _ x: Int32, _ y: Int32, _ coord: UInt32) -> Point {
        var px = Double(x)
        var py = Double(y)
        switch coord {
        case 1:
            let o = windowOrigin(n)
            px += o.0
            py += o.1
        case 2:
            if let p = n.parent, let pn = served.tree[p] {
                px += pn.frame.x
                py += pn.frame.y
            } else {
                let o = windowOrigin(n)
                px += o.0
                py += o.1
            }
        default: break
        }
        return Point(x: px, y: py)
    }

    /// Deepest descendant of `n` (not `n` itself) containing `p`; later children first.
    func deepestDescendant(_ n: AXNode, _ p: Point) -> String? {
        for c in n.children.reversed() {
            guard let cn = served.tree[c] else { continue }
            if let d = deepestDescendant(cn, p) { return d }
            if cn.frame.contains(p) { return c }
        }
        return nil
    }

    enum ExtentsQuery { case rect, position, size }

    /// Component.GetExtents/GetPosition/GetSize and their Image twins: same arguments, same answers.
    func replyExtents(_ q: ExtentsQuery, _ msg: DBusMessage, _ m: OpaquePointer, _ n: AXNode) -> DBusMethodResult {
        if let e = check(msg, m, q == .size ? "" : "u") { return e }
        var coords: UInt32 = 0
        if q != .size {
            var i = In(m)
            coords = i.uint32()
        }
        let r = extents(n, coords)
        switch q {
        case .rect: sendReply(replyConn, to: m) { $0.rect(r.0, r.1, r.2, r.3) }
        case .position:
            sendReply(replyConn, to: m) { o in
                o.int32(r.0)
                o.int32(r.1)
            }
        case .size:
            sendReply(replyConn, to: m) { o in
                o.int32(r.2)
                o.int32(r.3)
            }
        }
        return .handled
    }

    func component(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ n: AXNode)
        -> DBusMethodResult
    {
        switch String(cString: member) {
        case "GetExtents": return replyExtents(.rect, msg, m, n)
        case "GetPosition": return replyExtents(.position, msg, m, n)
        case "GetSize": return replyExtents(.size, msg, m, n)
        case "Contains":
            if let e = check(msg, m, "iiu") { return e }
            var i = In(m)
            let x = i.int32()
            let y = i.int32()
            let c = i.uint32()
            let inside = n.frame.contains(toScreen(n, x, y, c))
            sendReply(replyConn, to: m) { $0.bool(inside) }
        case "GetAccessibleAtPoint":
            if let e = check(msg, m, "iiu") { return e }
            var i = In(m)
            let x = i.int32()
            let y = i.int32()
            let c = i.uint32()
            let p = toScreen(n, x, y, c)
            var hit: String? = nil
            // The core's accessibility hit test; fall back to a subtree search when it lands outside `n`.
            if let h = HitTesting.elementAt(p, tree: served.tree), h != n.id,
                served.tree.ancestors(of: h).contains(n.id)
            {
                hit = h
            } else {
                hit = deepestDescendant(n, p)
            }
            sendReply(replyConn, to: m) { o in writeRef(&o, hit) }
        case "GetLayer":
            if let e = check(msg, m, "") { return e }
            let layer: UInt32 = n.role == .window ? 7 : (n.role == .alert ? 5 : 3)
            sendReply(replyConn, to: m) { $0.uint32(layer) }
        case "GetMDIZOrder":
            if let e = check(msg, m, "") { return e }
            let z: Int16 = n.role == .window ? Int16(clamping: served.tree.windows.firstIndex(of: n.id) ?? -1) : -1
            sendReply(replyConn, to: m) { $0.int16(z) }
        case "GetAlpha":
            if let e = check(msg, m, "") { return e }
            sendReply(replyConn, to: m) { $0.double(1) }
        case "GrabFocus":
            if let e = check(msg, m, "") { return e }
            let can = states(n).contains(.focusable)
            var ok = false
            if can {
                do {
                    try hub.setFocus(app: appID, element: n.id)
                    ok = true
                } catch {
                    logger.debug("AT-SPI: GrabFocus on \(n.id) failed: \(error)")
                }
                // The hub's focusChanged reached `pending` synchronously: serve and announce it before replying,
                // so the caller's next GetState already reports FOCUSED.
                flushLocked()
            }
            sendReply(replyConn, to: m) { $0.bool(ok) }
        case "ScrollTo":
            if let e = check(msg, m, "u") { return e }
            sendReply(replyConn, to: m) { $0.bool(n.isOnscreen) }
        case "ScrollToPoint":
            if let e = check(msg, m, "uii") { return e }
            sendReply(replyConn, to: m) { $0.bool(false) }
        case "SetExtents":
            if let e = check(msg, m, "iiiiu") { return e }
            sendReply(replyConn, to: m) { $0.bool(false) }
        case "SetPosition":
            if let e = check(msg, m, "iiu") { return e }
            sendReply(replyConn, to: m) { $0.bool(false) }
        case "SetSize":
            if let e = check(msg, m, "ii") { return e }
            sendReply(replyConn, to: m) { $0.bool(false) }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }
}

@inline(__always) func clampInt(_ d: Double) -> Int32 {
    guard d.isFinite else { return 0 }
    return Int32(clamping: Int64(d.rounded()))
}
