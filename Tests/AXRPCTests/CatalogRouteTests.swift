import AXHub
import AXJSON
import AXProtocol
import AXSchema
import AXTestSupport
import XCTest

@testable import AXRPC

/// The server's method table and the protocol catalog (D-CATALOG-1) are one: every catalog method is answered,
/// every answered method is in the catalog, and the catalog's roles are what the router enforces.
final class CatalogRouteTests: XCTestCase {
    func installedMethods() -> Set<String> {
        let router = RPCRouter()
        AXMethods.install(on: router, hub: Hub())
        return Set(router.methods)
    }

    func testEveryCatalogMethodHasAHandler() {
        let installed = installedMethods()
        for name in RPCMethodName.allCases {
            XCTAssertTrue(
                installed.contains(name.rawValue),
                "the catalog declares '\(name.rawValue)' but AXMethods.install registers no handler for it")
        }
    }

    func testEveryHandlerHasACatalogEntry() {
        for method in installedMethods().sorted() {
            XCTAssertNotNil(
                RPCMethodName(rawValue: method),
                "'\(method)' is answered by the server but not declared in Sources/AXProtocol (RPCMethodName)")
        }
    }

    /// Every element action of AXSchema's vocabulary has its `action.<name>` method in the catalog, which declares
    /// its params once (`target`, `force` and the action's own; D-CATALOG-3): AXSchema names the actions and the
    /// `action.perform` payload, not the method's params.
    func testEveryElementActionHasItsCatalogMethod() {
        for action in ActionName.elementActions {
            guard let name = RPCMethodName(rawValue: "action.\(action.rawValue)") else {
                XCTFail("the catalog lacks 'action.\(action.rawValue)' for ActionName.\(action)")
                continue
            }
            XCTAssertTrue(
                name.entry.parameterNames.isSuperset(of: ["target", "force"]),
                "\(name.rawValue) takes no target or force")
            XCTAssertEqual(name.entry.section, .actions, name.rawValue)
        }
    }

    /// The integer-kind params of the catalog are the ones with a checked range (Specs/protocol.md §Integer
    /// parameters).
    func testIntegerParamsHaveRanges() {
        for name in RPCMethodName.allCases {
            let integers = Set(name.entry.params.filter { $0.kind == .integer }.map(\.name))
            let ranged = Set((AXMethods.integerParameters[name.rawValue] ?? [:]).keys)
            XCTAssertEqual(integers, ranged, "\(name.rawValue): integer params in the catalog vs ranges in the table")
        }
    }

    /// Every method the catalog restricts is refused to an automation connection with −32018 naming the role it
    /// needs, from the catalog alone (policy.set's handler no longer checks the operator itself).
    func testRestrictedMethodsAreRefusedByTheirCatalogRoles() async throws {
        let hub = Hub()
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let session = RPCSession(peer: ProtocolFakePeer())
        session.initialized = true
        session.role = "automation"
        var restricted = 0
        for name in RPCMethodName.allCases where name.entry.callers != .everyone {
            restricted += 1
            let frame = #"{"jsonrpc":"2.0","id":1,"method":"\#(name.rawValue)","params":{}}"#
            let reply = await router.handle(frame: Array(frame.utf8), session: session)
            let json = try JSON.parse(reply ?? [])
            XCTAssertEqual(json["error"]?["code"]?.intValue, -32018, "\(name.rawValue): \(json)")
            let needs = name.entry.callers == .providers ? "provider" : "operator"
            XCTAssertEqual(json["error"]?["data"]?["needs"]?.stringValue, needs, name.rawValue)
        }
        XCTAssertEqual(
            restricted, 5, "hierarchy.set, hierarchy.update, accessibility.post, input.configure, policy.set")
    }
}
