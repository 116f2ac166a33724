import CDBus
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Answers one method call that arrived on a peer-to-peer connection (called on that connection's thread); the
/// connection is where replies go.
package typealias DBusPeerCallHandler =
    @Sendable (_ connection: OpaquePointer, _ message: OpaquePointer) -> DBusHandlerResult

/// A private D-Bus server (libdbus `DBusServer`) for peer-to-peer connections: AT-SPI's per-app socket (at-spi2-core's
/// atk-adaptor does the same): when `Application.GetApplicationBusAddress` names it, libatspi opens a private
/// connection and sends its method calls there, skipping the bus daemon's two hops (events still go over the bus).
/// Authentication is libdbus's EXTERNAL mechanism, which only admits the same user; the socket lives in a fresh 0700
/// directory.
///
/// One thread accepts connections; every accepted connection gets its own thread running
/// `dbus_connection_read_write_dispatch`. Every method call goes to the handler given at creation (AXATSPI's
/// `AppBridge.handlePeer`, under the bridge's serve lock).
package final class DBusPeerServer: @unchecked Sendable {
    /// The address clients connect to (`unix:path=…,guid=…`).
    package let address: String
    private let server: OpaquePointer
    private let directory: String
    fileprivate let handler: DBusPeerCallHandler

    private struct State {
        // Pointers kept as integers (OpaquePointer is not Sendable); only libdbus interprets them.
        var watches: [UInt] = []
        var threads: [pthread_t] = []
        var connections: [UInt] = []
        var stopping = false
    }
    private let state = Mutex(State())
    private let stopFlag = Atomic<Bool>(false)
    private var acceptThread: pthread_t?
    /// The accept thread's id, stored by that thread itself (debug builds check the threading contract with it).
    private let acceptThreadID = Atomic<UInt>(0)

    /// Why the server could not start.
    package struct Failure: Error, CustomStringConvertible { package var description: String }

    /// The peer socket's directory must be a real directory owned by this user with mode 0700 (mkdtemp makes it
    /// so; checked rather than assumed, since libdbus puts the socket there and only this user may reach it).
    package static func verifyPrivateDirectory(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw Failure(description: "cannot inspect the peer socket directory \(path) (errno \(errno))")
        }
        let isDirectory = UInt32(info.st_mode) & UInt32(S_IFMT) == UInt32(S_IFDIR)
        let mode = UInt32(info.st_mode) & 0o7777
        guard isDirectory, info.st_uid == geteuid(), mode == 0o700 else {
            throw Failure(
                description:
                    "the peer socket directory \(path) is not a private directory of this user (uid \(info.st_uid), mode \(String(mode, radix: 8)); expected uid \(geteuid()), mode 700)"
            )
        }
    }

    /// Listens on a socket in a new private directory (under `$XDG_RUNTIME_DIR`, else `/tmp`) whose name starts
    /// with `prefix`, and sends every method call to `handler`.
    package init(directoryPrefix prefix: String, handler: @escaping DBusPeerCallHandler) throws {
        self.handler = handler
        var base = "/tmp"
        if let runtimeDir = getenv("XDG_RUNTIME_DIR"), runtimeDir.pointee != 0, access(runtimeDir, W_OK) == 0 {
            base = String(cString: runtimeDir)
        }
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        guard let tempDir = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "mkdtemp in \(base) failed (errno \(errno))")
        }
        directory = String(cString: tempDir)
        try Self.verifyPrivateDirectory(directory)
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        guard let created = "unix:dir=\(directory)".withCString({ dbus_server_listen($0, &err) }) else {
            let text = err.message.map { String(cString: $0) } ?? "dbus_server_listen failed"
            dbus_error_free(&err)
            rmdir(directory)
            throw Failure(description: text)
        }
        server = created
        address =
            dbus_server_get_address(created).map { cAddress in
                defer { dbus_free(cAddress) }
                return String(cString: cAddress)
            } ?? ""
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = dbus_server_set_watch_functions(
            created,
            { watch, ud in
                guard let watch, let ud else { return 0 }
                let key = bits(watch)
                Unmanaged<DBusPeerServer>.fromOpaque(ud).takeUnretainedValue().state.withLock { $0.watches.append(key) }
                return 1
            },
            { watch, ud in
                guard let watch, let ud else { return }
                let key = bits(watch)
                Unmanaged<DBusPeerServer>.fromOpaque(ud).takeUnretainedValue().state.withLock { locked in
                    locked.watches.removeAll { $0 == key }
                }
            }, nil, me, nil)
        dbus_server_set_new_connection_function(
            created,
            { _, connection, ud in
                guard let connection, let ud else { return }
                Unmanaged<DBusPeerServer>.fromOpaque(ud).takeUnretainedValue().accept(connection)
            }, me, nil)
        var tid = pthread_t()
        let box = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(
            &tid, nil,
            { arg in
                let me = Unmanaged<DBusPeerServer>.fromOpaque(arg!).takeRetainedValue()
                me.acceptLoop()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<DBusPeerServer>.fromOpaque(box).release()
            dbus_server_disconnect(created)
            dbus_server_unref(created)
            rmdir(directory)
            throw Failure(description: "pthread_create failed (\(rc))")
        }
        acceptThread = tid
    }

    private func acceptLoop() {
        acceptThreadID.store(UInt(pthread_self()), ordering: .releasing)
        var fds: [pollfd] = []
        while !stopFlag.load(ordering: .acquiring) {
            let ws = state.withLock { $0.watches }.compactMap { OpaquePointer(bitPattern: $0) }.filter {
                dbus_watch_get_enabled($0) != 0
            }
            fds.removeAll(keepingCapacity: true)
            for watch in ws {
                let flags = dbus_watch_get_flags(watch)
                var ev: Int16 = 0
                if flags & UInt32(DBUS_WATCH_READABLE.rawValue) != 0 { ev |= Int16(POLLIN) }
                if flags & UInt32(DBUS_WATCH_WRITABLE.rawValue) != 0 { ev |= Int16(POLLOUT) }
                fds.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: ev, revents: 0))
            }
            let ready = poll(&fds, nfds_t(fds.count), 100)
            guard ready > 0 else { continue }
            for (i, watch) in ws.enumerated() where fds[i].revents != 0 {
                var flags: UInt32 = 0
                if fds[i].revents & Int16(POLLIN) != 0 { flags |= UInt32(DBUS_WATCH_READABLE.rawValue) }
                if fds[i].revents & Int16(POLLOUT) != 0 { flags |= UInt32(DBUS_WATCH_WRITABLE.rawValue) }
                if fds[i].revents & Int16(POLLERR) != 0 { flags |= UInt32(DBUS_WATCH_ERROR.rawValue) }
                if fds[i].revents & Int16(POLLHUP) != 0 { flags |= UInt32(DBUS_WATCH_HANGUP.rawValue) }
                // Still registered? (a handled watch may remove others)
                let key = bits(watch)
                if state.withLock({ $0.watches.contains(key) }) { _ = dbus_watch_handle(watch, flags) }
            }
        }
        dbus_server_disconnect(server)
        dbus_server_unref(server)
    }

    /// A client connected (called inside `dbus_watch_handle` on the accept thread).
    private func accept(_ connection: OpaquePointer) {
        assert(
            acceptThreadID.load(ordering: .acquiring) == UInt(pthread_self()),
            "DBusPeerServer.accept runs only on the accept thread (inside dbus_watch_handle)")
        if state.withLock({ $0.stopping }) { return }  // not referenced: libdbus drops it
        dbus_connection_ref(connection)
        dbus_connection_set_exit_on_disconnect(connection, 0)
        let ud = Unmanaged.passUnretained(self).toOpaque()
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        if dbus_connection_try_register_fallback(connection, "/", peerVTable, ud, &err) == 0 {
            dbus_error_free(&err)
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            return
        }
        let job = Unmanaged.passRetained(PeerJob(server: self, connection: connection)).toOpaque()
        var tid = pthread_t()
        let rc = pthread_create(
            &tid, nil,
            { arg in
                let job = Unmanaged<PeerJob>.fromOpaque(arg!).takeRetainedValue()
                job.server.serve(job.connection)
                return nil
            }, job)
        if rc != 0 {
            Unmanaged<PeerJob>.fromOpaque(job).release()
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            return
        }
        let key = bits(connection)
        state.withLock {
            $0.threads.append(tid)
            $0.connections.append(key)
        }
    }

    /// One peer connection's I/O and dispatch (replies from other threads are flushed within 10 ms).
    private func serve(_ connection: OpaquePointer) {
        while !stopFlag.load(ordering: .acquiring), dbus_connection_read_write_dispatch(connection, 10) != 0 {}
        dbus_connection_close(connection)
        let key = bits(connection)
        state.withLock { locked in locked.connections.removeAll { $0 == key } }
        dbus_connection_unref(connection)
    }

    /// Stops accepting, ends every connection's thread (joined) and removes the socket's directory.
    package func stop() {
        assert(
            acceptThreadID.load(ordering: .acquiring) != UInt(pthread_self()),
            "DBusPeerServer.stop joins the accept thread: never call it from there")
        let threads = state.withLock { locked -> [pthread_t] in
            locked.stopping = true
            let joined = locked.threads
            locked.threads = []
            return joined
        }
        stopFlag.store(true, ordering: .releasing)
        if let thread = acceptThread {
            pthread_join(thread, nil)
            acceptThread = nil
        }
        for thread in threads { pthread_join(thread, nil) }
        // The socket file of a unix:dir= server is removed by libdbus on disconnect; then the directory.
        rmdir(directory)
    }
}

@inline(__always) private func bits(_ pointer: OpaquePointer) -> UInt {
    UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer)))
}

private final class PeerJob {
    let server: DBusPeerServer
    let connection: OpaquePointer
    init(server: DBusPeerServer, connection: OpaquePointer) {
        self.server = server
        self.connection = connection
    }
}

/// Hands every method call of a peer connection to its server's handler (user data: the `DBusPeerServer`).
nonisolated(unsafe) private let peerVTable: UnsafeMutablePointer<DBusObjectPathVTable> = {
    let vtable = UnsafeMutablePointer<DBusObjectPathVTable>.allocate(capacity: 1)
    vtable.initialize(to: DBusObjectPathVTable())
    vtable.pointee.message_function = { connection, msg, ud in
        guard let connection, let msg, let ud else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        guard dbus_message_get_type(msg) == Int32(CDBUS_MESSAGE_TYPE_METHOD_CALL) else {
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        return Unmanaged<DBusPeerServer>.fromOpaque(ud).takeUnretainedValue().handler(connection, msg)
    }
    return vtable
}()
