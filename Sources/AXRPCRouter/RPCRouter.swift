import AXJSON
import AXJSONRPC
import AXProtocol
import Synchronization

/// An asynchronous method handler. Throw `RPCError` for protocol errors; any other error becomes -32603.
package typealias RPCHandler = @Sendable (_ params: JSON?, _ session: RPCSession) async throws -> JSON
/// A synchronous method handler (answered on the transport's thread without spawning a Task).
package typealias RPCSyncHandler = @Sendable (_ params: JSON?, _ session: RPCSession) throws -> JSON
/// A synchronous handler that writes its result, one complete JSON value, straight into the reply buffer `out`,
/// for replies too large to build as a `JSON` value first (`tree.get`, issue 35). When it throws, whatever it
/// wrote is discarded and the error is the reply.
package typealias RPCSyncWriter =
    @Sendable (_ params: JSON?, _ session: RPCSession, _ out: inout [UInt8]) throws -> Void

/// Limits applied to every frame. Violations are answered with -32021 "message too large" whose
/// `data.limit` names the limit ("maxFrameBytes", "maxDepth" or "maxBatch") and `data.max` its value.
package struct RPCLimits: Sendable, Equatable {
    package var maxFrameBytes: Int
    package var maxDepth: Int
    package var maxBatch: Int
    package init(maxFrameBytes: Int = 16 << 20, maxDepth: Int = 1100, maxBatch: Int = 1000) {
        self.maxFrameBytes = maxFrameBytes
        self.maxDepth = maxDepth
        self.maxBatch = maxBatch
    }
    package static let `default` = RPCLimits()
}

/// What the synchronous entry points produced.
package enum HandleResult: Sendable {
    /// Send these bytes (one response object or one batch array, without framing).
    case reply([UInt8])
    /// Nothing must be sent (notifications, responses, all-notification batches).
    case noReply
    /// The frame calls an async handler: finish it with `run(_:session:)` (the frame is already parsed and
    /// validated; nothing in it has been executed yet).
    case needsAsync(RPCPreparedFrame)
}

/// A parsed, validated frame whose calls have not run yet.
package struct RPCPreparedFrame: Sendable {
    enum Item: Sendable {
        case call(id: JSON?, method: String, params: JSON?, entry: RPCRouter.Entry?)
        case invalid(id: JSON, error: RPCError)
    }
    let isBatch: Bool
    let items: [Item]
    /// True when every call in the frame can run inline: a synchronous handler (not asked to leave the loop for
    /// these params, see `registerSync(_:requiresInit:offLoop:_:)`), or none at all.
    package let allSync: Bool
    /// Number of messages that will run (calls + invalid elements).
    package var count: Int { items.count }

    /// The id of a frame that is one request to a method registered `concurrent` (and not a batch): such a frame
    /// may run beside the connection's other requests, its reply coming whenever it is done (D-PROTO-1); nil for
    /// every other frame, which keeps the connection's order.
    package var concurrentRequestID: JSON? {
        guard !isBatch, items.count == 1, case .call(let id?, _, _, let entry?) = items[0], entry.concurrent else {
            return nil
        }
        return id
    }
}

