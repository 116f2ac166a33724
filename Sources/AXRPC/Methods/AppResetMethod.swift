import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol
import AXRPCRouter

/// `app.reset {app?, timeoutMs?}`: asks the app for its initial state and answers once that tree is the server's
/// (D-APP-RESET-1). Any initialized connection may call it (automation, operator, a provider on any app, as with
/// actions); a denied guided-access restriction of the app refuses it (−32017), as it refuses every action.
enum AppResetMethod {
    /// The default bound on the app's answer (`timeoutMs` changes it, up to 600 s).
    static let defaultTimeoutMs = 10_000

    /// Resets of one app run one after another, in arrival order.
    static let lanes = ResetLanes()

    static func install(_ router: RPCRouter, _ hub: Hub) {
        router.register(.appReset) { params, session in
            let arguments = try Params(params, RPCCatalog.AppReset.self)
            let appID = try AXMethods.app(arguments, hub, session)
            let timeout = try arguments.timeout(.timeoutMs, default: defaultTimeoutMs)
            let started = ContinuousClock.now
            let key = "\(ObjectIdentifier(hub).hashValue)/\(appID)"
            let outcome = await lanes.run(key) { () async -> Result<(before: Int, after: Int), AppResetError> in
                do throws(AppResetError) { return .success(try await hub.resetApp(appID, timeout: timeout)) } catch {
                    return .failure(error)
                }
            }
            switch outcome {
            case .success(let revisions):
                let elapsed = started.duration(to: .now)
                let (seconds, attoseconds) = elapsed.components
                let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
                return RPCCatalog.AppReset.answer([
                    .app: .string(appID), .reset: true, .revisionBefore: JSON(revisions.before),
                    .revision: JSON(revisions.after), .ms: .number((milliseconds * 10).rounded() / 10),
                ])
            case .failure(let error):
                throw rpcError(error)
            }
        }
    }

    /// The JSON-RPC error of each reason a reset fails, each saying what to do.
    static func rpcError(_ error: AppResetError) -> RPCError {
        switch error {
        case .noSuchApp(let app):
            return .invalidParams("no app '\(app)'", data: ["param": .string(rpcAppParameter)])
        case .notSupported(let app):
            return .actionNotSupported(
                "the app '\(app)' cannot return to its initial state (it did not register with reset: true); start a fresh app or server instead",
                data: ["action": "reset", "reason": "reset not supported", "app": .string(app)])
        case .policyDenied(let restriction, let text):
            return .policyDenied(
                "guided access denies '\(restriction)'" + (text.map { " (\($0))" } ?? "")
                    + ": the kiosk's app is not reset; the operator lifts the restriction first",
                data: ["restriction": .string(restriction), "action": "reset"])
        case .timeout(let app, let seconds):
            return .appNotResponding(
                "the app '\(app)' did not finish its reset within \(seconds) s; start a fresh app or server",
                data: ["reason": "timeout", "action": "reset"])
        case .appLeft(let app):
            return .appNotResponding(
                "the app '\(app)' left before it finished its reset; start it again",
                data: ["reason": "app left", "action": "reset"])
        case .appFailed(let failure):
            return RPCError.from(failure)
        }
    }
}

/// Runs the resets of one key (hub and app) one after another; different apps reset concurrently. Each reset is
/// bounded by its own timeout, so a queue never waits without end.
actor ResetLanes {
    private var tails: [String: (id: Int, task: Task<Void, Never>)] = [:]
    private var nextID = 0

    func run<Value: Sendable>(_ key: String, _ body: @escaping @Sendable () async -> Value) async -> Value {
        let previous = tails[key]?.task
        nextID += 1
        let id = nextID
        let work = Task { () async -> Value in
            await previous?.value
            return await body()
        }
        tails[key] = (id, Task { _ = await work.value })
        let value = await work.value
        if tails[key]?.id == id { tails[key] = nil }
        return value
    }
}
