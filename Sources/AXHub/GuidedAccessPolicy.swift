import AXJSON

/// The kiosk operator's guided-access policy: which restrictions are denied, per app name, for the whole life of
/// the server — across app disconnects, crashes and re-registrations (Specs/protocol.md §Guided access, D-GA-3).
///
/// A policy is plain data: the server loads it from the file named by `--policy`, an operator changes it over
/// JSON-RPC, and the file is written back. The file format (JSON):
///
/// ```json
/// {
///   "version": 1,
///   "unknownApps": "allow",
///   "apps": {
///     "axserver-demo": {"deny": ["org.axserver.demo.reset"], "allow": [], "matchSuffixedNames": false}
///   }
/// }
/// ```
package struct GuidedAccessPolicy: Sendable, Equatable {
    /// Where a restriction's state comes from (`policy.get` reports it).
    package enum Source: String, Sendable, Equatable {
        /// The policy file, at start or on reload (SIGHUP).
        case file
        /// An operator's `policy.set` since the file was last read.
        case `operator`
        /// No rule names it: allowed (R79), or denied because its app is unknown and `unknownApps` is `deny`.
        case `default`
    }

    /// The operator's decision on one restriction.
    package struct Rule: Sendable, Equatable {
        package var denied: Bool
        package var source: Source
        package init(denied: Bool, source: Source) {
            self.denied = denied
            self.source = source
        }
    }

    /// The rules for one app name.
    package struct AppRules: Sendable, Equatable {
        /// Restriction id → rule.
        package var rules: [String: Rule]
        /// Whether the rules also cover apps registering as `NAME-2`, `NAME-3`, … (a second instance's name).
        package var matchSuffixedNames: Bool
        package init(rules: [String: Rule] = [:], matchSuffixedNames: Bool = false) {
            self.rules = rules
            self.matchSuffixedNames = matchSuffixedNames
        }
    }

    /// Whether apps with no entry start with every restriction they declare denied (a locked-down kiosk).
    package var lockDownUnknownApps: Bool
    /// App name → its rules.
    package var apps: [String: AppRules]

    package init(lockDownUnknownApps: Bool = false, apps: [String: AppRules] = [:]) {
        self.lockDownUnknownApps = lockDownUnknownApps
        self.apps = apps
    }

    /// The entry that governs an app registered under `name`: its own, else the entry of the name it suffixes
    /// (`kiosk-2` → `kiosk`) when that entry says `matchSuffixedNames`.
    package func entry(forAppNamed name: String) -> (name: String, rules: AppRules)? {
        if let own = apps[name] {
            return (name, own)
        }
        guard let dash = name.lastIndex(of: "-") else {
            return nil
        }
        let suffix = name[name.index(after: dash)...]
        guard !suffix.isEmpty, suffix.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        let base = String(name[..<dash])
        guard let baseRules = apps[base], baseRules.matchSuffixedNames else {
            return nil
        }
        return (base, baseRules)
    }

    /// The effective state of `restriction` for an app registered under `name`.
    package func rule(forAppNamed name: String, restriction: String) -> Rule {
        guard let entry = entry(forAppNamed: name) else {
            return Rule(denied: lockDownUnknownApps, source: .default)
        }
        return entry.rules.rules[restriction] ?? Rule(denied: false, source: .default)
    }

    /// The denied subset of `declared` for an app registered under `name`.
    package func denied(forAppNamed name: String, declared: [GuidedAccessRestrictionID]) -> Set<String> {
        var out = Set<String>()
        for restriction in declared where rule(forAppNamed: name, restriction: restriction).denied {
            out.insert(restriction)
        }
        return out
    }

    /// Records an operator's decision for `restriction` of the apps governed by `name`'s entry (creating an entry
    /// for `name` when none governs it).
    package mutating func set(appNamed name: String, restriction: String, denied: Bool, source: Source) {
        let key = entry(forAppNamed: name)?.name ?? name
        var rules = apps[key] ?? AppRules()
        rules.rules[restriction] = Rule(denied: denied, source: source)
        apps[key] = rules
    }
}

/// A restriction identifier (UIGuidedAccessRestrictionDelegate's `guidedAccessRestrictionIdentifiers`).
package typealias GuidedAccessRestrictionID = String

// MARK: - The policy file

