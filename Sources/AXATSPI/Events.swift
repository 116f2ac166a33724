import AXCore
import AXDBus
import AXHub
import CDBus
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Who listens to what (Registry.GetRegisteredEvents + EventListenerRegistered/Deregistered). Until the
/// registry has answered (or when there is none) the bridge is chatty, like atk-adaptor.
final class ListenerState: Sendable {
    struct S {
        var known = false
        /// bus name → normalized registrations (lowercase, '-' removed, split on ':').
        var regs: [String: [[String]]] = [:]
    }
    let state = Mutex(S())

    static func normalize(_ event: String) -> [String] {
        stripDashes(event).split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    }

    func setAll(_ pairs: [(String, String)]) {
        state.withLock { s in
            s.known = true
            s.regs = [:]
            for (bus, ev) in pairs { s.regs[bus, default: []].append(ListenerState.normalize(ev)) }
        }
    }

    func add(bus: String, event: String) {
        state.withLock { s in s.regs[bus, default: []].append(ListenerState.normalize(event)) }
    }

    func remove(bus: String, event: String) {
        state.withLock { s in
            if event.isEmpty {
                s.regs[bus] = nil
                return
            }
            let n = ListenerState.normalize(event)
            if var l = s.regs[bus], let i = l.firstIndex(of: n) {
                l.remove(at: i)
                s.regs[bus] = l.isEmpty ? nil : l
            }
        }
    }

    /// Chatty mode (registry unknown / absent).
    func setUnknown() {
        state.withLock { s in
            s.known = false
            s.regs = [:]
        }
    }

    var anyListener: Bool { state.withLock { !$0.known || !$0.regs.isEmpty } }

    var summary: String {
        state.withLock { s in s.known ? "listeners=\(s.regs.count)" : "listeners=unknown" }
    }

    /// atk-adaptor's prefix rule: some registration whose non-empty components all equal the event's.
    /// `cls` / `member` / `detail` must already be lowercase without '-'.
    func wants(_ cls: String, _ member: String, _ detail: String) -> Bool {
        state.withLock { s in
            if !s.known { return true }
            let ev = [cls, member, detail]
            for (_, list) in s.regs {
                for r in list {
                    var ok = true
                    for (i, comp) in r.enumerated() where !comp.isEmpty {
                        if i >= ev.count || ev[i] != comp {
                            ok = false
                            break
                        }
                    }
                    if ok { return true }
                }
            }
            return false
        }
    }
}

/// The `any_data` of an event.
enum AnyData {
    case int(Int32)
    case string(String)
    case ref(String?)
    case root
    case uint(UInt32)
    case double(Double)
    case rect(Int32, Int32, Int32, Int32)
}

extension AppBridge {
    // MARK: Receiving hub events (any thread)

    func receive(_ e: HubEvent) {
        pending.withLock { p in
            switch e {
            case .treeChanged(_, let cs, let tree):
                p.tree = tree
                p.changes.append(cs)
            case .focusChanged(_, _, let to):
                p.focus = .some(to)
            case .notification(_, let n):
                p.notifications.append(n)
            default: break
            }
        }
        schedule()
    }

