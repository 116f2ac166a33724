import AXJSON
import Synchronization

/// Runs timeouts for `RPCPendingRequests`. The transport supplies one backed by its event loop (cheaper than a
/// Task per request); the default uses a Task.
public protocol RPCTimerScheduler: Sendable {
    /// Runs `body` once after `delay` unless the returned handle is cancelled first.
    func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> RPCTimerHandle
}

/// Cancels a scheduled timeout.
public struct RPCTimerHandle: Sendable {
    private let onCancel: @Sendable () -> Void
    /// A handle that runs `cancel` when cancelled.
    public init(cancel: @escaping @Sendable () -> Void) { onCancel = cancel }
    /// Cancels the timeout (it will not run).
    public func cancel() { onCancel() }
}

/// The default scheduler: one sleeping Task per timeout.
public struct TaskTimerScheduler: RPCTimerScheduler {
    /// The default scheduler.
    public init() {}
    /// Runs `body` after `delay` in a sleeping Task, unless cancelled.
    public func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> RPCTimerHandle {
        let timeoutTask = Task {
            do { try await Task.sleep(for: delay) } catch { return }
            body()
        }
        return RPCTimerHandle { timeoutTask.cancel() }
    }
}

/// The table of server->client (or client->server, for `RPCClient`) requests waiting for a response.
/// Ids are numbers allocated here; `complete(id:with:)` is called when a response frame arrives,
/// `failAll` when the connection closes (after which new requests fail at once).
public final class RPCPendingRequests: Sendable {
    private struct Waiter {
        var method: String
        var continuation: CheckedContinuation<Result<JSON, RPCError>, Never>
    }
    private struct State {
        var nextID: Int64 = 1
        var waiters: [Int64: Waiter] = [:]
        var closed: RPCError?
    }
    private let state = Mutex(State())
    private let scheduler: any RPCTimerScheduler

    /// An empty table whose timeouts run on `scheduler`.
    public init(scheduler: any RPCTimerScheduler = TaskTimerScheduler()) {
        self.scheduler = scheduler
    }

    /// Number of requests waiting.
    public var count: Int { state.withLock { $0.waiters.count } }

    /// Allocates an id, registers a waiter, calls `send(id)` (which must write the request frame and return
    /// false when it could not), and waits for the response, the timeout, cancellation, or `failAll`.
    /// On timeout: -32020 "app not responding" with `data.method` and `data.timeoutMs`.
    public func perform(method: String, timeout: Duration, send: (_ id: JSON) -> Bool) async throws(RPCError) -> JSON {
        let id: Int64 = state.withLock { locked in
            defer { locked.nextID += 1 }
            return locked.nextID
        }
        var timer: RPCTimerHandle?
        let result: Result<JSON, RPCError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (cont: CheckedContinuation<Result<JSON, RPCError>, Never>) in
                let closed: RPCError? = state.withLock { locked in
                    if let closedError = locked.closed { return closedError }
                    locked.waiters[id] = Waiter(method: method, continuation: cont)
                    return nil
                }
                if let closed {
                    cont.resume(returning: .failure(closed))
                    return
                }
                let ms = Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
                timer = scheduler.schedule(after: timeout) { [weak self] in
                    _ = self?.resolve(
                        id,
                        .failure(
                            .appNotResponding(
                                "no response to '\(method)' within \(ms) ms",
                                data: [
                                    "method": .string(method), "timeoutMs": .number(Double(ms)), "reason": "timeout",
                                ])))
                }
                // A caller cancelled before its request was written never sends it (nothing to cancel remotely).
                if Task.isCancelled {
                    _ = resolve(id, .failure(.cancelled("request '\(method)' was cancelled")))
                } else if !send(.number(Double(id))) {
                    _ = resolve(id, .failure(.disconnected(method: method)))
                } else if Task.isCancelled {
                    _ = resolve(id, .failure(.cancelled("request '\(method)' was cancelled")))
                }
            }
        } onCancel: {
            _ = self.resolve(id, .failure(.cancelled("request '\(method)' was cancelled")))
        }
        timer?.cancel()
        return try result.get()
    }

    /// Completes the request with this id (a JSON number or numeric string). Returns false when no such
    /// request is pending (unknown, already answered, or timed out).
    @discardableResult
    public func complete(id: JSON, with result: Result<JSON, RPCError>) -> Bool {
        let key: Int64?
        switch id {
        case .number(let number):
            key = number.isFinite && number == number.rounded() && number.magnitude < 9.0e15 ? Int64(number) : nil
        case .string(let text): key = Int64(text)
        default: key = nil
        }
        guard let key else { return false }
        return resolve(key, result)
    }

    /// Fails every pending request with `error` and makes later `perform` calls fail with it at once.
    public func failAll(_ error: RPCError) {
        let waiters: [Waiter] = state.withLock { locked in
            if locked.closed == nil { locked.closed = error }
            defer { locked.waiters.removeAll() }
            return Array(locked.waiters.values)
        }
        for waiter in waiters {
            var waiterError = error
            if case .object(var data)? = waiterError.data, data["method"] == nil {
                data["method"] = .string(waiter.method)
                waiterError.data = .object(data)
            }
            waiter.continuation.resume(returning: .failure(waiterError))
        }
    }

    private func resolve(_ id: Int64, _ result: Result<JSON, RPCError>) -> Bool {
        guard let waiter = state.withLock({ $0.waiters.removeValue(forKey: id) }) else { return false }
        waiter.continuation.resume(returning: result)
        return true
    }
}
