import AXCore
import AXHub
import AXJSON
import AXProtocol
import XCTest

@testable import AXRPC

/// Every member the server writes into an element object is declared in `RPCElementField`, with its kind
/// (D-CATALOG-6): `element.get`'s detail of every node, and `tree.get`'s nested nodes for every param set the writer's
/// tests use (depth and child limits, fields, a root), on the demo, audit-demo, bench and hostile trees. The conformance runner checks the same on the answers its cases see.
final class ElementFieldsTests: XCTestCase {
    func testEveryElementTheServerWritesHasOnlyDeclaredMembers() throws {
        for (name, snapshot) in try TreeGetWriterTests.trees() {
            let hub = Hub()
            let app = hub.registerApp(name: name, provider: nil)
            try hub.setSnapshot(app: app, snapshot)
            let snap = try hub.snapshot(app)
            var ids: [String] = []
            snap.tree.walk { node, _ in
                ids.append(node.id)
                return true
            }
            XCTAssertFalse(ids.isEmpty, name)
            try hub.setFocus(app: app, element: ids.first { snap.tree[$0]?.isElement == true })
            let focused = try hub.snapshot(app)
            for id in ids {
                let detail = JSON.object(AXMethods.elementDetail(id, focused))
                XCTAssertNil(RPCMethodName.elementGet.entry.result.mismatch(detail), "\(name) \(id)")
            }
            let firstChild = snap.tree.windows.first.flatMap { snap.tree[$0]?.children.first }
            for params in TreeGetWriterTests.paramSets(firstChild: firstChild) {
                var call = params
                call["app"] = .string(app)
                let session = RPCSession(peer: ProtocolFakePeer())
                session.initialized = true
                let answer = try TreeGet.value(TreeGet.request(.object(call), session, hub))
                XCTAssertNil(RPCMethodName.treeGet.entry.result.mismatch(answer), "\(name) \(JSON.object(params))")
            }
        }
    }

    func testAnUndeclaredOrMistypedElementMemberIsNamed() {
        let shape = RPCMethodName.elementGet.entry.result
        XCTAssertNil(shape.mismatch(["id": "gone", "removed": true]))
        XCTAssertEqual(shape.mismatch(["id": "b", "bogus": 1]), "the member `bogus`, which is not declared")
        XCTAssertEqual(
            shape.mismatch(["id": "b", "headingLevel": "2"]),
            "the member `headingLevel` as string instead of an integer")
        let tree = RPCMethodName.treeGet.entry.result
        XCTAssertEqual(
            tree.mismatch(["windows": [["id": "w", "children": [["id": "b", "role": 3]]]]]),
            "the member `windows` as an element: a child: the member `role` as number instead of a string")
        XCTAssertEqual(
            RPCMethodName.queryFind.entry.result.mismatch(["elements": [["role": "button"]]]),
            "the member `elements` as an element: no element (an object with an `id`)")
    }
}
