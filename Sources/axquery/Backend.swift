import AXHub
import AXInProcess
import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPC
import AXRPCClient
import AXRasterizer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command's JSON-RPC calls go: a live server over its socket, or an in-process server holding a file.
protocol Backend: AnyObject {
    func call(_ method: String, _ params: JSON?, timeout: Duration) throws(RPCError) -> JSON
}

/// A live server: one blocking connection (no NIO threads), `initialize` once, then the command's calls.
final class RemoteBackend: Backend {
    let client: SyncRPCClient
    let address: String

    /// Connects as automation, or as the operator when `operatorToken` is given (`axquery policy set`).
    init(address: String, token: String?, operatorToken: String? = nil) throws(CLIFailure) {
        self.address = address
        do { client = try SyncRPCClient(address: address) } catch {
            throw CLIFailure(
                Exit.connection, "cannot connect to the server: \(error.message)",
                details: [AXSocketPath.noServerHint])
        }
        var params: RPCParams<RPCCatalog.Initialize.Param> = [
            .role: operatorToken == nil ? "automation" : "operator",
            .clientInfo: ["name": "axquery", "version": .string(RPCServerInfo.version)],
        ]
        if let token { params[.token] = .string(token) }
        if let operatorToken { params[.operatorToken] = .string(operatorToken) }
        do {
            _ = try client.call(RPCMethodName.initialize.rawValue, .object(params.object), timeout: .seconds(10))
        } catch {
            throw CLIFailure(Exit.connection, "the server refused the connection: \(error.message)", rpc: error)
        }
    }

    func call(_ method: String, _ params: JSON?, timeout: Duration) throws(RPCError) -> JSON {
        try client.call(method, params, timeout: timeout)
    }
}

/// A file evaluated in-process: the same hub, store, derivation, selector engine and method table as the server,
/// through the one in-process route (`InProcessConnection`, D-SEAMS-1).
final class OfflineBackend: Backend {
    let hub = Hub(actionTimeout: .seconds(1))
    let connection: InProcessConnection

    init(snapshot: JSON, appName: String) throws(CLIFailure) {
        var options = MethodOptions()
        if let rasterizer = SVGRasterizer.find() { options.rasterizePNG = { svg throws in try rasterizer.png(svg) } }
        connection = InProcessConnection(router: InProcessConnection.makeRouter(hub: hub, options: options))
        let app = hub.registerApp(name: appName, provider: nil)
        do { try hub.setSnapshot(app: app, snapshot) } catch {
            throw CLIFailure(Exit.connection, "the file is not a valid hierarchy: \(error)")
        }
        let hello: RPCParams<RPCCatalog.Initialize.Param> = [.role: "automation"]
        _ = try? call(RPCMethodName.initialize.rawValue, .object(hello.object), timeout: .seconds(1))
    }

    func call(_ method: String, _ params: JSON?, timeout: Duration) throws(RPCError) -> JSON {
        guard let result = connection.callSync(method, params) else {
            throw RPCError.invalidRequest(
                "'\(method)' needs a live server (it is not available with --file)",
                data: ["method": .string(method)])
        }
        return try result.get()
    }
}

@inline(__always) private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
        return Darwin.read(fd, buffer, count)
    #elseif canImport(Musl)
        return Musl.read(fd, buffer, count)
    #else
        return Glibc.read(fd, buffer, count)
    #endif
}

/// Reads a whole file with POSIX calls.
enum FileIO {
    static func read(_ path: String) throws(CLIFailure) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw CLIFailure(Exit.connection, "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIFailure(Exit.connection, "cannot read '\(path)': \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            out.append(contentsOf: chunk[0..<count])
            if out.count > 256 << 20 { throw CLIFailure(Exit.connection, "'\(path)' is larger than 256 MiB") }
        }
        return out
    }

    /// The first line of a token file, without trailing whitespace.
    static func token(_ path: String) throws(CLIFailure) -> String {
        let bytes = try read(path)
        let line = bytes.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        var token = String(decoding: line, as: UTF8.self)
        while let last = token.last, last.isWhitespace { token.removeLast() }
        guard !token.isEmpty else { throw CLIFailure(Exit.connection, "the token file '\(path)' is empty") }
        return token
    }
}
