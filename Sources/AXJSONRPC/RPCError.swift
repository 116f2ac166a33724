import AXJSON

/// A JSON-RPC 2.0 error object.
///
/// Error code table (every error the server makes carries `data` with at least a WebDriver-style `kind`
/// string, merged with the fields the caller supplied; `kind` always names the code below):
///
/// | code   | kind                      | meaning                                                          |
/// |--------|---------------------------|------------------------------------------------------------------|
/// | -32700 | parse error               | the frame is not valid JSON (`data.offset` = byte offset)        |
/// | -32600 | invalid request           | not a valid JSON-RPC 2.0 request object                          |
/// | -32601 | unknown method            | no such method (`data.method`)                                   |
/// | -32602 | invalid argument          | params have the wrong shape or values                            |
/// | -32603 | unknown error             | internal error (a handler threw something unexpected)            |
/// | -32002 | not initialized           | `initialize` must be called first                                |
/// | -32010 | no such element           | the selector / element id matched nothing                        |
/// | -32011 | ambiguous match           | a selector that must match one element matched several           |
/// | -32012 | stale element reference   | the element no longer exists in the tree                         |
/// | -32013 | element not interactable  | hidden, disabled or otherwise not actionable                     |
/// | -32014 | unsupported operation     | the element / app does not support this action                   |
/// | -32015 | invalid selector          | the selector text does not parse                                 |
/// | -32016 | timeout                   | a wait condition did not become true in time                     |
/// | -32017 | policy denied             | the server's policy refuses this request                         |
/// | -32018 | forbidden                 | the connection's role may not do this (`data.role`, `data.needs`)|
/// | -32019 | unauthorized              | missing or wrong token / unauthenticated connection             |
/// | -32020 | app not responding        | a provider did not answer in time, or disconnected (`data.reason`)|
/// | -32021 | message too large         | a frame exceeded an `RPCLimits` limit (`data.limit`)             |
/// | -32022 | app error                 | the app answered an action with an error or a malformed reply    |
/// | -32023 | busy                      | too many requests wait for the same app (`data.limit`); retry    |
/// | -32024 | no server                 | no axserver answers at the address a client tried (`data.address`)|
/// | -32800 | cancelled                 | the request was cancelled                                        |
/// | -32801 | content modified          | the tree changed under the request; retry                        |
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The error code (see the table).
    public var code: Int
    /// What went wrong, for a person.
    public var message: String
    /// Structured details: `kind` and the fields of the error.
    public var data: JSON?

    /// A raw error; prefer the static constructors, which fill in `data.kind`.
    public init(code: Int, message: String, data: JSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// An error whose `data` is `{"kind": kind}` merged with `fields` (`kind` always wins).
    public init(code: Int, kind: String, message: String, fields: JSONObject = JSONObject()) {
        var object = JSONObject(minimumCapacity: fields.count + 1)
        object.appendUnchecked("kind", .string(kind))
        for (key, value) in fields where key != "kind" { object.appendUnchecked(key, value) }
        self.init(code: code, message: message, data: .object(object))
    }

    /// `data.kind`, when present.
    public var kind: String? { data?["kind"]?.stringValue }

    /// `RPCError(code kind): message`.
    public var description: String { "RPCError(\(code) \(kind ?? "-")): \(message)" }

    /// The JSON-RPC error object: `{"code":…, "message":…, "data":…}`.
    public var json: JSON {
        var object = JSONObject(minimumCapacity: 3)
        object.appendUnchecked("code", .number(Double(code)))
        object.appendUnchecked("message", .string(message))
        if let data { object.appendUnchecked("data", data) }
        return .object(object)
    }

    /// Decodes an error object received from a peer; nil when it lacks an integral `code` or a string `message`.
    public init?(json: JSON) {
        guard let code = json["code"]?.intValue, let message = json["message"]?.stringValue else { return nil }
        self.init(code: code, message: message, data: json["data"])
    }
}