/// Why a policy file was refused: the line (1-based) and what to fix. Nothing of a refused file is applied.
package struct PolicyFileError: Error, Sendable, Equatable, CustomStringConvertible {
    package var line: Int
    package var reason: String
    package init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
    package var description: String { "line \(line): \(reason)" }
}

extension GuidedAccessPolicy {
    /// The most bytes a policy file may have.
    package static let maxFileBytes = 4 << 20
    /// The longest app name or restriction id, in UTF-8 bytes.
    package static let maxIdentifierBytes = 256

    /// Parses a policy file. Every rule it names gets source `.file`. Unknown keys, wrong types, duplicate or
    /// contradictory entries and over-long identifiers are refused with the line they are on.
    package static func parse(_ bytes: [UInt8]) throws(PolicyFileError) -> GuidedAccessPolicy {
        guard bytes.count <= maxFileBytes else {
            throw PolicyFileError(
                line: 1, reason: "the file has \(bytes.count) bytes; a policy file may have at most \(maxFileBytes)")
        }
        let locator = LineLocator(bytes)
        guard case .object(let top) = try parseDocument(bytes, locator: locator) else {
            throw PolicyFileError(
                line: 1, reason: "the file must be one JSON object with 'version', 'unknownApps' and 'apps'")
        }
        for key in top.keys where !["version", "unknownApps", "apps"].contains(key) {
            throw PolicyFileError(
                line: locator.line(ofKeyPath: [key]),
                reason: "unknown key '\(key)' (known: version, unknownApps, apps)")
        }
        guard let version = top["version"] else {
            throw PolicyFileError(line: 1, reason: "'version' is required (write \"version\": 1)")
        }
        guard version.intValue == 1 else {
            throw PolicyFileError(line: locator.line(ofKeyPath: ["version"]), reason: "'version' must be 1")
        }
        var policy = GuidedAccessPolicy()
        if let unknownApps = top["unknownApps"] {
            policy.lockDownUnknownApps = try parseUnknownApps(unknownApps, locator: locator)
        }
        guard let appsValue = top["apps"] else {
            return policy
        }
        guard case .object(let apps) = appsValue else {
            throw PolicyFileError(
                line: locator.line(ofKeyPath: ["apps"]),
                reason: "'apps' must be an object: app name → {deny, allow, matchSuffixedNames}")
        }
        for (name, value) in apps {
            policy.apps[name] = try parseAppRules(name: name, entry: value, locator: locator)
        }
        return policy
    }

    /// The file as JSON; a key written twice would silently drop the first value (a lost denial): refused (D-REL-4).
    private static func parseDocument(_ bytes: [UInt8], locator: LineLocator) throws(PolicyFileError) -> JSON {
        do {
            return try JSON.parse(
                bytes, limits: JSONParseLimits(maxDepth: 16, maxBytes: maxFileBytes, rejectDuplicateKeys: true))
        } catch {
            if error.message.hasPrefix(JSONParseError.duplicateKeyPrefix) {
                throw PolicyFileError(
                    line: locator.line(atOffset: error.offset),
                    reason: "\(error.message); write each key once (merge the two lists)")
            }
            throw PolicyFileError(
                line: locator.line(atOffset: error.offset), reason: "not valid JSON: \(error.message)")
        }
    }

    /// `unknownApps`: "deny" locks unknown apps down, "allow" does not.
    private static func parseUnknownApps(_ value: JSON, locator: LineLocator) throws(PolicyFileError) -> Bool {
        switch value.stringValue {
        case "allow"?: return false
        case "deny"?: return true
        default:
            throw PolicyFileError(
                line: locator.line(ofKeyPath: ["unknownApps"]), reason: "'unknownApps' must be \"allow\" or \"deny\"")
        }
    }

    /// Parses the entry of app `name` in the file's `apps` object.
    static func parseAppRules(name: String, entry value: JSON, locator: LineLocator) throws(PolicyFileError)
        -> AppRules
    {
        let path = ["apps", name]
        guard isValidIdentifier(name) else {
            throw PolicyFileError(
                line: locator.line(ofKeyPath: path),
                reason: "app name '\(name.prefix(40))' must be 1…\(maxIdentifierBytes) bytes")
        }
        guard case .object(let entry) = value else {
            throw PolicyFileError(
                line: locator.line(ofKeyPath: path),
                reason: "the entry of app '\(name)' must be an object {deny, allow, matchSuffixedNames}")
        }
        var rules = AppRules()
        for key in entry.keys where !["deny", "allow", "matchSuffixedNames"].contains(key) {
            throw PolicyFileError(
                line: locator.line(ofKeyPath: path + [key]),
                reason: "unknown key '\(key)' in app '\(name)' (known: deny, allow, matchSuffixedNames)")
        }
        if let match = entry["matchSuffixedNames"] {
            guard case .bool(let flag) = match else {
                throw PolicyFileError(
                    line: locator.line(ofKeyPath: path + ["matchSuffixedNames"]),
                    reason: "'matchSuffixedNames' must be true or false")
            }
            rules.matchSuffixedNames = flag
        }
        try parseRuleLists(entry, name: name, path: path, locator: locator, into: &rules)
        return rules
    }

