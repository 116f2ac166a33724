import AXCore
import AXJSON

/// The wire form of accessibility nodes (Specs/protocol.md §Common shapes, element). Absent values are omitted.
package enum ElementJSON {
    package static func rect(_ rect: Rect) -> JSON {
        var object = JSONObject(minimumCapacity: 4)
        object.appendUnchecked("x", .number(rect.x))
        object.appendUnchecked("y", .number(rect.y))
        object.appendUnchecked("width", .number(rect.width))
        object.appendUnchecked("height", .number(rect.height))
        return .object(object)
    }
    package static func point(_ point: Point) -> JSON {
        var object = JSONObject(minimumCapacity: 2)
        object.appendUnchecked("x", .number(point.x))
        object.appendUnchecked("y", .number(point.y))
        return .object(object)
    }

    /// Encodes one node; `childIDs` true includes the child id list.
    package static func encode(_ node: AXNode, focusedID: String? = nil, childIDs: Bool = true) -> JSONObject {
        var object = JSONObject(minimumCapacity: 24)
        object.appendUnchecked("id", .string(node.id))
        object.appendUnchecked("role", .string(node.role.rawValue))
        object.appendUnchecked("class", .string(node.className))
        if let value = node.label { object.appendUnchecked("label", .string(value)) }
        if let value = node.value { object.appendUnchecked("value", .string(value)) }
        if let value = node.hint { object.appendUnchecked("hint", .string(value)) }
        if let value = node.identifier { object.appendUnchecked("identifier", .string(value)) }
        if let value = node.placeholder { object.appendUnchecked("placeholder", .string(value)) }
        object.appendUnchecked("traits", .array(node.traits.names.map { .string($0) }))
        var states = node.states.names.map { JSON.string($0) }
        if focusedID == node.id { states.append("focused") }
        object.appendUnchecked("states", .array(states))
        object.appendUnchecked("isElement", .bool(node.isElement))
        object.appendUnchecked("frame", rect(node.frame))
        object.appendUnchecked("activationPoint", point(node.activationPoint))
        if let parent = node.parent { object.appendUnchecked("parent", .string(parent)) }
        object.appendUnchecked("window", .string(node.windowID))
        if childIDs && !node.children.isEmpty {
            object.appendUnchecked("children", .array(node.children.map { .string($0) }))
        }
        if let value = node.language { object.appendUnchecked("language", .string(value)) }
        if let value = node.headingLevel { object.appendUnchecked("headingLevel", JSON(value)) }
        appendActions(of: node, to: &object)
        appendValueAndGrid(of: node, to: &object)
        appendBehavior(of: node, to: &object)
        TextContentJSON.append(node, to: &object)
        return object
    }

    /// Standard actions, custom actions (X22) and custom rotors, when the node has them.
    static func appendActions(of node: AXNode, to object: inout JSONObject) {
        if !node.actions.isEmpty {
            object.appendUnchecked("actions", .array(node.actions.map { .string($0.rawValue) }))
        }
        if !node.customActions.isEmpty {
            object.appendUnchecked(
                "customActions",
                .array(
                    node.customActions.map { action in
                        var entry: JSONObject = ["id": .string(action.id), "name": .string(action.name)]
                        // X22: nil category is the default "Actions".
                        entry["category"] = .string(action.category ?? "Actions")
                        if let image = action.image {
                            entry["image"] = .string(image)
                        } else if action.hasImage {
                            entry["image"] = .bool(true)
                        }
                        return .object(entry)
                    }))
        }
        if !node.rotors.isEmpty {
            object.appendUnchecked(
                "rotors",
                .array(
                    node.rotors.map { rotor in
                        [
                            "name": .string(rotor.name), "systemType": .string(rotor.systemType.rawValue),
                            "items": .array(
                                rotor.items.map { item in
                                    var itemObject: JSONObject = ["target": .string(item.target)]
                                    if let range = item.range {
                                        itemObject["range"] = [
                                            .number(Double(range.location)), .number(Double(range.length)),
                                        ]
                                    }
                                    return .object(itemObject)
                                }),
                        ]
                    }))
        }
    }

    /// The numeric value, the position in a set, and table or cell geometry, when the node has them.
    static func appendValueAndGrid(of node: AXNode, to object: inout JSONObject) {
        if let numeric = node.numeric {
            object.appendUnchecked(
                "numericValue",
                [
                    "current": .number(numeric.current), "minimum": .number(numeric.minimum),
                    "maximum": .number(numeric.maximum), "step": .number(numeric.step),
                ])
        }
        if let position = node.positionInSet, let size = node.sizeOfSet {
            object.appendUnchecked("position", ["index": JSON(position), "count": JSON(size)])
        }
        if let table = node.table {
            object.appendUnchecked(
                "table",
                [
                    "rows": JSON(table.rows), "columns": JSON(table.columns),
                    "columnHeaders": .object(
                        JSONObject(
                            table.columnHeaders.sorted { $0.key < $1.key }.map { (String($0.key), JSON($0.value)) })),
                    "rowHeaders": .object(
                        JSONObject(table.rowHeaders.sorted { $0.key < $1.key }.map { (String($0.key), JSON($0.value)) })
                    ),
                ])
        }
        if let cell = node.cell {
            object.appendUnchecked(
                "cell",
                [
                    "row": JSON(cell.row), "rowSpan": JSON(cell.rowSpan), "column": JSON(cell.column),
                    "columnSpan": JSON(cell.columnSpan),
                ])
        }
    }

    /// Container and navigation style, input labels, restrictions, virtual/forwarding and focus properties.
    static func appendBehavior(of node: AXNode, to object: inout JSONObject) {
        if node.containerType != .none { object.appendUnchecked("containerType", .string(node.containerType.rawValue)) }
        if node.navigationStyle != .automatic {
            object.appendUnchecked("navigationStyle", .string(node.navigationStyle.rawValue))
        }
        if let value = node.textualContext { object.appendUnchecked("textualContext", .string(value)) }
        if !node.userInputLabels.isEmpty { object.appendUnchecked("userInputLabels", JSON(node.userInputLabels)) }
        if !node.restrictions.isEmpty { object.appendUnchecked("restrictions", JSON(node.restrictions)) }
        if let value = node.text { object.appendUnchecked("text", .string(value)) }
        if node.viewID == nil { object.appendUnchecked("virtual", .bool(true)) }
        if node.actionTarget != node.id { object.appendUnchecked("actionTarget", .string(node.actionTarget)) }
        if !node.directTouchOptions.isEmpty {
            object.appendUnchecked("directTouchOptions", JSON(node.directTouchOptions))
        }
        if node.ignoresInvertColors { object.appendUnchecked("ignoresInvertColors", .bool(true)) }
        if let large = node.largeContent { object.appendUnchecked("largeContent", largeContentJSON(large)) }
        appendDragDrop(of: node, to: &object)
        if !node.automationElements.isEmpty {
            object.appendUnchecked("automationElements", JSON(node.automationElements))
        }
        if let focusable = node.focus.canBecomeFocused { object.appendUnchecked("canBecomeFocused", .bool(focusable)) }
        if let group = node.focus.groupIdentifier { object.appendUnchecked("focusGroupIdentifier", .string(group)) }
    }

    /// `dragSources` / `dropPoints` `[{name, point, view}]` as resolved (D-DRAG-1); X39: an unset list (automatic
    /// discovery) is absent, an empty one `[]`.
    static func appendDragDrop(of node: AXNode, to object: inout JSONObject) {
        guard let descriptors = node.dragDrop else { return }
        if let sources = descriptors.dragSources { object.appendUnchecked("dragSources", DragDrop.json(sources)) }
        if let points = descriptors.dropPoints { object.appendUnchecked("dropPoints", DragDrop.json(points)) }
    }

    /// Short description used in error data (candidates, near misses).
    package static func brief(_ node: AXNode) -> JSON {
        var object = JSONObject(minimumCapacity: 6)
        object.appendUnchecked("id", .string(node.id))
        object.appendUnchecked("role", .string(node.role.rawValue))
        if let label = node.label { object.appendUnchecked("label", .string(label)) }
        if let identifier = node.identifier { object.appendUnchecked("identifier", .string(identifier)) }
        object.appendUnchecked("frame", rect(node.frame))
        return .object(object)
    }

    /// `{title, image?, scalesImage}`: what the large content viewer shows (D-LCV-1).
    package static func largeContentJSON(_ large: LargeContent) -> JSON {
        var entry: JSONObject = ["title": JSON(large.title), "scalesImage": .bool(large.scalesImage)]
        if let image = large.image { entry["image"] = .string(image) }
        return .object(entry)
    }
}
