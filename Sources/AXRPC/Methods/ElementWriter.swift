import AXCore
import AXJSON

/// Writes the element form (`ElementJSON.encode`, Specs/protocol.md §Common shapes, element) straight into a
/// reply buffer, byte for byte what serializing `ElementJSON.encode` writes, without building a `JSON` value per
/// element (issue 35 item 1). Common members are written directly; the rare compound ones (custom actions and
/// rotors, a table, large content, drag and drop, app text content) are built by `ElementJSON` and serialized, so
/// their form is declared once. `ElementWriterTests` pins the two encoders together.
package enum ElementWriter {
    /// Appends a member's head: a plain ASCII literal such as `,"role":` (comma, quoted key, colon; no comma for
    /// an object's first member), written in one copy.
    @inline(__always) static func key(_ head: StaticString, _ out: inout [UInt8]) {
        head.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    @inline(__always) static func literal(_ text: StaticString, _ out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    @inline(__always) static func string(_ head: StaticString, _ value: String, _ out: inout [UInt8]) {
        key(head, &out)
        JSON.serializeString(value, into: &out)
    }

    @inline(__always) static func optionalString(_ head: StaticString, _ value: String?, _ out: inout [UInt8]) {
        guard let value else { return }
        string(head, value, &out)
    }

    @inline(__always) static func number(_ value: Double, _ out: inout [UInt8]) {
        JSON.serializeNumber(value, into: &out)
    }

    static func bool(_ flag: Bool, _ out: inout [UInt8]) {
        if flag { literal("true", &out) } else { literal("false", &out) }
    }

    static func stringArray(_ head: StaticString, _ values: [String], _ out: inout [UInt8]) {
        key(head, &out)
        out.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(0x2C) }
            JSON.serializeString(value, into: &out)
        }
        out.append(0x5D)
    }

    /// `{"x":…,"y":…,"width":…,"height":…}` as `ElementJSON.rect`.
    static func rect(_ rect: Rect, _ out: inout [UInt8]) {
        literal(#"{"x":"#, &out)
        number(rect.x, &out)
        literal(#","y":"#, &out)
        number(rect.y, &out)
        literal(#","width":"#, &out)
        number(rect.width, &out)
        literal(#","height":"#, &out)
        number(rect.height, &out)
        out.append(0x7D)
    }

    /// `{"x":…,"y":…}` as `ElementJSON.point`.
    static func point(_ point: Point, _ out: inout [UInt8]) {
        literal(#"{"x":"#, &out)
        number(point.x, &out)
        literal(#","y":"#, &out)
        number(point.y, &out)
        out.append(0x7D)
    }

    /// The members of `object`, each preceded by a comma (the rare compound members, built by `ElementJSON`).
    static func members(_ object: JSONObject, _ out: inout [UInt8]) {
        for (name, value) in zip(object.keys, object.values) {
            out.append(0x2C)
            JSON.serializeString(name, into: &out)
            out.append(0x3A)
            value.serialize(into: &out)
        }
    }

    /// The JSON names of a flag set's members (`"button"`, …) in one byte array, with each member's bit and byte
    /// range, in the order of its table (`Traits.named`, `AXStates.named`): written with no `String` and no
    /// reference count per element.
    struct FlagNames {
        let bytes: [UInt8]
        let entries: [(mask: UInt64, start: Int, end: Int)]

        init(_ table: [(name: String, mask: UInt64)]) {
            var bytes: [UInt8] = []
            var entries: [(mask: UInt64, start: Int, end: Int)] = []
            for (name, mask) in table {
                let start = bytes.count
                JSON.serializeString(name, into: &bytes)
                entries.append((mask, start, bytes.count))
            }
            self.bytes = bytes
            self.entries = entries
        }

        /// Appends `[name,…]` for the members set in `bits` (table order), then `extra` when given.
        func write(_ bits: UInt64, extra: StaticString?, into out: inout [UInt8]) {
            out.append(0x5B)
            var first = true
            var remaining = bits
            bytes.withUnsafeBufferPointer { names in
                for entry in entries where remaining & entry.mask != 0 {
                    if first { first = false } else { out.append(0x2C) }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: names[entry.start..<entry.end]))
                    remaining &= ~entry.mask
                    if remaining == 0 { break }
                }
            }
            if let extra {
                if !first { out.append(0x2C) }
                extra.withUTF8Buffer { out.append(contentsOf: $0) }
            }
            out.append(0x5D)
        }
    }

    static let traitNames = FlagNames(Traits.named.map { (name: $0.name, mask: $0.trait.rawValue) })
    static let stateNames = FlagNames(AXStates.named.map { (name: $0.0, mask: UInt64($0.1.rawValue)) })

    static func traits(_ traits: Traits, _ out: inout [UInt8]) {
        key(#","traits":"#, &out)
        traitNames.write(traits.rawValue, extra: nil, into: &out)
    }

    static func states(_ node: AXNode, focusedID: String?, _ out: inout [UInt8]) {
        key(#","states":"#, &out)
        stateNames.write(UInt64(node.states.rawValue), extra: focusedID == node.id ? #""focused""# : nil, into: &out)
    }

    /// Appends one element's members after its opening brace, without the closing brace (the tree walk may add
    /// `children` and `truncated`); `childIDs` true includes the child id list.
    package static func writeMembers(
        _ node: AXNode, focusedID: String?, childIDs: Bool, into out: inout [UInt8]
    ) {
        key(#""id":"#, &out)
        JSON.serializeString(node.id, into: &out)
        string(#","role":"#, node.role.rawValue, &out)
        string(#","class":"#, node.className, &out)
        optionalString(#","label":"#, node.label, &out)
        optionalString(#","value":"#, node.value, &out)
        optionalString(#","hint":"#, node.hint, &out)
        optionalString(#","identifier":"#, node.identifier, &out)
        optionalString(#","placeholder":"#, node.placeholder, &out)
        traits(node.traits, &out)
        states(node, focusedID: focusedID, &out)
        key(#","isElement":"#, &out)
        bool(node.isElement, &out)
        key(#","frame":"#, &out)
        rect(node.frame, &out)
        key(#","activationPoint":"#, &out)
        point(node.activationPoint, &out)
        optionalString(#","parent":"#, node.parent, &out)
        string(#","window":"#, node.windowID, &out)
        if childIDs && !node.children.isEmpty { stringArray(#","children":"#, node.children, &out) }
        optionalString(#","language":"#, node.language, &out)
        if let level = node.headingLevel {
            key(#","headingLevel":"#, &out)
            number(Double(level), &out)
        }
        writeActions(node, &out)
        writeValueAndGrid(node, &out)
        writeBehavior(node, &out)
        if node.textContent != nil {
            var object = JSONObject()
            TextContentJSON.append(node, to: &object)
            members(object, &out)
        }
    }

    /// One whole element (`ElementJSON.encode`), braces included.
    package static func write(_ node: AXNode, focusedID: String?, childIDs: Bool, into out: inout [UInt8]) {
        out.append(0x7B)
        writeMembers(node, focusedID: focusedID, childIDs: childIDs, into: &out)
        out.append(0x7D)
    }

    static func writeActions(_ node: AXNode, _ out: inout [UInt8]) {
        if !node.customActions.isEmpty || !node.rotors.isEmpty {
            var object = JSONObject()
            ElementJSON.appendActions(of: node, to: &object)
            members(object, &out)
            return
        }
        guard !node.actions.isEmpty else { return }
        key(#","actions":"#, &out)
        out.append(0x5B)
        for (index, action) in node.actions.enumerated() {
            if index > 0 { out.append(0x2C) }
            JSON.serializeString(action.rawValue, into: &out)
        }
        out.append(0x5D)
    }

    static func writeValueAndGrid(_ node: AXNode, _ out: inout [UInt8]) {
        if node.table != nil {
            var object = JSONObject()
            ElementJSON.appendValueAndGrid(of: node, to: &object)
            members(object, &out)
            return
        }
        if let numeric = node.numeric {
            key(#","numericValue":"#, &out)
            literal(#"{"current":"#, &out)
            number(numeric.current, &out)
            literal(#","minimum":"#, &out)
            number(numeric.minimum, &out)
            literal(#","maximum":"#, &out)
            number(numeric.maximum, &out)
            literal(#","step":"#, &out)
            number(numeric.step, &out)
            out.append(0x7D)
        }
        if let position = node.positionInSet, let size = node.sizeOfSet {
            key(#","position":"#, &out)
            literal(#"{"index":"#, &out)
            number(Double(position), &out)
            literal(#","count":"#, &out)
            number(Double(size), &out)
            out.append(0x7D)
        }
        if let cell = node.cell {
            key(#","cell":"#, &out)
            literal(#"{"row":"#, &out)
            number(Double(cell.row), &out)
            literal(#","rowSpan":"#, &out)
            number(Double(cell.rowSpan), &out)
            literal(#","column":"#, &out)
            number(Double(cell.column), &out)
            literal(#","columnSpan":"#, &out)
            number(Double(cell.columnSpan), &out)
            out.append(0x7D)
        }
    }

    static func writeBehavior(_ node: AXNode, _ out: inout [UInt8]) {
        if node.largeContent != nil || node.dragDrop != nil {
            var object = JSONObject()
            ElementJSON.appendBehavior(of: node, to: &object)
            members(object, &out)
            return
        }
        if node.containerType != .none { string(#","containerType":"#, node.containerType.rawValue, &out) }
        if node.navigationStyle != .automatic { string(#","navigationStyle":"#, node.navigationStyle.rawValue, &out) }
        optionalString(#","textualContext":"#, node.textualContext, &out)
        if !node.userInputLabels.isEmpty { stringArray(#","userInputLabels":"#, node.userInputLabels, &out) }
        if !node.restrictions.isEmpty { stringArray(#","restrictions":"#, node.restrictions, &out) }
        optionalString(#","text":"#, node.text, &out)
        if node.viewID == nil { literal(#","virtual":true"#, &out) }
        if node.actionTarget != node.id { string(#","actionTarget":"#, node.actionTarget, &out) }
        if !node.directTouchOptions.isEmpty { stringArray(#","directTouchOptions":"#, node.directTouchOptions, &out) }
        if node.ignoresInvertColors { literal(#","ignoresInvertColors":true"#, &out) }
        if !node.automationElements.isEmpty { stringArray(#","automationElements":"#, node.automationElements, &out) }
        if let focusable = node.focus.canBecomeFocused {
            key(#","canBecomeFocused":"#, &out)
            bool(focusable, &out)
        }
        optionalString(#","focusGroupIdentifier":"#, node.focus.groupIdentifier, &out)
    }
}
