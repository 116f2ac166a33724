import AXCore
import AXHub
import AXJSON

/// The rotor methods (Specs/protocol.md §Rotors): `rotor.list`, `rotor.next`, `rotor.previous`. The rotor
/// engine (AXCore/Rotors) decides; these translate JSON and move accessibility focus (R59).
enum RotorMethods {
    static func install(_ r: RPCRouter, _ hub: Hub) {
        r.registerSync("rotor.list") { params, session in
            let p = try Params(params, method: "rotor.list")
            let (snap, box) = try rotorEngine(p, hub, session)
            var element = snap.focusedID
            if let t = p["target"] { element = try Targets.resolveOne(t, in: snap, hub: hub, method: p.method) }
            let rotors = box.engine.list(at: element)
            return [
                "element": JSON(element), "rotors": .array(rotors.map(infoJSON)),
                "unavailable": .array(
                    SystemRotors.unavailable.map { ["name": .string($0.name), "reason": .string($0.reason)] }),
            ]
        }
        for direction in RotorDirection.allCases {
            let method = "rotor." + direction.rawValue
            r.register(method) { params, session in
                let p = try Params(params, method: method)
                return try await step(p, direction: direction, hub: hub, session: session)
            }
        }
    }

    static func rotorEngine(_ p: Params, _ hub: Hub, _ session: RPCSession) throws(RPCError) -> (
        AppSnapshot, RotorEngineBox
    ) {
        let app = try AXMethods.app(p, hub, session)
        do {
            let result = try hub.rotorEngine(app: app)
            return (result.snapshot, result.engine)
        } catch { throw RPCError.from(error) }
    }

    /// `rotor.next` / `rotor.previous {rotor, from?, fromRange?, target?, moveFocus?}` (R58, R59, X24, X25, X54).
    /// A rotor the app searches (`"search": "app"`) is answered by the app (`Hub.searchRotor`, D-ROTOR-5).
    static func step(_ p: Params, direction: RotorDirection, hub: Hub, session: RPCSession) async throws(RPCError)
        -> JSON
    {
        let (initialSnapshot, box) = try rotorEngine(p, hub, session)
        var snap = initialSnapshot
        let name = try p.requiredString("rotor")
        // The current item: `from` (null: the empty item, X24), else the accessibility focus.
        var current: RotorItem?
        if p.json.keys.contains("from") {
            if let f = p["from"] {
                current = RotorItem(target: try Targets.resolveOne(f, in: snap, hub: hub, method: p.method))
            }
        } else if let focused = snap.focusedID {
            current = RotorItem(target: focused)
        }
        if let range = p["fromRange"] {
            guard current != nil else {
                throw p.bad("fromRange", "needs a current item ('from' or accessibility focus)")
            }
            current?.range = try textRange(range, p: p)
        }
        // Where the rotors are looked up (X54): `target`, else the current item's element.
        var element = current?.target
        if let t = p["target"] { element = try Targets.resolveOne(t, in: snap, hub: hub, method: p.method) }
        guard var result = box.engine.step(name, at: element, from: current, direction: direction) else {
            let accepted = box.engine.acceptedNames(at: element)
            throw RPCError.invalidParams(
                "\(p.method): unknown rotor '\(name)' at \(element.map { "'\($0)'" } ?? "the app") (accepted: \(accepted.joined(separator: ", ")))",
                data: ["param": "rotor", "value": .string(name), "accepted": JSON(accepted)])
        }
        if result.searchedByApp, let declaredBy = result.rotor.declaredBy {
            let outcome: RotorSearchOutcome
            do {
                outcome = try await hub.searchRotor(
                    app: snap.id, rotor: name, declaredBy: declaredBy, direction: direction.rawValue, from: current)
            } catch { throw RPCError.from(error) }
            result.item = outcome.item
            result.searched = 1
            snap = outcome.snapshot
        }
        var o: JSONObject = [
            "rotor": infoJSON(result.rotor), "direction": .string(direction.rawValue), "from": itemJSON(current, snap),
        ]
        o["item"] = itemJSON(result.item, snap)
        o["end"] = .bool(result.item == nil)
        o["searched"] = JSON(result.searched)
        var moved = false
        if let item = result.item, try p.bool("moveFocus") ?? true, let node = snap.tree[item.target], node.isElement {
            // R59: the item's target element receives (accessibility) focus.
            do { try hub.setFocus(app: snap.id, element: item.target) } catch { throw RPCError.from(error) }
            moved = true
        }
        o["focusMoved"] = .bool(moved)
        return .object(o)
    }

    static func textRange(_ v: JSON, p: Params) throws(RPCError) -> TextRange {
        guard case .array(let a) = v, a.count == 2, let location = a[0].intValue, let length = a[1].intValue,
            location >= 0, length >= 0
        else {
            throw p.bad("fromRange", "must be [location, length] with non-negative integers")
        }
        return TextRange(location: location, length: length)
    }

    static func infoJSON(_ info: RotorInfo) -> JSON {
        var o: JSONObject = [
            "name": .string(info.name), "systemType": .string(info.systemType.rawValue),
            "source": .string(info.source.rawValue), "count": JSON(info.count),
        ]
        o["declaredBy"] = JSON(info.declaredBy)
        if info.searchedByApp { o["search"] = "app" }
        return .object(o)
    }

    static func itemJSON(_ item: RotorItem?, _ snap: AppSnapshot) -> JSON {
        guard let item else { return .null }
        var o: JSONObject = ["target": .string(item.target)]
        if let range = item.range { o["range"] = [JSON(range.location), JSON(range.length)] }
        o["element"] = snap.tree[item.target].map(ElementJSON.brief) ?? .null
        return .object(o)
    }
}
