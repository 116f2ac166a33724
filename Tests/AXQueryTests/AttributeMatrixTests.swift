import AXCore
import AXJSON
import AXQuery
import XCTest

/// Every attribute name with every operator and every value form, as a client could send it: the selector is
/// refused with a typed `SelectorError` or it compiles and runs; nothing traps (the compiled form used to
/// force-unwrap the attribute's string kind, `Compiled.swift`; issue 31 review, Hostile input).
final class AttributeMatrixTests: XCTestCase {
    func testEveryNameOperatorAndValueIsRefusedOrAnswered() throws {
        let store = try Fixtures.store(Fixtures.login())
        let ctx = QueryContext(tree: store.tree, views: store.views, focusedID: "user")
        let values = ["3", "-2.5", "\"x\"", "\"\"", "/^a/", "/a/i", "Submit", "\"3\"", "button,link"]
        var answered = 0
        var refused = 0
        let operators = AttributeOp.allCases.filter { $0 != .exists }
        for name in AttributeName.allCases {
            let tests = operators.flatMap { op in values.map { "*[\(name.rawValue)\(op.rawValue)\($0)]" } }
            for text in ["[\(name.rawValue)]", "[\(name.rawValue) i]"] + tests {
                do {
                    let selector = try Selector(parsing: text)
                    let found = try QueryEngine.find(selector, in: ctx)
                    XCTAssertEqual(try QueryEngine.count(selector, in: ctx), found.count, text)
                    answered += 1
                } catch {
                    XCTAssertFalse(error.message.isEmpty, text)
                    refused += 1
                }
            }
        }
        XCTAssertGreaterThan(answered, 500, "most combinations are valid selectors")
        XCTAssertGreaterThan(refused, 50, "number attributes refuse text values with a typed error")
    }
}
