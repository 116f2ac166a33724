import AXCore

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

    package static func xml(_ tree: AXTree, appName: String = "app") -> String {
        var out: [UInt8] = []
        out.reserveCapacity(tree.count * 200 + 128)
        func lit(_ text: StaticString) { text.withUTF8Buffer { out.append(contentsOf: $0) } }
        func raw(_ text: String) { out.append(contentsOf: text.utf8) }
        func esc(_ text: String) {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": lit("&amp;")
                case "<": lit("&lt;")
                case ">": lit("&gt;")
                case "\"": lit("&quot;")
                case "\n": lit("&#10;")
                case "\r": lit("&#13;")
                case "\t": lit("&#9;")
                default:
                    if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                        lit("\u{FFFD}")
                    } else if scalar.isASCII {
                        out.append(UInt8(scalar.value))
                    } else {
                        out.append(contentsOf: String(Character(scalar)).utf8)
                    }
                }
            }
        }
        func attr(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            lit(" ")
            lit(name)
            lit("=\"")
            esc(value)
            lit("\"")
        }
        func int(_ number: Double) -> String {
            guard number.isFinite else { return "0" }
            return String(number.saturatingInt)
        }
        lit("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT>\n")
        lit("<XCUIElementTypeApplication type=\"XCUIElementTypeApplication\"")
        attr("name", appName)
        attr("label", appName)
        lit(" enabled=\"true\" visible=\"true\">\n")
        // Explicit stack: (id, depth, index in parent, closing?)
        var stack: [(String, Int, Int, Bool)] = []
        var seen = Set<String>()
        for (position, windowID) in tree.windows.enumerated().reversed() {
            stack.append((windowID, 1, position, false))
        }
        while let (id, depth, index, closing) = stack.popLast() {
            if closing {
                guard let node = tree[id] else { continue }
                for _ in 0..<depth { lit("  ") }
                lit("</")
                raw(typeName(node))
                lit(">\n")
                continue
            }
            guard let node = tree[id], seen.insert(id).inserted else { continue }
            let type = typeName(node)
            for _ in 0..<depth { lit("  ") }
            lit("<")
            raw(type)
            attr("type", type)
            attr("name", node.identifier.flatMap { $0.isEmpty ? nil : $0 } ?? node.label)
            attr("label", node.label)
            attr("value", node.value)
            attr("enabled", node.states.contains(.enabled) ? "true" : "false")
            attr("visible", node.states.contains(.onscreen) ? "true" : "false")
            attr("x", int(node.frame.x))
            attr("y", int(node.frame.y))
            attr("width", int(node.frame.width))
            attr("height", int(node.frame.height))
            attr("index", String(index))
            attr("role", node.role.rawValue)
            attr("axid", id)
            if node.states.contains(.automationOnly) { attr("automationOnly", "true") }
            // Automation-only nodes (D-AUTO-1) after the accessibility children, as XCUITest lists them.
            let children = node.children + AutomationNodes.children(of: node, in: tree)
            let kids = children.filter { tree[$0] != nil && !seen.contains($0) }
            if kids.isEmpty {
                lit("/>\n")
            } else {
                lit(">\n")
                stack.append((id, depth, index, true))
                for (k, child) in children.enumerated().reversed() where tree[child] != nil {
                    stack.append((child, depth + 1, k, false))
                }
            }
        }
        lit("</XCUIElementTypeApplication>\n</AppiumAUT>\n")
        return String(decoding: out, as: UTF8.self)
    }
}
