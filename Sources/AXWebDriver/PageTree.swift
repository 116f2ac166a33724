import AXJSON
import AXQuery

/// The Appium page source (`tree.get` format `xml`) parsed once into a flat array in document order, so XPath
/// queries walk integers instead of re-reading (or re-serialising) the XML on every lookup poll.
///
/// Element 0 is the document element (`AppiumAUT`); `parent[0]` is -1 (the document node). `subtreeEnd[i]` is
/// one past the last descendant of `i`, so the descendants of `i` are `i + 1 ..< subtreeEnd[i]`.
package struct PageTree: Sendable {
    package var names: [String] = []
    package var attributes: [[(name: String, value: String)]] = []
    package var parent: [Int] = []
    package var children: [[Int]] = []
    package var subtreeEnd: [Int] = []
    /// How many elements say `automationOnly="true"` (views listed only in `automationElements`, D-AUTO-1): the
    /// server builds them per request, so `tree.diff` does not name them and such a page is never patched.
    package var automationOnlyCount = 0

    /// The number of elements.
    package var count: Int { names.count }

    /// An empty page (the builder's start).
    init() {}

    /// Parses a page source; malformed XML is an error naming the line and column. The elements go straight into
    /// the arrays as the reader meets them (no element tree in between, issue 35 item 5).
    package init(xml: [UInt8]) throws(XMLReadError) {
        var builder = Builder()
        builder.tree.reserve(xml.count / 200 + 16)
        try XMLReader.scan(xml, into: &builder)
        self = builder.tree
    }

    mutating func reserve(_ capacity: Int) {
        names.reserveCapacity(capacity)
        attributes.reserveCapacity(capacity)
        parent.reserveCapacity(capacity)
        children.reserveCapacity(capacity)
        subtreeEnd.reserveCapacity(capacity)
    }

    /// Appends each element in pre-order as its start tag is read; its subtree ends where its end tag is read.
    struct Builder: XMLVisitor {
        var tree = PageTree()
        var openElements: [Int] = []

        mutating func open(_ name: String, _ attributes: [(name: String, value: String)]) {
            let index = tree.names.count
            let parentIndex = openElements.last ?? -1
            tree.names.append(name)
            tree.attributes.append(attributes)
            tree.parent.append(parentIndex)
            tree.children.append([])
            tree.subtreeEnd.append(index + 1)
            if parentIndex >= 0 { tree.children[parentIndex].append(index) }
            if attributes.contains(where: { $0.name == "automationOnly" }) {
                tree.automationOnlyCount += 1
            }
            openElements.append(index)
        }

        mutating func close() {
            guard let index = openElements.popLast() else { return }
            tree.subtreeEnd[index] = tree.names.count
        }
    }

    /// The `axid` of element `index`, if it has one (the page source writes it last but for `automationOnly`).
    package func axid(_ index: Int) -> String? {
        if let last = attributes[index].last, last.name == "axid" { return last.value }
        return attribute(index, "axid")
    }

    /// The value of attribute `name` on element `index`, if present.
    package func attribute(_ index: Int, _ name: String) -> String? {
        for attribute in attributes[index] where attribute.name == name { return attribute.value }
        return nil
    }

    /// The page-source attributes of a wire element (`element.get`), in the order AXQuery's TreeXML writes them:
    /// `type, name (identifier, else label), label, value, enabled, visible (onscreen), x, y, width, height
    /// (rounded), index, role, axid`. `type` and `index` come from the parsed page (they depend on the view class
    /// and the position, which a patch never changes).
    package static func pageAttributes(of element: JSON, type: String, index: String?) -> [(
        name: String, value: String
    )] {
        var out: [(name: String, value: String)] = [("type", type)]
        func add(_ name: String, _ value: String?) { if let value { out.append((name, sanitized(value))) } }
        // TreeXML writes characters XML 1.0 cannot carry as U+FFFD.
        func sanitized(_ text: String) -> String {
            guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0xFFFE || $0.value == 0xFFFF })
            else { return text }
            var out = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                let keep =
                    scalar == "\n" || scalar == "\r" || scalar == "\t"
                    || !(scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF)
                out.append(keep ? scalar : "\u{FFFD}")
            }
            return String(out)
        }
        // Rounded to the nearest integer and saturating, as TreeXML writes coordinates (never trapping on a huge
        // wire value); NaN and infinities are 0.
        func rounded(_ key: String) -> String {
            guard let number = element["frame"]?[key]?.doubleValue, number.isFinite else { return "0" }
            let nearest = number.rounded()
            if nearest >= Double(Int.max) { return String(Int.max) }
            if nearest <= Double(Int.min) { return String(Int.min) }
            return String(Int(nearest))
        }
        let states = Set(element["states"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let identifier = element["identifier"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        add("name", identifier ?? element["label"]?.stringValue)
        add("label", element["label"]?.stringValue)
        add("value", element["value"]?.stringValue)
        add("enabled", states.contains("enabled") ? "true" : "false")
        add("visible", states.contains("onscreen") ? "true" : "false")
        for key in ["x", "y", "width", "height"] { add(key, rounded(key)) }
        add("index", index)
        add("role", element["role"]?.stringValue)
        add("axid", element["id"]?.stringValue)
        return out
    }
}
