import AXJSON
import AXProtocol

/// An assertion on a locator that did not come true in time: what was expected and the element as last seen.
public struct AXAssertionError: Error, Sendable, CustomStringConvertible {
    /// What was expected and what was found.
    public var description: String
    /// The element as the server last saw it (null when it was not attached).
    public var lastState: JSON?
}

/// Assertions that wait (woken by the server's tree revisions, never polling) until they hold or `timeout` passes.
///
/// ```swift
/// try await expect(client.getByRole("switch", name: "Wi-Fi")).toHaveValue("on")
/// ```
public func expect(_ locator: Locator, timeout: Duration = .seconds(5)) -> LocatorAssertions {
    LocatorAssertions(locator: locator, timeout: timeout)
}

/// The assertions `expect(_:)` returns. Each throws `AXAssertionError` when it does not hold in time, and
/// `AXClientError` for other failures (an invalid or ambiguous selector fails at once).
public struct LocatorAssertions: Sendable {
    let locator: Locator
    let timeout: Duration

    /// Waits until the element's value is `value`; throws when it is not within the timeout.
    public func toHaveValue(_ value: String) async throws {
        try await hold(.value, value: value, "to have value \"\(value)\"")
    }
    /// Waits until the element's label is `label`; throws when it is not within the timeout.
    public func toHaveLabel(_ label: String) async throws {
        try await hold(.label, value: label, "to have label \"\(label)\"")
    }
    /// Waits until the element is visible on screen.
    public func toBeVisible() async throws { try await hold(.visible, "to be visible") }
    /// Waits until the element is hidden or gone.
    public func toBeHidden() async throws { try await hold(.hidden, "to be hidden") }
    /// Waits until the element is enabled.
    public func toBeEnabled() async throws { try await hold(.enabled, "to be enabled") }
    /// Waits until the element is disabled.
    public func toBeDisabled() async throws { try await hold(.disabled, "to be disabled") }
    /// Waits until the element has accessibility focus.
    public func toBeFocused() async throws { try await hold(.focused, "to be focused") }
    /// Waits until the element is in the tree.
    public func toBeAttached() async throws { try await hold(.attached, "to be attached") }
    /// Waits until the element has left the tree.
    public func toBeDetached() async throws { try await hold(.detached, "to be detached") }

    /// Waits until exactly `count` elements match: re-counted on every `tree.changed` event of the app.
    public func toHaveCount(_ count: Int) async throws {
        let client = locator.client
        let events = try await client.events([RPCEvent.treeChanged])
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var last = try await locator.count()
        if last == count {
            return
        }
        // Each tree change wakes a re-count; a deadline task ends the wait.
        let outcome: Int? = await withTaskGroup(of: Int?.self) { group in
            group.addTask {
                for await _ in events {
                    if let now = try? await locator.count(), now == count {
                        return now
                    }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: clock)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if outcome == count {
            return
        }
        last = try await locator.count()
        if last == count {
            return
        }
        throw AXAssertionError(
            description: "expected \(locator.selector) to match \(count) elements, it matched \(last) after \(timeout)",
            lastState: nil)
    }

    private func hold(_ state: WaitState, value: String? = nil, _ what: String) async throws {
        do {
            try await locator.waitFor(state, value: value, timeout: timeout)
        } catch {
            guard error.isTimeout else {
                throw error
            }
            let last = error.data?["lastState"]
            throw AXAssertionError(
                description: "expected \(locator.selector) \(what); last seen: \(last?.jsonString ?? "null")",
                lastState: last)
        }
    }
}