/// Dispatches JSON-RPC 2.0 frames to registered handlers.
///
/// Semantics:
/// - Requests (string or number ids, echoed exactly; numbers are exact up to 2^53) get exactly one response;
///   notifications never do.
/// - Batches run sequentially in array order; responses come back in the same order; an empty batch is one
///   -32600 error; invalid elements get per-element -32600 errors; a batch of only notifications gets nothing.
/// - Unknown method: -32601 with `data.method`. Unauthenticated session: -32019 for every call.
/// - Methods registered with `requiresInit: true` answer -32002 until `initialize` succeeded on the session.
///   `initialize` itself never requires it, and its success sets `session.initialized`.
/// - A frame (or batch element) that is a *response* completes the session's matching pending request
///   (`session.pendingRequests`) and is never answered.
/// - Handler errors: `RPCError` as is; `CancellationError` -> -32800; anything else -> -32603 with its description.
package final class RPCRouter: Sendable {
    struct Entry: Sendable {
        enum Handler: Sendable {
            case sync(RPCSyncHandler)
            case syncWriter(RPCSyncWriter)
            case async(RPCHandler)
        }
        var requiresInit: Bool
        var handler: Handler
        /// Whether a request may run beside the connection's other requests (`register(_:concurrent:)`).
        var concurrent = false
        /// For a sync handler: true for params whose work may be long (a regex search over the whole tree), so
        /// the call runs on the connection's async lane instead of the transport's event loop.
        var offLoop: (@Sendable (JSON?) -> Bool)?
        var isSync: Bool {
            switch handler {
            case .sync, .syncWriter: return true
            case .async: return false
            }
        }
        /// Whether the call can run inline on the caller's thread (`handleSync`/`runSync`).
        func runsInline(_ params: JSON?) -> Bool {
            guard isSync else { return false }
            guard let offLoop else { return true }
            return !offLoop(params)
        }
    }

    package let limits: RPCLimits
    private let table = Mutex<[String: Entry]>([:])

    package init(limits: RPCLimits = .default) {
        self.limits = limits
    }

    /// Registers (or replaces) an async handler.
    ///
    /// - Parameter concurrent: a request to this method (alone in its frame) may run beside the connection's other
    ///   requests, so a long wait does not hold them back; its reply may come after later requests' replies, and
    ///   `$/cancelRequest` can cancel it (D-PROTO-1). Only for methods that change nothing.
    package func register(
        _ method: String, requiresInit: Bool = true, concurrent: Bool = false, _ handler: @escaping RPCHandler
    ) {
        var entry = Entry(
            requiresInit: requiresInit && method != RPCMethodName.initialize.rawValue, handler: .async(handler))
        entry.concurrent = concurrent
        table.withLock { $0[method] = entry }
    }

    /// Registers (or replaces) a synchronous handler: frames whose calls are all synchronous are answered by
    /// `handleSync` on the caller's thread.
    package func registerSync(_ method: String, requiresInit: Bool = true, _ handler: @escaping RPCSyncHandler) {
        table.withLock {
            $0[method] = Entry(
                requiresInit: requiresInit && method != RPCMethodName.initialize.rawValue, handler: .sync(handler))
        }
    }

    /// Registers a synchronous handler that leaves the caller's thread when `offLoop(params)` is true: such a call
    /// is answered by `run(_:session:)` (the transport's async lane), never by `handleSync`, so a long call does
    /// not hold up the other connections served by the same event loop.
    package func registerSync(
        _ method: String, requiresInit: Bool = true, offLoop: @escaping @Sendable (JSON?) -> Bool,
        _ handler: @escaping RPCSyncHandler
    ) {
        table.withLock {
            $0[method] = Entry(
                requiresInit: requiresInit && method != RPCMethodName.initialize.rawValue, handler: .sync(handler),
                offLoop: offLoop)
        }
    }

    /// As `registerSync(_:requiresInit:offLoop:_:)` for a handler that writes its result into the reply buffer.
    package func registerSyncWriter(
        _ method: String, requiresInit: Bool = true, offLoop: @escaping @Sendable (JSON?) -> Bool,
        _ writer: @escaping RPCSyncWriter
    ) {
        table.withLock {
            $0[method] = Entry(requiresInit: requiresInit, handler: .syncWriter(writer), offLoop: offLoop)
        }
    }

    /// Registered method names, sorted.
    package var methods: [String] { table.withLock { Array($0.keys) }.sorted() }

    // MARK: - Entry points

    /// Handles one frame (a message or a batch) completely; nil when nothing must be sent.
    package func handle(frame: [UInt8], session: RPCSession) async -> [UInt8]? {
        switch handleSync(frame: frame, session: session) {
        case .reply(let bytes): return bytes
        case .noReply: return nil
        case .needsAsync(let prepared): return await run(prepared, session: session)
        }
    }

    /// Handles a frame without suspending when all its calls are synchronous; otherwise returns
    /// `.needsAsync` (having executed nothing) for the caller to finish with `run(_:session:)`.
    package func handleSync(frame: [UInt8], session: RPCSession) -> HandleResult {
        frame.withUnsafeBytes { handleSync(frame: $0, session: session) }
    }

    /// As `handleSync(frame:session:)` on raw bytes (the transport passes its read buffer without copying).
    package func handleSync(frame: UnsafeRawBufferPointer, session: RPCSession) -> HandleResult {
        switch prepare(frame: frame, session: session) {
        case .reply(let bytes): return .reply(bytes)
        case .noReply: return .noReply
        case .needsAsync(let prepared): return runSync(prepared, session: session)
        }
    }

    /// Parses and validates a frame and completes any responses in it, without running any call.
    /// Returns `.reply` for frame-level errors, `.noReply` when nothing is left to run, and
    /// `.needsAsync(frame)` otherwise (run it with `runSync` or `run`).
    package func prepare(frame: UnsafeRawBufferPointer, session: RPCSession) -> HandleResult {
        if frame.count > limits.maxFrameBytes {
            return Self.overLimit(
                "message of \(frame.count) bytes exceeds the limit of \(limits.maxFrameBytes) bytes",
                limit: "maxFrameBytes", max: limits.maxFrameBytes, size: frame.count)
        }
        let message: JSON
        do {
            message = try JSON.parse(
                frame, limits: JSONParseLimits(maxDepth: limits.maxDepth, maxBytes: limits.maxFrameBytes))
        } catch {
            return .reply(parseFailureReply(error, frame: frame))
        }
        if case .array(let elements) = message {
            return prepareBatch(elements, frame: frame, session: session)
        }
        let entryLookup: (String) -> Entry? = { method in self.table.withLock { $0[method] } }
        guard let made = makeItem(message, session: session, lookup: entryLookup) else { return .noReply }
        let item =
            RPCRawNumberID.needsRawText(message)
            ? RPCRawNumberID.substitute(made, raw: RPCRawNumberID.scan(frame)[0]) : made
        var allSync = true
        if case .call(_, _, let params, let entry?) = item, !entry.runsInline(params) { allSync = false }
        return .needsAsync(RPCPreparedFrame(isBatch: false, items: [item], allSync: allSync))
    }

    /// `prepare` for a batch: its size checked, then one item per message.
    private func prepareBatch(_ elements: [JSON], frame: UnsafeRawBufferPointer, session: RPCSession)
        -> HandleResult
    {
        if elements.isEmpty {
            return .reply(RPCMessage.errorResponse(id: .null, .invalidRequest("empty batch")))
        }
        if elements.count > limits.maxBatch {
            return Self.overLimit(
                "batch of \(elements.count) messages exceeds the limit of \(limits.maxBatch)",
                limit: "maxBatch", max: limits.maxBatch, size: elements.count)
        }
        var items: [RPCPreparedFrame.Item] = []
        items.reserveCapacity(elements.count)
        var allSync = true
        let snapshotTable = table.withLock { $0 }
        let rawIDs = elements.contains(where: RPCRawNumberID.needsRawText) ? RPCRawNumberID.scan(frame) : [:]
        for (index, element) in elements.enumerated() {
            if let made = makeItem(element, session: session, table: snapshotTable) {
                let item = RPCRawNumberID.substitute(made, raw: rawIDs[index])
                if case .call(_, _, let params, let entry?) = item, !entry.runsInline(params) { allSync = false }
                items.append(item)
            }
        }
        if items.isEmpty { return .noReply }
        return .needsAsync(RPCPreparedFrame(isBatch: true, items: items, allSync: allSync))
    }

    /// The reply to a frame over a size limit: −32021 naming the limit, its maximum and the size found.
    private static func overLimit(_ message: String, limit: String, max: Int, size: Int) -> HandleResult {
        .reply(
            RPCMessage.errorResponse(
                id: .null,
                .messageTooLarge(
                    message,
                    data: ["limit": .string(limit), "max": .number(Double(max)), "size": .number(Double(size))])))
    }

    /// The error reply to a frame that did not parse: too deep (with the request's id when a shallow scan finds
    /// it), or a syntax error.
    private func parseFailureReply(_ error: JSONParseError, frame: UnsafeRawBufferPointer) -> [UInt8] {
        if error.kind == .depthLimit {
            // A limit, not a syntax error: echo the request's id when a shallow scan finds it, so the client
            // can match the error to its call instead of waiting for a timeout.
            return RPCMessage.errorResponse(
                id: RPCRouter.topLevelID(frame) ?? .null,
                .messageTooLarge(
                    "message nested deeper than \(limits.maxDepth) levels (at offset \(error.offset))",
                    data: [
                        "limit": "maxDepth", "max": .number(Double(limits.maxDepth)),
                        "offset": .number(Double(error.offset)),
                    ]))
        }
        return RPCMessage.errorResponse(
            id: .null, .parseError("parse error: \(error.description)", offset: error.offset))
    }

    /// Runs a prepared frame synchronously if all its calls are synchronous; otherwise returns it back as
    /// `.needsAsync` untouched.
    package func runSync(_ frame: RPCPreparedFrame, session: RPCSession) -> HandleResult {
        guard frame.allSync else { return .needsAsync(frame) }
        return executeAll(frame, session: session)
    }

    /// As `runSync`, but also runs the sync calls registered to leave the event loop (`offLoop`): for callers
    /// that own their thread and serve no one else, such as the offline CLI (`axquery --file`).
    package func runSyncOnOwnThread(_ frame: RPCPreparedFrame, session: RPCSession) -> HandleResult {
        for item in frame.items {
            if case .call(_, _, _, let entry?) = item, !entry.isSync { return .needsAsync(frame) }
        }
        return executeAll(frame, session: session)
    }

    private func executeAll(_ frame: RPCPreparedFrame, session: RPCSession) -> HandleResult {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        if frame.isBatch { out.append(0x5B) }
        var wrote = false
        for item in frame.items {
            let mark = out.count
            if wrote && frame.isBatch { out.append(0x2C) }
            if executeSync(item, session: session, into: &out) {
                wrote = true
            } else {
                out.removeSubrange(mark...)
            }
        }
        if !wrote { return .noReply }
        if frame.isBatch { out.append(0x5D) }
        return .reply(out)
    }

    /// Runs a prepared frame (sync and async calls, sequentially); nil when nothing must be sent.
    package func run(_ frame: RPCPreparedFrame, session: RPCSession) async -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        if frame.isBatch { out.append(0x5B) }
        var wrote = false
        for item in frame.items {
            let mark = out.count
            if wrote && frame.isBatch { out.append(0x2C) }
            let did: Bool
            if case .call(let id, let method, let params, let entry?) = item, case .async(let handler) = entry.handler {
                if let precheckError = precheck(method: method, entry: entry, session: session) {
                    did = write(id: id, .failure(precheckError), into: &out)
                } else {
                    let result: Result<JSON, RPCError>
                    do { result = .success(try await handler(params, session)) } catch {
                        result = .failure(Self.mapError(error, method: method))
                    }
                    if case .success = result, method == RPCMethodName.initialize.rawValue {
                        session.initialized = true
                    }
                    did = write(id: id, result, into: &out)
                }
            } else {
                did = executeSync(item, session: session, into: &out)
            }
            if did { wrote = true } else { out.removeSubrange(mark...) }
        }
        if !wrote { return nil }
        if frame.isBatch { out.append(0x5D) }
        return out
    }

    // MARK: - Internals

    private func makeItem(_ message: JSON, session: RPCSession, table: [String: Entry]) -> RPCPreparedFrame.Item? {
        makeItem(message, session: session, lookup: { table[$0] })
    }

    private func makeItem(_ message: JSON, session: RPCSession, lookup: (String) -> Entry?) -> RPCPreparedFrame.Item? {
        switch RPCInbound.classify(message) {
        case .request(let id, let method, let params):
            return .call(id: id, method: method, params: params, entry: lookup(method))
        case .notification(let method, let params):
            return .call(id: nil, method: method, params: params, entry: lookup(method))
        case .response(let id, let result):
            session.pendingRequests.complete(id: id, with: result)
            return nil
        case .invalid(let id, let error):
            return .invalid(id: id, error: error)
        }
    }

    private func precheck(method: String, entry: Entry, session: RPCSession) -> RPCError? {
        if !session.authenticated {
            return .unauthorized(
                "unauthenticated connection: send 'initialize' with a valid token first",
                data: ["method": .string(method)])
        }
        if entry.requiresInit && !session.initialized { return .notInitialized(method: method) }
        return nil
    }

    /// Executes a non-async item; returns whether it wrote a response.
    private func executeSync(_ item: RPCPreparedFrame.Item, session: RPCSession, into out: inout [UInt8]) -> Bool {
        switch item {
        case .invalid(let id, let error):
            RPCMessage.appendError(id: id, error: error, into: &out)
            return true
        case .call(let id, let method, let params, let entry):
            guard let entry else {
                guard let id else { return false }
                if !session.authenticated {
                    RPCMessage.appendError(
                        id: id,
                        error: .unauthorized(
                            "unauthenticated connection: send 'initialize' with a valid token first",
                            data: ["method": .string(method)]), into: &out)
                } else {
                    RPCMessage.appendError(id: id, error: .methodNotFound(method), into: &out)
                }
                return true
            }
            if let precheckError = precheck(method: method, entry: entry, session: session) {
                return write(id: id, .failure(precheckError), into: &out)
            }
            let handler: RPCSyncHandler
            switch entry.handler {
            case .sync(let syncHandler): handler = syncHandler
            case .syncWriter(let writer): return writeStreamed(id: id, method: method, params, session, writer, &out)
            case .async:
                // Unreachable through the public API (runSync refuses frames with async calls).
                return write(
                    id: id, .failure(.internalError("async method '\(method)' called on the sync path")), into: &out)
            }
            let result: Result<JSON, RPCError>
            do { result = .success(try handler(params, session)) } catch {
                result = .failure(Self.mapError(error, method: method))
            }
            if case .success = result, method == RPCMethodName.initialize.rawValue { session.initialized = true }
            return write(id: id, result, into: &out)
        }
    }

    /// Runs a writer handler: its result written after the response head, or, when it throws, its partial output
    /// dropped and the error written instead. A notification's result is written to a scratch buffer and dropped.
    private func writeStreamed(
        id: JSON?, method: String, _ params: JSON?, _ session: RPCSession, _ writer: RPCSyncWriter,
        _ out: inout [UInt8]
    ) -> Bool {
        guard let id else {
            var scratch: [UInt8] = []
            try? writer(params, session, &scratch)
            return false
        }
        let mark = out.count
        RPCMessage.appendResultHead(id: id, into: &out)
        do {
            try writer(params, session, &out)
            out.append(0x7D)
        } catch {
            out.removeSubrange(mark...)
            RPCMessage.appendError(id: id, error: Self.mapError(error, method: method), into: &out)
        }
        return true
    }

    @inline(__always)
    private func write(id: JSON?, _ outcome: Result<JSON, RPCError>, into out: inout [UInt8]) -> Bool {
        guard let id else { return false }
        switch outcome {
        case .success(let value): RPCMessage.appendResult(id: id, result: value, into: &out)
        case .failure(let rpcError): RPCMessage.appendError(id: id, error: rpcError, into: &out)
        }
        return true
    }

    static func mapError(_ error: any Error, method: String) -> RPCError {
        if let rpcError = error as? RPCError { return rpcError }
        if error is CancellationError { return .cancelled("'\(method)' was cancelled") }
        return .internalError(
            "internal error in '\(method)': \(error)",
            data: ["method": .string(method), "type": .string(String(describing: type(of: error)))])
    }
}

