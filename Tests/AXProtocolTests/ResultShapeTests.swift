import AXJSON
import AXProtocol
import XCTest

/// What a method answers, as the catalog declares it (D-CATALOG-5): the shape check the conformance runner applies
/// to every answer (members and their kinds), and the declarations it reads.
final class ResultShapeTests: XCTestCase {
    func testAnObjectMayHaveOnlyItsDeclaredMembers() {
        let shape = RPCMethodName.appRegister.entry.result
        XCTAssertNil(shape.mismatch(["app": "kitchen-panel", "reclaimToken": "t"]))
        XCTAssertNil(shape.mismatch(["app": "kitchen-panel"]), "a member may be absent")
        XCTAssertEqual(
            shape.mismatch(["app": "kitchen-panel", "token": "t"]), "the member `token`, which is not declared")
        XCTAssertEqual(shape.mismatch(["app"]), "array instead of an object")
    }

    func testEachMemberHasItsKind() {
        let register = RPCMethodName.appRegister.entry.result
        XCTAssertEqual(register.mismatch(["app": 3]), "the member `app` as number instead of a string")
        let revision = RPCMethodName.treeRevision.entry.result
        XCTAssertNil(revision.mismatch(["revision": 4, "automationOnly": 0]))
        XCTAssertEqual(revision.mismatch(["revision": 2.5]), "the member `revision` as number instead of an integer")
        XCTAssertEqual(revision.mismatch(["revision": "4"]), "the member `revision` as string instead of an integer")
        let action = RPCMethodName.actionActivate.entry.result
        XCTAssertEqual(action.mismatch(["performed": "yes"]), "the member `performed` as string instead of a boolean")
    }

    func testOnlyTheMembersDeclaredNullableMayBeNull() {
        let move = RPCMethodName.focusMove.entry.result
        XCTAssertNil(move.mismatch(["from": .null, "to": "b", "heading": "next", "moved": true]))
        XCTAssertEqual(
            move.mismatch(["heading": .null]), "the member `heading` as null, which it is not declared to be")
        XCTAssertEqual(RPCCatalog.FocusMove.Member.nullable, RPCCatalog.FocusUpdate.Member.nullable)
        XCTAssertTrue(RPCCatalog.FocusMove.Member.nullable.contains(.to))
    }

    func testOtherShapes() {
        let apps = RPCMethodName.appsList.entry.result
        XCTAssertNil(apps.mismatch([["id": "a"], ["id": "b", "focused": .null]]))
        XCTAssertEqual(
            apps.mismatch([["id": "a"], ["bogus": "b"]]), "an item: the member `bogus`, which is not declared")
        XCTAssertNil(RPCResultShape.element.mismatch(["id": "sw", "role": "switch"]))
        XCTAssertNotNil(RPCResultShape.element.mismatch(["role": "switch"]))
        XCTAssertNil(RPCResultShape.string.mismatch("pong"))
        XCTAssertNotNil(RPCResultShape.string.mismatch(["pong": true]))
        XCTAssertNil(RPCResultShape.null.mismatch(.null))
        XCTAssertNotNil(RPCResultShape.null.mismatch(false))
    }

    /// The provider role's answers, as Specs/protocol.md §Provider role describes them.
    func testTheProviderRolesAnswersAreDeclared() {
        XCTAssertEqual(RPCCatalog.AppRegister.Member.allCases.map(\.rawValue), ["app", "reclaimToken"])
        XCTAssertEqual(RPCCatalog.HierarchySet.Member.allCases.map(\.rawValue), ["app", "revision", "elements"])
        XCTAssertEqual(RPCCatalog.AccessibilityPost.Member.allCases.map(\.rawValue), ["posted"])
        XCTAssertEqual(RPCMethodName.elementGet.entry.result, .element)
    }
}
