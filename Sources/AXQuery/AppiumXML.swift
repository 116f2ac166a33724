import AXCore
import AXJSON

/// A small, strict XML reader for page sources: elements, attributes, character references and the five named
/// entities; the XML declaration, comments, processing instructions, DOCTYPE and CDATA are skipped. Text content
/// is ignored (page sources carry everything in attributes).
struct XMLElement {
    var name: String
    var attributes: [(String, String)]
    var children: [XMLElement]
    subscript(_ key: String) -> String? { attributes.first { $0.0 == key }?.1 }
}

struct XMLReadError: Error, CustomStringConvertible {
    var line: Int
    var column: Int
    var message: String
    var description: String { "line \(line), column \(column): \(message)" }
}

struct XMLReader {
    /// At most this many attributes on one element (XCUITest page sources carry about fifteen).
    static let maxAttributesPerElement = 1_024

    let b: [UInt8]
    var i = 0

    init(_ bytes: [UInt8]) { b = bytes }

    static func parse(_ bytes: [UInt8]) throws(XMLReadError) -> XMLElement {
        var r = XMLReader(bytes)
        return try r.document()
    }

    func fail(_ m: String, at pos: Int? = nil) -> XMLReadError {
        let p = min(pos ?? i, b.count)
        // Running out of input in the middle of the document: say so, the usual cause is a truncated file.
        let m = i >= b.count && m != "no root element" ? "unexpected end of file (truncated?): " + m : m
        var line = 1
        var col = 1
        for k in 0..<p {
            if b[k] == 0x0A {
                line += 1
                col = 1
            } else if b[k] & 0xC0 != 0x80 {
                col += 1
            }
        }
        return XMLReadError(line: line, column: col, message: m)
    }

    func starts(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return i + u.count <= b.count && Array(b[i..<(i + u.count)]) == u
    }

    mutating func skip(until s: String) throws(XMLReadError) {
        let start = i
        while i < b.count && !starts(s) { i += 1 }
        guard i < b.count else { throw fail("unterminated construct (expected '\(s)')", at: start) }
        i += s.utf8.count
    }

    mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    /// Skips text, comments, PIs, DOCTYPE and CDATA; stops at the next tag (`<` of an element or end tag) or EOF.
    mutating func misc() throws(XMLReadError) {
        while i < b.count {
            if b[i] != UInt8(ascii: "<") {
                i += 1
                continue
            }
            if starts("<?") {
                try skip(until: "?>")
            } else if starts("<!--") {
                try skip(until: "-->")
            } else if starts("<![CDATA[") {
                try skip(until: "]]>")
            } else if starts("<!") {
                try skip(until: ">")
            } else {
                return
            }
        }
    }

    mutating func document() throws(XMLReadError) -> XMLElement {
        if starts("\u{FEFF}") { i += 3 }
        try misc()
        guard i < b.count else { throw fail("no root element") }
        let root = try element(depth: 0)
        try misc()
        guard i >= b.count else { throw fail("content after the root element") }
        return root
    }

    static func isNameByte(_ c: UInt8) -> Bool {
        c >= 0x80 || (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
            || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":")
    }

    mutating func name() throws(XMLReadError) -> String {
        let s = i
        while i < b.count, XMLReader.isNameByte(b[i]) { i += 1 }
        guard i > s else {
            throw fail(
                i < b.count
                    ? "expected a name, found '\(Character(UnicodeScalar(b[i])))'"
                    : "expected a name, found end of input")
        }
        return String(decoding: b[s..<i], as: UTF8.self)
    }

