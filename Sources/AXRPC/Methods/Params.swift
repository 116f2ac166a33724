import AXCore
import AXHub
import AXInsight
import AXJSON
import AXJSONRPC
import AXProtocol

/// Typed access to request params with -32602 errors that name the parameter.
struct Params {
    let json: JSONObject
    let method: String

    init(_ params: JSON?, method: String) throws(RPCError) {
        self.method = method
        switch params {
        case nil, .null?: json = JSONObject()
        case .object(let object)?:
            if let unknown = AXMethods.unknownParameter(in: object, method: method) {
                throw unknown
            }
            json = object
        case .array?:
            throw RPCError.invalidParams("\(method) takes named params (an object)", data: ["method": .string(method)])
        default: throw RPCError.invalidParams("params must be an object", data: ["method": .string(method)])
        }
    }

    subscript(key: String) -> JSON? {
        guard let value = json[key], !value.isNull else { return nil }
        return value
    }

    func bad(_ key: String, _ msg: String) -> RPCError {
        RPCError.invalidParams("\(method): '\(key)' \(msg)", data: ["param": .string(key), "method": .string(method)])
    }

    func string(_ key: String) throws(RPCError) -> String? {
        guard let value = self[key] else { return nil }
        guard case .string(let string) = value else { throw bad(key, "must be a string, got \(value.typeName)") }
        return string
    }
    func requiredString(_ key: String) throws(RPCError) -> String {
        guard let value = try string(key) else { throw bad(key, "is required") }
        return value
    }
    /// The one checked conversion for integers taken from the wire: a JSON number that is integral and lies in
    /// `range`, else -32602 naming the parameter, the accepted range and what was sent (never a trap).
    func int(_ key: String, in range: ClosedRange<Int>) throws(RPCError) -> Int? {
        guard let value = self[key] else { return nil }
        guard let integer = ParamRange.checkedInt(value, in: range) else {
            var data: JSONObject = [
                "param": .string(key), "method": .string(method), "min": JSON(range.lowerBound),
                "max": JSON(range.upperBound),
            ]
            data["got"] = value
            let got: String
            switch value {
            case .number: got = value.jsonString
            default: got = "a \(value.typeName)"
            }
            throw RPCError.invalidParams(
                "\(method): '\(key)' must be an integer in \(range.lowerBound)…\(range.upperBound), got \(got)",
                data: data)
        }
        return integer
    }
    func bool(_ key: String) throws(RPCError) -> Bool? {
        guard let value = self[key] else { return nil }
        guard case .bool(let flag) = value else { throw bad(key, "must be true or false, got \(value.typeName)") }
        return flag
    }
    func number(_ key: String) throws(RPCError) -> Double? {
        guard let value = self[key] else { return nil }
        guard case .number(let number) = value, number.isFinite else {
            throw bad(key, "must be a finite number, got \(value.typeName)")
        }
        return number
    }
    func stringList(_ key: String) throws(RPCError) -> [String]? {
        guard let value = self[key] else { return nil }
        guard case .array(let array) = value else { throw bad(key, "must be an array of strings") }
        var out: [String] = []
        for element in array {
            guard case .string(let string) = element else { throw bad(key, "must be an array of strings") }
            out.append(string)
        }
        return out
    }
    /// Timeout in ms; default and maximum keep a wait bounded.
    func timeout(default defaultMilliseconds: Int = 5000) throws(RPCError) -> Duration {
        let ms = try int("timeoutMs", in: ParamRange.timeoutMs) ?? defaultMilliseconds
        return .milliseconds(ms)
    }
}

/// Accepted ranges of the integer parameters (Specs/protocol.md §Integer parameters). Upper bounds stay within
/// 2^53 − 1, the largest integer a JSON number carries exactly.
package enum ParamRange {
    /// 2^53 − 1.
    package static let maxExactInteger = 9_007_199_254_740_991
    /// Revisions (`baseRevision`, `fromRevision`, `toRevision`).
    package static let revision: ClosedRange<Int> = 0...maxExactInteger
    /// Counts and sizes (`limit`, `depth`, `maxChildren`).
    package static let count: ClosedRange<Int> = 0...maxExactInteger
    /// Subscription ids (`events.unsubscribe`): the server hands out ids from 1.
    package static let subscription: ClosedRange<Int> = 1...maxExactInteger
    /// Wait timeouts in milliseconds (at most ten minutes).
    package static let timeoutMs: ClosedRange<Int> = 0...600_000

    /// The value as an Int inside `range`, or nil: not a number, not integral (1.5), or out of range (−1, 1e300,
    /// 2^63, 2^64). Never traps.
    package static func checkedInt(_ value: JSON, in range: ClosedRange<Int>) -> Int? {
        guard let integer = value.intValue, range.contains(integer) else { return nil }
        return integer
    }
}

