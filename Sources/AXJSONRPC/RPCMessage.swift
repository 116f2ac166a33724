import AXJSON

/// One decoded JSON-RPC 2.0 message (an element of a batch, or a whole frame).
public enum RPCInbound: Sendable, Equatable {
    /// A call that wants an answer. `id` is a string or a number, echoed in the response (strings byte for byte;
    /// numbers that are not exact integers below 2^53 byte for byte too: the router keeps their text, see
    /// `RPCRawNumberID`; exact integers in their shortest form).
    case request(id: JSON, method: String, params: JSON?)
    /// A call without id: never answered, not even on error.
    case notification(method: String, params: JSON?)
    /// An answer to a request this side sent. `id` may be null (a peer reporting a parse error).
    case response(id: JSON, result: Result<JSON, RPCError>)
    /// Not a valid message: answered with `error` (code -32600) and `id` (null when it could not be read).
    case invalid(id: JSON, error: RPCError)

    /// Classifies and validates one message.
    /// Rules: must be an object with `"jsonrpc": "2.0"`; `id`, when present, must be a string or a number
    /// (`null` is refused); `method` must be a string; `params` must be an object or an array when present;
    /// a message without `method` but with an id and exactly one of `result` / `error` is a response.
    public static func classify(_ message: JSON) -> RPCInbound {
        guard case .object(let o) = message else {
            return .invalid(
                id: .null,
                error: .invalidRequest(
                    "a JSON-RPC message must be an object, got \(message.typeName)",
                    data: ["got": .string(message.typeName)]))
        }
        let methodValue = o["method"]
        let idValue = o["id"]
        // Responses (checked before id validation so an error response with id null is not answered).
        if methodValue == nil, let idValue, o["result"] != nil || o["error"] != nil {
            guard o["jsonrpc"] == .string("2.0") else {
                return .invalid(id: .null, error: .invalidRequest("\"jsonrpc\" must be exactly \"2.0\""))
            }
            if let r = o["result"] {
                if o["error"] != nil {
                    return .invalid(
                        id: .null, error: .invalidRequest("a response must not have both \"result\" and \"error\""))
                }
                return .response(id: idValue, result: .success(r))
            }
            let ej = o["error"]!
            let e = RPCError(json: ej) ?? .internalError("malformed error object in response: \(ej.jsonString)")
            return .response(id: idValue, result: .failure(e))
        }
        var id: JSON?
        if let idValue {
            switch idValue {
            case .string, .number: id = idValue
            case .null:
                return .invalid(
                    id: .null,
                    error: .invalidRequest("\"id\" must be a string or a number, not null (omit it for a notification)")
                )
            default:
                return .invalid(
                    id: .null, error: .invalidRequest("\"id\" must be a string or a number, got \(idValue.typeName)"))
            }
        }
        let replyID = id ?? .null
        guard let v = o["jsonrpc"] else {
            return .invalid(id: replyID, error: .invalidRequest("missing \"jsonrpc\": \"2.0\""))
        }
        guard v == .string("2.0") else {
            return .invalid(
                id: replyID, error: .invalidRequest("\"jsonrpc\" must be exactly \"2.0\", got \(v.jsonString)"))
        }
        guard let methodValue else {
            return .invalid(id: replyID, error: .invalidRequest("missing \"method\""))
        }
        guard case .string(let method) = methodValue else {
            return .invalid(
                id: replyID, error: .invalidRequest("\"method\" must be a string, got \(methodValue.typeName)"))
        }
        let params = o["params"]
        if let params {
            switch params {
            case .object, .array: break
            default:
                return .invalid(
                    id: replyID,
                    error: .invalidRequest(
                        "\"params\" must be an object or an array when present, got \(params.typeName)",
                        data: ["method": .string(method)]))
            }
        }
        if let id { return .request(id: id, method: method, params: params) }
        return .notification(method: method, params: params)
    }
}

/// Encoders for JSON-RPC 2.0 messages (compact, no trailing newline; the transport adds framing).
public enum RPCMessage {
    static let resultHead: StaticString = #"{"jsonrpc":"2.0","id":"#
    static let resultMid: StaticString = #","result":"#
    static let errorMid: StaticString = #","error":"#

    @inline(__always) static func append(_ out: inout [UInt8], _ s: StaticString) {
        out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// Appends an id: its raw number text when the router kept it (`RPCRawNumberID`), else its JSON form.
    @inline(__always) static func appendID(_ id: JSON, into out: inout [UInt8]) {
        if case .object = id, let raw = RPCRawNumberID.rawText(id) {
            out.append(contentsOf: raw.utf8)
        } else {
            id.serialize(into: &out)
        }
    }

    /// Appends `{"jsonrpc":"2.0","id":ID,"result":RESULT}`.
    public static func appendResult(id: JSON, result: JSON, into out: inout [UInt8]) {
        append(&out, resultHead)
        appendID(id, into: &out)
        append(&out, resultMid)
        result.serialize(into: &out)
        out.append(0x7D)
    }

    /// Appends `{"jsonrpc":"2.0","id":ID,"error":{...}}`.
    public static func appendError(id: JSON, error: RPCError, into out: inout [UInt8]) {
        append(&out, resultHead)
        appendID(id, into: &out)
        append(&out, errorMid)
        error.json.serialize(into: &out)
        out.append(0x7D)
    }

    /// A response frame: the result, or the error, for `id`.
    public static func response(id: JSON, result: Result<JSON, RPCError>) -> [UInt8] {
        var out: [UInt8] = []
        switch result {
        case .success(let r): appendResult(id: id, result: r, into: &out)
        case .failure(let e): appendError(id: id, error: e, into: &out)
        }
        return out
    }

    /// An error response frame for `id`.
    public static func errorResponse(id: JSON, _ error: RPCError) -> [UInt8] {
        var out: [UInt8] = []
        appendError(id: id, error: error, into: &out)
        return out
    }

    /// `{"jsonrpc":"2.0","id":ID,"method":M[,"params":P]}`
    public static func request(id: JSON, method: String, params: JSON?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        append(&out, resultHead)
        id.serialize(into: &out)
        append(&out, #","method":"#)
        JSON.serializeString(method, into: &out)
        if let params {
            append(&out, #","params":"#)
            params.serialize(into: &out)
        }
        out.append(0x7D)
        return out
    }

    /// `{"jsonrpc":"2.0","method":M[,"params":P]}`
    public static func notification(method: String, params: JSON?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        append(&out, #"{"jsonrpc":"2.0","method":"#)
        JSON.serializeString(method, into: &out)
        if let params {
            append(&out, #","params":"#)
            params.serialize(into: &out)
        }
        out.append(0x7D)
        return out
    }
}
