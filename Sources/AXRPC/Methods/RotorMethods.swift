import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol

/// The rotor methods (Specs/protocol.md §Rotors): `rotor.list`, `rotor.next`, `rotor.previous`. The rotor
/// engine (AXCore/Rotors) decides; these translate JSON and move accessibility focus (R59).
enum RotorMethods {
    static func install(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.rotorList) { params, session in
            let arguments = try Params(params, RPCCatalog.RotorList.self)
            let (snap, box) = try rotorEngine(arguments, hub, session)
            var element = snap.focusedID
            if let target = arguments[.target] {
                element = try Targets.resolveOne(target, in: snap, hub: hub, method: arguments.method)
            }
            let rotors = box.engine.list(at: element)
            return RPCCatalog.RotorList.answer([
                .element: JSON(element), .rotors: .array(rotors.map(infoJSON)),
                .unavailable: .array(
                    SystemRotors.unavailable.map { ["name": .string($0.name), "reason": .string($0.reason)] }),
            ])
        }
        router.register(.rotorNext) { params, session in
            let arguments = try Params(params, RPCCatalog.RotorNext.self)
            return try await step(arguments, direction: .next, hub: hub, session: session)
        }
        router.register(.rotorPrevious) { params, session in
            let arguments = try Params(params, RPCCatalog.RotorPrevious.self)
            return try await step(arguments, direction: .previous, hub: hub, session: session)
        }
    }

    static func rotorEngine<Key>(_ arguments: Params<Key>, _ hub: Hub, _ session: RPCSession) throws(RPCError) -> (
        AppSnapshot, RotorEngineBox
    ) {
        let app = try AXMethods.app(arguments, hub, session)
        do {
            let result = try hub.rotorEngine(app: app)
            return (result.snapshot, result.engine)
        } catch { throw RPCError.from(error) }
    }

    /// `rotor.next` / `rotor.previous {rotor, from?, fromRange?, target?, moveFocus?}` (R58, R59, X24, X25, X54).
    /// A rotor the app searches (`"search": "app"`) is answered by the app (`Hub.searchRotor`, D-ROTOR-5).
    static func step(
        _ arguments: Params<RPCCatalog.RotorNext.Param>, direction: RotorDirection, hub: Hub, session: RPCSession
    )
        async throws(RPCError)
        -> JSON
    {
        let (initialSnapshot, box) = try rotorEngine(arguments, hub, session)
        var snap = initialSnapshot
        let name = try arguments.requiredString(.rotor)
        // The current item: `from` (null: the empty item, X24), else the accessibility focus.
        var current: RotorItem?
        if arguments.sent(.from) {
            if let from = arguments[.from] {
                current = RotorItem(
                    target: try Targets.resolveOne(
                        from, in: snap, hub: hub, method: arguments.method, param: arguments.name(.from)))
            }
        } else if let focused = snap.focusedID {
            current = RotorItem(target: focused)
        }
        if let range = arguments[.fromRange] {
            guard current != nil else {
                throw arguments.bad(.fromRange, "needs a current item ('from' or accessibility focus)")
            }
            current?.range = try textRange(range, arguments: arguments)
        }
        // Where the rotors are looked up (X54): `target`, else the current item's element.
        var element = current?.target
        if let target = arguments[.target] {
            element = try Targets.resolveOne(target, in: snap, hub: hub, method: arguments.method)
        }
        guard var result = box.engine.step(name, at: element, from: current, direction: direction) else {
            let accepted = box.engine.acceptedNames(at: element)
            throw RPCError.invalidParams(
                "\(arguments.method): unknown rotor '\(name)' at \(element.map { "'\($0)'" } ?? "the app") (accepted: \(accepted.joined(separator: ", ")))",
                data: ["param": .string(arguments.name(.rotor)), "value": .string(name), "accepted": JSON(accepted)])
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
        var object: RPCResultObject<RPCRotorStepMember> = [
            .rotor: infoJSON(result.rotor), .direction: .string(direction.rawValue), .from: itemJSON(current, snap),
        ]
        object[.item] = itemJSON(result.item, snap)
        object[.end] = .bool(result.item == nil)
        object[.searched] = JSON(result.searched)
        var moved = false
        if let item = result.item, try arguments.bool(.moveFocus) ?? true, let node = snap.tree[item.target],
            node.isElement
        {
            // R59: the item's target element receives (accessibility) focus.
            do { try hub.setFocus(app: snap.id, element: item.target) } catch { throw RPCError.from(error) }
            moved = true
        }
        object[.focusMoved] = .bool(moved)
        return object.json
    }

    static func textRange(_ value: JSON, arguments: Params<RPCCatalog.RotorNext.Param>) throws(RPCError) -> TextRange {
        guard case .array(let pair) = value, pair.count == 2, let location = pair[0].intValue,
            let length = pair[1].intValue,
            location >= 0, length >= 0
        else {
            throw arguments.bad(.fromRange, "must be [location, length] with non-negative integers")
        }
        return TextRange(location: location, length: length)
    }

    static func infoJSON(_ info: RotorInfo) -> JSON {
        var object: JSONObject = [
            "name": .string(info.name), "systemType": .string(info.systemType.rawValue),
            "source": .string(info.source.rawValue), "count": JSON(info.count),
        ]
        object["declaredBy"] = JSON(info.declaredBy)
        if info.searchedByApp { object["search"] = "app" }
        return .object(object)
    }

    static func itemJSON(_ item: RotorItem?, _ snap: AppSnapshot) -> JSON {
        guard let item else { return .null }
        var object: JSONObject = ["target": .string(item.target)]
        if let range = item.range { object["range"] = [JSON(range.location), JSON(range.length)] }
        object["element"] = snap.tree[item.target].map(ElementJSON.brief) ?? .null
        return .object(object)
    }
}
