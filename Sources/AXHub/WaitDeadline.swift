import Dispatch
import Synchronization

/// The deadline of one wait, however many revisions it wakes on: one cancellable timer for the whole wait
/// (issue 19 item 3, D-REL-3). A `wait.for` re-arms it on every round instead of starting a timer per round: a
/// `Task.sleep` per round kept ~1.5 KB per revision alive until the timeout even when cancelled, because the
/// concurrency runtime frees a cancelled sleep only at its deadline. A cancelled dispatch timer is freed at once.
package final class WaitDeadline: Sendable {
    private struct State {
        var expired = false
        var finished = false
        /// What the current round runs when the deadline passes.
        var onExpiry: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())
    private let timer: Mutex<DispatchTimerBox?>
    private let counter: WaitTimerCounter?
    /// Deadlines whose timer is alive, process-wide (for tests: a finished wait or reply must not leave one).
    private static let live = Atomic<Int>(0)
    package static var liveCount: Int { live.load(ordering: .relaxed) }

    /// A deadline that runs `action` when `timeout` passes unless `finish()` comes first (a reply deadline).
    package static func after(_ timeout: Duration, _ action: @escaping @Sendable () -> Void) -> WaitDeadline {
        let deadline = WaitDeadline(timeout: timeout, counter: nil)
        if !deadline.arm(action) { action() }
        return deadline
    }

    /// Starts the timer; `counter` counts it while it is alive.
    init(timeout: Duration, counter: WaitTimerCounter?) {
        self.counter = counter
        let box = DispatchTimerBox(DispatchSource.makeTimerSource(queue: .global()))
        timer = Mutex(box)
        let source = box.source
        counter?.increment()
        Self.live.add(1, ordering: .relaxed)
        let components = timeout.components
        let nanoseconds = max(0, components.seconds) * 1_000_000_000 + max(0, components.attoseconds) / 1_000_000_000
        source.schedule(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)))
        source.setEventHandler { [weak self] in self?.expire() }
        source.resume()
    }

    deinit { finish() }

    /// Whether the deadline has passed.
    package var isExpired: Bool { state.withLock { $0.expired } }

    /// Installs what the current round runs on expiry; false (and nothing installed) when it already passed.
    func arm(_ onExpiry: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { locked in
            if locked.expired { return false }
            locked.onExpiry = onExpiry
            return true
        }
    }

    /// Removes the current round's expiry action (the round was woken).
    func disarm() { state.withLock { $0.onExpiry = nil } }

    /// Stops the timer and frees it (the wait ended). Idempotent.
    package func finish() {
        let first: Bool = state.withLock { locked in
            defer { locked.finished = true }
            locked.onExpiry = nil
            return !locked.finished
        }
        guard first else { return }
        let source = timer.withLock { current in
            defer { current = nil }
            return current
        }
        source?.source.cancel()
        counter?.decrement()
        Self.live.subtract(1, ordering: .relaxed)
    }

    private func expire() {
        let action: (@Sendable () -> Void)? = state.withLock { locked in
            locked.expired = true
            defer { locked.onExpiry = nil }
            return locked.onExpiry
        }
        action?()
        finish()
    }
}

/// A dispatch timer crossing threads: dispatch sources are thread-safe objects.
private final class DispatchTimerBox: @unchecked Sendable {
    let source: any DispatchSourceTimer
    init(_ source: any DispatchSourceTimer) { self.source = source }
}
