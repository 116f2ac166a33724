import AXCore
import AXHub
import AXJSON
import Synchronization

// Fakes of the hub's collaborators for the test targets (unit tests may use fakes; real-parts tests use the real
// router and transport).

/// A fake app: records requests, answers from a table (unit tests may use fakes).
package final class RecordingProvider: ActionProvider {
    package let log = Mutex<[ActionRequest]>([])
    package let answer: @Sendable (ActionRequest) -> Bool
    package init(_ answer: @escaping @Sendable (ActionRequest) -> Bool = { _ in true }) { self.answer = answer }
    package func perform(_ request: ActionRequest, timeout: Duration) async throws(ActionError) -> Bool {
        log.withLock { $0.append(request) }
        return answer(request)
    }
    package var requests: [ActionRequest] { log.withLock { $0 } }
}

/// Collects values from escaping closures (a Mutex held by a class, so every closure shares it).
package final class Sink<T: Sendable>: Sendable {
    private let store = Mutex<[T]>([])
    package init() {}
    package func append(_ v: T) { store.withLock { $0.append(v) } }
    package var items: [T] { store.withLock { $0 } }
}

/// A fake AT behind the key forwarder: answers from a table, or holds every answer until released.
package final class FakeKeyForwarder: KeyForwarder {
    package let listening: Bool
    package let answer: @Sendable (ForwardedKey) -> KeyForwardAnswer
    package let held = Mutex<[CheckedContinuation<Void, Never>]>([])
    package let holding: Bool
    package let seen = Sink<ForwardedKey>()

    package init(
        listening: Bool = true, holding: Bool = false,
        answer: @escaping @Sendable (ForwardedKey) -> KeyForwardAnswer = { _ in .notConsumed }
    ) {
        self.listening = listening
        self.holding = holding
        self.answer = answer
    }

    package var hasKeyListeners: Bool { listening }

    package func forward(_ key: ForwardedKey, app: String) async -> KeyForwardAnswer {
        seen.append(key)
        if holding {
            await withCheckedContinuation { continuation in held.withLock { $0.append(continuation) } }
        }
        return answer(key)
    }

    package var heldCount: Int { held.withLock { $0.count } }

    package func releaseAll() {
        let all = held.withLock { list -> [CheckedContinuation<Void, Never>] in
            defer { list.removeAll() }
            return list
        }
        for continuation in all { continuation.resume() }
    }
}

/// A window with a modal sheet under a guided-access restriction: OK button and a slider (the hub tests' tree).
package enum HubTestTrees {
    package static let guidedAccessSheet: JSON = [
        "windows": [
            [
                "id": "w", "class": "UIWindow", "frame": [0, 0, 400, 800],
                "children": [
                    [
                        "id": "sheet", "class": "UIView", "frame": [0, 0, 400, 400], "accessibilityViewIsModal": true,
                        "restrictionIdentifiers": ["org.test.sheet"],
                        "children": [
                            ["id": "ok", "class": "UIButton", "title": "OK", "frame": [10, 10, 80, 40]],
                            [
                                "id": "slider", "class": "UISlider", "value": 0.5, "frame": [10, 60, 200, 30],
                                "accessibilityLabel": "Level",
                            ],
                        ],
                    ]
                ],
            ]
        ], "guidedAccessRestrictions": [["id": "org.test.sheet", "text": "Sheet controls"]],
    ]
}
