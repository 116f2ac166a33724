import Synchronization

/// A counting gate for server calls: at most `limit` callers hold it, the others wait in arrival order. A waiter
/// whose task is cancelled leaves the line at once (it never reaches the server), so cancelling a thousand queued
/// calls frees everything without a round trip.
final class CallGate: Sendable {
    private struct Waiter {
        var token: UInt64
        var continuation: CheckedContinuation<Bool, Never>
    }
    private struct State {
        var limit: Int
        var held = 0
        /// Waiting callers in arrival order; entries before `head` are gone.
        var line: [Waiter?] = []
        var head = 0
        /// Token → position in `line`, for the waiters still in it.
        var positions: [UInt64: Int] = [:]
        var nextToken: UInt64 = 1
    }
    private let state: Mutex<State>

    /// A gate letting `limit` callers (at least 1) through at once.
    init(limit: Int) { state = Mutex(State(limit: max(1, limit))) }

    /// Callers holding the gate now.
    var held: Int { state.withLock { $0.held } }
    /// Callers waiting for it now.
    var waiting: Int { state.withLock { $0.positions.count } }
    /// Callers allowed through at once.
    var limit: Int { state.withLock { $0.limit } }

    /// Changes the limit (the server announced its own); waiters that now fit go through.
    func setLimit(_ limit: Int) {
        let admitted = state.withLock { locked -> [CheckedContinuation<Bool, Never>] in
            locked.limit = max(1, limit)
            return Self.admit(&locked)
        }
        for continuation in admitted { continuation.resume(returning: true) }
    }

    /// Waits for a place; true when the caller holds the gate (it must `leave()` later), false when its task was
    /// cancelled first (it holds nothing).
    func enter() async -> Bool {
        let token = state.withLock { locked -> UInt64 in
            defer { locked.nextToken += 1 }
            return locked.nextToken
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer: Bool? = state.withLock { locked in
                    if Task.isCancelled { return false }
                    if locked.held < locked.limit && locked.positions.isEmpty {
                        locked.held += 1
                        return true
                    }
                    locked.positions[token] = locked.line.count
                    locked.line.append(Waiter(token: token, continuation: continuation))
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { locked -> Waiter? in
                guard let position = locked.positions.removeValue(forKey: token) else { return nil }
                defer {
                    locked.line[position] = nil
                    Self.compact(&locked)
                }
                return locked.line[position]
            }
            waiter?.continuation.resume(returning: false)
        }
    }

    /// Gives the place back; the longest-waiting caller gets it.
    func leave() {
        let admitted = state.withLock { locked -> [CheckedContinuation<Bool, Never>] in
            locked.held = max(0, locked.held - 1)
            return Self.admit(&locked)
        }
        for continuation in admitted { continuation.resume(returning: true) }
    }

    /// Takes waiters off the line while places are free (under the lock; resumed by the caller outside it).
    private static func admit(_ locked: inout State) -> [CheckedContinuation<Bool, Never>] {
        var admitted: [CheckedContinuation<Bool, Never>] = []
        while locked.held < locked.limit, locked.head < locked.line.count {
            let position = locked.head
            locked.head += 1
            guard let waiter = locked.line[position] else { continue }
            locked.line[position] = nil
            locked.positions[waiter.token] = nil
            locked.held += 1
            admitted.append(waiter.continuation)
        }
        compact(&locked)
        return admitted
    }

    /// Drops the line's gone prefix once it is most of the array (memory stays proportional to the waiters).
    private static func compact(_ locked: inout State) {
        if locked.positions.isEmpty {
            locked.line.removeAll(keepingCapacity: locked.line.count < 1_024)
            locked.head = 0
            return
        }
        guard locked.head > 64, locked.head * 2 > locked.line.count else { return }
        locked.line.removeFirst(locked.head)
        locked.head = 0
        for (position, waiter) in locked.line.enumerated() {
            if let waiter { locked.positions[waiter.token] = position }
        }
    }
}
