import AXJSON
import AXProvider
import XCTest

/// AXProvider re-exports AXSchema: an app that imports only AXProvider names the schema table, the action vocabulary,
/// the trait names and the geometry forms (this file imports no AXSchema; it would not compile without the re-export).
final class SchemaReExportTests: XCTestCase {
    func testTheSchemaIsVisibleThroughTheProviderLibrary() {
        let direction: ScrollDirection = .down
        XCTAssertEqual(ActionCall.Kind.scroll(direction), .scroll(.down))
        XCTAssertEqual(ActionName.scroll.rawValue, "scroll")
        XCTAssertNotNil(HierarchySchema.property(named: "accessibilityTraits"))
        XCTAssertEqual(HierarchySchema.trait(named: "button")?.bit, 0)
        XCTAssertEqual(
            ViewRect(x: 1, y: 2, width: 3, height: 4).json, SchemaGeometry.rect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(ViewPoint(json: SchemaGeometry.point(x: 5, y: 6)), ViewPoint(x: 5, y: 6))
    }

    /// The trait names a provider writes are the table's: every one reaches the wire as written.
    func testEveryTraitNameOfTheTableIsWrittenAsGiven() {
        let names = HierarchySchema.traits.map(\.name)
        let view = ViewDescription(id: "v", viewClass: "UIView").traits(names)
        XCTAssertEqual(view.json["accessibilityTraits"], .array(names.map { .string($0) }))
    }
}
