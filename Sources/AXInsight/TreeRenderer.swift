import AXCore

/// What `tree.render` draws on top of the wireframe (D-RENDER-1).
package enum RenderOverlay: String, Sendable, CaseIterable {
    /// Role and label inside each element.
    case labels
    /// Reading-order numbers (navigation order, R104).
    case order
    /// The focused element.
    case focus
    /// Activation points, and the 44×44 pt target around elements smaller than that.
    case hitRegions
    /// Audit findings: outlined elements and a numbered list under the picture.
    case audit

    package static let defaults: [RenderOverlay] = [.labels, .order, .focus]
}

/// The picture and what was left out of it.
package struct RenderedPicture: Sendable, Equatable {
    package var svg: String
    package var width: Double
    package var height: Double
    /// Nodes drawn and nodes left out by the cap.
    package var drawn: Int
    package var omitted: Int
    package var findingsListed: Int
}

/// Draws the derived tree as an SVG wireframe: each window side by side at 1 pt = 1 px, every node's frame,
/// role and label, and the chosen overlays. Pure, O(nodes drawn); at most `maxNodes` nodes are drawn (in
/// pre-order, so containers come before their content) and the picture says how many were left out.
package enum TreeRenderer {
    package static let defaultMaxNodes = 5000
    package static let maxNodesLimit = 50_000
    static let margin = 24.0
    static let windowGap = 40.0
    static let titleHeight = 22.0
    static let labelFontSize = 10.0
    static let maxFindingsListed = 50

    /// `findings` are listed and outlined with the `audit` overlay; `smallTargets` (elements the hitRegion check
    /// reports) get the dashed 44×44 pt target with the `hitRegions` overlay.
    package static func svg(
        tree: AXTree, root: String? = nil, focusedID: String? = nil, overlays: Set<RenderOverlay>,
        findings: [AuditFinding] = [], smallTargets: Set<String> = [], maxNodes: Int = defaultMaxNodes
    ) -> RenderedPicture {
        let limit = max(1, min(maxNodes, maxNodesLimit))
        let tops = root.map { [$0] } ?? tree.windows
        let selection = choose(tree: tree, tops: tops, limit: limit)
        let layout = Layout(selection.areas)
        let listed = overlays.contains(.audit) ? min(findings.count, maxFindingsListed) : 0
        let omitted = selection.total - selection.chosen.count
        let width = max(layout.x - windowGap + margin, 320)
        let footer = overlays.contains(.audit) ? footerLines(findings, listed: listed, width: width) : []
        let footerLines = footer.count + (omitted > 0 ? 1 : 0)
        let canvasHeight =
            margin + titleHeight + layout.height + margin + Double(footerLines) * 16 + (footerLines > 0 ? 8 : 0)

        var writer = SVGWriter(capacity: 512 + selection.chosen.count * 360)
        writer.string(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(canvasHeight))\" viewBox=\"0 0 \(n(width)) \(n(canvasHeight))\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
                + "<rect x=\"0\" y=\"0\" width=\"\(n(width))\" height=\"\(n(canvasHeight))\" fill=\"#ffffff\"/>\n")
        let pass = DrawPass(
            selection: selection, layout: layout, firstTop: tops.first ?? "", focusedID: focusedID,
            flags: OverlayFlags(overlays), findings: findings, smallTargets: smallTargets)
        pass.drawNodes(into: &writer)
        var out = ""
        if overlays.contains(.audit) {
            let firstOffset = tops.first.flatMap { layout.shift[$0] } ?? (0, 0)
            out += unexposedFindings(findings, selection: selection, tree: tree, offset: firstOffset)
        }
        var footerY = margin + titleHeight + layout.height + margin + 8
        for (line, color) in footer {
            out +=
                "<text x=\"\(n(margin))\" y=\"\(n(footerY))\" font-size=\"11\" fill=\"\(color)\">\(AuditFormats.xml(line))</text>\n"
            footerY += 16
        }
        if omitted > 0 {
            out +=
                "<text x=\"\(n(margin))\" y=\"\(n(footerY))\" font-size=\"11\" fill=\"#b00020\">\(omitted) of \(selection.total) nodes not drawn (the picture is capped at \(limit) nodes; pass maxNodes or root)</text>\n"
        }
        out += "</svg>\n"
        writer.string(out)
        return RenderedPicture(
            svg: writer.finish(), width: width, height: canvasHeight, drawn: selection.chosen.count, omitted: omitted,
            findingsListed: listed)
    }

    /// Pass 1: the nodes drawn (pre-order, capped), the elements' reading numbers, each top-level area's bounds.
    struct Selection {
        var chosen: [(node: AXNode, depth: Int)] = []
        var readingIndex: [String: Int] = [:]
        var total = 0
        var areas: [(id: String, bounds: Rect)] = []
    }

    static func choose(tree: AXTree, tops: [String], limit: Int) -> Selection {
        var selection = Selection()
        for top in tops {
            var bounds: Rect?
            tree.walk(from: top) { node, depth in
                selection.total += 1
                if node.isElement { selection.readingIndex[node.id] = selection.readingIndex.count + 1 }
                guard selection.chosen.count < limit else { return true }
                selection.chosen.append((node, depth))
                if node.frame.isFinite && (node.frame.width > 0 || node.frame.height > 0) {
                    bounds = bounds.map { $0.union(node.frame) } ?? node.frame
                }
                return true
            }
            selection.areas.append((top, bounds ?? Rect(x: 0, y: 0, width: 100, height: 100)))
        }
        return selection
    }

    /// Each area shifted to its own column: the shifts, the right edge and the tallest area.
    struct Layout {
        var shift: [String: (Double, Double)] = [:]
        var x = margin
        var height = 0.0

        init(_ areas: [(id: String, bounds: Rect)]) {
            for area in areas {
                shift[area.id] = (x - area.bounds.minX, margin + titleHeight - area.bounds.minY)
                x += area.bounds.width + windowGap
                height = max(height, area.bounds.height)
            }
        }
    }

    /// The numbered findings under the picture, wrapped to its width, and how many were not listed.
    static func footerLines(_ findings: [AuditFinding], listed: Int, width: Double) -> [(String, String)] {
        var footer: [(String, String)] = []
        let perLine = max(20, min(10_000, ((width - 2 * margin) / (11 * 0.6)).saturatingTruncatedInt))
        for (number, finding) in findings.prefix(listed).enumerated() {
            let text =
                "\(number + 1). \(finding.severity.rawValue) \(finding.check) \(finding.element): \(finding.reason)"
            let color = finding.severity == .error ? "#b00020" : "#8a5a00"
            for line in wrap(text, perLine: perLine) { footer.append((line, color)) }
        }
        if listed < findings.count {
            footer.append(("… \(findings.count - listed) more findings not listed", "#555555"))
        }
        return footer
    }

    /// Pass 2: every chosen node in its window's column, with its overlays.
    struct DrawPass {
        let selection: Selection
        let layout: Layout
        let firstTop: String
        let focusedID: String?
        let flags: OverlayFlags
        let findings: [AuditFinding]
        let smallTargets: Set<String>

        func drawNodes(into writer: inout SVGWriter) {
            var chosenFrames: [String: Rect] = [:]
            chosenFrames.reserveCapacity(selection.chosen.count)
            for (node, _) in selection.chosen { chosenFrames[node.id] = node.frame }
            let findingsByElement = Dictionary(grouping: findings.enumerated(), by: { $0.element.element })
            var offset = layout.shift[firstTop] ?? (0, 0)
            for (node, depth) in selection.chosen {
                if depth == 0 { offset = layout.shift[node.id] ?? (0, 0) }
                let frame = Rect(
                    x: node.frame.x + offset.0, y: node.frame.y + offset.1, width: node.frame.width,
                    height: node.frame.height)
                let nodeFindings =
                    findingsByElement.isEmpty
                    ? [] : findingsByElement[node.id]?.map { ($0.offset + 1, $0.element) } ?? []
                drawNode(
                    node, frame: frame, depth: depth, index: flags.order ? selection.readingIndex[node.id] : nil,
                    focused: node.id == focusedID,
                    findings: nodeFindings, smallTarget: flags.hitRegions && smallTargets.contains(node.id),
                    labelCovered: flags.labels && labelCovered(node, frames: chosenFrames),
                    flags: flags, offset: offset, into: &writer)
            }
        }
    }

    /// Findings on views that have no node (element detection), outlined where the view is.
    static func unexposedFindings(
        _ findings: [AuditFinding], selection: Selection, tree: AXTree, offset: (Double, Double)
    ) -> String {
        var out = ""
        let drawnIDs = Set(selection.chosen.map(\.node.id))
        for (number, finding) in findings.enumerated()
        where !drawnIDs.contains(finding.element) && tree[finding.element] == nil {
            let frame = finding.frame
            guard !frame.isEmpty else { continue }
            let x = frame.x + offset.0
            let y = frame.y + offset.1
            let color = finding.severity == .error ? "#b00020" : "#d97706"
            out += "<g><title>\(AuditFormats.xml("\(finding.element) (not exposed): \(finding.reason)"))</title>"
            out +=
                "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(frame.width))\" height=\"\(n(frame.height))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>"
            out +=
                "<text x=\"\(n(x + 3))\" y=\"\(n(y + 12))\" font-size=\"\(n(labelFontSize))\" fill=\"\(color)\">\(AuditFormats.xml(fit("not exposed: \(finding.element)", width: frame.width - 30, fontSize: labelFontSize)))</text>"
            out +=
                "<text x=\"\(n(x + frame.width - 2))\" y=\"\(n(y + frame.height - 3))\" font-size=\"9\" font-weight=\"bold\" text-anchor=\"end\" fill=\"\(color)\">!\(number + 1)</text></g>\n"
        }
        return out
    }

    /// The overlays as flags (tested once per node).
    struct OverlayFlags {
        let labels: Bool
        let order: Bool
        let focus: Bool
        let hitRegions: Bool
        let audit: Bool

        init(_ overlays: Set<RenderOverlay>) {
            labels = overlays.contains(.labels)
            order = overlays.contains(.order)
            focus = overlays.contains(.focus)
            hitRegions = overlays.contains(.hitRegions)
            audit = overlays.contains(.audit)
        }
    }

    static func drawNode(
        _ node: AXNode, frame: Rect, depth: Int, index: Int?, focused: Bool, findings: [(Int, AuditFinding)],
        smallTarget: Bool, labelCovered: Bool, flags: OverlayFlags, offset: (Double, Double),
        into out: inout SVGWriter
    ) {
        let style = Style.of(node)
        drawFrame(node, frame: frame, depth: depth, style: style, into: &out)
        var textX = frame.x + 3
        if let index, node.isElement {
            drawIndex(index, frame: frame, into: &out)
            textX = frame.x + 18
        }
        if flags.labels && depth > 0 && !labelCovered {
            drawLabel(node, frame: frame, textX: textX, style: style, into: &out)
        }
        if flags.hitRegions && node.isElement && Interactivity.isInteractive(node) {
            drawHitRegion(node, smallTarget: smallTarget, offset: offset, into: &out)
        }
        if flags.focus && focused {
            out.string(
                "<rect x=\"\(n(frame.x - 3))\" y=\"\(n(frame.y - 3))\" width=\"\(n(frame.width + 6))\" height=\"\(n(frame.height + 6))\" fill=\"none\" stroke=\"#f97316\" stroke-width=\"3\" rx=\"3\"/>"
            )
        }
        if flags.audit && !findings.isEmpty {
            drawFindings(findings, frame: frame, into: &out)
        }
        out.raw("</g>\n")
    }

    /// The tooltip, the frame (dashed for a non-element, thicker for a window) and a window's title.
    static func drawFrame(_ node: AXNode, frame: Rect, depth: Int, style: Style, into out: inout SVGWriter) {
        out.raw("<g><title>")
        out.escaped(node.id)
        out.raw(" · ")
        out.escaped(node.role.rawValue)
        if let label = node.label {
            out.raw(" · ")
            out.escaped(label)
        }
        if let value = node.value, !value.isEmpty {
            out.raw(" · ")
            out.escaped(value)
        }
        out.raw("</title><rect x=\"")
        out.number(frame.x)
        out.raw("\" y=\"")
        out.number(frame.y)
        out.raw("\" width=\"")
        out.number(frame.width)
        out.raw("\" height=\"")
        out.number(frame.height)
        out.raw("\" fill=\"")
        out.raw(style.fill)
        out.raw("\" stroke=\"")
        out.raw(style.stroke)
        out.raw(depth == 0 ? "\" stroke-width=\"2\"" : "\" stroke-width=\"1\"")
        out.raw(node.isElement ? "/>" : " stroke-dasharray=\"4 3\"/>")
        if depth == 0 {
            let title =
                node.label.map { "\($0) — \(node.role.rawValue) \(node.id)" } ?? "\(node.role.rawValue) \(node.id)"
            out.string(
                "<text x=\"\(n(frame.x))\" y=\"\(n(frame.y - 7))\" font-size=\"13\" font-weight=\"bold\" fill=\"#222222\">\(AuditFormats.xml(title))</text>"
            )
        }
    }

    /// The element's reading-order number in a circle at its top-left corner.
    static func drawIndex(_ index: Int, frame: Rect, into out: inout SVGWriter) {
        out.raw("<circle cx=\"")
        out.number(frame.x + 8)
        out.raw("\" cy=\"")
        out.number(frame.y + 8)
        out.raw("\" r=\"7\" fill=\"#1a56db\"/><text x=\"")
        out.number(frame.x + 8)
        out.raw("\" y=\"")
        out.number(frame.y + 11)
        out.raw("\" font-size=\"8\" text-anchor=\"middle\" fill=\"#ffffff\">")
        out.number(Double(index))
        out.raw("</text>")
    }

    /// The role and label inside the frame, when there is room.
    static func drawLabel(_ node: AXNode, frame: Rect, textX: Double, style: Style, into out: inout SVGWriter) {
        let room = frame.x + frame.width - textX - 2
        if frame.height >= 12 && room >= labelFontSize {
            let text = node.isElement ? style.short + " " + (node.label ?? "") : node.role.rawValue
            let fitted = fit(text, width: room, fontSize: labelFontSize)
            if !fitted.isEmpty {
                out.raw("<text x=\"")
                out.number(textX)
                out.raw("\" y=\"")
                out.number(frame.y + 11)
                out.raw("\" font-size=\"10\" fill=\"")
                out.raw(style.text)
                out.raw("\">")
                out.escaped(fitted)
                out.raw("</text>")
            }
        }
    }

    /// The activation point, and the 44×44 pt target around a too-small element.
    static func drawHitRegion(_ node: AXNode, smallTarget: Bool, offset: (Double, Double), into out: inout SVGWriter) {
        let point = Point(x: node.activationPoint.x + offset.0, y: node.activationPoint.y + offset.1)
        if smallTarget {
            let side = Auditor.minimumTarget
            out.string(
                "<rect x=\"\(n(point.x - side / 2))\" y=\"\(n(point.y - side / 2))\" width=\"\(n(side))\" height=\"\(n(side))\" fill=\"none\" stroke=\"#d97706\" stroke-dasharray=\"2 2\"/>"
            )
        }
        out.string(
            "<path d=\"M\(n(point.x - 4)) \(n(point.y))h8M\(n(point.x)) \(n(point.y - 4))v8\" stroke=\"#d97706\" stroke-width=\"1.5\"/>"
        )
    }

    /// The outline in the worst finding's colour and the findings' numbers.
    static func drawFindings(_ findings: [(Int, AuditFinding)], frame: Rect, into out: inout SVGWriter) {
        let worst = findings.contains { $0.1.severity == .error } ? "#b00020" : "#d97706"
        let numbers = findings.map { String($0.0) }.joined(separator: ",")
        out.string(
            "<rect x=\"\(n(frame.x - 1))\" y=\"\(n(frame.y - 1))\" width=\"\(n(frame.width + 2))\" height=\"\(n(frame.height + 2))\" fill=\"none\" stroke=\"\(worst)\" stroke-width=\"2\"/>"
        )
        out.string(
            "<text x=\"\(n(frame.x + frame.width - 2))\" y=\"\(n(frame.y + frame.height - 3))\" font-size=\"9\" font-weight=\"bold\" text-anchor=\"end\" fill=\"\(worst)\">!\(AuditFormats.xml(numbers))</text>"
        )
    }

    /// Breaks text at spaces into lines of at most `perLine` characters (longer words are cut).
    static func wrap(_ text: String, perLine: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty && current.count + 1 + word.count > perLine {
                lines.append(current)
                current = "   "
            }
            current += (current.isEmpty || current == "   " ? "" : " ") + word.prefix(perLine)
        }
        if !current.trimmingSpaces.isEmpty { lines.append(current) }
        return lines
    }

    /// Whether a drawn child's frame covers the top-left corner where a container's role would be written.
    static func labelCovered(_ node: AXNode, frames: [String: Rect]) -> Bool {
        guard !node.isElement else { return false }
        let corner = Rect(x: node.frame.x, y: node.frame.y, width: 60, height: 14)
        for child in node.children {
            if let frame = frames[child], frame.intersection(corner) != nil { return true }
        }
        return false
    }

    /// Cuts text to what fits `width` at the font size (≈ 0.6 em per character for the sans fonts used), with "…".
    static func fit(_ text: String, width: Double, fontSize: Double) -> String {
        let capacity = (width / (fontSize * 0.6)).saturatingTruncatedInt
        guard capacity > 0 else { return "" }
        if text.count <= capacity { return text }
        guard capacity > 1 else { return "" }
        return String(text.prefix(capacity - 1)) + "…"
    }

    /// Numbers without a needless fraction, two decimals at most.
    static func n(_ value: Double) -> String { ControlSemantics.formatNumber(value) }

    /// Colours per role family.
    struct Style {
        var fill: StaticString
        var stroke: StaticString
        var text: StaticString
        var short: String

        static func of(_ node: AXNode) -> Style {
            switch node.role {
            case .window: return Style(fill: "#fafafa", stroke: "#333333", text: "#222222", short: "window")
            case .button, .link, .tab, .keyboardKey, .switch, .cell:
                return Style(fill: "#e8f0fe", stroke: "#1a56db", text: "#0b3a8f", short: short(node))
            case .adjustable, .pickerItem, .progressIndicator, .activityIndicator:
                return Style(fill: "#e6f4ea", stroke: "#188038", text: "#0d5323", short: short(node))
            case .textField, .secureTextField, .searchField, .textView:
                return Style(fill: "#fef7e0", stroke: "#b06000", text: "#6b3a00", short: short(node))
            case .image: return Style(fill: "#f3e8fd", stroke: "#8430ce", text: "#5b1f91", short: short(node))
            case .header: return Style(fill: "#eeeeee", stroke: "#444444", text: "#111111", short: short(node))
            case .staticText: return Style(fill: "#ffffff", stroke: "#9e9e9e", text: "#333333", short: short(node))
            default: return Style(fill: "none", stroke: "#9e9e9e", text: "#616161", short: node.role.rawValue)
            }
        }

        static func short(_ node: AXNode) -> String {
            switch node.role {
            case .staticText: return "text:"
            case .header: return "header:"
            case .textField, .secureTextField, .searchField, .textView: return "field:"
            case .adjustable: return "adjustable:"
            default: return node.role.rawValue + ":"
            }
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var out = Substring(self)
        while out.first == " " { out.removeFirst() }
        while out.last == " " { out.removeLast() }
        return String(out)
    }
}

