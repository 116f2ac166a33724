import AXJSON
import AXJSONRPC
import AXProtocol
import Foundation

/// One conformance case (Specs/conformance/README.md): a hierarchy, steps in the JSON-RPC vocabulary, and
/// expected results. The same files run in-process and black-box over a server's socket.
package struct ConformanceCase: Sendable {
    package var file: String
    package var id: String
    package var title: String
    package var rules: [String]
    package var hierarchy: JSON?
    package var provider: JSON?
    package var steps: [JSON]

    package init(file: String, json: JSON) throws {
        guard case .object(let object) = json else { throw ConformanceError("\(file): a case must be a JSON object") }
        self.file = file
        guard let id = object["id"]?.stringValue else { throw ConformanceError("\(file): missing 'id'") }
        self.id = id
        title = object["title"]?.stringValue ?? id
        rules = object["rules"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard !rules.isEmpty else {
            throw ConformanceError("\(file) (\(id)): every case cites at least one rule id in 'rules'")
        }
        hierarchy = object["hierarchy"]
        provider = object["provider"]
        guard let steps = object["steps"]?.arrayValue, !steps.isEmpty else {
            throw ConformanceError("\(file) (\(id)): 'steps' must be a non-empty array")
        }
        self.steps = steps
    }
}

package struct ConformanceError: Error, CustomStringConvertible, Sendable {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// What a runner needs from a server connection.
package protocol ConformanceConnection: AnyObject, Sendable {
    /// Calls a method; returns the result or the error object.
    func call(_ method: String, _ params: JSON?) async -> Result<JSON, RPCError>
    /// Sets how this connection, acting as the case's app, answers the server's `action.perform` requests.
    func setActionHandler(_ handler: @escaping @Sendable (JSON) async -> JSON)
    /// Notifications received since the last call, oldest first.
    func drainNotifications() -> [(method: String, params: JSON)]
    func close() async
}

extension ConformanceConnection {
    /// Calls a request built from the catalog's typed keys (D-CATALOG-3).
    func call(_ request: RPCRequest) async -> Result<JSON, RPCError> {
        await call(request.method, request.json)
    }
}

package struct CaseResult: Sendable {
    package var id: String
    package var file: String
    package var rules: [String]
    package var failure: String?
    package var passed: Bool { failure == nil }
}

package final class ConformanceRunner: Sendable {
    package typealias Connect = @Sendable () async throws -> any ConformanceConnection
    /// Gives, for each case, a way to open connections to the server that case runs against (a fresh in-process
    /// server per case, or the same live server over its socket).
    let server: @Sendable () async throws -> Connect
    /// The server's operator credential: steps that change guided access run on a third connection that
    /// initializes with role `operator` and this token (D-TRUST-1). nil: such steps run as automation.
    let operatorToken: String?

    package init(operatorToken: String? = nil, server: @escaping @Sendable () async throws -> Connect) {
        self.server = server
        self.operatorToken = operatorToken
    }

    /// Every case runs against the same server (black-box over a socket).
    package convenience init(operatorToken: String? = nil, connect: @escaping Connect) {
        self.init(operatorToken: operatorToken, server: { connect })
    }

    /// Loads every `*.json` case under `dir`, sorted by path.
    package static func loadCases(_ dir: String) throws -> [ConformanceCase] {
        let fileManager = FileManager.default
        var isDir: ObjCBool = false
        guard fileManager.fileExists(atPath: dir, isDirectory: &isDir) else {
            throw ConformanceError("no such directory: \(dir)")
        }
        var files: [String] = []
        if isDir.boolValue {
            guard let enumerator = fileManager.enumerator(atPath: dir) else {
                throw ConformanceError("cannot list \(dir)")
            }
            for case let file as String in enumerator where file.hasSuffix(".json") { files.append(dir + "/" + file) }
        } else {
            files = [dir]
        }
        var out: [ConformanceCase] = []
        for file in files.sorted() {
            guard let data = fileManager.contents(atPath: file) else { throw ConformanceError("cannot read \(file)") }
            let json: JSON
            do { json = try JSON.parse(Array(data), limits: JSONParseLimits(maxDepth: 4096)) } catch {
                throw ConformanceError("\(file): \(error)")
            }
            if case .array(let elements) = json {
                for element in elements { out.append(try ConformanceCase(file: file, json: element)) }
            } else {
                out.append(try ConformanceCase(file: file, json: json))
            }
        }
        var seen = Set<String>()
        for element in out where !seen.insert(element.id).inserted {
            throw ConformanceError("duplicate case id '\(element.id)' (\(element.file))")
        }
        return out
    }

    package func run(_ testCase: ConformanceCase) async -> CaseResult {
        var result = CaseResult(id: testCase.id, file: testCase.file, rules: testCase.rules, failure: nil)
        // Two connections, as in real use: the case's app (provider) and the test script (automation).
        let session: CaseSession
        do {
            let connect = try await server()
            let provider = try await connect()
            let automation = try await connect()
            session = CaseSession(
                testCase: testCase, connect: connect, provider: provider, automation: automation,
                operatorToken: operatorToken)
        } catch {
            result.failure = "cannot connect: \(error)"
            return result
        }
        defer { Task { await session.close() } }
        result.failure = await session.run()
        return result
    }

    /// Runs every case and prints one line per failure plus the closing `N passed, M failed` line.
    package func runAll(_ cases: [ConformanceCase], verbose: Bool, output: (String) -> Void) async -> [CaseResult] {
        var results: [CaseResult] = []
        for testCase in cases {
            let result = await run(testCase)
            results.append(result)
            if let failure = result.failure {
                output("FAIL \(testCase.id) (\(testCase.file)): \(failure)")
            } else if verbose {
                output("PASS \(testCase.id)")
            }
        }
        let passed = results.filter(\.passed).count
        let rules = Set(results.flatMap(\.rules))
        let fam = { (p: String) in rules.filter { $0.hasPrefix(p) && !$0.hasPrefix("D-") }.count }
        let ruleIDs = fam("R") + fam("X") + fam("A") + fam("B") + fam("C")
        output(
            "rules cited: \(ruleIDs) distinct rule ids (\(fam("R")) R, \(fam("X")) X, \(fam("A")) A, \(fam("B")) B, \(fam("C")) C) and \(rules.filter { $0.hasPrefix("D-") }.count) decisions, in \(results.count) cases"
        )
        output("\(passed) passed, \(results.count - passed) failed")
        return results
    }
}

final class ActionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [JSON] = []
    func append(_ request: JSON) {
        lock.lock()
        items.append(request)
        lock.unlock()
    }
    func drain() -> [JSON] {
        lock.lock()
        defer {
            items = []
            lock.unlock()
        }
        return items
    }
}

final class AppBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: String?
    var value: String? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return _value
        }
        set {
            lock.lock()
            _value = newValue
            lock.unlock()
        }
    }
}

