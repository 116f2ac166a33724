import ArgumentParser
import AXInsight
import AXJSON
import AXRPC

// MARK: - audit

enum AuditFormat: String, ExpressibleByArgument, CaseIterable, Sendable { case text, json, junit, sarif }

struct Audit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run accessibility audits; exit 1 when anything is found.",
        discussion: """
        Checks (all by default): \(AuditCatalog.ids.joined(separator: ", ")). Each finding names the check, the severity, the element, a one-line reason and a fix citing the rule (Specs/decisions.md §Audits).

        Exit codes: 0 nothing found, 1 findings (also for --format junit|sarif, whose report goes to stdout), 6 a refused request (e.g. an unknown check id).

        Examples:
          axquery audit
          axquery audit --check hitRegion --check contrast
          axquery audit --suppress hitRegion --suppress 'trait=#"legacy.button"'
          axquery audit --root '#settingsTable' --format junit > audit.xml
          axquery audit --format sarif > audit.sarif
        """)
    @Option(name: .customLong("check"), help: "Run only this check (repeatable).") var checks: [String] = []
    @Option(name: .customLong("suppress"),
            help: ArgumentHelp("Suppress a check id, a selector's elements ('@selector'), or one check on a selector's elements ('check=selector'). Repeatable.",
                               valueName: "spec"))
    var suppress: [String] = []
    @Option(help: "Audit only inside the element this selector resolves to.") var root: String?
    @Option(help: "At most this many findings (the server says how many it left out).") var maxFindings: Int?
    @Option(help: "text, json, junit or sarif.") var format: AuditFormat = .text
    @OptionGroup var offline: FileOption
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            if let root { try Context.validate(root) }
            let ctx = try Context(global, file: offline.file)
            var p: JSONObject = [:]
            if !checks.isEmpty { p["checks"] = JSON(checks) }
            if !suppress.isEmpty { p["suppress"] = .array(suppress.map(Audit.suppression)) }
            if let root { p["root"] = ["selector": .string(root)] }
            if let maxFindings { p["maxFindings"] = JSON(maxFindings) }
            let r = try ctx.call("audit.run", p)
            let findings = (r["findings"]?.arrayValue ?? []).compactMap(AuditFormats.finding)
            let ran = (r["checks"]?.arrayValue ?? []).compactMap(\.stringValue)
            switch ctx.json ? .json : format {
            case .json:
                Out.json(r)
            case .junit:
                Out.write(AuditFormats.junit(findings, checks: ran, suiteName: "accessibility audit of \(r["app"]?.stringValue ?? "app")"))
            case .sarif:
                Out.json(AuditFormats.sarif(findings, checks: ran, toolVersion: AXMethods.serverVersion))
            case .text:
                Out.write(Audit.text(findings, ctx.palette))
                let summary = "\(findings.count) finding\(findings.count == 1 ? "" : "s") (\(r["errors"]?.intValue ?? 0) errors, \(r["warnings"]?.intValue ?? 0) warnings)"
                    + ((r["suppressed"]?.intValue ?? 0) > 0 ? ", \(r["suppressed"]?.intValue ?? 0) suppressed" : "")
                Out.line(findings.isEmpty ? "no findings: \(ran.count) checks ran" : summary)
            }
            if let truncated = r["truncated"], let omitted = truncated["omitted"]?.intValue {
                Out.err("\(omitted) more findings were left out (--max-findings)")
            }
            if !findings.isEmpty {
                throw CLIFailure(Exit.noMatch, "\(findings.count) accessibility finding\(findings.count == 1 ? "" : "s")").quiet(true)
            }
        }
    }

    /// `check`, `@selector` or `check=selector`.
    static func suppression(_ spec: String) -> JSON {
        if spec.hasPrefix("@") { return ["selector": .string(String(spec.dropFirst()))] }
        if let equals = spec.firstIndex(of: "="), AuditCatalog.check(String(spec[..<equals])) != nil {
            return ["check": .string(String(spec[..<equals])), "selector": .string(String(spec[spec.index(after: equals)...]))]
        }
        return .string(spec)
    }

    static func text(_ findings: [AuditFinding], _ palette: Palette) -> String {
        var out = ""
        for finding in findings {
            let severity = finding.severity == .error ? palette.flag(finding.severity.rawValue) : palette.value(finding.severity.rawValue)
            out += "\(severity) \(palette.role(finding.check)) \(finding.element)"
            if let label = finding.label { out += " " + Render.quoted(label) }
            out += ": \(finding.reason)\n"
            out += "    " + palette.dim("fix: \(finding.fix)") + "\n"
        }
        return out
    }
}
