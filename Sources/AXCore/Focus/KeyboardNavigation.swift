/// What a navigation key does when the app lets the server handle navigation keys (D-KEY-2).
package enum KeyCommand: Sendable, Equatable {
    /// Move engine focus: Tab → next, Shift-Tab / ISO_Left_Tab → previous (D-FOCUS-6); arrows → inside the
    /// focus group (D-KEY-2).
    case move(FocusHeading)
    /// Escape: `accessibilityPerformEscape` on the focused element, bubbling (X32).
    case escape
    /// Return, KP_Enter, space: activate the focused element (C30: a press goes to the focused item).
    case activate
}

/// The server's keyboard rule (D-KEY-2): which key does what, and where an arrow key moves. Pure: the hub
/// applies the answer through the engine and `perform`.
package enum KeyboardNavigation {
    /// The command for a key press with its modifiers, or nil when the key is not a navigation key (it goes
    /// to the app). A Control, Alt or Super chord is an app shortcut, never navigation; Shift only turns Tab
    /// around.
    package static func command(for symbol: KeySymbol, modifiers: Set<KeyModifier>) -> KeyCommand? {
        let chord = modifiers.contains(.control) || modifiers.contains(.alt) || modifiers.contains(.super)
        if chord { return nil }
        let shift = modifiers.contains(.shift)
        switch symbol.name {
        case "Tab": return .move(shift ? .previous : .next)
        case "ISO_Left_Tab": return .move(.previous)
        default: return shift ? nil : unshiftedCommands[symbol.name]
        }
    }

    /// The keys that navigate only without Shift.
    private static let unshiftedCommands: [String: KeyCommand] = [
        "Escape": .escape,
        "Return": .activate, "KP_Enter": .activate, "space": .activate,
        "Up": .move(.up), "KP_Up": .move(.up),
        "Down": .move(.down), "KP_Down": .move(.down),
        "Left": .move(.left), "KP_Left": .move(.left),
        "Right": .move(.right), "KP_Right": .move(.right),
    ]

    /// Where an arrow key moves engine focus from `current` (D-KEY-2): inside the focused item's focus group
    /// when it has an identifier (the group's focusable items are the only candidates: beam first, as in the
    /// directional search, else the nearest item beyond the edge); an item outside every named group moves by
    /// the engine's directional search over the key window (D-FOCUS-5). With no focused item, the initial
    /// focus.
    package static func arrowMove(_ engine: FocusEngine, from current: String?, heading: FocusHeading) -> Result<
        FocusDecision, FocusFailure
    > {
        guard let current, let entry = engine.index[current], let group = entry.group else {
            return engine.move(from: current, heading: heading)
        }
        guard let members = engine.groups().first(where: { $0.identifier == group })?.items else {
            return engine.move(from: current, heading: heading)
        }
        let from = entry.frame
        var bestInBeam: (item: String, gap: Double, offAxis: Double)?
        var bestOutside: (item: String, gap: Double, offAxis: Double)?
        for item in members where item != current {
            guard let candidate = engine.index[item], engine.isFocusable(item) else { continue }
            guard let gap = FocusEngine.gap(from: from, to: candidate.frame, heading: heading) else { continue }
            let offAxis = FocusEngine.offAxisDistance(from: from, to: candidate.frame, heading: heading)
            let scored = (item: item, gap: gap, offAxis: offAxis)
            if FocusEngine.inBeam(from: from, to: candidate.frame, heading: heading) {
                if bestInBeam.map({ isCloser(scored, than: $0) }) ?? true { bestInBeam = scored }
            } else if bestOutside.map({ isCloser(scored, than: $0) }) ?? true {
                bestOutside = scored
            }
        }
        guard let chosen = bestInBeam ?? bestOutside else { return .failure(.noCandidate(heading)) }
        return engine.request(chosen.item)
    }

    /// Where Tab (`.next`) or Shift-Tab (`.previous`) moves engine focus from `current` (D-KEY-6): the engine's
    /// linear move, except that focus items announcing the same accessibility element count as one stop. A cell
    /// that folds its switch (D-CELL-1) is one element but two focus items; a second stop there would move engine
    /// focus without moving accessibility focus, and a screen reader would say nothing. So the move lands on the
    /// first item of each run of consecutive items that announce one element (the cell, whose activation reaches
    /// the folded control through `actionTarget`): Tab passes over the rest of the current run, Shift-Tab goes
    /// back to the start of the run it reaches. Items that announce no element are stops of their own.
    package static func tabMove(_ engine: FocusEngine, from current: String?, heading: FocusHeading, tree: AXTree)
        -> Result<FocusDecision, FocusFailure>
    {
        let first = engine.move(from: current, heading: heading)
        guard let current, case .success(var decision) = first else { return first }
        let limit = engine.index.entries.count
        var steps = 0
        // Pass over the items that announce the element the current item announces.
        if let currentElement = announcedElement(of: current, engine: engine, tree: tree) {
            while steps < limit, announcedElement(of: decision.item, engine: engine, tree: tree) == currentElement {
                steps += 1
                let next = engine.move(from: decision.item, heading: heading)
                // The run ends the sequence: the engine's own answer there (nothing further to move to).
                guard case .success(let further) = next else { return next }
                guard further.item != decision.item else { return first }
                decision = further
            }
        }
        guard heading == .previous, let reached = announcedElement(of: decision.item, engine: engine, tree: tree)
        else { return .success(decision) }
        // Shift-Tab: back to the first item of the run it reached.
        while steps < limit, case .success(let before) = engine.move(from: decision.item, heading: .previous),
            before.item != decision.item,
            announcedElement(of: before.item, engine: engine, tree: tree) == reached
        {
            steps += 1
            decision = before
        }
        return .success(decision)
    }

    /// The accessibility element a screen reader hears about when engine focus is on `item`: the item when it is
    /// an element; for a container (a segmented control) its selected element child, else its first (D-FOCUS-3);
    /// else the nearest element around it (a control a cell folds, D-CELL-1); nil when there is none.
    package static func announcedElement(of item: String, engine: FocusEngine, tree: AXTree) -> String? {
        if let node = tree[item] {
            if node.isElement { return item }
            let elements = node.children.compactMap { tree[$0] }.filter(\.isElement)
            if let chosen = elements.first(where: { $0.states.contains(.selected) }) ?? elements.first {
                return chosen.id
            }
        }
        var cursor = engine.index.position[item].map { engine.index.entries[$0].parent } ?? -1
        while cursor >= 0 {
            let id = engine.index.entries[cursor].id
            if tree[id]?.isElement == true { return id }
            cursor = engine.index.entries[cursor].parent
        }
        return nil
    }

    private static func isCloser(
        _ candidate: (item: String, gap: Double, offAxis: Double),
        than other: (item: String, gap: Double, offAxis: Double)
    ) -> Bool {
        if candidate.gap != other.gap { return candidate.gap < other.gap }
        return candidate.offAxis < other.offAxis
    }
}
