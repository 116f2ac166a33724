import Foundation
import XCTest

/// Issue 30: no force-unwrap (`x!`, `try!`, `as!`) in the source directories that handle wire input (JSON-RPC,
/// D-Bus, HTTP, MCP, selectors, the hub), so a hostile value can never trap the server (Hostile input, HELPER_BRIEF).
/// Each remaining one is listed below with why it cannot be reached by a wire value; a new one fails here naming
/// its file and line.
final class WireUnwrapLintTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The directories requests and replies pass through.
    static let requestPaths = [
        "AXJSON", "AXJSONRPC", "AXWire", "AXWireNIO", "AXRPCClient", "AXRPCRouter", "AXRPC", "AXTransport", "AXHub",
        "AXCore", "AXQuery", "AXInsight", "AXSchema", "AXMCP", "AXWebDriver", "AXProvider", "AXClient", "AXATSPI",
        "AXATSPIModel", "AXDBus", "AXProtocol", "AXTrace", "AXInProcess", "axquery", "axserver", "axdriver",
    ]

    /// Files left out while another change rewrites them (remove the entry when it lands).
    static let rewrittenElsewhere: Set<String> = []

    /// Unwraps that no wire value reaches: `file: line text` (trimmed) → why.
    static let allowed: [String: String] = [
        "AXWire/POSIXSocket.swift: let sent = sendNoSignal(fd, bytes.baseAddress! + off, bytes.count - off)":
            "inside `while off < bytes.count`: a non-empty buffer has a base address",
        "AXRPCClient/SyncRPCClient.swift: let sent = POSIX.sendNoSignal(fd, raw.baseAddress! + off, raw.count - off)":
            "inside `while off < raw.count`: a non-empty buffer has a base address",
        "AXRPCClient/RPCClient.swift: if inbound == nil || inbound!.readableBytes == 0 { inbound = incoming } else { inbound!.writeBuffer(&incoming) }":
            "the handler's own buffer, checked non-nil in the same condition",
        "AXRPCClient/RPCClient.swift: let consumed: Int = inbound!.withUnsafeReadableBytes { raw in":
            "the handler's own buffer, assigned just above",
        "AXRPCClient/RPCClient.swift: inbound!.moveReaderIndex(forwardBy: consumed)": "the handler's own buffer",
        "AXRPCClient/RPCClient.swift: if inbound!.readableBytes == 0 { inbound = nil }": "the handler's own buffer",
        "AXTransport/RPCAuthenticationHandler.swift: held!.writeBuffer(&incoming)": "the handler's own buffer",
        "AXTransport/RPCConnection.swift: frames.framing.encode(payload, into: &outbound!)":
            "the connection's own output buffer, created above",
        "AXTransport/RPCConnection.swift: frames.framing.encode(last, into: &outbound!)":
            "the connection's own output buffer, created above",
        "AXQuery/TreeIndex.swift: byRole[TreeIndex.roleOrdinal[node.role]!].append(position)":
            "roleOrdinal is built from AXRole.allCases",
        "AXQuery/TreeIndex.swift: byRole[TreeIndex.roleOrdinal[.cell]!].append(position)":
            "roleOrdinal is built from AXRole.allCases",
        "AXQuery/QueryEngine.swift: return filterIndexed(idx.byRole[TreeIndex.roleOrdinal[role]!], ranges, step, cap: cap)":
            "roleOrdinal is built from AXRole.allCases",
        "AXQuery/QueryEngine.swift: return !StringMatcher.normalize(string(Test.strAttr(attribute)!, i) ?? \"\").isEmpty":
            "a closed enum: the .string kind has a string attribute",
        "axquery/InsightCommands.swift: systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)":
            "inside `while offset < bytes.count`: a non-empty buffer has a base address",
        "axquery/Output.swift: let written = Darwin.write(fd, buf.baseAddress! + off, buf.count - off)":
            "inside `while off < buf.count`: a non-empty buffer has a base address",
        "axquery/Output.swift: let written = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)":
            "inside `while off < buf.count`: a non-empty buffer has a base address",
        "axserver/PolicyFile.swift: let count = write(descriptor, raw.baseAddress! + written, raw.count - written)":
            "inside `while written < raw.count`: a non-empty buffer has a base address",
        "AXDBus/DBusPeerServer.swift: guard let tempDir = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {":
            "a non-empty local array",
        "AXDBus/DBusPeerServer.swift: let me = Unmanaged<DBusPeerServer>.fromOpaque(arg!).takeRetainedValue()":
            "the pthread argument this file passes",
        "AXDBus/DBusPeerServer.swift: let job = Unmanaged<PeerJob>.fromOpaque(arg!).takeRetainedValue()":
            "the pthread argument this file passes",
        "AXDBus/DBusConnection.swift: Unmanaged<DBusConnection>.fromOpaque(ud!).takeUnretainedValue().wakeFromLibdbus()":
            "the user data this file registers with libdbus",
        "AXDBus/DBusConnection.swift: let start = Unmanaged<LoopStart>.fromOpaque(arg!).takeRetainedValue()":
            "the pthread argument this file passes",
        "AXDBus/DBusConnection.swift: return box.take()!": "filled by the loop before it signals",
        "AXDBus/DBusConnection.swift: return try box.take()!.get()": "filled by the loop before it signals",
    ]

    /// `x!` (not `!=`), `try!`, `as!`, outside comments and string literals.
    static let unwrap = try? NSRegularExpression(pattern: #"(\btry!|\bas!|[\w\)\]]!(?!=))"#)

    /// The line without string literals and without a trailing `//` comment.
    static func code(_ line: Substring) -> String {
        var out = ""
        var inString = false
        var escaped = false
        var previous: Character = " "
        for character in line {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            if character == "/" && previous == "/" {
                out.removeLast()
                break
            }
            if character == "\"" {
                inString = true
                out += "\"\""
            } else {
                out.append(character)
            }
            previous = character
        }
        return out
    }

    func findings() throws -> (found: [String], used: Set<String>) {
        let pattern = try XCTUnwrap(Self.unwrap)
        var found: [String] = []
        var used: Set<String> = []
        for directory in Self.requestPaths {
            let root = Self.sources.appendingPathComponent(directory)
            let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where file.hasSuffix(".swift") {
                let relative = directory + "/" + file
                if Self.rewrittenElsewhere.contains(relative) { continue }
                let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                var inMultilineString = false
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    if line.components(separatedBy: "\"\"\"").count % 2 == 0 {
                        inMultilineString.toggle()
                        continue
                    }
                    if inMultilineString { continue }
                    let stripped = Self.code(line)
                    let range = NSRange(stripped.startIndex..., in: stripped)
                    guard pattern.firstMatch(in: stripped, range: range) != nil else { continue }
                    let key = relative + ": " + line.trimmingCharacters(in: .whitespaces)
                    if Self.allowed[key] != nil {
                        used.insert(key)
                    } else {
                        found.append("\(relative):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        return (found, used)
    }

    func testNoForceUnwrapInTheRequestPaths() throws {
        let (found, used) = try findings()
        XCTAssertEqual(
            found, [],
            "force unwraps in request paths (check the value, or list it in `allowed` with why no wire value reaches it)"
        )
        XCTAssertEqual(Set(Self.allowed.keys).subtracting(used).sorted(), [], "allow-list entries that match nothing")
    }

    /// The scanner sees what it must and nothing else.
    func testTheScannerFindsUnwrapsButNotComparisonsCommentsOrStrings() throws {
        let pattern = try XCTUnwrap(Self.unwrap)
        func flags(_ line: String) -> Bool {
            let stripped = Self.code(line[...])
            return pattern.firstMatch(in: stripped, range: NSRange(stripped.startIndex..., in: stripped)) != nil
        }
        XCTAssertTrue(flags("let n = Int(part)!"))
        XCTAssertTrue(flags("let v = object[\"x\"]!.stringValue"))
        XCTAssertTrue(flags("let x = try! parse(bytes)"))
        XCTAssertTrue(flags("let y = value as! String"))
        XCTAssertFalse(flags("if a != b && !flag { }"))
        XCTAssertFalse(flags("let s = \"done!\" // really!"))
    }
}
