import AXJSON
import AXSchema
import Foundation
import XCTest

/// The schema table (AXSchema's `HierarchySchema.properties`) is Specs/hierarchy.schema.json's list of view and
/// virtual-element properties, with the same value forms; the codecs read leniently and write the modelled form.
final class HierarchySchemaTests: XCTestCase {
    static func jsonSchema() throws -> JSON {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Specs/hierarchy.schema.json"), encoding: .utf8)
        return try JSON.parse(text)
    }

    func testTheTableHasEveryViewPropertyOfTheJSONSchemaAndNoOther() throws {
        let viewProperties = try XCTUnwrap(Self.jsonSchema()["$defs"]?["view"]?["properties"]?.objectValue)
        let tableKeys = Set(
            HierarchySchema.keys(of: .structural) + HierarchySchema.keys(of: .view)
                + HierarchySchema.keys(of: .accessibility))
        XCTAssertEqual(Set(viewProperties.keys), tableKeys)
    }

    func testTheTableHasEveryVirtualElementPropertyOfTheJSONSchema() throws {
        let properties = try XCTUnwrap(Self.jsonSchema()["$defs"]?["virtualElement"]?["properties"]?.objectValue)
        for key in properties.keys {
            let row = try XCTUnwrap(HierarchySchema.property(named: key), "no row for '\(key)'")
            XCTAssertTrue(
                [.accessibility, .virtualElement].contains(row.owner) || ["id", "frame"].contains(key),
                "'\(key)' is a virtual-element property but its row says \(row.owner)")
        }
        XCTAssertEqual(HierarchySchema.keys(of: .virtualElement), ["accessibilityFrameInContainerSpace"])
    }

    /// The row's form matches the JSON schema's first non-null type of the property.
    func testEveryRowHasTheFormOfTheJSONSchema() throws {
        let definitions = try XCTUnwrap(Self.jsonSchema()["$defs"])
        let expected: [String: [SchemaForm]] = [
            "boolean": [.boolean], "string": [.string, .choice], "number": [.number], "integer": [.integer, .choice],
            "array": [.strings, .rect, .point, .range, .list, .views], "object": [.object],
        ]
        for row in HierarchySchema.properties {
            let owner = row.owner == .virtualElement ? "virtualElement" : "view"
            let spec = try XCTUnwrap(definitions[owner]?["properties"]?[row.key], row.key)
            let types = Self.types(spec).filter { $0 != "null" }
            XCTAssertTrue(
                types.contains { expected[$0]?.contains(row.form) ?? false },
                "'\(row.key)': form \(row.form) but the JSON schema says \(types)")
        }
    }

    /// The JSON types a property spec allows, through nested `oneOf` / `anyOf`.
    static func types(_ spec: JSON) -> [String] {
        if let alternatives = spec["oneOf"]?.arrayValue ?? spec["anyOf"]?.arrayValue {
            return alternatives.flatMap(types)
        }
        if spec["$ref"] != nil { return ["array", "object"] }
        if spec["enum"] != nil { return ["string"] }
        return spec["type"]?.arrayValue?.compactMap(\.stringValue) ?? [spec["type"]?.stringValue ?? "object"]
    }

    func testKeysAreUniqueAndLookUp() {
        let keys = HierarchySchema.properties.map(\.key)
        XCTAssertEqual(Set(keys).count, keys.count)
        XCTAssertEqual(HierarchySchema.property(named: "isHidden")?.form, .boolean)
        XCTAssertNil(HierarchySchema.property(named: "isHiddenn"))
    }

    /// Lenient reading: a value in another form is not read (nil), never coerced.
    func testCodecsReadOnlyTheModelledForm() {
        XCTAssertEqual(SchemaCodec<Bool>.boolean.decode(true), true)
        XCTAssertNil(SchemaCodec<Bool>.boolean.decode(1))
        XCTAssertEqual(SchemaCodec<Double>.number.decode(0.5), 0.5)
        XCTAssertNil(SchemaCodec<Double>.number.decode(.number(.infinity)))
        XCTAssertEqual(SchemaCodec<Int>.integer.decode(3), 3)
        XCTAssertNil(SchemaCodec<Int>.integer.decode(1.5))
        XCTAssertEqual(SchemaCodec<[String]>.strings.decode(["a", "b"]), ["a", "b"])
        XCTAssertNil(SchemaCodec<[String]>.strings.decode(["a", 1]))
        XCTAssertEqual(SchemaCodec<Int>.integer.encode(3), 3)
        XCTAssertEqual(SchemaCodec<[String]>.strings.encode(["a"]), ["a"])
    }

    private struct Sample: Equatable {
        var flag: Bool?
        var name: String?
    }

    func testABindingTableReadsAndWritesInTableOrder() {
        let table = SchemaBindingTable<Sample>(
            covering: [],
            [SchemaBinding("isHidden", \.flag, .boolean), SchemaBinding("accessibilityLabel", \.name, .string)])
        var sample = Sample()
        XCTAssertTrue(table.read("accessibilityLabel", "OK", into: &sample))
        XCTAssertFalse(table.read("isHidden", "yes", into: &sample), "a mistyped value is not read")
        XCTAssertFalse(table.read("unknownKey", true, into: &sample))
        XCTAssertTrue(table.read("isHidden", true, into: &sample))
        XCTAssertEqual(sample, Sample(flag: true, name: "OK"))
        var object = JSONObject()
        table.write(sample, into: &object)
        XCTAssertEqual(JSON.object(object).jsonString, #"{"isHidden":true,"accessibilityLabel":"OK"}"#)
        XCTAssertEqual(table.keys, ["isHidden", "accessibilityLabel"])
    }
}
