import AXJSON

/// Capability processing (WebDriver §7.2): validate `alwaysMatch` and each `firstMatch` entry, merge them, and
/// pick the first merged set this driver matches.
package enum Capabilities {
    /// The standard capabilities and the type each must have (anything else without a `:` is ignored).
    static let standard: [String: String] = [
        "acceptInsecureCerts": "boolean", "browserName": "string", "browserVersion": "string",
        "platformName": "string", "pageLoadStrategy": "string", "proxy": "object", "setWindowRect": "boolean",
        "strictFileInteractability": "boolean", "timeouts": "object", "unhandledPromptBehavior": "string",
        "webSocketUrl": "boolean",
    ]

    /// The most capability keys a New Session may carry, `alwaysMatch` and every `firstMatch` entry together
    /// (Specs/webdriver.md §Limits); real clients send a dozen or two.
    package static let maxKeys = 1_000

    /// The merged capabilities of the first matching `firstMatch` entry; `invalid argument` for malformed ones
    /// (and for more than `maxKeys` keys), `session not created` when none matches. Linear in the number of keys.
    package static func process(_ body: JSONObject) throws(WebDriverError) -> JSONObject {
        let capabilities: JSONObject
        if let value = body["capabilities"] {
            guard let object = value.objectValue else { throw .invalidArgument("'capabilities' must be an object") }
            capabilities = object
        } else {
            capabilities = [:]
        }
        var alwaysMatch = JSONObject()
        var keyCount = 0
        if let value = capabilities["alwaysMatch"], !value.isNull {
            guard let object = value.objectValue else { throw .invalidArgument("'alwaysMatch' must be an object") }
            keyCount += object.count
            try checkKeyCount(keyCount)
            alwaysMatch = try validate(object)
        }
        let alwaysKeys = Set(alwaysMatch.keys)
        var firstMatch: [JSONObject] = [[:]]
        if let value = capabilities["firstMatch"], !value.isNull {
            guard let array = value.arrayValue, !array.isEmpty else {
                throw .invalidArgument("'firstMatch' must be a non-empty array")
            }
            try checkKeyCount(keyCount + array.count)
            firstMatch = []
            for entry in array {
                guard let object = entry.objectValue else {
                    throw .invalidArgument("'firstMatch' entries must be objects")
                }
                keyCount += object.count
                try checkKeyCount(keyCount)
                let validated = try validate(object)
                for key in validated.keys where alwaysKeys.contains(key) {
                    throw .invalidArgument("capability '\(key)' is in both alwaysMatch and firstMatch")
                }
                firstMatch.append(validated)
            }
        }
        var reasons: [String] = []
        for entry in firstMatch {
            var merged = alwaysMatch
            // The keys are disjoint (checked above) and unique within each object (the JSON parser keeps one).
            for (key, value) in entry { merged.appendUnchecked(key, value) }
            if let reason = mismatch(merged) {
                reasons.append(reason)
            } else {
                return merged
            }
        }
        throw WebDriverError(
            "session not created", "no capabilities match axdriver: \(reasons.joined(separator: "; "))",
            data: ["reasons": JSON(reasons)])
    }

    /// `invalid argument` (`data.limit: maxCapabilityKeys`) beyond `maxKeys` keys.
    static func checkKeyCount(_ count: Int) throws(WebDriverError) {
        guard count <= maxKeys else {
            throw WebDriverError(
                "invalid argument",
                "the capabilities have more than \(maxKeys) keys (alwaysMatch and firstMatch together); send only the ones the session needs",
                data: ["limit": "maxCapabilityKeys", "max": JSON(maxKeys)])
        }
    }

    /// The object without null members, each standard capability type-checked. Linear: the object's keys are
    /// unique, so members are appended without a lookup.
    static func validate(_ object: JSONObject) throws(WebDriverError) -> JSONObject {
        var out = JSONObject(minimumCapacity: object.count)
        for (key, value) in object {
            if value.isNull { continue }
            if let type = standard[key] {
                let actual = value.typeName
                guard actual == type || (type == "boolean" && actual == "bool") else {
                    throw .invalidArgument("capability '\(key)' must be a \(type), got \(actual)")
                }
                if key == "timeouts", let timeouts = value.objectValue {
                    var check = WebDriverTimeouts()
                    try check.apply(timeouts)
                }
            } else if key.contains(":") {
                if key == "axserver:app", value.stringValue == nil {
                    throw .invalidArgument("capability 'axserver:app' must be a string (an app name or id)")
                }
                if key == "axserver:reset", value.boolValue == nil {
                    throw .invalidArgument("capability 'axserver:reset' must be a boolean")
                }
            }
            out.appendUnchecked(key, value)
        }
        return out
    }

    /// Why this driver does not match a merged set, or nil when it does.
    static func mismatch(_ merged: JSONObject) -> String? {
        if let platform = merged["platformName"]?.stringValue, platform.lowercased() != "linux",
            platform.lowercased() != "any"
        {
            return "platformName '\(platform)' (axdriver is 'linux')"
        }
        if let browser = merged["browserName"]?.stringValue, !browser.isEmpty, browser.lowercased() != "axserver" {
            return "browserName '\(browser)' (axdriver drives apps, not a browser)"
        }
        if let automation = merged["appium:automationName"]?.stringValue, automation.lowercased() != "axserver" {
            return "appium:automationName '\(automation)' (axdriver is 'AXServer')"
        }
        if merged["acceptInsecureCerts"]?.boolValue == true { return "acceptInsecureCerts true (axdriver has no TLS)" }
        return nil
    }
}
