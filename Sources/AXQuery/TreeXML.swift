import AXCore
import AXJSON
import HashTreeCollections

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
        ByteWriter.appending(to: &out) { writer in write(tree, appName: appName, into: &writer) }
    }

    /// Writes the page source through `out` (D-PERF-5: each node read in place from its box, no copy).
    package static func write(_ tree: AXTree, appName: String = "app", into out: inout ByteWriter) {
        out.reserveCapacity(tree.count * 256 + 128)
        out.literal("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT>\n")
        out.literal("<XCUIElementTypeApplication type=\"XCUIElementTypeApplication\"")
        attribute("name", appName, &out)
        attribute("label", appName, &out)
        out.literal(" enabled=\"true\" visible=\"true\">\n")
        // Explicit stack of steps; each node is looked up once, when its parent opens (the tree's hash-trie lookups
        // were 10 % of a 10,000-element page source when each node was looked up two to three times).
        var stack: [WalkStep] = []
        // Nodes written, by box (one box per id in the tree's map, so the box names the node; hashing a pointer
        // is cheaper than hashing the id).
        var seen = Set<ObjectIdentifier>()
        seen.reserveCapacity(tree.count)
        for (position, windowID) in tree.windows.enumerated().reversed() {
            if let window = tree.nodes.box(windowID) { stack.append(.open(window, depth: 1, index: position)) }
        }
        var children: [WalkStep] = []
        // The map itself, so its lookups are specialized here (`BoxedMap.box` runs the generic map code).
        let nodes = tree.nodes.storage
        while let step = stack.popLast() {
            switch step {
            case .close(let type, let depth):
                indent(depth, &out)
                out.literal("</")
                out.raw(type)
                out.literal(">\n")
            case .open(let box, let depth, let index):
                guard seen.insert(ObjectIdentifier(box)).inserted else { continue }
                // `box.value` passed as an argument is read in place; a local copy would retain every member.
                let type = writeOpening(box.value, index: index, depth: depth, &out)
                children.removeAll(keepingCapacity: true)
                guard listChildren(of: box.value, depth: depth, in: tree, nodes, seen: seen, into: &children) else {
                    out.literal("/>\n")
                    continue
                }
                out.literal(">\n")
                stack.append(.close(type: type, depth: depth))
                stack.append(contentsOf: children.reversed())
            }
        }
        out.literal("</XCUIElementTypeApplication>\n</AppiumAUT>\n")
    }

    /// One step of the page-source walk: an element to open (its box, read in place), or the end tag of one
    /// opened before.
    enum WalkStep {
        case open(Box<AXNode>, depth: Int, index: Int)
        case close(type: String, depth: Int)
    }

    /// Appends the steps that open `node`'s children (automation-only nodes, D-AUTO-1, after the accessibility
    /// children, as XCUITest lists them); true when any of them is not written yet.
    static func listChildren(
        of node: AXNode, depth: Int, in tree: AXTree, _ nodes: TreeDictionary<String, Box<AXNode>>,
        seen: Set<ObjectIdentifier>, into children: inout [WalkStep]
    ) -> Bool {
        var opensAny = false
        for offset in node.children.indices {
            guard let child = nodes[node.children[offset]] else { continue }
            if !opensAny && !seen.contains(ObjectIdentifier(child)) { opensAny = true }
            children.append(.open(child, depth: depth + 1, index: offset))
        }
        if !node.automationElements.isEmpty {
            for (offset, id) in AutomationNodes.children(of: node, in: tree).enumerated() {
                guard let child = nodes[id] else { continue }
                if !opensAny && !seen.contains(ObjectIdentifier(child)) { opensAny = true }
                children.append(.open(child, depth: depth + 1, index: node.children.count + offset))
            }
        }
        return opensAny
    }

    /// `<Type type=… … axid=…` (the element's attributes; the caller closes the tag); returns the type name.
    @discardableResult
    static func writeOpening(_ node: AXNode, index: Int, depth: Int, _ out: inout ByteWriter) -> String {
        let type = typeName(node)
        indent(depth, &out)
        out.byte(0x3C)
        out.raw(type)
        attribute("type", type, &out)
        attribute("name", node.identifier.flatMap { $0.isEmpty ? nil : $0 } ?? node.label, &out)
        attribute("label", node.label, &out)
        attribute("value", node.value, &out)
        out.literal(node.states.contains(.enabled) ? " enabled=\"true\"" : " enabled=\"false\"")
        out.literal(node.states.contains(.onscreen) ? " visible=\"true\"" : " visible=\"false\"")
        integerAttribute(" x=\"", node.frame.x, &out)
        integerAttribute(" y=\"", node.frame.y, &out)
        integerAttribute(" width=\"", node.frame.width, &out)
        integerAttribute(" height=\"", node.frame.height, &out)
        out.literal(" index=\"")
        out.integer(index)
        out.byte(0x22)
        attribute("role", node.role.rawValue, &out)
        attribute("axid", node.id, &out)
        if node.states.contains(.automationOnly) { out.literal(" automationOnly=\"true\"") }
        return type
    }

    /// `depth` levels of two-space indentation.
    static func indent(_ depth: Int, _ out: inout ByteWriter) {
        let spaces: StaticString = "                                "
        var rest = 2 * max(0, depth)
        while rest > 0 {
            let run = min(rest, spaces.utf8CodeUnitCount)
            spaces.withUTF8Buffer { out.bytes(UnsafeBufferPointer(rebasing: $0.prefix(run))) }
            rest -= run
        }
    }

    /// ` name="value"` with the value escaped; nothing for nil.
    static func attribute(_ name: StaticString, _ value: String?, _ out: inout ByteWriter) {
        guard let value else { return }
        out.byte(0x20)
        out.literal(name)
        out.literal("=\"")
        escaped(value, &out)
        out.byte(0x22)
    }

    /// A coordinate rounded toward zero (saturating, like Appium's integers; 0 for NaN and infinities).
    static func integerAttribute(_ head: StaticString, _ number: Double, _ out: inout ByteWriter) {
        out.literal(head)
        out.integer(number.isFinite ? number.saturatingInt : 0)
        out.byte(0x22)
    }

    /// XML-escaped UTF-8 of `text`: markup characters as entities, newline, carriage return and tab as character
    /// references, other control characters and U+FFFE/U+FFFF (not XML 1.0 characters) as U+FFFD. Runs that need
    /// nothing are copied as they are, found eight bytes at a time (a Swift string is valid UTF-8, so U+FFFE/U+FFFF
    /// are exactly EF BF BE/BF).
    static func escaped(_ text: String, _ out: inout ByteWriter) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            let count = bytes.count
            var runStart = 0
            var index = 0
            while let found = XMLEscapeScan.next(base, from: index, count: count) {
                let (replacement, length) = replacementOf(base, at: found, count: count)
                guard let replacement else {
                    index = found + 1
                    continue
                }
                if found > runStart { out.bytes(base + runStart, count: found - runStart) }
                out.literal(replacement)
                index = found + length
                runStart = index
            }
            if count > runStart { out.bytes(base + runStart, count: count - runStart) }
        }
    }

    /// What replaces the byte at `index` (a candidate from `XMLEscapeScan`) and how many bytes it replaces; nil
    /// for an EF lead byte that does not start U+FFFE/U+FFFF.
    @inline(__always)
    static func replacementOf(
        _ base: UnsafePointer<UInt8>, at index: Int, count: Int
    ) -> (StaticString?, Int) {
        switch base[index] {
        case 0x26: return ("&amp;", 1)
        case 0x3C: return ("&lt;", 1)
        case 0x3E: return ("&gt;", 1)
        case 0x22: return ("&quot;", 1)
        case 0x0A: return ("&#10;", 1)
        case 0x0D: return ("&#13;", 1)
        case 0x09: return ("&#9;", 1)
        case 0..<0x20: return ("\u{FFFD}", 1)
        case 0xEF where index + 2 < count && base[index + 1] == 0xBF && base[index + 2] >= 0xBE:
            return ("\u{FFFD}", 3)
        default: return (nil, 1)
        }
    }
}

