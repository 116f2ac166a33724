import AXHub
import AXJSONRPC
import AXProtocol

/// Server-wide settings of the method layer that decide who may do what (Specs/protocol.md §Roles and trust).
package struct MethodOptions: Sendable {
    /// The kiosk operator's credential. A connection that sends it in `initialize {role: "operator",
    /// operatorToken}` may change guided-access state; nil means no connection may (a policy file still applies).
    package var operatorToken: String?
    /// Writes the operator's policy back (to the `--policy` file) before a change takes effect; when it throws,
    /// the change is refused and nothing changes. nil: changes live in memory for the server's lifetime.
    package var persistPolicy: (@Sendable (GuidedAccessPolicy) throws -> Void)?

    /// Turns an SVG document into PNG bytes for `tree.render {format: "png"}` (an external program at the edge,
    /// e.g. rsvg-convert); nil: PNG is refused with −32602 and SVG still works.
    package var rasterizePNG: (@Sendable (String) throws -> [UInt8])?

    package init(
        operatorToken: String? = nil, persistPolicy: (@Sendable (GuidedAccessPolicy) throws -> Void)? = nil,
        rasterizePNG: (@Sendable (String) throws -> [UInt8])? = nil
    ) {
        self.operatorToken = operatorToken
        self.persistPolicy = persistPolicy
        self.rasterizePNG = rasterizePNG
    }
}

/// The three roles and their checks (D-TRUST-1):
/// - **automation** (the default): reads, queries, waits, acts, moves accessibility focus, subscribes.
/// - **provider** (after `app.register`): all of that, plus changing *its own* app's tree, posting its
///   notifications and declaring its restrictions — never another app's.
/// - **operator** (`initialize` with the operator token): all of automation, plus setting restrictions' states.
enum Roles {
    static let provider = "provider"
    static let automation = "automation"
    static let `operator` = "operator"
    /// Session attachment set when `initialize` proved the operator credential.
    static let operatorKey = "ax.operator"

    /// The app this connection registered: provider methods act on it and on no other.
    static func ownApp<Key>(_ params: Params<Key>, _ hub: Hub, _ session: RPCSession) throws(RPCError) -> String {
        let own = try requireProvider(params, session)
        if let named = try params.app(), named != own {
            let resolved = try? hub.resolveApp(named)
            guard resolved == own else {
                throw RPCError.forbidden(
                    "\(params.method): this connection registered app '\(own)' and may not change app '\(named)'",
                    data: [
                        "method": .string(params.method), "app": .string(named), "ownApp": .string(own),
                        "needs": .string(provider),
                    ])
            }
        }
        return own
    }

    /// The app this connection registered, or −32018 `needs: provider` when it registered none.
    @discardableResult
    static func requireProvider<Key>(_ params: Params<Key>, _ session: RPCSession) throws(RPCError) -> String {
        guard let own = session.attachment(AXMethods.appKey, as: String.self) else {
            throw RPCError.forbidden(
                "\(params.method) changes an app: only the connection that registered it may call it (send app.register {name} first)",
                data: [
                    "method": .string(params.method), "role": .string(session.role ?? automation),
                    "needs": .string(provider),
                ])
        }
        return own
    }

    /// Whether the session proved the operator credential.
    static func isOperator(_ session: RPCSession) -> Bool {
        session.attachment(operatorKey, as: Bool.self) == true
    }

    static func requireOperator<Key>(_ params: Params<Key>, _ session: RPCSession) throws(RPCError) {
        guard isOperator(session) else {
            throw RPCError.forbidden(
                "\(params.method) changes guided access, which only the kiosk operator may do: initialize with role 'operator' and the operator token (axserver --operator-token-file)",
                data: [
                    "method": .string(params.method), "role": .string(session.role ?? automation),
                    "needs": .string(`operator`),
                ])
        }
    }

    /// `initialize {role: "operator", operatorToken}`: checks the credential in constant time.
    static func authenticateOperator(
        _ params: Params<RPCCatalog.Initialize.Param>, options: MethodOptions, session: RPCSession
    ) throws(RPCError) {
        guard let expected = options.operatorToken else {
            throw RPCError.unauthorized(
                "this server has no operator credential: start it with --operator-token-file FILE to allow an operator role",
                data: ["role": .string(`operator`)])
        }
        guard let given = try params.string(.operatorToken) else {
            throw params.bad(
                .operatorToken,
                "is required for role 'operator' (the first line of the server's --operator-token-file)")
        }
        guard constantTimeEqual(Array(given.utf8), Array(expected.utf8)) else {
            throw RPCError.unauthorized("wrong operator token", data: ["role": .string(`operator`)])
        }
        session[attachment: operatorKey] = true
    }

    /// Who made a change, for the audit trail: the operator connection and the client's name.
    static func actor(_ session: RPCSession) -> String {
        let name = session.attachment(clientNameKey, as: String.self).map { " '\($0)'" } ?? ""
        return "operator connection \(session.connectionID)\(name)"
    }

    static let clientNameKey = "ax.clientName"

}
