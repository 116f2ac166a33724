import AXJSON
import AXJSONRPC
import XCTest

/// JSON-RPC 2.0 messages as both ends read and write them (`RPCInbound.classify`, `RPCMessage`, `RPCError`):
/// every malformed message is a typed -32600 with the id it can echo (issue 31 item 5: AXJSONRPC's own tests).
final class RPCMessageTests: XCTestCase {
    func testErrorTableAndDataMerging() {
        let codes: [(RPCError, Int, String)] = [
            (.parseError("p"), -32700, "parse error"), (.invalidRequest("r"), -32600, "invalid request"),
            (.methodNotFound("m"), -32601, "unknown method"), (.invalidParams("x"), -32602, "invalid argument"),
            (.internalError("i"), -32603, "unknown error"), (.notInitialized(method: "m"), -32002, "not initialized"),
            (.noSuchElement(), -32010, "no such element"), (.ambiguousMatch(), -32011, "ambiguous match"),
            (.staleElement(), -32012, "stale element reference"),
            (.notInteractable(), -32013, "element not interactable"),
            (.actionNotSupported(), -32014, "unsupported operation"),
            (.invalidSelector("s"), -32015, "invalid selector"),
            (.timeout(), -32016, "timeout"), (.policyDenied("p"), -32017, "policy denied"),
            (.unauthorized(), -32019, "unauthorized"), (.appNotResponding(), -32020, "app not responding"),
            (.messageTooLarge("m"), -32021, "message too large"), (.cancelled(), -32800, "cancelled"),
            (.contentModified(), -32801, "content modified"),
            (.disconnected(method: "a"), -32020, "app not responding"),
        ]
        for (error, code, kind) in codes {
            XCTAssertEqual(error.code, code, "\(error)")
            XCTAssertEqual(error.kind, kind, "\(error)")
            XCTAssertEqual(RPCError.kind(forCode: code), kind)
            XCTAssertEqual(RPCError(json: error.json), error, "json round trip of \(error)")
        }
        let error = RPCError.noSuchElement("no match", data: ["selector": "button", "kind": "spoofed"])
        XCTAssertEqual(error.data, ["kind": "no such element", "selector": "button"])
        XCTAssertEqual(RPCError.disconnected(method: "x").data?["reason"], "disconnected")
        XCTAssertNil(RPCError(json: ["code": "x", "message": "m"]))
    }

    func testValidMessagesAreClassified() throws {
        XCTAssertEqual(
            RPCInbound.classify(["jsonrpc": "2.0", "id": 7, "method": "ping"]),
            .request(id: 7, method: "ping", params: nil))
        XCTAssertEqual(
            RPCInbound.classify(["jsonrpc": "2.0", "id": "a", "method": "m", "params": [1, 2]]),
            .request(id: "a", method: "m", params: [1, 2]))
        XCTAssertEqual(
            RPCInbound.classify(["jsonrpc": "2.0", "method": "note", "params": ["k": "v"]]),
            .notification(method: "note", params: ["k": "v"]))
        XCTAssertEqual(
            RPCInbound.classify(["jsonrpc": "2.0", "id": 3, "result": ["ok": true]]),
            .response(id: 3, result: .success(["ok": true])))
        XCTAssertEqual(
            RPCInbound.classify(["jsonrpc": "2.0", "id": 4, "error": ["code": -32010, "message": "gone"]]),
            .response(id: 4, result: .failure(RPCError(code: -32010, message: "gone"))))
    }

