import AXJSON
import XCTest

@testable import AXCore

/// D-DRAG-1: location descriptors (seed 000:56685–56747) resolved at derivation (R52, R53), the named actions they
/// give, where a drag or drop is routed, and the refusals (unknown name, no descriptors, the view gone: R55).
final class DragDropTests: XCTestCase {
    static let hierarchy: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                "children": [
                    [
                        "id": "photo", "class": "UIView", "frame": [20, 100, 100, 80],
                        "isAccessibilityElement": true, "accessibilityLabel": "Sunset",
                        "accessibilityActivationPoint": [30, 110],
                        "accessibilityDragSourceDescriptors": [
                            ["name": "Sunset"], ["name": "Corner", "point": [0, 0]],
                        ],
                    ],
                    [
                        "id": "album", "class": "UIView", "frame": [200, 100, 160, 120],
                        "isAccessibilityElement": true, "accessibilityLabel": "Album",
                        "accessibilityDropPointDescriptors": [["name": "Cover", "view": "cover"]],
                        "children": [["id": "cover", "class": "UIView", "frame": [100, 60, 40, 30]]],
                    ],
                    [
                        "id": "off", "class": "UIButton", "title": "Off", "frame": [10, 500, 80, 40],
                        "isEnabled": false,
                        "accessibilityDropPointDescriptors": [["name": "Here"]],
                    ],
                ],
            ]
        ]
    ]

    var store: HierarchyStore!

    override func setUpWithError() throws {
        store = HierarchyStore()
        try store.setSnapshot(Self.hierarchy)
    }

    func route(_ action: ElementAction, _ id: String) throws(ActionRouteFailure) -> ActionRoute {
        try ActionRouting.route(action, from: store.tree[id], tree: store.tree, views: store.views)
    }

    func testDescriptorsAreResolvedAtDerivation() throws {
        let photo = try XCTUnwrap(store.tree["photo"])
        // R52: no point → the view's activation point in its own coordinates (30-20, 110-100).
        XCTAssertEqual(
            photo.dragDrop?.dragSources,
            [
                LocationDescriptor(name: "Sunset", point: Point(x: 10, y: 10), view: "photo"),
                LocationDescriptor(name: "Corner", point: Point(x: 0, y: 0), view: "photo"),
            ])
        XCTAssertNil(photo.dragDrop?.dropPoints)
        XCTAssertEqual(photo.actions.filter { $0 == .drag || $0 == .drop }, [.drag])
        // Another view's descriptor without a point: the centre of that view's bounds.
        XCTAssertEqual(
            store.tree["album"]?.dragDrop?.dropPoints,
            [LocationDescriptor(name: "Cover", point: Point(x: 20, y: 15), view: "cover")])
    }

    func testDragAndDropGoToTheDescriptorsView() throws {
        let drag = try route(.drag("Corner", at: nil), "photo")
        XCTAssertEqual(drag.action, .drag("Corner", at: Point(x: 0, y: 0)))
        XCTAssertEqual(drag.handlers, [ActionHandler(target: "photo", element: "photo")])
        let drop = try route(.drop("Cover", at: nil), "album")
        XCTAssertEqual(drop.action, .drop("Cover", at: Point(x: 20, y: 15)))
        XCTAssertEqual(drop.handlers, [ActionHandler(target: "cover", element: "album")])
    }

    func testRefusals() throws {
        XCTAssertThrowsError(try route(.drop("Sunset", at: nil), "photo")) { error in
            XCTAssertEqual(
                error as? ActionRouteFailure,
                .notSupported(action: "drop", supported: ["drag"]))
        }
        XCTAssertThrowsError(try route(.drop("Nope", at: nil), "album")) { error in
            XCTAssertEqual(error as? ActionRouteFailure, .notSupported(action: "drop:Nope", supported: ["drop:Cover"]))
        }
        XCTAssertThrowsError(try route(.drop("Here", at: nil), "off")) { error in
            XCTAssertEqual(error as? ActionRouteFailure, .disabled)
        }
        try store.apply(json: [["op": "remove", "id": "cover"]])
        XCTAssertThrowsError(try route(.drop("Cover", at: nil), "album")) { error in
            XCTAssertEqual(error as? ActionRouteFailure, .descriptorViewGone(view: "cover"))
        }
    }

    func testMalformedDescriptorsAreRefused() {
        let bad: [JSON] = [
            [["name": "A"], ["name": "A"]], [["name": ""]], [["point": [1, 2]]], [["name": "A", "point": [1e8, 0]]],
            [["name": "A", "view": 3]], "A", [7],
        ]
        for value in bad {
            XCTAssertThrowsError(
                try store.apply(json: [
                    ["op": "set", "id": "photo", "properties": ["accessibilityDropPointDescriptors": value]]
                ]), "\(value)")
        }
        XCTAssertNil(store.tree["photo"]?.dragDrop?.dropPoints)
    }
}