/// Finds the bytes the page source may escape: control characters, '"', '&', '<', '>' and 0xEF (the lead byte of
/// U+FFFE/U+FFFF, checked by the caller), eight bytes at a time.
enum XMLEscapeScan {
    /// The index of the first candidate at or after `start` (and before `count`), or nil; the last few bytes by
    /// one overlapping load of the final eight (its bytes before `index`, already checked, masked off).
    @inline(__always)
    static func next(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
        var index = start
        while index &+ 8 <= count {
            let flags = flagged(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            if flags != 0 { return index &+ (UInt64(littleEndian: flags).trailingZeroBitCount &>> 3) }
            index &+= 8
        }
        let rest = count &- index
        guard rest > 0 else { return nil }
        if count >= 8 {
            let last = count &- 8
            let checked = UInt64(8 &- rest) &* 8  // 8…56 bits: the bytes below `index`
            let flags = UInt64(littleEndian: flagged(UnsafeRawPointer(base + last).loadUnaligned(as: UInt64.self)))
            let fresh = flags & (UInt64.max << checked)
            return fresh == 0 ? nil : last &+ (fresh.trailingZeroBitCount &>> 3)
        }
        while index < count {
            switch base[index] {
            case 0..<0x20, 0x22, 0x26, 0x3C, 0x3E, 0xEF: return index
            default: index &+= 1
            }
        }
        return nil
    }

    /// The high bit of exactly each candidate byte of `word` (no carry crosses a byte, so any subset of the flags
    /// may be masked off).
    @inline(__always) static func flagged(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        // Per byte: (b & 0x7F) + k never carries out of the byte; its high bit, or b's, is set iff b ≥ 0x80 - k.
        @inline(__always) func below(_ value: UInt64, _ bound: UInt64) -> UInt64 {
            ~(((value & lows) &+ ones &* (0x80 &- bound)) | value | lows)
        }
        @inline(__always) func equal(_ byte: UInt64) -> UInt64 { below(word ^ (ones &* byte), 1) }
        return below(word, 0x20) | equal(0x22) | equal(0x26) | equal(0x3C) | equal(0x3E) | equal(0xEF)
    }
}
