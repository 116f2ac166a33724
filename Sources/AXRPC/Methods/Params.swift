import AXCore
import AXHub
import AXInsight
import AXJSON
import AXJSONRPC
import AXProtocol

/// Typed access to one method's request params, with −32602 errors that name the parameter (D-CATALOG-3): the
/// accessors take only the keys the catalog declares for the method (`Spec.Param`), so a handler that reads a key
/// its method does not declare is a compile error, and no handler writes a parameter key as a string.
struct Params<Key: RPCParameterKey> {
    let json: JSONObject
    let method: String

    /// The params of a call to the method `Spec` declares; a key outside its declaration is −32602 (D-WIRE-4).
    init<Spec: RPCMethodSpec>(_ params: JSON?, _ spec: Spec.Type) throws(RPCError) where Spec.Param == Key {
        try self.init(checking: params, method: Spec.entry.name.rawValue)
    }

    private init(checking params: JSON?, method: String) throws(RPCError) {
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

    subscript(key: Key) -> JSON? {
        guard let value = json[key.rawValue], !value.isNull else { return nil }
        return value
    }

    /// Whether the call sent `key` at all (null included).
    func sent(_ key: Key) -> Bool { json.keys.contains(key.rawValue) }

    /// The `app` every method takes (an app id or name), when the call names one.
    func app() throws(RPCError) -> String? {
        guard let value = json[rpcAppParameter], !value.isNull else { return nil }
        guard case .string(let string) = value else {
            throw Self.bad(name: rpcAppParameter, "must be a string, got \(value.typeName)", method: method)
        }
        return string
    }

    func bad(_ key: Key, _ msg: String) -> RPCError { Self.bad(name: key.rawValue, msg, method: method) }

    /// −32602 for a payload field as AXSchema's decoder names it (`value.name`, `point`).
    func bad(field: String, _ msg: String) -> RPCError { Self.bad(name: field, msg, method: method) }

    /// The wire name of `key`, for a decoder that names the field it refuses.
    func name(_ key: Key) -> String { key.rawValue }

    private static func bad(name: String, _ msg: String, method: String) -> RPCError {
        RPCError.invalidParams(
            "\(method): '\(name)' \(msg)", data: ["param": .string(name), "method": .string(method)])
    }

    func string(_ key: Key) throws(RPCError) -> String? {
        guard let value = self[key] else { return nil }
        guard case .string(let string) = value else { throw bad(key, "must be a string, got \(value.typeName)") }
        return string
    }
    func requiredString(_ key: Key) throws(RPCError) -> String {
        guard let value = try string(key) else { throw bad(key, "is required") }
        return value
    }
    /// The one checked conversion for integers taken from the wire: a JSON number that is integral and lies in
    /// `range`, else -32602 naming the parameter, the accepted range and what was sent (never a trap).
    func int(_ key: Key, in range: ClosedRange<Int>) throws(RPCError) -> Int? {
        guard let value = self[key] else { return nil }
        guard let integer = ParamRange.checkedInt(value, in: range) else {
            var data: JSONObject = [
                "param": .string(key.rawValue), "method": .string(method), "min": JSON(range.lowerBound),
                "max": JSON(range.upperBound),
            ]
            data["got"] = value
            let got: String
            switch value {
            case .number: got = value.jsonString
            default: got = "a \(value.typeName)"
            }
            throw RPCError.invalidParams(
                "\(method): '\(key.rawValue)' must be an integer in \(range.lowerBound)…\(range.upperBound), got \(got)",
                data: data)
        }
        return integer
    }
    func bool(_ key: Key) throws(RPCError) -> Bool? {
        guard let value = self[key] else { return nil }
        guard case .bool(let flag) = value else { throw bad(key, "must be true or false, got \(value.typeName)") }
        return flag
    }
    func number(_ key: Key) throws(RPCError) -> Double? {
        guard let value = self[key] else { return nil }
        guard case .number(let number) = value, number.isFinite else {
            throw bad(key, "must be a finite number, got \(value.typeName)")
        }
        return number
    }
    /// The value of `key` as one of the closed set `Value` the catalog declares for it (`values` in protocol.json),
    /// else −32602 "must be a, b or c".
    func oneOf<Value: RawRepresentable & CaseIterable>(_ key: Key, _ type: Value.Type) throws(RPCError) -> Value?
    where Value.RawValue == String {
        guard let name = try string(key) else { return nil }
        guard let value = Value(rawValue: name) else {
            let names = Value.allCases.map(\.rawValue)
            let choices =
                names.count > 1
                ? names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") : names.joined()
            throw bad(key, "must be \(choices)")
        }
        return value
    }

    func stringList(_ key: Key) throws(RPCError) -> [String]? {
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
    func timeout(_ key: Key, default defaultMilliseconds: Int = 5000) throws(RPCError) -> Duration {
        let ms = try int(key, in: ParamRange.timeoutMs) ?? defaultMilliseconds
        return .milliseconds(ms)
    }
}

extension Params where Key == RPCNoParam {
    /// The params of a call to `method` checked for unknown keys and read for `app` only: what the catalog's role
    /// check needs before the handler reads the rest.
    init(admitting params: JSON?, to method: RPCMethodName) throws(RPCError) {
        try self.init(checking: params, method: method.rawValue)
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
        for method in actionMethods { table[method.rawValue] = [:] }
        // Each range is keyed by the method's declared key (D-CATALOG-3): a key the method lacks does not compile.
        func ranges<Spec: RPCMethodSpec>(_ spec: Spec.Type, _ ranges: KeyValuePairs<Spec.Param, ClosedRange<Int>>) {
            table[Spec.entry.name.rawValue] = Dictionary(
                uniqueKeysWithValues: ranges.map { ($0.key.rawValue, $0.value) })
        }
        ranges(RPCCatalog.HierarchyUpdate.self, [.baseRevision: ParamRange.revision])
        ranges(RPCCatalog.TreeGet.self, [.depth: ParamRange.count, .maxChildren: ParamRange.count])
        ranges(RPCCatalog.TreeDiff.self, [.fromRevision: ParamRange.revision, .toRevision: ParamRange.revision])
        ranges(RPCCatalog.QueryFind.self, [.limit: ParamRange.count])
        ranges(RPCCatalog.WaitFor.self, [.timeoutMs: ParamRange.timeoutMs])
        ranges(RPCCatalog.AppReset.self, [.timeoutMs: ParamRange.timeoutMs])
        ranges(RPCCatalog.EventsUnsubscribe.self, [.subscription: ParamRange.subscription])
        table[RPCMethodName.auditListChecks.rawValue] = [:]
        ranges(RPCCatalog.AuditRun.self, [.maxFindings: 0...Auditor.maxFindingsLimit])
        table[RPCMethodName.speechDescribe.rawValue] = [:]
        // Script queries (issue 25).
        table[RPCMethodName.elementAtPoint.rawValue] = [:]
        ranges(
            RPCCatalog.ElementCell.self,
            [.row: 0...ParamRange.maxExactInteger, .column: 0...ParamRange.maxExactInteger])
        table[RPCMethodName.elementNext.rawValue] = [:]
        table[RPCMethodName.elementPrevious.rawValue] = [:]
        table[RPCMethodName.elementLargeContent.rawValue] = [:]
        ranges(RPCCatalog.ElementReadingContent.self, [.line: 0...ParamRange.maxExactInteger])
        ranges(RPCCatalog.SpeechWalk.self, [.limit: 0...speechWalkMaxLimit])
        ranges(RPCCatalog.TreeRender.self, [.maxNodes: 1...TreeRenderer.maxNodesLimit])
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
        case .noSuchApp:
            return .invalidParams(error.message, data: ["param": .string(rpcAppParameter), "reason": "no such app"])
        case .noSuchElement: return .noSuchElement(error.message)
        case .invalid: return .invalidParams(error.message)
        case .revisionTooOld:
            return .invalidParams(
                error.message,
                data: ["param": .string(RPCCatalog.TreeDiff.Param.fromRevision.rawValue), "reason": "revision too old"])
        }
    }

    static func from(_ error: PatchError) -> RPCError {
        .invalidParams(error.description, data: error.json.objectValue ?? [:])
    }

    static func from(_ error: ActionError) -> RPCError {
        switch error {
        case .noSuchApp(let app): return .invalidParams("no app '\(app)'", data: ["param": .string(rpcAppParameter)])
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
