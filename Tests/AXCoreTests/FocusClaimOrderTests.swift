import AXCore
import AXJSON
import XCTest

/// What a patch's `isFocused` ops claim is read from the patch's end state, not from the last op (D-FOCUS-PATCH-1).
final class FocusClaimOrderTests: XCTestCase {
    func store() throws -> HierarchyStore {
        let s = HierarchyStore()
        try s.setSnapshot(StoreTests.base)
        return s
    }

    func set(_ id: String, focused: Bool) -> JSON {
        ["op": "set", "id": .string(id), "properties": ["isFocused": .bool(focused)]]
    }

    func testMovingFocusThenResigningTheOldHolderFocusesTheNewOne() throws {
        let s = try store()
        try s.apply(json: [set("b", focused: true)])
        try s.apply(json: [set("a", focused: true), set("b", focused: false)])
        XCTAssertEqual(s.focusClaim?.viewID, "a")
        XCTAssertEqual(s.focusClaim?.isFocused, true)
        XCTAssertEqual(s.focusClaim?.revision, s.revision)
    }

    func testResigningFirstThenFocusingGivesTheSameAnswer() throws {
        let s = try store()
        try s.apply(json: [set("b", focused: false), set("a", focused: true)])
        XCTAssertEqual(s.focusClaim, FocusClaim(revision: s.revision, viewID: "a", isFocused: true))
    }

    func testTwoClaimsTheLastSetWins() throws {
        let s = try store()
        try s.apply(json: [set("a", focused: true), set("b", focused: true)])
        XCTAssertEqual(s.focusClaim?.viewID, "b")
        try s.apply(json: [set("b", focused: true), set("a", focused: true)])
        XCTAssertEqual(s.focusClaim?.viewID, "a")
    }

    func testAViewSetTrueThenFalseInOnePatchClaimsNothing() throws {
        let s = try store()
        try s.apply(json: [set("a", focused: true), set("a", focused: false), set("b", focused: false)])
        XCTAssertEqual(s.focusClaim?.isFocused, false)
        XCTAssertEqual(s.focusClaim?.resigned, ["a", "b"])
    }

    func testAClaimedViewRemovedByTheSamePatchIsNotFocused() throws {
        let s = try store()
        try s.apply(json: [set("b", focused: true), ["op": "remove", "id": "box"]])
        XCTAssertEqual(s.focusClaim?.isFocused, false)
        XCTAssertEqual(s.focusClaim?.resigned, ["b"])
    }

    func testAPatchWithoutIsFocusedKeepsTheOldClaim() throws {
        let s = try store()
        try s.apply(json: [set("a", focused: true)])
        let claim = s.focusClaim
        try s.apply(json: [["op": "set", "id": "b", "properties": ["accessibilityLabel": "Bee"]]])
        XCTAssertEqual(s.focusClaim, claim)
    }
}