extension RPCRouter {
    /// Finds the `"id"` member of a top-level JSON object without parsing nested values: a shallow byte scan
    /// that tracks strings and nesting. Returns a string or number id (numbers beyond exact integers as their raw
    /// text, `RPCRawNumberID`), or nil.
    static func topLevelID(_ frame: UnsafeRawBufferPointer) -> JSON? {
        var scan = TopLevelScan(frame: frame)
        scan.skipWhitespace()
        guard scan.position < frame.count, frame[scan.position] == 0x7B else { return nil }  // {
        scan.position += 1
        var depth = 1
        var expectKey = true
        while scan.position < frame.count {
            let byte = frame[scan.position]
            if byte == 0x22 {  // "
                guard let end = scan.stringEnd(scan.position) else { return nil }
                if depth == 1 && expectKey {
                    let isID = scan.isIDKey(end: end)
                    guard scan.skipColon(after: end) else { return nil }
                    if isID { return scan.memberValue() }
                    expectKey = false
                    continue
                }
                scan.position = end
                continue
            }
            switch byte {
            case 0x7B, 0x5B: depth += 1
            case 0x7D, 0x5D:
                depth -= 1
                if depth == 0 { return nil }
            case 0x2C: if depth == 1 { expectKey = true }
            default: break
            }
            scan.position += 1
        }
        return nil
    }
}

