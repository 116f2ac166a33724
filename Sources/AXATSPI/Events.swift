import AXATSPIModel
import AXCore
import AXDBus
import AXHub
import CDBus
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    // MARK: Receiving hub events (any thread)

    func receive(_ event: HubEvent) {
        pending.withLock { locked in
            switch event {
            case .treeChanged(_, let cs, let tree):
                locked.tree = tree
                locked.changes.append(cs)
            case .focusChanged(_, _, let to):
                locked.focus = .some(to)
            case .notification(_, let notification):
                locked.notifications.append(notification)
            case .textCaret(_, let element, let caret):
                locked.carets[element] = caret.caret
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

    func flush() {
        serving {
            // D-ATSPI-PING-1: while the bus has not taken what was sent, changes keep merging in `pending` instead of
            // queueing more events; a Ping's reply (and every other reply) then waits behind at most this backlog.
            if dbus_connection_get_outgoing_size(conn) > AppBridge.outgoingBacklogLimit {
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { [weak self] in
                    guard let self else { return }
                    self.connection.perform { [weak self] in self?.flush() }
                }
                return
            }
            flushLocked()
        }
    }

    /// Bytes waiting to be written to the bus above which a flush waits for them to drain (D-ATSPI-PING-1).
    static let outgoingBacklogLimit = 64 * 1024

    /// `flush` for callers that already hold `serveLock` (GrabFocus).
    func flushLocked() {
        assertServing()
        guard let taken = takePending() else { return }
        let old = served
        let changes = serveTaken(taken)
        guard listeners.anyListener else { return }
        // The window's activation before the focus it brings (an activation waiting for a key is released just
        // before the key's focus move, D-ATSPI-ACTIVE-1): Orca presents the window, then the control.
        if let activation = taken.activation { emitActivation(activation) }
        var caretsSent: Set<String> = []
        if let changes {
            for update in EventDiff.updates(from: old, to: served, changes: changes) {
                if case .event(let event) = update, event.kind == .textCaretMoved, let source = event.source {
                    caretsSent.insert(source)
                }
                emit(update)
            }
        }
        emitCaretMoves(taken.carets, except: caretsSent)
        for notification in taken.notifications { emitNotification(notification) }
    }

    /// Takes the hub changes waiting for this flush; nil when there are none.
    func takePending() -> Pending? {
        let taken = pending.withLock { waiting -> Pending in
            let out = waiting
            waiting = Pending()
            waiting.lastFlush = monotonicNow()
            return out
        }
        let empty =
            taken.tree == nil && taken.focus == nil && taken.notifications.isEmpty && taken.carets.isEmpty
            && taken.activation == nil
        return empty ? nil : taken
    }

    /// Swaps in the served snapshot for what was taken from `pending`; returns the change set to diff the events
    /// with (nil when neither the tree nor the focus changed). The core's tree is served with the subtrees a modal
    /// view hides kept (D-ATSPI-MODAL-1).
    private func serveTaken(_ taken: Pending) -> ChangeSet? {
        let old = served
        var new = old
        var changes: ChangeSet?
        if taken.tree != nil || taken.focus != nil {
            changes =
                ChangeSet.merged(taken.changes)
                ?? ChangeSet(fromRevision: old.tree.revision, toRevision: taken.tree?.revision ?? old.tree.revision)
        }
        if let tree = taken.tree, let core = changes {
            (new.tree, changes) = new.modalRetention.serve(previous: old.tree, next: tree, changes: core)
        }
        if let focus = taken.focus { new.focusedID = focus }
        if let activation = taken.activation { new.appInactive = !activation }
        if taken.tree != nil || !taken.carets.isEmpty {
            // The hub's carets are the latest: a text change by keys carries the caret the server put in place
            // before the app's update (D-KEYOP-5).
            new.carets = hub.textCarets(app: appID).filter { new.tree[$0.key] != nil }
        }
        served = new
        if taken.tree != nil { siblingIndex.reset() }
        return changes
    }

    /// A caret the server moved without a text change (an arrow in a text field, D-KEYOP-5), and the selection
    /// change Shift with a motion key makes.
    private func emitCaretMoves(_ carets: [String: Int], except caretsSent: Set<String>) {
        for (element, _) in carets.sorted(by: { $0.key < $1.key }) {
            guard let node = served.tree[element] else { continue }
            if !caretsSent.contains(element) {
                emit(
                    .event(
                        ATSPIEvent(
                            .textCaretMoved, source: element, detail1: TextModel.caretOffset(of: node, in: served)))
                )
            }
            let selected = textSelection(of: node) != nil
            if selected || served.textSelections.contains(element) {
                emit(.event(ATSPIEvent(.textSelectionChanged, source: element)))
            }
            if selected { served.textSelections.insert(element) } else { served.textSelections.remove(element) }
        }
    }

    // MARK: Emission

    /// Sends one update: a cache signal, or an event signal when someone listens for it (cache-maintaining
    /// events always go out).
    func emit(_ update: ATSPIUpdate) {
        assertServing()
        switch update {
        case .event(let event):
            if !event.maintainsCache {
                let kind = event.kind
                guard
                    listeners.wants(
                        kind.listenerClass, kind.listenerMember, EventListeners.normalizedComponent(event.detail))
                else {
                    return
                }
            }
            sendEventSignal(event)
        case .cacheAdd(let id):
            guard let node = served.tree[id] else { return }
            let item = CacheModel(snapshot: served).item(for: node, siblingIndex: &siblingIndex)
            sendCacheSignal("AddAccessible") { writeCacheItem(&$0, item) }
        case .cacheRemove(let id):
            sendCacheSignal("RemoveAccessible") { writeRef(&$0, id) }
        }
    }

    /// Writes and sends one `(siiva{sv})` signal.
    func sendEventSignal(_ event: ATSPIEvent) {
        let path: UnsafePointer<CChar> = event.source.map { paths.path($0) } ?? UnsafePointer(paths.rootPath)
        let kind = event.kind
        DBusFastWriter.sendSignal(on: conn, path: path, interface: kind.interfaceName, member: kind.memberName) {
            out in
            out.string(event.detail)
            out.int32(event.detail1)
            out.int32(event.detail2)
            switch event.data {
            case .int(let value): out.variant("i") { $0.int32(value) }
            case .uint(let value): out.variant("u") { $0.uint32(value) }
            case .double(let value): out.variant("d") { $0.double(value) }
            case .string(let value): out.variant("s") { $0.string(value) }
            case .reference(let id): out.variant("(so)") { writeRef(&$0, id) }
            case .applicationRoot: out.variant("(so)") { writeRootRef(&$0) }
            case .rect(let rect): out.variant("(iiii)") { $0.rect(rect) }
            }
            out.array("{sv}") { _ in }
        }
    }

    /// Sends a `Cache` signal whose body `write` appends.
    func sendCacheSignal(_ member: StaticString, _ write: (inout DBusFastWriter) -> Void) {
        DBusFastWriter.sendSignal(
            on: conn, path: paths.cachePath, interface: "org.a11y.atspi.Cache", member: member, write)
    }

    // MARK: Notifications

    func emitNotification(_ notification: AccessibilityNotification) {
        switch notification {
        case .announcement(let text, let priority):
            announce(text, priority == .high ? 2 : 1)
        case .pageScrolled(let status?):
            announce(status, 1)
        case .layoutChanged(nil):
            // D-ATSPI-LAYOUT-1: the key window's children are re-read; focus stays.
            let tree = served.tree
            let keyWindow = tree.windows.last { tree[$0]?.states.contains(.activeWindow) == true } ?? tree.windows.last
            if let window = keyWindow, let first = tree[window]?.children.first {
                emit(
                    .event(
                        ATSPIEvent(
                            .childrenChanged, source: window, detail: "add", detail1: -1, data: .reference(first),
                            maintainsCache: true)))
            }
        case .screenChanged(nil):
            if let window = served.tree.windows.last(where: { served.tree[$0]?.states.contains(.activeWindow) == true }
            ),
                let wn = served.tree[window]
            {
                emit(.event(ATSPIEvent(.windowActivate, source: window, data: .string(wn.label ?? ""))))
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
        assertServing()
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
                        self.serving {
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
            emit(.event(ATSPIEvent(.announcement, source: source, detail1: pol, data: .string(text))))
            // Orca 48 speaks both the announcement and a notification object: the object only for a client that
            // hears notifications and not announcements (Orca 43), so every screen reader says the text once.
            if listeners.someoneMissesAnnouncements {
                presentAsNotification(
                    text, window: source.flatMap { served.tree[$0]?.windowID } ?? served.tree.windows.last)
            }
        }
    }

    /// Orca 43 has no handler for the Announcement event; it speaks an object of role NOTIFICATION when that
    /// object's `showing` state turns on (how desktop notifications reach it). The bridge therefore also serves a
    /// transient notification object named with the text, parented to the application, and emits that change —
    /// while some client listens for that and not for announcements (`EventListeners.someoneMissesAnnouncements`).
    func presentAsNotification(_ text: String, window: String?) {
        var applicationNode = AXNode(
            id: ATSPIMapping.announcementID, viewID: nil, className: ATSPIMapping.announcementClass,
            viewClass: .view, role: .staticText, isElement: true, windowID: window ?? "")
        applicationNode.label = text
        applicationNode.text = text
        applicationNode.states = [.enabled, .onscreen]
        served.announcementNode = applicationNode
        emit(.event(ATSPIEvent(.stateChanged, source: ATSPIMapping.announcementID, detail: "showing", detail1: 1)))
    }
}

@inline(__always) func monotonicNow() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}
