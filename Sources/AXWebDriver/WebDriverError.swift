import AXJSON
import AXJSONRPC

/// A W3C WebDriver error: the error code string, its HTTP status (WebDriver §6.6, "Errors"), a message and the
/// server's typed error details (`data`, the JSON-RPC error's data when it came from axserver).
package struct WebDriverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The W3C error code (`no such element`, `stale element reference`…).
    package var code: String
    /// What went wrong.
    package var message: String
    /// Details (the axserver error's `data`, plus `rpcCode`), or nil.
    package var data: JSON?

    package init(_ code: String, _ message: String, data: JSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    package var description: String { "\(code): \(message)" }

    /// The HTTP status for every W3C error code (WebDriver §6.6, table of errors).
    package static let httpStatus: [String: Int] = [
        "element click intercepted": 400, "element not interactable": 400, "insecure certificate": 400,
        "invalid argument": 400, "invalid cookie domain": 400, "invalid element state": 400,
        "invalid selector": 400, "invalid session id": 404, "javascript error": 500,
        "move target out of bounds": 500, "no such alert": 404, "no such cookie": 404, "no such element": 404,
        "no such frame": 404, "no such window": 404, "no such shadow root": 404, "script timeout": 500,
        "session not created": 500, "stale element reference": 404, "detached shadow root": 404, "timeout": 500,
        "unable to set cookie": 500, "unable to capture screen": 500, "unexpected alert open": 500,
        "unknown command": 404, "unknown error": 500, "unknown method": 405, "unsupported operation": 500,
    ]

    /// This error's HTTP status.
    package var status: Int { WebDriverError.httpStatus[code] ?? 500 }

    /// The response body: `{"value": {"error", "message", "stacktrace", "data"?}}`.
    package var body: JSON {
        var value: JSONObject = ["error": .string(code), "message": .string(message), "stacktrace": ""]
        if let data { value["data"] = data }
        return ["value": .object(value)]
    }

    static func invalidArgument(_ message: String) -> WebDriverError { WebDriverError("invalid argument", message) }

    /// The W3C code for an axserver JSON-RPC error (the table in Specs/webdriver.md §Errors).
    package static func from(_ error: RPCError) -> WebDriverError {
        let code: String
        let reason = error.data?["reason"]?.stringValue
        switch error.code {
        case -32010: code = "no such element"
        case -32011: code = "invalid selector"
        case -32012: code = "stale element reference"
        case -32013: code = reason == "not hittable" ? "element click intercepted" : "element not interactable"
        case -32014: code = "unsupported operation"
        case -32015: code = "invalid selector"
        case -32016: code = "timeout"
        case -32017: code = "invalid element state"
        case -32020: code = reason == "disconnected" ? "no such window" : "timeout"
        case -32601: code = "unknown command"
        case -32602, -32600, -32700, -32021: code = "invalid argument"
        default: code = "unknown error"
        }
        var data = error.data?.objectValue ?? JSONObject()
        data["rpcCode"] = JSON(error.code)
        return WebDriverError(code, error.message, data: .object(data))
    }
}
