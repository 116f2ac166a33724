import AXCore
import AXJSON
import XCTest

/// The pure rotor engine (AXCore/Rotors; decisions.md D-ROTOR-3, D-ROTOR-4).
final class RotorEngineTests: XCTestCase {
    static func label(_ id: String, _ y: Double, header: Int? = nil) -> JSON {
        var object: JSONObject = [
            "id": .string(id), "class": "UILabel", "frame": [0, JSON(y), 200, 30], "text": .string(id),
        ]
        if let header {
            object["accessibilityTraits"] = ["header"]
            object["accessibilityHeadingLevel"] = JSON(header)
        }
        return .object(object)
    }

    static func engine(_ children: [JSON], rotors: JSON? = nil) throws -> RotorEngine {
        var container: JSONObject = [
            "id": "c", "class": "UIView", "frame": [0, 0, 400, 800], "accessibilityContainerType": "semanticGroup",
            "children": .array(children),
        ]
        if let rotors { container["accessibilityCustomRotors"] = rotors }
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [["id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800], "children": [.object(container)]]]
        ])
        return RotorEngine(index: RotorIndex(tree: store.tree))
    }

    func testDerivedHeadingsStepInDocumentOrder() throws {
        let engine = try Self.engine([
            Self.label("h1", 0, header: 1), Self.label("p", 40), Self.label("h2", 80, header: 2), Self.label("q", 120),
        ])
        XCTAssertEqual(
            engine.step("heading", at: nil, from: nil, direction: .next)?.item?.target, "h1",
            "X24: empty item, next → first")
        XCTAssertEqual(
            engine.step("heading", at: nil, from: nil, direction: .previous)?.item?.target, "h2",
            "X24: empty item, previous → last")
        XCTAssertEqual(
            engine.step("heading", at: nil, from: RotorItem(target: "p"), direction: .next)?.item?.target, "h2")
        XCTAssertEqual(
            engine.step("heading", at: nil, from: RotorItem(target: "p"), direction: .previous)?.item?.target, "h1")
        XCTAssertEqual(
            engine.step("heading", at: nil, from: RotorItem(target: "h2"), direction: .previous)?.item?.target, "h1")
        XCTAssertNil(
            engine.step("heading", at: nil, from: RotorItem(target: "q"), direction: .next)?.item,
            "past the end: no item, no wrap")
        XCTAssertEqual(engine.step("headingLevel2", at: nil, from: nil, direction: .next)?.item?.target, "h2")
        XCTAssertNil(engine.step("noSuchRotor", at: nil, from: nil, direction: .next))
    }

    func testCustomListUsesDocumentOrderWhenTheCurrentItemIsNotListed() throws {
        let engine = try Self.engine(
            [Self.label("a", 0), Self.label("b", 40), Self.label("m", 80), Self.label("d", 120)],
            rotors: [["name": "Picked", "items": ["d", "b"]]])
        // The list order is the app's: from d (listed) the next item is b.
        XCTAssertEqual(
            engine.step("Picked", at: "d", from: RotorItem(target: "d"), direction: .next)?.item?.target, "b")
        // m is not listed: the first listed item after m in document order is d; before m, b.
        XCTAssertEqual(
            engine.step("Picked", at: "m", from: RotorItem(target: "m"), direction: .next)?.item?.target, "d")
        XCTAssertEqual(
            engine.step("Picked", at: "m", from: RotorItem(target: "m"), direction: .previous)?.item?.target, "b")
        // X54: listed at a descendant, declared by the container.
        let listed = try XCTUnwrap(engine.list(at: "a").first)
        XCTAssertEqual(listed.name, "Picked")
        XCTAssertEqual(listed.source, .custom)
        XCTAssertEqual(listed.declaredBy, "c")
        XCTAssertEqual(listed.count, 2)
    }

    func testCustomRotorOfASystemTypeHidesTheDerivedOne() throws {
        let engine = try Self.engine(
            [Self.label("h1", 0, header: 1), Self.label("h2", 80, header: 1)],
            rotors: [["systemType": "heading", "items": ["h2"]]])
        let headings = engine.list(at: "h1").filter { $0.name == "heading" }
        XCTAssertEqual(headings.count, 1)
        XCTAssertEqual(headings.first?.source, .custom)
        XCTAssertEqual(engine.step("heading", at: "h1", from: nil, direction: .next)?.item?.target, "h2")
    }
}