    mutating func element(depth: Int) throws(XMLReadError) -> XMLElement {
        guard depth < 512 else { throw fail("elements nested deeper than 512") }
        guard i < b.count, b[i] == UInt8(ascii: "<") else { throw fail("expected '<'") }
        i += 1
        let n = try name()
        var attrs: [(String, String)] = []
        var attributeNames = Set<String>()  // duplicate check in O(1) per attribute (a linear scan was quadratic)
        while true {
            skipSpace()
            guard i < b.count else { throw fail("unterminated start tag <\(n)>") }
            if b[i] == UInt8(ascii: "/") {
                i += 1
                guard i < b.count, b[i] == UInt8(ascii: ">") else { throw fail("expected '>' after '/'") }
                i += 1
                return XMLElement(name: n, attributes: attrs, children: [])
            }
            if b[i] == UInt8(ascii: ">") {
                i += 1
                break
            }
            let an = try name()
            guard attrs.count < XMLReader.maxAttributesPerElement else {
                throw fail("element <\(n)> has more than \(XMLReader.maxAttributesPerElement) attributes")
            }
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "=") else { throw fail("expected '=' after attribute '\(an)'") }
            i += 1
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                throw fail("expected a quoted value for attribute '\(an)'")
            }
            let q = b[i]
            i += 1
            let s = i
            while i < b.count, b[i] != q { i += 1 }
            guard i < b.count else { throw fail("unterminated value of attribute '\(an)'", at: s) }
            let v = try XMLReader.decode(b[s..<i], reader: self, at: s)
            i += 1
            guard attributeNames.insert(an).inserted else { throw fail("attribute '\(an)' appears twice") }
            attrs.append((an, v))
        }
        var kids: [XMLElement] = []
        while true {
            try misc()
            guard i < b.count else { throw fail("element <\(n)> is not closed") }
            if starts("</") {
                i += 2
                let close = try name()
                guard close == n else { throw fail("expected </\(n)>, found </\(close)>") }
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: ">") else { throw fail("expected '>'") }
                i += 1
                return XMLElement(name: n, attributes: attrs, children: kids)
            }
            kids.append(try element(depth: depth + 1))
        }
    }

    static func decode(_ s: ArraySlice<UInt8>, reader: XMLReader, at pos: Int) throws(XMLReadError) -> String {
        guard s.contains(UInt8(ascii: "&")) else { return String(decoding: s, as: UTF8.self) }
        var out = ""
        var k = s.startIndex
        var run = k
        while k < s.endIndex {
            guard s[k] == UInt8(ascii: "&") else {
                k += 1
                continue
            }
            out += String(decoding: s[run..<k], as: UTF8.self)
            guard let semi = s[k...].firstIndex(of: UInt8(ascii: ";")) else {
                throw reader.fail("unterminated entity", at: k)
            }
            let ent = String(decoding: s[(k + 1)..<semi], as: UTF8.self)
            switch ent {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                var code: UInt32?
                if ent.hasPrefix("#x") || ent.hasPrefix("#X") {
                    code = UInt32(ent.dropFirst(2), radix: 16)
                } else if ent.hasPrefix("#") {
                    code = UInt32(ent.dropFirst())
                }
                guard let c = code, let u = UnicodeScalar(c) else {
                    throw reader.fail("unknown entity '&\(ent);'", at: k)
                }
                out.unicodeScalars.append(u)
            }
            k = semi + 1
            run = k
        }
        out += String(decoding: s[run..<s.endIndex], as: UTF8.self)
        return out
    }
}

/// Why an Appium page source could not be converted; `message` is the whole explanation for the user.
package struct AppiumConversionError: Error, CustomStringConvertible {
    /// What is wrong with the page source, e.g. "invalid XML: line 1, column 3: …".
    package var message: String
    package var description: String { message }
}

