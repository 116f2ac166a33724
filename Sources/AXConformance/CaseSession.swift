import AXJSON
import AXJSONRPC
import AXProtocol

/// One conformance case being run: its app's and test script's connections (and the operator's, opened when a step
/// first needs it), the app's action log and the steps. `run()` answers the first failure as "step N: why".
struct CaseSession: Sendable {
    let testCase: ConformanceCase
    let connect: ConformanceRunner.Connect
    let provider: any ConformanceConnection
    let automation: any ConformanceConnection
    let operatorToken: String?
    let operatorBox = ConnectionBox()
    let log = ActionLog()
    let appBox = AppBox()

    /// The methods the app sends by default, and those the operator sends when the runner has its token.
    static let providerMethods: Set<String> = [
        RPCMethodName.hierarchySet.rawValue, RPCMethodName.hierarchyUpdate.rawValue,
        RPCMethodName.accessibilityPost.rawValue,
    ]
    static let operatorMethods: Set<String> = [RPCMethodName.policySet.rawValue]

    func close() async {
        await automation.close()
        await provider.close()
        await operatorBox.value?.close()
    }

    func failure(_ step: Int, _ message: String) -> String { "step \(step): \(message)" }

    /// Runs the case; nil when every step passed.
    func run() async -> String? {
        installActionHandler()
        let app: String
        switch await setUp() {
        case .failure(let failure): return failure.message
        case .success(let appID): app = appID
        }
        _ = automation.drainNotifications()
        for (index, step) in testCase.steps.enumerated() {
            if let failure = await runStep(step, number: index + 1, app: app) { return failure }
        }
        return nil
    }

    /// The app answers `action.perform` by the case's `provider.onAction` rules (first match wins), logging every
    /// request.
    func installActionHandler() {
        let providerRules = testCase.provider?["onAction"]?.arrayValue ?? []
        let defaultHandled = testCase.provider?["defaultHandled"]?.boolValue ?? true
        let (log, appBox, provider) = (log, appBox, provider)
        provider.setActionHandler { req in
            log.append(req)
            for rule in providerRules {
                guard let pattern = rule["match"], Matcher.match(pattern, req) == nil else { continue }
                if let ops = rule["update"], let app = appBox.value {
                    _ = await provider.call(RPCMethod.hierarchyUpdate.request([.ops: ops], app: app))
                }
                var answer: JSONObject = ["handled": .bool(rule["handled"]?.boolValue ?? true)]
                // A rule's `item` is the app's answer to a `rotorSearch` request (D-ROTOR-5).
                if let item = rule["item"] { answer["item"] = item }
                return .object(answer)
            }
            return ["handled": .bool(defaultHandled)]
        }
    }

    /// Step 0: both connections initialize, the app registers and sends the case's hierarchy; the app id.
    func setUp() async -> Result<String, StepFailure> {
        if case .failure(let error) = await provider.call(
            RPCMethod.initialize.request(
                [.role: .string(RPCRole.provider.rawValue), .clientInfo: ["name": "axserver-conformance-app"]]))
        {
            return .failure(StepFailure(failure(0, "initialize (provider) failed: \(error.message)")))
        }
        if case .failure(let error) = await automation.call(
            RPCMethod.initialize.request(
                [.role: .string(RPCRole.automation.rawValue), .clientInfo: ["name": "axserver-conformance"]]))
        {
            return .failure(StepFailure(failure(0, "initialize (automation) failed: \(error.message)")))
        }
        let app: String
        switch await provider.call(RPCMethod.appRegister.request([.name: .string("conformance-" + testCase.id)])) {
        case .failure(let error): return .failure(StepFailure(failure(0, "app.register failed: \(error.message)")))
        case .success(let response):
            guard let appID = response["app"]?.stringValue else {
                return .failure(StepFailure(failure(0, "app.register returned no app id")))
            }
            app = appID
        }
        appBox.value = app
        if let hierarchy = testCase.hierarchy {
            let snapshot = hierarchy.objectValue ?? [RPCCatalog.HierarchySet.Param.windows.rawValue: hierarchy]
            if case .failure(let error) = await provider.call(
                RPCMethod.hierarchySet.request(snapshot: snapshot, app: app))
            {
                return .failure(
                    StepFailure(
                        failure(0, "hierarchy.set failed: \(error.message) \(error.data.map { $0.jsonString } ?? "")")))
            }
        }
        return .success(app)
    }

