import XCTest

@testable import AXFuzzTargets

/// The `atspi-model` fuzz target reaches the model: every interface it dispatches is served by some node of the
/// demo snapshot, a well-typed call of every method gets a typed answer there, and a wrong-typed one the typed
/// `invalidArgs` naming the expected signature.
final class ATSPIModelFuzzTests: XCTestCase {
    func testEveryMethodAnswersOnANodeServingItsInterface() {
        for (index, entry) in ATSPIModelFuzz.methods.enumerated() {
            let serving = ATSPIModelFuzz.implementers[index]
            XCTAssertFalse(serving.isEmpty, "no demo node serves \(entry.name)")
            guard let node = serving.first else { continue }
            for (member, signature) in entry.members {
                let arguments: [ATSPIModelFuzz.Argument] = signature.map { code in
                    switch code {
                    case "i": return .int32(0)
                    case "u": return .uint32(0)
                    case "s": return .string("")
                    default: return .boolean(true)
                    }
                }
                var check = FuzzCheck()
                let outcome = ATSPIModelFuzz.dispatch(
                    .node(node), interface: entry.interface, member: member, arguments: arguments, check: &check)
                if case .answer = outcome {} else { XCTFail("\(entry.name).\(member) on \(node.id): \(outcome)") }
                XCTAssertEqual(check.failures, [], "\(entry.name).\(member)")
                let wrong = ATSPIModelFuzz.dispatch(
                    .node(node), interface: entry.interface, member: member, arguments: [.string("x")] + arguments,
                    check: &check)
                XCTAssertEqual(
                    wrong, .invalidArgs(expected: signature, got: "s" + signature), "\(entry.name).\(member)")
            }
        }
    }

    /// The application root serves Accessible and Collection only; an unknown member is `unknownMethod`.
    func testTheApplicationRootAndUnknownMembers() throws {
        var check = FuzzCheck()
        let text = ATSPIModelFuzz.dispatch(
            .applicationRoot, interface: .text, member: "GetText", arguments: [.int32(0), .int32(1)], check: &check)
        XCTAssertEqual(text, .unknownInterface)
        let matches = ATSPIModelFuzz.dispatch(
            .applicationRoot, interface: .collection, member: "GetMatches",
            arguments: [.uint32(1), .int32(0), .boolean(true)], check: &check)
        XCTAssertEqual(matches, .answer("\(ATSPIModelFuzz.demo.nodes.count)"), "an empty rule matches every node")
        let node = try XCTUnwrap(ATSPIModelFuzz.demo.nodes.first)
        let unknown = ATSPIModelFuzz.dispatch(
            .node(node), interface: .accessible, member: "NoSuchMethod", arguments: [], check: &check)
        XCTAssertEqual(unknown, .unknownMethod)
        XCTAssertEqual(check.failures, [])
    }
}
