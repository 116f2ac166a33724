import AXJSON
import AXRPC
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
        guard case .object(let o) = json else { throw ConformanceError("\(file): a case must be a JSON object") }
        self.file = file
        guard let id = o["id"]?.stringValue else { throw ConformanceError("\(file): missing 'id'") }
        self.id = id
        title = o["title"]?.stringValue ?? id
        rules = o["rules"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard !rules.isEmpty else {
            throw ConformanceError("\(file) (\(id)): every case cites at least one rule id in 'rules'")
        }
        hierarchy = o["hierarchy"]
        provider = o["provider"]
        guard let steps = o["steps"]?.arrayValue, !steps.isEmpty else {
            throw ConformanceError("\(file) (\(id)): 'steps' must be a non-empty array")
        }
        self.steps = steps
    }
}

package struct ConformanceError: Error, CustomStringConvertible, Sendable {
    package var description: String
    package init(_ d: String) { description = d }
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
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: dir, isDirectory: &isDir) else {
            throw ConformanceError("no such directory: \(dir)")
        }
        var files: [String] = []
        if isDir.boolValue {
            guard let e = fm.enumerator(atPath: dir) else { throw ConformanceError("cannot list \(dir)") }
            for case let f as String in e where f.hasSuffix(".json") { files.append(dir + "/" + f) }
        } else {
            files = [dir]
        }
        var out: [ConformanceCase] = []
        for f in files.sorted() {
            guard let data = fm.contents(atPath: f) else { throw ConformanceError("cannot read \(f)") }
            let json: JSON
            do { json = try JSON.parse(Array(data), limits: JSONParseLimits(maxDepth: 4096)) } catch {
                throw ConformanceError("\(f): \(error)")
            }
            if case .array(let a) = json {
                for c in a { out.append(try ConformanceCase(file: f, json: c)) }
            } else {
                out.append(try ConformanceCase(file: f, json: json))
            }
        }
        var seen = Set<String>()
        for c in out where !seen.insert(c.id).inserted {
            throw ConformanceError("duplicate case id '\(c.id)' (\(c.file))")
        }
        return out
    }

    package func run(_ c: ConformanceCase) async -> CaseResult {
        var result = CaseResult(id: c.id, file: c.file, rules: c.rules, failure: nil)
        // Two connections, as in real use: the case's app (provider) and the test script (automation).
        let conn: any ConformanceConnection
        let provider: any ConformanceConnection
        let connect: Connect
        do {
            connect = try await server()
            provider = try await connect()
            conn = try await connect()
        } catch {
            result.failure = "cannot connect: \(error)"
            return result
        }
        // The operator's connection, opened when a step first needs it.
        let operatorBox = ConnectionBox()
        defer {
            Task {
                await conn.close()
                await provider.close()
                await operatorBox.value?.close()
            }
        }
        let log = ActionLog()
        let providerRules = c.provider?["onAction"]?.arrayValue ?? []
        let appBox = AppBox()
        provider.setActionHandler { req in
            log.append(req)
            for rule in providerRules {
                guard let m = rule["match"], Matcher.match(m, req) == nil else { continue }
                if let ops = rule["update"], let app = appBox.value {
                    _ = await provider.call("hierarchy.update", ["app": .string(app), "ops": ops])
                }
                var answer: JSONObject = ["handled": .bool(rule["handled"]?.boolValue ?? true)]
                // A rule's `item` is the app's answer to a `rotorSearch` request (D-ROTOR-5).
                if let item = rule["item"] { answer["item"] = item }
                return .object(answer)
            }
            return ["handled": .bool(c.provider?["defaultHandled"]?.boolValue ?? true)]
        }
        func fail(_ step: Int, _ msg: String) -> CaseResult {
            var r = result
            r.failure = "step \(step): \(msg)"
            return r
        }
        switch await provider.call(
            "initialize", ["role": "provider", "clientInfo": ["name": "axserver-conformance-app"]])
        {
        case .failure(let e): return fail(0, "initialize (provider) failed: \(e.message)")
        case .success: break
        }
        switch await conn.call("initialize", ["role": "automation", "clientInfo": ["name": "axserver-conformance"]]) {
        case .failure(let e): return fail(0, "initialize (automation) failed: \(e.message)")
        case .success: break
        }
        let app: String
        switch await provider.call("app.register", ["name": .string("conformance-" + c.id)]) {
        case .failure(let e): return fail(0, "app.register failed: \(e.message)")
        case .success(let r):
            guard let a = r["app"]?.stringValue else { return fail(0, "app.register returned no app id") }
            app = a
        }
        appBox.value = app
        if let h = c.hierarchy {
            var params = h.objectValue ?? ["windows": h]
            params["app"] = .string(app)
            if case .failure(let e) = await provider.call("hierarchy.set", .object(params)) {
                return fail(0, "hierarchy.set failed: \(e.message) \(e.data.map { $0.jsonString } ?? "")")
            }
        }
        _ = conn.drainNotifications()
        for (i, step) in c.steps.enumerated() {
            let n = i + 1
            if let expectedLog = step["providerLog"] {
                let got = JSON.array(log.drain())
                if let why = Matcher.match(expectedLog, got) {
                    return fail(n, "provider log: \(why); got \(got.jsonString)")
                }
                continue
            }
            if let expectedEvents = step["events"] {
                // Events may arrive just after the call that caused them; give delivery a moment.
                var got: [JSON] = []
                for _ in 0..<50 {
                    got += conn.drainNotifications().map { ["method": .string($0.method), "params": $0.params] }
                    if Matcher.match(expectedEvents, .array(got)) == nil { break }
                    try? await Task.sleep(for: .milliseconds(10))
                }
                if let why = Matcher.match(expectedEvents, .array(got)) {
                    return fail(n, "events: \(why); got \(JSON.array(got).jsonString)")
                }
                continue
            }
            guard let method = step["method"]?.stringValue else {
                return fail(n, "a step needs 'method', 'providerLog' or 'events'")
            }
            var params = step["params"]?.objectValue ?? JSONObject()
            if params["app"] == nil && step["noApp"]?.boolValue != true { params["app"] = .string(app) }
            let providerMethods: Set<String> = ["hierarchy.set", "hierarchy.update", "accessibility.post"]
            let operatorMethods: Set<String> = ["policy.set"]
            // Who sends the step: `as` says it (app, automation, operator); by default the app sends its own
            // tree changes, the operator changes guided access (when the runner has its token), the test script
            // the rest.
            let defaultRole =
                providerMethods.contains(method)
                ? "app"
                : (operatorMethods.contains(method) && operatorToken != nil ? "operator" : "automation")
            let role = step["as"]?.stringValue ?? defaultRole
            let sender: any ConformanceConnection
            switch role {
            case "app":
                sender = provider
            case "automation":
                sender = conn
            case "operator":
                if let existing = operatorBox.value {
                    sender = existing
                } else {
                    guard let token = operatorToken else {
                        return fail(
                            n, "the step runs as operator, but the runner has no operator token (--operator-token-file)"
                        )
                    }
                    do {
                        let opened = try await connect()
                        operatorBox.value = opened
                        sender = opened
                    } catch {
                        return fail(n, "cannot open the operator connection: \(error)")
                    }
                    let hello: JSON = [
                        "role": "operator", "operatorToken": .string(token),
                        "clientInfo": ["name": "axserver-conformance-operator"],
                    ]
                    if case .failure(let e) = await sender.call("initialize", hello) {
                        return fail(n, "initialize (operator) failed: \(e.message)")
                    }
                }
            default:
                return fail(n, "'as' must be app, automation or operator")
            }
            let r = await sender.call(method, .object(params))
            let expect = step["expect"] ?? "ok"
            switch (r, expect) {
            case (.success, .string("ok")): continue
            case (.failure(let e), .string("ok")): return fail(n, "\(method) failed: \(e.code) \(e.message)")
            case (_, .object(let eo)):
                if let er = eo["error"] {
                    guard case .failure(let e) = r else {
                        return fail(n, "\(method) succeeded, expected an error \(er.jsonString)")
                    }
                    if let why = Matcher.match(er, e.json) {
                        return fail(n, "\(method) error: \(why); got \(e.json.jsonString)")
                    }
                } else if let rr = eo["result"] {
                    switch r {
                    case .failure(let e):
                        return fail(n, "\(method) failed: \(e.code) \(e.message) \(e.data?.jsonString ?? "")")
                    case .success(let got):
                        if let why = Matcher.match(rr, got) {
                            return fail(n, "\(method) result: \(why); got \(got.jsonString.prefix(2000))")
                        }
                    }
                } else {
                    return fail(n, "'expect' needs 'result' or 'error'")
                }
            default:
                return fail(n, "'expect' must be \"ok\" or an object")
            }
        }
        return result
    }

    /// Runs every case and prints one line per failure plus the closing `N passed, M failed` line.
    package func runAll(_ cases: [ConformanceCase], verbose: Bool, output: (String) -> Void) async -> [CaseResult] {
        var results: [CaseResult] = []
        for c in cases {
            let r = await run(c)
            results.append(r)
            if let f = r.failure { output("FAIL \(c.id) (\(c.file)): \(f)") } else if verbose { output("PASS \(c.id)") }
        }
        let passed = results.filter(\.passed).count
        let rules = Set(results.flatMap(\.rules))
        let fam = { (p: String) in rules.filter { $0.hasPrefix(p) && !$0.hasPrefix("D-") }.count }
        let ruleIDs = fam("R") + fam("X") + fam("A") + fam("C")
        output(
            "rules cited: \(ruleIDs) distinct rule ids (\(fam("R")) R, \(fam("X")) X, \(fam("A")) A, \(fam("C")) C) and \(rules.filter { $0.hasPrefix("D-") }.count) decisions, in \(results.count) cases"
        )
        output("\(passed) passed, \(results.count - passed) failed")
        return results
    }
}