extension AXMethods {
    /// Every integer parameter each method reads, with its accepted range. Every method of the table must be
    /// listed (with `[:]` when it reads none): the hostile-integer sweep test enumerates `RPCRouter.methods`
    /// and fails for a method missing here.
    package static let integerParameters: [String: [String: ClosedRange<Int>]] = {
        var table: [String: [String: ClosedRange<Int>]] = [:]
        let none = [
            RPCMethodName.initialize.rawValue, RPCMethodName.ping.rawValue, RPCMethodName.cancelRequest.rawValue,
            RPCMethodName.shutdown.rawValue, RPCMethodName.appsList.rawValue, RPCMethodName.appRegister.rawValue,
            RPCMethodName.hierarchySet.rawValue,
            RPCMethodName.accessibilityPost.rawValue,
            RPCMethodName.treeRevision.rawValue, RPCMethodName.elementGet.rawValue, RPCMethodName.queryOne.rawValue,
            RPCMethodName.queryCount.rawValue, RPCMethodName.queryExplain.rawValue, RPCMethodName.actionTap.rawValue,
            RPCMethodName.focusGet.rawValue, RPCMethodName.focusSet.rawValue, RPCMethodName.eventsSubscribe.rawValue,
            RPCMethodName.policyGet.rawValue, RPCMethodName.policySet.rawValue, RPCMethodName.policyCheck.rawValue,
            RPCMethodName.accessibilityStatus.rawValue, RPCMethodName.a11ySettings.rawValue,
        ]
        for method in none { table[method] = [:] }
        for (method, _) in actionMethods { table[method.rawValue] = [:] }
        table[RPCMethodName.hierarchyUpdate.rawValue] = ["baseRevision": ParamRange.revision]
        table[RPCMethodName.treeGet.rawValue] = ["depth": ParamRange.count, "maxChildren": ParamRange.count]
        table[RPCMethodName.treeDiff.rawValue] = [
            "fromRevision": ParamRange.revision, "toRevision": ParamRange.revision,
        ]
        table[RPCMethodName.queryFind.rawValue] = ["limit": ParamRange.count]
        table[RPCMethodName.waitFor.rawValue] = ["timeoutMs": ParamRange.timeoutMs]
        table[RPCMethodName.appReset.rawValue] = ["timeoutMs": ParamRange.timeoutMs]
        table[RPCMethodName.eventsUnsubscribe.rawValue] = ["subscription": ParamRange.subscription]
        table[RPCMethodName.auditListChecks.rawValue] = [:]
        table[RPCMethodName.auditRun.rawValue] = ["maxFindings": 0...Auditor.maxFindingsLimit]
        table[RPCMethodName.speechDescribe.rawValue] = [:]
        // Script queries (issue 25).
        table[RPCMethodName.elementAtPoint.rawValue] = [:]
        table[RPCMethodName.elementCell.rawValue] = [
            "row": 0...ParamRange.maxExactInteger, "column": 0...ParamRange.maxExactInteger,
        ]
        table[RPCMethodName.elementNext.rawValue] = [:]
        table[RPCMethodName.elementPrevious.rawValue] = [:]
        table[RPCMethodName.elementLargeContent.rawValue] = [:]
        table[RPCMethodName.elementReadingContent.rawValue] = ["line": 0...ParamRange.maxExactInteger]
        table[RPCMethodName.speechWalk.rawValue] = ["limit": 0...speechWalkMaxLimit]
        table[RPCMethodName.treeRender.rawValue] = ["maxNodes": 1...TreeRenderer.maxNodesLimit]
        for method in [
            RPCMethodName.focusMove.rawValue, RPCMethodName.focusQuery.rawValue, RPCMethodName.focusUpdate.rawValue,
            RPCMethodName.focusExplain.rawValue, RPCMethodName.focusStatus.rawValue, RPCMethodName.focusItems.rawValue,
            RPCMethodName.focusActivate.rawValue,
            RPCMethodName.rotorList.rawValue, RPCMethodName.rotorNext.rawValue, RPCMethodName.rotorPrevious.rawValue,
            RPCMethodName.inputKey.rawValue, RPCMethodName.inputType.rawValue, RPCMethodName.inputConfigure.rawValue,
        ] {
            table[method] = [:]
        }
        return table
    }()
}

extension RPCError {
    static func from(_ error: HubError) -> RPCError {
        switch error.kind {
        case .noSuchApp: return .invalidParams(error.message, data: ["param": "app", "reason": "no such app"])
        case .noSuchElement: return .noSuchElement(error.message)
        case .invalid: return .invalidParams(error.message)
        case .revisionTooOld:
            return .invalidParams(error.message, data: ["param": "fromRevision", "reason": "revision too old"])
        }
    }

    static func from(_ error: PatchError) -> RPCError {
        .invalidParams(error.description, data: error.json.objectValue ?? [:])
    }

    static func from(_ error: ActionError) -> RPCError {
        switch error {
        case .noSuchApp(let app): return .invalidParams("no app '\(app)'", data: ["param": "app"])
        case .noSuchElement(let id): return .noSuchElement("no element '\(id)'", data: ["id": .string(id)])
        case .notSupported(let action, let supported):
            return .actionNotSupported(
                "the element does not support '\(action)'",
                data: ["action": .string(action), "supported": JSON(supported)])
        case .notInteractable(let reason):
            return .notInteractable("the element is not interactable: \(reason)", data: ["reason": .string(reason)])
        case .policyDenied(let restriction, let text):
            return .policyDenied(
                "guided access denies '\(restriction)'" + (text.map { " (\($0))" } ?? ""),
                data: ["restriction": .string(restriction)])
        case .appNotResponding(let reason):
            return .appNotResponding("the app did not answer: \(reason)", data: ["reason": .string(reason)])
        case .appFailed(let message, let reason, let details):
            var fields: JSONObject = ["reason": .string(reason)]
            if let details { fields["appError"] = details }
            return .appError(message, data: fields)
        case .failed(let message): return .internalError(message)
        }
    }
}

extension RPCError {
    /// Maps any error the method layer sees to its JSON-RPC error.
    package static func from(_ error: any Error) -> RPCError {
        switch error {
        case let rpcError as RPCError: return rpcError
        case let hubError as HubError: return from(hubError)
        case let patchError as PatchError: return from(patchError)
        case let actionError as ActionError: return from(actionError)
        case let schemaError as SchemaError:
            return .invalidParams(schemaError.description, data: ["param": .string(schemaError.property ?? "")])
        default: return .internalError(String(describing: error))
        }
    }
}
