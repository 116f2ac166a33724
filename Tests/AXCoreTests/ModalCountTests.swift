import AXCore
import AXJSON
import XCTest

/// `ViewHierarchy.modalCandidates` lets the derivation skip the modal scan; it must always equal a full count,
/// whatever sequence of inserts, removes, moves and property sets produced the hierarchy (X10, D-MODAL-1).
final class ModalCountTests: XCTestCase {
    func fullCount(_ h: ViewHierarchy) -> Int {
        var current = 0
        for (_, count) in h.nodes
        where count.ax.viewIsModal ?? (count.kind == .alertController || count.kind == .actionSheet) {
            current += 1
        }
        return current
    }

    func testCountFollowsEveryKindOfChange() throws {
        let store = HierarchyStore()
        try store.setSnapshot([
            "windows": [
                [
                    "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                    "children": [
                        ["id": "a", "class": "UIButton", "title": "A", "frame": [0, 0, 50, 20]],
                        [
                            "id": "alert", "class": "UIAlertController", "title": "T", "frame": [0, 100, 200, 100],
                            "children": [
                                ["id": "ok", "class": "UIButton", "title": "OK", "frame": [0, 50, 50, 20]]
                            ],
                        ],
                    ],
                ]
            ]
        ])
        XCTAssertEqual(store.views.modalCandidates, 1)
        var seed: UInt64 = 99
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        var counter = 0
        for step in 0..<400 {
            let ids = store.views.nodes.keys.filter { $0 != "w" }.sorted()
            let op: JSON
            switch next(5) {
            case 0:
                counter += 1
                let cls = ["UIView", "UIAlertController", "UIButton", "UIActionSheet"][next(4)]
                var object: JSONObject = [
                    "id": .string("n\(counter)"), "class": .string(cls), "frame": [0, 0, 10, 10],
                ]
                if next(3) == 0 { object["accessibilityViewIsModal"] = .bool(next(2) == 0) }
                let parent = ids.isEmpty ? "w" : (next(3) == 0 ? "w" : ids[next(ids.count)])
                op = ["op": "insert", "parent": .string(parent), "view": .object(object)]
            case 1 where !ids.isEmpty:
                op = ["op": "remove", "id": .string(ids[next(ids.count)])]
            case 2 where !ids.isEmpty:
                let flag: JSON = [true, false, nil][next(3)].map { .bool($0) } ?? .null
                op = [
                    "op": "set", "id": .string(ids[next(ids.count)]), "properties": ["accessibilityViewIsModal": flag],
                ]
            case 3 where !ids.isEmpty:
                op = [
                    "op": "set", "id": .string(ids[next(ids.count)]),
                    "properties": ["class": .string(["UIView", "UIAlertController"][next(2)])],
                ]
            default:
                op = ["op": "set", "id": "a", "properties": ["title": .string("A\(step)")]]
            }
            _ = try? store.apply(json: [op])
            XCTAssertEqual(store.views.modalCandidates, fullCount(store.views), "step \(step): \(op.jsonString)")
        }
    }
}
