import AXInsight
import AXJSON
import AXProtocol
import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - audit

enum AuditFormat: String, ExpressibleByArgument, CaseIterable, Sendable { case text, json, junit, sarif }

struct Audit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run accessibility audits; exit 1 when anything is found.",
        discussion: """
            Checks (all by default): \(AuditCatalog.ids.joined(separator: ", ")). Each finding names the check, the severity, the element, a one-line reason and a fix citing the rule (Specs/decisions.md §Audits).

            Exit codes: 0 nothing found, 1 findings (also for --format junit|sarif, whose report goes to stdout), 6 a refused request (e.g. an unknown check id).

            Examples:
              axquery audit                          # exit 1 on the demo: Device Name is labelled only by its placeholder
              axquery audit --check hitRegion --check contrast
              axquery audit --suppress 'description=#deviceName' --suppress hitRegion
              axquery audit --root '#settingsTable' --format junit > audit.xml
              axquery audit --format sarif > audit.sarif   # exit 1: the demo's one finding, as SARIF
            """)
    @Option(name: .customLong("check"), help: "Run only this check (repeatable).") var checks: [String] = []
    @Option(
        name: .customLong("suppress"),
        help: ArgumentHelp(
            "Suppress a check id, a selector's elements ('@selector'), or one check on a selector's elements ('check=selector'). Repeatable.",
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
            var params: RPCParams<RPCCatalog.AuditRun.Param> = [:]
            if !checks.isEmpty { params[.checks] = JSON(checks) }
            if !suppress.isEmpty { params[.suppress] = .array(suppress.map(Audit.suppression)) }
            if let root { params[.root] = ["selector": .string(root)] }
            if let maxFindings { params[.maxFindings] = JSON(maxFindings) }
            let result = try ctx.call(.auditRun, params)
            let findings = (result[.findings]?.arrayValue ?? []).compactMap(AuditFormats.finding)
            let ran = (result[.checks]?.arrayValue ?? []).compactMap(\.stringValue)
            report(result.json, findings: findings, ran: ran, format: ctx.json ? .json : format, palette: ctx.palette)
            if let truncated = result[.truncated], let omitted = truncated["omitted"]?.intValue {
                Out.err("\(omitted) more findings were left out (--max-findings)")
            }
            if !findings.isEmpty {
                throw CLIFailure(
                    Exit.noMatch, "\(findings.count) accessibility finding\(findings.count == 1 ? "" : "s")"
                ).quiet(true)
            }
        }
    }

    /// The report in the chosen format.
    private func report(
        _ result: JSON, findings: [AuditFinding], ran: [String], format: AuditFormat, palette: Palette
    ) {
        switch format {
        case .json:
            Out.json(result)
        case .junit:
            Out.write(
                AuditFormats.junit(
                    findings, checks: ran,
                    suiteName: "accessibility audit of \(result["app"]?.stringValue ?? "app")"))
        case .sarif:
            Out.json(AuditFormats.sarif(findings, checks: ran, toolVersion: RPCServerInfo.version))
        case .text:
            Out.write(Audit.text(findings, palette))
            Out.line(findings.isEmpty ? "no findings: \(ran.count) checks ran" : Audit.summary(result, findings))
        }
    }

    /// "N findings (E errors, W warnings[, S suppressed])".
    static func summary(_ result: JSON, _ findings: [AuditFinding]) -> String {
        let suppressed = result["suppressed"]?.intValue ?? 0
        return
            "\(findings.count) finding\(findings.count == 1 ? "" : "s") (\(result["errors"]?.intValue ?? 0) errors, \(result["warnings"]?.intValue ?? 0) warnings)"
            + (suppressed > 0 ? ", \(suppressed) suppressed" : "")
    }

    /// `check`, `@selector` or `check=selector`.
    static func suppression(_ spec: String) -> JSON {
        if spec.hasPrefix("@") { return ["selector": .string(String(spec.dropFirst()))] }
        if let equals = spec.firstIndex(of: "="), AuditCatalog.check(String(spec[..<equals])) != nil {
            return [
                "check": .string(String(spec[..<equals])),
                "selector": .string(String(spec[spec.index(after: equals)...])),
            ]
        }
        return .string(spec)
    }

    static func text(_ findings: [AuditFinding], _ palette: Palette) -> String {
        var out = ""
        for finding in findings {
            let severity =
                finding.severity == .error
                ? palette.flag(finding.severity.rawValue) : palette.value(finding.severity.rawValue)
            out += "\(severity) \(palette.role(finding.check)) \(finding.element)"
            if let label = finding.label { out += " " + Render.quoted(label) }
            out += ": \(finding.reason)\n"
            out += "    " + palette.dim("fix: \(finding.fix)") + "\n"
        }
        return out
    }
}

// MARK: - say (speech)

