import AXCore
import AXJSON

/// A small, strict XML reader for page sources: elements, attributes, character references and the five named
/// entities; the XML declaration, comments, processing instructions, DOCTYPE and CDATA are skipped. Text content
/// is ignored (page sources carry everything in attributes).
package struct XMLElement {
    package var name: String
    package var attributes: [(name: String, value: String)]
    package var children: [XMLElement]
    package subscript(_ key: String) -> String? { attributes.first { $0.0 == key }?.1 }
}

package struct XMLReadError: Error, CustomStringConvertible {
    package var line: Int
    package var column: Int
    package var message: String
    package var description: String { "line \(line), column \(column): \(message)" }
}

/// What `XMLReader.scan` hands the elements of a document to, in document order.
package protocol XMLVisitor {
    /// A start tag (or an empty-element tag) with its attributes, references decoded.
    mutating func open(_ name: String, _ attributes: [(name: String, value: String)])
    /// The end of the element last opened and not yet closed.
    mutating func close()
}

/// Builds the `XMLElement` tree of a document (`XMLReader.parse`).
struct ElementTreeBuilder: XMLVisitor {
    var stack: [XMLElement] = []
    var root: XMLElement?

    mutating func open(_ name: String, _ attributes: [(name: String, value: String)]) {
        stack.append(XMLElement(name: name, attributes: attributes, children: []))
    }

    mutating func close() {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }
}

