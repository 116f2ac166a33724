import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Delivers hub events to the subscribers, one delivery at a time and in emit order, and never re-entrantly.
///
/// A subscriber may cause an emit while it is being delivered to: a connection whose write fails closes
/// synchronously, the close removes its app, and `removeApp` emits `appRemoved`. Such an event is queued and
/// delivered by the running delivery right after its current batch (with the subscribers as they are then), so
/// delivery never takes its own lock twice (issue 19 item 1; Specs/decisions.md D-REL-1). Emits from other
/// threads wait for the running delivery, as before, so an emitter's events reach subscribers before it returns.
final class EventDelivery: Sendable {
    private struct State {
        /// The thread running a delivery, if any.
        var deliveringThread: pthread_t?
        /// Events emitted by that thread while it delivered, in order.
        var deferred: [HubEvent] = []
    }
    private let serializer = Mutex(())
    private let state = Mutex(State())

    /// Delivers `events` to `subscribers()` (asked once per batch), or queues them when called from inside a
    /// delivery on this thread.
    func deliver(_ events: [HubEvent], to subscribers: () -> [@Sendable (HubEvent) -> Void]) {
        let thread = pthread_self()
        let reentrant: Bool = state.withLock { locked in
            guard let running = locked.deliveringThread, pthread_equal(running, thread) != 0 else { return false }
            locked.deferred += events
            return true
        }
        if reentrant { return }
        serializer.withLock { _ in
            state.withLock { $0.deliveringThread = thread }
            var batch = events
            while !batch.isEmpty {
                let current = subscribers()
                for event in batch { for subscriber in current { subscriber(event) } }
                batch = state.withLock { locked in
                    defer { locked.deferred = [] }
                    return locked.deferred
                }
            }
            state.withLock { $0.deliveringThread = nil }
        }
    }
}