    /// Each hostile shape gets -32600 with a message naming the fault; the id is echoed only when it is valid.
    func testInvalidMessagesAreTypedErrorsWithTheIdTheyCanEcho() {
        let cases: [(JSON, JSON, String)] = [
            ([1, 2], .null, "a JSON-RPC message must be an object, got array"),
            (["id": 1, "method": "m"], 1, "missing \"jsonrpc\": \"2.0\""),
            (["jsonrpc": "1.0", "id": 1, "method": "m"], 1, "\"jsonrpc\" must be exactly \"2.0\", got \"1.0\""),
            (["jsonrpc": "2.0", "id": 1], 1, "missing \"method\""),
            (["jsonrpc": "2.0", "id": 1, "method": 5], 1, "\"method\" must be a string, got number"),
            (
                ["jsonrpc": "2.0", "id": .null, "method": "m"], .null,
                "\"id\" must be a string or a number, not null (omit it for a notification)"
            ),
            (
                ["jsonrpc": "2.0", "id": ["x": 1], "method": "m"], .null,
                "\"id\" must be a string or a number, got object"
            ),
            (
                ["jsonrpc": "2.0", "id": 2, "method": "m", "params": "p"], 2,
                "\"params\" must be an object or an array when present, got string"
            ),
            (
                ["jsonrpc": "2.0", "id": 5, "result": 1, "error": ["code": 1, "message": "m"]], .null,
                "a response must not have both \"result\" and \"error\""
            ),
        ]
        for (message, id, text) in cases {
            guard case .invalid(let gotID, let error) = RPCInbound.classify(message) else {
                XCTFail("not refused: \(message.jsonString)")
                continue
            }
            XCTAssertEqual(gotID, id, message.jsonString)
            XCTAssertEqual(error.code, -32600, message.jsonString)
            XCTAssertEqual(error.message, text, message.jsonString)
        }
    }

    /// A response whose error object is malformed becomes a typed internal error, not a trap or a silent success.
    func testAMalformedErrorObjectInAResponseIsAnInternalError() {
        guard
            case .response(let id, .failure(let error)) = RPCInbound.classify(["jsonrpc": "2.0", "id": 9, "error": "x"])
        else { return XCTFail("not a failed response") }
        XCTAssertEqual(id, 9)
        XCTAssertEqual(error.code, -32603)
        XCTAssertTrue(error.message.hasPrefix("malformed error object in response"), error.message)
    }

    /// The encoders write what the parser and `classify` read back as the same message.
    func testEncodedMessagesRoundTrip() throws {
        let frames: [([UInt8], RPCInbound)] = [
            (
                RPCMessage.request(id: 12, method: "tree.get", params: ["a": [1, "é\n"]]),
                .request(id: 12, method: "tree.get", params: ["a": [1, "é\n"]])
            ),
            (RPCMessage.request(id: "s", method: "ping", params: nil), .request(id: "s", method: "ping", params: nil)),
            (
                RPCMessage.notification(method: "events.x", params: [true]),
                .notification(method: "events.x", params: [true])
            ),
            (
                RPCMessage.response(id: 3, result: .success(["v": .null])),
                .response(id: 3, result: .success(["v": .null]))
            ),
            (
                RPCMessage.errorResponse(id: "e", .timeout("slow")),
                .response(id: "e", result: .failure(.timeout("slow")))
            ),
        ]
        for (bytes, expected) in frames {
            XCTAssertEqual(RPCInbound.classify(try JSON.parse(bytes)), expected, String(decoding: bytes, as: UTF8.self))
        }
    }

    /// A number id the router kept as raw text is echoed with exactly those bytes; a wrapper-shaped id a client sent
    /// is refused by `classify`, so it cannot forge one.
    func testRawNumberIdsAreEchoedByteForByte() throws {
        let raw = RPCRawNumberID.wrap("12345678901234567890.50")
        let bytes = RPCMessage.response(id: raw, result: .success(1))
        XCTAssertEqual(
            String(decoding: bytes, as: UTF8.self), #"{"jsonrpc":"2.0","id":12345678901234567890.50,"result":1}"#)
        XCTAssertTrue(RPCRawNumberID.needsRawText(["id": 1.5]))
        XCTAssertFalse(RPCRawNumberID.needsRawText(["id": 15]))
        XCTAssertFalse(RPCRawNumberID.needsRawText(["id": "15"]))
        guard case .invalid = RPCInbound.classify(["jsonrpc": "2.0", "id": raw, "method": "m"]) else {
            return XCTFail("an object id is refused")
        }
    }
}