extension RPCError {
    /// The numeric codes (see the table on `RPCError`).
    public enum Code {
        /// -32700 "parse error": the frame is not valid JSON (`data.offset` = byte offset).
        public static let parseError = -32700
        /// -32600 "invalid request": not a valid JSON-RPC 2.0 request object.
        public static let invalidRequest = -32600
        /// -32601 "unknown method": no such method (`data.method`).
        public static let methodNotFound = -32601
        /// -32602 "invalid argument": params have the wrong shape or values.
        public static let invalidParams = -32602
        /// -32603 "unknown error": internal error (a handler threw something unexpected).
        public static let internalError = -32603
        /// -32002 "not initialized": `initialize` must be called first.
        public static let notInitialized = -32002
        /// -32010 "no such element": the selector / element id matched nothing.
        public static let noSuchElement = -32010
        /// -32011 "ambiguous match": a selector that must match one element matched several.
        public static let ambiguousMatch = -32011
        /// -32012 "stale element reference": the element no longer exists in the tree.
        public static let staleElement = -32012
        /// -32013 "element not interactable": hidden, disabled or otherwise not actionable.
        public static let notInteractable = -32013
        /// -32014 "unsupported operation": the element / app does not support this action.
        public static let actionNotSupported = -32014
        /// -32015 "invalid selector": the selector text does not parse.
        public static let invalidSelector = -32015
        /// -32016 "timeout": a wait condition did not become true in time.
        public static let timeout = -32016
        /// -32017 "policy denied": the server's policy refuses this request.
        public static let policyDenied = -32017
        /// -32018 "forbidden": the connection's role may not do this (`data.role`, `data.needs`).
        public static let forbidden = -32018
        /// -32019 "unauthorized": missing or wrong token / unauthenticated connection.
        public static let unauthorized = -32019
        /// -32020 "app not responding": a provider did not answer in time, or disconnected (`data.reason`).
        public static let appNotResponding = -32020
        /// -32021 "message too large": a frame exceeded an `RPCLimits` limit (`data.limit`).
        public static let messageTooLarge = -32021
        /// -32022 "app error": the app answered an action with an error or a malformed reply.
        public static let appError = -32022
        /// -32023 "busy": too many requests wait for the same app (`data.limit`); retry.
        public static let busy = -32023
        /// -32024 "no server": no axserver answers at the address a client tried (`data.address`, `data.hint`).
        public static let noServer = -32024
        /// -32800 "cancelled": the request was cancelled.
        public static let cancelled = -32800
        /// -32801 "content modified": the tree changed under the request; retry.
        public static let contentModified = -32801
    }

    /// The `kind` string for a code in the table (nil for codes outside it).
    public static func kind(forCode code: Int) -> String? { kinds[code] }

    /// The `kind` of every code in the table.
    static let kinds: [Int: String] = [
        Code.parseError: "parse error",
        Code.invalidRequest: "invalid request",
        Code.methodNotFound: "unknown method",
        Code.invalidParams: "invalid argument",
        Code.internalError: "unknown error",
        Code.notInitialized: "not initialized",
        Code.noSuchElement: "no such element",
        Code.ambiguousMatch: "ambiguous match",
        Code.staleElement: "stale element reference",
        Code.notInteractable: "element not interactable",
        Code.actionNotSupported: "unsupported operation",
        Code.invalidSelector: "invalid selector",
        Code.timeout: "timeout",
        Code.policyDenied: "policy denied",
        Code.forbidden: "forbidden",
        Code.unauthorized: "unauthorized",
        Code.appNotResponding: "app not responding",
        Code.messageTooLarge: "message too large",
        Code.appError: "app error",
        Code.busy: "busy",
        Code.noServer: "no server",
        Code.cancelled: "cancelled",
        Code.contentModified: "content modified",
    ]

    /// An error with the table's `kind` for `code`, plus `fields`.
    public static func make(_ code: Int, _ message: String, _ fields: JSONObject = JSONObject()) -> RPCError {
        RPCError(code: code, kind: kind(forCode: code) ?? "unknown error", message: message, fields: fields)
    }