    /// Adds the `deny` and `allow` lists of app `name` to `rules`; an id listed twice or in both is refused.
    static func parseRuleLists(
        _ entry: JSONObject, name: String, path: [String], locator: LineLocator, into rules: inout AppRules
    ) throws(PolicyFileError) {
        for (key, denied) in [("deny", true), ("allow", false)] {
            guard let list = entry[key] else {
                continue
            }
            guard case .array(let items) = list else {
                throw PolicyFileError(
                    line: locator.line(ofKeyPath: path + [key]),
                    reason: "'\(key)' of app '\(name)' must be an array of restriction ids")
            }
            for item in items {
                guard let restriction = item.stringValue, isValidIdentifier(restriction) else {
                    throw PolicyFileError(
                        line: locator.line(ofKeyPath: path + [key]),
                        reason:
                            "'\(key)' of app '\(name)' holds \(item.typeName == "string" ? "an empty or over-long id" : "a \(item.typeName)"); restriction ids are strings of 1…\(maxIdentifierBytes) bytes"
                    )
                }
                if let earlier = rules.rules[restriction] {
                    let reason =
                        earlier.denied == denied
                        ? "restriction '\(restriction)' is listed twice in '\(key)' of app '\(name)'"
                        : "restriction '\(restriction)' of app '\(name)' is in both 'deny' and 'allow'"
                    throw PolicyFileError(
                        line: locator.line(ofKeyPath: path + [key], value: restriction), reason: reason)
                }
                rules.rules[restriction] = Rule(denied: denied, source: .file)
            }
        }
    }

    /// The file form of this policy (every rule is written, whatever its source), pretty-printed, apps and ids sorted.
    package func fileBytes() -> [UInt8] {
        var apps = JSONObject()
        for name in self.apps.keys.sorted() {
            guard let entry = self.apps[name] else {
                continue
            }
            let denied = entry.rules.filter { $0.value.denied }.map(\.key).sorted()
            let allowed = entry.rules.filter { !$0.value.denied }.map(\.key).sorted()
            apps[name] = [
                "deny": JSON(denied), "allow": JSON(allowed), "matchSuffixedNames": .bool(entry.matchSuffixedNames),
            ]
        }
        let document: JSON = [
            "version": 1, "unknownApps": .string(lockDownUnknownApps ? "deny" : "allow"), "apps": .object(apps),
        ]
        return Array((document.prettyString() + "\n").utf8)
    }

    /// The same policy with every rule marked as coming from `source`.
    package func marked(_ source: Source) -> GuidedAccessPolicy {
        var copy = self
        for (name, entry) in apps {
            var updated = entry
            for (restriction, rule) in entry.rules {
                updated.rules[restriction] = Rule(denied: rule.denied, source: source)
            }
            copy.apps[name] = updated
        }
        return copy
    }

    package static func isValidIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maxIdentifierBytes
    }
}

/// Finds line numbers in a policy file for error messages: of a byte offset, or of the first occurrence of a key
/// path (each key searched as a quoted string after the previous one).
struct LineLocator {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func line(atOffset offset: Int) -> Int {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
        }
        return line
    }

    func line(ofKeyPath path: [String], value: String? = nil) -> Int {
        var position = 0
        for key in path + (value.map { [$0] } ?? []) {
            guard let found = find(quoted: key, from: position) else {
                break
            }
            position = found
        }
        return line(atOffset: position)
    }

    private func find(quoted text: String, from start: Int) -> Int? {
        let needle = [0x22] + Array(text.utf8) + [0x22]
        guard needle.count <= bytes.count, start <= bytes.count - needle.count else {
            return nil
        }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == 0x22 && Array(bytes[index..<(index + needle.count)]) == needle {
                return index
            }
            index += 1
        }
        return nil
    }
}
