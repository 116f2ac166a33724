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
        typeName(role: node.role, viewClass: node.viewClass)
    }

    /// The XCUIElementType name for a node of `role` and `viewClass`.
    static func typeName(role: AXRole, viewClass: ViewClass) -> String {
        switch role {
        case .list: return viewClass == .collectionView ? "XCUIElementTypeCollectionView" : "XCUIElementTypeTable"
        case .adjustable:
            switch viewClass {
            case .stepper: return "XCUIElementTypeStepper"
            case .pageControl: return "XCUIElementTypePageIndicator"
            default: return "XCUIElementTypeSlider"
            }
        default: return tableTypeName(role) ?? "XCUIElementTypeOther"
        }
    }

    /// The type name of every role whose name does not depend on the view class; nil for `.list` and
    /// `.adjustable` (a switch, not a dictionary: `AXRole` hashes its raw string, ~460 instructions a lookup).
    static func tableTypeName(_ role: AXRole) -> String? {
        switch role {
        case .window: return "XCUIElementTypeWindow"
        case .alert: return "XCUIElementTypeAlert"
        case .group: return "XCUIElementTypeOther"
        case .landmark: return "XCUIElementTypeOther"
        case .table: return "XCUIElementTypeTable"
        case .tabBar: return "XCUIElementTypeTabBar"
        case .navigationBar: return "XCUIElementTypeNavigationBar"
        case .toolbar: return "XCUIElementTypeToolbar"
        case .segmentedControl: return "XCUIElementTypeSegmentedControl"
        case .picker: return "XCUIElementTypePicker"
        case .menu: return "XCUIElementTypeMenu"
        case .menuBar: return "XCUIElementTypeMenuBar"
        case .button: return "XCUIElementTypeButton"
        case .link: return "XCUIElementTypeLink"
        case .image: return "XCUIElementTypeImage"
        case .staticText: return "XCUIElementTypeStaticText"
        case .header: return "XCUIElementTypeStaticText"
        case .textField: return "XCUIElementTypeTextField"
        case .secureTextField: return "XCUIElementTypeSecureTextField"
        case .searchField: return "XCUIElementTypeSearchField"
        case .textView: return "XCUIElementTypeTextView"
        case .`switch`: return "XCUIElementTypeSwitch"
        case .tab: return "XCUIElementTypeButton"
        case .cell: return "XCUIElementTypeCell"
        case .keyboardKey: return "XCUIElementTypeKey"
        case .progressIndicator: return "XCUIElementTypeProgressIndicator"
        case .activityIndicator: return "XCUIElementTypeActivityIndicator"
        case .pickerItem: return "XCUIElementTypePickerWheel"
        case .list, .adjustable: return nil
        }
    }

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
        write(PlainPageSource.self, tree, appName: appName, into: &out)
    }

    /// Writes the page source through `out` as the content of a JSON string literal (the caller writes its
    /// quotes): exactly the bytes `ByteWriter.jsonString` writes for the page source between them, in one pass
    /// with no page-source buffer (the `tree.get` xml reply, D-PERF-7).
    package static func writeJSONStringContent(_ tree: AXTree, appName: String = "app", into out: inout ByteWriter) {
        write(PageSourceInJSONString.self, tree, appName: appName, into: &out)
    }

    /// Writes the page source in `encoding` through `out` (D-PERF-5: each node read in place from its box).
    static func write<Encoding: PageSourceEncoding>(
        _ encoding: Encoding.Type, _ tree: AXTree, appName: String, into out: inout ByteWriter
    ) {
        out.reserveCapacity(tree.count * 256 + 128)
        out.literal(
            Encoding.pick(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT>\n",
                #"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT>\n"#))
        out.literal(
            Encoding.pick(
                "<XCUIElementTypeApplication type=\"XCUIElementTypeApplication\"",
                #"<XCUIElementTypeApplication type=\"XCUIElementTypeApplication\""#))
        attribute(Encoding.pick(" name=\"", #" name=\""#), appName, Encoding.self, &out)
        attribute(Encoding.pick(" label=\"", #" label=\""#), appName, Encoding.self, &out)
        out.literal(Encoding.pick(" enabled=\"true\" visible=\"true\">\n", #" enabled=\"true\" visible=\"true\">\n"#))
        // Explicit stack of steps; each node is looked up once, when its parent opens (the tree's hash-trie lookups
        // were 10 % of a 10,000-element page source when each node was looked up two to three times).
        var stack: [WalkStep] = []
        // Nodes written, by box (one box per id in the tree's map, so the box names the node; hashing a pointer
        // is cheaper than hashing the id).
        var seen = BoxSet(capacity: tree.count)
        for (position, windowID) in tree.windows.enumerated().reversed() {
            if let window = tree.nodes.box(windowID) { stack.append(.open(window, depth: 1, index: position)) }
        }
        var children: [WalkStep] = []
        var positions: [TreeDictionary<String, Box<AXNode>>.Index?] = []
        // The map itself, so its lookups are specialized here (`BoxedMap.box` runs the generic map code).
        let nodes = tree.nodes.storage
        while let step = stack.popLast() {
            switch step {
            case .close(let type, let depth):
                indent(depth, &out)
                out.literal("</")
                out.raw(type)
                out.literal(Encoding.pick(">\n", #">\n"#))
            case .open(let box, let depth, let index):
                guard seen.insert(box) else { continue }
                // The node is read member by member from its box: passed as an argument it was copied whole
                // (an outlined copy and destroy of every member, 12 % of a page source's instructions).
                let type = writeOpening(Encoding.self, box, index: index, depth: depth, &out)
                children.removeAll(keepingCapacity: true)
                guard
                    listChildren(
                        of: box, depth: depth, in: tree, nodes, seen: seen, positions: &positions, into: &children)
                else {
                    out.literal(Encoding.pick("/>\n", #"/>\n"#))
                    continue
                }
                out.literal(Encoding.pick(">\n", #">\n"#))
                stack.append(.close(type: type, depth: depth))
                stack.append(contentsOf: children.reversed())
            }
        }
        out.literal(
            Encoding.pick(
                "</XCUIElementTypeApplication>\n</AppiumAUT>\n", #"</XCUIElementTypeApplication>\n</AppiumAUT>\n"#))
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
        of box: Box<AXNode>, depth: Int, in tree: AXTree, _ nodes: TreeDictionary<String, Box<AXNode>>,
        seen: BoxSet, positions: inout [TreeDictionary<String, Box<AXNode>>.Index?], into children: inout [WalkStep]
    ) -> Bool {
        var opensAny = false
        let childIDs = box.value.children
        // Where each child is in the map first, then its box: finding a key walks the hash trie with plain loads,
        // so the walks of siblings overlap in the processor; taking a box counts a reference (an atomic), which
        // makes each walk wait for the one before (at 100k elements the walks are misses to memory).
        positions.removeAll(keepingCapacity: true)
        for id in childIDs { positions.append(nodes.index(forKey: id)) }
        for offset in childIDs.indices {
            guard let position = positions[offset] else { continue }
            let child = nodes[position].value
            if !opensAny && !seen.contains(child) { opensAny = true }
            children.append(.open(child, depth: depth + 1, index: offset))
        }
        if !box.value.automationElements.isEmpty {
            for (offset, id) in AutomationNodes.children(of: box.value, in: tree).enumerated() {
                guard let child = nodes[id] else { continue }
                if !opensAny && !seen.contains(child) { opensAny = true }
                children.append(.open(child, depth: depth + 1, index: childIDs.count + offset))
            }
        }
        return opensAny
    }

    /// `<Type type=… … axid=…` (the element's attributes; the caller closes the tag); returns the type name.
    @discardableResult
    static func writeOpening<Encoding: PageSourceEncoding>(
        _ encoding: Encoding.Type, _ box: Box<AXNode>, index: Int, depth: Int, _ out: inout ByteWriter
    ) -> String {
        let type = typeName(role: box.value.role, viewClass: box.value.viewClass)
        indent(depth, &out)
        out.byte(0x3C)
        // Type names and roles are ASCII letters (`TypeNameTableTests`): written as they are, no escape scan.
        out.raw(type)
        out.literal(Encoding.pick(" type=\"", #" type=\""#))
        out.raw(type)
        out.literal(Encoding.quote)
        attribute(
            Encoding.pick(" name=\"", #" name=\""#),
            box.value.identifier.flatMap { $0.isEmpty ? nil : $0 } ?? box.value.label, Encoding.self, &out)
        attribute(Encoding.pick(" label=\"", #" label=\""#), box.value.label, Encoding.self, &out)
        attribute(Encoding.pick(" value=\"", #" value=\""#), box.value.value, Encoding.self, &out)
        out.literal(
            box.value.states.contains(.enabled)
                ? Encoding.pick(" enabled=\"true\"", #" enabled=\"true\""#)
                : Encoding.pick(" enabled=\"false\"", #" enabled=\"false\""#))
        out.literal(
            box.value.states.contains(.onscreen)
                ? Encoding.pick(" visible=\"true\"", #" visible=\"true\""#)
                : Encoding.pick(" visible=\"false\"", #" visible=\"false\""#))
        integerAttribute(Encoding.pick(" x=\"", #" x=\""#), box.value.frame.x, Encoding.quote, &out)
        integerAttribute(Encoding.pick(" y=\"", #" y=\""#), box.value.frame.y, Encoding.quote, &out)
        integerAttribute(Encoding.pick(" width=\"", #" width=\""#), box.value.frame.width, Encoding.quote, &out)
        integerAttribute(Encoding.pick(" height=\"", #" height=\""#), box.value.frame.height, Encoding.quote, &out)
        out.literal(Encoding.pick(" index=\"", #" index=\""#))
        out.integer(index)
        out.literal(Encoding.quote)
        out.literal(Encoding.pick(" role=\"", #" role=\""#))
        out.raw(box.value.role.rawValue)
        out.literal(Encoding.quote)
        attribute(Encoding.pick(" axid=\"", #" axid=\""#), box.value.id, Encoding.self, &out)
        if box.value.states.contains(.automationOnly) {
            out.literal(Encoding.pick(" automationOnly=\"true\"", #" automationOnly=\"true\""#))
        }
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

    /// `head` (` name="` in the encoding) and the value escaped, then the closing quote; nothing for nil.
    @inline(__always)
    static func attribute<Encoding: PageSourceEncoding>(
        _ head: StaticString, _ value: String?, _ encoding: Encoding.Type, _ out: inout ByteWriter
    ) {
        guard let value else { return }
        out.literal(head)
        escaped(Encoding.self, value, &out)
        out.literal(Encoding.quote)
    }

    /// `head` (` x="`), a coordinate rounded to the nearest integer (saturating, like Appium's integers; 0 for NaN and
    /// infinities) and `quote`.
    @inline(__always)
    static func integerAttribute(_ head: StaticString, _ number: Double, _ quote: StaticString, _ out: inout ByteWriter)
    {
        out.literal(head)
        // Frames are mostly whole numbers under 10,000: written by `number`'s short path, no rounding call.
        if number >= 0, number < 10_000, case let whole = UInt32(number), Double(whole) == number {
            out.digits(UInt64(whole))
        } else {
            out.integer(number.isFinite ? number.saturatingInt : 0)
        }
        out.literal(quote)
    }

    /// XML-escaped UTF-8 of `text`: markup characters as entities, newline, carriage return and tab as character
    /// references, other control characters and U+FFFE/U+FFFF (not XML 1.0 characters) as U+FFFD. Runs that need
    /// nothing are copied as they are, found eight bytes at a time (a Swift string is valid UTF-8, so U+FFFE/U+FFFF
    /// are exactly EF BF BE/BF).
    static func escaped(_ text: String, _ out: inout ByteWriter) {
        escaped(PlainPageSource.self, text, &out)
    }

    /// `text` escaped for the page source in `encoding`: as `escaped(_:_:)`, and inside a JSON string its
    /// backslashes doubled too (the only byte XML escaping leaves that a JSON string must escape: it replaces every
    /// control character and '"').
    static func escaped<Encoding: PageSourceEncoding>(
        _ encoding: Encoding.Type, _ text: String, _ out: inout ByteWriter
    ) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { escaped(Encoding.self, utf8: $0, &out) }
        if done == nil {
            var copy = text
            copy.withUTF8 { escaped(Encoding.self, utf8: $0, &out) }
        }
    }

    /// The UTF-8 `bytes` escaped for the page source in `encoding` (see `escaped(_:_:_:)`).
    @inline(__always)
    static func escaped<Encoding: PageSourceEncoding>(
        _ encoding: Encoding.Type, utf8 bytes: UnsafeBufferPointer<UInt8>, _ out: inout ByteWriter
    ) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        // Most names, labels and ids are short and need nothing: copied after one scan.
        if count <= 32, EscapeScan.isClean(Encoding.Rule.self, base, count: count) {
            out.bytes(base, count: count)
            return
        }
        var runStart = 0
        var index = 0
        while let found = EscapeScan.next(Encoding.Rule.self, base, from: index, count: count) {
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

    /// What replaces the byte at `index` (a candidate of the encoding's rule) and how many bytes it replaces; nil
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
        case 0x5C: return (#"\\"#, 1)  // a candidate inside a JSON string only
        case 0xEF where index + 2 < count && base[index + 1] == 0xBF && base[index + 2] >= 0xBE:
            return ("\u{FFFD}", 3)
        default: return (nil, 1)
        }
    }
}

/// Where the page source's bytes go: as they are, or as the content of a JSON string literal (the `tree.get`
/// xml reply, D-PERF-7). The markup is written in both forms (`pick`); `TreeGetWriterTests` checks every one of
/// them (the reply must equal the page source written by `JSON.serializeString`).
protocol PageSourceEncoding {
    /// The bytes of an attribute value the writer stops at.
    associatedtype Rule: ByteEscapeRule
    /// True when the bytes are the content of a JSON string literal.
    static var insideJSONString: Bool { get }
}

extension PageSourceEncoding {
    /// `plain` for the page source as it is, `json` (the same markup JSON-escaped) inside a JSON string.
    @inline(__always) static func pick(_ plain: StaticString, _ json: StaticString) -> StaticString {
        insideJSONString ? json : plain
    }

    /// An attribute's closing quote.
    @inline(__always) static var quote: StaticString { pick("\"", #"\""#) }
}

/// The page source as it is (Get Page Source, `TreeXML.xml`).
enum PlainPageSource: PageSourceEncoding {
    typealias Rule = XMLEscapeRule
    static var insideJSONString: Bool { false }
}

/// The page source as the content of a JSON string literal.
enum PageSourceInJSONString: PageSourceEncoding {
    typealias Rule = XMLInJSONEscapeRule
    static var insideJSONString: Bool { true }
}

/// The bytes the page source may escape: control characters, '"', '&', '<', '>' and 0xEF (the lead byte of
/// U+FFFE/U+FFFF, checked by the caller).
enum XMLEscapeRule: ByteEscapeRule {
    @inline(__always) static func flagged(_ word: UInt64) -> UInt64 {
        ByteFlags.below(word, 0x20) | ByteFlags.equal(word, 0x22) | ByteFlags.equal(word, 0x26)
            | ByteFlags.equal(word, 0x3C) | ByteFlags.equal(word, 0x3E) | ByteFlags.equal(word, 0xEF)
    }

    @inline(__always) static func anyFlagged(_ word: UInt64) -> UInt64 {
        ByteFlags.anyBelow(word, 0x20) | ByteFlags.anyEqual(word, 0x22) | ByteFlags.anyEqual(word, 0x26)
            | ByteFlags.anyEqual(word, 0x3C) | ByteFlags.anyEqual(word, 0x3E) | ByteFlags.anyEqual(word, 0xEF)
    }

    @inline(__always) static func contains(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<0x20, 0x22, 0x26, 0x3C, 0x3E, 0xEF: return true
        default: return false
        }
    }
}

/// `XMLEscapeRule`'s bytes and '\\', which a JSON string escapes (the page source inside a JSON string).
enum XMLInJSONEscapeRule: ByteEscapeRule {
    @inline(__always) static func flagged(_ word: UInt64) -> UInt64 {
        XMLEscapeRule.flagged(word) | ByteFlags.equal(word, 0x5C)
    }

    @inline(__always) static func anyFlagged(_ word: UInt64) -> UInt64 {
        XMLEscapeRule.anyFlagged(word) | ByteFlags.anyEqual(word, 0x5C)
    }

    @inline(__always) static func contains(_ byte: UInt8) -> Bool {
        XMLEscapeRule.contains(byte) || byte == 0x5C
    }
}

/// The boxes the page-source walk has written (each node once, also when automation elements list it again):
/// an open-addressing set of their addresses with a multiplicative hash, where `Set<ObjectIdentifier>` hashed each
/// address with SipHash (~300 instructions per element for an insert and a lookup). The walk holds every box it
/// inserts (the tree does), so an address names one box for the set's lifetime.
struct BoxSet {
    /// Addresses, 0 for an empty slot; the count is a power of two at least twice the capacity asked for.
    private var slots: [UInt]
    private var count = 0

    init(capacity: Int) {
        var size = 16
        while size < 2 * max(capacity, 1) { size &<<= 1 }
        slots = [UInt](repeating: 0, count: size)
    }

    private func start(_ address: UInt) -> Int {
        // Fibonacci hashing of the address (its low bits are alignment zeros), folded to the table's size.
        Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> UInt(64 - slots.count.trailingZeroBitCount))
    }

    /// The slot holding `address`, or the empty slot where its probe ends (linear probing from `start`).
    private func slot(of address: UInt) -> (index: Int, found: Bool) {
        let mask = slots.count &- 1
        var index = start(address)
        while slots[index] != 0 {
            if slots[index] == address { return (index, true) }
            index = (index &+ 1) & mask
        }
        return (index, false)
    }

    func contains(_ box: Box<AXNode>) -> Bool {
        slot(of: UInt(bitPattern: ObjectIdentifier(box))).found
    }

    /// Adds `box`; false when it was there already.
    mutating func insert(_ box: Box<AXNode>) -> Bool {
        if 2 * (count + 1) > slots.count { grow() }
        let address = UInt(bitPattern: ObjectIdentifier(box))
        let (index, found) = slot(of: address)
        if found { return false }
        slots[index] = address
        count += 1
        return true
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt](repeating: 0, count: old.count * 2)
        for address in old where address != 0 { slots[slot(of: address).index] = address }
    }
}