    /// A -32700 "parse error" error: the frame is not valid JSON (`data.offset` = byte offset).
    public static func parseError(_ message: String, offset: Int? = nil, data: JSONObject = JSONObject()) -> RPCError {
        var fields = data
        if let offset { fields["offset"] = .number(Double(offset)) }
        return make(Code.parseError, message, fields)
    }
    /// A -32600 "invalid request" error: not a valid JSON-RPC 2.0 request object.
    public static func invalidRequest(_ message: String, data: JSONObject = JSONObject()) -> RPCError {
        make(Code.invalidRequest, message, data)
    }
    /// A -32601 "unknown method" error: no such method (`data.method`).
    public static func methodNotFound(_ method: String) -> RPCError {
        make(Code.methodNotFound, "method not found: \(method)", ["method": .string(method)])
    }
    /// A -32602 "invalid argument" error: params have the wrong shape or values.
    public static func invalidParams(_ message: String, data: JSONObject = JSONObject()) -> RPCError {
        make(Code.invalidParams, message, data)
    }
    /// A -32603 "unknown error" error: internal error (a handler threw something unexpected).
    public static func internalError(_ message: String, data: JSONObject = JSONObject()) -> RPCError {
        make(Code.internalError, message, data)
    }
    /// A -32002 "not initialized" error: `initialize` must be called first.
    public static func notInitialized(method: String) -> RPCError {
        make(Code.notInitialized, "not initialized: call 'initialize' before '\(method)'", ["method": .string(method)])
    }
    /// A -32010 "no such element" error: the selector / element id matched nothing.
    public static func noSuchElement(_ message: String = "no such element", data: JSONObject = JSONObject()) -> RPCError
    {
        make(Code.noSuchElement, message, data)
    }
    /// A -32011 "ambiguous match" error: a selector that must match one element matched several.
    public static func ambiguousMatch(
        _ message: String = "the selector matched more than one element", data: JSONObject = JSONObject()
    ) -> RPCError {
        make(Code.ambiguousMatch, message, data)
    }
    /// A -32012 "stale element reference" error: the element no longer exists in the tree.
    public static func staleElement(_ message: String = "the element no longer exists", data: JSONObject = JSONObject())
        -> RPCError
    {
        make(Code.staleElement, message, data)
    }
    /// A -32013 "element not interactable" error: hidden, disabled or otherwise not actionable.
    public static func notInteractable(
        _ message: String = "the element is not interactable", data: JSONObject = JSONObject()
    ) -> RPCError {
        make(Code.notInteractable, message, data)
    }
    /// A -32014 "unsupported operation" error: the element / app does not support this action.
    public static func actionNotSupported(
        _ message: String = "the action is not supported", data: JSONObject = JSONObject()
    ) -> RPCError {
        make(Code.actionNotSupported, message, data)
    }
    /// A -32015 "invalid selector" error: the selector text does not parse.
    public static func invalidSelector(_ message: String, data: JSONObject = JSONObject()) -> RPCError {
        make(Code.invalidSelector, message, data)
    }
    /// A -32016 "timeout" error: a wait condition did not become true in time.
    public static func timeout(_ message: String = "timed out", data: JSONObject = JSONObject()) -> RPCError {
        make(Code.timeout, message, data)
    }
    /// A -32017 "policy denied" error: the server's policy refuses this request.
    public static func policyDenied(_ message: String, data: JSONObject = JSONObject()) -> RPCError {
        make(Code.policyDenied, message, data)
    }
    /// -32018: the connection is authenticated, but its role may not call this (Specs/protocol.md §Roles).
    public static func forbidden(_ message: String, data: JSONObject = JSONObject()) -> RPCError {
        make(Code.forbidden, message, data)
    }
    /// A -32019 "unauthorized" error: missing or wrong token / unauthenticated connection.
    public static func unauthorized(_ message: String = "unauthorized", data: JSONObject = JSONObject()) -> RPCError {
        make(Code.unauthorized, message, data)
    }
    /// A -32020 "app not responding" error: a provider did not answer in time, or disconnected (`data.reason`).
    public static func appNotResponding(
        _ message: String = "the app is not responding", data: JSONObject = JSONObject()
    ) -> RPCError {
        make(Code.appNotResponding, message, data)
    }
    /// A -32024 "no server" error: nothing answers at `address` (the client could not connect: no socket, refused,
    /// or not a server); `data.hint` says how to start one or name another address.
    public static func noServer(address: String, reason: String, hint: String) -> RPCError {
        make(
            Code.noServer, "no server at \(address): \(reason)",
            ["reason": "no server", "address": .string(address), "cause": .string(reason), "hint": .string(hint)])
    }
    /// An app answered an action with an error (its own failure, e.g. a refused hierarchy update) or with a
    /// reply that is not `{"handled": Bool}`; `data.reason` says which (Specs/protocol.md §Provider role).
    public static func appError(_ message: String, data: JSONObject = JSONObject()) -> RPCError {
        make(Code.appError, message, data)
    }
    /// The peer of a pending server->client request went away.
    public static func disconnected(method: String? = nil) -> RPCError {
        var fields: JSONObject = ["reason": "disconnected"]
        if let method { fields["method"] = .string(method) }
        return make(
            Code.appNotResponding, "the peer disconnected" + (method.map { " before answering '\($0)'" } ?? ""), fields)
    }
    /// A -32021 "message too large" error: a frame exceeded an `RPCLimits` limit (`data.limit`).
    public static func messageTooLarge(_ message: String, data: JSONObject = JSONObject()) -> RPCError {
        make(Code.messageTooLarge, message, data)
    }
    /// A -32800 "cancelled" error: the request was cancelled.
    public static func cancelled(_ message: String = "the request was cancelled", data: JSONObject = JSONObject())
        -> RPCError
    {
        make(Code.cancelled, message, data)
    }
    /// A -32801 "content modified" error: the tree changed under the request; retry.
    public static func contentModified(
        _ message: String = "the content was modified; retry", data: JSONObject = JSONObject()
    ) -> RPCError {
        make(Code.contentModified, message, data)
    }
}
