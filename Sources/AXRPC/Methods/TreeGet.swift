import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol
import AXQuery
import HashTreeCollections

/// `tree.get` (Specs/protocol.md §Tree): the reply is written straight into the response buffer as the tree
/// is walked (issue 35 item 1), with no `JSON` value per element; `value(_:)` builds the same reply as a `JSON`
/// value, the reference the streamed bytes are checked against (`TreeGetWriterTests`, `axbench --treeget-mbps`).
package enum TreeGet {
    /// A checked `tree.get` request.
    package struct Request {
        package var snap: AppSnapshot
        package var format: RPCCatalog.TreeGet.Format
        package var rootID: String?
        package var depth: Int?
        package var maxChildren: Int?
        package var fields: TreeFields?
        package var frames = false
    }

    /// Checks the params (the same errors, in the same order, as before the reply was streamed).
    package static func request(_ params: JSON?, _ session: RPCSession, _ hub: Hub) throws(RPCError) -> Request {
        let arguments = try Params(params, RPCCatalog.TreeGet.self)
        let snap = try AXMethods.snapshot(arguments, hub, session)
        let format = try arguments.oneOf(.format, RPCCatalog.TreeGet.Format.self) ?? .json
        var rootID: String?
        if let rootTarget = arguments[.root] {
            rootID = try Targets.resolveOne(
                rootTarget, in: snap, hub: hub, method: RPCMethodName.treeGet.rawValue, param: arguments.name(.root))
        }
        let depth = try arguments.int(.depth, in: ParamRange.count)
        let maxChildren = try arguments.int(.maxChildren, in: ParamRange.count)
        let fields = try TreeFields.parse(arguments)
        var request = Request(
            snap: snap, format: format, rootID: rootID, depth: depth, maxChildren: maxChildren, fields: fields)
        switch format {
        case .json, .xml: break
        case .text: request.frames = try arguments.bool(.frames) ?? false
        }
        return request
    }

    /// Writes the reply object for `request` into `out`.
    package static func write(_ request: Request, into out: inout [UInt8]) {
        let start = out.count
        defer { HeapRelease.afterLargeReply(bytes: out.count - start) }
        ByteWriter.appending(to: &out) { writer in write(request, into: &writer) }
    }

    /// Writes the reply object for `request` through `out`.
    static func write(_ request: Request, into out: inout ByteWriter) {
        let snap = request.snap
        out.literal(#"{"app":"#)
        out.jsonString(snap.id)
        out.literal(#","revision":"#)
        out.number(Double(snap.revision))
        ElementWriter.string(#","format":"#, request.format.rawValue, &out)
        switch request.format {
        case .text:
            ElementWriter.string(
                #","text":"#,
                TreeText.render(snap.tree, root: request.rootID, frames: request.frames, depth: request.depth), &out)
        case .xml:
            // The page source written as the string's content in one pass (D-PERF-7), no page-source buffer.
            out.literal(#","xml":""#)
            TreeXML.writeJSONStringContent(snap.tree, into: &out)
            out.byte(0x22)
        case .json:
            var walker = TreeJSONWalker(request)
            out.reserveCapacity(snap.tree.count * (request.fields == nil ? 400 : 100) + 256)
            out.literal(#","windows":"#)
            if let rootID = request.rootID {
                walker.writeList(CollectionOfOne(rootID), level: 0, into: &out)
            } else {
                walker.writeList(snap.tree.windows, level: 0, into: &out)
            }
            out.literal(#","count":"#)
            out.number(Double(walker.count))
            out.literal(#","truncated":"#)
            out.byte(0x5B)
            for (index, entry) in walker.truncated.enumerated() {
                if index > 0 { out.byte(0x2C) }
                out.literal(#"{"id":"#)
                out.jsonString(entry.id)
                TreeJSONWalker.writeTruncation(entry.kind, omitted: entry.omitted, into: &out)
                out.byte(0x7D)
            }
            out.byte(0x5D)
        }
        out.byte(0x7D)
    }

    /// The reply for `request` as a `JSON` value: the reference `write` is checked against.
    package static func value(_ request: Request) -> JSON {
        let snap = request.snap
        let fields = request.fields
        var out: RPCResultObject<RPCCatalog.TreeGet.Member> = [
            .app: .string(snap.id), .revision: JSON(snap.revision), .format: .string(request.format.rawValue),
        ]
        switch request.format {
        case .text:
            out[.text] = .string(
                TreeText.render(snap.tree, root: request.rootID, frames: request.frames, depth: request.depth))
        case .xml:
            out[.xml] = .string(XMLPageSource.xml(snap.tree))
        case .json:
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
            out[.windows] = .array(roots.compactMap { node($0, 0) })
            out[.count] = JSON(count)
            out[.truncated] = .array(truncated)
        }
        return out.json
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
    /// The nodes of the lists being written, innermost last: a list's nodes are looked up together before any is
    /// written, so the lookups' cache misses overlap instead of each waiting behind a whole element's writing.
    var listed: [Box<AXNode>] = []
    /// Where a list's nodes are in the map, found before any box is taken (see `writeList`).
    var positions: [TreeDictionary<String, Box<AXNode>>.Index?] = []

    init(_ request: TreeGet.Request) {
        tree = request.snap.tree
        focusedID = request.snap.focusedID
        depth = request.depth
        maxChildren = request.maxChildren ?? Int.max
        fields = request.fields
        nests = request.fields?.children != false
    }

    /// `"kind":…,"omitted":N`, after a comma unless `first` (the object's first members).
    static func writeTruncation(_ kind: Truncation, omitted: Int, into out: inout ByteWriter, first: Bool = false) {
        if !first { out.byte(0x2C) }
        switch kind {
        case .depth: out.literal(#""kind":"depth","omitted":"#)
        case .children: out.literal(#""kind":"children","omitted":"#)
        }
        out.number(Double(omitted))
    }

    /// `[element,…]` for the ids that name nodes (others are skipped, as before). Each node is read in place from
    /// its box (no copy of its members, D-PERF-5).
    mutating func writeList<IDs: RandomAccessCollection<String>>(_ ids: IDs, level: Int, into out: inout ByteWriter) {
        out.byte(0x5B)
        // The map itself, so its lookups are specialized here (`BoxedMap.box` runs the generic map code).
        let nodes = tree.nodes.storage
        let base = listed.count
        // Finding a key walks the hash trie with plain loads, so the walks for a list's ids overlap in the
        // processor; taking a box counts a reference (an atomic), which would make each walk wait for the one before.
        positions.removeAll(keepingCapacity: true)
        for index in ids.indices { positions.append(nodes.index(forKey: ids[index])) }
        for position in positions {
            if let position { listed.append(nodes[position].value) }
        }
        // Nested lists append after `end` and take their nodes off again before returning.
        let end = listed.count
        for position in base..<end {
            if position > base { out.byte(0x2C) }
            writeNode(listed[position], level: level, into: &out)
        }
        listed.removeLast(end &- base)
        out.byte(0x5D)
    }

    /// One element; its node read in place from `box` (passed down as `box.value`, never copied into a local).
    mutating func writeNode(_ box: Box<AXNode>, level: Int, into out: inout ByteWriter) {
        count += 1
        out.byte(0x7B)
        if let fields {
            fields.writeMembers(box.value, focusedID: focusedID, into: &out)
        } else {
            ElementWriter.writeMembers(box.value, focusedID: focusedID, childIDs: false, into: &out)
        }
        let children = box.value.children
        if !children.isEmpty && nests {
            if let depth, level >= depth {
                out.literal(#","truncated":{"#)
                Self.writeTruncation(.depth, omitted: children.count, into: &out, first: true)
                out.byte(0x7D)
                truncated.append((box.value.id, .depth, children.count))
            } else {
                out.literal(#","children":"#)
                writeList(children.prefix(maxChildren), level: level + 1, into: &out)
                if children.count > maxChildren {
                    let omitted = children.count - maxChildren
                    out.literal(#","truncated":{"#)
                    Self.writeTruncation(.children, omitted: omitted, into: &out, first: true)
                    out.byte(0x7D)
                    truncated.append((box.value.id, .children, omitted))
                }
            }
        }
        out.byte(0x7D)
    }
}
