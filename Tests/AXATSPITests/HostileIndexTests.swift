import AXDBus
import AXDemo
import AXJSON
import XCTest

/// Indexes and offsets from D-Bus clients, and provider numbers beyond Int32, never trap a conversion in the
/// bridge (issue 12 item 1): every call gets a reply (a value or a D-Bus error) and the bridge keeps serving.
final class HostileIndexTests: XCTestCase {
    /// A data table whose only cell sits at row 5,000,000,000 (accessibilityRowRange comes from the provider), plus a
    /// text label.
    static func snapshot() -> JSON {
        let cell = V.view(
            "far", "UILabel", [0, 0, 100, 40],
            [
                "text": "Far away", "accessibilityRowRange": [5_000_000_000, 1],
                "accessibilityColumnRange": [3_000_000_000, 2],
            ])
        let grid = V.view(
            "grid", "UIView", [0, 0, 200, 80],
            [
                "accessibilityContainerType": "dataTable", "accessibilityLabel": "Big",
                "accessibilityIdentifier": "grid",
                "accessibilityDataTable": ["rows": 9_000_000_000, "columns": 4_000_000_000],
            ], children: [cell])
        let text = V.view(
            "txt", "UITextField", [0, 100, 200, 40], ["text": "héllo wörld", "accessibilityIdentifier": "txt"])
        let window = V.view(
            "w", "UIWindow", [0, 0, 400, 400], ["isKeyWindow": true, "windowTitle": "Big"], children: [grid, text])
        return ["windows": [window]]
    }

    func testHostileIndexesGetRepliesAndProviderNumbersAreClamped() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        try fixture.hub.setSnapshot(app: fixture.app, Self.snapshot())
        var seen: [Seen] = []
        for _ in 0..<200 {
            if let elements = try? fixture.walk(), elements.contains(where: { $0.id == "grid" }) {
                seen = elements
                break
            }
            usleep(10_000)
        }
        let grid = try fixture.node(id: "grid", in: seen)
        let text = try fixture.node(id: "txt", in: seen)
        // Row 5,000,000,000 does not fit an Int32: clamped, not a trap.
        let row = try fixture.call(grid.path, "org.a11y.atspi.Table", "GetRowAtIndex") { $0.append(Int32(0)) }.reader()
            .readInt32()
        XCTAssertEqual(row, Int32.max)
        let column = try fixture.call(grid.path, "org.a11y.atspi.Table", "GetColumnAtIndex") { $0.append(Int32(0)) }
            .reader()
            .readInt32()
        XCTAssertEqual(column, Int32.max)
        XCTAssertEqual(try fixture.get(grid.path, "org.a11y.atspi.Table", "NRows").int32Value, Int32.max)

        let hostile: [Int32] = [Int32.min, -1, 0, 1, Int32.max - 1, Int32.max]
        let oneIndex: [(String, String, String)] = [
            (grid.path, "org.a11y.atspi.Table", "GetRowAtIndex"),
            (grid.path, "org.a11y.atspi.Table", "GetColumnAtIndex"),
            (grid.path, "org.a11y.atspi.Table", "GetRowDescription"),
            (grid.path, "org.a11y.atspi.Table", "GetColumnHeader"),
            (grid.path, "org.a11y.atspi.Table", "GetRowColumnExtentsAtIndex"),
            (grid.path, "org.a11y.atspi.Selection", "GetSelectedChild"),
            (grid.path, "org.a11y.atspi.Selection", "IsChildSelected"), (grid.path, Fixture.acc, "GetChildAtIndex"),
            (text.path, "org.a11y.atspi.Text", "GetCharacterAtOffset"), (text.path, "org.a11y.atspi.Action", "GetName"),
        ]
        let twoIndexes: [(String, String, String)] = [
            (grid.path, "org.a11y.atspi.Table", "GetAccessibleAt"), (grid.path, "org.a11y.atspi.Table", "GetIndexAt"),
            (grid.path, "org.a11y.atspi.Table", "GetRowExtentAt"), (grid.path, "org.a11y.atspi.Table", "IsSelected"),
            (text.path, "org.a11y.atspi.Text", "GetText"),
        ]
        let offsetAndKind: [String] = [
            "GetStringAtOffset", "GetTextAtOffset", "GetTextBeforeOffset", "GetTextAfterOffset", "GetCharacterExtents",
        ]
        var answered = 0
        var refused = 0
        func attempt(_ body: () throws -> Void) {
            // A D-Bus error reply (invalid args) is an answer too; a trap would end the test process.
            do {
                try body()
                answered += 1
            } catch {
                refused += 1
            }
        }
        for first in hostile {
            for (path, iface, member) in oneIndex {
                attempt { try fixture.call(path, iface, member) { $0.append(first) } }
            }
            for second in hostile {
                for (path, iface, member) in twoIndexes {
                    attempt {
                        try fixture.call(path, iface, member) {
                            $0.append(first)
                            $0.append(second)
                        }
                    }
                }
                attempt {
                    try fixture.call(text.path, "org.a11y.atspi.Text", "GetRangeExtents") {
                        $0.append(first)
                        $0.append(second)
                        $0.append(UInt32(0))
                    }
                }
            }
            for member in offsetAndKind {
                for kind: UInt32 in [0, 3, 4, UInt32.max] {
                    attempt {
                        try fixture.call(text.path, "org.a11y.atspi.Text", member) {
                            $0.append(first)
                            $0.append(kind)
                        }
                    }
                }
            }
        }
        print("hostile D-Bus indexes: \(answered) answered, \(refused) refused with an error")
        XCTAssertEqual(
            answered + refused,
            hostile.count * (oneIndex.count + hostile.count * (twoIndexes.count + 1) + offsetAndKind.count * 4))
        XCTAssertGreaterThan(answered, 0)
        // Still serving.
        XCTAssertEqual(try fixture.name(grid.path), "Big")
    }
}
