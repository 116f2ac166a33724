import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol

/// Guided access over JSON-RPC: `policy.get`, `policy.set` (operator only), `policy.check`
/// (Specs/protocol.md §Guided access; R79–R85, D-GA-1…3, D-TRUST-1).
extension AXMethods {
    static func installPolicy(_ router: RPCRouter, _ hub: Hub, _ options: MethodOptions) {
        registerPolicyGet(router, hub)
        registerPolicySet(router, hub, options)
        registerPolicyCheck(router, hub)
    }

    static func registerPolicyGet(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.policyGet) { params, session in
            let arguments = try Params(params, RPCCatalog.PolicyGet.self)
            let snap = try snapshot(arguments, hub, session)
            let states: [RestrictionState]
            do {
                states = try hub.restrictionStates(app: snap.id)
            } catch {
                throw RPCError.from(error)
            }
            let restrictions: [JSON] = states.map { entry in
                var object: JSONObject = ["id": .string(entry.restriction.id), "text": .string(entry.restriction.text)]
                if let detail = entry.restriction.detailText {
                    object["detailText"] = .string(detail)
                }
                object["state"] = .string(entry.denied ? "deny" : "allow")
                object["source"] = .string(entry.source.rawValue)
                return .object(object)
            }
            return RPCCatalog.PolicyGet.answer([
                .app: .string(snap.id), .name: .string(snap.name), .restrictions: .array(restrictions),
                .unknownApps: .string(hub.policy.lockDownUnknownApps ? "deny" : "allow"),
                // D-GA-4: UIAccessibility.isGuidedAccessEnabled, as the app would read it.
                .guidedAccessEnabled: .bool(states.contains { $0.denied }),
            ])
        }
    }

    static func registerPolicySet(_ router: RPCRouter, _ hub: Hub, _ options: MethodOptions) {
        router.registerSync(.policySet) { params, session in
            // Operators only: the catalog declares it and the registration enforces it (Roles.admit).
            let arguments = try Params(params, RPCCatalog.PolicySet.self)
            let restriction = try arguments.requiredString(.restriction)
            let state = try arguments.requiredString(.state)
            guard state == "allow" || state == "deny" else {
                throw arguments.bad(.state, "must be allow or deny (R85)")
            }
            guard GuidedAccessPolicy.isValidIdentifier(restriction) else {
                throw arguments.bad(.restriction, "must be 1…\(GuidedAccessPolicy.maxIdentifierBytes) bytes")
            }
            let persist: (GuidedAccessPolicy) throws -> Void = { policy in
                do {
                    try options.persistPolicy?(policy)
                } catch {
                    throw PolicyNotWritten(reason: String(describing: error))
                }
            }
            let actor = Roles.actor(session)
            do {
                if let appName = try arguments.string(.appName) {
                    // A rule for an app by name, running or not: it applies when an app of that name declares it.
                    guard GuidedAccessPolicy.isValidIdentifier(appName) else {
                        throw arguments.bad(.appName, "must be 1…\(GuidedAccessPolicy.maxIdentifierBytes) bytes")
                    }
                    try hub.setRestriction(
                        appNamed: appName, id: restriction, denied: state == "deny", actor: actor, persist: persist)
                    return RPCCatalog.PolicySet.answer([
                        .appName: .string(appName), .restriction: .string(restriction), .state: .string(state),
                    ])
                }
                let appID = try app(arguments, hub, session)
                try hub.setRestriction(
                    app: appID, id: restriction, denied: state == "deny", actor: actor, persist: persist)
                return RPCCatalog.PolicySet.answer([
                    .app: .string(appID), .restriction: .string(restriction), .state: .string(state),
                ])
            } catch let error as PolicyNotWritten {
                throw RPCError.internalError(
                    "the policy file could not be written, so nothing changed: \(error.reason)",
                    data: ["reason": "policy file not written"])
            } catch {
                throw RPCError.from(error)
            }
        }
    }

    static func registerPolicyCheck(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.policyCheck, offLoop: Targets.usesRegex) { params, session in
            let arguments = try Params(params, RPCCatalog.PolicyCheck.self)
            let snap = try snapshot(arguments, hub, session)
            guard let target = arguments[.target] else {
                throw arguments.bad(.target, "is required")
            }
            let id = try Targets.resolveOne(target, in: snap, hub: hub, method: RPCMethodName.policyCheck.rawValue)
            guard let node = snap.tree[id] else {
                throw RPCError.noSuchElement("no element '\(id)'", data: ["id": .string(id)])
            }
            // The same check as an activation: the element's restrictions and those of the view it forwards to.
            if let denied = GuidedAccess.deniedRestriction(
                guarding: node.actionTarget, element: node, tree: snap.tree,
                views: snap.views, denied: snap.denied)
            {
                return RPCCatalog.PolicyCheck.answer([.allowed: false, .restriction: .string(denied)])
            }
            return RPCCatalog.PolicyCheck.answer([.allowed: true])
        }
    }
}

/// The operator's change could not be persisted; the running policy is unchanged.
struct PolicyNotWritten: Error {
    var reason: String
}
