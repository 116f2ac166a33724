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
    package static func typeName(_ n: AXNode) -> String {
        switch n.role {
        case .window: return "XCUIElementTypeWindow"
        case .alert: return "XCUIElementTypeAlert"
        case .group, .landmark: return "XCUIElementTypeOther"
        case .list: return n.viewClass == .collectionView ? "XCUIElementTypeCollectionView" : "XCUIElementTypeTable"
        case .table: return "XCUIElementTypeTable"
        case .tabBar: return "XCUIElementTypeTabBar"
        case .navigationBar: return "XCUIElementTypeNavigationBar"
        case .toolbar: return "XCUIElementTypeToolbar"
        case .segmentedControl: return "XCUIElementTypeSegmentedControl"
        case .picker: return "XCUIElementTypePicker"
        case .button: return "XCUIElementTypeButton"
        case .link: return "XCUIElementTypeLink"
        case .image: return "XCUIElementTypeImage"
        case .staticText, .header: return "XCUIElementTypeStaticText"
        case .textField: return "XCUIElementTypeTextField"
        case .secureTextField: return "XCUIElementTypeSecureTextField"
        case .searchField: return "XCUIElementTypeSearchField"
        case .textView: return "XCUIElementTypeTextView"
        case .adjustable:
            switch n.viewClass {
            case .stepper: return "XCUIElementTypeStepper"
            case .pageControl: return "XCUIElementTypePageIndicator"
            default: return "XCUIElementTypeSlider"
            }
        case .switch: return "XCUIElementTypeSwitch"
        case .tab: return "XCUIElementTypeButton"
        case .cell: return "XCUIElementTypeCell"
        case .keyboardKey: return "XCUIElementTypeKey"
        case .progressIndicator: return "XCUIElementTypeProgressIndicator"
        case .activityIndicator: return "XCUIElementTypeActivityIndicator"
        case .pickerItem: return "XCUIElementTypePickerWheel"
        }
    }

    package static func xml(_ tree: AXTree, appName: String = "app") -> String {
        var out: [UInt8] = []
        out.reserveCapacity(tree.count * 200 + 128)
        func lit(_ s: StaticString) { s.withUTF8Buffer { out.append(contentsOf: $0) } }
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        func esc(_ s: String) {
            for u in s.unicodeScalars {
                switch u {
                case "&": lit("&amp;")
                case "<": lit("&lt;")
                case ">": lit("&gt;")
                case "\"": lit("&quot;")
                case "\n": lit("&#10;")
                case "\r": lit("&#13;")
                case "\t": lit("&#9;")
                default:
                    if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF {
                        lit("\u{FFFD}")
                    } else if u.isASCII {
                        out.append(UInt8(u.value))
                    } else {
                        out.append(contentsOf: String(Character(u)).utf8)
                    }
                }
            }
        }
        func attr(_ name: StaticString, _ v: String?) {
            guard let v else { return }
            lit(" ")
            lit(name)
            lit("=\"")
            esc(v)
            lit("\"")
        }
        func int(_ d: Double) -> String {
            guard d.isFinite else { return "0" }
            return String(Int(d.rounded()))
        }
        lit("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT>\n")
        lit("<XCUIElementTypeApplication type=\"XCUIElementTypeApplication\"")
        attr("name", appName)
        attr("label", appName)
        lit(" enabled=\"true\" visible=\"true\">\n")
        // Explicit stack: (id, depth, index in parent, closing?)
        var stack: [(String, Int, Int, Bool)] = []
        var seen = Set<String>()
        for (k, w) in tree.windows.enumerated().reversed() { stack.append((w, 1, k, false)) }
        while let (id, depth, index, closing) = stack.popLast() {
            if closing {
                guard let n = tree[id] else { continue }
                for _ in 0..<depth { lit("  ") }
                lit("</")
                raw(typeName(n))
                lit(">\n")
                continue
            }
            guard let n = tree[id], seen.insert(id).inserted else { continue }
            let type = typeName(n)
            for _ in 0..<depth { lit("  ") }
            lit("<")
            raw(type)
            attr("type", type)
            attr("name", n.identifier.flatMap { $0.isEmpty ? nil : $0 } ?? n.label)
            attr("label", n.label)
            attr("value", n.value)
            attr("enabled", n.states.contains(.enabled) ? "true" : "false")
            attr("visible", n.states.contains(.onscreen) ? "true" : "false")
            attr("x", int(n.frame.x))
            attr("y", int(n.frame.y))
            attr("width", int(n.frame.width))
            attr("height", int(n.frame.height))
            attr("index", String(index))
            attr("role", n.role.rawValue)
            attr("axid", id)
            let kids = n.children.filter { tree[$0] != nil && !seen.contains($0) }
            if kids.isEmpty {
                lit("/>\n")
            } else {
                lit(">\n")
                stack.append((id, depth, index, true))
                for (k, c) in n.children.enumerated().reversed() where tree[c] != nil {
                    stack.append((c, depth + 1, k, false))
                }
            }
        }
        lit("</XCUIElementTypeApplication>\n</AppiumAUT>\n")
        return String(decoding: out, as: UTF8.self)
    }
}
