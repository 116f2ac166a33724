import AXJSON
import AXTrace
import XCTest

/// The pure half of `axquery trace replay` (D-TRACE-REPLAY-1): which steps are sent again, and how a replayed
/// step's outcome is compared with its recording.
final class TraceReplayTests: XCTestCase {
    /// A recorded observed step: `cellWifi` updated (`value`), `row9` added, focus after on `cellWifi`.
    func recorded(error: JSON = .null) -> JSONObject {
        [
            "step": 2, "kind": "call", "method": "action.activate", "params": ["target": ["id": "cellWifi"]],
            "revision": [4, 5],
            "diff": [
                "fromRevision": 4, "toRevision": 5, "added": [["id": "row9", "label": "Nine"]],
                "updated": ["cellWifi": ["value", "states"], "uptime": ["label"]],
            ],
            "focus": [
                "before": ["engine": "cellWifi", "accessibility": .null],
                "after": ["engine": "cellWifi", "accessibility": "cellWifi"],
            ],
            "error": error,
        ]
    }

    func sameShape() -> TraceDiffShape {
        var shape = TraceDiffShape()
        shape.added = ["row9"]
        shape.updated = ["cellWifi": ["states", "value"]]
        return shape
    }

    func testTheSameIdsAndFieldsAgreeWhateverTheValuesAndTheVolatileElement() {
        let focus = TraceFocus(engine: "cellWifi", accessibility: "cellWifi")
        let outcome = TraceOutcome(errorCode: nil, diff: sameShape(), focusAfter: focus)
        XCTAssertEqual(TraceReplay.compare(recorded(), outcome, volatile: ["uptime"]), [])
        // Without the volatile rule the clock's tick in the recording is a difference.
        let strict = TraceReplay.compare(recorded(), outcome, volatile: [])
        XCTAssertEqual(strict.map(\.what), ["diff"])
        XCTAssertEqual(strict.first?.expected, "+row9 ~cellWifi{states,value} ~uptime{label}")
    }

    func testAMissingAdditionAnotherFieldAndAnotherFocusDiffer() {
        var shape = sameShape()
        shape.added = []
        shape.updated["cellWifi"] = ["value"]
        let outcome = TraceOutcome(
            errorCode: nil, diff: shape, focusAfter: TraceFocus(engine: "tabHome", accessibility: "cellWifi"))
        let differences = TraceReplay.compare(recorded(), outcome, volatile: ["uptime"])
        XCTAssertEqual(
            differences,
            [
                TraceDifference(what: "diff", expected: "+row9 ~cellWifi{states,value}", happened: "~cellWifi{value}"),
                TraceDifference(what: "focus.engine", expected: "cellWifi", happened: "tabHome"),
            ])
    }

    func testErrorsCompareByCodeAndAFailedReplayIsNotComparedFurther() {
        let failed = TraceOutcome(errorCode: -32010, diff: TraceDiffShape(), focusAfter: nil)
        XCTAssertEqual(
            TraceReplay.compare(recorded(), failed, volatile: []),
            [TraceDifference(what: "error", expected: "no error", happened: "error -32010")])
        let recordedError = recorded(error: ["code": -32010, "message": "no element"])
        XCTAssertEqual(
            TraceReplay.compare(recordedError, TraceOutcome(errorCode: -32011), volatile: []).first?.expected,
            "error -32010 no element")
    }

    func testReadOnlyStepsDifferOnlyByTheirError() {
        let light: JSONObject = [
            "step": 3, "kind": "call", "method": "query.count", "params": ["selector": "tab"], "revision": .null,
            "result": ["count": 3], "error": .null,
        ]
        XCTAssertEqual(TraceReplay.compare(light, TraceOutcome(errorCode: nil), volatile: []), [])
        XCTAssertEqual(TraceReplay.compare(light, TraceOutcome(errorCode: -32011), volatile: []).count, 1)
        XCTAssertEqual(
            TraceReplay.plan(light, app: nil),
            .call(method: "query.count", params: ["selector": "tab"], observed: false))
    }

    func testPlans() {
        XCTAssertEqual(
            TraceReplay.plan(recorded(), app: "Demo"),
            .call(method: "action.activate", params: ["target": ["id": "cellWifi"], "app": "Demo"], observed: true))
        let masked: JSONObject = [
            "step": 1, "kind": "call", "method": "action.typeText",
            "params": ["target": ["id": "pw"], "text": "•••", "masked": true],
        ]
        XCTAssertEqual(TraceReplay.plan(masked, app: nil), .masked)
        let tool: JSONObject = [
            "step": 1, "kind": "tool", "method": "click", "params": ["ref": "a"], "revision": [1, 2],
        ]
        XCTAssertEqual(TraceReplay.plan(tool, app: nil), .tool(name: "click", arguments: ["ref": "a"], observed: true))
        XCTAssertEqual(
            TraceReplay.plan(["step": 1, "kind": "note", "method": "test.failed"], app: nil), .skip("a note"))
        guard case .skip = TraceReplay.plan(["step": 1, "kind": "call", "method": "initialize"], app: nil) else {
            return XCTFail("initialize is the replaying connection's own")
        }
    }

    func testHostileDiffsReadAsTheirUsableParts() {
        let shape = TraceDiffShape(["added": [1, ["id": "a"], ["no": "id"], "b"], "updated": ["c": "value"]])
        XCTAssertEqual(shape.added, ["a", "b"])
        XCTAssertEqual(shape.updated, ["c": []])
        XCTAssertEqual(TraceDiffShape(.string("x")), TraceDiffShape())
        XCTAssertEqual(TraceDiffShape(nil).text, "no change")
        XCTAssertEqual(TraceReplay.volatileIds(inGap: ["updated": ["uptime": ["label"]], "added": ["x"]]), ["uptime"])
    }
}
