import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPCClient
import Synchronization

/// `tree.get`'s JSON answer decoded as far as the caller reads it (issue 35 item 3, D-CLIENT-TREE-2): the answer's
/// small members (`app`, `revision`, `count`, `truncated`) are decoded when it arrives; `windows` (the nested
/// elements: nearly all of the bytes) stays the server's bytes until `windows()` reads it, then it is decoded once.
/// `json()` is the whole answer, equal to what `AXClient.tree` returns.
///
/// The split relies on JSON itself, not on trust: a quote inside a string is always escaped, so the bytes
/// `"windows":[` and `],"count":` occur raw only outside strings; the first and the last of them bound the answer's
/// own `windows` when the rest parses with `windows` as `[]` and the bytes between parse as one array. An answer of
/// another shape, or one whose parts do not parse so, is read whole, as the ordinary parser reads it (its errors
/// included), so every answer decodes to exactly the value a full decode gives.
public struct AXTreeReply: Sendable {
    /// The answer without its elements: `windows` stands as `[]` (the decoded answer when it was read whole).
    let head: JSONObject
    let storage: Storage

    final class Storage: Sendable {
        /// The reply frame and the range of the `windows` array in it; nil when the answer was decoded whole.
        let bytes: RPCResultBytes?
        let windowsRange: Range<Int>
        let windows: Mutex<[JSON]?>

        init(bytes: RPCResultBytes?, windowsRange: Range<Int>, windows: [JSON]?) {
            self.bytes = bytes
            self.windowsRange = windowsRange
            self.windows = Mutex(windows)
        }
    }

    /// The members of `tree.get`'s answer.
    typealias Member = RPCCatalog.TreeGet.Member

    /// The app's id.
    public var app: String? { head[Member.app.rawValue]?.stringValue }
    /// The tree's revision the answer shows.
    public var revision: Int? { head[Member.revision.rawValue]?.intValue }
    /// How many elements the answer carries.
    public var count: Int? { head[Member.count.rawValue]?.intValue }
    /// Where the answer left elements out (`{id, kind: depth|children, omitted}`).
    public var truncated: [JSON] { head[Member.truncated.rawValue]?.arrayValue ?? [] }

    /// The top-level elements (each with its `children`), decoded on the first call.
    public func windows() throws(AXClientError) -> [JSON] {
        if let decoded = storage.windows.withLock({ $0 }) { return decoded }
        guard let bytes = storage.bytes else {
            throw AXClientError(
                code: RPCError.Code.internalError, message: "tree.get: the answer has no windows array", data: nil)
        }
        let decoded = try Self.decodeWindows(bytes, storage.windowsRange)
        storage.windows.withLock { $0 = decoded }
        return decoded
    }

    /// The whole answer, as `AXClient.tree` returns it (decodes the elements if they are not yet).
    public func json() throws(AXClientError) -> JSON {
        guard storage.bytes != nil else { return .object(head) }
        var whole = head
        whole[Member.windows.rawValue] = .array(try windows())
        return .object(whole)
    }

    /// The reply of `RPCClient.callForBytes`.
    init(_ result: RPCResult) throws(AXClientError) {
        switch result {
        case .parsed(let json):
            try self.init(decoded: json)
        case .bytes(let bytes):
            guard let (head, range) = Self.split(bytes) else {
                let whole: JSON
                do { whole = try bytes.decodedWhole() } catch { throw AXClientError(error) }
                try self.init(decoded: whole)
                return
            }
            self.init(head: head, storage: Storage(bytes: bytes, windowsRange: range, windows: nil))
        }
    }

    init(head: JSONObject, storage: Storage) {
        self.head = head
        self.storage = storage
    }

    /// An answer already decoded whole.
    init(decoded: JSON) throws(AXClientError) {
        guard case .object(let object) = decoded else {
            throw AXClientError(
                code: RPCError.Code.internalError, message: "tree.get: the answer is not a JSON object", data: decoded)
        }
        self.init(
            head: object,
            storage: Storage(bytes: nil, windowsRange: 0..<0, windows: object[Member.windows.rawValue]?.arrayValue))
    }

