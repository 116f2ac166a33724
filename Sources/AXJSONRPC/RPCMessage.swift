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
        guard case .object(let object) = message else {
            return .invalid(
                id: .null,
                error: .invalidRequest(
                    "a JSON-RPC message must be an object, got \(message.typeName)",
                    data: ["got": .string(message.typeName)]))
        }
        let methodValue = object["method"]
        let idValue = object["id"]
        // Responses (checked before id validation so an error response with id null is not answered).
        if methodValue == nil, let idValue, object["result"] != nil || object["error"] != nil {
            return classifyResponse(object, id: idValue)
        }
        if let idValue, let invalid = invalidID(idValue) { return invalid }
        let id = idValue
        let replyID = id ?? .null
        guard let version = object["jsonrpc"] else {
            return .invalid(id: replyID, error: .invalidRequest("missing \"jsonrpc\": \"2.0\""))
        }
        guard version == .string("2.0") else {
            return .invalid(
                id: replyID, error: .invalidRequest("\"jsonrpc\" must be exactly \"2.0\", got \(version.jsonString)"))
        }
        guard let methodValue else {
            return .invalid(id: replyID, error: .invalidRequest("missing \"method\""))
        }
        guard case .string(let method) = methodValue else {
            return .invalid(
                id: replyID, error: .invalidRequest("\"method\" must be a string, got \(methodValue.typeName)"))
        }
        let params = object["params"]
        if let params, let invalid = invalidParams(params, method: method, replyID: replyID) { return invalid }
        if let id { return .request(id: id, method: method, params: params) }
        return .notification(method: method, params: params)
    }

    /// The answer to an `id` that is neither a string nor a number; nil for a valid one.
    @inline(__always) static func invalidID(_ idValue: JSON) -> RPCInbound? {
        switch idValue {
        case .string, .number: return nil
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

    /// The answer to `params` that are neither an object nor an array; nil for valid ones.
    @inline(__always) static func invalidParams(_ params: JSON, method: String, replyID: JSON) -> RPCInbound? {
        switch params {
        case .object, .array: return nil
        default:
            return .invalid(
                id: replyID,
                error: .invalidRequest(
                    "\"params\" must be an object or an array when present, got \(params.typeName)",
                    data: ["method": .string(method)]))
        }
    }

    /// A message without `method` whose `id` is `id` and that has `result` or `error`: a response, or invalid.
    static func classifyResponse(_ object: JSONObject, id: JSON) -> RPCInbound {
        guard object["jsonrpc"] == .string("2.0") else {
            return .invalid(id: .null, error: .invalidRequest("\"jsonrpc\" must be exactly \"2.0\""))
        }
        if let resultValue = object["result"] {
            if object["error"] != nil {
                return .invalid(
                    id: .null, error: .invalidRequest("a response must not have both \"result\" and \"error\""))
            }
            return .response(id: id, result: .success(resultValue))
        }
        let errorValue = object["error"] ?? .null
        let rpcError =
            RPCError(json: errorValue)
            ?? .internalError("malformed error object in response: \(errorValue.jsonString)")
        return .response(id: id, result: .failure(rpcError))
    }
}

/// Encoders for JSON-RPC 2.0 messages (compact, no trailing newline; the transport adds framing).
public enum RPCMessage {
    static let resultHead: StaticString = #"{"jsonrpc":"2.0","id":"#
    static let resultMid: StaticString = #","result":"#
    static let errorMid: StaticString = #","error":"#

    @inline(__always) static func append(_ out: inout [UInt8], _ text: StaticString) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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
        appendResultHead(id: id, into: &out)
        result.serialize(into: &out)
        out.append(0x7D)
    }

    /// Appends `{"jsonrpc":"2.0","id":ID,"result":`: a caller that writes the result itself then closes the
    /// response with `}`.
    public static func appendResultHead(id: JSON, into out: inout [UInt8]) {
        append(&out, resultHead)
        appendID(id, into: &out)
        append(&out, resultMid)
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
        case .success(let value): appendResult(id: id, result: value, into: &out)
        case .failure(let rpcError): appendError(id: id, error: rpcError, into: &out)
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
