import AXJSON

/// One incremental change to the view hierarchy (Specs/hierarchy.md §Patches).
package enum PatchOp: Sendable {
    /// Insert a subtree (a view object with nested `children`) under `parent` (nil = a new top-level window)
    /// at `index` (nil = front-most, i.e. appended, as addSubview does: A2).
    case insert(parent: String?, index: Int?, view: JSON)
    case remove(id: String)
    case move(id: String, parent: String?, index: Int?)
    case set(id: String, properties: JSONObject)

    package var name: String {
        switch self {
        case .insert: return "insert"
        case .remove: return "remove"
        case .move: return "move"
        case .set: return "set"
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
        var o = JSONObject()
        o["reason"] = .string(kind.rawValue)
        if let opIndex { o["opIndex"] = JSON(opIndex) }
        if let op { o["op"] = .string(op) }
        if let id { o["id"] = .string(id) }
        if let property { o["property"] = .string(property) }
        o["message"] = .string(message)
        return .object(o)
    }
}

extension PatchOp {
    /// Decodes the wire form `{"op": "insert"|"remove"|"move"|"set", …}`.
    package static func decode(_ j: JSON, index: Int) throws(PatchError) -> PatchOp {
        func fail(_ m: String, _ op: String? = nil, id: String? = nil) -> PatchError {
            PatchError(kind: .invalidOp, opIndex: index, op: op, id: id, message: m)
        }
        guard case .object(let o) = j else { throw fail("an op must be an object, got \(j.typeName)") }
        guard let opName = o["op"]?.stringValue else { throw fail("missing 'op' (insert, remove, move or set)") }
        func str(_ k: String) throws(PatchError) -> String {
            guard let v = o[k] else { throw fail("missing '\(k)'", opName) }
            guard case .string(let s) = v, !s.isEmpty else { throw fail("'\(k)' must be a non-empty string", opName) }
            return s
        }
        func optStr(_ k: String) throws(PatchError) -> String? {
            guard let v = o[k], !v.isNull else { return nil }
            guard case .string(let s) = v, !s.isEmpty else {
                throw fail("'\(k)' must be a non-empty string or null", opName)
            }
            return s
        }
        func optIndex() throws(PatchError) -> Int? {
            guard let v = o["index"], !v.isNull else { return nil }
            guard let i = v.intValue else {
                throw PatchError(
                    kind: .indexOutOfRange, opIndex: index, op: opName, message: "'index' must be an integer")
            }
            return i
        }
        switch opName {
        case "insert":
            guard let v = o["view"] else { throw fail("missing 'view'", opName) }
            return .insert(parent: try optStr("parent"), index: try optIndex(), view: v)
        case "remove":
            return .remove(id: try str("id"))
        case "move":
            return .move(id: try str("id"), parent: try optStr("parent"), index: try optIndex())
        case "set":
            let id = try str("id")
            guard case .object(let props)? = o["properties"] ?? o["props"] else {
                throw fail("'properties' must be an object", opName, id: id)
            }
            return .set(id: id, properties: props)
        default:
            throw fail("unknown op '\(opName)' (expected insert, remove, move or set)")
        }
    }

    package static func decodeList(_ j: JSON) throws(PatchError) -> [PatchOp] {
        guard case .array(let a) = j else {
            throw PatchError(kind: .invalidOp, message: "'ops' must be an array, got \(j.typeName)")
        }
        guard a.count <= Limits.maxOpsPerPatch else {
            throw PatchError(
                kind: .tooLarge, message: "a patch holds at most \(Limits.maxOpsPerPatch) ops, got \(a.count)")
        }
        var out: [PatchOp] = []
        out.reserveCapacity(a.count)
        for (i, e) in a.enumerated() { out.append(try decode(e, index: i)) }
        return out
    }
}