    static let windowsKey: [UInt8] = Array(#""windows":["#.utf8)
    static let tailKey: [UInt8] = Array(#"],"count":"#.utf8)

    /// The answer with `windows` as `[]` and the range of the `windows` array (from `[` to `]`) in the frame; nil
    /// when the answer does not split so (then it is read whole).
    static func split(_ bytes: RPCResultBytes) -> (JSONObject, Range<Int>)? {
        let frame = bytes.frame
        guard let start = firstIndex(of: windowsKey, in: frame, bytes.result),
            let end = lastIndex(of: tailKey, in: frame, bytes.result), end > start
        else { return nil }
        var head: [UInt8] = []
        head.reserveCapacity(start - bytes.result.lowerBound + windowsKey.count + bytes.result.upperBound - end)
        head.append(contentsOf: frame[bytes.result.lowerBound..<start])
        head.append(contentsOf: windowsKey)
        head.append(contentsOf: frame[end..<bytes.result.upperBound])
        let range = (start + windowsKey.count - 1)..<(end + 1)
        guard closes(frame, range) else { return nil }
        // The result sits one level inside the message, `windows`' elements two.
        let limits = JSONParseLimits(maxDepth: RPCClient.maxReplyDepth - 1, maxBytes: max(head.count, 1))
        guard case .object(let object)? = try? JSON.parse(head, limits: limits),
            object[Member.windows.rawValue] == .array([])
        else { return nil }
        return (object, range)
    }

    /// Whether the bracket opening `bytes[range]` is closed by its last byte and not before (strings and their
    /// escapes skipped as a JSON parser reads them): else the first and last keys found do not bound one array, and
    /// the answer is read whole.
    static func closes(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var depth = 0
            var position = range.lowerBound
            let last = range.upperBound - 1
            while position < last {
                switch buffer[position] {
                case 0x5B, 0x7B: depth += 1
                case 0x5D, 0x7D:
                    depth -= 1
                    if depth == 0 { return false }
                case 0x22:
                    guard let end = stringEnd(buffer, position + 1, last) else { return false }
                    position = end
                default: break
                }
                position += 1
            }
            return depth == 1 && (buffer[last] == 0x5D)
        }
    }

    /// The index of the quote closing the string whose content starts at `position` (nil when none before `limit`).
    static func stringEnd(_ buffer: UnsafeBufferPointer<UInt8>, _ position: Int, _ limit: Int) -> Int? {
        var index = position
        while index < limit {
            switch buffer[index] {
            case 0x22: return index
            case 0x5C: index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// The `windows` array decoded from its bytes; when they are not one JSON array, the frame read whole decides
    /// (its `windows`, or the error that says what is wrong).
    static func decodeWindows(_ bytes: RPCResultBytes, _ range: Range<Int>) throws(AXClientError) -> [JSON] {
        let limits = JSONParseLimits(maxDepth: RPCClient.maxReplyDepth - 2, maxBytes: max(range.count, 1))
        let parsed: JSON? = bytes.frame.withUnsafeBytes { raw in
            try? JSON.parse(UnsafeRawBufferPointer(rebasing: raw[range]), limits: limits)
        }
        if case .array(let windows)? = parsed { return windows }
        let whole: JSON
        do { whole = try bytes.decodedWhole() } catch { throw AXClientError(error) }
        guard let windows = whole[Member.windows.rawValue]?.arrayValue else {
            throw AXClientError(
                code: RPCError.Code.internalError, message: "tree.get: the answer has no windows array", data: nil)
        }
        return windows
    }

    /// Where `pattern` first occurs in `bytes[range]`.
    static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        guard range.count >= pattern.count else { return nil }
        var position = range.lowerBound
        while position <= range.upperBound - pattern.count {
            if bytes[position] == pattern[0], bytes[position..<(position + pattern.count)].elementsEqual(pattern) {
                return position
            }
            position += 1
        }
        return nil
    }

    /// Where `pattern` last occurs in `bytes[range]`.
    static func lastIndex(of pattern: [UInt8], in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        guard range.count >= pattern.count else { return nil }
        var position = range.upperBound - pattern.count
        while position >= range.lowerBound {
            if bytes[position] == pattern[0], bytes[position..<(position + pattern.count)].elementsEqual(pattern) {
                return position
            }
            position -= 1
        }
        return nil
    }
}
