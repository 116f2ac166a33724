import AXJSON
import AXProvider
import Foundation
import XCTest

/// The typed view description covers Specs/hierarchy.schema.json and encodes to the JSON form.
final class ViewDescriptionTests: XCTestCase {
    static func schema() throws -> JSON {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Specs/hierarchy.schema.json"), encoding: .utf8)
        return try JSON.parse(text)
    }

    /// A valid value for a schema property: the first non-null alternative, built from the schema itself.
    static func sample(_ spec: JSON) -> JSON {
        if let alternatives = spec["oneOf"]?.arrayValue {
            for alternative in alternatives where alternative["type"]?.stringValue != "null" {
                return sample(alternative)
            }
        }
        if let choices = spec["enum"]?.arrayValue, let first = choices.first(where: { !$0.isNull }) {
            return first
        }
        if spec["$ref"]?.stringValue == "#/$defs/view" {
            return ["id": "child", "class": "UIView"]
        }
        let types = spec["type"]?.arrayValue?.compactMap(\.stringValue) ?? [spec["type"]?.stringValue].compactMap { $0 }
        switch types.first(where: { $0 != "null" }) {
        case "string":
            return spec["pattern"] != nil ? "#336699" : "sample"
        case "boolean":
            return true
        case "integer":
            return 2
        case "number":
            return 0.5
        case "array":
            if let prefix = spec["prefixItems"]?.arrayValue {
                return .array(prefix.indices.map { JSON($0 + 1) })
            }
            let count = spec["minItems"]?.intValue ?? 1
            let item = spec["items"].map(sample) ?? "sample"
            return .array(Array(repeating: item, count: max(count, 1)))
        case "object":
            var object = JSONObject()
            for (key, property) in spec["properties"]?.objectValue ?? [:] {
                object[key] = sample(property)
            }
            return .object(object)
        default:
            return "sample"
        }
    }

    /// Every property the schema defines for a view or a virtual element is a typed property of the model: a
    /// valid value of it is read into that property (not kept aside in `extra`) and encoded back unchanged.
    func testEveryPropertyOfTheSchemaIsRepresentable() throws {
        let definitions = try XCTUnwrap(Self.schema()["$defs"])
        let modelled = Set(ViewDescription.propertyNames + AccessibilityProperties.propertyNames + ["id", "children"])
        let viewProperties = try XCTUnwrap(definitions["view"]?["properties"]?.objectValue)
        XCTAssertGreaterThan(viewProperties.count, 80, "the schema's view properties were read")
        for (key, spec) in viewProperties {
            XCTAssertTrue(modelled.contains(key), "ViewDescription has no property for '\(key)'")
            var json: JSONObject = ["id": "v"]
            json[key] = Self.sample(spec)
            let view = try XCTUnwrap(ViewDescription(json: .object(json)), key)
            XCTAssertEqual(view.extra, [:], "'\(key)' = \(json[key]!.jsonString) was not read into a typed property")
            XCTAssertEqual(view.json, .object(json), key)
        }
        let virtualModelled = Set(VirtualElementDescription.propertyNames + AccessibilityProperties.propertyNames)
        let virtualProperties = try XCTUnwrap(definitions["virtualElement"]?["properties"]?.objectValue)
        for (key, spec) in virtualProperties where key != "id" {
            XCTAssertTrue(virtualModelled.contains(key), "VirtualElementDescription has no property for '\(key)'")
            var json: JSONObject = ["id": "e"]
            json[key] = Self.sample(spec)
            let element = try XCTUnwrap(VirtualElementDescription(json: .object(json)), key)
            XCTAssertEqual(element.extra, [:], "'\(key)' was not read into a typed property")
            XCTAssertEqual(element.json, .object(json), key)
        }
    }

