import AXCore
import AXJSON

/// What the app answered a `rotorSearch` request with (R58; D-ROTOR-5).
package struct RotorSearchOutcome: Sendable {
    /// The item the app found, nil at the end of the rotor.
    package var item: RotorItem?
    /// The snapshot the item was checked against (taken after the app answered; its handling may have published).
    package var snapshot: AppSnapshot
}

/// What a rotor action from an assistive technology did (`next-<rotor>` / `previous-<rotor>`, D-ROTOR-7).
package struct RotorActionOutcome: Sendable, Equatable {
    /// The element accessibility focus moved to; nil at the end of the rotor (focus stays).
    package var target: String?
    /// The item stepped to, with its text range (pass it back as `lastItem` for the next step: focus alone cannot
    /// say where inside an element the rotor stands).
    package var item: RotorItem?
    /// The target can take keyboard focus (`focusable`); a bridge announces a target that cannot.
    package var targetIsFocusable: Bool
    /// What to say for the target: its label, else its text or value.
    package var targetText: String?
}

extension Hub {
    /// Runs one step of the custom rotor `rotor` declared by `declaredBy` from the current accessibility focus
    /// (D-ROTOR-4; an app-searched rotor asks the app, D-ROTOR-5) and moves accessibility focus to the item's element
    /// (R59). Used by the AT-SPI rotor actions (D-ROTOR-7). Errors: an unknown app or declaring node, a rotor the node
    /// does not declare (`notSupported`, naming the rotors it does), and the app-search errors.
    /// `lastItem` is the item the previous step reached; it is the current item while accessibility focus is
    /// still on its element (so a rotor with several ranges in one element advances), else the focus is.
    package func performRotorAction(
        app: String, declaredBy: String, rotor: String, direction: RotorDirection, lastItem: RotorItem? = nil
    ) async throws(ActionError) -> RotorActionOutcome {
        let context: (snapshot: AppSnapshot, engine: RotorEngineBox)
        do {
            context = try rotorEngine(app: app)
        } catch {
            throw .noSuchApp(app)
        }
        guard let declaring = context.snapshot.tree[declaredBy] else { throw .noSuchElement(declaredBy) }
        guard declaring.rotors.contains(where: { $0.name == rotor }) else {
            throw .notSupported(action: "rotor '\(rotor)'", supported: declaring.rotors.map(\.name))
        }
        let focused = context.snapshot.focusedID
        let current = lastItem.flatMap { $0.target == focused ? $0 : nil } ?? focused.map { RotorItem(target: $0) }
        guard let step = context.engine.engine.step(rotor, at: declaredBy, from: current, direction: direction) else {
            throw .notSupported(action: "rotor '\(rotor)'", supported: declaring.rotors.map(\.name))
        }
        var item = step.item
        var snapshot = context.snapshot
        if step.searchedByApp {
            let outcome = try await searchRotor(
                app: app, rotor: rotor, declaredBy: declaredBy, direction: direction.rawValue, from: current)
            item = outcome.item
            snapshot = outcome.snapshot
        }
        guard let item, let node = snapshot.tree[item.target], node.isElement else {
            return RotorActionOutcome(target: nil, item: nil, targetIsFocusable: false, targetText: nil)
        }
        do {
            try setFocus(app: app, element: item.target)
        } catch {
            throw .noSuchElement(item.target)
        }
        let text = [node.label, node.text, node.value].compactMap { $0 }.first { !$0.isEmpty }
        return RotorActionOutcome(
            target: item.target, item: item, targetIsFocusable: node.states.contains(.focusable), targetText: text)
    }

    /// Asks the app for the item after (or before) `current` in a custom rotor whose items it computes
    /// (`"search": "app"`, R58, X24; D-ROTOR-5): one `action.perform {action: "rotorSearch"}` request to the view
    /// that declares the rotor, with `value: {rotor, direction, currentItem: {target, range?} | null}`; the app
    /// answers `{handled, item: {target, range?} | null}`. The server asks once per step and never re-asks, so a
    /// search cannot loop: an answer that repeats the current item is an error. Errors: the action timeout
    /// (`appNotResponding`, −32020), a malformed item, an item whose target is not in the tree, or the current
    /// item again (`appFailed`, −32022, `reason` says which).
    package func searchRotor(
        app: String, rotor: String, declaredBy: String, direction: String,
        from current: RotorItem?
    ) async throws(ActionError) -> RotorSearchOutcome {
        let provider: (any ActionProvider)?? = state.withLock { $0.apps[app].map { $0.provider } }
        guard let registered = provider else { throw .noSuchApp(app) }
        guard let provider = registered else { throw .appNotResponding(reason: "the app has no action handler") }
        let value: JSON = [
            "rotor": .string(rotor), "direction": .string(direction), "currentItem": Hub.rotorItemJSON(current),
        ]
        let request = ActionRequest(.rotorSearch(query: value), target: declaredBy, elementID: current?.target)
        let reply = try await provider.answer(request, timeout: actionTimeout)
        let item = try Hub.rotorItem(from: reply, rotor: rotor)
        let snapshot: AppSnapshot
        do {
            snapshot = try self.snapshot(app)
        } catch {
            throw .noSuchApp(app)
        }
        guard let item else { return RotorSearchOutcome(item: nil, snapshot: snapshot) }
        guard snapshot.tree[item.target] != nil else {
            throw .appFailed(
                message:
                    "the app answered rotor '\(rotor)' with '\(item.target)', which is not in its accessibility tree",
                reason: "unknown target", details: reply)
        }
        if item == current {
            throw .appFailed(
                message:
                    "the app answered rotor '\(rotor)' (\(direction)) with the current item '\(item.target)' again; "
                    + "the server asks once per step and stops here instead of looping (D-ROTOR-5)",
                reason: "rotor search loop", details: reply)
        }
        return RotorSearchOutcome(item: item, snapshot: snapshot)
    }

    /// A rotor item as the `rotorSearch` request carries it (null: the empty item, X24).
    static func rotorItemJSON(_ item: RotorItem?) -> JSON {
        guard let item else { return .null }
        var object: JSONObject = ["target": .string(item.target)]
        if let range = item.range { object["range"] = [JSON(range.location), JSON(range.length)] }
        return .object(object)
    }

    /// The item in a `rotorSearch` answer: `item` absent, null or `handled: false` is the end of the rotor.
    static func rotorItem(from reply: JSON, rotor: String) throws(ActionError) -> RotorItem? {
        if case .bool(false)? = reply["handled"] { return nil }
        guard let item = reply["item"], !item.isNull else { return nil }
        let malformed = ActionError.appFailed(
            message:
                "the app answered rotor '\(rotor)' with a malformed item: expected {\"target\": id, \"range\"?: [location, length]}",
            reason: "malformed reply", details: reply)
        guard let target = item["target"]?.stringValue, !target.isEmpty else { throw malformed }
        var result = RotorItem(target: target)
        if let range = item["range"], !range.isNull {
            guard case .array(let pair) = range, pair.count == 2, let location = pair[0].intValue,
                let length = pair[1].intValue,
                location >= 0, length >= 0
            else { throw malformed }
            result.range = TextRange(location: location, length: length)
        }
        return result
    }
}
