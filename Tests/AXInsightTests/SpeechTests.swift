import AXCore
import AXDemo
import AXInsight
import AXJSON
import XCTest

/// The speech models on the demo. Orca's expected lines are the ones real Orca 43 speaks for the demo
/// (Tests/Integration/test_orca.py, captured with Tools/orca_capture.sh); VoiceOver's come from the seeds' rules.
final class SpeechTests: XCTestCase {
    static func demoTree(_ change: (inout DemoApp) -> Void = { _ in }) throws -> AXTree {
        var app = DemoApp()
        change(&app)
        let store = HierarchyStore()
        _ = try store.setSnapshot(app.snapshot())
        return store.tree
    }

    func orca(_ id: String, _ tree: AXTree) throws -> [String] {
        let node = try XCTUnwrap(tree[id], "no node \(id)")
        return OrcaSpeech.describe(node, in: tree)
    }

    func voiceOver(_ id: String, _ tree: AXTree) throws -> VoiceOverUtterance {
        let node = try XCTUnwrap(tree[id], "no node \(id)")
        return VoiceOverSpeech.describe(node, in: tree)
    }

    // MARK: Orca 43, word for word (test_orca.py)

    func testOrcaPushButtonThenDescription() throws {
        XCTAssertEqual(
            try orca("showAlert", try Self.demoTree()), ["Reset All Settings push button", "Asks before resetting"])
    }

    func testOrcaToggleButtonPressedAndNot() throws {
        XCTAssertEqual(try orca("cellWifi", try Self.demoTree()), ["Wi-Fi toggle button pressed"])
        let off = try Self.demoTree { $0.wifi = false }
        XCTAssertEqual(try orca("cellWifi", off).first?.hasSuffix("not pressed"), true)
    }

    func testOrcaSlider() throws {
        XCTAssertEqual(try orca("textSize", try Self.demoTree()), ["Text Size horizontal slider 50%"])
    }

    func testOrcaEntry() throws {
        XCTAssertEqual(try orca("nameField", try Self.demoTree()), ["Device Name text"])
    }

    func testOrcaRadioSpinTabLinkAsCaptured() throws {
        // Real Orca 43 on the demo (Tests/Integration/test_orca_model.py, captured with Tools/orca_capture.sh).
        let tree = try Self.demoTree()
        XCTAssertEqual(try orca("appearance#0", tree), ["Light", "selected radio button"])
        XCTAssertEqual(try orca("appearance#1", tree), ["Dark", "not selected radio button"])
        XCTAssertEqual(try orca("copies", tree), ["Copies 2 spin button"])
        XCTAssertEqual(try orca("tabSettings", tree), ["Settings page tab"])
        XCTAssertEqual(try orca("help", tree), ["Help link"])
        XCTAssertEqual(try orca("navBar#back", tree), ["General push button"])
    }

    // MARK: Orca 48.1 on libatspi 2.56, word for word (D-SPEECH-3; captured on the demo's Tab stops with
    // Tests/PythonClient/test_orca48.py, Orca's closing full stops left out)

    func orca48(_ id: String, _ tree: AXTree) throws -> [String] {
        let node = try XCTUnwrap(tree[id], "no node \(id)")
        return OrcaSpeech.describe(node, in: tree, reader: .orca48)
    }

    func testOrca48ButtonSwitchRadioSpinSliderAsCaptured() throws {
        let tree = try Self.demoTree()
        XCTAssertEqual(try orca48("editButton", tree), ["Edit button"])
        XCTAssertEqual(try orca48("cellWifi", tree), ["Wi-Fi switch pressed"])
        XCTAssertEqual(try orca48("cellBluetooth", tree), ["Bluetooth switch not pressed"])
        XCTAssertEqual(try orca48("cellAbout", tree), ["About, AXServer button"])
        XCTAssertEqual(try orca48("textSize", tree), ["Text Size horizontal slider 50% 50 percent"])
        XCTAssertEqual(try orca48("copies", tree), ["Copies spin button 2"])
        XCTAssertEqual(try orca48("appearance#0", tree), ["Light selected radio button"])
        XCTAssertEqual(try orca48("showAlert", tree), ["Reset All Settings button", "Asks before resetting"])
    }