    /// Coalesces: at most one flush per 20 ms per app; the first change after a quiet period goes out at once.
    func schedule() {
        let (need, delayNs) = pending.withLock { p -> (Bool, UInt64) in
            if p.scheduled { return (false, 0) }
            p.scheduled = true
            let now = monotonicNow()
            let since = now &- p.lastFlush
            return (true, since >= 20_000_000 ? 0 : 20_000_000 - since)
        }
        guard need else { return }
        if delayNs == 0 {
            connection.perform { [weak self] in self?.flush() }
        } else {
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(delayNs))) { [weak self] in
                guard let self else { return }
                self.connection.perform { [weak self] in self?.flush() }
            }
        }
    }

    // MARK: Flush (loop thread): swap the served snapshot first, then emit

    func flush() { serveLock.withLock { _ in flushLocked() } }

    /// `flush` for callers that already hold `serveLock` (GrabFocus).
    func flushLocked() {
        let p = pending.withLock { p -> Pending in
            let out = p
            p = Pending()
            p.lastFlush = monotonicNow()
            return out
        }
        let old = served
        var new = old
        if let t = p.tree { new.tree = t }
        if let f = p.focus { new.focusedID = f }
        if p.tree == nil && p.focus == nil && p.notifications.isEmpty { return }
        served = new
        if p.tree != nil { bigParentIndex = [:] }
        guard listeners.anyListener else { return }
        if p.tree != nil || p.focus != nil {
            let cs =
                ChangeSet.merged(p.changes) ?? ChangeSet(fromRevision: old.tree.revision, toRevision: new.tree.revision)
            emitDiff(old, new, cs)
        }
        for n in p.notifications { emitNotification(n) }
    }

    // MARK: Emission

    func signal(
        _ path: UnsafePointer<CChar>, _ iface: StaticString, _ member: StaticString, _ detail: String,
        _ d1: Int32, _ d2: Int32, _ any: AnyData
    ) {
        guard let s = dbus_message_new_signal(path, cs(iface), cs(member)) else { return }
        var o = Out(message: s)
        o.string(detail)
        o.int32(d1)
        o.int32(d2)
        switch any {
        case .int(let v): o.variant("i") { $0.int32(v) }
        case .uint(let v): o.variant("u") { $0.uint32(v) }
        case .double(let v): o.variant("d") { $0.double(v) }
        case .string(let v): o.variant("s") { $0.string(v) }
        case .ref(let id): o.variant("(so)") { writeRef(&$0, id) }
        case .root: o.variant("(so)") { writeRootRef(&$0) }
        case .rect(let x, let y, let w, let h): o.variant("(iiii)") { $0.rect(x, y, w, h) }
        }
        o.array("{sv}") { _ in }
        _ = dbus_connection_send(conn, s, nil)
        dbus_message_unref(s)
    }

    func objectEvent(
        _ id: String?, _ member: StaticString, _ key: String, _ detail: String, _ d1: Int32, _ d2: Int32,
        _ any: AnyData, cacheMaintenance: Bool = false
    ) {
        if !cacheMaintenance {
            guard listeners.wants("object", key, stripDashes(detail)) else { return }
        }
        let path: UnsafePointer<CChar> = id.map { paths.path($0) } ?? UnsafePointer(paths.rootPath)
        signal(path, "org.a11y.atspi.Event.Object", member, detail, d1, d2, any)
    }

    func windowEvent(_ id: String, _ member: StaticString, _ key: String, _ title: String) {
        guard listeners.wants("window", key, "") else { return }
        signal(paths.path(id), "org.a11y.atspi.Event.Window", member, "", 0, 0, .string(title))
    }

    func cacheAdd(_ n: AXNode) {
        guard let s = dbus_message_new_signal(paths.cachePath, "org.a11y.atspi.Cache", "AddAccessible") else { return }
        var o = Out(message: s)
        writeItem(&o, n)
        _ = dbus_connection_send(conn, s, nil)
        dbus_message_unref(s)
    }

    func cacheRemove(_ id: String) {
        guard let s = dbus_message_new_signal(paths.cachePath, "org.a11y.atspi.Cache", "RemoveAccessible") else {
            return
        }
        var o = Out(message: s)
        writeRef(&o, id)
        _ = dbus_connection_send(conn, s, nil)
        dbus_message_unref(s)
    }

    func stateSet(_ n: AXNode, _ tree: AXTree, _ focus: String?) -> ATSPIStateSet {
        let pr = n.parent.flatMap { tree[$0]?.role }
        return ATSPIMapping.states(n, parentRole: pr, focused: n.id == focus)
    }

    /// Per-node events between the snapshot served before and the one served now.
    func emitDiff(_ old: Served, _ new: Served, _ cs: ChangeSet) {
        let oldTree = old.tree
        let newTree = new.tree

        // 1. Structure: children of every touched parent ("" = the application root).
        var parents: [String] = []
        var seen = Set<String>()
        func touch(_ p: String?) {
            let k = p ?? ""
            if seen.insert(k).inserted { parents.append(k) }
        }
        if oldTree.windows != newTree.windows { touch(nil) }
        for id in cs.removed { if let o = oldTree[id] { touch(o.parent) } }
        for id in cs.moved {
            touch(oldTree[id]?.parent)
            touch(newTree[id]?.parent)
        }
        for id in cs.added { if let n = newTree[id] { touch(n.parent) } }
        for (id, attrs) in cs.updated where attrs.contains("children") { touch(id) }

        let removedSet = Set(cs.removed)
        for id in cs.removed where oldTree[id] != nil && newTree[id] == nil { cacheRemove(id) }
        for p in parents {
            let oldKids = p.isEmpty ? oldTree.windows : (oldTree[p]?.children ?? [])
            let newKids = p.isEmpty ? newTree.windows : (newTree[p]?.children ?? [])
            // A parent that is new itself was announced by its own "add": its children come with it.
            guard oldKids != newKids, p.isEmpty || (newTree[p] != nil && oldTree[p] != nil) else { continue }
            let pid: String? = p.isEmpty ? nil : p
            let newSet = Set(newKids)
            let oldSet = Set(oldKids)
            let gone = oldKids.enumerated().filter { !newSet.contains($0.element) }
            let came = newKids.enumerated().filter { !oldSet.contains($0.element) }
            let sameOrder = oldKids.filter { newSet.contains($0) } == newKids.filter { oldSet.contains($0) }
            if gone.count + came.count > 32 || !sameOrder {
                // Bulk change: one event with index -1 makes libatspi drop its cached children of the parent.
                objectEvent(
                    pid, "ChildrenChanged", "childrenchanged", "add", -1, 0, .ref(newKids.first), cacheMaintenance: true
                )
            } else {
                for (i, g) in gone.reversed() {
                    objectEvent(
                        pid, "ChildrenChanged", "childrenchanged", "remove", Int32(i), 0, .ref(g),
                        cacheMaintenance: true)
                }
                for (i, c) in came {
                    objectEvent(
                        pid, "ChildrenChanged", "childrenchanged", "add", Int32(i), 0, .ref(c), cacheMaintenance: true)
                }
            }
            if p.isEmpty {
                for (_, g) in gone { if let w = oldTree[g] { windowEvent(g, "Destroy", "destroy", w.label ?? "") } }
                for (_, c) in came { if let w = newTree[c] { windowEvent(c, "Create", "create", w.label ?? "") } }
            }
        }
        for id in cs.added { if let n = newTree[id] { cacheAdd(n) } }

        // 2. Properties and states of updated nodes (focus and window activation last, in order).
        var candidates = Array(cs.updated.keys)
        if old.focusedID != new.focusedID {
            if let f = old.focusedID { candidates.append(f) }
            if let f = new.focusedID { candidates.append(f) }
        }
        var activated: [AXNode] = []
        var deactivated: [AXNode] = []
        var focusOut: String? = nil
        var focusIn: String? = nil
        if old.focusedID != new.focusedID {
            if let f = old.focusedID, newTree[f] != nil { focusOut = f }
            if let f = new.focusedID, newTree[f] != nil { focusIn = f }
        }
        var done = Set<String>()
        for id in candidates where done.insert(id).inserted && !removedSet.contains(id) {
            guard let o = oldTree[id], let n = newTree[id] else { continue }
            let opr = o.parent.flatMap { oldTree[$0]?.role }
            let npr = n.parent.flatMap { newTree[$0]?.role }
            if (o.label ?? "") != (n.label ?? "") {
                objectEvent(
                    id, "PropertyChange", "propertychange", "accessible-name", 0, 0, .string(n.label ?? ""),
                    cacheMaintenance: true)
            }
            if (o.hint ?? "") != (n.hint ?? "") {
                objectEvent(
                    id, "PropertyChange", "propertychange", "accessible-description", 0, 0, .string(description(n)),
                    cacheMaintenance: true)
            }
            let orole = ATSPIMapping.role(o, parentRole: opr)
            let nrole = ATSPIMapping.role(n, parentRole: npr)
            if orole != nrole {
                objectEvent(
                    id, "PropertyChange", "propertychange", "accessible-role", 0, 0, .uint(nrole.rawValue),
                    cacheMaintenance: true)
            }
            if let num = n.numeric, num != o.numeric {
                objectEvent(id, "PropertyChange", "propertychange", "accessible-value", 0, 0, .double(num.current))
            }
            if ATSPIMapping.isTextInput(n.role), o.text != n.text {
                emitTextChange(id, ATSPIMapping.text(o), ATSPIMapping.text(n))
            }
            if o.frame != n.frame {
                let e = extents(n, 0)
                objectEvent(id, "BoundsChanged", "boundschanged", "", 0, 0, .rect(e.0, e.1, e.2, e.3))
            }
            let so = ATSPIMapping.states(o, parentRole: opr, focused: id == old.focusedID)
            let sn = ATSPIMapping.states(n, parentRole: npr, focused: id == new.focusedID)
            if so != sn {
                let diff = so.bits ^ sn.bits
                for st in ATSPIState.allCases where diff & (1 << UInt64(st.rawValue)) != 0 {
                    switch st {
                    case .focused:
                        break  // below, also for elements that were just added or are being removed
                    case .active where n.role == .window || n.role == .alert:
                        if sn.contains(.active) { activated.append(n) } else { deactivated.append(n) }
                    default:
                        objectEvent(
                            id, "StateChanged", "statechanged", st.nick, sn.contains(st) ? 1 : 0, 0, .int(0),
                            cacheMaintenance: true)
                    }
                }
            }
        }
        // A newly presented alert activates like a window (Orca presents it, then follows focus into it).
        for id in cs.added {
            if let n = newTree[id], n.role == .alert, oldTree[id] == nil,
                ATSPIMapping.states(n, parentRole: n.parent.flatMap { newTree[$0]?.role }, focused: false).contains(
                    .active)
            {
                activated.append(n)
            }
        }
        for w in deactivated {
            objectEvent(w.id, "StateChanged", "statechanged", "active", 0, 0, .int(0), cacheMaintenance: true)
            windowEvent(w.id, "Deactivate", "deactivate", w.label ?? "")
        }
        for w in activated {
            windowEvent(w.id, "Activate", "activate", w.label ?? "")
            objectEvent(w.id, "StateChanged", "statechanged", "active", 1, 0, .int(0), cacheMaintenance: true)
        }
        if let f = focusOut {
            objectEvent(f, "StateChanged", "statechanged", "focused", 0, 0, .int(0), cacheMaintenance: true)
        }
        if let f = focusIn {
            objectEvent(f, "StateChanged", "statechanged", "focused", 1, 0, .int(0), cacheMaintenance: true)
            // The legacy focus: event (GTK and Qt still send it; only to clients that registered for it).
            if listeners.wants("focus", "focus", "") {
                signal(paths.path(f), "org.a11y.atspi.Event.Focus", "Focus", "", 0, 0, .int(0))
            }
        }
    }

    /// `TextChanged` delete/insert for the changed middle part (common prefix and suffix kept).
    func emitTextChange(_ id: String, _ a: String, _ b: String) {
        let x = Array(a.unicodeScalars)
        let y = Array(b.unicodeScalars)
        var p = 0
        while p < x.count && p < y.count && x[p] == y[p] { p += 1 }
        var s = 0
        while s < x.count - p && s < y.count - p && x[x.count - 1 - s] == y[y.count - 1 - s] { s += 1 }
        func str(_ v: ArraySlice<Unicode.Scalar>) -> String {
            var u = String.UnicodeScalarView()
            u.append(contentsOf: v)
            return String(u)
        }
        if x.count - s > p {
            let del = str(x[p..<(x.count - s)])
            objectEvent(id, "TextChanged", "textchanged", "delete", Int32(p), Int32(x.count - s - p), .string(del))
        }
        if y.count - s > p {
            let ins = str(y[p..<(y.count - s)])
            objectEvent(id, "TextChanged", "textchanged", "insert", Int32(p), Int32(y.count - s - p), .string(ins))
        }
        objectEvent(id, "TextCaretMoved", "textcaretmoved", "", Int32(y.count), 0, .int(0))
    }

    // MARK: Notifications

    func emitNotification(_ n: AccessibilityNotification) {
        switch n {
        case .announcement(let text, let priority):
            announce(text, priority == .high ? 2 : 1)
        case .pageScrolled(let status?):
            announce(status, 1)
        case .screenChanged(nil):
            if let w = served.tree.windows.last(where: { served.tree[$0]?.states.contains(.activeWindow) == true }),
                let wn = served.tree[w]
            {
                windowEvent(w, "Activate", "activate", wn.label ?? "")
            }
        default:
            break
        }
    }

    /// Announcements go out at least 100 ms apart (Orca drops same-type events from one app within 0.1 s).
    func announce(_ text: String, _ politeness: Int32) {
        announcementQueue.append((text, politeness))
        drainAnnouncements()
    }

    func drainAnnouncements() {
        while !announcementQueue.isEmpty {
            let now = monotonicNow()
            let since = now &- lastAnnouncement
            if lastAnnouncement != 0 && since < 100_000_000 {
                guard !announcementTimerArmed else { return }
                announcementTimerArmed = true
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(100_000_000 - since))) {
                    [weak self] in
                    guard let self else { return }
                    self.connection.perform { [weak self] in
                        guard let self else { return }
                        self.serveLock.withLock { _ in
                            self.announcementTimerArmed = false
                            self.drainAnnouncements()
                        }
                    }
                }
                return
            }
            let (text, pol) = announcementQueue.removeFirst()
            lastAnnouncement = now
            let source: String? =
                served.focusedID.flatMap { served.tree[$0] != nil ? $0 : nil }
                ?? served.tree.windows.last(where: { served.tree[$0]?.states.contains(.activeWindow) == true })
            objectEvent(source, "Announcement", "announcement", "", pol, 0, .string(text))
            presentAsNotification(
                text, window: source.flatMap { served.tree[$0]?.windowID } ?? served.tree.windows.last)
        }
    }

    /// Orca 43 has no handler for the Announcement event; it speaks an object of role NOTIFICATION when that
    /// object's `showing` state turns on (how desktop notifications reach it). The bridge therefore also serves a
    /// transient notification object named with the text, parented to the application, and emits that change.
    func presentAsNotification(_ text: String, window: String?) {
        var a = AXNode(
            id: AppBridge.announcementID, viewID: nil, className: ATSPIMapping.announcementClass,
            viewClass: .view, role: .staticText, isElement: true, windowID: window ?? "")
        a.label = text
        a.text = text
        a.states = [.enabled, .onscreen]
        announcementNode = a
        objectEvent(AppBridge.announcementID, "StateChanged", "statechanged", "showing", 1, 0, .int(0))
    }
}

/// Lowercase, without '-' (the registry's event-name normalization, compared case-insensitively).
func stripDashes(_ s: String) -> String { String(s.lowercased().filter { $0 != "-" }) }

@inline(__always) func monotonicNow() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}
