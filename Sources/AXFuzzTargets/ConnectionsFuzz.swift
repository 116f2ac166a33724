import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPCRouter
import Synchronization

/// Several connections on one hub (issue 19 item 1): the input is a script of steps — open a connection (some
/// "fragile": the first notification they get closes them on the spot, as a failed write does), register an
/// app, subscribe, stream updates, send a batch, unsubscribe, close. Checked: every request gets exactly one
/// reply carrying its id (batches: one entry per id), never −32603; a closed connection's app is gone; nothing
/// traps (re-entrant delivery used to: "Recursive call to lock Mutex").
enum ConnectionsFuzz {
    static let target = FuzzTarget(
        name: "connections",
        summary:
            "Hub + router with up to 8 connections that register, subscribe, stream and close (some inside event delivery): one reply per id",
        run: run)

    /// A connection's peer; a fragile one closes itself when it is first notified (inside event delivery).
    final class Peer: RPCPeer, Sendable {
        private static let ids = Atomic<UInt64>(1)
        let connectionID: UInt64
        let fragile: Bool
        private let state = Mutex<(closed: Bool, handlers: [@Sendable () -> Void], notified: Int)>((false, [], 0))

        init(fragile: Bool) {
            connectionID = Peer.ids.add(1, ordering: .relaxed).oldValue
            self.fragile = fragile
        }

        func notify(_ method: String, _ params: JSON?) {
            let closeNow: Bool = state.withLock { current in
                if current.closed { return false }
                current.notified += 1
                return fragile
            }
            if closeNow { close() }
        }

        func request(_ method: String, _ params: JSON?, timeout: Duration) async throws(RPCError) -> JSON {
            ["handled": true]
        }

        func close() {
            let handlers = state.withLock { current -> [@Sendable () -> Void] in
                if current.closed { return [] }
                current.closed = true
                defer { current.handlers = [] }
                return current.handlers
            }
            for handler in handlers { handler() }
        }

        var isClosed: Bool { state.withLock { $0.closed } }

        func onClose(_ handler: @escaping @Sendable () -> Void) {
            let now = state.withLock { current -> Bool in
                if current.closed { return true }
                current.handlers.append(handler)
                return false
            }
            if now { handler() }
        }
    }

    struct Connection {
        var peer: Peer
        var session: RPCSession
        var app: String?
        var hasTree = false
        var subscriptions: [Int] = []
    }

    static func run(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var session = Session()
        var position = 0
        while position + 1 < bytes.count, session.check.failures.isEmpty {
            let step = bytes[position] % 7
            let argument = Int(bytes[position + 1])
            position += 2
            session.perform(step: step, argument: argument)
        }
        for connection in session.connections { connection.peer.close() }
        session.check.expect(
            session.server.hub.appIDs.isEmpty, "apps left after every connection closed: \(session.server.hub.appIDs)")
        return session.check.failures
    }

    /// The server, its connections and what the fuzzer has done on them.
    struct Session {
        var check = FuzzCheck()
        let server = FuzzServer(empty: true)
        var connections: [Connection] = []
        var nextID = 1
        var counter = 0

        /// Sends one request (or a batch) on `connection` and checks one reply per id.
        mutating func send(_ index: Int, _ calls: [RPCRequest]) -> [JSON] {
            let connection = connections[index]
            var ids: [Int] = []
            var messages: [JSON] = []
            for call in calls {
                ids.append(nextID)
                messages.append(
                    ["jsonrpc": "2.0", "id": JSON(nextID), "method": .string(call.method), "params": call.json])
                nextID += 1
            }
            let frame = calls.count == 1 ? messages[0] : .array(messages)
            guard let raw = server.handle(Array(frame.jsonString.utf8), session: connection.session),
                let reply = try? JSON.parse(raw)
            else {
                check.fail("no reply to ids \(ids)")
                return []
            }
            guard let replies = replies(reply, count: calls.count) else { return [] }
            check.expect(
                replies.map { $0["id"]?.intValue ?? -1 } == ids, "replies \(replies.map { $0["id"] }) for ids \(ids)")
            for entry in replies {
                check.expect(entry["error"]?["code"]?.intValue != -32603, "internal error: \(entry.jsonString)")
            }
            return replies
        }

        /// The reply as a list of responses (a batch answers with an array); nil (a failure) otherwise.
        mutating func replies(_ reply: JSON, count: Int) -> [JSON]? {
            if count == 1 { return [reply] }
            if case .array(let entries) = reply { return entries }
            check.fail("a batch of \(count) got \(reply.typeName)")
            return nil
        }

        /// One fuzz step: open a connection (0, or when none is live), or act on a live one.
        mutating func perform(step: UInt8, argument: Int) {
            let live = connections.indices.filter { !connections[$0].peer.isClosed }
            if step == 0 || live.isEmpty {
                guard connections.count < 8 else { return }
                let peer = Peer(fragile: argument & 1 == 1)
                connections.append(Connection(peer: peer, session: RPCSession(peer: peer)))
                _ = send(
                    connections.count - 1, [RPCMethod.initialize.request([.role: .string(RPCRole.automation.rawValue)])]
                )
                return
            }
            let index = live[argument % live.count]
            switch step {
            case 1 where connections[index].app == nil:
                let reply = send(index, [RPCMethod.appRegister.request([.name: .string("app\(argument % 3)")])])
                connections[index].app = reply.first?["result"]?["app"]?.stringValue
            case 2:
                let events: [JSON] =
                    argument & 2 == 0 ? ["tree.changed"] : ["tree.changed", "app.removed", "app.added"]
                let reply = send(index, [RPCMethod.eventsSubscribe.request([.events: .array(events)])])
                if let id = reply.first?["result"]?["subscription"]?.intValue {
                    connections[index].subscriptions.append(id)
                }
            case 3 where connections[index].app != nil: sendTree(index, argument: argument)
            case 4:
                connections[index].peer.close()
            case 5:
                _ = send(
                    index, Array(repeating: RPCMethod.ping.request(), count: argument % 4 + 1))
            case 6:
                if let id = connections[index].subscriptions.popLast() {
                    _ = send(index, [RPCMethod.eventsUnsubscribe.request([.subscription: JSON(id)])])
                }
            default:
                break
            }
            checkClosedApps()
        }

        /// The first time a hierarchy, then `argument % 6 + 1` updates, while the connection lives.
        mutating func sendTree(_ index: Int, argument: Int) {
            var calls: [RPCRequest] = []
            if !connections[index].hasTree {
                calls.append(
                    RPCMethod.hierarchySet.request(
                        [
                            .windows: [
                                [
                                    "id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100],
                                    "children": [
                                        ["id": "l", "class": "UILabel", "text": "0", "frame": [0, 0, 50, 20]]
                                    ],
                                ]
                            ]
                        ]))
                connections[index].hasTree = true
            }
            for _ in 0..<(argument % 6 + 1) {
                counter += 1
                calls.append(
                    RPCMethod.hierarchyUpdate.request(
                        [.ops: [["op": "set", "id": "l", "properties": ["text": .string("\(counter)")]]]]))
            }
            for call in calls where !connections[index].peer.isClosed { _ = send(index, [call]) }
        }

        /// A closed connection's app is gone (its id may since belong to a live connection's new app).
        mutating func checkClosedApps() {
            let liveApps = Set(connections.filter { !$0.peer.isClosed }.compactMap(\.app))
            for connection in connections where connection.peer.isClosed {
                if let app = connection.app, !liveApps.contains(app) {
                    check.expect(!server.hub.appIDs.contains(app), "app \(app) stayed after its connection closed")
                }
            }
        }
    }
}
