import AXJSON

/// Number ids beyond the exact integers (above 2^53, fractions, exponents) are echoed with the bytes the client
/// sent (Specs/protocol.md §Ids): the parser keeps numbers as Doubles, so their text is recovered by a shallow
/// scan of the frame and carried in a wrapper only this file, `RPCMessage` and the router (its frame scan) know. A client cannot forge the
/// wrapper: ids that are objects are refused by `RPCInbound.classify`.
package enum RPCRawNumberID {
    package static let key = "\u{1}rawNumberID"

    /// Whether `message` (one request) has a number id that a Double would not echo byte for byte.
    @Sendable package static func needsRawText(_ message: JSON) -> Bool {
        guard case .number = message["id"] ?? .null else { return false }
        return message["id"]?.intValue == nil
    }

    /// The wrapper for a raw number text.
    package static func wrap(_ text: String) -> JSON { .object([key: .string(text)]) }

    /// The raw number text inside a wrapper, or nil.
    package static func rawText(_ id: JSON) -> String? {
        guard case .object(let o) = id, o.count == 1, case .string(let text)? = o[key] else { return nil }
        return text
    }
}
