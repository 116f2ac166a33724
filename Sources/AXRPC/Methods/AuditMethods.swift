import AXCore
import AXHub
import AXInsight
import AXJSON
import AXJSONRPC
import AXProtocol

/// `audit.run` and `audit.listChecks` (Specs/protocol.md §Audits; D-AUDIT-1…12). The checks live in AXInsight;
/// this file only reads params and writes the answer.
extension AXMethods {
    static func installAudit(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.auditListChecks) { _, _ in
            ["checks": .array(AuditCatalog.checks.map(AuditFormats.checkJSON))]
        }
        router.registerSync(.auditRun) { params, session in
            let arguments = try Params(params, RPCCatalog.AuditRun.self)
            let snap = try snapshot(arguments, hub, session)
            var rootID: String?
            if let root = arguments[.root] {
                rootID = try Targets.resolveOne(
                    root, in: snap, hub: hub, method: arguments.method, param: arguments.name(.root))
            }
            let checks = try auditChecks(arguments)
            let suppressions = try auditSuppressions(arguments, snap: snap)
            let maxFindings =
                try arguments.int(.maxFindings, in: 0...Auditor.maxFindingsLimit) ?? Auditor.defaultMaxFindings
            let reportFormat = try arguments.string(.report)
            guard reportFormat == nil || reportFormat == "junit" || reportFormat == "sarif" else {
                throw RPCError.invalidParams(
                    "audit.run: report must be junit or sarif",
                    data: [
                        "param": .string(arguments.name(.report)), "method": .string(arguments.method),
                        "accepted": ["junit", "sarif"],
                    ])
            }
            let report = Auditor.run(
                tree: snap.tree, views: snap.views, root: rootID, checks: checks,
                suppressions: suppressions, maxFindings: maxFindings)
            let errors = report.findings.filter { $0.severity == .error }.count
            var out: RPCResultObject<RPCCatalog.AuditRun.Member> = [
                .app: .string(snap.id), .revision: JSON(snap.revision), .checks: JSON(report.checks),
                .count: JSON(report.findings.count), .errors: JSON(errors),
                .warnings: JSON(report.findings.count - errors),
                .suppressed: JSON(report.suppressed),
                .examined: ["nodes": JSON(report.nodesExamined), "views": JSON(report.viewsExamined)],
                .findings: .array(report.findings.map(AuditFormats.json)),
            ]
            if let rootID { out[.root] = .string(rootID) }
            // The CI report built from these findings, as `axquery audit --format junit|sarif` prints it.
            switch reportFormat {
            case "junit":
                out[.report] = .string(
                    AuditFormats.junit(
                        report.findings, checks: report.checks, suiteName: "accessibility audit of \(snap.id)"))
            case "sarif":
                out[.report] = AuditFormats.sarif(
                    report.findings, checks: report.checks, toolVersion: AXMethods.serverVersion)
            default:
                break
            }
            if report.omitted > 0 {
                out[.truncated] = ["kind": "maxFindings", "limit": JSON(maxFindings), "omitted": JSON(report.omitted)]
            }
            return out.json
        }
    }

    /// `checks`: check ids; an unknown one is −32602 listing the accepted ids.
    static func auditChecks(_ arguments: Params<RPCCatalog.AuditRun.Param>) throws(RPCError) -> [String]? {
        guard let checks = try arguments.stringList(.checks) else { return nil }
        for check in checks where AuditCatalog.check(check) == nil {
            throw unknownCheck(arguments, .checks, check)
        }
        return checks
    }

    static func unknownCheck(
        _ arguments: Params<RPCCatalog.AuditRun.Param>, _ param: RPCCatalog.AuditRun.Param, _ check: String
    ) -> RPCError {
        let accepted = AuditCatalog.ids
        return RPCError.invalidParams(
            "audit.run: unknown check '\(String(check.prefix(100)))' in '\(param.rawValue)' (accepted: \(accepted.joined(separator: ", ")))",
            data: [
                "param": .string(param.rawValue), "method": .string(arguments.method), "accepted": JSON(accepted),
            ])
    }

    /// `suppress`: entries that are a check id, or `{check?, selector?}` (at least one); a selector suppresses on
    /// every element it matches.
    static func auditSuppressions(_ arguments: Params<RPCCatalog.AuditRun.Param>, snap: AppSnapshot) throws(RPCError)
        -> [AuditSuppression]
    {
        guard let value = arguments[.suppress] else { return [] }
        guard case .array(let entries) = value else {
            throw arguments.bad(.suppress, "must be an array of check ids or {check, selector} objects")
        }
        guard entries.count <= 1000 else { throw arguments.bad(.suppress, "has more than 1000 entries") }
        var out: [AuditSuppression] = []
        for entry in entries {
            switch entry {
            case .string(let check):
                guard AuditCatalog.check(check) != nil else { throw unknownCheck(arguments, .suppress, check) }
                out.append(AuditSuppression(check: check, elements: nil))
            case .object(let object):
                out.append(try objectSuppression(object, arguments: arguments, snap: snap))
            default:
                throw arguments.bad(
                    .suppress, "entries are check ids or {check, selector} objects, got \(entry.typeName)")
            }
        }
        return out
    }

    /// One `{check?, selector?}` (or `{check?, element?}`) entry of `suppress`.
    static func objectSuppression(_ object: JSONObject, arguments: Params<RPCCatalog.AuditRun.Param>, snap: AppSnapshot)
        throws(RPCError)
        -> AuditSuppression
    {
        var check: String?
        if let named = object["check"], !named.isNull {
            guard case .string(let id) = named else {
                throw arguments.bad(.suppress, "entries' 'check' must be a string")
            }
            guard AuditCatalog.check(id) != nil else { throw unknownCheck(arguments, .suppress, id) }
            check = id
        }
        var elements: Set<String>?
        if let selectorJSON = object["selector"], !selectorJSON.isNull {
            let selector = try Targets.selector(
                from: selectorJSON, param: arguments.name(.suppress), method: arguments.method)
            elements = Set(try Targets.find(selector, in: snap, root: nil, limit: nil))
        } else if let element = object["element"], !element.isNull {
            guard case .string(let id) = element else {
                throw arguments.bad(.suppress, "entries' 'element' must be an id string")
            }
            elements = [id]
        }
        guard check != nil || elements != nil else {
            throw arguments.bad(.suppress, "entries need 'check', 'selector' or 'element'")
        }
        return AuditSuppression(check: check, elements: elements)
    }
}