struct Say: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "What VoiceOver and Orca say for an element, or for the whole screen in reading order.",
        discussion: """
            With a selector: speech.describe (strict, one element). Without one: speech.walk — every element in reading order.

            Examples:
              axquery say '#showAlert'
              axquery say --model orca '#textSize'
              axquery say --model orca --screen-reader orca-48 '#copies'   # Orca 48's phrasing
              axquery say                 # the whole screen, VoiceOver then Orca per element
            """)
    @Argument(help: "The element (a selector); leave out to read the whole screen.") var selector: String?
    @Option(help: "voiceOver or orca (default: both).") var model: String?
    @Option(help: "Whose phrasing the Orca model speaks in: orca-43 (default) or orca-48.") var screenReader: String?
    @Option(help: "With no selector: read only inside the element this selector resolves to.") var root: String?
    @Option(help: "With no selector: at most this many elements.") var limit: Int?
    @OptionGroup var offline: FileOption
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            if let selector { try Context.validate(selector) }
            if let root { try Context.validate(root) }
            let ctx = try Context(global, file: offline.file)
            if let selector {
                try describe(ctx, selector)
            } else {
                try walk(ctx)
            }
        }
    }

    /// `speech.describe`: what each screen reader says for one element.
    private func describe(_ ctx: Context, _ selector: String) throws {
        var params: RPCParams<RPCCatalog.SpeechDescribe.Param> = [.target: ["selector": .string(selector)]]
        if let model { params[.model] = .string(model) }
        if let screenReader { params[.screenReader] = .string(screenReader) }
        let result = try ctx.call(.speechDescribe, params)
        if ctx.json {
            Out.json(result)
            return
        }
        if let voiceOver = result[.voiceOver]?["text"]?.stringValue { Out.line("VoiceOver: " + voiceOver) }
        for line in result[.orca]?["utterances"]?.arrayValue ?? [] {
            Out.line("Orca:      " + (line.stringValue ?? ""))
        }
    }

    /// `speech.walk`: every element in reading order.
    private func walk(_ ctx: Context) throws {
        var params: RPCParams<RPCCatalog.SpeechWalk.Param> = [:]
        if let model { params[.model] = .string(model) }
        if let screenReader { params[.screenReader] = .string(screenReader) }
        if let root { params[.root] = ["selector": .string(root)] }
        if let limit { params[.limit] = JSON(limit) }
        let result = try ctx.call(.speechWalk, params)
        if ctx.json {
            Out.json(result)
            return
        }
        var out = ""
        for (number, item) in (result[.items]?.arrayValue ?? []).enumerated() {
            out += "\(number + 1). \(item["id"]?.stringValue ?? "")\n"
            if let voiceOver = item["voiceOver"]?.stringValue { out += "   VoiceOver: \(voiceOver)\n" }
            for line in item["orca"]?.arrayValue ?? [] { out += "   Orca:      \(line.stringValue ?? "")\n" }
        }
        Out.write(out)
        if let omitted = result[.truncated]?["omitted"]?.intValue {
            Out.err("\(omitted) more elements were left out (--limit)")
        }
    }
}

// MARK: - render

enum PictureFormat: String, ExpressibleByArgument, CaseIterable, Sendable { case svg, png }

struct RenderPicture: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw the tree as a picture (SVG, or PNG through the server's rsvg-convert).",
        discussion: """
            Overlays: \(["labels", "order", "focus", "hitRegions", "audit"].joined(separator: ", ")) (default: labels, order, focus). The picture is capped at --max-nodes nodes and says how many it left out.

            Examples:
              axquery render --out tree.svg
              axquery render --format png --overlay audit --overlay order --out audit.png
              axquery render --root '#settingsTable' --overlay hitRegions > table.svg
            """)
    @Option(help: "svg or png.") var format: PictureFormat = .svg
    @Option(name: .customLong("overlay"), help: "An overlay to draw (repeatable).") var overlays: [String] = []
    @Option(help: "Draw only the element this selector resolves to and its subtree.") var root: String?
    @Option(help: "At most this many nodes (default 5000).") var maxNodes: Int?
    @Option(help: ArgumentHelp("Write the picture to this file (default: stdout).", valueName: "file")) var out: String?
    @OptionGroup var offline: FileOption
    @OptionGroup(title: "Connection and output options") var global: GlobalOptions

    func run() throws {
        try runReporting(json: global.json) {
            if let root { try Context.validate(root) }
            let ctx = try Context(global, file: offline.file)
            var params: RPCParams<RPCCatalog.TreeRender.Param> = [.format: .string(format.rawValue)]
            if !overlays.isEmpty { params[.overlay] = JSON(overlays) }
            if let root { params[.root] = ["selector": .string(root)] }
            if let maxNodes { params[.maxNodes] = JSON(maxNodes) }
            let result = try ctx.call(.treeRender, params)
            if let omitted = result[.truncated]?["omitted"]?.intValue {
                Out.err("\(omitted) nodes were not drawn (--max-nodes or --root)")
            }
            let bytes: [UInt8]
            if format == .svg {
                bytes = Array((result[.svg]?.stringValue ?? "").utf8)
            } else {
                guard let decoded = Base64Decoder.decode(result[.data]?.stringValue ?? "") else {
                    throw CLIFailure(Exit.refused, "the server's PNG was not valid base64")
                }
                bytes = decoded
            }
            if let out {
                try FileOutput.write(bytes, to: out)
                if ctx.json {
                    var summary = result.json.objectValue ?? [:]
                    summary["svg"] = nil
                    summary["data"] = nil
                    summary["file"] = .string(out)
                    Out.json(.object(summary))
                }
            } else {
                FileOutput.writeAll(1, bytes)
            }
        }
    }
}

/// Base64 decoding for the PNG answer.
enum Base64Decoder {
    static func decode(_ text: String) -> [UInt8]? {
        var table = [Int8](repeating: -1, count: 256)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = Int8(index)
        }
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.utf8 {
            if character == UInt8(ascii: "=") { break }
            let value = table[Int(character)]
            guard value >= 0 else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }
}

/// Writes a whole file with POSIX calls (mode 0644, replacing it), or raw bytes to stdout.
enum FileOutput {
    static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CLIFailure(Exit.refused, "cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        guard writeAll(fd, bytes) else {
            throw CLIFailure(Exit.refused, "cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    /// Writes every byte, retrying on EINTR; false on an error.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    static func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.write(fd, pointer, count)
        #else
            Glibc.write(fd, pointer, count)
        #endif
    }
}