/// Builds the SVG as UTF-8 bytes: numbers and escapes written in place (the picture of a 10,000-node tree is a
/// few megabytes; string interpolation per attribute would dominate).
struct SVGWriter {
    private var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Text content or an attribute value, XML-escaped; characters XML 1.0 cannot carry are dropped.
    mutating func escaped(_ text: String) {
        if text.utf8.contains(0xEF) {
            // U+FFFE and U+FFFF (EF BF BE/BF) are not XML characters: the scalar-level escaper drops them.
            string(AuditFormats.xml(text))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "<"): raw("&lt;")
            case UInt8(ascii: ">"): raw("&gt;")
            case UInt8(ascii: "\""): raw("&quot;")
            case UInt8(ascii: "'"): raw("&apos;")
            case 0x09, 0x0A, 0x0D: bytes.append(byte)
            case 0..<0x20: continue
            default: bytes.append(byte)
            }
        }
    }

    /// A number as the other helpers print it: whole numbers without a fraction, else at most two decimals.
    mutating func number(_ value: Double) {
        guard value.isFinite else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        let hundredths = (value * 100).rounded()
        guard abs(hundredths) < 1e15 else {
            string(ControlSemantics.formatNumber(value))
            return
        }
        var scaled = Int(hundredths)
        if scaled < 0 {
            bytes.append(UInt8(ascii: "-"))
            scaled = -scaled
        }
        integer(scaled / 100)
        let fraction = scaled % 100
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10))
            if fraction % 10 != 0 { bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10)) }
        }
    }

    private mutating func integer(_ value: Int) {
        if value >= 10 { integer(value / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    func finish() -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
