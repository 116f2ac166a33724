import AXJSON
import AXProtocol
import XCTest

/// What a method answers, as the catalog declares it (D-CATALOG-5): the shape check the conformance runner applies
/// to every answer, and the declarations it reads.
final class ResultShapeTests: XCTestCase {
    func testAnObjectMayHaveOnlyItsDeclaredMembers() {
        let shape = RPCResultShape.object(["app", "reclaimToken"])
        XCTAssertNil(shape.mismatch(["app": "kitchen-panel", "reclaimToken": "t"]))
        XCTAssertNil(shape.mismatch(["app": "kitchen-panel"]), "a member may be absent")
        XCTAssertEqual(
            shape.mismatch(["app": "kitchen-panel", "token": "t"]), "the member `token`, which is not declared")
        XCTAssertEqual(shape.mismatch(["app"]), "array instead of an object")
    }

    func testOtherShapes() {
        XCTAssertNil(RPCResultShape.objects(["id"]).mismatch([["id": "a"], ["id": "b"]]))
        XCTAssertEqual(
            RPCResultShape.objects(["id"]).mismatch([["id": "a"], ["name": "b"]]),
            "an item: the member `name`, which is not declared")
        XCTAssertNil(RPCResultShape.element.mismatch(["id": "sw", "role": "switch"]))
        XCTAssertNotNil(RPCResultShape.element.mismatch(["role": "switch"]))
        XCTAssertNil(RPCResultShape.string.mismatch("pong"))
        XCTAssertNotNil(RPCResultShape.string.mismatch(["pong": true]))
        XCTAssertNil(RPCResultShape.null.mismatch(.null))
        XCTAssertNotNil(RPCResultShape.null.mismatch(false))
    }

    /// The provider role's answers, as Specs/protocol.md §Provider role describes them.
    func testTheProviderRolesAnswersAreDeclared() {
        XCTAssertEqual(RPCMethodName.appRegister.entry.result, .object(["app", "reclaimToken"]))
        XCTAssertEqual(RPCMethodName.hierarchySet.entry.result, .object(["app", "revision", "elements"]))
        XCTAssertEqual(RPCMethodName.accessibilityPost.entry.result, .object(["posted"]))
        XCTAssertEqual(RPCMethodName.elementGet.entry.result, .element)
    }
}