/// The cursor of `RPCRouter.topLevelID`'s shallow scan of a frame's bytes.
private struct TopLevelScan {
    let frame: UnsafeRawBufferPointer
    var position = 0

    init(frame: UnsafeRawBufferPointer) { self.frame = frame }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    mutating func skipWhitespace() {
        while position < frame.count, TopLevelScan.isWhitespace(frame[position]) { position += 1 }
    }

    /// Index just past the string starting at `start` (which is a quote), or nil.
    func stringEnd(_ start: Int) -> Int? {
        var cursor = start + 1
        while cursor < frame.count {
            if frame[cursor] == 0x5C {
                cursor += 2
                continue
            }
            if frame[cursor] == 0x22 { return cursor + 1 }
            cursor += 1
        }
        return nil
    }

    /// Whether the string from `position` to `end` is the key "id".
    func isIDKey(end: Int) -> Bool {
        end - position == 4 && frame[position + 1] == 0x69 && frame[position + 2] == 0x64
    }

    /// Moves past a key ending at `keyEnd` and its `:`; false when no `:` follows.
    mutating func skipColon(after keyEnd: Int) -> Bool {
        position = keyEnd
        skipWhitespace()
        guard position < frame.count, frame[position] == 0x3A else { return false }  // :
        position += 1
        skipWhitespace()
        return true
    }

