import AXCore
import AXJSON

/// The wire form of accessibility nodes (Specs/protocol.md §Element). Absent values are omitted.
package enum ElementJSON {
    package static func rect(_ r: Rect) -> JSON {
        var o = JSONObject(minimumCapacity: 4)
        o.appendUnchecked("x", .number(r.x))
        o.appendUnchecked("y", .number(r.y))
        o.appendUnchecked("width", .number(r.width))
        o.appendUnchecked("height", .number(r.height))
        return .object(o)
    }
    package static func point(_ p: Point) -> JSON {
        var o = JSONObject(minimumCapacity: 2)
        o.appendUnchecked("x", .number(p.x))
        o.appendUnchecked("y", .number(p.y))
        return .object(o)
    }

    /// Encodes one node. `children` true includes the child id list; `extra` adds computed fields.
    package static func encode(_ n: AXNode, focusedID: String? = nil, childIDs: Bool = true) -> JSONObject {
        var o = JSONObject(minimumCapacity: 24)
        o.appendUnchecked("id", .string(n.id))
        o.appendUnchecked("role", .string(n.role.rawValue))
        o.appendUnchecked("class", .string(n.className))
        if let v = n.label { o.appendUnchecked("label", .string(v)) }
        if let v = n.value { o.appendUnchecked("value", .string(v)) }
        if let v = n.hint { o.appendUnchecked("hint", .string(v)) }
        if let v = n.identifier { o.appendUnchecked("identifier", .string(v)) }
        if let v = n.placeholder { o.appendUnchecked("placeholder", .string(v)) }
        o.appendUnchecked("traits", .array(n.traits.names.map { .string($0) }))
        var states = n.states.names.map { JSON.string($0) }
        if focusedID == n.id { states.append("focused") }
        o.appendUnchecked("states", .array(states))
        o.appendUnchecked("isElement", .bool(n.isElement))
        o.appendUnchecked("frame", rect(n.frame))
        o.appendUnchecked("activationPoint", point(n.activationPoint))
        if let p = n.parent { o.appendUnchecked("parent", .string(p)) }
        o.appendUnchecked("window", .string(n.windowID))
        if childIDs && !n.children.isEmpty { o.appendUnchecked("children", .array(n.children.map { .string($0) })) }
        if let v = n.language { o.appendUnchecked("language", .string(v)) }
        if let v = n.headingLevel { o.appendUnchecked("headingLevel", JSON(v)) }
        if !n.actions.isEmpty { o.appendUnchecked("actions", .array(n.actions.map { .string($0.rawValue) })) }
        if !n.customActions.isEmpty {
            o.appendUnchecked(
                "customActions",
                .array(
                    n.customActions.map { a in
                        var c: JSONObject = ["id": .string(a.id), "name": .string(a.name)]
                        c["category"] = .string(a.category ?? "Actions")  // X22: nil category is the default "Actions"
                        return .object(c)
                    }))
        }
        if !n.rotors.isEmpty {
            o.appendUnchecked(
                "rotors",
                .array(
                    n.rotors.map { r in
                        [
                            "name": .string(r.name), "systemType": .string(r.systemType.rawValue),
                            "items": .array(
                                r.items.map { i in
                                    var io: JSONObject = ["target": .string(i.target)]
                                    if let rg = i.range {
                                        io["range"] = [.number(Double(rg.location)), .number(Double(rg.length))]
                                    }
                                    return .object(io)
                                }),
                        ]
                    }))
        }
        if let nv = n.numeric {
            o.appendUnchecked(
                "numericValue",
                [
                    "current": .number(nv.current), "minimum": .number(nv.minimum),
                    "maximum": .number(nv.maximum), "step": .number(nv.step),
                ])
        }
        if let p = n.positionInSet, let s = n.sizeOfSet {
            o.appendUnchecked("position", ["index": JSON(p), "count": JSON(s)])
        }
        if let t = n.table {
            o.appendUnchecked(
                "table",
                [
                    "rows": JSON(t.rows), "columns": JSON(t.columns),
                    "columnHeaders": .object(
                        JSONObject(t.columnHeaders.sorted { $0.key < $1.key }.map { (String($0.key), JSON($0.value)) })),
                    "rowHeaders": .object(
                        JSONObject(t.rowHeaders.sorted { $0.key < $1.key }.map { (String($0.key), JSON($0.value)) })),
                ])
        }
        if let c = n.cell {
            o.appendUnchecked(
                "cell",
                [
                    "row": JSON(c.row), "rowSpan": JSON(c.rowSpan), "column": JSON(c.column),
                    "columnSpan": JSON(c.columnSpan),
                ])
        }
        if n.containerType != .none { o.appendUnchecked("containerType", .string(n.containerType.rawValue)) }
        if n.navigationStyle != .automatic { o.appendUnchecked("navigationStyle", .string(n.navigationStyle.rawValue)) }
        if let v = n.textualContext { o.appendUnchecked("textualContext", .string(v)) }
        if !n.userInputLabels.isEmpty { o.appendUnchecked("userInputLabels", JSON(n.userInputLabels)) }
        if !n.restrictions.isEmpty { o.appendUnchecked("restrictions", JSON(n.restrictions)) }
        if let v = n.text { o.appendUnchecked("text", .string(v)) }
        if n.viewID == nil { o.appendUnchecked("virtual", .bool(true)) }
        if n.actionTarget != n.id { o.appendUnchecked("actionTarget", .string(n.actionTarget)) }
        if !n.directTouchOptions.isEmpty { o.appendUnchecked("directTouchOptions", JSON(n.directTouchOptions)) }
        if n.ignoresInvertColors { o.appendUnchecked("ignoresInvertColors", .bool(true)) }
        if !n.automationElements.isEmpty { o.appendUnchecked("automationElements", JSON(n.automationElements)) }
        if let f = n.focus.canBecomeFocused { o.appendUnchecked("canBecomeFocused", .bool(f)) }
        if let g = n.focus.groupIdentifier { o.appendUnchecked("focusGroupIdentifier", .string(g)) }
        return o
    }

    /// Short description used in error data (candidates, near misses).
    package static func brief(_ n: AXNode) -> JSON {
        var o = JSONObject(minimumCapacity: 6)
        o.appendUnchecked("id", .string(n.id))
        o.appendUnchecked("role", .string(n.role.rawValue))
        if let l = n.label { o.appendUnchecked("label", .string(l)) }
        if let i = n.identifier { o.appendUnchecked("identifier", .string(i)) }
        o.appendUnchecked("frame", rect(n.frame))
        return .object(o)
    }
}
