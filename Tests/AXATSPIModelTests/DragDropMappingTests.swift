import AXATSPIModel
import AXCore
import AXJSON
import XCTest

/// D-DRAG-1 on AT-SPI: one Action entry per drag source (`drag:<name>`) and drop point (`drop:<name>`), named as
/// VoiceOver offers them; `DoAction` on one asks the app for that drag or drop. A label with descriptors gets the
/// Action interface for them alone.
final class DragDropMappingTests: XCTestCase {
    func testEachDescriptorIsAnActionEntry() throws {
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        [
                            "id": "photo", "class": "UIButton", "title": "Photo", "frame": [0, 0, 100, 100],
                            "accessibilityDragSourceDescriptors": [["name": "Photo"]],
                            "accessibilityDropPointDescriptors": [["name": "Before"], ["name": "After"]],
                        ],
                        [
                            "id": "note", "class": "UILabel", "text": "Note", "frame": [0, 200, 100, 20],
                            "accessibilityDragSourceDescriptors": [["name": "Note"]],
                        ],
                        ["id": "plain", "class": "UILabel", "text": "Plain", "frame": [0, 300, 100, 20]],
                    ],
                ]
            ]
        ])
        let photo = try XCTUnwrap(store.tree["photo"])
        let entries = ATSPIMapping.actions(photo, context: ATSPIContext.of(photo, in: store.tree))
        XCTAssertEqual(entries.map(\.name), ["click", "drag:Photo", "drop:Before", "drop:After"])
        XCTAssertEqual(entries[1].localizedName, "Photo")
        XCTAssertEqual(
            entries.map { ActionModel.request(for: $0) },
            [.activate, .drag("Photo", at: nil), .drop("Before", at: nil), .drop("After", at: nil)])
        let note = try XCTUnwrap(store.tree["note"])
        XCTAssertEqual(
            ATSPIMapping.actions(note, context: ATSPIContext.of(note, in: store.tree)).map(\.name), ["drag:Note"])
        XCTAssertTrue(ATSPIMapping.interfaces(note, parentRole: nil).contains(.action))
        let plain = try XCTUnwrap(store.tree["plain"])
        XCTAssertFalse(ATSPIMapping.interfaces(plain, parentRole: nil).contains(.action))
    }
}
