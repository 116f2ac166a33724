import AXJSON
import AXJSONRPC
import AXProtocol

/// Registration through the protocol catalog (D-CATALOG-1): a handler is installed for a catalog method, never for a
/// free string, and takes from the catalog whether it needs `initialize` and who may call it. `CatalogRouteTests`
/// fails naming a method the catalog declares without a handler, or one the router answers without an entry.
extension RPCRouter {
    /// Registers an async handler for `method`.
    func register(_ method: RPCMethodName, concurrent: Bool = false, _ handler: @escaping RPCHandler) {
        let entry = method.entry
        register(method.rawValue, requiresInit: entry.requiresInitialize, concurrent: concurrent) { params, session in
            try Roles.admit(entry, params, session)
            return try await handler(params, session)
        }
    }

    /// Registers a synchronous handler for `method`.
    func registerSync(_ method: RPCMethodName, _ handler: @escaping RPCSyncHandler) {
        let entry = method.entry
        registerSync(method.rawValue, requiresInit: entry.requiresInitialize) { params, session in
            try Roles.admit(entry, params, session)
            return try handler(params, session)
        }
    }

    /// Registers a synchronous handler for `method` that leaves the event loop when `offLoop(params)` says so.
    func registerSync(
        _ method: RPCMethodName, offLoop: @escaping @Sendable (JSON?) -> Bool, _ handler: @escaping RPCSyncHandler
    ) {
        let entry = method.entry
        registerSync(method.rawValue, requiresInit: entry.requiresInitialize, offLoop: offLoop) { params, session in
            try Roles.admit(entry, params, session)
            return try handler(params, session)
        }
    }

    /// Registers a synchronous writer for `method` (a reply too large to build as a `JSON` value first).
    func registerSyncWriter(
        _ method: RPCMethodName, offLoop: @escaping @Sendable (JSON?) -> Bool, _ writer: @escaping RPCSyncWriter
    ) {
        let entry = method.entry
        registerSyncWriter(method.rawValue, requiresInit: entry.requiresInitialize, offLoop: offLoop) {
            params, session, out in
            try Roles.admit(entry, params, session)
            try writer(params, session, &out)
        }
    }
}

extension Roles {
    /// Refuses a call its catalog entry does not allow this session's role (−32018 naming what it needs). The
    /// params are checked first, so a malformed call is answered as before: −32602 before −32018.
    static func admit(_ entry: RPCMethodEntry, _ params: JSON?, _ session: RPCSession) throws(RPCError) {
        switch entry.callers {
        case .everyone:
            return
        case .providers:
            let arguments = try Params(admitting: params, to: entry.name)
            try requireProvider(arguments, session)
        case .operators:
            let arguments = try Params(admitting: params, to: entry.name)
            try requireOperator(arguments, session)
        }
    }
}