/// Structural matching of expected against actual JSON (Specs/conformance/README.md §Matching).
/// Objects match when every expected key matches (extra actual keys are fine); arrays match element-wise with
/// the same length; `$`-operators: `{"$absent": true}`, `{"$contains": [...]}`, `{"$notContains": [...]}`,
/// `{"$len": n}`, `{"$approx": x, "$tol": t}`, `{"$any": true}`, `{"$prefix": "s"}`, `{"$oneOf": [...]}`,
/// `{"$ordered": [...]}` (items appear in this relative order).
package enum Matcher {
    package static func match(_ expected: JSON, _ actual: JSON, path: String = "$") -> String? {
        if case .object(let operands) = expected, let op = operands.keys.first, op.hasPrefix("$") {
            return matchOperator(op, operands, expected: expected, actual: actual, path: path)
        }
        switch (expected, actual) {
        case (.object(let expectedObject), .object(let actualObject)):
            return matchObject(expectedObject, actualObject, path: path)
        case (.array(let expectedItems), .array(let actualItems)):
            return matchArray(expectedItems, actualItems, actual: actual, path: path)
        case (.number(let expectedNumber), .number(let actualNumber)):
            return abs(expectedNumber - actualNumber) < 1e-9
                ? nil : "\(path): expected \(expectedNumber), got \(actualNumber)"
        default:
            return expected == actual
                ? nil : "\(path): expected \(expected.jsonString.prefix(200)), got \(actual.jsonString.prefix(200))"
        }
    }

    /// Every expected key matches (a `$absent` pattern also matches a missing key); extra actual keys are fine.
    private static func matchObject(_ expectedObject: JSONObject, _ actualObject: JSONObject, path: String) -> String? {
        for (key, expectedValue) in expectedObject {
            let actualValue = actualObject[key] ?? .null
            if case .object(let inner) = expectedValue, inner["$absent"] != nil {
                if let why = match(expectedValue, actualValue, path: path + "." + key) { return why }
                continue
            }
            if actualObject[key] == nil { return "\(path).\(key): missing" }
            if let why = match(expectedValue, actualValue, path: path + "." + key) { return why }
        }
        return nil
    }

    /// The same length, and item by item.
    private static func matchArray(_ expectedItems: [JSON], _ actualItems: [JSON], actual: JSON, path: String)
        -> String?
    {
        guard expectedItems.count == actualItems.count else {
            return
                "\(path): expected \(expectedItems.count) items, got \(actualItems.count): \(actual.jsonString.prefix(300))"
        }
        for (index, (expectedItem, actualItem)) in zip(expectedItems, actualItems).enumerated() {
            if let why = match(expectedItem, actualItem, path: "\(path)[\(index)]") { return why }
        }
        return nil
    }

    /// An object whose first key is a `$`-operator: `operands` holds the operator and its options (`$tol`).
    private static func matchOperator(
        _ op: String, _ operands: JSONObject, expected: JSON, actual: JSON, path: String
    ) -> String? {
        let ops = operands.keys.filter { $0.hasPrefix("$") && $0 != "$tol" }
        if ops.count > 1 {
            return
                "\(path): one $-operator per object, got \(ops.joined(separator: ", ")) (combine them in an array of separate checks)"
        }
        switch op {
        case "$any": return nil
        case "$absent":
            return actual.isNull ? nil : "\(path): expected absent, got \(actual.jsonString.prefix(200))"
        case "$len":
            let expectedLength = operands["$len"]?.intValue ?? -1
            let length = actual.arrayValue?.count ?? (actual.stringValue?.count ?? -1)
            return length == expectedLength ? nil : "\(path): expected length \(expectedLength), got \(length)"
        case "$approx": return matchApproximately(operands, actual: actual, path: path)
        case "$prefix": return matchPrefix(operands, actual: actual, path: path)
        case "$contains", "$notContains":
            return matchContains(op, operands, actual: actual, path: path)
        case "$ordered": return matchOrdered(operands[op], actual: actual, path: path)
        case "$oneOf":
            guard let items = operands[op]?.arrayValue else { return "\(path): $oneOf takes an array" }
            return items.contains { match($0, actual, path: path) == nil }
                ? nil : "\(path): \(actual.jsonString.prefix(200)) is none of \(expected.jsonString.prefix(200))"
        default:
            return "\(path): unknown operator \(op)"
        }
    }

    /// `$ordered`: the items appear in the actual array in this relative order.
    private static func matchOrdered(_ pattern: JSON?, actual: JSON, path: String) -> String? {
        guard let items = pattern?.arrayValue, let actualItems = actual.arrayValue else {
            return "\(path): $ordered needs arrays"
        }
        var start = 0
        for item in items {
            guard let found = actualItems[start...].firstIndex(where: { match(item, $0, path: path) == nil }) else {
                return "\(path): \(item.jsonString.prefix(200)) not found in order"
            }
            start = found + 1
        }
        return nil
    }

    /// `$prefix`: a string that starts with the given one.
    private static func matchPrefix(_ operands: JSONObject, actual: JSON, path: String) -> String? {
        guard let prefix = operands["$prefix"]?.stringValue, let text = actual.stringValue, text.hasPrefix(prefix)
        else {
            return
                "\(path): expected a string starting with \(operands["$prefix"]?.jsonString ?? ""), got \(actual.jsonString.prefix(200))"
        }
        return nil
    }

    /// `$approx` within `$tol` (0.001 by default).
    private static func matchApproximately(_ operands: JSONObject, actual: JSON, path: String) -> String? {
        guard let target = operands["$approx"]?.doubleValue, let number = actual.doubleValue else {
            return "\(path): expected a number"
        }
        let tolerance = operands["$tol"]?.doubleValue ?? 0.001
        return abs(target - number) <= tolerance ? nil : "\(path): expected ≈\(target), got \(number)"
    }

    /// `$contains` / `$notContains` on an array (items matched structurally) or a string (substrings).
    private static func matchContains(_ op: String, _ operands: JSONObject, actual: JSON, path: String) -> String? {
        guard let items = operands[op]?.arrayValue else { return "\(path): \(op) takes an array" }
        let actualItems: [JSON]
        if let elements = actual.arrayValue {
            actualItems = elements
        } else if let text = actual.stringValue {
            for item in items {
                guard let sub = item.stringValue else { return "\(path): string $contains takes strings" }
                if text.contains(sub) != (op == "$contains") { return "\(path): \(op) \(sub) failed on \"\(text)\"" }
            }
            return nil
        } else {
            return "\(path): expected an array, got \(actual.typeName)"
        }
        for item in items {
            let found = actualItems.contains { match(item, $0, path: path) == nil }
            if found != (op == "$contains") {
                return "\(path): \(op == "$contains" ? "missing" : "unexpected") \(item.jsonString.prefix(200))"
            }
        }
        return nil
    }
}

/// The operator connection of one case, opened lazily.
final class ConnectionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var connection: (any ConformanceConnection)?
    var value: (any ConformanceConnection)? {
        get { lock.withLock { connection } }
        set { lock.withLock { connection = newValue } }
    }
}
