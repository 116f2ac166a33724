import AXCore
import AXJSON

/// Appium XCUITest-like page source for an AXTree (also the JSON-RPC `tree.get` xml format).
///
/// `<AppiumAUT><XCUIElementTypeApplication …><XCUIElementTypeWindow …>…` in document order. Every element
/// carries `type`, `name` (identifier, else label), `label`, `value`, `enabled`, `visible` (onscreen), `x`, `y`,
/// `width`, `height` (rounded to integers, like Appium), plus `index` (in parent), `role` and `axid` (this
/// project's role and node id). Absent attributes are omitted; strings are XML-escaped, newlines and tabs
/// as character references, and characters XML 1.0 cannot carry as U+FFFD.
package enum TreeXML {
    /// The XCUIElementType name for a node (Appium vocabulary; headers are StaticText, like XCUITest).
    package static func typeName(_ node: AXNode) -> String {
        switch node.role {
        case .list: return node.viewClass == .collectionView ? "XCUIElementTypeCollectionView" : "XCUIElementTypeTable"
        case .adjustable:
            switch node.viewClass {
            case .stepper: return "XCUIElementTypeStepper"
            case .pageControl: return "XCUIElementTypePageIndicator"
            default: return "XCUIElementTypeSlider"
            }
        default: return typeNames[node.role] ?? "XCUIElementTypeOther"
        }
    }

    /// The type name of every role whose name does not depend on the view class (a test checks that every role
    /// but `.list` and `.adjustable` has a row).
    static let typeNames: [AXRole: String] = [
        .window: "XCUIElementTypeWindow",
        .alert: "XCUIElementTypeAlert",
        .group: "XCUIElementTypeOther",
        .landmark: "XCUIElementTypeOther",
        .table: "XCUIElementTypeTable",
        .tabBar: "XCUIElementTypeTabBar",
        .navigationBar: "XCUIElementTypeNavigationBar",
        .toolbar: "XCUIElementTypeToolbar",
        .segmentedControl: "XCUIElementTypeSegmentedControl",
        .picker: "XCUIElementTypePicker",
        .menu: "XCUIElementTypeMenu",
        .menuBar: "XCUIElementTypeMenuBar",
        .button: "XCUIElementTypeButton",
        .link: "XCUIElementTypeLink",
        .image: "XCUIElementTypeImage",
        .staticText: "XCUIElementTypeStaticText",
        .header: "XCUIElementTypeStaticText",
        .textField: "XCUIElementTypeTextField",
        .secureTextField: "XCUIElementTypeSecureTextField",
        .searchField: "XCUIElementTypeSearchField",
        .textView: "XCUIElementTypeTextView",
        .switch: "XCUIElementTypeSwitch",
        .tab: "XCUIElementTypeButton",
        .cell: "XCUIElementTypeCell",
        .keyboardKey: "XCUIElementTypeKey",
        .progressIndicator: "XCUIElementTypeProgressIndicator",
        .activityIndicator: "XCUIElementTypeActivityIndicator",
        .pickerItem: "XCUIElementTypePickerWheel",
    ]

    /// The page source as a String (`write` into a fresh buffer).
    package static func xml(_ tree: AXTree, appName: String = "app") -> String {
        var out: [UInt8] = []
        write(tree, appName: appName, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the page source to `out`, written as the tree is walked (no value per element, issue 35).
    package static func write(_ tree: AXTree, appName: String = "app", into out: inout [UInt8]) {
        out.reserveCapacity(out.count + tree.count * 256 + 128)
        literal("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT>\n", &out)
        literal("<XCUIElementTypeApplication type=\"XCUIElementTypeApplication\"", &out)
        attribute("name", appName, &out)
        attribute("label", appName, &out)
        literal(" enabled=\"true\" visible=\"true\">\n", &out)
        // Explicit stack of steps; each node is looked up once, when its parent opens (the tree's hash-trie lookups
        // were 10 % of a 10,000-element page source when each node was looked up two to three times).
        var stack: [WalkStep] = []
        var seen = Set<String>()
        for (position, windowID) in tree.windows.enumerated().reversed() {
            if let window = tree[windowID] { stack.append(.open(window, depth: 1, index: position)) }
        }
        var children: [WalkStep] = []
        while let step = stack.popLast() {
            switch step {
            case .close(let type, let depth):
                indent(depth, &out)
                literal("</", &out)
                out.append(contentsOf: type.utf8)
                literal(">\n", &out)
            case .open(let node, let depth, let index):
                guard seen.insert(node.id).inserted else { continue }
                writeOpening(node, index: index, depth: depth, &out)
                // Automation-only nodes (D-AUTO-1) after the accessibility children, as XCUITest lists them.
                children.removeAll(keepingCapacity: true)
                var opensAny = false
                for (offset, id) in node.children.enumerated() {
                    guard let child = tree[id] else { continue }
                    if !opensAny && !seen.contains(id) { opensAny = true }
                    children.append(.open(child, depth: depth + 1, index: offset))
                }
                for (offset, id) in AutomationNodes.children(of: node, in: tree).enumerated() {
                    guard let child = tree[id] else { continue }
                    if !opensAny && !seen.contains(id) { opensAny = true }
                    children.append(.open(child, depth: depth + 1, index: node.children.count + offset))
                }
                guard opensAny else {
                    literal("/>\n", &out)
                    continue
                }
                literal(">\n", &out)
                stack.append(.close(type: typeName(node), depth: depth))
                stack.append(contentsOf: children.reversed())
            }
        }
        literal("</XCUIElementTypeApplication>\n</AppiumAUT>\n", &out)
    }

    /// One step of the page-source walk: an element to open, or the end tag of one opened before.
    enum WalkStep {
        case open(AXNode, depth: Int, index: Int)
        case close(type: String, depth: Int)
    }

    /// `<Type type=… … axid=…` (the element's attributes; the caller closes the tag).
    static func writeOpening(_ node: AXNode, index: Int, depth: Int, _ out: inout [UInt8]) {
        let type = typeName(node)
        indent(depth, &out)
        out.append(0x3C)
        out.append(contentsOf: type.utf8)
        attribute("type", type, &out)
        attribute("name", node.identifier.flatMap { $0.isEmpty ? nil : $0 } ?? node.label, &out)
        attribute("label", node.label, &out)
        attribute("value", node.value, &out)
        literal(node.states.contains(.enabled) ? " enabled=\"true\"" : " enabled=\"false\"", &out)
        literal(node.states.contains(.onscreen) ? " visible=\"true\"" : " visible=\"false\"", &out)
        integerAttribute(" x=\"", node.frame.x, &out)
        integerAttribute(" y=\"", node.frame.y, &out)
        integerAttribute(" width=\"", node.frame.width, &out)
        integerAttribute(" height=\"", node.frame.height, &out)
        literal(" index=\"", &out)
        decimal(index, &out)
        out.append(0x22)
        attribute("role", node.role.rawValue, &out)
        attribute("axid", node.id, &out)
        if node.states.contains(.automationOnly) { literal(" automationOnly=\"true\"", &out) }
    }

    @inline(__always) static func literal(_ text: StaticString, _ out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    static func indent(_ depth: Int, _ out: inout [UInt8]) {
        for _ in 0..<depth { literal("  ", &out) }
    }

    /// ` name="value"` with the value escaped; nothing for nil.
    static func attribute(_ name: StaticString, _ value: String?, _ out: inout [UInt8]) {
        guard let value else { return }
        out.append(0x20)
        literal(name, &out)
        literal("=\"", &out)
        escaped(value, &out)
        out.append(0x22)
    }

    /// A coordinate rounded toward zero (saturating, like Appium's integers; 0 for NaN and infinities).
    static func integerAttribute(_ head: StaticString, _ number: Double, _ out: inout [UInt8]) {
        literal(head, &out)
        decimal(number.isFinite ? number.saturatingInt : 0, &out)
        out.append(0x22)
    }

    /// The decimal digits of `value` (no allocation).
    static func decimal(_ value: Int, _ out: inout [UInt8]) {
        if value < 0 { out.append(0x2D) }
        JSON.serializeDigits(UInt64(value.magnitude), into: &out)
    }

    /// XML-escaped UTF-8 of `text`: markup characters as entities, newline, carriage return and tab as character
    /// references, other control characters and U+FFFE/U+FFFF (not XML 1.0 characters) as U+FFFD. Runs that need
    /// nothing are copied as they are (a Swift string is valid UTF-8, so U+FFFE/U+FFFF are exactly EF BF BE/BF).
    static func escaped(_ text: String, _ out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let replacement: StaticString?
                var length = 1
                switch byte {
                case 0x26: replacement = "&amp;"
                case 0x3C: replacement = "&lt;"
                case 0x3E: replacement = "&gt;"
                case 0x22: replacement = "&quot;"
                case 0x0A: replacement = "&#10;"
                case 0x0D: replacement = "&#13;"
                case 0x09: replacement = "&#9;"
                case 0..<0x20: replacement = "\u{FFFD}"
                case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                    replacement = "\u{FFFD}"
                    length = 3
                default: replacement = nil
                }
                guard let replacement else {
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                literal(replacement, &out)
                index += length
                runStart = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
    }
}