    /// The member value at `position` when it is a string or a number (numbers beyond exact integers as their raw
    /// text, D-WIRE-3); nil otherwise.
    func memberValue() -> JSON? {
        var cursor = position
        if cursor < frame.count, frame[cursor] == 0x22 {
            guard let endOfString = stringEnd(cursor) else { return nil }
            cursor = endOfString
        } else {
            while cursor < frame.count, frame[cursor] != 0x2C, frame[cursor] != 0x7D,
                !TopLevelScan.isWhitespace(frame[cursor])
            { cursor += 1 }
        }
        let slice = UnsafeRawBufferPointer(rebasing: frame[position..<cursor])
        guard let value = try? JSON.parse(slice) else { return nil }
        switch value {
        case .string: return value
        case .number:
            return value.intValue != nil ? value : RPCRawNumberID.wrap(String(decoding: slice, as: UTF8.self))
        default: return nil
        }
    }
}

extension RPCRawNumberID {

    /// `item` with its number id replaced by the raw text (when there is one and it is a number token).
    static func substitute(_ item: RPCPreparedFrame.Item, raw: String?) -> RPCPreparedFrame.Item {
        guard let raw else { return item }
        switch item {
        case .call(let id?, let method, let params, let entry):
            guard case .number = id else { return item }
            return .call(id: wrap(raw), method: method, params: params, entry: entry)
        case .invalid(let id, let error):
            guard case .number = id else { return item }
            return .invalid(id: wrap(raw), error: error)
        default:
            return item
        }
    }