    /// A typed hierarchy encodes to exactly the JSON an app would have written by hand.
    func testTypedDescriptionEncodesToTheJSONForm() throws {
        var cell = ViewDescription(
            id: "cellWifi", viewClass: "UITableViewCell", frame: ViewRect(x: 0, y: 0, width: 390, height: 44))
        var wifi = ViewDescription(
            id: "wifiSwitch", viewClass: "UISwitch", frame: ViewRect(x: 323, y: 6, width: 51, height: 31))
        wifi.isOn = true
        wifi.restrictionIdentifiers = ["org.example.wifi"]
        var label = ViewDescription(
            id: "wifiLabel", viewClass: "UILabel", frame: ViewRect(x: 16, y: 0, width: 200, height: 44))
        label.text = "Wi-Fi"
        cell.children = [label, wifi]
        cell.accessibility.accessibilityCustomActions = [CustomActionDescription(id: "forget", name: "Forget network")]
        var chart = ViewDescription(
            id: "chart", viewClass: "UIView", frame: ViewRect(x: 0, y: 50, width: 390, height: 200))
        var bar = VirtualElementDescription(id: "bar1")
        bar.frame = ViewRect(x: 10, y: 60, width: 20, height: 100)
        bar.accessibility.accessibilityLabel = "Monday"
        bar.accessibility.accessibilityValue = "12"
        bar.accessibility.accessibilityTraits = ["staticText"]
        chart.accessibility.accessibilityElements = [.virtual(bar)]
        chart.accessibility.accessibilityCustomRotors = [
            CustomRotorDescription(
                name: "Bars", items: [.element("bar1"), .target("title", range: ViewRange(location: 0, length: 4))])
        ]
        chart.accessibility.accessibilityContainerType = .semanticGroup
        chart.focusGroupPriority = .prioritized
        var window = ViewDescription(
            id: "w", viewClass: "UIWindow", frame: ViewRect(x: 0, y: 0, width: 390, height: 844))
        window.isKeyWindow = true
        window.children = [cell, chart]
        let hierarchy = HierarchyDescription(
            windows: [window],
            guidedAccessRestrictions: [GuidedAccessRestrictionDescription(id: "org.example.wifi", text: "Wi-Fi switch")]
        )

        let handWritten: JSON = [
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 390, 844], "isKeyWindow": true,
                    "children": [
                        [
                            "id": "cellWifi", "class": "UITableViewCell", "frame": [0, 0, 390, 44],
                            "accessibilityCustomActions": [["id": "forget", "name": "Forget network"]],
                            "children": [
                                ["id": "wifiLabel", "class": "UILabel", "frame": [16, 0, 200, 44], "text": "Wi-Fi"],
                                [
                                    "id": "wifiSwitch", "class": "UISwitch", "frame": [323, 6, 51, 31], "isOn": true,
                                    "restrictionIdentifiers": ["org.example.wifi"],
                                ],
                            ],
                        ],
                        [
                            "id": "chart", "class": "UIView", "frame": [0, 50, 390, 200],
                            "accessibilityElements": [
                                [
                                    "id": "bar1", "frame": [10, 60, 20, 100], "accessibilityLabel": "Monday",
                                    "accessibilityValue": "12", "accessibilityTraits": ["staticText"],
                                ]
                            ],
                            "accessibilityCustomRotors": [
                                ["name": "Bars", "items": ["bar1", ["target": "title", "range": [0, 4]]]]
                            ],
                            "accessibilityContainerType": "semanticGroup", "focusGroupPriority": "prioritized",
                        ],
                    ],
                ]
            ],
            "guidedAccessRestrictions": [["id": "org.example.wifi", "text": "Wi-Fi switch"]],
        ]
        XCTAssertEqual(hierarchy.json, handWritten)
        let window0 = try XCTUnwrap(handWritten["windows"]?[0])
        XCTAssertEqual(ViewDescription(json: window0), window, "the JSON form reads back into the same description")
    }

    /// Forms the model does not type (an integer trait mask, a frame as an object, explicit nulls, unknown keys)
    /// are kept as given, so JSON stays accepted unchanged.
    func testOtherFormsAreKeptAsGiven() throws {
        let json: JSON = [
            "id": "b", "class": "UIButton", "accessibilityTraits": 1,
            "frame": ["x": 0, "y": 0, "width": 10, "height": 10],
            "accessibilityLabel": .null, "futureProperty": ["a": 1], "tag": 1.5,
        ]
        let view = try XCTUnwrap(ViewDescription(json: json))
        XCTAssertNil(view.frame)
        XCTAssertNil(view.accessibility.accessibilityTraits)
        XCTAssertEqual(
            Set(view.extra.keys), ["accessibilityTraits", "frame", "accessibilityLabel", "futureProperty", "tag"])
        XCTAssertEqual(view.json, json)
        XCTAssertNil(ViewDescription(json: ["class": "UIView"]), "a view without an id is not a view")
    }
}
