import AXJSON
import AXJSONRPC
import AXRPCRouter
import Synchronization

// Peers without I/O for tests of the router and of everything that runs on it.

/// A peer that records what the server sends; no I/O.
package final class ProtocolFakePeer: RPCPeer {
    package let connectionID: UInt64
    private let state = Mutex<(notes: [(String, JSON?)], closed: Bool, handlers: [@Sendable () -> Void])>(
        ([], false, []))
    package init(id: UInt64 = 1) { connectionID = id }
    package func notify(_ method: String, _ params: JSON?) { state.withLock { $0.notes.append((method, params)) } }
    package func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
        throw .actionNotSupported("fake peer")
    }
    package func close() {
        let hs: [@Sendable () -> Void] = state.withLock { locked in
            if locked.closed { return [] }
            locked.closed = true
            defer { locked.handlers = [] }
            return locked.handlers
        }
        for handler in hs { handler() }
    }
    package var isClosed: Bool { state.withLock { $0.closed } }
    package func onClose(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if s.closed { return true }
            s.handlers.append(handler)
            return false
        }
        if now { handler() }
    }
    package var notifications: [String] { state.withLock { $0.notes.map(\.0) } }
}

/// A lock-protected box that can be captured by Sendable closures.
package final class ProtocolLocked<T: Sendable>: Sendable {
    private let m: Mutex<T>
    package init(_ v: T) { m = Mutex(v) }
    package func withLock<R: Sendable>(_ body: (inout T) -> R) -> R { m.withLock { body(&$0) } }
}

package final class NullTestPeer: RPCPeer, @unchecked Sendable {
    package let connectionID: UInt64 = 99
    package init() {}
    package func notify(_ method: String, _ params: JSON?) {}
    package func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON { .null }
    package func close() {}
    package var isClosed: Bool { false }
    package func onClose(_ handler: @escaping @Sendable () -> Void) {}
}
