import AXCore
import AXJSON
import AXJSONRPC
import AXProtocol

/// `tree.get`'s `fields`: the element fields a client asks for, so a large tree's reply carries only what the
/// test reads (issue 26: `fields: [role, label, value, states, children]` is about a fifth of the full reply).
/// `id` is always sent (it names the element for every later call); `children` keeps the nesting (without it the
/// reply holds the roots only). Each field means what it means in the full element (`ElementJSON.encode`).
package struct TreeFields: Sendable {
    /// The fields `fields` accepts, in the order of the full element.
    package enum Field: String, CaseIterable, Sendable {
        case id, role
        case `class`
        case label, value, hint, identifier, placeholder, traits, states, isElement, frame, activationPoint, parent
        case window, children, language, headingLevel
    }

    /// Every field name `fields` accepts, in the order of the full element.
    package static let accepted = Field.allCases.map(\.rawValue)

    /// The fields asked for.
    package let names: Set<String>
    /// The fields written after `id`, in element order (`children` is the tree walk's).
    let written: [Field]

    /// The fields `names` (unknown names are ignored: `parse` refuses them).
    package init(names: Set<String>) {
        self.names = names
        written = Field.allCases.filter { $0 != .id && $0 != .children && names.contains($0.rawValue) }
    }

    /// Whether the reply nests children.
    package var children: Bool { names.contains("children") }

    /// The `fields` parameter of `tree.get`, or nil when absent (the full elements). Unknown names are −32602
    /// naming the accepted ones.
    static func parse(_ arguments: Params<RPCCatalog.TreeGet.Param>) throws(RPCError) -> TreeFields? {
        guard let list = try arguments.stringList(.fields) else { return nil }
        for name in list where !accepted.contains(name) {
            throw RPCError.invalidParams(
                "tree.get: unknown field '\(String(name.prefix(100)))' (accepted: \(accepted.joined(separator: ", ")))",
                data: [
                    "param": .string(arguments.name(.fields)), "method": .string(arguments.method),
                    "accepted": JSON(accepted),
                ])
        }
        return TreeFields(names: Set(list))
    }

    /// The asked fields of one node (no child list: the tree walk nests children).
    package func encode(_ node: AXNode, focusedID: String?) -> JSONObject {
        var object = JSONObject(minimumCapacity: names.count + 1)
        object.appendUnchecked("id", .string(node.id))
        for name in Self.accepted where name != "id" && name != "children" && names.contains(name) {
            if let value = field(name, of: node, focusedID: focusedID) { object.appendUnchecked(name, value) }
        }
        return object
    }

    /// Appends the asked fields of one node (as `encode` serialized) after its opening brace.
    package func writeMembers(_ node: AXNode, focusedID: String?, into out: inout ByteWriter) {
        ElementWriter.key(#""id":"#, &out)
        out.jsonString(node.id)
        for field in written {
            if let text = Self.text(of: field, node) {
                out.byte(0x2C)
                out.jsonString(field.rawValue)
                out.byte(0x3A)
                out.jsonString(text)
            } else {
                Self.writeStructured(field, of: node, focusedID: focusedID, into: &out)
            }
        }
    }

    /// The value of a string field, nil when absent or not a string field.
    private static func text(of field: Field, _ node: AXNode) -> String? {
        switch field {
        case .role: return node.role.rawValue
        case .class: return node.className
        case .label: return node.label
        case .value: return node.value
        case .hint: return node.hint
        case .identifier: return node.identifier
        case .placeholder: return node.placeholder
        case .parent: return node.parent
        case .language: return node.language
        case .window: return node.windowID
        case .id, .children, .traits, .states, .isElement, .frame, .activationPoint, .headingLevel: return nil
        }
    }

    /// Writes a field that is not a string (nothing for an absent string field).
    private static func writeStructured(
        _ field: Field, of node: AXNode, focusedID: String?, into out: inout ByteWriter
    ) {
        switch field {
        case .traits: ElementWriter.traits(node.traits, &out)
        case .states: ElementWriter.states(node, focusedID: focusedID, &out)
        case .isElement:
            ElementWriter.key(#","isElement":"#, &out)
            ElementWriter.bool(node.isElement, &out)
        case .frame:
            ElementWriter.key(#","frame":"#, &out)
            ElementWriter.rect(node.frame, &out)
        case .activationPoint:
            ElementWriter.key(#","activationPoint":"#, &out)
            ElementWriter.point(node.activationPoint, &out)
        case .headingLevel:
            guard let level = node.headingLevel else { return }
            ElementWriter.key(#","headingLevel":"#, &out)
            ElementWriter.number(Double(level), &out)
        case .id, .children, .role, .class, .label, .value, .hint, .identifier, .placeholder, .parent, .language,
            .window:
            return
        }
    }

    private func field(_ name: String, of node: AXNode, focusedID: String?) -> JSON? {
        switch name {
        case "role": return .string(node.role.rawValue)
        case "class": return .string(node.className)
        case "label", "value", "hint", "identifier", "placeholder", "parent", "language":
            return optionalStringField(name, of: node).map { .string($0) }
        case "traits": return .array(node.traits.names.map { .string($0) })
        case "states":
            var states = node.states.names.map { JSON.string($0) }
            if focusedID == node.id { states.append("focused") }
            return .array(states)
        case "isElement": return .bool(node.isElement)
        case "frame": return ElementJSON.rect(node.frame)
        case "activationPoint": return ElementJSON.point(node.activationPoint)
        case "window": return .string(node.windowID)
        case "headingLevel": return node.headingLevel.map { JSON($0) }
        default: return nil
        }
    }

    /// The fields that are absent when the node has no such string.
    private func optionalStringField(_ name: String, of node: AXNode) -> String? {
        switch name {
        case "label": return node.label
        case "value": return node.value
        case "hint": return node.hint
        case "identifier": return node.identifier
        case "placeholder": return node.placeholder
        case "parent": return node.parent
        default: return node.language
        }
    }
}
