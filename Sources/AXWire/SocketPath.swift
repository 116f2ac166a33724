#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the server's Unix socket lives, and the checks that keep another user from squatting it.
/// The one place servers (`axserver`) and clients (`axquery`, `RPCClient`, `SyncRPCClient`, the conformance
/// runner) get the default path and check it.
///
/// - Default path: `$XDG_RUNTIME_DIR/axserver.sock` (a per-user 0700 directory), else
///   `/tmp/axserver-$UID/axserver.sock` inside a private directory the server creates with mode 0700.
/// - Server: the private fallback directory must be a real directory (not a symlink) owned by this user
///   with no group/other permission bits; anything else is refused with a message saying what to do.
/// - Clients: a Unix socket must be owned by this user; a socket owned by someone else is refused
///   (it may be an impostor listening where the real server would).
public enum AXSocketPath {
    /// The socket's file name inside its directory.
    public static let fileName = "axserver.sock"

    /// What to do when no server answers at the address a client tried: start one (with the demo app, or for
    /// the app's own provider to publish into), or name the address. Every client's "cannot connect" error ends
    /// with it (`axquery`, `AXClient`; the Python client says the same).
    public static let noServerHint =
        "start a server with 'axserver --demo' (the demo app) or 'axserver' (then run your app), "
        + "or pass --socket PATH / --tcp HOST:PORT (or set AXSERVER_SOCKET)"

    /// `<runtime directory>/axserver.sock` (`runtimeDirectory()`), else `/tmp/axserver-$UID/axserver.sock`.
    public static func defaultPath() -> String {
        if let dir = runtimeDirectory() {
            return dir.hasSuffix("/") ? dir + fileName : dir + "/" + fileName
        }
        return fallbackDirectory() + "/" + fileName
    }

    /// The user's runtime directory, found as a desktop session finds it: `$XDG_RUNTIME_DIR` when set, else
    /// `<runUserBase>/$UID` (`/run/user/$UID`, which pam_systemd makes and exports as `$XDG_RUNTIME_DIR` on a
    /// desktop) when it is a real directory owned by this user with no group or other permission bits. A process
    /// started with almost no environment (an MCP host passes only HOME, LOGNAME, PATH, SHELL, TERM, USER) thus
    /// finds the same socket as the desktop's server. Nil when neither applies.
    public static func runtimeDirectory(
        environment: String? = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) },
        runUserBase: String = "/run/user", ownerUID: UInt32 = UInt32(geteuid())
    ) -> String? {
        if let environment, !environment.isEmpty { return environment }
        let candidate = runUserBase + "/\(ownerUID)"
        guard let info = POSIX.lstatInfo(candidate), info.isDirectory, info.uid == ownerUID,
            info.mode & 0o077 == 0
        else { return nil }
        return candidate
    }

    /// The private per-user directory used when `$XDG_RUNTIME_DIR` is unset: `<base>/axserver-$UID`.
    public static func fallbackDirectory(base: String = "/tmp") -> String {
        base + "/axserver-\(getuid())"
    }

    /// Makes sure `directory` is a private directory of this user: creates it with mode 0700 when missing,
    /// otherwise verifies it is a directory (not a symlink), owned by this user, with mode 0700 (no bits
    /// for group or others). Throws a message that says what is wrong and how to fix it.
    package static func ensurePrivateDirectory(_ directory: String, ownerUID: UInt32 = UInt32(geteuid()))
        throws(RPCTransportError)
    {
        if POSIX.lstatInfo(directory) == nil {
            if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                throw RPCTransportError(
                    "cannot create the private socket directory '\(directory)': \(POSIX.errnoString)")
            }
        }
        guard let info = POSIX.lstatInfo(directory) else {
            throw RPCTransportError("cannot inspect the socket directory '\(directory)': \(POSIX.errnoString)")
        }
        guard info.isDirectory else {
            throw RPCTransportError(
                "'\(directory)' exists and is not a directory (or is a symlink); another user may be squatting it — remove it, set $XDG_RUNTIME_DIR, or pass --socket PATH in a directory you own"
            )
        }
        guard info.uid == ownerUID else {
            throw RPCTransportError(
                "the socket directory '\(directory)' is owned by uid \(info.uid), not by this user (uid \(ownerUID)); another user may be squatting it — set $XDG_RUNTIME_DIR or pass --socket PATH in a directory you own"
            )
        }
        guard info.mode & 0o077 == 0 else {
            throw RPCTransportError(
                "the socket directory '\(directory)' has mode \(String(info.mode, radix: 8)); it must be 0700 (run: chmod 700 '\(directory)')"
            )
        }
    }

    /// Prepares the directory of a server socket at `path`: when `path` is inside this user's fallback
    /// directory, that directory is created/verified by `ensurePrivateDirectory`. Other directories are
    /// checked when the socket is bound.
    package static func prepareServerDirectory(for path: String, fallbackBase: String = "/tmp")
        throws(RPCTransportError)
    {
        let dir = POSIX.parentDirectory(path)
        if dir == fallbackDirectory(base: fallbackBase) {
            try ensurePrivateDirectory(dir)
        }
    }

    /// Refuses a Unix socket that is not owned by `ownerUID` (by default this user). Call before connecting.
    /// A missing path passes (the connect then fails with its own clear error).
    public static func verifySocketOwner(_ path: String, ownerUID: UInt32 = UInt32(getuid())) throws(RPCTransportError)
    {
        guard let info = POSIX.statInfo(path) else { return }
        guard info.uid == ownerUID else {
            throw RPCTransportError(
                "refusing to connect to '\(path)': the socket is owned by uid \(info.uid), not by this user (uid \(ownerUID)); it may be another user's impostor — check who created it, or use a socket in a directory you own (--socket PATH or $XDG_RUNTIME_DIR)"
            )
        }
    }

    /// Splits `tcp:HOST:PORT` (or `HOST:PORT`; an IPv6 host may be bracketed) into host and port.
    package static func parseTCP(_ spec: String) throws(RPCTransportError) -> (host: String, port: Int) {
        var rest = Substring(spec)
        if rest.hasPrefix("tcp:") { rest = rest.dropFirst(4) }
        guard let colon = rest.lastIndex(of: ":") else {
            throw RPCTransportError("invalid TCP address '\(spec)' (expected tcp:HOST:PORT)")
        }
        var host = String(rest[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = Int(rest[rest.index(after: colon)...]), (0...65535).contains(port) else {
            throw RPCTransportError("invalid TCP address '\(spec)' (expected tcp:HOST:PORT with a port 0-65535)")
        }
        return (host, port)
    }
}