    /// Raw texts of number ids by message index (0 for a single object; the element index in a batch). A shallow
    /// scan: strings and nested values are skipped, not parsed. The last "id" member wins, as in the parser.
    static func scan(_ frame: UnsafeRawBufferPointer) -> [Int: String] {
        var scanner = IDScanner(frame: frame)
        return scanner.scanTop()
    }

    private struct IDScanner {
        let frame: UnsafeRawBufferPointer
        var i = 0

        init(frame: UnsafeRawBufferPointer) { self.frame = frame }

        mutating func skipWhitespace() {
            while i < frame.count, frame[i] == 0x20 || frame[i] == 0x09 || frame[i] == 0x0A || frame[i] == 0x0D {
                i += 1
            }
        }

        static func isNumberByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2B || byte == 0x2E || byte == 0x65
                || byte == 0x45
        }

        /// Skips the string starting at `i` (a quote).
        mutating func skipString() {
            i += 1
            while i < frame.count {
                if frame[i] == 0x5C {
                    i += 2
                    continue
                }
                if frame[i] == 0x22 {
                    i += 1
                    return
                }
                i += 1
            }
        }

        /// Skips one value of any kind.
        mutating func skipValue() {
            guard i < frame.count else { return }
            let first = frame[i]
            if first == 0x22 {
                skipString()
                return
            }
            if first == 0x7B || first == 0x5B {
                var depth = 0
                while i < frame.count {
                    let byte = frame[i]
                    if byte == 0x22 {
                        skipString()
                        continue
                    }
                    if byte == 0x7B || byte == 0x5B { depth += 1 }
                    if byte == 0x7D || byte == 0x5D {
                        depth -= 1
                        if depth == 0 {
                            i += 1
                            return
                        }
                    }
                    i += 1
                }
                return
            }
            while i < frame.count, frame[i] != 0x2C, frame[i] != 0x7D, frame[i] != 0x5D, frame[i] > 0x20 { i += 1 }
        }

