#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An error starting or using the transport, with a message meant for people.
public struct RPCTransportError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What failed, for a person.
    public var message: String
    /// An error with this message.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Thin POSIX helpers (no NIO) shared by the server's socket setup, `SyncRPCClient` and the benchmark.
package enum POSIX {
    package static var errnoString: String { String(cString: strerror(errno)) }

    package static func fillUnixAddress(_ path: String) throws(RPCTransportError) -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else {
            throw RPCTransportError(
                "socket path '\(path)' is too long (\(bytes.count) bytes, the limit is \(capacity - 1))")
        }
        guard !bytes.contains(0) else { throw RPCTransportError("socket path contains a NUL byte") }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
        return addr
    }

    package static func streamSocket(_ family: Int32) -> Int32 {
        #if canImport(Darwin)
            let fd = socket(family, SOCK_STREAM, 0)
        #else
            let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #endif
        return fd
    }

    /// Connects a blocking Unix stream socket; returns the fd or throws with errno in the error.
    package static func connectUnix(_ path: String) throws(ConnectError) -> Int32 {
        let addr: sockaddr_un
        do { addr = try fillUnixAddress(path) } catch { throw ConnectError(errno: EINVAL, message: error.message) }
        let fd = streamSocket(AF_UNIX)
        guard fd >= 0 else { throw ConnectError(errno: errno, message: "socket(): \(errnoString)") }
        var address = addr
        let rc = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if rc != 0 {
            let connectErrno = errno
            close(fd)
            throw ConnectError(
                errno: connectErrno, message: "connect(\(path)): \(String(cString: strerror(connectErrno)))")
        }
        return fd
    }

    /// Connects a blocking TCP socket to host:port (numeric or resolvable name).
    package static func connectTCP(host: String, port: Int) throws(ConnectError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var res: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &res)
        guard rc == 0, let first = res else {
            throw ConnectError(errno: EINVAL, message: "cannot resolve '\(host)': \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(res) }
        var lastErr: Int32 = ECONNREFUSED
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let cur = ai {
            let fd = streamSocket(cur.pointee.ai_family)
            if fd >= 0 {
                if connect(fd, cur.pointee.ai_addr, cur.pointee.ai_addrlen) == 0 {
                    var one: Int32 = 1
                    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    return fd
                }
                lastErr = errno
                close(fd)
            }
            ai = cur.pointee.ai_next
        }
        throw ConnectError(errno: lastErr, message: "connect(\(host):\(port)): \(String(cString: strerror(lastErr)))")
    }

    package struct ConnectError: Error {
        package var errno: Int32
        package var message: String
    }

    package static func closeFD(_ fd: Int32) { _ = close(fd) }

    /// `send` without SIGPIPE (a peer that went away gives EPIPE instead of killing the process).
    package static func sendNoSignal(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
            return send(fd, buffer, count, 0)
        #else
            return send(fd, buffer, count, Int32(MSG_NOSIGNAL))
        #endif
    }

    /// Writes all bytes (blocking socket); false on error.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var off = 0
        while off < bytes.count {
            let sent = sendNoSignal(fd, bytes.baseAddress! + off, bytes.count - off)
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            off += sent
        }
        return true
    }

    package struct FileInfo {
        package var isDirectory: Bool
        package var isSocket: Bool
        package var uid: UInt32
        package var mode: UInt32
    }

    package static func lstatInfo(_ path: String) -> FileInfo? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        let type = UInt32(st.st_mode) & UInt32(S_IFMT)
        return FileInfo(
            isDirectory: type == UInt32(S_IFDIR), isSocket: type == UInt32(S_IFSOCK),
            uid: UInt32(st.st_uid), mode: UInt32(st.st_mode) & 0o7777)
    }

    package static func statInfo(_ path: String) -> FileInfo? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        let type = UInt32(st.st_mode) & UInt32(S_IFMT)
        return FileInfo(
            isDirectory: type == UInt32(S_IFDIR), isSocket: type == UInt32(S_IFSOCK),
            uid: UInt32(st.st_uid), mode: UInt32(st.st_mode) & 0o7777)
    }

    package static func parentDirectory(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// Refuses a socket directory that is missing, not a directory, owned by another user (unless it is a sticky
    /// root directory such as /tmp) or writable by group/others.
    static func checkSocketDirectory(_ dir: String) throws(RPCTransportError) {
        guard let directory = statInfo(dir) else {
            throw RPCTransportError("socket directory '\(dir)' does not exist")
        }
        guard directory.isDirectory else { throw RPCTransportError("'\(dir)' is not a directory") }
        let me = UInt32(geteuid())
        let sticky = directory.mode & 0o1000 != 0
        if directory.uid != me && !(directory.uid == 0 && sticky) {
            throw RPCTransportError(
                "socket directory '\(dir)' is owned by uid \(directory.uid), not by this user (uid \(me)); refusing to create the socket there"
            )
        }
        if directory.uid == me && directory.mode & 0o022 != 0 && !sticky {
            throw RPCTransportError(
                "socket directory '\(dir)' is writable by group/others (mode \(String(directory.mode, radix: 8))); refusing to create the socket there"
            )
        }
    }

    /// Removes a socket file left by a dead server; refuses a non-socket file and a socket a live server answers on.
    static func removeStaleSocket(at path: String) throws(RPCTransportError) {
        if let existing = lstatInfo(path) {
            guard existing.isSocket else {
                throw RPCTransportError("'\(path)' exists and is not a socket; refusing to replace it")
            }
            switch Result(catching: { () throws(ConnectError) -> Int32 in try connectUnix(path) }) {
            case .success(let fd):
                close(fd)
                throw RPCTransportError("another server is already listening on '\(path)'")
            case .failure(let probeError):
                // ECONNREFUSED: stale socket file left by a dead server. ENOENT: vanished meanwhile.
                guard probeError.errno == ECONNREFUSED || probeError.errno == ENOENT else {
                    throw RPCTransportError("cannot probe existing socket '\(path)': \(probeError.message)")
                }
                if unlink(path) != 0 && errno != ENOENT {
                    throw RPCTransportError("cannot remove stale socket '\(path)': \(errnoString)")
                }
            }
        }
    }

    /// Creates, binds (mode 0600) and listens on a Unix socket at `path`, replacing a stale socket file.
    /// Throws when the directory is not ours, the path is a non-socket file, or a server is live there.
    package static func listenUnix(path: String, backlog: Int32 = 256) throws(RPCTransportError) -> Int32 {
        try checkSocketDirectory(parentDirectory(path))
        try removeStaleSocket(at: path)
        var addr = try fillUnixAddress(path)
        let fd = streamSocket(AF_UNIX)
        guard fd >= 0 else { throw RPCTransportError("socket(): \(errnoString)") }
        // The socket file gets mode 0600 from the moment it exists: narrow umask around bind, then chmod.
        let old = umask(0o177)
        let rc = withUnsafePointer(to: &addr) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        let bindErr = errno
        umask(old)
        if rc != 0 {
            close(fd)
            throw RPCTransportError("cannot bind '\(path)': \(String(cString: strerror(bindErr)))")
        }
        if chmod(path, 0o600) != 0 {
            let reason = errnoString
            close(fd)
            unlink(path)
            throw RPCTransportError("cannot chmod 0600 '\(path)': \(reason)")
        }
        if listen(fd, backlog) != 0 {
            let reason = errnoString
            close(fd)
            unlink(path)
            throw RPCTransportError("cannot listen on '\(path)': \(reason)")
        }
        return fd
    }

    /// Reads a token file: must not be accessible by group/others; first line, trimmed, non-empty.
    /// The largest token file accepted (TCP and operator tokens): a token is one line, and a file that is
    /// megabytes long is a mistake to refuse, not to read (D-REL-7).
    package static let maxTokenFileBytes = 4_096

    package static func readTokenFile(_ path: String) throws(RPCTransportError) -> [UInt8] {
        guard let info = statInfo(path) else { throw RPCTransportError("token file '\(path)' does not exist") }
        if info.mode & 0o077 != 0 {
            throw RPCTransportError(
                "token file '\(path)' has mode \(String(info.mode, radix: 8)); it must not be readable or writable by group or others (chmod 600)"
            )
        }
        guard let file = fopen(path, "r") else {
            throw RPCTransportError("cannot read token file '\(path)': \(errnoString)")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= maxTokenFileBytes {
            let count = fread(&buf, 1, buf.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: buf[0..<count])
        }
        guard bytes.count <= maxTokenFileBytes else {
            throw RPCTransportError(
                "token file '\(path)' is larger than \(maxTokenFileBytes) bytes; it must hold one line, the token")
        }
        let line = bytes.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        var token = Array(line)
        while let last = token.last, last == 0x0D || last == 0x20 || last == 0x09 { token.removeLast() }
        while let first = token.first, first == 0x20 || first == 0x09 { token.removeFirst() }
        guard !token.isEmpty else {
            throw RPCTransportError("token file '\(path)' is empty (the token is its first line)")
        }
        return token
    }
}
