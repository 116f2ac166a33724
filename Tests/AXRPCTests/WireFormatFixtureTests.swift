import AXCore
import AXDemo
import AXJSON
import AXProvider
import AXRPC
import Foundation
import XCTest

/// The wire format stays byte-for-byte the same across refactorings of the schema code: the demo, audit-demo and
/// bench trees (and a tree of mistyped values) are encoded by the provider library (`ViewDescription` round trip, what
/// `hierarchy.set` carries) and by the server (`ElementJSON` of every decoded node, what `tree.get` answers), and
/// compared with the encodings committed in Tests/Fixtures/wire/ (captured from the code before the schema table).
/// `AX_UPDATE_WIRE_FIXTURES=1` rewrites them (only when a wire change is intended).
final class WireFormatFixtureTests: XCTestCase {
    static let fixtureDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/wire")

    /// The trees: name → `hierarchy.set` params.
    static func trees() -> [(name: String, snapshot: JSON)] {
        var busyDemo = DemoApp()
        busyDemo.alertShown = true
        busyDemo.aboutShown = true
        busyDemo.deviceName = "Kitchen \"radio\" ✓"
        return [
            ("demo", DemoApp().snapshot()), ("demo-alert-about", busyDemo.snapshot()),
            ("audit-demo", AuditDemo.snapshot()), ("bench-200", BenchTree.snapshot(leaves: 200)),
        ]
    }

    /// Values the provider library does not model keep their form (`extra`): a trait mask, a frame as an object,
    /// explicit nulls, unknown keys, a mistyped nested item.
    static let mistyped: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": ["x": 0, "y": 0, "width": 320, "height": 480],
                "accessibilityTraits": 1, "isHidden": .null, "alpha": "half", "custom": ["a": 1],
                "accessibilityElements": ["v", ["id": "e", "accessibilityLabel": "E", "frame": "bad"]],
                "children": [
                    [
                        "id": "v", "class": "UIButton", "frame": [1, 2, 3, 4], "accessibilityLabel": 5,
                        "accessibilityHeadingLevel": 1.5, "tag": 3, "components": [["rows": ["a"], "selectedRow": 0]],
                    ]
                ],
            ]
        ]
    ]

    /// The provider library's encoding: every window read into a `ViewDescription` and encoded back.
    static func providerEncoding(_ snapshot: JSON) -> String {
        let windows = snapshot["windows"]?.arrayValue ?? []
        return windows.map { window in
            ViewDescription(json: window).map { $0.json.jsonString } ?? "unreadable"
        }.joined(separator: "\n") + "\n"
    }

    /// The server's encoding: every node of the decoded tree as `tree.get` answers it, in tree order.
    static func serverEncoding(_ snapshot: JSON) throws -> String {
        let store = HierarchyStore()
        _ = try store.setSnapshot(snapshot)
        var lines: [String] = []
        store.tree.walk { node, _ in
            lines.append(JSON.object(ElementJSON.encode(node)).jsonString)
            return true
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func check(_ encoding: String, named name: String) throws {
        let url = Self.fixtureDirectory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["AX_UPDATE_WIRE_FIXTURES"] == "1" {
            try FileManager.default.createDirectory(at: Self.fixtureDirectory, withIntermediateDirectories: true)
            try encoding.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(encoding.utf8.count, expected.utf8.count, "\(name): encoding length changed")
        XCTAssertTrue(encoding == expected, "\(name): the wire encoding changed")
    }

    func testProviderEncodingIsUnchanged() throws {
        for (name, snapshot) in Self.trees() {
            try check(Self.providerEncoding(snapshot), named: "\(name).provider.jsonl")
        }
        try check(Self.providerEncoding(Self.mistyped), named: "mistyped.provider.jsonl")
    }

    func testServerEncodingIsUnchanged() throws {
        for (name, snapshot) in Self.trees() {
            try check(try Self.serverEncoding(snapshot), named: "\(name).server.jsonl")
        }
    }
}
