import AXATSPIModel
import AXCore
import AXDBus
import AXHub
import AXJSON
import CDBus
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One reply owed to a caller; whoever claims it first (the app's answer or the deadline) sends it.
final class DeferredReply: @unchecked Sendable {
    let call: DBusMessage
    /// The connection the call came on (bus or peer-to-peer), kept alive by a libdbus reference; libdbus's send
    /// is thread-safe.
    let connection: OpaquePointer
    private let done = Atomic<Bool>(false)
    init(_ call: DBusMessage, _ connection: OpaquePointer) {
        self.call = call
        self.connection = connection
        dbus_connection_ref(connection)
    }
    deinit { dbus_connection_unref(connection) }

    func claim() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }

    func sendBool(_ value: Bool) {
        guard claim() else { return }
        DBusFastWriter.sendReply(on: connection, to: call.pointer) { $0.bool(value) }
    }
    func sendEmpty() {
        guard claim() else { return }
        DBusFastWriter.sendReply(on: connection, to: call.pointer) { _ in }
    }
    func sendError(_ error: DBusError) {
        guard claim() else { return }
        if call.noReplyExpected { return }
        let errorReply = call.makeErrorReply(error)
        withExtendedLifetime(errorReply) { _ = dbus_connection_send(connection, errorReply.pointer, nil) }
    }
}

extension ActionError {
    /// The D-Bus error an AT-SPI caller gets for a failed action.
    var dbusError: DBusError {
        switch self {
        case .noSuchApp(let appID):
            return DBusError(name: DBusError.Name.unknownObject, message: "The application no longer exists (\(appID))")
        case .noSuchElement(let elementID):
            return DBusError(
                name: DBusError.Name.unknownObject, message: "Object does not exist at path (element '\(elementID)')")
        case .notSupported(let action, let supported):
            return DBusError(
                name: DBusError.Name.notSupported,
                message: "Action '\(action)' is not supported (supported: \(supported.joined(separator: ", ")))")
        case .notInteractable(let reason): return DBusError.failed("The element cannot be interacted with: \(reason)")
        case .policyDenied(let restriction, let detail):
            return DBusError(
                name: DBusError.Name.accessDenied,
                message: "Guided Access restriction '\(restriction)' denies this\(detail.map { " (\($0))" } ?? "")")
        case .appNotResponding(let reason):
            return DBusError(name: DBusError.Name.noReply, message: "The application did not answer: \(reason)")
        case .appFailed(let message, _, _): return DBusError.failed("The application reported an error: \(message)")
        case .failed(let message): return DBusError.failed(message)
        }
    }
}

extension AppBridge {
    // MARK: The bridge's only calls into the hub

    /// Asks the app (through the hub) to perform `action` on an element. Every action the bridge routes goes
    /// through here, so a change of the hub's action API stays in this function.
    static func perform(
        _ action: ElementAction, on element: String, app: String, hub: Hub
    ) async throws(ActionError) -> Bool {
        try await hub.perform(app: app, element: element, action: action)
    }

    /// Moves the hub's focus to an element (`Component.GrabFocus`); false when the hub refuses.
    func requestFocus(_ element: String) -> Bool {
        do {
            try hub.setFocus(app: appID, element: element)
            return true
        } catch {
            logger.debug("AT-SPI: GrabFocus on \(element) failed: \(error)")
            return false
        }
    }

    // MARK: Routing actions to the app (never blocks the loop thread)

    /// Performs `action` on `element` off the loop thread (`repeated` times, stopping at the first refusal)
    /// and replies with whether it was handled (or with nothing when `emptyReply`), or with an error reply when
    /// it fails or does not finish within `actionReplyTimeout` (the action may still complete later).
    func routeAsync(
        _ msg: DBusMessage, _ action: ElementAction, on element: String, repeated: Int = 1,
        emptyReply: Bool = false
    ) -> DBusMethodResult {
        let hub = self.hub
        let app = appID
        return replyOffLoop(
            msg, lateSubject: "The application did not answer", lateOutcome: "the action may still complete",
            emptyReply: emptyReply
        ) { () async throws(ActionError) -> Bool in
            var handled = false
            for _ in 0..<max(1, repeated) {
                guard try await AppBridge.perform(action, on: element, app: app, hub: hub) else { break }
                handled = true
            }
            return handled
        }
    }

