import AXJSON
import AXTrace
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The trace format's writer and reader (Specs/trace.md): lines, bounds, secrets, the reader's problems on hostile
/// files, the proxy's message splitter, and the text of `axquery trace show`.
final class AXTraceTests: XCTestCase {
    func header() -> TraceHeader {
        TraceHeader(source: .swift, title: "unit", started: "2026-11-28T02:10:00Z", producer: "AXTraceTests")
    }

    func step(_ method: String = "action.activate") -> TraceStep {
        var step = TraceStep(kind: .call, method: method, params: ["target": ["id": "b"]], startMs: 1.5, durationMs: 2)
        step.revision = (3, 4)
        step.diff = ["fromRevision": 3, "toRevision": 4, "updated": ["b": ["value"]]]
        step.focus = (TraceFocus(engine: nil, accessibility: "a"), TraceFocus(engine: "b", accessibility: "b"))
        step.result = ["performed": true]
        return step
    }

    /// A whole file: header, steps, end line — as TraceRecorder writes it.
    func lines(_ steps: Int, end: Bool = true) -> [String] {
        var out = [header().json.jsonString]
        for number in 1...max(1, steps) where steps > 0 { out.append(step().json(number: number).0.jsonString) }
        if end { out.append(TraceEnd(steps: steps).json.jsonString) }
        return out
    }

    func read(_ lines: [String], newline: Bool = true) -> TraceReading {
        TraceReading(bytes: Array((lines.joined(separator: "\n") + (newline ? "\n" : "")).utf8))
    }

    // MARK: - Reading

    func testAWholeTraceReadsBackEveryStepAndTheEnd() {
        let reading = read(lines(3))
        XCTAssertNil(reading.problem)
        XCTAssertEqual(reading.header?["axtrace"], 1)
        XCTAssertEqual(reading.steps.map { $0["step"]?.intValue }, [1, 2, 3])
        XCTAssertEqual(reading.steps[0]["revision"], [3, 4])
        XCTAssertEqual(reading.steps[0]["focus"]?["after"]?["engine"], "b")
        XCTAssertEqual(reading.end?["steps"], 3)
    }

    func testACorruptLineIsWhereTheTraceBreaksAndTheStepsBeforeItAreKept() {
        var file = lines(3)
        file[2] = String(file[2].prefix(20))  // step 2 cut in the middle
        let reading = read(file)
        XCTAssertEqual(reading.steps.count, 1)
        guard case .badLine(let line, let why)? = reading.problem else {
            return XCTFail("\(String(describing: reading.problem))")
        }
        XCTAssertEqual(line, 3)
        XCTAssertTrue(why.hasPrefix("not JSON"), why)
        XCTAssertTrue(reading.problem?.isBroken == true)
    }

    func testATruncatedFileSaysWhereItEnds() {
        let whole = lines(4, end: false).joined(separator: "\n") + "\n"
        let reading = TraceReading(bytes: Array(whole.utf8))
        XCTAssertEqual(reading.problem, .noEnd(afterStep: 4))
        XCTAssertEqual(
            reading.problem?.message,
            "the trace ends after step 4 without its end line (the recorder stopped mid-run)")
        XCTAssertFalse(reading.problem?.isBroken ?? true)
        // Cut inside the last line: that line is where it breaks, and it says the file ends inside it.
        let cut = TraceReading(bytes: Array(whole.utf8.dropLast(30)))
        XCTAssertEqual(cut.steps.count, 3)
        guard case .badLine(5, let why)? = cut.problem else { return XCTFail("\(String(describing: cut.problem))") }
        XCTAssertTrue(why.contains("the file ends inside it"), why)
    }

