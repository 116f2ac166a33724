import AXJSON
import AXJSONRPC
import AXQuery
import AXSchema

/// The parameter names each method takes (besides `app`, which every method takes). A name outside its method's
/// list is −32602 naming the key and the closest known one (D-WIRE-4): `wait.for {timeout: 300}` is refused with
/// "did you mean 'timeoutMs'?" instead of silently waiting the default 5 s. Every registered method must be
/// listed (a unit test walks the router's table).
extension AXMethods {
    package static let parameterNames: [String: Set<String>] = {
        var table: [String: Set<String>] = [
            "initialize": ["role", "clientInfo", "token", "operatorToken", "protocolVersion", "capabilities"],
            "ping": [],
            "$/cancelRequest": ["id"],
            "shutdown": [],
            "apps.list": [],
            "app.register": ["name", "reclaimToken", "reset"],
            "app.reset": ["timeoutMs"],
            "hierarchy.set": ["windows", "roots", "guidedAccessRestrictions"],
            "hierarchy.update": ["ops", "baseRevision"],
            "accessibility.post": ["notification", "argument", "priority"],
            "tree.get": ["format", "root", "depth", "maxChildren", "frames", "fields"],
            "tree.diff": ["fromRevision", "toRevision"],
            "tree.revision": [],
            "element.get": ["target"],
            "query.find": ["selector", "ast", "root", "limit"],
            "query.one": ["selector", "ast", "root"],
            "query.count": ["selector", "ast", "root"],
            "query.explain": ["selector", "ast", "root"],
            "action.tap": ["target", "point"],
            "focus.get": [],
            "focus.set": ["target"],
            "wait.for": ["target", "state", "value", "timeoutMs"],
            "events.subscribe": ["events"],
            "events.unsubscribe": ["subscription"],
            "policy.get": [],
            "policy.set": ["restriction", "state", "appName"],
            "policy.check": ["target"],
            "audit.listChecks": [],
            "audit.run": ["root", "checks", "suppress", "maxFindings", "report"],
            "speech.describe": ["target", "model", "screenReader"],
            "speech.walk": ["root", "model", "limit", "screenReader"],
            "tree.render": ["format", "root", "overlay", "maxNodes"],
            "focus.move": ["direction"],
            "focus.query": ["direction", "from"],
            "focus.update": ["target"],
            "focus.explain": ["target"],
            "focus.status": [],
            "focus.items": ["rect"],
            "focus.activate": [],
            "rotor.list": ["target"],
            "rotor.next": ["rotor", "from", "fromRange", "target", "moveFocus"],
            "rotor.previous": ["rotor", "from", "fromRange", "target", "moveFocus"],
            "input.key": ["key", "modifiers", "phase"],
            "input.type": ["text", "target"],
            "input.configure": ["serverHandlesNavigation"],
            // Script queries (issue 25, D-HIT-1, D-QUERY-1).
            "element.atPoint": ["point"],
            "element.cell": ["target", "row", "column"],
            "element.next": ["from", "moveFocus"],
            "element.previous": ["from", "moveFocus"],
            "element.largeContent": ["target"],
            "element.readingContent": ["target", "line", "point"],
            "accessibility.status": [],
            "a11y.settings": [],
        ]
        for (method, action) in actionMethods {
            let parameters = ActionName(rawValue: action)?.methodParameters ?? []
            table[method] = parameters.union(["target", "force"])
        }
        return table
    }()

    /// −32602 for the first unknown key of `params`, or nil when every key is known (or the method is unlisted).
    static func unknownParameter(in params: JSONObject, method: String) -> RPCError? {
        guard let known = parameterNames[method] else {
            return nil
        }
        for key in params.keys where key != "app" && !known.contains(key) {
            let accepted = (known.union(["app"])).sorted()
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
