import AXATSPIModel
import AXCore
import AXDemo
import AXJSON
import XCTest

/// Value, EditableText, Accessible answers and the listener registry, without a bus.
final class ActionAndListenerModelTests: XCTestCase {
    /// A numeric control at 2 in 0…10 with step 1 that increments and decrements, and may also take values.
    func stepper(takesValues: Bool) -> AXNode {
        var node = AXNode(
            id: "copies", viewID: "copies", className: "UIStepper", viewClass: .stepper, role: .adjustable,
            isElement: true, windowID: "w")
        node.numeric = AXNumericValue(current: 2, minimum: 0, maximum: 10, step: 1)
        node.actions = takesValues ? [.increment, .decrement, .setValue] : [.increment, .decrement]
        return node
    }

    func testValueStepsTowardTheTargetOrSetsItDirectly() {
        let stepping = stepper(takesValues: false)
        XCTAssertEqual(ValueModel.plan(settingCurrentValueOf: stepping, to: 5), .step(.increment, count: 3))
        XCTAssertEqual(
            ValueModel.plan(settingCurrentValueOf: stepping, to: -40), .step(.decrement, count: 2),
            "clamped to the minimum first")
        XCTAssertEqual(ValueModel.plan(settingCurrentValueOf: stepping, to: 2.2), .unchanged, "less than half a step")
        XCTAssertEqual(ValueModel.plan(settingCurrentValueOf: stepping, to: .nan), .invalid)
        XCTAssertEqual(ValueModel.plan(settingCurrentValueOf: stepper(takesValues: true), to: 12), .set(10))
        var label = stepping
        label.numeric = nil
        XCTAssertEqual(ValueModel.plan(settingCurrentValueOf: label, to: 1), .invalid, "not a numeric control")
    }

    func testEditableTextEditsBecomeTheNewText() throws {
        var field = AXNode(
            id: "f", viewID: "f", className: "UITextField", viewClass: .textField, role: .textField,
            isElement: true, windowID: "w")
        field.text = "Hello world"
        let model = EditableTextModel(node: field)
        XCTAssertEqual(model.insertText(at: 5, text: ",", length: -1), .setValue(.string("Hello, world")))
        XCTAssertEqual(model.insertText(at: 0, text: "Oh! ", length: 3), .setValue(.string("Oh!Hello world")))
        XCTAssertEqual(model.insertText(at: 11, text: "!", length: -1), .typeText("!"), "at the end: typed")
        XCTAssertEqual(model.insertText(at: -1, text: "x", length: 1), .typeText("x"))
        XCTAssertEqual(model.deleteText(from: 5, to: -1), .setValue(.string("Hello")))
        XCTAssertEqual(model.deleteText(from: 0, to: 6), .setValue(.string("world")))
        XCTAssertEqual(model.deleteText(from: 40, to: 2), .setValue(.string("Hello world")), "out of range: nothing")
    }

    func testAccessibleTreeLinksAndTheBigParentIndex() throws {
        var children: [JSON] = []
        for index in 0..<40 {
            children.append(
                V.view(
                    "b\(index)", "UIButton", [0, Double(index) * 10, 50, 10],
                    ["accessibilityLabel": .string("B\(index)")]))
        }
        let snapshot = try Snapshots.served([
            "windows": [V.view("w", "UIWindow", [0, 0, 300, 500], ["isKeyWindow": true], children: children)]
        ])
        let model = AccessibleModel(snapshot: snapshot)
        var cache = SiblingIndexCache()
        let last = try Snapshots.node("b39", in: snapshot)
        XCTAssertEqual(model.indexInParent(of: .node(last), cache: &cache), 39, "through the index of a big parent")
        XCTAssertEqual(model.indexInParent(of: .node(try Snapshots.node("b3", in: snapshot)), cache: &cache), 3)
        XCTAssertEqual(model.indexInParent(of: .node(try Snapshots.node("w", in: snapshot)), cache: &cache), 0)
        XCTAssertEqual(model.indexInParent(of: .applicationRoot, cache: &cache), -1)
        XCTAssertEqual(model.parent(of: .node(last)), .element("w"))
        XCTAssertEqual(model.parent(of: .node(try Snapshots.node("w", in: snapshot))), .applicationRoot)
        XCTAssertEqual(model.parent(of: .applicationRoot), .desktop)
        XCTAssertEqual(model.child(of: .applicationRoot, at: 0), "w")
        XCTAssertNil(model.child(of: .applicationRoot, at: 1))
        XCTAssertEqual(model.role(of: .applicationRoot), .application)
        XCTAssertEqual(model.name(of: .applicationRoot), "Model")
    }

    func testListenersFollowAtkAdaptorsPrefixRule() {
        let listeners = EventListeners()
        XCTAssertTrue(listeners.wants("object", "statechanged", "focused"), "chatty until the registry answers")
        listeners.setAll([(":1.5", "Object:State-Changed:focused"), (":1.6", "window:")])
        XCTAssertTrue(listeners.wants("object", "statechanged", "focused"))
        XCTAssertFalse(listeners.wants("object", "statechanged", "checked"))
        XCTAssertTrue(listeners.wants("window", "activate", ""), "an empty component matches anything")
        XCTAssertFalse(listeners.wants("object", "textchanged", "insert"))
        listeners.add(bus: ":1.7", event: "object:")
        XCTAssertTrue(listeners.wants("object", "textchanged", "insert"))
        listeners.remove(bus: ":1.7", event: "")
        XCTAssertFalse(listeners.wants("object", "textchanged", "insert"))
        listeners.remove(bus: ":1.5", event: "object:state-changed:focused")
        listeners.remove(bus: ":1.6", event: "window:")
        XCTAssertFalse(listeners.anyListener)
        XCTAssertEqual(listeners.summary, "listeners=0")
        listeners.setUnknown()
        XCTAssertEqual(listeners.summary, "listeners=unknown")
        XCTAssertEqual(EventListeners.normalizedComponent("State-Changed"), "statechanged")
    }

    /// Orca 48 listens for announcements and for notifications turning SHOWING, Orca 43 for the latter only: the
    /// notification object is wanted while a client of Orca 43's kind listens (else Orca 48 says the text twice).
    func testAnnouncementsNeedANotificationObjectOnlyForClientsThatMissThem() {
        let listeners = EventListeners()
        XCTAssertTrue(listeners.someoneMissesAnnouncements, "unknown registry: serve both")
        let orca48 = [("object:announcement", ":1.4"), ("object:state-changed:showing", ":1.4")]
        listeners.setAll(orca48.map { ($0.1, $0.0) })
        XCTAssertFalse(listeners.someoneMissesAnnouncements, "Orca 48 alone hears the announcement")
        listeners.add(bus: ":1.9", event: "object:state-changed:")
        XCTAssertTrue(listeners.someoneMissesAnnouncements, "Orca 43 (showing, no announcement) beside it")
        listeners.remove(bus: ":1.9", event: "")
        listeners.add(bus: ":1.10", event: "object:")
        XCTAssertFalse(listeners.someoneMissesAnnouncements, "a client of every object event hears announcements")
        listeners.setAll([(":1.11", "window:activate")])
        XCTAssertFalse(listeners.someoneMissesAnnouncements, "nobody hears notifications: no object needed")
    }
}
