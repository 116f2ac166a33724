import AXJSON
import AXQuery

/// A WebDriver locator strategy and how axdriver evaluates it (Specs/webdriver.md §Locator strategies).
package enum Locator: Sendable {
    /// Evaluated by axserver's selector engine (`query.find`).
    case selector(String)
    /// XPath 1.0 over the parsed page source.
    case xpath(XPathQuery)
    /// `class name`: an XCUIElementType name (the page source's `type`) or a server role.
    case className(String)

    /// Every strategy accepted (W3C's, Appium's, and this project's `-axserver selector`).
    package static let strategies = [
        "accessibility id", "name", "id", "class name", "tag name", "xpath", "-axserver selector", "css selector",
    ]

    /// The locator for a Find Element request body `{"using", "value"}`.
    package static func parse(_ body: JSONObject) throws(WebDriverError) -> Locator {
        guard let using = body["using"]?.stringValue else {
            throw .invalidArgument("'using' must be a string (one of: \(strategies.joined(separator: ", ")))")
        }
        guard let value = body["value"]?.stringValue else { throw .invalidArgument("'value' must be a string") }
        switch using {
        case "accessibility id":
            // As on iOS (WebDriverAgent): the `name` attribute, i.e. the accessibility identifier, else the label.
            return .selector("*[name=\(Canon.quoted(value))]")
        case "id":
            return .selector("*[id=\(Canon.quoted(value))]")
        case "name":
            return .selector("*[label=\(Canon.quoted(value))]")
        case "css selector":
            // Selenium's Python client sends By.ID, By.NAME, By.CLASS_NAME and By.TAG_NAME as CSS:
            // `[id="v"]`, `[name="v"]`, `.v` and `v`; those four forms (and `#v`) are accepted.
            return try parse([
                "using": .string(try cssStrategy(value).using), "value": .string(cssStrategy(value).value),
            ])
        case "class name", "tag name":
            guard !value.isEmpty else { throw WebDriverError("invalid selector", "an empty class name") }
            return .className(value)
        case "xpath":
            do { return .xpath(try XPathQuery(value)) } catch {
                throw WebDriverError(
                    "invalid selector", "invalid xpath: \(error)",
                    data: ["position": error.position.map { JSON($0) } ?? .null, "selector": .string(value)])
            }
        case "-axserver selector":
            return .selector(value)
        default:
            throw WebDriverError(
                "invalid argument",
                "unknown locator strategy '\(using)' (supported: \(strategies.joined(separator: ", ")))",
                data: ["supported": JSON(strategies)])
        }
    }

    /// The strategy a simple CSS selector stands for (the forms Selenium's client generates).
    static func cssStrategy(_ css: String) throws(WebDriverError) -> (using: String, value: String) {
        for (prefix, using) in [("[id=\"", "id"), ("[name=\"", "name")]
        where css.hasPrefix(prefix) && css.hasSuffix("\"]") {
            return (using, String(css.dropFirst(prefix.count).dropLast(2)))
        }
        if css.hasPrefix("#"), css.count > 1 { return ("id", String(css.dropFirst())) }
        if css.hasPrefix("."), css.count > 1 { return ("class name", String(css.dropFirst())) }
        if let first = css.first, first.isLetter,
            css.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        {
            return ("class name", css)
        }
        throw WebDriverError(
            "invalid selector",
            "axdriver takes only the CSS forms [id=\"v\"], [name=\"v\"], #v, .v and a type name; use xpath or -axserver selector",
            data: ["selector": .string(css)])
    }
}

/// Element references: the axserver node id when it is URL-safe (letters, digits, `.`, `_`, `-`), else `~` and
/// the id's UTF-8 in hex — stateless, so a reference outlives nothing but the node it names.
package enum ElementReference {
    /// The W3C web element identifier key.
    package static let key = "element-6066-11e4-a52e-4f735466cecf"

    package static func encode(_ id: String) -> String {
        let safe =
            !id.isEmpty
            && id.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
        if safe { return id }
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [UInt8(ascii: "~")]
        for byte in id.utf8 {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    package static func decode(_ reference: String) throws(WebDriverError) -> String {
        guard reference.hasPrefix("~") else {
            guard !reference.isEmpty else { throw WebDriverError("no such element", "an empty element reference") }
            return reference
        }
        let hex = Array(reference.utf8.dropFirst())
        guard hex.count % 2 == 0 else { throw WebDriverError("no such element", "malformed element reference") }
        var bytes: [UInt8] = []
        var index = 0
        while index < hex.count {
            guard let value = UInt8(String(decoding: hex[index..<(index + 2)], as: UTF8.self), radix: 16) else {
                throw WebDriverError("no such element", "malformed element reference '\(reference)'")
            }
            bytes.append(value)
            index += 2
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `{"element-6066-…": ref}`.
    package static func json(_ id: String) -> JSON { [key: .string(encode(id))] }

    /// The node id in a script argument: a W3C reference object, Appium's `{"elementId"}` / `{"element"}`, or a
    /// string.
    static func nodeID(in argument: JSON?) throws(WebDriverError) -> String? {
        guard let argument else { return nil }
        if let text = argument.stringValue { return try decode(text) }
        for key in [key, "ELEMENT", "elementId", "element"] {
            if let text = argument[key]?.stringValue { return try decode(text) }
            if let nested = argument[key], nested.objectValue != nil { return try nodeID(in: nested) }
        }
        return nil
    }
}