/// Converts an Appium XCUITest page source into a hierarchy snapshot (Specs/axquery.md §Appium XML).
package enum AppiumConverter {
    /// XCUIElementType name (without the prefix) → UIKit class and extra properties.
    static func viewClass(_ type: String) -> (String, JSONObject) {
        switch type {
        case "Window": return ("UIWindow", [:])
        case "Button": return ("UIButton", [:])
        case "Link": return ("UIButton", ["accessibilityTraits": ["link"]])
        case "Key": return ("UIButton", ["accessibilityTraits": ["keyboardKey"]])
        case "StaticText": return ("UILabel", [:])
        case "TextField": return ("UITextField", [:])
        case "SecureTextField": return ("UITextField", ["isSecureTextEntry": true])
        case "SearchField": return ("UISearchBar", [:])
        case "TextView": return ("UITextView", [:])
        case "Switch", "Toggle": return ("UISwitch", [:])
        case "Slider": return ("UISlider", [:])
        case "Stepper": return ("UIStepper", [:])
        case "PageIndicator": return ("UIPageControl", [:])
        case "ProgressIndicator": return ("UIProgressView", [:])
        case "ActivityIndicator": return ("UIActivityIndicatorView", [:])
        case "Image", "Icon": return ("UIImageView", [:])
        case "Cell": return ("UITableViewCell", [:])
        case "Table": return ("UITableView", [:])
        case "CollectionView": return ("UICollectionView", [:])
        case "ScrollView": return ("UIScrollView", [:])
        case "NavigationBar": return ("UINavigationBar", [:])
        case "TabBar": return ("UITabBar", [:])
        case "Toolbar": return ("UIToolbar", [:])
        case "SegmentedControl": return ("UISegmentedControl", [:])
        case "Picker": return ("UIPickerView", [:])
        case "PickerWheel": return ("UIPickerView", [:])
        case "DatePicker": return ("UIDatePicker", [:])
        case "Alert": return ("UIAlertController", [:])
        case "Sheet": return ("UIActionSheet", [:])
        default: return ("UIView", [:])  // Other, Group, StatusBar, Keyboard, … (transparent unless labelled)
        }
    }

    /// Class-specific value mapping: switches take isOn, sliders a fraction, steppers a number; others keep
    /// the string as accessibilityValue.
    static func applyValue(_ cls: String, _ v: String, _ o: inout JSONObject) {
        switch cls {
        case "UISwitch":
            let on = ["1", "on", "true"].contains(v.lowercased())
            o["isOn"] = .bool(on)
        case "UISlider":
            var t = Substring(v)
            let percent = t.hasSuffix("%")
            if percent { t = t.dropLast() }
            if let d = Double(t.trimmingCharacters()) {
                o["minimumValue"] = 0
                o["maximumValue"] = 1
                o["value"] = .number(min(1, max(0, percent ? d / 100 : d)))
            } else {
                o["accessibilityValue"] = .string(v)
            }
        case "UIStepper":
            if let d = Double(Substring(v).trimmingCharacters()), d.isFinite {
                o["minimumValue"] = .number(min(0, d))
                o["maximumValue"] = .number(max(100, d))
                o["value"] = .number(d)
            } else {
                o["accessibilityValue"] = .string(v)
            }
        case "UITextField", "UITextView", "UISearchBar":
            o["text"] = .string(v)
        default:
            o["accessibilityValue"] = .string(v)
        }
    }

    /// "Button, Selected" / "KeyboardKey" → ["button", "selected"] / ["keyboardKey"]; nil when none is known.
    static func traitNames(_ s: String) -> [String]? {
        var out: [String] = []
        for word in s.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "|" }) where !word.isEmpty {
            let lower = word.lowercased()
            guard let (name, _) = Traits.named.first(where: { $0.name.lowercased() == lower }) else { continue }
            if !out.contains(name) { out.append(name) }
        }
        return out.isEmpty ? nil : out
    }

    /// The snapshot (`{"windows": [...]}`) for an Appium page source.
    package static func convert(_ xml: [UInt8]) throws(AppiumConversionError) -> JSON {
        let root: XMLElement
        do { root = try XMLReader.parse(xml) } catch { throw AppiumConversionError(message: "invalid XML: \(error)") }
        // <AppiumAUT> → <XCUIElementTypeApplication> → windows; accept any of the three as the root.
        var top = root
        if top.name == "AppiumAUT" {
            guard let app = top.children.first else {
                throw AppiumConversionError(message: "invalid page source: <AppiumAUT> is empty")
            }
            top = app
        }
        guard top.name.hasPrefix("XCUIElementType") else {
            throw AppiumConversionError(
                message: "invalid page source: expected <AppiumAUT> or <XCUIElementType…>, found <\(top.name)>")
        }
        var ids = Set<String>()
        var reserved = Set<String>()
        var counter = 0
        func freshID(_ preferred: String?) -> String {
            if let p = preferred, !p.isEmpty, p.utf8.count <= 512, ids.insert(p).inserted { return p }
            while true {
                counter += 1
                let id = "e\(counter)"
                if !reserved.contains(id), ids.insert(id).inserted { return id }
            }
        }
        // Reserve every axid first, so generated ids never take one.
        func reserve(_ e: XMLElement) {
            if let a = e["axid"], !a.isEmpty { _ = ids.insert(a) }
            for c in e.children { reserve(c) }
        }
        reserve(top)
        reserved = ids
        ids = []
        // A name (identifier or label) that occurs exactly once and is no axid also makes a good id.
        var nameCount: [String: Int] = [:]
        func countNames(_ e: XMLElement) {
            if let n = e["name"], !n.isEmpty { nameCount[n, default: 0] += 1 }
            for c in e.children { countNames(c) }
        }
        countNames(top)
        func num(_ e: XMLElement, _ k: String) -> Double {
            guard let s = e[k], let d = Double(s), d.isFinite, abs(d) < 1e7 else { return 0 }
            return d
        }
        func view(_ e: XMLElement, originX: Double, originY: Double, isWindow: Bool) -> JSON {
            let type = e.name.hasPrefix("XCUIElementType") ? String(e.name.dropFirst("XCUIElementType".count)) : e.name
            let (cls, extra) = isWindow ? ("UIWindow", JSONObject()) : viewClass(type)
            var o: JSONObject = [:]
            var preferred = e["axid"].flatMap { reserved.contains($0) && !ids.contains($0) ? $0 : nil }
            if preferred == nil, let n = e["name"], nameCount[n] == 1, !reserved.contains(n), !ids.contains(n) {
                preferred = n
            }
            o["id"] = .string(freshID(preferred))
            o["class"] = .string(cls)
            let x = num(e, "x")
            let y = num(e, "y")
            let w = max(0, num(e, "width"))
            let h = max(0, num(e, "height"))
            o["frame"] = [.number(x - originX), .number(y - originY), .number(w), .number(h)]
            for (k, v) in extra { o[k] = v }
            let label = e["label"].flatMap { $0.isEmpty ? nil : $0 }
            let name = e["name"].flatMap { $0.isEmpty ? nil : $0 }
            if isWindow {
                if let t = label ?? name { o["windowTitle"] = .string(t) }
            } else {
                if let label {
                    if cls == "UILabel" { o["text"] = .string(label) } else { o["accessibilityLabel"] = .string(label) }
                }
                if let name, name != label { o["accessibilityIdentifier"] = .string(name) }
                // XCUITest echoes a cell's switch value ("1"/"0") as the cell's own value; kept, it would override the
                // switch's state and spell the same state two ways ("1" here, "on" in a cell without the echo).
                let echoesSwitch =
                    cls == "UITableViewCell"
                    && e.children.contains {
                        $0.name == "XCUIElementTypeSwitch" && $0["value"] == e["value"]
                    }
                if let v = e["value"], !v.isEmpty, !(cls == "UILabel" && v == label), !echoesSwitch {
                    applyValue(cls, v, &o)
                }
                if let p = e["placeholderValue"], !p.isEmpty {
                    o["placeholder"] = .string(p)
                    // XCUITest reports an empty field's placeholder as its value: that is not text the user typed.
                    if let v = e["value"], v == p, ["UITextField", "UITextView", "UISearchBar"].contains(cls) {
                        o["text"] = nil
                    }
                }
                if let t = e["traits"], let names = traitNames(t) {
                    // WebDriverAgent's `traits` ("Button, Selected"): the element's whole trait set.
                    o["accessibilityTraits"] = JSON(names)
                }
                if e["enabled"] == "false" {
                    o["isEnabled"] = false
                    if cls == "UIView" || cls == "UILabel" || cls == "UIImageView" || cls == "UITableViewCell" {
                        var t = o["accessibilityTraits"]?.arrayValue ?? []
                        if !t.contains("notEnabled") { t.append("notEnabled") }
                        o["accessibilityTraits"] = .array(t)
                    }
                }
                if e["selected"] == "true" { o["isSelected"] = true }
                if cls == "UIView", label != nil {
                    // A labelled Other is an element when it is a leaf, a labelled group otherwise.
                    if e.children.isEmpty {
                        o["isAccessibilityElement"] = true
                    } else {
                        o["shouldGroupAccessibilityChildren"] = true
                    }
                }
            }
            if !e.children.isEmpty {
                o["children"] = .array(
                    e.children.filter { $0.name.hasPrefix("XCUIElementType") }.map { child in
                        let built = view(child, originX: x, originY: y, isWindow: false)
                        // A tab bar's buttons are tabs; XCUITest reports the selected one as value "1", which is
                        // selection, not a value a user reads.
                        guard e.name == "XCUIElementTypeTabBar", child.name == "XCUIElementTypeButton",
                            case .object(var tab) = built
                        else {
                            return built
                        }
                        tab["class"] = "UITabBarButton"
                        if let value = child["value"], value == "1" || value == "0" {
                            tab["accessibilityValue"] = nil
                            tab["isSelected"] = .bool(value == "1")
                        }
                        return .object(tab)
                    })
            }
            return .object(o)
        }
        var windows: [JSON] = []
        if top.name == "XCUIElementTypeApplication" {
            let wins = top.children.filter { $0.name == "XCUIElementTypeWindow" }
            if wins.isEmpty {
                // No window elements: the application's children go into one window of its size.
                var w = top
                w.name = "XCUIElementTypeWindow"
                windows.append(view(w, originX: 0, originY: 0, isWindow: true))
            } else {
                for w in wins { windows.append(view(w, originX: 0, originY: 0, isWindow: true)) }
            }
        } else {
            windows.append(view(top, originX: 0, originY: 0, isWindow: top.name == "XCUIElementTypeWindow"))
        }
        if case .object(var first) = windows.first, first["isKeyWindow"] == nil {
            first["isKeyWindow"] = true
            windows[0] = .object(first)
        }
        return ["windows": .array(windows)]
    }
}

