import AXATSPIModel
import AXCore
import XCTest

/// The `Collection` match rules (atk-adaptor's semantics) over `Snapshots.controls()`, without a bus.
final class CollectionModelTests: XCTestCase {
    var snapshot: ServedSnapshot!
    var model: CollectionModel!

    override func setUpWithError() throws {
        snapshot = try Snapshots.served(Snapshots.controls())
        model = CollectionModel(snapshot: snapshot)
    }

    func roleWords(_ roles: [ATSPIRole]) -> [UInt32] {
        var words = [UInt32](repeating: 0, count: 4)
        for role in roles { words[Int(role.rawValue / 32)] |= 1 << (role.rawValue % 32) }
        return words
    }

    func rule(roles: [ATSPIRole] = [], _ roleMatch: CollectionMatchType = .any) -> MatchRule {
        var rule = MatchRule()
        rule.roleWords = roleWords(roles)
        rule.roleMatch = roleMatch
        return rule
    }

    func matches(_ rule: MatchRule, _ order: CollectionSortOrder = .canonical, count: Int32 = 0) -> [String] {
        model.matches(in: .applicationRoot, rule: rule, sortOrder: order, count: count, traverse: true)
    }

    func testRolesAllAnyNone() {
        XCTAssertEqual(matches(rule(roles: [.heading, .button], .any)), ["title", "ok"])
        XCTAssertEqual(matches(rule(roles: [.toggleButton], .all)), ["wifi", "bt"])
        XCTAssertEqual(matches(rule(roles: [.heading, .button], .all)), [], "an object has one role")
        XCTAssertEqual(matches(rule(roles: [.heading, .button, .frame], .none)), ["wifi", "bt"])
        XCTAssertEqual(matches(rule(roles: [.heading], .invalid)), [], "an invalid match type never matches")
        XCTAssertEqual(matches(MatchRule()), ["w", "title", "ok", "wifi", "bt"], "the empty rule matches all")
    }

    func testStatesAllAnyNone() {
        var checked = rule(roles: [.toggleButton])
        checked.states = ATSPIStateSet([.checkable, .checked]).bits
        checked.stateMatch = .all
        XCTAssertEqual(matches(checked), ["wifi"])
        checked.stateMatch = .any
        XCTAssertEqual(matches(checked), ["wifi", "bt"], "both are checkable")
        checked.states = ATSPIStateSet([.checked]).bits
        checked.stateMatch = .none
        XCTAssertEqual(matches(checked), ["bt"])
    }

    func testAttributesWithAlternativesAndCase() {
        var switches = MatchRule()
        switches.setAttributes(["XML-Roles": "button:Switch"])
        switches.attributeMatch = .any
        XCTAssertEqual(matches(switches), ["wifi", "bt"])
        switches.attributeMatch = .none
        XCTAssertEqual(matches(switches), ["w", "title", "ok"])
        XCTAssertEqual(MatchRule.splitAlternatives("a:b\\:c"), ["a", "b:c"])
    }

    func testInterfacesAndNamedActions() {
        var clickable = rule(roles: [.button, .heading])
        clickable.setInterfaces(["Action(click)"])
        clickable.interfaceMatch = .all
        XCTAssertEqual(matches(clickable), ["ok"])
        clickable.setInterfaces(["action(dismiss)"])
        XCTAssertEqual(matches(clickable), [])
        clickable.setInterfaces(["org.a11y.atspi.Text", "action"])
        clickable.interfaceMatch = .any
        XCTAssertEqual(matches(clickable), ["title", "ok"], "the heading has text, the button an action")
        clickable.setInterfaces(["nosuchinterface"])
        clickable.interfaceMatch = .all
        XCTAssertEqual(matches(clickable), [])
        clickable.interfaceMatch = .none
        XCTAssertEqual(matches(clickable), ["title", "ok"])
    }

    func testSortOrdersCountsAndRelativeSearches() {
        let controls = rule(roles: [.heading, .button, .toggleButton], .any)
        XCTAssertEqual(matches(controls, .reverseCanonical), ["bt", "wifi", "ok", "title"])
        XCTAssertEqual(matches(controls, .canonical, count: 2), ["title", "ok"])
        XCTAssertEqual(matches(controls, .flow), [], "unsupported orders answer nothing, like atk-adaptor")
        XCTAssertEqual(
            model.matches(
                in: .applicationRoot, relativeTo: "ok", before: false, rule: controls, sortOrder: .canonical,
                count: 0, traverse: true), ["wifi", "bt"])
        XCTAssertEqual(
            model.matches(
                in: .applicationRoot, relativeTo: "wifi", before: true, rule: controls, sortOrder: .canonical,
                count: 0, traverse: true), ["ok", "title"], "GetMatchesTo: nearest first")
        XCTAssertNil(
            model.matches(
                in: .applicationRoot, relativeTo: "gone", before: true, rule: controls, sortOrder: .canonical,
                count: 0, traverse: true))
        XCTAssertEqual(
            model.matches(in: .applicationRoot, rule: MatchRule(), sortOrder: .canonical, count: 0, traverse: false),
            ["w"], "without traversal only the children")
    }
}