    /// `DoAction` of a rotor action (D-ROTOR-7): runs the rotor step in the hub off the loop thread (it moves
    /// accessibility focus), announces a target that cannot take keyboard focus, flushes, and replies true when
    /// focus moved, false at the end of the rotor; errors and the reply deadline as `routeAsync`.
    func routeRotorStep(
        _ msg: DBusMessage, rotor: String, direction: RotorDirection, declaredBy element: String
    ) -> DBusMethodResult {
        let hub = self.hub
        let app = appID
        return replyOffLoop(msg, lateSubject: "The rotor step did not finish", lateOutcome: "focus may still move") {
            [weak self] () async throws(ActionError) -> Bool in
            let last = self?.lastRotorItem.withLock { $0 }
            let outcome = try await hub.performRotorAction(
                app: app, declaredBy: element, rotor: rotor, direction: direction, lastItem: last)
            if let item = outcome.item { self?.lastRotorItem.withLock { $0 = item } }
            if outcome.target != nil, !outcome.targetIsFocusable, let text = outcome.targetText {
                self?.queueAnnouncement(text)
            }
            return outcome.target != nil
        }
    }

    /// The one way a D-Bus call waits for the hub: runs `work` off the loop thread, serves what it changed (the app
    /// published before answering, so it is already pending: its events go out before the reply, and the caller's
    /// next read sees the new state), then replies with `work`'s Boolean (nothing when `emptyReply`) or its error.
    /// After `actionReplyTimeout` the caller gets a NoReply error naming `lateSubject` and `lateOutcome`; the
    /// deadline is cancelled (and freed) when the reply goes out, not left sleeping (D-REL-3).
    func replyOffLoop(
        _ msg: DBusMessage, lateSubject: String, lateOutcome: String, emptyReply: Bool = false,
        _ work: @escaping @Sendable () async throws(ActionError) -> Bool
    ) -> DBusMethodResult {
        let reply = DeferredReply(msg, replyConn)
        let timeout = actionReplyTimeout
        let deadline = WaitDeadline.after(timeout) {
            reply.sendError(
                DBusError(
                    name: DBusError.Name.noReply, message: "\(lateSubject) within \(timeout) (\(lateOutcome))"))
        }
        Task.detached { [weak self] in
            defer { deadline.finish() }
            do throws(ActionError) {
                let result = try await work()
                await self?.flushBeforeReply()
                if emptyReply { reply.sendEmpty() } else { reply.sendBool(result) }
            } catch {
                reply.sendError(error.dbusError)
            }
        }
        return .handled
    }

    /// Queues a polite announcement from any thread; the next flush emits it (D-ROTOR-7).
    func queueAnnouncement(_ text: String) {
        pending.withLock { $0.notifications.append(.announcement(text: text, priority: .default)) }
        schedule()
    }

    /// Runs a flush on the loop thread and waits for it (at most 200 ms, so a closed connection never hangs a reply).
    func flushBeforeReply() async {
        let once = OneShot()
        // Kept here until the flush or the deadline resumed us (a dropped perform must not free the deadline).
        let held = Mutex<WaitDeadline?>(nil)
        await withCheckedContinuation { (cont: CheckedContinuation<Void, Never>) in
            let deadline = WaitDeadline.after(.milliseconds(200)) { if once.fire() { cont.resume() } }
            held.withLock { $0 = deadline }
            connection.perform { [weak self] in
                self?.flush()
                if once.fire() { cont.resume() }
            }
        }
        held.withLock { held in
            held?.finish()
            held = nil
        }
    }
}

/// A whole-tree reply (GetItems) leaves megabytes of freed message buffers in the heap; hand them back to the
/// system shortly after it is sent (at most once a second), so a server's resident size reflects what it keeps.
package enum HeapTrim {
    private static let last = Mutex<UInt64>(0)

    /// Returns freed heap memory to the system now.
    package static func trimNow() { _ = atspi_malloc_trim(0) }

    static func soon() {
        let now = monotonicNow()
        let go = last.withLock { l -> Bool in
            if l != 0 && now &- l < 1_000_000_000 { return false }
            l = now
            return true
        }
        guard go else { return }
        Task.detached {
            try? await Task.sleep(for: .milliseconds(250))
            trimNow()
        }
    }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("malloc_trim") func atspi_malloc_trim(_ pad: Int) -> Int32