extension Substring {
    /// The substring without leading and trailing whitespace.
    package func trimmingCharacters() -> Substring {
        var s = self
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return s
    }
}

extension String {
    /// The string without leading and trailing whitespace.
    package func trimmingCharacters() -> String { String(Substring(self).trimmingCharacters()) }
}

/// Turns a text file's bytes into UTF-8: UTF-8 (with or without a byte-order mark) passes through; UTF-16 with a
/// byte-order mark, or without one when the text starts with an ASCII character (`<`, `{`, space), is transcoded.
package enum TextEncoding {
    package struct Failure: Error, Sendable {
        package var message: String
    }

    package static func utf8(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        let littleEndian: Bool
        var start = 0
        if bytes.starts(with: [0xFF, 0xFE]) {
            littleEndian = true
            start = 2
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            littleEndian = false
            start = 2
        } else if bytes.count >= 2, bytes[0] != 0, bytes[1] == 0 {
            littleEndian = true
        } else if bytes.count >= 2, bytes[0] == 0, bytes[1] != 0 {
            littleEndian = false
        } else {
            return bytes
        }
        guard (bytes.count - start) % 2 == 0 else {
            throw Failure(message: "UTF-16 text with an odd number of bytes: the file is truncated")
        }
        var units: [UInt16] = []
        units.reserveCapacity((bytes.count - start) / 2)
        var index = start
        while index + 1 < bytes.count {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(littleEndian ? first | second << 8 : first << 8 | second)
            index += 2
        }
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        var iterator = units.makeIterator()
        var decoder = UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                out.append(contentsOf: Array(String(scalar).utf8))
            case .emptyInput:
                break loop
            case .error:
                throw Failure(
                    message: "invalid UTF-16 at unit \(out.count): an unpaired surrogate (a truncated or damaged file)")
            }
        }
        return out
    }
}