package struct XMLReader {
    /// At most this many attributes on one element (XCUITest page sources carry about fifteen).
    static let maxAttributesPerElement = 1_024

    let bytes: [UInt8]
    var position = 0
    /// Strings already made, by the FNV-1a hash of their bytes (`interned`).
    var internTable: [UInt64: String] = [:]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses a whole document into a tree of elements.
    package static func parse(_ bytes: [UInt8]) throws(XMLReadError) -> XMLElement {
        var builder = ElementTreeBuilder()
        try scan(bytes, into: &builder)
        guard let root = builder.root else { throw XMLReader(bytes).fail("no root element") }
        return root
    }

    /// Reads a whole document and hands its elements to `visitor` in document order, with no tree built (axdriver's
    /// page tree, issue 35 item 5): `open` at each start tag, `close` at its end (right after `open` for an empty
    /// element). The checks and errors are those of `parse`; on an error the visitor has seen a prefix.
    package static func scan<Visitor: XMLVisitor>(_ bytes: [UInt8], into visitor: inout Visitor) throws(XMLReadError) {
        var reader = XMLReader(bytes)
        try reader.document(&visitor)
    }

    func fail(_ message: String, at pos: Int? = nil) -> XMLReadError {
        let end = min(pos ?? position, bytes.count)
        // Running out of input in the middle of the document: say so, the usual cause is a truncated file.
        let message =
            position >= bytes.count && message != "no root element"
            ? "unexpected end of file (truncated?): " + message : message
        var line = 1
        var col = 1
        for offset in 0..<end {
            if bytes[offset] == 0x0A {
                line += 1
                col = 1
            } else if bytes[offset] & 0xC0 != 0x80 {
                col += 1
            }
        }
        return XMLReadError(line: line, column: col, message: message)
    }

    /// Whether the input at the current position starts with `prefix` (compared in place, no allocation).
    func starts(_ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { prefixBytes in
            guard position + prefixBytes.count <= bytes.count else { return false }
            for offset in 0..<prefixBytes.count where bytes[position + offset] != prefixBytes[offset] { return false }
            return true
        }
    }

    mutating func skip(until terminator: StaticString) throws(XMLReadError) {
        let start = position
        while position < bytes.count && !starts(terminator) { position += 1 }
        guard position < bytes.count else {
            throw fail("unterminated construct (expected '\(terminator)')", at: start)
        }
        position += terminator.utf8CodeUnitCount
    }

    mutating func skipSpace() {
        while position < bytes.count,
            bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09
        { position += 1 }
    }

    /// Skips text, comments, PIs, DOCTYPE and CDATA; stops at the next tag (`<` of an element or end tag) or EOF.
    mutating func misc() throws(XMLReadError) {
        while position < bytes.count {
            if bytes[position] != UInt8(ascii: "<") {
                position += 1
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

    /// The document: its root element and what may surround it. Iterative (a stack of open tag names), so the
    /// depth bound (512) is a check, not a recursion limit.
    mutating func document<Visitor: XMLVisitor>(_ visitor: inout Visitor) throws(XMLReadError) {
        if starts("\u{FEFF}") { position += 3 }
        try misc()
        guard position < bytes.count else { throw fail("no root element") }
        var open: [String] = []
        repeat {
            if starts("</"), let tagName = open.last {
                position += 2
                let close = try name()
                guard close == tagName else { throw fail("expected </\(tagName)>, found </\(close)>") }
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else { throw fail("expected '>'") }
                position += 1
                open.removeLast()
                visitor.close()
            } else {
                guard open.count < 512 else { throw fail("elements nested deeper than 512") }
                let (tagName, isEmpty) = try startTag(&visitor)
                if isEmpty { visitor.close() } else { open.append(tagName) }
            }
            guard let tagName = open.last else { break }
            try misc()
            guard position < bytes.count else { throw fail("element <\(tagName)> is not closed") }
        } while true
        try misc()
        guard position >= bytes.count else { throw fail("content after the root element") }
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
            || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: ":")
    }

    mutating func name() throws(XMLReadError) -> String {
        let start = position
        while position < bytes.count, XMLReader.isNameByte(bytes[position]) { position += 1 }
        guard position > start else {
            throw fail(
                position < bytes.count
                    ? "expected a name, found '\(Character(UnicodeScalar(bytes[position])))'"
                    : "expected a name, found end of input")
        }
        return interned(start..<position)
    }

    /// The string of `range`, shared with an earlier equal one of up to 64 bytes (tag and attribute names and the
    /// `type` values repeat on every element: one string each instead of a heap copy per element).
    mutating func interned(_ range: Range<Int>) -> String {
        guard range.count > 15, range.count <= 64 else { return String(decoding: bytes[range], as: UTF8.self) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for index in range { hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01b3 }
        if let known = internTable[hash], known.utf8.elementsEqual(bytes[range]) { return known }
        let text = String(decoding: bytes[range], as: UTF8.self)
        if internTable.count < XMLReader.maxInterned { internTable[hash] = text }
        return text
    }

    /// At most this many distinct strings are shared (labels that never repeat do not grow the table for ever).
    static let maxInterned = 256

    /// The `index`th `name="value"` (or single-quoted) attribute of `tagName`, the value's references decoded.
    mutating func attribute(of tagName: String, index: Int) throws(XMLReadError) -> (String, String) {
        let attributeName = try name()
        guard index < XMLReader.maxAttributesPerElement else {
            throw fail("element <\(tagName)> has more than \(XMLReader.maxAttributesPerElement) attributes")
        }
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
            throw fail("expected '=' after attribute '\(attributeName)'")
        }
        position += 1
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
        else {
            throw fail("expected a quoted value for attribute '\(attributeName)'")
        }
        let quote = bytes[position]
        position += 1
        let valueStart = position
        var hasReference = false
        while position < bytes.count, bytes[position] != quote {
            if bytes[position] == UInt8(ascii: "&") { hasReference = true }
            position += 1
        }
        guard position < bytes.count else {
            throw fail("unterminated value of attribute '\(attributeName)'", at: valueStart)
        }
        let value =
            try hasReference
            ? XMLReader.decode(bytes[valueStart..<position], reader: self, at: valueStart)
            : interned(valueStart..<position)
        position += 1
        return (attributeName, value)
    }

    /// A start tag with its attributes, handed to `visitor.open`; answers the tag name and whether the element is
    /// empty (`/>`).
    mutating func startTag<Visitor: XMLVisitor>(_ visitor: inout Visitor) throws(XMLReadError) -> (String, Bool) {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else { throw fail("expected '<'") }
        position += 1
        let tagName = try name()
        var attrs: [(name: String, value: String)] = []
        // Duplicates: a scan while the element has few attributes, a set beyond (a linear scan of 1,024 would be
        // quadratic).
        var attributeNames = Set<String>()
        while true {
            skipSpace()
            guard position < bytes.count else { throw fail("unterminated start tag <\(tagName)>") }
            if bytes[position] == UInt8(ascii: "/") {
                position += 1
                guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
                    throw fail("expected '>' after '/'")
                }
                position += 1
                visitor.open(tagName, attrs)
                return (tagName, true)
            }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                visitor.open(tagName, attrs)
                return (tagName, false)
            }
            let (attributeName, value) = try attribute(of: tagName, index: attrs.count)
            let duplicate: Bool
            if attrs.count < 32 {
                duplicate = attrs.contains { $0.name == attributeName }
            } else {
                if attributeNames.isEmpty { attributeNames = Set(attrs.map(\.name)) }
                duplicate = !attributeNames.insert(attributeName).inserted
            }
            guard !duplicate else { throw fail("attribute '\(attributeName)' appears twice") }
            attrs.append((name: attributeName, value: value))
        }
    }

    static func decode(_ text: ArraySlice<UInt8>, reader: XMLReader, at pos: Int) throws(XMLReadError) -> String {
        guard text.contains(UInt8(ascii: "&")) else { return String(decoding: text, as: UTF8.self) }
        var out = ""
        var cursor = text.startIndex
        var run = cursor
        while cursor < text.endIndex {
            guard text[cursor] == UInt8(ascii: "&") else {
                cursor += 1
                continue
            }
            out += String(decoding: text[run..<cursor], as: UTF8.self)
            guard let semi = text[cursor...].firstIndex(of: UInt8(ascii: ";")) else {
                throw reader.fail("unterminated entity", at: cursor)
            }
            let entity = String(decoding: text[(cursor + 1)..<semi], as: UTF8.self)
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                var code: UInt32?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    code = UInt32(entity.dropFirst(2), radix: 16)
                } else if entity.hasPrefix("#") {
                    code = UInt32(entity.dropFirst())
                }
                guard let codePoint = code, let scalar = UnicodeScalar(codePoint) else {
                    throw reader.fail("unknown entity '&\(entity);'", at: cursor)
                }
                out.unicodeScalars.append(scalar)
            }
            cursor = semi + 1
            run = cursor
        }
        out += String(decoding: text[run..<text.endIndex], as: UTF8.self)
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
        viewClasses[type] ?? ("UIView", [:])  // Other, Group, StatusBar, Keyboard, … (transparent unless labelled)
    }

    /// The `viewClass(_:)` table.
    static let viewClasses: [String: (String, JSONObject)] = [
        "Window": ("UIWindow", [:]),
        "Button": ("UIButton", [:]),
        "Link": ("UIButton", ["accessibilityTraits": ["link"]]),
        "Key": ("UIButton", ["accessibilityTraits": ["keyboardKey"]]),
        "StaticText": ("UILabel", [:]),
        "TextField": ("UITextField", [:]),
        "SecureTextField": ("UITextField", ["isSecureTextEntry": true]),
        "SearchField": ("UISearchBar", [:]),
        "TextView": ("UITextView", [:]),
        "Switch": ("UISwitch", [:]),
        "Toggle": ("UISwitch", [:]),
        "Slider": ("UISlider", [:]),
        "Stepper": ("UIStepper", [:]),
        "PageIndicator": ("UIPageControl", [:]),
        "ProgressIndicator": ("UIProgressView", [:]),
        "ActivityIndicator": ("UIActivityIndicatorView", [:]),
        "Image": ("UIImageView", [:]),
        "Icon": ("UIImageView", [:]),
        "Cell": ("UITableViewCell", [:]),
        "Table": ("UITableView", [:]),
        "CollectionView": ("UICollectionView", [:]),
        "ScrollView": ("UIScrollView", [:]),
        "NavigationBar": ("UINavigationBar", [:]),
        "TabBar": ("UITabBar", [:]),
        "Toolbar": ("UIToolbar", [:]),
        // AXServer's menu container types (D-MENU-1); a menu item is a button there.
        "Menu": ("UIView", ["accessibilityContainerType": "menu"]),
        "MenuBar": ("UIView", ["accessibilityContainerType": "menuBar"]),
        "MenuItem": ("UIButton", [:]),
        "SegmentedControl": ("UISegmentedControl", [:]),
        "Picker": ("UIPickerView", [:]),
        "PickerWheel": ("UIPickerView", [:]),
        "DatePicker": ("UIDatePicker", [:]),
        "Alert": ("UIAlertController", [:]),
        "Sheet": ("UIActionSheet", [:]),
    ]

    /// Class-specific value mapping: switches take isOn, sliders a fraction, steppers a number; others keep
    /// the string as accessibilityValue.
    static func applyValue(_ cls: String, _ value: String, _ object: inout JSONObject) {
        switch cls {
        case "UISwitch":
            let on = ["1", "on", "true"].contains(value.lowercased())
            object["isOn"] = .bool(on)
        case "UISlider":
            var text = Substring(value)
            let percent = text.hasSuffix("%")
            if percent { text = text.dropLast() }
            if let number = Double(text.trimmingCharacters()) {
                object["minimumValue"] = 0
                object["maximumValue"] = 1
                object["value"] = .number(min(1, max(0, percent ? number / 100 : number)))
            } else {
                object["accessibilityValue"] = .string(value)
            }
        case "UIStepper":
            if let number = Double(Substring(value).trimmingCharacters()), number.isFinite {
                object["minimumValue"] = .number(min(0, number))
                object["maximumValue"] = .number(max(100, number))
                object["value"] = .number(number)
            } else {
                object["accessibilityValue"] = .string(value)
            }
        case "UITextField", "UITextView", "UISearchBar":
            object["text"] = .string(value)
        default:
            object["accessibilityValue"] = .string(value)
        }
    }

    /// "Button, Selected" / "KeyboardKey" → ["button", "selected"] / ["keyboardKey"]; nil when none is known.
    static func traitNames(_ text: String) -> [String]? {
        var out: [String] = []
        for word in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "|" }) where !word.isEmpty {
            let lower = word.lowercased()
            guard let (name, _) = Traits.named.first(where: { $0.name.lowercased() == lower }) else { continue }
            if !out.contains(name) { out.append(name) }
        }
        return out.isEmpty ? nil : out
    }

    /// The properties of a non-window element: label or text, identifier, value, placeholder, traits and states.
    static func elementProperties(
        of element: XMLElement, cls: String, label: String?, name: String?, into object: inout JSONObject
    ) {
        if let label {
            if cls == "UILabel" {
                object["text"] = .string(label)
            } else {
                object["accessibilityLabel"] = .string(label)
            }
        }
        if let name, name != label { object["accessibilityIdentifier"] = .string(name) }
        // XCUITest echoes a cell's switch value ("1"/"0") as the cell's own value; kept, it would override the
        // switch's state and spell the same state two ways ("1" here, "on" in a cell without the echo).
        let echoesSwitch =
            cls == "UITableViewCell"
            && element.children.contains {
                $0.name == "XCUIElementTypeSwitch" && $0["value"] == element["value"]
            }
        if let value = element["value"], !value.isEmpty, !(cls == "UILabel" && value == label), !echoesSwitch {
            applyValue(cls, value, &object)
        }
        placeholderProperties(of: element, cls: cls, into: &object)
        if let traitsText = element["traits"], let names = traitNames(traitsText) {
            // WebDriverAgent's `traits` ("Button, Selected"): the element's whole trait set.
            object["accessibilityTraits"] = JSON(names)
        }
        stateProperties(of: element, cls: cls, label: label, into: &object)
    }

    static func placeholderProperties(of element: XMLElement, cls: String, into object: inout JSONObject) {
        guard let placeholder = element["placeholderValue"], !placeholder.isEmpty else { return }
        object["placeholder"] = .string(placeholder)
        // XCUITest reports an empty field's placeholder as its value: that is not text the user typed.
        if let value = element["value"], value == placeholder,
            ["UITextField", "UITextView", "UISearchBar"].contains(cls)
        {
            object["text"] = nil
        }
    }

    /// `enabled`, `selected`, and what a labelled Other is.
    static func stateProperties(of element: XMLElement, cls: String, label: String?, into object: inout JSONObject) {
        if element["enabled"] == "false" {
            object["isEnabled"] = false
            if cls == "UIView" || cls == "UILabel" || cls == "UIImageView" || cls == "UITableViewCell" {
                var traits = object["accessibilityTraits"]?.arrayValue ?? []
                if !traits.contains("notEnabled") { traits.append("notEnabled") }
                object["accessibilityTraits"] = .array(traits)
            }
        }
        if element["selected"] == "true" { object["isSelected"] = true }
        if cls == "UIView", label != nil {
            // A labelled Other is an element when it is a leaf, a labelled group otherwise.
            if element.children.isEmpty {
                object["isAccessibilityElement"] = true
            } else {
                object["shouldGroupAccessibilityChildren"] = true
            }
        }
    }

    /// A tab bar's buttons are tabs; XCUITest reports the selected one as value "1", which is selection, not a value
    /// a user reads.
    static func tabBarButton(_ built: JSON, child: XMLElement, parent element: XMLElement) -> JSON {
        guard element.name == "XCUIElementTypeTabBar", child.name == "XCUIElementTypeButton",
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
    }

    /// The element types inside a cell that XCUITest shows besides the cell (its label's texts and the switch it acts
    /// for are the cell itself).
    static let automationOnlyTypes: Set<String> = ["XCUIElementTypeImage", "XCUIElementTypeButton"]

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
            if let preferredID = preferred, !preferredID.isEmpty, preferredID.utf8.count <= 512,
                ids.insert(preferredID).inserted
            {
                return preferredID
            }
            while true {
                counter += 1
                let id = "e\(counter)"
                if !reserved.contains(id), ids.insert(id).inserted { return id }
            }
        }
        // Reserve every axid first, so generated ids never take one.
        func reserve(_ element: XMLElement) {
            if let axid = element["axid"], !axid.isEmpty { _ = ids.insert(axid) }
            for child in element.children { reserve(child) }
        }
        reserve(top)
        reserved = ids
        ids = []
        // A name (identifier or label) that occurs exactly once and is no axid also makes a good id.
        var nameCount: [String: Int] = [:]
        func countNames(_ element: XMLElement) {
            if let name = element["name"], !name.isEmpty { nameCount[name, default: 0] += 1 }
            for child in element.children { countNames(child) }
        }
        countNames(top)
        func num(_ element: XMLElement, _ key: String) -> Double {
            guard let text = element[key], let number = Double(text), number.isFinite, abs(number) < 1e7 else {
                return 0
            }
            return number
        }
        func view(_ element: XMLElement, originX: Double, originY: Double, isWindow: Bool) -> JSON {
            let type =
                element.name.hasPrefix("XCUIElementType")
                ? String(element.name.dropFirst("XCUIElementType".count)) : element.name
            let (cls, extra) = isWindow ? ("UIWindow", JSONObject()) : viewClass(type)
            var object: JSONObject = [:]
            var preferred = element["axid"].flatMap { reserved.contains($0) && !ids.contains($0) ? $0 : nil }
            if preferred == nil, let name = element["name"], nameCount[name] == 1, !reserved.contains(name),
                !ids.contains(name)
            {
                preferred = name
            }
            object["id"] = .string(freshID(preferred))
            object["class"] = .string(cls)
            let absoluteX = num(element, "x")
            let absoluteY = num(element, "y")
            let width = max(0, num(element, "width"))
            let height = max(0, num(element, "height"))
            object["frame"] = [
                .number(absoluteX - originX), .number(absoluteY - originY), .number(width), .number(height),
            ]
            for (key, value) in extra { object[key] = value }
            let label = element["label"].flatMap { $0.isEmpty ? nil : $0 }
            let name = element["name"].flatMap { $0.isEmpty ? nil : $0 }
            if isWindow {
                if let title = label ?? name { object["windowTitle"] = .string(title) }
            } else {
                elementProperties(of: element, cls: cls, label: label, name: name, into: &object)
            }
            if !element.children.isEmpty {
                let built = element.children.filter { $0.name.hasPrefix("XCUIElementType") }.map { child in
                    (
                        child,
                        tabBarButton(
                            view(child, originX: absoluteX, originY: absoluteY, isWindow: false), child: child,
                            parent: element)
                    )
                }
                object["children"] = .array(built.map(\.1))
                // X18 (D-AUTO-1): XCUITest's automation tree shows what a cell holds besides the texts that make its
                // label and the control it acts for (its accessory image, an info button); the source says so, so
                // the cell lists them in `automationElements` and a locator finds them as it does on iOS.
                if cls == "UITableViewCell" {
                    let listed = built.filter { Self.automationOnlyTypes.contains($0.0.name) }.compactMap {
                        $0.1["id"]?.stringValue
                    }
                    if !listed.isEmpty { object["automationElements"] = JSON(listed) }
                }
            }
            return .object(object)
        }
        var windows: [JSON] = []
        if top.name == "XCUIElementTypeApplication" {
            let wins = top.children.filter { $0.name == "XCUIElementTypeWindow" }
            if wins.isEmpty {
                // No window elements: the application's children go into one window of its size.
                var window = top
                window.name = "XCUIElementTypeWindow"
                windows.append(view(window, originX: 0, originY: 0, isWindow: true))
            } else {
                for window in wins { windows.append(view(window, originX: 0, originY: 0, isWindow: true)) }
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
        var trimmed = self
        while let first = trimmed.first, first.isWhitespace { trimmed.removeFirst() }
        while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
        return trimmed
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
