import AXJSON
import AXSchema
import Foundation
import XCTest

/// The trait names and bits (`HierarchySchema.traits`) are Specs/hierarchy.md §Traits's table; the wire forms of
/// rects and points read only their array forms and write them back.
final class TraitsAndGeometryTests: XCTestCase {
    /// The `| bit | trait | bit | trait |` rows of Specs/hierarchy.md §Traits, as (name, bit).
    static func specifiedTraits() throws -> [(name: String, bit: Int)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Specs/hierarchy.md"), encoding: .utf8)
        let section = try XCTUnwrap(text.components(separatedBy: "### Traits").dropFirst().first)
        var traits: [(name: String, bit: Int)] = []
        for line in section.split(separator: "\n").prefix(while: { !$0.hasPrefix("#") }) where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            for pair in stride(from: 0, to: cells.count - 1, by: 2) {
                guard let bit = Int(cells[pair]), cells[pair + 1].hasPrefix("`") else { continue }
                traits.append((cells[pair + 1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), bit))
            }
        }
        return traits
    }

    func testTheTraitTableIsTheSpecifiedOne() throws {
        let specified = try Self.specifiedTraits().sorted { $0.bit < $1.bit }
        XCTAssertEqual(specified.count, 19)
        XCTAssertEqual(HierarchySchema.traits.map(\.name), specified.map(\.name))
        XCTAssertEqual(HierarchySchema.traits.map(\.bit), specified.map(\.bit))
        XCTAssertEqual(Set(HierarchySchema.traits.map(\.bit)).count, HierarchySchema.traits.count, "a bit twice")
        XCTAssertEqual(HierarchySchema.trait(named: "header"), SchemaTrait("header", bit: 16))
        XCTAssertNil(HierarchySchema.trait(named: "none"))
        XCTAssertNil(HierarchySchema.trait(named: "Button"))
    }

    func testRectsAndPointsTravelAsArrays() {
        let rect = SchemaGeometry.rect(x: 1, y: 2.5, width: 30, height: 0)
        XCTAssertEqual(rect.jsonString, "[1,2.5,30,0]")
        XCTAssertEqual(SchemaGeometry.rectNumbers(rect), [1, 2.5, 30, 0])
        XCTAssertEqual(SchemaGeometry.point(x: -4, y: 8).jsonString, "[-4,8]")
        XCTAssertEqual(SchemaGeometry.pointNumbers([-4, 8]), [-4, 8])
    }

    /// The array forms only, of the right length and finite numbers; anything else is nil (the provider keeps it
    /// verbatim, the server refuses it with its own message).
    func testOtherFormsReadAsNil() {
        XCTAssertNil(SchemaGeometry.rectNumbers([1, 2, 3]))
        XCTAssertNil(SchemaGeometry.rectNumbers([1, 2, 3, 4, 5]))
        XCTAssertNil(SchemaGeometry.rectNumbers(["x": 1, "y": 2, "width": 3, "height": 4]))
        XCTAssertNil(SchemaGeometry.rectNumbers([1, 2, "3", 4]))
        XCTAssertNil(SchemaGeometry.pointNumbers([.number(.infinity), 0]))
        XCTAssertNil(SchemaGeometry.pointNumbers(.null))
        XCTAssertEqual(SchemaGeometry.rectMembers, ["x", "y", "width", "height"])
        XCTAssertEqual(SchemaGeometry.pointMembers, ["x", "y"])
        XCTAssertEqual(SchemaGeometry.rectArity, SchemaGeometry.rectMembers.count)
        XCTAssertEqual(SchemaGeometry.pointArity, SchemaGeometry.pointMembers.count)
    }
}