    /// A failure message as an `Error` (for `Result`).
    struct StepFailure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// One step: a provider-log check, an events check, or a call and its expectation.
    func runStep(_ step: JSON, number stepNumber: Int, app: String) async -> String? {
        if let expectedLog = step["providerLog"] {
            let got = JSON.array(log.drain())
            guard let why = Matcher.match(expectedLog, got) else { return nil }
            return failure(stepNumber, "provider log: \(why); got \(got.jsonString)")
        }
        if let expectedEvents = step["events"] { return await checkEvents(expectedEvents, stepNumber: stepNumber) }
        guard let method = step["method"]?.stringValue else {
            return failure(stepNumber, "a step needs 'method', 'providerLog' or 'events'")
        }
        var params = step["params"]?.objectValue ?? JSONObject()
        if params["app"] == nil && step["noApp"]?.boolValue != true { params["app"] = .string(app) }
        let connection: any ConformanceConnection
        switch await sender(for: step, method: method, stepNumber: stepNumber) {
        case .failure(let failure): return failure.message
        case .success(let chosen): connection = chosen
        }
        let response = await connection.call(method, .object(params))
        if case .success(let result) = response, let name = RPCMethodName(rawValue: method),
            let why = name.entry.result.mismatch(result)
        {
            // The catalog declares what each method answers (D-CATALOG-5): an answer of another shape fails here,
            // whatever the step expects.
            return failure(
                stepNumber,
                "\(method) answered \(why) (its result in Sources/AXProtocol); got \(result.jsonString.prefix(500))")
        }
        return check(response, expect: step["expect"] ?? "ok", method: method, stepNumber: stepNumber)
    }

    /// Events may arrive just after the call that caused them; delivery gets a moment (50 × 10 ms at most).
    func checkEvents(_ expectedEvents: JSON, stepNumber: Int) async -> String? {
        var got: [JSON] = []
        for _ in 0..<50 {
            got += automation.drainNotifications().map { ["method": .string($0.method), "params": $0.params] }
            if Matcher.match(expectedEvents, .array(got)) == nil { break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        guard let why = Matcher.match(expectedEvents, .array(got)) else { return nil }
        return failure(stepNumber, "events: \(why); got \(JSON.array(got).jsonString)")
    }

    /// Who sends the step: `as` says it (app, automation, operator); by default the app sends its own tree
    /// changes, the operator changes guided access (when the runner has its token), the test script the rest.
    func sender(for step: JSON, method: String, stepNumber: Int) async -> Result<
        any ConformanceConnection, StepFailure
    > {
        let defaultRole =
            Self.providerMethods.contains(method)
            ? "app"
            : (Self.operatorMethods.contains(method) && operatorToken != nil ? "operator" : "automation")
        switch step["as"]?.stringValue ?? defaultRole {
        case "app": return .success(provider)
        case "automation": return .success(automation)
        case "operator": return await operatorConnection(stepNumber: stepNumber)
        default: return .failure(StepFailure(failure(stepNumber, "'as' must be app, automation or operator")))
        }
    }

    /// The operator's connection, opened and initialized with the token the first time.
    func operatorConnection(stepNumber: Int) async -> Result<any ConformanceConnection, StepFailure> {
        if let existing = operatorBox.value { return .success(existing) }
        guard let token = operatorToken else {
            return .failure(
                StepFailure(
                    failure(
                        stepNumber,
                        "the step runs as operator, but the runner has no operator token (--operator-token-file)")))
        }
        let opened: any ConformanceConnection
        do {
            opened = try await connect()
            operatorBox.value = opened
        } catch {
            return .failure(StepFailure(failure(stepNumber, "cannot open the operator connection: \(error)")))
        }
        let hello = RPCMethod.initialize.request([
            .role: .string(RPCRole.operator.rawValue), .operatorToken: .string(token),
            .clientInfo: ["name": "axserver-conformance-operator"],
        ])
        if case .failure(let error) = await opened.call(hello) {
            return .failure(StepFailure(failure(stepNumber, "initialize (operator) failed: \(error.message)")))
        }
        return .success(opened)
    }

    /// `expect`: "ok" (any result), `{"result": pattern}` or `{"error": pattern}`.
    func check(_ response: Result<JSON, RPCError>, expect: JSON, method: String, stepNumber: Int) -> String? {
        switch (response, expect) {
        case (.success, .string("ok")): return nil
        case (.failure(let error), .string("ok")):
            return failure(stepNumber, "\(method) failed: \(error.code) \(error.message)")
        case (_, .object(let expectation)):
            if let expectedError = expectation["error"] {
                return checkError(response, expectedError, method: method, stepNumber: stepNumber)
            }
            if let expectedResult = expectation["result"] {
                return checkResult(response, expectedResult, method: method, stepNumber: stepNumber)
            }
            return failure(stepNumber, "'expect' needs 'result' or 'error'")
        default:
            return failure(stepNumber, "'expect' must be \"ok\" or an object")
        }
    }

    func checkError(_ response: Result<JSON, RPCError>, _ expectedError: JSON, method: String, stepNumber: Int)
        -> String?
    {
        guard case .failure(let error) = response else {
            return failure(stepNumber, "\(method) succeeded, expected an error \(expectedError.jsonString)")
        }
        guard let why = Matcher.match(expectedError, error.json) else { return nil }
        return failure(stepNumber, "\(method) error: \(why); got \(error.json.jsonString)")
    }

    func checkResult(_ response: Result<JSON, RPCError>, _ expectedResult: JSON, method: String, stepNumber: Int)
        -> String?
    {
        switch response {
        case .failure(let error):
            return failure(
                stepNumber, "\(method) failed: \(error.code) \(error.message) \(error.data?.jsonString ?? "")")
        case .success(let got):
            guard let why = Matcher.match(expectedResult, got) else { return nil }
            return failure(stepNumber, "\(method) result: \(why); got \(got.jsonString.prefix(2000))")
        }
    }
}
