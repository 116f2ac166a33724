import AXATSPIModel
import AXCore
import XCTest

/// `ComponentModel` extents in each coordinate space and `TableModel`/`TableCellModel` spans, without a bus.
final class ComponentModelTests: XCTestCase {
    // Snapshots.table(): window at (100, 50); the table at (20, 30) in it; cell (1, 1) at (100, 40) in the table,
    // 100×40 — so on screen at (220, 120).

    func testExtentsInScreenWindowAndParentCoordinates() throws {
        let snapshot = try Snapshots.served(Snapshots.table())
        let cell = try Snapshots.node("c11", in: snapshot)
        let model = ComponentModel(snapshot: snapshot)
        XCTAssertEqual(
            model.extents(of: cell, coordinateType: .screen), ATSPIRect(x: 220, y: 120, width: 100, height: 40))
        XCTAssertEqual(
            model.extents(of: cell, coordinateType: .window), ATSPIRect(x: 120, y: 70, width: 100, height: 40))
        XCTAssertEqual(
            model.extents(of: cell, coordinateType: .parent), ATSPIRect(x: 100, y: 40, width: 100, height: 40))
        let window = try Snapshots.node("w", in: snapshot)
        XCTAssertEqual(
            model.extents(of: window, coordinateType: .window), ATSPIRect(x: 0, y: 0, width: 400, height: 400),
            "a window is at the origin of its own space")
        XCTAssertEqual(ATSPICoordinateType(wireValue: 99), .screen, "unknown coordinate types count as screen")
    }

    func testPointsAreConvertedBeforeHitTesting() throws {
        let snapshot = try Snapshots.served(Snapshots.table())
        let model = ComponentModel(snapshot: snapshot)
        let cell = try Snapshots.node("c11", in: snapshot)
        let grid = try Snapshots.node("grid", in: snapshot)
        XCTAssertTrue(model.contains(cell, x: 230, y: 130, coordinateType: .screen))
        XCTAssertTrue(model.contains(cell, x: 130, y: 80, coordinateType: .window))
        XCTAssertFalse(model.contains(cell, x: 130, y: 80, coordinateType: .screen))
        XCTAssertEqual(model.accessibleAtPoint(in: grid, x: 150, y: 90, coordinateType: .parent), "c11")
        XCTAssertEqual(model.accessibleAtPoint(in: grid, x: 30, y: 120, coordinateType: .parent), "total")
        XCTAssertNil(model.accessibleAtPoint(in: grid, x: 390, y: 390, coordinateType: .window))
    }

    func testLayerAndZOrder() throws {
        let snapshot = try Snapshots.served(Snapshots.table())
        let model = ComponentModel(snapshot: snapshot)
        XCTAssertEqual(model.layer(of: try Snapshots.node("w", in: snapshot)), 7)
        XCTAssertEqual(model.layer(of: try Snapshots.node("c11", in: snapshot)), 3)
        XCTAssertEqual(model.mdiZOrder(of: try Snapshots.node("w", in: snapshot)), 0)
        XCTAssertEqual(model.mdiZOrder(of: try Snapshots.node("c11", in: snapshot)), -1)
    }
}

final class TableModelTests: XCTestCase {
    func testCellsSpansAndIndexes() throws {
        let snapshot = try Snapshots.served(Snapshots.table())
        let table = TableModel(table: try Snapshots.node("grid", in: snapshot), snapshot: snapshot)
        XCTAssertEqual(table.cells.map(\.id), ["h0", "h1", "c10", "c11", "total"])
        XCTAssertEqual([table.rowCount, table.columnCount], [3, 2])
        XCTAssertEqual(table.cell(row: 1, column: 1)?.id, "c11")
        // The footer spans both columns: either column finds it.
        XCTAssertEqual(table.cell(row: 2, column: 0)?.id, "total")
        XCTAssertEqual(table.cell(row: 2, column: 1)?.id, "total")
        XCTAssertEqual(table.index(row: 2, column: 1), 4)
        XCTAssertEqual(table.columnExtent(row: 2, column: 1), 2)
        XCTAssertEqual(table.rowExtent(row: 2, column: 1), 1)
        XCTAssertEqual(table.index(row: 5, column: 0), -1)
        XCTAssertEqual(table.columnExtent(row: 5, column: 0), 0)
        XCTAssertEqual([table.row(atIndex: 3), table.column(atIndex: 3)], [1, 1])
        XCTAssertEqual([table.row(atIndex: 9), table.column(atIndex: -1)], [-1, -1])
        let extents = try XCTUnwrap(table.rowColumnExtents(atIndex: 4))
        XCTAssertEqual(extents.span, CellSpan(row: 2, column: 0, rowSpan: 1, columnSpan: 2))
        XCTAssertFalse(extents.isSelected)
        XCTAssertNil(table.rowColumnExtents(atIndex: 5))
        XCTAssertEqual(table.columnHeader(1), "h1")
        XCTAssertEqual(table.columnDescription(0), "Name")
        XCTAssertNil(table.rowHeader(0))
        XCTAssertEqual(table.rowDescription(0), "")
    }

    func testTableCellSpanHeadersAndTable() throws {
        let snapshot = try Snapshots.served(Snapshots.table())
        let footer = TableCellModel(cell: try Snapshots.node("total", in: snapshot), snapshot: snapshot)
        XCTAssertEqual(footer.rowColumnSpan, CellSpan(row: 2, column: 0, rowSpan: 1, columnSpan: 2))
        XCTAssertEqual(footer.tableID, "grid")
        let age = TableCellModel(cell: try Snapshots.node("c11", in: snapshot), snapshot: snapshot)
        XCTAssertEqual(age.rowColumnSpan, CellSpan(row: 1, column: 1, rowSpan: 1, columnSpan: 1))
        XCTAssertEqual(age.position.row, 1)
        XCTAssertEqual(age.position.column, 1)
        XCTAssertEqual(age.columnHeaderCells, ["h1"])
        XCTAssertEqual(age.rowHeaderCells, [])
    }
}

final class PropertyModelTests: XCTestCase {
    func testPropertiesOfACellTheTableAndTheRoot() throws {
        let snapshot = try Snapshots.served(Snapshots.table())
        let model = PropertyModel(snapshot: snapshot, applicationID: 7, version: "9.9")
        let footer = ServedObject.node(try Snapshots.node("total", in: snapshot))
        XCTAssertEqual(model.value(of: .name, for: footer), .string("Total"))
        XCTAssertEqual(model.value(of: .position, for: footer), .position(row: 2, column: 0))
        XCTAssertEqual(model.value(of: .columnSpan, for: footer), .int32(2))
        XCTAssertEqual(model.value(of: .table, for: footer), .reference(.element("grid")))
        XCTAssertEqual(model.value(of: .parent, for: footer), .reference(.element("grid")))
        let grid = ServedObject.node(try Snapshots.node("grid", in: snapshot))
        XCTAssertEqual(model.value(of: .nRows, for: grid), .int32(3))
        XCTAssertEqual(model.value(of: .caption, for: grid), .reference(.null))
        XCTAssertEqual(model.value(of: .childCount, for: grid), .int32(5))
        XCTAssertEqual(model.value(of: .id, for: .applicationRoot), .int32(7))
        XCTAssertEqual(model.value(of: .version, for: .applicationRoot), .string("9.9"))
        XCTAssertEqual(model.value(of: .parent, for: .applicationRoot), .reference(.desktop))
        XCTAssertEqual(
            ATSPIProperty.properties(of: .tableCell).map { $0.dbusName.description },
            ["ColumnSpan", "Position", "RowSpan", "Table"])
    }
}
