import AXJSON
import AXJSONRPC
import AXMCP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `axquery mcp`'s line protocol (issue 30): the input is what a host writes on standard input, fed through the
/// real stdio loop (`MCPStdio`) into an `MCPSession` whose tools reach a stand-in server that answers every call at
/// once. Checked: every line written out is one JSON-RPC 2.0 message; every line that is a JSON object with a string
/// or number `id` and is not a response gets exactly one answer carrying its id — at most one when a
/// `notifications/cancelled` names that id — also when stdin ends while calls run; nothing traps.
enum MCPLineFuzz {
    static let target = FuzzTarget(
        name: "mcp-lines",
        summary: "axquery mcp's stdin lines through MCPStdio and MCPSession: one answer per request id, no trap",
        run: run)

    /// The stand-in server: every method answers an empty object at once.
    struct InstantBackend: MCPBackend {
        func call(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
            [:]
        }
    }

    static func run(_ input: UnsafeRawBufferPointer) -> [String] {
        var check = FuzzCheck()
        guard let inputFD = temporaryFile(), let outputFD = temporaryFile() else { return [] }
        defer {
            close(inputFD)
            close(outputFD)
        }
        var offset = 0
        while offset < input.count, let base = input.baseAddress {
            let written = write(inputFD, base + offset, input.count - offset)
            if written <= 0 { return [] }
            offset += written
        }
        lseek(inputFD, 0, SEEK_SET)
        let runner = MCPToolRunner(backend: InstantBackend())
        MCPStdio.run(input: inputFD, output: outputFD, grace: .seconds(10)) { write in
            MCPSession(runner: runner, serverVersion: "fuzz", write: write)
        }
        let output = readAll(outputFD)
        let expected = expectedAnswers(input)
        var answered: [String: Int] = [:]
        for line in output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            guard let message = try? JSON.parse(Array(line)), message["jsonrpc"] == "2.0" else {
                check.fail(
                    "an output line is not a JSON-RPC 2.0 message: \(quoted(String(decoding: line, as: UTF8.self)))")
                continue
            }
            if let id = message["id"], id != .null { answered[id.jsonString, default: 0] += 1 }
        }
        for (id, count) in expected.requests {
            let got = answered[id] ?? 0
            if expected.cancelled.contains(id) {
                check.expect(got <= count, "id \(quoted(id)): \(got) answers to \(count) requests (some cancelled)")
            } else {
                check.expect(got == count, "id \(quoted(id)): \(got) answers to \(count) requests")
            }
        }
        for (id, count) in answered where expected.requests[id] == nil {
            check.fail("\(count) answers to id \(quoted(id)), which no request line carried")
        }
        return check.failures
    }

    /// The request lines per id, and the ids a cancellation named (read independently of the session's code).
    static func expectedAnswers(_ input: UnsafeRawBufferPointer) -> (requests: [String: Int], cancelled: Set<String>) {
        var requests: [String: Int] = [:]
        var cancelled: Set<String> = []
        let lines = Array(input).split(separator: 0x0A, omittingEmptySubsequences: false)
        for line in lines where line.count <= MCPSession.maxLineBytes {
            guard case .object(let object)? = try? JSON.parse(Array(line)) else { continue }
            let method = object["method"]
            // A response (no method, a result or an error) is never answered; any other object with an id is.
            if method == nil && (object["result"] != nil || object["error"] != nil) { continue }
            if method == "notifications/cancelled", let named = object["params"]?["requestId"] {
                cancelled.insert(named.jsonString)
            }
            switch object["id"] {
            case .string?, .number?:
                if let id = object["id"] { requests[id.jsonString, default: 0] += 1 }
            default:
                break
            }
        }
        return (requests, cancelled)
    }

    /// An anonymous read-write file (unlinked at once).
    static func temporaryFile() -> Int32? {
        var template = Array("/tmp/axfuzz-mcp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else { return nil }
        template.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { unlink(base) }
        }
        return fd
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        lseek(fd, 0, SEEK_SET)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return read(fd, base, raw.count)
            }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }
}
