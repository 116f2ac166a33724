import AXJSON
import AXJSONRPC
import AXProtocol
import AXQuery

/// The parameter names each method takes (besides `app`, which every method takes), from the protocol catalog
/// (D-CATALOG-1). A name outside its method's list is −32602 naming the key and the closest known one (D-WIRE-4):
/// `wait.for {timeout: 300}` is refused with "did you mean 'timeoutMs'?" instead of silently waiting the default
/// 5 s.
extension AXMethods {
    package static let parameterNames: [String: Set<String>] = Dictionary(
        uniqueKeysWithValues: RPCMethodName.allCases.map { ($0.rawValue, $0.entry.parameterNames) })

    /// −32602 for the first unknown key of `params`, or nil when every key is known (or the method is unlisted).
    static func unknownParameter(in params: JSONObject, method: String) -> RPCError? {
        guard let known = parameterNames[method] else {
            return nil
        }
        for key in params.keys where key != rpcAppParameter && !known.contains(key) {
            let accepted = known.union([rpcAppParameter]).sorted()
            // Keys are capped at 64 characters before comparing, so the distance stays cheap whatever is sent.
            let shortKey = String(key.prefix(64))
            let closest = accepted.min { editDistance(shortKey, $0) < editDistance(shortKey, $1) }
            var message = "\(method): unknown parameter '\(shortKey)'"
            if let closest, editDistance(shortKey, closest) <= max(2, closest.count / 2) {
                message += "; did you mean '\(closest)'?"
            }
            message += " (\(method) takes: \(accepted.joined(separator: ", ")))"
            var data: JSONObject = [
                "param": .string(String(key.prefix(64))), "method": .string(method), "known": JSON(accepted),
                "reason": "unknown parameter",
            ]
            if let closest {
                data["closest"] = .string(closest)
            }
            return RPCError.invalidParams(message, data: data)
        }
        return nil
    }
}
