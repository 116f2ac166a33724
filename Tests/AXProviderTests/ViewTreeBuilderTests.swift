import AXJSON
import AXProvider
import XCTest

/// `ViewTreeBuilder` builds the same `ViewDescription` values, and so the same JSON, as the memberwise form.
final class ViewTreeBuilderTests: XCTestCase {
    static let screen = ViewRect(x: 0, y: 0, width: 390, height: 844)

    /// A settings window built with the builder: `if/else` picks the header, `if` adds a banner, `for` repeats cells.
    static func built(rooms: [String], signedIn: Bool, offline: Bool) -> HierarchyDescription {
        HierarchyDescription {
            ViewDescription(id: "main", viewClass: "UIWindow", frame: screen) {
                if signedIn {
                    ViewDescription(id: "title", viewClass: "UILabel").label("Home").traits(["header"])
                } else {
                    ViewDescription(id: "signIn", viewClass: "UIButton").label("Sign in").hint("Opens the sign-in form")
                }
                if offline {
                    ViewDescription(id: "banner", viewClass: "UILabel").label("Offline").value("since 10:02")
                }
                ViewDescription(id: "rooms", viewClass: "UITableView") {
                    for room in rooms {
                        ViewDescription(id: "cell.\(room)", viewClass: "UITableViewCell").label(room)
                            .identifier("room-\(room)")
                    }
                }
                [ViewDescription(id: "footer", viewClass: "UIView").hidden()]
            }
        }
    }

    /// The same window built by hand with the memberwise initializer and stored properties.
    static func byHand(rooms: [String], signedIn: Bool, offline: Bool) -> HierarchyDescription {
        var children: [ViewDescription] = []
        var header = AccessibilityProperties()
        if signedIn {
            header.accessibilityLabel = "Home"
            header.accessibilityTraits = ["header"]
            children.append(ViewDescription(id: "title", viewClass: "UILabel", accessibility: header))
        } else {
            header.accessibilityLabel = "Sign in"
            header.accessibilityHint = "Opens the sign-in form"
            children.append(ViewDescription(id: "signIn", viewClass: "UIButton", accessibility: header))
        }
        if offline {
            var banner = AccessibilityProperties()
            banner.accessibilityLabel = "Offline"
            banner.accessibilityValue = "since 10:02"
            children.append(ViewDescription(id: "banner", viewClass: "UILabel", accessibility: banner))
        }
        var cells: [ViewDescription] = []
        for room in rooms {
            var cell = AccessibilityProperties()
            cell.accessibilityLabel = room
            cell.accessibilityIdentifier = "room-\(room)"
            cells.append(ViewDescription(id: "cell.\(room)", viewClass: "UITableViewCell", accessibility: cell))
        }
        children.append(ViewDescription(id: "rooms", viewClass: "UITableView", children: cells))
        var footer = ViewDescription(id: "footer", viewClass: "UIView")
        footer.isHidden = true
        children.append(footer)
        let window = ViewDescription(id: "main", viewClass: "UIWindow", frame: screen, children: children)
        return HierarchyDescription(windows: [window])
    }

    func testBuiltTreeEqualsTheTreeBuiltByHand() {
        for (signedIn, offline) in [(true, false), (false, true), (true, true), (false, false)] {
            for rooms in [[], ["Kitchen"], ["Kitchen", "Hall", "Garden"]] {
                let built = Self.built(rooms: rooms, signedIn: signedIn, offline: offline)
                let byHand = Self.byHand(rooms: rooms, signedIn: signedIn, offline: offline)
                XCTAssertEqual(built, byHand, "signedIn \(signedIn), offline \(offline), rooms \(rooms)")
                XCTAssertEqual(built.json.jsonString, byHand.json.jsonString)
            }
        }
    }

    func testBranchesAndLoopsPlaceChildrenInOrder() throws {
        let hierarchy = Self.built(rooms: ["Kitchen", "Hall"], signedIn: false, offline: true)
        let window = try XCTUnwrap(hierarchy.windows.first)
        XCTAssertEqual(window.children.map(\.id), ["signIn", "banner", "rooms", "footer"])
        XCTAssertEqual(window.children[2].children.map(\.id), ["cell.Kitchen", "cell.Hall"])
        XCTAssertEqual(
            window.children[2].children.map(\.accessibility.accessibilityIdentifier), ["room-Kitchen", "room-Hall"])
        let signedIn = try XCTUnwrap(Self.built(rooms: [], signedIn: true, offline: false).windows.first)
        XCTAssertEqual(signedIn.children.map(\.id), ["title", "rooms", "footer"])
    }

    func testBuiltJSONReadsBackThroughTheProviderPath() throws {
        let hierarchy = Self.built(rooms: ["Kitchen", "Hall"], signedIn: true, offline: true)
        let text = hierarchy.json.jsonString
        let parsed = try JSON.parse(text)
        let windows = try XCTUnwrap(parsed["windows"]?.arrayValue)
        let readBack = try windows.map { try XCTUnwrap(ViewDescription(json: $0)) }
        XCTAssertEqual(readBack, hierarchy.windows)
        XCTAssertEqual(readBack.first?.children.first?.extra, [:])
        let title = try XCTUnwrap(parsed["windows"]?[0]?["children"]?[0])
        XCTAssertEqual(title["accessibilityLabel"], "Home")
        XCTAssertEqual(title["accessibilityTraits"], ["header"])
    }

    func testModifiersReturnACopyAndLeaveTheOriginal() {
        let plain = ViewDescription(id: "switch", viewClass: "UISwitch")
        let labelled = plain.label("Wi-Fi").value("on").traits(["button"]).enabled(false).accessibilityElement()
            .modified { $0.isOn = true }
        XCTAssertNil(plain.accessibility.accessibilityLabel)
        XCTAssertNil(plain.isOn)
        XCTAssertEqual(labelled.accessibility.accessibilityLabel, "Wi-Fi")
        XCTAssertEqual(labelled.accessibility.accessibilityValue, "on")
        XCTAssertEqual(labelled.accessibility.accessibilityTraits, ["button"])
        XCTAssertEqual(labelled.accessibility.isAccessibilityElement, true)
        XCTAssertEqual(labelled.isEnabled, false)
        XCTAssertEqual(labelled.isOn, true)
        XCTAssertNil(labelled.label(nil).accessibility.accessibilityLabel)
    }
}
