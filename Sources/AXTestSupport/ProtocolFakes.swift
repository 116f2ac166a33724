import AXJSON
import AXJSONRPC
import AXRPCRouter
import Synchronization

// Peers without I/O for tests of the router and of everything that runs on it.

/// A peer that records what the server sends; no I/O.
package final class ProtocolFakePeer: RPCPeer {
    package let connectionID: UInt64
    private let notes = Mutex<[(String, JSON?)]>([])
    private let closing = RPCCloseLatch()
    package init(id: UInt64 = 1) { connectionID = id }
    package func notify(_ method: String, _ params: JSON?) { notes.withLock { $0.append((method, params)) } }
    package func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
        throw .actionNotSupported("fake peer")
    }
    package func close() { closing.close() }
    package var isClosed: Bool { closing.isClosed }
    package func onClose(_ handler: @escaping @Sendable () -> Void) { closing.onClose(handler) }
    package var notifications: [String] { notes.withLock { $0.map(\.0) } }
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
