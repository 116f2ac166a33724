import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXQuery

/// Resolving `target` params (`{"id": …}`, `{"selector": …}`, `{"ast": …}` or a bare selector string) to nodes,
/// with the errors test authors need: near misses, candidates, stale ids (Specs/protocol.md §Common shapes, target).
enum Targets {
    static func selector(from value: JSON, param: String, method: String) throws(RPCError) -> Selector {
        switch value {
        case .string(let text):
            do { return try Selector(parsing: text) } catch { throw invalidSelector(error, source: text) }
        case .object(let object):
            if let selectorText = object["selector"]?.stringValue {
                do { return try Selector(parsing: selectorText) } catch {
                    throw invalidSelector(error, source: selectorText)
                }
            }
            if let ast = object["ast"] {
                do { return try Selector(json: ast) } catch { throw invalidSelector(error, source: nil) }
            }
            throw RPCError.invalidParams(
                "\(method): '\(param)' needs 'selector' or 'ast'", data: ["param": .string(param)])
        default:
            throw RPCError.invalidParams(
                "\(method): '\(param)' must be a selector string or {selector}/{ast}", data: ["param": .string(param)])
        }
    }

    /// Whether a call's selector-shaped params (`selector`, `target`, `root`, `ast`) ask for regex matching
    /// (`~=`, `/…/`, an AST `regex`). Such a call's cost grows with the tree's text, so the router runs it off the
    /// transport's event loop (`RPCRouter.registerSync(_:requiresInit:offLoop:_:)`). May say yes for a plain id
    /// containing "/": that only costs a task hop.
    @Sendable static func usesRegex(_ params: JSON?) -> Bool {
        guard let params else { return false }
        for key in ["selector", "target", "root", "ast"] {
            if let value = params[key], mentionsRegex(value) { return true }
        }
        return false
    }

    private static func mentionsRegex(_ value: JSON) -> Bool {
        switch value {
        case .string(let text): return text.utf8.contains(UInt8(ascii: "/")) || text.contains("~=")
        case .array(let items): return items.contains { mentionsRegex($0) }
        case .object(let members):
            return members.contains { $0.key == "regex" || $0.value == .string("~=") || mentionsRegex($0.value) }
        default: return false
        }
    }

    static func invalidSelector(_ selectorError: SelectorError, source: String?) -> RPCError {
        var details: JSONObject = [
            "position": JSON(selectorError.position), "expected": .string(selectorError.expected),
        ]
        details["found"] = .string(selectorError.found)
        if let reason = selectorError.reason { details["reason"] = .string(reason) }
        if let source { details["selector"] = .string(source) }
        return RPCError.invalidSelector(selectorError.description, data: details)
    }

    static func context(_ snap: AppSnapshot) -> QueryContext {
        QueryContext(tree: snap.tree, views: snap.views, focusedID: snap.focusedID)
    }

    /// All matches of a selector-shaped param, in document order.
    static func find(_ sel: Selector, in snap: AppSnapshot, root: String?, limit: Int?) throws(RPCError) -> [String] {
        do { return try QueryEngine.find(sel, in: context(snap), root: root, limit: limit) } catch {
            throw invalidSelector(error, source: sel.canonical)
        }
    }

    /// Near misses for a selector that matched nothing (from the engine's explain).
    static func nearMisses(_ sel: Selector, in snap: AppSnapshot) throws(RPCError) -> JSON {
        do { return try QueryEngine.explain(sel, in: context(snap)).json } catch {
            throw invalidSelector(error, source: sel.canonical)
        }
    }

    enum Resolved {
        case one(String)
        case none(RPCError)
    }

    /// Resolves a single-target param strictly: exactly one match, or a structured error. `param` is the name of
    /// the parameter the value came from (`target`, `root`, `from`): a malformed value's error names it.
    static func resolveOne(
        _ target: JSON, in snap: AppSnapshot, hub: Hub, method: String, root: String? = nil, param: String = "target"
    ) throws(RPCError) -> String {
        if case .object(let object) = target, let id = object["id"]?.stringValue {
            if snap.tree[id] != nil { return id }
            throw missingID(id, snap: snap, hub: hub)
        }
        let sel = try selector(from: target, param: param, method: method)
        // Strict (Specs/selectors.md §6.6 Visibility and strictness): one match wins; several are narrowed to the onscreen ones.
        let resolution: QueryEngine.Resolution
        do { resolution = try QueryEngine.resolveOne(sel, in: context(snap), root: root) } catch {
            throw invalidSelector(error, source: sel.canonical)
        }
        switch resolution {
        case .one(let id):
            return id
        case .none:
            throw RPCError.noSuchElement(
                "no element matches \(sel.canonical)",
                data: [
                    "selector": .string(sel.canonical), "revision": JSON(snap.revision),
                    "explain": (try? nearMisses(sel, in: snap)) ?? .null,
                ])
        case .ambiguous(let all):
            throw RPCError.ambiguousMatch(
                "\(all.count) elements match \(sel.canonical)",
                data: [
                    "selector": .string(sel.canonical), "count": JSON(all.count),
                    "candidates": .array(all.prefix(10).compactMap { snap.tree[$0].map(ElementJSON.brief) }),
                ])
        }
    }

    /// An id that is not in the tree: stale if it was removed recently, else unknown.
    static func missingID(_ id: String, snap: AppSnapshot, hub: Hub) -> RPCError {
        if let view = snap.views[id] {
            let reason =
                view.isHidden
                ? "hidden" : (view.alpha < 0.01 ? "transparent (alpha < 0.01)" : "not exposed to accessibility")
            return RPCError.noSuchElement(
                "view '\(id)' exists but is \(reason)", data: ["id": .string(id), "reason": .string(reason)])
        }
        if let at = hub.removalRevision(app: snap.id, id: id) {
            return RPCError.staleElement(
                "element '\(id)' was removed from the tree at revision \(at)",
                data: ["id": .string(id), "revision": JSON(snap.revision), "removedAtRevision": JSON(at)])
        }
        return RPCError.noSuchElement("no element '\(id)'", data: ["id": .string(id), "revision": JSON(snap.revision)])
    }
}