    func testANewerFormatAndAFileThatIsNoTraceAreNamed() {
        var file = lines(1)
        file[0] = #"{"axtrace": 2, "source": "python"}"#
        XCTAssertEqual(read(file).problem, .newerVersion(2))
        XCTAssertEqual(
            TraceProblem.newerVersion(2).message,
            "trace format 2 is newer than this reader (1): update axclient / axquery")
        XCTAssertEqual(read([]).problem, .notATrace)
        XCTAssertEqual(TraceReading(bytes: []).problem, .notATrace)
        XCTAssertEqual(read([#"{"windows": []}"#]).problem, .notATrace)
        XCTAssertEqual(read(["\u{0}\u{1}garbage"]).problem, .notATrace)
        XCTAssertEqual(read([#"{"axtrace": "1"}"#]).problem, .notATrace)
        XCTAssertEqual(read([#"{"axtrace": 1e300}"#]).problem, .notATrace)
    }

    func testStepsOutOfSequenceUnknownKindsAndLinesAfterTheEndAreRefused() {
        var file = lines(2)
        file[2] = step().json(number: 5).0.jsonString
        XCTAssertEqual(read(file).problem, .badLine(line: 3, why: "step 5 where step 2 was expected"))
        file = lines(1)
        var odd = step().json(number: 1).0.objectValue ?? [:]
        odd["kind"] = "dance"
        file[1] = JSON.object(odd).jsonString
        guard case .badLine(2, let why)? = read(file).problem else { return XCTFail() }
        XCTAssertTrue(why.contains("no kind of call, key, tool, wait, note"), why)
        file = lines(1) + [step().json(number: 2).0.jsonString]
        XCTAssertEqual(read(file).problem, .badLine(line: 4, why: "a line after the end line"))
        file = lines(1)
        file.insert("[1, 2]", at: 1)
        XCTAssertEqual(read(file).problem, .badLine(line: 2, why: "not a JSON object"))
    }

    /// Hostile files: every cut and every flipped byte of a good trace reads without trapping, keeps only steps that
    /// stand before the damage, and names a problem or reads whole.
    func testDamagedFilesNeverTrapAndKeepOnlyTheStepsBeforeTheDamage() {
        let good = Array((lines(6).joined(separator: "\n") + "\n").utf8)
        var generator = SplitMix(seed: 36)
        for length in stride(from: 0, through: good.count, by: 7) {
            let reading = TraceReading(bytes: Array(good.prefix(length)))
            XCTAssertLessThanOrEqual(reading.steps.count, 6)
            if length < good.count { XCTAssertNotNil(reading.problem, "cut at \(length)") }
        }
        for _ in 0..<2_000 {
            var damaged = good
            let index = Int(generator.next() % UInt64(good.count))
            damaged[index] = UInt8(truncatingIfNeeded: generator.next())
            let reading = TraceReading(bytes: damaged)
            let intact = TraceReading(bytes: Array(good.prefix(index)))
            XCTAssertGreaterThanOrEqual(reading.steps.count, max(0, intact.steps.count - 1), "damage at \(index)")
            for (number, step) in reading.steps.enumerated() { XCTAssertEqual(step["step"]?.intValue, number + 1) }
        }
    }

    func testAnOverlongLineIsRefusedWithoutParsingIt() {
        var file = lines(1)
        file[1] = "\"" + String(repeating: "a", count: TraceFormat.maxLineBytes) + "\""
        guard case .badLine(2, let why)? = read(file).problem else { return XCTFail() }
        XCTAssertTrue(why.hasPrefix("longer than"), why)
    }

    func testCarriageReturnsAreAccepted() {
        let reading = TraceReading(bytes: Array((lines(2).joined(separator: "\r\n") + "\r\n").utf8))
        XCTAssertNil(reading.problem)
        XCTAssertEqual(reading.steps.count, 2)
    }

    // MARK: - Bounds and secrets

    func testADiffOverTheBoundKeepsTheFirstOpsAndCountsTheRest() {
        let added = (0..<1_500).map { JSON.string("a\($0)") }
        var updated = JSONObject()
        for index in 0..<1_000 { updated["u\(index)"] = ["value"] }
        var step = step()
        step.diff = ["removed": ["r"], "added": .array(added), "updated": .object(updated)]
        let (json, dropped) = step.json(number: 1)
        XCTAssertEqual(dropped.diffOps, 501)
        XCTAssertEqual(json["diffDropped"], 501)
        XCTAssertEqual(json["diff"]?["added"]?.arrayValue?.count, 1_500)
        XCTAssertEqual(json["diff"]?["updated"]?.objectValue?.count, 499)
        XCTAssertNil(self.step().json(number: 1).0["diffDropped"])
    }

    func testALargeResultIsCutToAPrefixOnACharacterBoundary() {
        var step = step()
        step.result = ["text": .string(String(repeating: "é", count: 5_000))]
        let (json, _) = step.json(number: 1)
        XCTAssertEqual(json["resultCut"], true)
        let kept = json["result"]?.stringValue ?? ""
        XCTAssertLessThanOrEqual(kept.utf8.count, TraceFormat.maxResultBytes)
        XCTAssertTrue(kept.hasPrefix("{\"text\":\"éé"), kept)
        XCTAssertFalse(kept.contains("\u{FFFD}"))
    }

    func testEventsOverTheBoundAreCounted() {
        var step = step()
        step.events = (0..<250).map { ["t": JSON($0), "type": "tree.changed"] }
        let (json, dropped) = step.json(number: 1)
        XCTAssertEqual(json["events"]?.arrayValue?.count, TraceFormat.maxEvents)
        XCTAssertEqual(json["eventsDropped"], 50)
        XCTAssertEqual(dropped.events, 50)
    }

    func testTextTypedIntoASecureElementAndTokensNeverEnterATrace() {
        let params: JSONObject = ["target": ["id": "pin"], "text": "1234", "token": "s3cret", "auth": "x"]
        let masked = TraceSecrets.params(params, secureTarget: true)
        XCTAssertEqual(masked["text"], .string(TraceFormat.maskedText))
        XCTAssertEqual(masked["masked"], true)
        XCTAssertNil(masked["token"])
        XCTAssertNil(masked["auth"])
        let line = TraceStep(kind: .call, method: "action.typeText", params: masked, startMs: 0, durationMs: 0)
            .json(number: 1).0.jsonString
        XCTAssertFalse(line.contains("1234") || line.contains("s3cret"), line)
        let plain = TraceSecrets.params(params, secureTarget: false)
        XCTAssertEqual(plain["text"], "1234")
        XCTAssertNil(plain["masked"])
        XCTAssertTrue(TraceSecrets.isSecure(["states": ["enabled", "secure"]]))
        XCTAssertTrue(TraceSecrets.isSecure(["class": "UISecureTextField"]))
        XCTAssertFalse(TraceSecrets.isSecure(["states": ["enabled"], "class": "UITextField"]))
        XCTAssertTrue(TraceSecrets.typesText("action.typeText"))
        XCTAssertTrue(TraceSecrets.typesText("input.type"))
        XCTAssertFalse(TraceSecrets.typesText("action.activate"))
    }

    // MARK: - The recorder's file

    func testTheRecorderWritesAReadableFileLineByLine() throws {
        let path = temporaryDirectory() + "/axtrace-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).axtrace"
        defer { unlink(path) }
        let recorder = try TraceRecorder(path: path, header: header())
        XCTAssertEqual(recorder.append(step()), 1)
        XCTAssertTrue(recorder.claimSnapshot())
        XCTAssertFalse(recorder.claimSnapshot())
        XCTAssertEqual(recorder.append(step("input.key")), 2)
        // Before the end line, a reader sees both steps and that the recorder has not finished.
        XCTAssertEqual(try TraceFile.read(path).problem, .noEnd(afterStep: 2))
        recorder.countDroppedStep()
        recorder.finish()
        XCTAssertNil(recorder.append(step()))
        let reading = try TraceFile.read(path)
        XCTAssertNil(reading.problem)
        XCTAssertEqual(reading.end?["steps"], 2)
        XCTAssertEqual(reading.end?["dropped"]?["steps"], 1)
        XCTAssertEqual(reading.header?["source"], "swift")
        XCTAssertThrowsError(try TraceRecorder(path: "/nonexistent-dir/x.axtrace", header: header()))
        XCTAssertThrowsError(try TraceFile.read("/nonexistent-dir/x.axtrace"))
        XCTAssertTrue(TraceFile.rfc3339Now().hasSuffix("Z"))
    }

    // MARK: - Text

    func testTheTextSaysEachStepAndTheEnd() {
        let text = TraceText.lines(read(lines(2)))
        XCTAssertEqual(text.first?.hasPrefix("trace (format 1) from swift \"unit\""), true, text.joined())
        XCTAssertTrue(text.contains("  revision: 3 → 4"), text.joined(separator: "\n"))
        XCTAssertTrue(text.contains("  ~ updated: b {value}"), text.joined(separator: "\n"))
        XCTAssertTrue(text.contains("  focus: accessibility a → b; engine none → b"), text.joined(separator: "\n"))
        XCTAssertEqual(text.last, "end: 2 steps (dropped: 0 steps, 0 diffOps, 0 events)")
        XCTAssertEqual(text.filter { $0.hasPrefix("step ") }.count, 2)
    }

    // MARK: - The proxy's splitter

    func testTheSplitterFindsLineMessagesAcrossChunks() {
        var splitter = TraceFrameSplitter(maxFrameBytes: 64)
        let first = splitter.feed(Array("{\"a\":1}\n{\"b\"".utf8)[...])
        XCTAssertEqual(first, [.init(end: 8, bytes: Array("{\"a\":1}".utf8))])
        let second = splitter.feed(Array(":2}\n\n".utf8)[...])
        XCTAssertEqual(second, [.init(end: 4, bytes: Array("{\"b\":2}".utf8))])
    }

    func testTheSplitterFindsContentLengthMessagesAndBoundsWhatItKeeps() {
        var splitter = TraceFrameSplitter(maxFrameBytes: 8)
        let body = "{\"a\":1}"
        let stream = Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)content-length: 12\r\n\r\n".utf8)
        let frames = splitter.feed(stream[...])
        XCTAssertEqual(frames, [.init(end: 28, bytes: Array(body.utf8))])
        // The second message (12 bytes) is over the bound: reported where it ends, without its bytes.
        XCTAssertEqual(splitter.feed(Array("[1,2,3,4,5]\n".utf8)[...]), [.init(end: 12, bytes: nil)])
        var broken = TraceFrameSplitter(maxFrameBytes: 8)
        XCTAssertEqual(broken.feed(Array("Content-Length: x\r\n\r\n{}".utf8)[...]), [])
        XCTAssertTrue(broken.isBroken)
        var flood = TraceFrameSplitter(maxFrameBytes: 8)
        XCTAssertEqual(flood.feed(Array(repeating: UInt8(ascii: "C"), count: 20_000)[...]), [])
        XCTAssertTrue(flood.isBroken)
    }
}

/// $TMPDIR, else /tmp.
func temporaryDirectory() -> String {
    if let directory = getenv("TMPDIR"), directory.pointee != 0 { return String(cString: directory) }
    return "/tmp"
}

/// A small deterministic generator (SplitMix64) for the damage test.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