final class ActionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [JSON] = []
    func append(_ j: JSON) {
        lock.lock()
        items.append(j)
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
        if case .object(let eo) = expected, let op = eo.keys.first, op.hasPrefix("$") {
            let ops = eo.keys.filter { $0.hasPrefix("$") && $0 != "$tol" }
            if ops.count > 1 {
                return
                    "\(path): one $-operator per object, got \(ops.joined(separator: ", ")) (combine them in an array of separate checks)"
            }
            switch op {
            case "$any": return nil
            case "$absent":
                return actual.isNull ? nil : "\(path): expected absent, got \(actual.jsonString.prefix(200))"
            case "$len":
                let n = eo["$len"]?.intValue ?? -1
                let c = actual.arrayValue?.count ?? (actual.stringValue?.count ?? -1)
                return c == n ? nil : "\(path): expected length \(n), got \(c)"
            case "$approx":
                guard let x = eo["$approx"]?.doubleValue, let a = actual.doubleValue else {
                    return "\(path): expected a number"
                }
                let tol = eo["$tol"]?.doubleValue ?? 0.001
                return abs(x - a) <= tol ? nil : "\(path): expected ≈\(x), got \(a)"
            case "$prefix":
                guard let p = eo["$prefix"]?.stringValue, let s = actual.stringValue, s.hasPrefix(p) else {
                    return
                        "\(path): expected a string starting with \(eo["$prefix"]?.jsonString ?? ""), got \(actual.jsonString.prefix(200))"
                }
                return nil
            case "$contains", "$notContains":
                guard let items = eo[op]?.arrayValue else { return "\(path): \(op) takes an array" }
                let arr: [JSON]
                if let a = actual.arrayValue {
                    arr = a
                } else if let s = actual.stringValue {
                    for it in items {
                        guard let sub = it.stringValue else { return "\(path): string $contains takes strings" }
                        if s.contains(sub) != (op == "$contains") { return "\(path): \(op) \(sub) failed on \"\(s)\"" }
                    }
                    return nil
                } else {
                    return "\(path): expected an array, got \(actual.typeName)"
                }
                for it in items {
                    let found = arr.contains { match(it, $0, path: path) == nil }
                    if found != (op == "$contains") {
                        return "\(path): \(op == "$contains" ? "missing" : "unexpected") \(it.jsonString.prefix(200))"
                    }
                }
                return nil
            case "$ordered":
                guard let items = eo[op]?.arrayValue, let arr = actual.arrayValue else {
                    return "\(path): $ordered needs arrays"
                }
                var idx = 0
                for it in items {
                    guard let j = arr[idx...].firstIndex(where: { match(it, $0, path: path) == nil }) else {
                        return "\(path): \(it.jsonString.prefix(200)) not found in order"
                    }
                    idx = j + 1
                }
                return nil
            case "$oneOf":
                guard let items = eo[op]?.arrayValue else { return "\(path): $oneOf takes an array" }
                return items.contains { match($0, actual, path: path) == nil }
                    ? nil : "\(path): \(actual.jsonString.prefix(200)) is none of \(expected.jsonString.prefix(200))"
            default:
                return "\(path): unknown operator \(op)"
            }
        }
        switch (expected, actual) {
        case (.object(let eo), .object(let ao)):
            for (k, ev) in eo {
                let av = ao[k] ?? .null
                if case .object(let inner) = ev, inner["$absent"] != nil {
                    if let why = match(ev, av, path: path + "." + k) { return why }
                    continue
                }
                if ao[k] == nil { return "\(path).\(k): missing" }
                if let why = match(ev, av, path: path + "." + k) { return why }
            }
            return nil
        case (.array(let ea), .array(let aa)):
            guard ea.count == aa.count else {
                return "\(path): expected \(ea.count) items, got \(aa.count): \(actual.jsonString.prefix(300))"
            }
            for (i, (e, a)) in zip(ea, aa).enumerated() {
                if let why = match(e, a, path: "\(path)[\(i)]") { return why }
            }
            return nil
        case (.number(let x), .number(let y)):
            return abs(x - y) < 1e-9 ? nil : "\(path): expected \(x), got \(y)"
        default:
            return expected == actual
                ? nil : "\(path): expected \(expected.jsonString.prefix(200)), got \(actual.jsonString.prefix(200))"
        }
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
