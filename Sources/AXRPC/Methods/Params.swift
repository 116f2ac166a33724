import AXCore
import AXHub
import AXJSON

/// Typed access to request params with -32602 errors that name the parameter.
struct Params {
    let json: JSONObject
    let method: String

    init(_ params: JSON?, method: String) throws(RPCError) {
        self.method = method
        switch params {
        case nil, .null?: json = JSONObject()
        case .object(let o)?: json = o
        case .array?: throw RPCError.invalidParams("\(method) takes named params (an object)", data: ["method": .string(method)])
        default: throw RPCError.invalidParams("params must be an object", data: ["method": .string(method)])
        }
    }

    subscript(key: String) -> JSON? {
        guard let v = json[key], !v.isNull else { return nil }
        return v
    }

    func bad(_ key: String, _ msg: String) -> RPCError {
        RPCError.invalidParams("\(method): '\(key)' \(msg)", data: ["param": .string(key), "method": .string(method)])
    }

    func string(_ key: String) throws(RPCError) -> String? {
        guard let v = self[key] else { return nil }
        guard case .string(let s) = v else { throw bad(key, "must be a string, got \(v.typeName)") }
        return s
    }
    func requiredString(_ key: String) throws(RPCError) -> String {
        guard let s = try string(key) else { throw bad(key, "is required") }
        return s
    }
    func int(_ key: String) throws(RPCError) -> Int? {
        guard let v = self[key] else { return nil }
        guard let i = v.intValue else { throw bad(key, "must be an integer, got \(v.typeName)") }
        return i
    }
    func bool(_ key: String) throws(RPCError) -> Bool? {
        guard let v = self[key] else { return nil }
        guard case .bool(let b) = v else { throw bad(key, "must be true or false, got \(v.typeName)") }
        return b
    }
    func number(_ key: String) throws(RPCError) -> Double? {
        guard let v = self[key] else { return nil }
        guard case .number(let d) = v, d.isFinite else { throw bad(key, "must be a finite number, got \(v.typeName)") }
        return d
    }
    func stringList(_ key: String) throws(RPCError) -> [String]? {
        guard let v = self[key] else { return nil }
        guard case .array(let a) = v else { throw bad(key, "must be an array of strings") }
        var out: [String] = []
        for e in a {
            guard case .string(let s) = e else { throw bad(key, "must be an array of strings") }
            out.append(s)
        }
        return out
    }
    /// Timeout in ms; default and maximum keep a wait bounded.
    func timeout(default d: Int = 5000) throws(RPCError) -> Duration {
        let ms = try int("timeoutMs") ?? d
        guard ms >= 0, ms <= 600_000 else { throw bad("timeoutMs", "must be within 0…600000") }
        return .milliseconds(ms)
    }
}

extension RPCError {
    static func from(_ e: HubError) -> RPCError {
        switch e.kind {
        case .noSuchApp: return .invalidParams(e.message, data: ["param": "app", "reason": "no such app"])
        case .noSuchElement: return .noSuchElement(e.message)
        case .invalid: return .invalidParams(e.message)
        case .revisionTooOld: return .invalidParams(e.message, data: ["param": "fromRevision", "reason": "revision too old"])
        }
    }

    static func from(_ e: PatchError) -> RPCError {
        .invalidParams(e.description, data: e.json.objectValue ?? [:])
    }

    static func from(_ e: ActionError) -> RPCError {
        switch e {
        case .noSuchApp(let a): return .invalidParams("no app '\(a)'", data: ["param": "app"])
        case .noSuchElement(let id): return .noSuchElement("no element '\(id)'", data: ["id": .string(id)])
        case .notSupported(let action, let supported):
            return .actionNotSupported("the element does not support '\(action)'", data: ["action": .string(action), "supported": JSON(supported)])
        case .notInteractable(let reason): return .notInteractable("the element is not interactable: \(reason)", data: ["reason": .string(reason)])
        case .policyDenied(let r, let text):
            return .policyDenied("guided access denies '\(r)'" + (text.map { " (\($0))" } ?? ""), data: ["restriction": .string(r)])
        case .appNotResponding(let reason): return .appNotResponding("the app did not answer: \(reason)", data: ["reason": .string(reason)])
        case .appFailed(let message, let reason, let details):
            var fields: JSONObject = ["reason": .string(reason)]
            if let details { fields["appError"] = details }
            return .appError(message, data: fields)
        case .failed(let m): return .internalError(m)
        }
    }
}

extension RPCError {
    /// Maps any error the method layer sees to its JSON-RPC error.
    package static func from(_ e: any Error) -> RPCError {
        switch e {
        case let r as RPCError: return r
        case let h as HubError: return from(h)
        case let p as PatchError: return from(p)
        case let a as ActionError: return from(a)
        case let s as SchemaError: return .invalidParams(s.description, data: ["param": .string(s.property ?? "")])
        default: return .internalError(String(describing: e))
        }
    }
}
