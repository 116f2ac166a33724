import AXCore
import AXJSON

/// The wire form of findings (Specs/protocol.md §Audits) and the CI report formats built from it.
package enum AuditFormats {
    package static func json(_ finding: AuditFinding) -> JSON {
        var object = JSONObject(minimumCapacity: 9)
        object.appendUnchecked("check", .string(finding.check))
        object.appendUnchecked("severity", .string(finding.severity.rawValue))
        object.appendUnchecked("element", .string(finding.element))
        object.appendUnchecked("role", JSON(finding.role))
        object.appendUnchecked("label", JSON(finding.label))
        object.appendUnchecked("frame", rect(finding.frame))
        object.appendUnchecked("reason", .string(finding.reason))
        object.appendUnchecked("fix", .string(finding.fix))
        object.appendUnchecked("rules", JSON(finding.rules))
        return .object(object)
    }

    /// Reads a finding back from its wire form (axquery builds its reports from the server's answer).
    package static func finding(_ json: JSON) -> AuditFinding? {
        guard let check = json["check"]?.stringValue, let element = json["element"]?.stringValue,
            let severity = json["severity"]?.stringValue.flatMap(AuditSeverity.init(rawValue:))
        else { return nil }
        let frameJSON = json["frame"]
        let frame = Rect(
            x: frameJSON?["x"]?.doubleValue ?? 0, y: frameJSON?["y"]?.doubleValue ?? 0,
            width: frameJSON?["width"]?.doubleValue ?? 0, height: frameJSON?["height"]?.doubleValue ?? 0)
        let rules = (json["rules"]?.arrayValue ?? []).compactMap(\.stringValue)
        return AuditFinding(
            check: check, severity: severity, element: element, role: json["role"]?.stringValue,
            label: json["label"]?.stringValue, frame: frame, reason: json["reason"]?.stringValue ?? "",
            fix: json["fix"]?.stringValue ?? "", rules: rules)
    }

    package static func checkJSON(_ check: AuditCheck) -> JSON {
        [
            "id": .string(check.id), "severity": .string(check.severity.rawValue), "summary": .string(check.summary),
            "source": .string(check.source), "decision": .string(check.decision),
        ]
    }

    static func rect(_ rect: Rect) -> JSON {
        ["x": .number(rect.x), "y": .number(rect.y), "width": .number(rect.width), "height": .number(rect.height)]
    }

    /// One line per finding: `severity check element: reason — fix`.
    package static func text(_ findings: [AuditFinding]) -> String {
        var out = ""
        for finding in findings {
            out +=
                "\(finding.severity.rawValue) \(finding.check) \(finding.element): \(finding.reason)\n    fix: \(finding.fix)\n"
        }
        return out
    }

    /// JUnit XML: one test case per check that ran; each finding is a failure of its check's case.
    package static func junit(_ findings: [AuditFinding], checks: [String], suiteName: String) -> String {
        var byCheck: [String: [AuditFinding]] = [:]
        for finding in findings { byCheck[finding.check, default: []].append(finding) }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(xml(suiteName))\" tests=\"\(checks.count)\" failures=\"\(byCheck.count)\">\n"
        out +=
            "  <testsuite name=\"\(xml(suiteName))\" tests=\"\(checks.count)\" failures=\"\(byCheck.count)\" errors=\"0\" skipped=\"0\">\n"
        for check in checks {
            out += "    <testcase classname=\"accessibility.audit\" name=\"\(xml(check))\""
            guard let found = byCheck[check] else {
                out += "/>\n"
                continue
            }
            out += ">\n"
            let message = "\(found.count) finding\(found.count == 1 ? "" : "s")"
            out += "      <failure type=\"\(xml(check))\" message=\"\(xml(message))\">"
            for finding in found {
                out += xml(
                    "\(finding.severity.rawValue) \(finding.element): \(finding.reason) — fix: \(finding.fix) [\(finding.rules.joined(separator: ", "))]\n"
                )
            }
            out += "</failure>\n    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// SARIF 2.1.0: one rule per check, one result per finding; the element id is the logical location.
    package static func sarif(_ findings: [AuditFinding], checks: [String], toolVersion: String) -> JSON {
        let rules: [JSON] = checks.compactMap { id in
            guard let check = AuditCatalog.check(id) else { return nil }
            return [
                "id": .string(check.id), "shortDescription": ["text": .string(check.summary)],
                "properties": ["source": .string(check.source), "decision": .string(check.decision)],
                "defaultConfiguration": ["level": .string(level(check.severity))],
            ]
        }
        let results: [JSON] = findings.map { finding in
            let location: JSON = [
                "logicalLocations": [
                    [
                        "name": .string(finding.element), "kind": "element",
                        "fullyQualifiedName": .string(finding.element),
                    ]
                ]
            ]
            return [
                "ruleId": .string(finding.check), "level": .string(level(finding.severity)),
                "message": ["text": .string("\(finding.element): \(finding.reason). Fix: \(finding.fix)")],
                "locations": [location],
                "properties": ["rules": JSON(finding.rules), "role": JSON(finding.role), "frame": rect(finding.frame)],
            ]
        }
        let driver: JSON = ["name": "axserver-audit", "version": .string(toolVersion), "rules": .array(rules)]
        return [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [["tool": ["driver": driver], "results": .array(results)]],
        ]
    }

    static func level(_ severity: AuditSeverity) -> String {
        severity == .error ? "error" : "warning"
    }

    /// Escapes text for XML attributes and content; drops characters XML 1.0 cannot carry.
    package static func xml(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
