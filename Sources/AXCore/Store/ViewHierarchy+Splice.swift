import AXJSON

extension PatchOp {
    /// Decodes `{"op": "splice", "id", "location", "length", "text"}` (D-TEXT-SPLICE-1).
    static func decodeSplice(_ object: JSONObject, index: Int) throws(PatchError) -> PatchOp {
        func fail(_ message: String, id: String? = nil, kind: PatchError.Kind = .invalidOp) -> PatchError {
            PatchError(kind: kind, opIndex: index, op: "splice", id: id, message: message)
        }
        guard case .string(let id)? = object["id"], !id.isEmpty else { throw fail("'id' must be a non-empty string") }
        func offset(_ key: String) throws(PatchError) -> Int {
            guard let value = object[key]?.intValue, value >= 0 else {
                throw fail("'\(key)' must be an integer ≥ 0 (a character offset)", id: id, kind: .indexOutOfRange)
            }
            return value
        }
        guard case .string(let text)? = object["text"] else {
            throw fail("'text' must be a string (the replacement; \"\" deletes)", id: id)
        }
        guard text.utf8.count <= EditableTextContent.maxBytes else {
            throw fail("'text' longer than \(EditableTextContent.maxBytes) bytes", id: id, kind: .tooLarge)
        }
        return .splice(id: id, location: try offset("location"), length: try offset("length"), text: text)
    }
}

extension ViewHierarchy {
    /// Applies a `splice` op to view `id`'s `text` (nil text is empty). The result obeys the limit a `set` of the
    /// whole text would: `EditableTextContent.maxBytes` for text inputs, 64 KiB for other views.
    mutating func spliceText(id: String, location: Int, length: Int, replacement: String) throws(PatchError) {
        guard var view = nodes[id] else {
            throw PatchError(kind: .unknownId, id: id, message: "no view '\(id)' to splice text in")
        }
        let edited: String
        do {
            edited = try EditableTextContent.splice(
                view.control.text, location: location, length: length, replacement: replacement)
        } catch {
            var located = error
            located.id = id
            throw located
        }
        let limit = EditableTextContent.allowsLongText(view.kind) ? EditableTextContent.maxBytes : Limits.maxStringBytes
        guard edited.utf8.count <= limit else {
            throw PatchError(
                kind: .tooLarge, id: id, property: "text",
                message: "the spliced text would be longer than \(limit) bytes")
        }
        view.control.text = edited
        nodes[id] = view
    }
}