        /// Scans the object at `i`; returns the raw text of its number "id", if any.
        mutating func scanObject() -> String? {
            var found: String?
            i += 1
            while i < frame.count {
                skipWhitespace()
                guard i < frame.count else { break }
                if frame[i] == 0x7D {
                    i += 1
                    break
                }
                if frame[i] == 0x2C {
                    i += 1
                    continue
                }
                guard frame[i] == 0x22 else {
                    skipValue()
                    continue
                }
                let keyStart = i
                skipString()
                let isID = i - keyStart == 4 && frame[keyStart + 1] == 0x69 && frame[keyStart + 2] == 0x64
                skipWhitespace()
                guard i < frame.count, frame[i] == 0x3A else { continue }
                i += 1
                skipWhitespace()
                let valueStart = i
                skipValue()
                if isID {
                    let bytes = UnsafeRawBufferPointer(rebasing: frame[valueStart..<i])
                    found =
                        !bytes.isEmpty && bytes.allSatisfy(IDScanner.isNumberByte)
                        ? String(decoding: bytes, as: UTF8.self) : nil
                }
            }
            return found
        }

        mutating func scanTop() -> [Int: String] {
            var out: [Int: String] = [:]
            skipWhitespace()
            guard i < frame.count else { return out }
            if frame[i] == 0x7B {
                if let text = scanObject() { out[0] = text }
                return out
            }
            guard frame[i] == 0x5B else { return out }
            i += 1
            var index = 0
            while i < frame.count {
                skipWhitespace()
                guard i < frame.count, frame[i] != 0x5D else { break }
                if frame[i] == 0x2C {
                    i += 1
                    index += 1
                    continue
                }
                if frame[i] == 0x7B {
                    if let text = scanObject() { out[index] = text }
                } else {
                    skipValue()
                }
            }
            return out
        }
    }
}
