import AXATSPIModel
import AXCore
import AXDemo
import AXJSON
import XCTest

/// Served snapshots built from view hierarchies (the same path the hub takes: HierarchyStore derives the tree).
enum Snapshots {
    /// The served snapshot of a view hierarchy.
    static func served(_ hierarchy: JSON, focusedID: String? = nil) throws -> ServedSnapshot {
        let store = HierarchyStore()
        try store.setSnapshot(hierarchy)
        return ServedSnapshot(tree: store.tree, focusedID: focusedID, applicationName: "Model")
    }

    /// A window at (100, 50) holding a heading, a button, two switches (on, off) and a text field.
    static func controls(wifiOn: Bool = true) -> JSON {
        let window = V.view(
            "w", "UIWindow", [100, 50, 400, 400], ["isKeyWindow": true, "windowTitle": "Controls"],
            children: [
                V.view(
                    "title", "UILabel", [10, 10, 200, 30], ["text": "Settings", "accessibilityTraits": ["header"]]),
                V.view("ok", "UIButton", [10, 50, 80, 40], ["accessibilityLabel": "OK"]),
                V.view("wifi", "UISwitch", [10, 100, 51, 31], ["accessibilityLabel": "Wi-Fi", "isOn": .bool(wifiOn)]),
                V.view("bt", "UISwitch", [10, 140, 51, 31], ["accessibilityLabel": "Bluetooth", "isOn": false]),
            ])
        return ["windows": [window]]
    }

    /// A 3×2 data table inside a window at (100, 50): header row "Name | Age", row "Ann | 31", and a footer cell
    /// "Total" spanning both columns. The table sits at (20, 30) in the window.
    static func table() -> JSON {
        func cell(_ id: String, _ text: String, _ row: Int, _ column: Int, columnSpan: Int = 1) -> JSON {
            V.view(
                id, "UILabel", [Double(column) * 100, Double(row) * 40, 100 * Double(columnSpan), 40],
                [
                    "text": .string(text), "accessibilityRowRange": [.number(Double(row)), 1],
                    "accessibilityColumnRange": [.number(Double(column)), .number(Double(columnSpan))],
                ])
        }
        let grid = V.view(
            "grid", "UIView", [20, 30, 200, 120],
            [
                "accessibilityContainerType": "dataTable", "accessibilityLabel": "People",
                "accessibilityDataTable": ["rows": 3, "columns": 2, "columnHeaders": ["0": ["h0"], "1": ["h1"]]],
            ],
            children: [
                cell("h0", "Name", 0, 0), cell("h1", "Age", 0, 1), cell("c10", "Ann", 1, 0), cell("c11", "31", 1, 1),
                cell("total", "Total", 2, 0, columnSpan: 2),
            ])
        let window = V.view(
            "w", "UIWindow", [100, 50, 400, 400], ["isKeyWindow": true, "windowTitle": "People"], children: [grid])
        return ["windows": [window]]
    }

    /// The node with an id, failing the test when it is missing.
    static func node(_ id: String, in snapshot: ServedSnapshot, file: StaticString = #filePath, line: UInt = #line)
        throws -> AXNode
    {
        try XCTUnwrap(snapshot.tree[id], "no node '\(id)' in the tree", file: file, line: line)
    }
}
