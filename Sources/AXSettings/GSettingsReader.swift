import AXCore
import AXHub
import CGIO
import Glibc
import Synchronization

/// Reads the desktop's accessibility settings through GIO's GSettings (D-SET-1) and keeps the hub's settings
/// model current: once at start, then on every `changed` signal, on a thread of its own that runs a private
/// GLib main context. Whatever backend the session configured is read (dconf on GNOME; `GSETTINGS_BACKEND=keyfile`
/// in tests; GLib's memory backend without a session, whose values are the schemas' defaults). A missing schema
/// or key (another desktop) or a key of another type reads as UIKit's default and says so.
///
/// Change bursts are coalesced (D-SET-3): the first change of a burst is published at once, later ones within
/// ``window`` are folded into one trailing read; nothing queues, so 1,000 changes a second cost at most
/// 1 + 1/``window`` reads a second and no memory.
package final class GSettingsReader: @unchecked Sendable {
    /// The coalescing window.
    package static let windowMilliseconds: UInt32 = 50

    private let hub: Hub
    private let stopRequested = Atomic<Bool>(false)
    private let ready = Atomic<Bool>(false)
    // Confined to the reader's thread after `start`:
    private var context: OpaquePointer?
    private var objects: [String: OpaquePointer] = [:]
    private var windowOpen = false
    private var changedInWindow = false

    package init(hub: Hub) { self.hub = hub }

    /// Starts the reader thread; the first reading reaches the hub before this returns (at most 1 s).
    package func start() throws(ReaderError) {
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<GSettingsReader>.fromOpaque(argument).takeRetainedValue().run()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<GSettingsReader>.fromOpaque(box).release()
            throw ReaderError(description: "could not start the settings reader thread (pthread_create \(rc))")
        }
        pthread_detach(thread)
        // Bounded: the first reading is local (keyfile and memory backends; dconf reads its database file).
        for _ in 0..<500 where !ready.load(ordering: .acquiring) { usleep(2_000) }
    }

    /// Asks the reader thread to end (it sees the request within 250 ms and returns).
    package func stop() {
        stopRequested.store(true, ordering: .releasing)
    }

    package struct ReaderError: Error, CustomStringConvertible {
        package let description: String
    }

    // MARK: The reader thread

    private func run() {
        let mainContext = g_main_context_new()
        context = mainContext
        g_main_context_push_thread_default(mainContext)
        let me = Unmanaged.passUnretained(self).toOpaque()
        for schema in Set(SettingsKey.all.map(\.schema)) {
            guard let settings = axs_settings_new(schema) else { continue }
            objects[schema] = settings
            axs_connect_changed(
                settings,
                { _, _, context in
                    guard let context else { return }
                    Unmanaged<GSettingsReader>.fromOpaque(context).takeUnretainedValue().changed()
                }, me)
        }
        publish()
        ready.store(true, ordering: .releasing)
        // One repeating wake-up, so a stop request is seen within 250 ms.
        axs_add_timeout(mainContext, 250, { _ in 1 }, nil)
        while !stopRequested.load(ordering: .acquiring) {
            g_main_context_iteration(mainContext, 1)
        }
        for (_, object) in objects { g_object_unref(UnsafeMutableRawPointer(object)) }
        objects = [:]
        g_main_context_pop_thread_default(mainContext)
        g_main_context_unref(mainContext)
    }

    /// A `changed` signal: publish now unless a window is open; then fold later changes into one trailing read.
    private func changed() {
        if windowOpen {
            changedInWindow = true
            return
        }
        publish()
        windowOpen = true
        axs_add_timeout(
            context, Self.windowMilliseconds,
            { context in
                guard let context else { return 0 }
                return Unmanaged<GSettingsReader>.fromOpaque(context).takeUnretainedValue().windowEnded() ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The window ended: a change during it is read now and keeps the window open one more period.
    private func windowEnded() -> Bool {
        guard changedInWindow else {
            windowOpen = false
            return false
        }
        changedInWindow = false
        publish()
        return true
    }

    private func publish() {
        var readings: [SettingsKey: SettingsKeyReading] = [:]
        for key in SettingsKey.all { readings[key] = read(key) }
        let backend = objects.values.first.map { String(cString: axs_backend_name($0)) }
        let note =
            backend == "GMemorySettingsBackend"
            ? "no desktop settings backend (no session): the values are the schemas' defaults"
            : objects.isEmpty
                ? "no GNOME schema is installed: every value is UIKit's default" : "read through GSettings"
        hub.setSettingsReadings(readings, reader: SettingsReaderInfo(kind: "gsettings", backend: backend, note: note))
    }

    private func read(_ key: SettingsKey) -> SettingsKeyReading {
        guard let settings = objects[key.schema] else { return SettingsKeyReading(origin: .missing) }
        let type = axs_key_type(settings, key.key)
        let origin: SettingsKeyReading.Origin = axs_user_set(settings, key.key) != 0 ? .user : .schemaDefault
        switch (type, key.kind) {
        case (0, _): return SettingsKeyReading(origin: .missing)
        case (1, .boolean):
            return SettingsKeyReading(boolean: g_settings_get_boolean(settings, key.key) != 0, origin: origin)
        case (2, .double): return SettingsKeyReading(number: g_settings_get_double(settings, key.key), origin: origin)
        default: return SettingsKeyReading(origin: .wrongType)
        }
    }
}