    func testOrca48SameAsOrca43ForTextLinksAndPageTabs() throws {
        let tree = try Self.demoTree()
        for id in ["nameField", "help", "tabHome", "tabSettings", "tabProfile"] {
            XCTAssertEqual(try orca48(id, tree), try orca(id, tree), id)
        }
        XCTAssertEqual(ScreenReaderVersion.standard, .orca43)
        XCTAssertEqual(ScreenReaderVersion.allCases.map(\.rawValue), ["orca-43", "orca-48"])
    }

    // MARK: VoiceOver, from the seeds

    func testVoiceOverButtonLabelTraitThenHintAfterPause() throws {
        // UIButton: label, traits and hint are spoken (S0:19904–19906); the hint comes after a pause.
        let utterance = try voiceOver("showAlert", try Self.demoTree())
        XCTAssertEqual(utterance.parts.map(\.text), ["Reset All Settings", "button"])
        XCTAssertEqual(utterance.hint, "Asks before resetting")
        XCTAssertEqual(utterance.text, "Reset All Settings, button. Asks before resetting")
    }

    func testVoiceOverSliderLabelValueAdjustableAndSwipeHint() throws {
        // R11 / S0:21218: label, value, then "Adjustable" and the swipe hint.
        let utterance = try voiceOver("textSize", try Self.demoTree())
        XCTAssertEqual(utterance.parts.map(\.text), ["Text Size", "50%", "adjustable"])
        XCTAssertEqual(utterance.hint, VoiceOverSpeech.adjustableHint)
    }

    func testVoiceOverBackButtonAndTitleHeading() throws {
        // R13, R14 / S0:24217: the bar title, then "General back button".
        let tree = try Self.demoTree()
        XCTAssertEqual(try voiceOver("navBar#back", tree).text, "General, back button")
        XCTAssertEqual(try voiceOver("navBar#title", tree).text, "Accessibility, heading")
    }

    func testVoiceOverTabTitlePositionAndSelection() throws {
        // R12 / S0:24906: a tab reads its title, its position and whether it is selected.
        let tree = try Self.demoTree()
        XCTAssertEqual(try voiceOver("tabSettings", tree).text, "Selected, Settings, tab, 2 of 3")
        XCTAssertEqual(try voiceOver("tabHome", tree).text, "Home, tab, 1 of 3")
    }

    func testVoiceOverHeadingLevelAndIdentifierNeverSpoken() throws {
        let tree = try Self.demoTree()
        XCTAssertEqual(try voiceOver("hdrConnectivity", tree).text, "Connectivity, heading level 2")
        // R44: the identifier ("edit") is for automation only.
        XCTAssertEqual(try voiceOver("editButton", tree).text, "Edit, button")
    }

    func testVoiceOverSwitchAndDimmed() throws {
        let tree = try Self.demoTree()
        XCTAssertEqual(try voiceOver("cellWifi", tree).text, "Wi-Fi, on, switch button")
        let store = HierarchyStore()
        _ = try store.setSnapshot([
            "windows": [
                V.view(
                    "w", "UIWindow", [0, 0, 400, 800], [:],
                    children: [
                        V.view("b", "UIButton", [0, 0, 100, 44], ["title": "Send", "isEnabled": false])
                    ])
            ]
        ])
        XCTAssertEqual(
            VoiceOverSpeech.describe(try XCTUnwrap(store.tree["b"]), in: store.tree).text, "Send, button, dimmed")
    }

    func testWalkReadsTheScreenInNavigationOrderAndCaps() throws {
        let tree = try Self.demoTree()
        let (items, omitted) = SpeechWalk.walk(tree, root: nil, limit: 3)
        XCTAssertEqual(items.map(\.id), Array(tree.navigationOrder().prefix(3)))
        XCTAssertEqual(omitted, tree.navigationOrder().count - 3)
    }
}
