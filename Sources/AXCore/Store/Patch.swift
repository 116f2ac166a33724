import AXJSON

/// One incremental change to the view hierarchy (Specs/hierarchy.md §Patches).
package enum PatchOp: Sendable {
    /// Insert a subtree (a view object with nested `children`) under `parent` (nil = a new top-level window)
    /// at `index` (nil = front-most, i.e. appended, as addSubview does: A2).
    case insert(parent: String?, index: Int?, view: JSON)
    case remove(id: String)
    case move(id: String, parent: String?, index: Int?)
    case set(id: String, properties: JSONObject)
    /// Replace the Unicode-scalar range `location ..< location + length` of view `id`'s `text` by `text`: an
    /// editor's keystroke costs the edit, not the file (D-TEXT-SPLICE-1).
    case splice(id: String, location: Int, length: Int, text: String)

    package var name: String {
        switch self {
        case .insert: return "insert"
        case .remove: return "remove"
        case .move: return "move"
        case .set: return "set"
        case .splice: return "splice"
        }
    }
}

/// Why a snapshot or patch was refused. The tree is left exactly as it was.
package struct PatchError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        case invalidOp, duplicateId, unknownId, cycle, multipleParents, indexOutOfRange, invalidGeometry,
            invalidProperty, tooDeep, tooLarge, invalidSnapshot
    }
    package var kind: Kind
    /// Index of the failing op within the patch (nil for snapshots).
    package var opIndex: Int?
    package var op: String?
    package var id: String?
    package var property: String?
    package var message: String

    package init(
        kind: Kind, opIndex: Int? = nil, op: String? = nil, id: String? = nil, property: String? = nil, message: String
    ) {
        self.kind = kind
        self.opIndex = opIndex
        self.op = op
        self.id = id
        self.property = property
        self.message = message
    }

    package var description: String {
        var parts: [String] = []
        if let opIndex, let op { parts.append("op #\(opIndex) (\(op))") } else if let op { parts.append(op) }
        if let id { parts.append("id '\(id)'") }
        if let property { parts.append("property '\(property)'") }
        return (parts.isEmpty ? "" : parts.joined(separator: ", ") + ": ") + message
    }

    package var json: JSON {
        var object = JSONObject()
        object["reason"] = .string(kind.rawValue)
        if let opIndex { object["opIndex"] = JSON(opIndex) }
        if let op { object["op"] = .string(op) }
        if let id { object["id"] = .string(id) }
        if let property { object["property"] = .string(property) }
        object["message"] = .string(message)
        return .object(object)
    }
}

extension PatchOp {
    /// Decodes the wire form `{"op": "insert"|"remove"|"move"|"set", …}`.
    package static func decode(_ json: JSON, index: Int) throws(PatchError) -> PatchOp {
        func fail(_ message: String, _ op: String? = nil, id: String? = nil) -> PatchError {
            PatchError(kind: .invalidOp, opIndex: index, op: op, id: id, message: message)
        }
        guard case .object(let object) = json else { throw fail("an op must be an object, got \(json.typeName)") }
        guard let opName = object["op"]?.stringValue else {
            throw fail("missing 'op' (insert, remove, move, set or splice)")
        }
        func str(_ key: String) throws(PatchError) -> String {
            guard let value = object[key] else { throw fail("missing '\(key)'", opName) }
            guard case .string(let text) = value, !text.isEmpty else {
                throw fail("'\(key)' must be a non-empty string", opName)
            }
            return text
        }
        func optStr(_ key: String) throws(PatchError) -> String? {
            guard let value = object[key], !value.isNull else { return nil }
            guard case .string(let text) = value, !text.isEmpty else {
                throw fail("'\(key)' must be a non-empty string or null", opName)
            }
            return text
        }
        func optIndex() throws(PatchError) -> Int? {
            guard let value = object["index"], !value.isNull else { return nil }
            guard let position = value.intValue else {
                throw PatchError(
                    kind: .indexOutOfRange, opIndex: index, op: opName, message: "'index' must be an integer")
            }
            return position
        }
        switch opName {
        case "insert":
            guard let value = object["view"] else { throw fail("missing 'view'", opName) }
            return .insert(parent: try optStr("parent"), index: try optIndex(), view: value)
        case "remove":
            return .remove(id: try str("id"))
        case "move":
            return .move(id: try str("id"), parent: try optStr("parent"), index: try optIndex())
        case "set":
            let id = try str("id")
            guard case .object(let props)? = object["properties"] ?? object["props"] else {
                throw fail("'properties' must be an object", opName, id: id)
            }
            return .set(id: id, properties: props)
        case "splice":
            return try decodeSplice(object, index: index)
        default:
            throw fail("unknown op '\(opName)' (expected insert, remove, move, set or splice)")
        }
    }

    package static func decodeList(_ json: JSON) throws(PatchError) -> [PatchOp] {
        guard case .array(let elements) = json else {
            throw PatchError(kind: .invalidOp, message: "'ops' must be an array, got \(json.typeName)")
        }
        guard elements.count <= Limits.maxOpsPerPatch else {
            throw PatchError(
                kind: .tooLarge,
                message:
                    "a patch holds at most \(Limits.maxOpsPerPatch) ops, got \(elements.count); split it into several "
                    + "hierarchy.update calls of at most \(Limits.maxOpsPerPatch) ops (each applies atomically), or send "
                    + "the whole tree with hierarchy.set (D-REL-5)")
        }
        var out: [PatchOp] = []
        out.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() { out.append(try decode(element, index: index)) }
        return out
    }
}
