import AXHub
import AXJSON
import AXJSONRPC
import AXRPC
import AXTransport
import Foundation
import XCTest

@testable import AXClient
@testable import AXRPCClient

/// `AXClient.treeReply` (issue 35 item 3, D-CLIENT-TREE-2): the answer decoded as far as it is read equals the
/// answer decoded whole, for a real server's replies over hostile strings and for hostile frames a server could send.
final class TreeReplyTests: XCTestCase {
    /// Labels a naive split of the reply bytes would trip on: the split's own keys, quotes, backslashes, control
    /// characters, line and paragraph separators, non-ASCII text and noncharacters.
    static let hostileLabels: [String] = [
        #""windows":["#, #"],"count":"#, #"],"count":1}"#, #"\"windows\":["#, #"\],\"count\":"#, "\"", "\\", "\\\"",
        "a\u{01}b\u{1F}c\u{7F}", "line\nbreak\ttab\r", "\u{2028}\u{2029}", "é ü 日本 🎉", "\u{FFFE}\u{FFFF}",
        #"{"jsonrpc":"2.0","id":1,"result":{}}"#, " x ", "]", "[", "}", "{", ",\"count\":", "windows",
    ]

    var server: RPCServer?
    var directory = ""

    override func tearDown() async throws {
        await server?.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A real server whose one app shows `labels` as static texts in groups of 10, and a client addressing it.
    func serve(_ labels: [String]) async throws -> AXClient {
        directory = NSTemporaryDirectory() + "axclient-tree-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let hub = Hub()
        let app = hub.registerApp(name: "hostile \"tree\" \\ app", provider: nil)
        var groups: [JSON] = []
        for start in stride(from: 0, to: labels.count, by: 10) {
            let leaves: [JSON] = labels[start..<min(start + 10, labels.count)].enumerated().map { offset, label in
                [
                    "id": .string("n\(start + offset)"), "class": "UILabel", "frame": [0, 0, 80, 20],
                    "text": .string(label),
                ]
            }
            groups.append([
                "id": .string("g\(start)"), "class": "UIView", "frame": [0, 0, 800, 20],
                "accessibilityContainerType": "semanticGroup", "children": .array(leaves),
            ])
        }
        let window: JSON = [
            "id": "w", "class": "UIWindow", "frame": [0, 0, 800, 600], "isKeyWindow": true,
            "windowTitle": #"title "windows":[ ],"count":"#, "children": .array(groups),
        ]
        _ = try hub.setSnapshot(app: app, ["windows": [window]])
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let started = RPCServer(
            router: router, configuration: RPCServer.Configuration(unixSocketPath: directory + "/ax.sock"))
        try await started.start()
        server = started
        return try await AXClient.connect(directory + "/ax.sock", app: app)
    }

    /// Every element's label, depth first.
    static func labels(_ windows: [JSON]) -> [String] {
        var out: [String] = []
        var stack = Array(windows.reversed())
        while let element = stack.popLast() {
            if let label = element["label"]?.stringValue { out.append(label) }
            stack.append(contentsOf: (element["children"]?.arrayValue ?? []).reversed())
        }
        return out
    }

    func testReplyEqualsTheFullyDecodedTreeOverHostileStrings() async throws {
        var labels = Self.hostileLabels
        var generator = SplitMix64(seed: 35)
        let alphabet = Array(#"ab"\[]{},:/ é日🎉"#) + ["\u{01}", "\n", "\u{2028}", "\u{FFFF}"]
        for _ in 0..<200 {
            labels.append(
                String(
                    (0..<Int(generator.next() % 24)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    }))
        }
        let client = try await serve(labels)
        for (depth, fields) in [(nil, nil), (nil, ["role", "label", "value", "states", "children"]), (1, nil)] {
            let whole = try await client.tree(depth: depth, fields: fields)
            let reply = try await client.treeReply(depth: depth, fields: fields)
            XCTAssertNotNil(reply.storage.bytes, "the reply is kept as bytes (not decoded whole on arrival)")
            XCTAssertNil(reply.storage.windows.withLock { $0 }, "nothing decoded before windows() is read")
            XCTAssertEqual(reply.app, whole["app"]?.stringValue)
            XCTAssertEqual(reply.revision, whole["revision"]?.intValue)
            XCTAssertEqual(reply.count, whole["count"]?.intValue)
            XCTAssertEqual(reply.truncated, whole["truncated"]?.arrayValue)
            XCTAssertEqual(try reply.windows(), whole["windows"]?.arrayValue)
            XCTAssertEqual(try reply.json(), whole)
            if depth == nil {
                // The strings came through as the app set them (the server names a static text by its text).
                let decoded = Set(Self.labels(try reply.windows()))
                XCTAssertEqual(labels.filter { !$0.isEmpty && !decoded.contains($0) }, [])
            } else {
                XCTAssertFalse(reply.truncated.isEmpty, "depth 1 leaves elements out")
            }
        }
        await client.close()
    }

    func testRepliesAndOtherCallsInterleaved() async throws {
        let client = try await serve(Self.hostileLabels)
        async let first = client.treeReply()
        async let plain = client.tree()
        async let lean = client.treeReply(fields: ["role", "label"])
        async let revision = client.call(.treeRevision)
        let (reply, whole, leanReply, current) = try await (first, plain, lean, revision)
        XCTAssertEqual(try reply.json(), whole)
        let leanWhole = try await client.tree(fields: ["role", "label"])
        XCTAssertEqual(try leanReply.json(), leanWhole)
        XCTAssertEqual(current[.revision]?.intValue, reply.revision)
        XCTAssertEqual(client.connection.byteResultsPending, 0, "no request left waiting for bytes")
        await client.close()
    }

    /// A frame's result as the ordinary parser reads the whole frame (the oracle), or nil when it fails.
    static func oracle(_ frame: [UInt8]) -> JSON? {
        let limits = JSONParseLimits(maxDepth: RPCClient.maxReplyDepth, maxBytes: max(frame.count, 1))
        guard let message = try? JSON.parse(frame, limits: limits),
            case .response(_, .success(let result)) = RPCInbound.classify(message)
        else { return nil }
        return result
    }

    /// The reply as `treeReply` reads `frame` (nil when `peek` does not take it), and its `json()`.
    static func decoded(_ frame: [UInt8]) -> (taken: Bool, json: JSON?, windows: [JSON]?) {
        let taken: (id: Int64, result: Range<Int>)? = frame.withUnsafeBytes { RPCResultBytes.peek($0) }
        guard let taken else { return (false, nil, nil) }
        let bytes = RPCResultBytes(frame: frame, result: taken.result)
        guard let reply = try? AXTreeReply(.bytes(bytes)) else { return (true, nil, nil) }
        return (true, try? reply.json(), try? reply.windows())
    }

    static func check(_ text: String, line: UInt = #line) {
        check(Array(text.utf8), line: line)
    }

    static func check(_ frame: [UInt8], line: UInt = #line) {
        let expected = oracle(frame)
        let (_, json, windows) = decoded(frame)
        if let expected, case .object = expected {
            XCTAssertEqual(json, expected, String(decoding: frame, as: UTF8.self), line: line)
            XCTAssertEqual(windows, expected["windows"]?.arrayValue, line: line)
        } else {
            XCTAssertNil(
                json, "decoded what the whole frame does not: \(String(decoding: frame, as: UTF8.self))",
                line: line)
        }
    }

    static let frameHead = #"{"jsonrpc":"2.0","id":7,"result":"#

    func testHostileFramesDecodeAsTheWholeFrame() {
        let results = [
            #"{"app":"a","revision":3,"format":"json","windows":[{"id":"x","label":"],\"count\":"}],"count":1,"truncated":[]}"#,
            // `"windows":[` first seen in another member: the head check refuses the split.
            #"{"app":{"windows":[1],"count":2},"windows":[{"id":"y"}],"count":0,"truncated":[]}"#,
            #"{"app":{"windows":[],"count":2},"windows":[{"id":"y"}],"count":0}"#,
            // The last `],"count":` inside `truncated`: the bytes between are not one array.
            #"{"windows":[{"id":"z"}],"count":1,"truncated":[{"k":[],"count":9}]}"#,
            // Repeated keys: the last value wins, as in a full decode.
            #"{"windows":[1],"windows":[2],"count":0}"#,
            #"{"windows":[1],"count":0,"windows":[2],"count":5}"#,
            #"{"windows":[{"a":[],"count":3}],"count":1}"#,
            #"{"windows":[],"count":0}"#,
            // Invalid inside `windows`: decoding it fails as the whole frame does.
            #"{"windows":[{"a":tru}],"count":1}"#,
            #"{"windows":[{"a":"\x"}],"count":1}"#,
            #"{"windows":[{"a":1]],"count":1}"#,
            #"{"windows":[[],[]],"count":1}"#,
            #"{"windows":{},"count":1}"#,
            #"{"count":1}"#,
            #"[1,2]"#,
            #""text""#,
            // Not one value: the result range runs into another member.
            #"{"windows":[],"count":0},"extra":{"windows":[1],"count":1}"#,
            #"{"windows":[1],"count":0},"result":{"windows":[2],"count":0}"#,
            #"{"windows":[],"count":0},"x":{"windows":[1,"]"],"count":1}"#,
            // The closing brace missing, strings left open, escapes at the end.
            #"{"windows":[],"count":0"#,
            #"{"windows":["],"count":0}"#,
            #"{"windows":["\"],"count":0}"#,
            #"{"windows":[""],"count":0}"#,
        ]
        for result in results {
            Self.check(Self.frameHead + result + "}")
            Self.check(Self.frameHead + result + "} \r\t")
        }
        // Invalid UTF-8 inside windows.
        Self.check(Array((Self.frameHead + #"{"windows":[{"a":""#).utf8) + [0xFF] + Array(#""}],"count":1}}"#.utf8))
    }

    func testEveryTruncationAndRandomMutation() {
        let frame = Array(
            (Self.frameHead
                + #"{"app":"a","revision":3,"format":"json","windows":[{"id":"x","label":"],\"count\":\"windows\":[","children":[{"id":"y","label":"\\"}]}],"count":2,"truncated":[]}}"#)
                .utf8)
        XCTAssertNotNil(Self.oracle(frame))
        XCTAssertTrue(Self.decoded(frame).taken, "the frame is the server's shape")
        for length in 0...frame.count {
            Self.check(Array(frame[..<length]))
        }
        let significant: [UInt8] = Array(#""\[]{},: 0a"#.utf8) + [0xFF, 0x01]
        var generator = SplitMix64(seed: 8)
        for _ in 0..<4000 {
            var mutated = frame
            for _ in 0..<(1 + Int(generator.next() % 2)) {
                let at = Int(generator.next() % UInt64(mutated.count))
                mutated[at] = significant[Int(generator.next() % UInt64(significant.count))]
            }
            Self.check(mutated)
        }
    }

    func testPeekTakesOnlyTheServersResultShape() {
        func peek(_ text: String) -> Int64? {
            Array(text.utf8).withUnsafeBytes { RPCResultBytes.peek($0)?.id }
        }
        XCTAssertEqual(peek(#"{"jsonrpc":"2.0","id":12,"result":{}}"#), 12)
        XCTAssertEqual(peek(#"{"jsonrpc":"2.0","id":0,"result":1}"#), 0)
        XCTAssertNil(peek(#"{"jsonrpc":"2.0","id":012,"result":{}}"#))
        XCTAssertNil(peek(#"{"jsonrpc":"2.0","id":1.0,"result":{}}"#))
        XCTAssertNil(peek(#"{"jsonrpc":"2.0","id":"1","result":{}}"#))
        XCTAssertNil(peek(#"{"jsonrpc":"2.0","id":1234567890123456,"result":{}}"#))
        XCTAssertNil(peek(#"{"jsonrpc":"2.0","id":1,"error":{"code":-32010,"message":"x"}}"#))
        XCTAssertNil(peek(#"{"id":1,"jsonrpc":"2.0","result":{}}"#))
        XCTAssertNil(peek(#"{"jsonrpc":"2.0","id":1,"result":{}]"#))
        XCTAssertNil(peek(#"{"jsonrpc":"2.0","id":1,"result":}"#))
    }
}

/// A small seeded generator (SplitMix64), so a failing case can be run again.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
