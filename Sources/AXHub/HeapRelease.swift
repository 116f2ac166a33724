import Synchronization

/// Hands freed heap memory back to the system (D-REL-5, issue 35 item 2): glibc keeps freed blocks for reuse, so
/// without a trim the resident size stays at its high-water mark after a large app leaves or a large reply is
/// sent. Buffers of 32 MiB and more are mapped and unmapped by glibc itself; the trim returns the rest (the many
/// smaller blocks a large tree walk or reply leaves free in the heap).
package enum HeapRelease {
    /// Apps with at least this many views trigger a trim when they leave.
    static let minimumViews = 10_000
    /// Replies of at least this many bytes trigger a trim once they are sent (a 10,000-element `tree.get` is ~4 MB).
    package static let minimumReplyBytes = 1 << 20
    /// When the trims after a large reply run: once the reply buffer and its temporaries are freed (the reply
    /// leaves the server within milliseconds on a local socket), and again once a slower reader has taken the
    /// transport's copy, well inside the 2 s by which the resident size must be back (issue 35).
    static let replyTrimDelays: [Duration] = [.milliseconds(200), .milliseconds(1300)]

    /// Replies asked to be trimmed after, and whether a trim task is running (at most one at a time).
    private static let replyTrims = Mutex<(requests: UInt64, running: Bool)>((0, false))

    /// Trims off the caller's thread (a trim of a large heap takes milliseconds).
    static func afterLargeRemoval() {
        Task.detached(priority: .background) { _ = hub_malloc_trim(0) }
    }

    /// Trims after a reply of `bytes` (nothing for small replies). Requests that arrive while the trim task runs
    /// are served by it: it runs its delays again until no request came in during a round, so a burst of large
    /// replies costs one task, never one per reply.
    package static func afterLargeReply(bytes: Int) {
        guard bytes >= minimumReplyBytes else { return }
        let start = replyTrims.withLock { state -> Bool in
            state.requests &+= 1
            if state.running { return false }
            state.running = true
            return true
        }
        guard start else { return }
        Task.detached(priority: .background) {
            while true {
                let served = replyTrims.withLock { $0.requests }
                for delay in replyTrimDelays {
                    try? await Task.sleep(for: delay)
                    _ = hub_malloc_trim(0)
                }
                let done = replyTrims.withLock { state -> Bool in
                    guard state.requests == served else { return false }
                    state.running = false
                    return true
                }
                if done { return }
            }
        }
    }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("malloc_trim") private func hub_malloc_trim(_ pad: Int) -> Int32
