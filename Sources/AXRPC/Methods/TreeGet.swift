import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXQuery

/// `tree.get` (Specs/protocol.md §Tree): the reply is written straight into the response buffer as the tree
/// is walked (issue 35 item 1), with no `JSON` value per element; `value(_:)` builds the same reply as a `JSON`
/// value, the reference the streamed bytes are checked against (`TreeGetWriterTests`, `axbench --treeget-mbps`).
package enum TreeGet {
    /// A checked `tree.get` request.
    package struct Request {
        package var snap: AppSnapshot
        package var format: String
        package var rootID: String?
        package var depth: Int?
        package var maxChildren: Int?
        package var fields: TreeFields?
        package var frames = false
    }

    /// Checks the params (the same errors, in the same order, as before the reply was streamed).
    package static func request(_ params: JSON?, _ session: RPCSession, _ hub: Hub) throws(RPCError) -> Request {
        let arguments = try Params(params, method: "tree.get")
        let snap = try AXMethods.snapshot(arguments, hub, session)
        let format = try arguments.string("format") ?? "json"
        var rootID: String?
        if let rootTarget = arguments["root"] {
            rootID = try Targets.resolveOne(rootTarget, in: snap, hub: hub, method: "tree.get", param: "root")
        }
        let depth = try arguments.int("depth", in: ParamRange.count)
        let maxChildren = try arguments.int("maxChildren", in: ParamRange.count)
        let fields = try TreeFields.parse(arguments)
        var request = Request(
            snap: snap, format: format, rootID: rootID, depth: depth, maxChildren: maxChildren, fields: fields)
        switch format {
        case "json", "xml": break
        case "text": request.frames = try arguments.bool("frames") ?? false
        default: throw arguments.bad("format", "must be json, text or xml")
        }
        return request
    }

    /// Writes the reply object for `request` into `out`.
    package static func write(_ request: Request, into out: inout [UInt8]) {
        let snap = request.snap
        let start = out.count
        defer { HeapRelease.afterLargeReply(bytes: out.count - start) }
        ElementWriter.literal(#"{"app":"#, &out)
        JSON.serializeString(snap.id, into: &out)
        ElementWriter.key(#","revision":"#, &out)
        JSON.serializeNumber(Double(snap.revision), into: &out)
        ElementWriter.string(#","format":"#, request.format, &out)
        switch request.format {
        case "text":
            ElementWriter.string(
                #","text":"#,
                TreeText.render(snap.tree, root: request.rootID, frames: request.frames, depth: request.depth), &out)
        case "xml":
            ElementWriter.key(#","xml":"#, &out)
            var xml: [UInt8] = []
            TreeXML.write(snap.tree, into: &xml)
            xml.withUnsafeBufferPointer { JSON.serializeString(utf8: $0, into: &out) }
        default:
            var walker = TreeJSONWalker(request)
            out.reserveCapacity(out.count + snap.tree.count * (request.fields == nil ? 400 : 100) + 256)
            ElementWriter.key(#","windows":"#, &out)
            walker.writeList(request.rootID.map { [$0] } ?? snap.tree.windows, level: 0, into: &out)
            ElementWriter.key(#","count":"#, &out)
            JSON.serializeNumber(Double(walker.count), into: &out)
            ElementWriter.key(#","truncated":"#, &out)
            out.append(0x5B)
            for (index, entry) in walker.truncated.enumerated() {
                if index > 0 { out.append(0x2C) }
                out.append(0x7B)
                ElementWriter.key(#""id":"#, &out)
                JSON.serializeString(entry.id, into: &out)
                TreeJSONWalker.writeTruncation(entry.kind, omitted: entry.omitted, into: &out)
                out.append(0x7D)
            }
            out.append(0x5D)
        }
        out.append(0x7D)
    }

    /// The reply for `request` as a `JSON` value: the reference `write` is checked against.
    package static func value(_ request: Request) -> JSON {
        let snap = request.snap
        let fields = request.fields
        var out: JSONObject = [
            "app": .string(snap.id), "revision": JSON(snap.revision), "format": .string(request.format),
        ]
        switch request.format {
        case "text":
            out["text"] = .string(
                TreeText.render(snap.tree, root: request.rootID, frames: request.frames, depth: request.depth))
        case "xml":
            out["xml"] = .string(XMLPageSource.xml(snap.tree))
        default:
            var truncated: [JSON] = []
            var count = 0
            func node(_ id: String, _ level: Int) -> JSON? {
                guard let treeNode = snap.tree[id] else { return nil }
                count += 1
                var object =
                    fields?.encode(treeNode, focusedID: snap.focusedID)
                    ?? ElementJSON.encode(treeNode, focusedID: snap.focusedID, childIDs: false)
                if !treeNode.children.isEmpty && fields?.children != false {
                    if let depth = request.depth, level >= depth {
                        object["truncated"] = ["kind": "depth", "omitted": JSON(treeNode.children.count)]
                        truncated.append(["id": .string(id), "kind": "depth", "omitted": JSON(treeNode.children.count)])
                    } else {
                        let limit = request.maxChildren ?? Int.max
                        let kids = treeNode.children.prefix(limit).compactMap { node($0, level + 1) }
                        object.appendUnchecked("children", .array(kids))
                        if treeNode.children.count > limit {
                            let omitted = JSON(treeNode.children.count - limit)
                            object["truncated"] = ["kind": "children", "omitted": omitted]
                            truncated.append(["id": .string(id), "kind": "children", "omitted": omitted])
                        }
                    }
                }
                return .object(object)
            }
            let roots = request.rootID.map { [$0] } ?? snap.tree.windows
            out["windows"] = .array(roots.compactMap { node($0, 0) })
            out["count"] = JSON(count)
            out["truncated"] = .array(truncated)
        }
        return .object(out)
    }
}

/// The depth-first walk of `tree.get`'s JSON form: elements written as they are visited, the count and the
/// truncation list gathered for the members after `windows`.
struct TreeJSONWalker {
    enum Truncation {
        case depth, children
    }

    let tree: AXTree
    let focusedID: String?
    let depth: Int?
    let maxChildren: Int
    let fields: TreeFields?
    let nests: Bool
    var count = 0
    var truncated: [(id: String, kind: Truncation, omitted: Int)] = []

    init(_ request: TreeGet.Request) {
        tree = request.snap.tree
        focusedID = request.snap.focusedID
        depth = request.depth
        maxChildren = request.maxChildren ?? Int.max
        fields = request.fields
        nests = request.fields?.children != false
    }

    /// `"kind":…,"omitted":N`, after a comma unless `first` (the object's first members).
    static func writeTruncation(_ kind: Truncation, omitted: Int, into out: inout [UInt8], first: Bool = false) {
        if !first { out.append(0x2C) }
        switch kind {
        case .depth: ElementWriter.literal(#""kind":"depth","omitted":"#, &out)
        case .children: ElementWriter.literal(#""kind":"children","omitted":"#, &out)
        }
        JSON.serializeNumber(Double(omitted), into: &out)
    }

    /// `[element,…]` for the ids that name nodes (others are skipped, as before).
    mutating func writeList<IDs: Collection<String>>(_ ids: IDs, level: Int, into out: inout [UInt8]) {
        out.append(0x5B)
        var first = true
        for id in ids {
            guard let node = tree[id] else { continue }
            if first { first = false } else { out.append(0x2C) }
            writeNode(node, level: level, into: &out)
        }
        out.append(0x5D)
    }

    mutating func writeNode(_ node: AXNode, level: Int, into out: inout [UInt8]) {
        count += 1
        out.append(0x7B)
        if let fields {
            fields.writeMembers(node, focusedID: focusedID, into: &out)
        } else {
            ElementWriter.writeMembers(node, focusedID: focusedID, childIDs: false, into: &out)
        }
        if !node.children.isEmpty && nests {
            if let depth, level >= depth {
                ElementWriter.key(#","truncated":"#, &out)
                out.append(0x7B)
                Self.writeTruncation(.depth, omitted: node.children.count, into: &out, first: true)
                out.append(0x7D)
                truncated.append((node.id, .depth, node.children.count))
            } else {
                ElementWriter.key(#","children":"#, &out)
                writeList(node.children.prefix(maxChildren), level: level + 1, into: &out)
                if node.children.count > maxChildren {
                    let omitted = node.children.count - maxChildren
                    ElementWriter.key(#","truncated":"#, &out)
                    out.append(0x7B)
                    Self.writeTruncation(.children, omitted: omitted, into: &out, first: true)
                    out.append(0x7D)
                    truncated.append((node.id, .children, omitted))
                }
            }
        }
        out.append(0x7D)
    }

}
