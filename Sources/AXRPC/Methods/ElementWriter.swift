import AXCore
import AXJSON

/// Writes the element form (`ElementJSON.encode`, Specs/protocol.md §Common shapes, element) straight into a
/// reply buffer, byte for byte what serializing `ElementJSON.encode` writes, without building a `JSON` value per
/// element (issue 35 item 1). Common members are written directly through a `ByteWriter` (D-PERF-5); the rare
/// compound ones (custom actions and rotors, a table, large content, drag and drop, app text content) are built by
/// `ElementJSON` and serialized, so their form is declared once. `ElementWriterTests` pins the two encoders together.
package enum ElementWriter {
    /// Appends a member's head: a plain ASCII literal such as `,"role":` (comma, quoted key, colon; no comma for
    /// an object's first member), written in one copy.
    @inline(__always) static func key(_ head: StaticString, _ out: inout ByteWriter) {
        out.literal(head)
    }

    @inline(__always) static func literal(_ text: StaticString, _ out: inout ByteWriter) {
        out.literal(text)
    }

    @inline(__always) static func string(_ head: StaticString, _ value: String, _ out: inout ByteWriter) {
        out.literal(head)
        out.jsonString(value)
    }

    @inline(__always) static func optionalString(_ head: StaticString, _ value: String?, _ out: inout ByteWriter) {
        guard let value else { return }
        string(head, value, &out)
    }

    @inline(__always) static func number(_ value: Double, _ out: inout ByteWriter) {
        out.number(value)
    }

    static func bool(_ flag: Bool, _ out: inout ByteWriter) {
        if flag { out.literal("true") } else { out.literal("false") }
    }

    static func stringArray(_ head: StaticString, _ values: [String], _ out: inout ByteWriter) {
        out.literal(head)
        out.byte(0x5B)
        for index in values.indices {
            if index > 0 { out.byte(0x2C) }
            out.jsonString(values[index])
        }
        out.byte(0x5D)
    }

    /// `{"x":…,"y":…,"width":…,"height":…}` as `ElementJSON.rect`.
    static func rect(_ rect: Rect, _ out: inout ByteWriter) {
        literal(#"{"x":"#, &out)
        number(rect.x, &out)
        literal(#","y":"#, &out)
        number(rect.y, &out)
        literal(#","width":"#, &out)
        number(rect.width, &out)
        literal(#","height":"#, &out)
        number(rect.height, &out)
        out.byte(0x7D)
    }

    /// `{"x":…,"y":…}` as `ElementJSON.point`.
    static func point(_ point: Point, _ out: inout ByteWriter) {
        literal(#"{"x":"#, &out)
        number(point.x, &out)
        literal(#","y":"#, &out)
        number(point.y, &out)
        out.byte(0x7D)
    }

    /// The members of `object`, each preceded by a comma (the rare compound members, built by `ElementJSON`).
    static func members(_ object: JSONObject, _ out: inout ByteWriter) {
        var bytes: [UInt8] = []
        for (name, value) in zip(object.keys, object.values) {
            bytes.append(0x2C)
            JSON.serializeString(name, into: &bytes)
            bytes.append(0x3A)
            value.serialize(into: &bytes)
        }
        bytes.withUnsafeBufferPointer { out.bytes($0) }
    }

    /// The JSON names of a flag set's members (`"button"`, …) in one byte array, each member's byte range found by
    /// its bit: written with no `String` and no reference count per element. The tables (`Traits.named`,
    /// `AXStates.named`) list single bits in ascending order, so writing the set bits lowest first writes them in
    /// table order, visiting only the bits that are set.
    struct FlagNames {
        let bytes: [UInt8]
        /// By bit index: the bit's quoted name in `bytes` (an empty range for a bit without a name).
        let ranges: [Range<Int>]
        /// The bits that have a name (others are not written).
        let named: UInt64

        init(_ table: [(name: String, mask: UInt64)]) {
            precondition(
                table.allSatisfy { $0.mask.nonzeroBitCount == 1 }
                    && zip(table, table.dropFirst()).allSatisfy { $0.mask < $1.mask },
                "a flag table lists single bits in ascending order")
            var bytes: [UInt8] = []
            var ranges = [Range<Int>](repeating: 0..<0, count: UInt64.bitWidth)
            var named: UInt64 = 0
            for (name, mask) in table {
                let start = bytes.count
                JSON.serializeString(name, into: &bytes)
                ranges[mask.trailingZeroBitCount] = start..<bytes.count
                named |= mask
            }
            self.bytes = bytes
            self.ranges = ranges
            self.named = named
        }

        /// Appends `[name,…]` for the members set in `bits` (table order), then `extra` when given.
        func write(_ bits: UInt64, extra: StaticString?, into out: inout ByteWriter) {
            out.byte(0x5B)
            var first = true
            var remaining = bits & named
            if remaining != 0 {
                bytes.withUnsafeBufferPointer { names in
                    ranges.withUnsafeBufferPointer { ranges in
                        while remaining != 0 {
                            let range = ranges[remaining.trailingZeroBitCount]
                            remaining &= remaining &- 1
                            if first { first = false } else { out.byte(0x2C) }
                            out.bytes(UnsafeBufferPointer(rebasing: names[range]))
                        }
                    }
                }
            }
            if let extra {
                if !first { out.byte(0x2C) }
                out.literal(extra)
            }
            out.byte(0x5D)
        }
    }

    static let traitNames = FlagNames(Traits.named.map { (name: $0.name, mask: $0.trait.rawValue) })
    static let stateNames = FlagNames(AXStates.named.map { (name: $0.0, mask: UInt64($0.1.rawValue)) })

    static func traits(_ traits: Traits, _ out: inout ByteWriter) {
        key(#","traits":"#, &out)
        traitNames.write(traits.rawValue, extra: nil, into: &out)
    }

    static func states(_ node: AXNode, focusedID: String?, _ out: inout ByteWriter) {
        key(#","states":"#, &out)
        stateNames.write(UInt64(node.states.rawValue), extra: focusedID == node.id ? #""focused""# : nil, into: &out)
    }

    /// Appends one element's members after its opening brace, without the closing brace (the tree walk may add
    /// `children` and `truncated`); `childIDs` true includes the child id list.
    package static func writeMembers(
        _ node: AXNode, focusedID: String?, childIDs: Bool, into out: inout ByteWriter
    ) {
        // The rarely-set members are read from the node's extras: one access, where each of its properties is an
        // accessor of its own (some of which allocate). Most nodes share the default extras: for those the writer
        // is specialised for `NoExtras`, whose members are constants, so nothing is read or copied (the extras
        // are 440 bytes with ~20 reference counts).
        if node.hasSharedDefaultExtras {
            writeMembers(node, NoExtras(), focusedID: focusedID, childIDs: childIDs, into: &out)
        } else {
            writeMembers(node, node.extras, focusedID: focusedID, childIDs: childIDs, into: &out)
        }
    }

    static func writeMembers<Extras: ElementExtras>(
        _ node: AXNode, _ extras: Extras, focusedID: String?, childIDs: Bool, into out: inout ByteWriter
    ) {
        key(#""id":"#, &out)
        out.jsonString(node.id)
        string(#","role":"#, node.role.rawValue, &out)
        string(#","class":"#, node.className, &out)
        optionalString(#","label":"#, node.label, &out)
        optionalString(#","value":"#, node.value, &out)
        optionalString(#","hint":"#, extras.hint, &out)
        optionalString(#","identifier":"#, node.identifier, &out)
        optionalString(#","placeholder":"#, extras.placeholder, &out)
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
        optionalString(#","language":"#, extras.language, &out)
        if let level = extras.headingLevel {
            key(#","headingLevel":"#, &out)
            number(Double(level), &out)
        }
        writeActions(node, extras, &out)
        writeValueAndGrid(node, extras, &out)
        writeBehavior(node, extras, &out)
        if extras.textContent != nil {
            var object = JSONObject()
            TextContentJSON.append(node, to: &object)
            members(object, &out)
        }
    }

    /// One whole element (`ElementJSON.encode`), braces included.
    package static func write(_ node: AXNode, focusedID: String?, childIDs: Bool, into out: inout ByteWriter) {
        out.byte(0x7B)
        writeMembers(node, focusedID: focusedID, childIDs: childIDs, into: &out)
        out.byte(0x7D)
    }

    /// One whole element appended to a byte array (`write` through a `ByteWriter`).
    package static func write(_ node: AXNode, focusedID: String?, childIDs: Bool, into out: inout [UInt8]) {
        ByteWriter.appending(to: &out) { writer in write(node, focusedID: focusedID, childIDs: childIDs, into: &writer)
        }
    }

    static func writeActions<Extras: ElementExtras>(_ node: AXNode, _ extras: Extras, _ out: inout ByteWriter) {
        if !Extras.alwaysDefault, !extras.customActions.isEmpty || !extras.rotors.isEmpty {
            var object = JSONObject()
            ElementJSON.appendActions(of: node, to: &object)
            members(object, &out)
            return
        }
        guard !node.actions.isEmpty else { return }
        key(#","actions":"#, &out)
        out.byte(0x5B)
        for index in node.actions.indices {
            let action = node.actions[index]
            if index > 0 { out.byte(0x2C) }
            out.jsonString(action.rawValue)
        }
        out.byte(0x5D)
    }

    static func writeValueAndGrid<Extras: ElementExtras>(_ node: AXNode, _ extras: Extras, _ out: inout ByteWriter) {
        if !Extras.alwaysDefault, extras.table != nil {
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
            out.byte(0x7D)
        }
        if !Extras.alwaysDefault, let position = extras.positionInSet, let size = extras.sizeOfSet {
            key(#","position":"#, &out)
            literal(#"{"index":"#, &out)
            number(Double(position), &out)
            literal(#","count":"#, &out)
            number(Double(size), &out)
            out.byte(0x7D)
        }
        if !Extras.alwaysDefault, let cell = extras.cell {
            key(#","cell":"#, &out)
            literal(#"{"row":"#, &out)
            number(Double(cell.row), &out)
            literal(#","rowSpan":"#, &out)
            number(Double(cell.rowSpan), &out)
            literal(#","column":"#, &out)
            number(Double(cell.column), &out)
            literal(#","columnSpan":"#, &out)
            number(Double(cell.columnSpan), &out)
            out.byte(0x7D)
        }
    }

    static func writeBehavior<Extras: ElementExtras>(_ node: AXNode, _ extras: Extras, _ out: inout ByteWriter) {
        if !Extras.alwaysDefault {
            if extras.largeContent != nil || extras.dragDrop != nil {
                var object = JSONObject()
                ElementJSON.appendBehavior(of: node, to: &object)
                members(object, &out)
                return
            }
            if extras.containerType != .none { string(#","containerType":"#, extras.containerType.rawValue, &out) }
            if extras.navigationStyle != .automatic {
                string(#","navigationStyle":"#, extras.navigationStyle.rawValue, &out)
            }
            optionalString(#","textualContext":"#, extras.textualContext, &out)
            if !extras.userInputLabels.isEmpty { stringArray(#","userInputLabels":"#, extras.userInputLabels, &out) }
            if !extras.restrictions.isEmpty { stringArray(#","restrictions":"#, extras.restrictions, &out) }
        }
        optionalString(#","text":"#, node.text, &out)
        if node.viewID == nil { literal(#","virtual":true"#, &out) }
        if node.actionTarget != node.id { string(#","actionTarget":"#, node.actionTarget, &out) }
        guard !Extras.alwaysDefault else { return }
        if !extras.directTouchOptions.isEmpty {
            stringArray(#","directTouchOptions":"#, extras.directTouchOptions, &out)
        }
        if extras.ignoresInvertColors { literal(#","ignoresInvertColors":true"#, &out) }
        if !extras.automationElements.isEmpty {
            stringArray(#","automationElements":"#, extras.automationElements, &out)
        }
        if let focusable = extras.focus.canBecomeFocused {
            key(#","canBecomeFocused":"#, &out)
            bool(focusable, &out)
        }
        optionalString(#","focusGroupIdentifier":"#, extras.focus.groupIdentifier, &out)
    }
}

/// The rarely-set properties `ElementWriter` reads: `AXNodeExtras` itself, or `NoExtras` for the many nodes that
/// share the default extras (D-PERF-8).
protocol ElementExtras {
    /// True when every property is at its default whatever the value (`NoExtras`): the writer specialised for
    /// such a type leaves out every branch that reads one, at compile time.
    static var alwaysDefault: Bool { get }
    var hint: String? { get }
    var placeholder: String? { get }
    var language: String? { get }
    var headingLevel: Int? { get }
    var containerType: ContainerType { get }
    var navigationStyle: NavigationStyle { get }
    var textualContext: String? { get }
    var userInputLabels: [String] { get }
    var customActions: [CustomAction] { get }
    var rotors: [CustomRotor] { get }
    var positionInSet: Int? { get }
    var sizeOfSet: Int? { get }
    var table: AXTableInfo? { get }
    var cell: AXCellInfo? { get }
    var restrictions: [String] { get }
    var focus: FocusProperties { get }
    var directTouchOptions: [String] { get }
    var automationElements: [String] { get }
    var ignoresInvertColors: Bool { get }
    var largeContent: LargeContent? { get }
    var textContent: AXTextContent? { get }
    var dragDrop: DragDropDescriptors? { get }
}

extension AXNodeExtras: ElementExtras {
    static var alwaysDefault: Bool { false }
}

/// Every rarely-set property at its default, as `AXNodeExtras()` has them (`TreeGetWriterTests` compares the
/// element writer with `ElementJSON` on nodes with and without extras).
struct NoExtras: ElementExtras {
    static var alwaysDefault: Bool { true }
    var hint: String? { nil }
    var placeholder: String? { nil }
    var language: String? { nil }
    var headingLevel: Int? { nil }
    var containerType: ContainerType { .none }
    var navigationStyle: NavigationStyle { .automatic }
    var textualContext: String? { nil }
    var userInputLabels: [String] { [] }
    var customActions: [CustomAction] { [] }
    var rotors: [CustomRotor] { [] }
    var positionInSet: Int? { nil }
    var sizeOfSet: Int? { nil }
    var table: AXTableInfo? { nil }
    var cell: AXCellInfo? { nil }
    var restrictions: [String] { [] }
    var focus: FocusProperties { FocusProperties() }
    var directTouchOptions: [String] { [] }
    var automationElements: [String] { [] }
    var ignoresInvertColors: Bool { false }
    var largeContent: LargeContent? { nil }
    var textContent: AXTextContent? { nil }
    var dragDrop: DragDropDescriptors? { nil }
}
