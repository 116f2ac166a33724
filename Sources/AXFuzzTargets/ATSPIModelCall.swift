import AXATSPIModel
import AXCore

/// One call of `ATSPIModelFuzz.dispatch`, its signature already checked: the typed arguments, the served snapshot
/// and the checks made on the answer; one method per interface.
struct ModelCall {
    let snapshot: ServedSnapshot
    let object: ServedObject
    let member: String
    let arguments: [ATSPIModelFuzz.Argument]
    var check: FuzzCheck

    func int(_ index: Int) -> Int32 {
        if case .int32(let value) = arguments[index] { return value }
        return 0
    }

    func uint(_ index: Int) -> UInt32 {
        if case .uint32(let value) = arguments[index] { return value }
        return 0
    }

    func string(_ index: Int) -> String {
        if case .string(let value) = arguments[index] { return value }
        return ""
    }

    mutating func expectReference(_ id: String?, _ what: String) {
        if let id { check.expect(snapshot.node(id) != nil, "\(what) names '\(id)', not in the snapshot") }
    }

    mutating func expectExtents(_ rect: ATSPIRect, _ what: String) {
        check.expect(rect.width >= 0 && rect.height >= 0, "\(what) has a negative size: \(rect)")
    }

    /// Checks that a text range lies within a `count`-character text; answers its text.
    mutating func expectRange(count: Int32, _ range: ATSPITextRange, _ what: String) -> ATSPIModelFuzz.Outcome {
        check.expect(
            range.start >= 0 && range.start <= range.end && range.end <= count,
            "\(what) gave the range \(range.start)..<\(range.end) of a \(count)-character text")
        return .answer(range.text)
    }

    mutating func accessible() -> ATSPIModelFuzz.Outcome {
        let node = object.node
        let accessible = AccessibleModel(snapshot: snapshot)
        switch member {
        case "GetChildAtIndex":
            let child = accessible.child(of: object, at: int(0))
            expectReference(child, "GetChildAtIndex(\(int(0)))")
            return .answer(child ?? "null")
        case "GetAttributes": return .answer("\(accessible.attributes(of: object).count)")
        case "GetRelationSet":
            let relations = accessible.relations(of: object)
            for relation in relations {
                for target in relation.targets { expectReference(target, "a relation target") }
            }
            return .answer("\(relations.count)")
        case "GetIndexInParent":
            var cache = SiblingIndexCache()
            return .answer("\(accessible.indexInParent(of: object, cache: &cache))")
        case "GetRole", "GetState", "GetInterfaces":
            guard let node else { return .answer("application") }
            let context = snapshot.context(of: node)
            return .answer(
                "\(ATSPIMapping.role(node, context: context)) \(ATSPIMapping.states(node, context: context, focused: false).bits) \(ATSPIMapping.interfaces(node, context: context).rawValue)"
            )
        default: return .answer(node.map { accessible.description(of: $0) } ?? "")
        }
    }

    mutating func component(_ node: AXNode) -> ATSPIModelFuzz.Outcome {
        let component = ComponentModel(snapshot: snapshot)
        switch member {
        case "Contains":
            return .answer(
                "\(component.contains(node, x: int(0), y: int(1), coordinateType: .init(wireValue: uint(2))))")
        case "GetAccessibleAtPoint":
            let hit = component.accessibleAtPoint(
                in: node, x: int(0), y: int(1), coordinateType: .init(wireValue: uint(2)))
            expectReference(hit, "GetAccessibleAtPoint")
            return .answer(hit ?? "null")
        case "GetExtents", "ScrollTo":
            let extents = component.extents(of: node, coordinateType: .init(wireValue: uint(0)))
            expectExtents(extents, "GetExtents")
            return .answer("\(extents)")
        case "GetLayer": return .answer("\(component.layer(of: node))")
        case "GetMDIZOrder": return .answer("\(component.mdiZOrder(of: node))")
        default: return .answer("\(component.canGrabFocus(node))")
        }
    }

    mutating func action(_ node: AXNode) -> ATSPIModelFuzz.Outcome {
        let model = ActionModel(node: node, snapshot: snapshot)
        guard let entry = model.entry(at: int(0)) else { return .answer(model.outOfRangeMessage(int(0))) }
        if member == "DoAction" { return .answer("\(String(describing: ActionModel.request(for: entry)))") }
        return .answer(entry.name)
    }

    mutating func text(_ node: AXNode) -> ATSPIModelFuzz.Outcome {
        let model = TextModel(node: node)
        let count = Int32(clamping: model.characterCount)
        let elementExtents = ComponentModel(snapshot: snapshot).extents(of: node, coordinateType: .screen)
        switch member {
        case "GetText":
            let piece = model.text(from: int(0), to: int(1))
            check.expect(piece.unicodeScalars.count <= count, "GetText is longer than the text")
            return .answer(piece)
        case "GetCharacterAtOffset": return .answer("\(model.character(at: int(0)))")
        case "GetStringAtOffset":
            return expectRange(
                count: count,
                model.string(at: int(0), granularity: .init(wireValue: uint(1))), "GetStringAtOffset(\(int(0)))")
        case "GetTextAtOffset":
            return expectRange(
                count: count,
                model.textAtOffset(int(0), boundary: .init(wireValue: uint(1))), "GetTextAtOffset(\(int(0)))")
        case "GetTextBeforeOffset":
            return expectRange(
                count: count,
                model.textBeforeOffset(int(0), boundary: .init(wireValue: uint(1))),
                "GetTextBeforeOffset(\(int(0)))")
        case "GetTextAfterOffset":
            return expectRange(
                count: count,
                model.textAfterOffset(int(0), boundary: .init(wireValue: uint(1))), "GetTextAfterOffset(\(int(0)))")
        case "GetCharacterExtents":
            let extents = model.characterExtents(at: int(0), elementExtents: elementExtents)
            expectExtents(extents, "GetCharacterExtents")
            return .answer("\(extents)")
        case "GetRangeExtents":
            let extents = model.rangeExtents(from: int(0), to: int(1), elementExtents: elementExtents)
            expectExtents(extents, "GetRangeExtents")
            return .answer("\(extents)")
        default:
            let point = ComponentModel(snapshot: snapshot).screenPoint(
                x: int(0), y: int(1), coordinateType: .init(wireValue: uint(2)), relativeTo: node)
            let offset = model.offset(atScreenPoint: point, in: node)
            check.expect(offset >= -1 && offset < max(count, 1), "GetOffsetAtPoint gave \(offset) of \(count)")
            return .answer("\(offset)")
        }
    }

    mutating func editableText(_ node: AXNode) -> ATSPIModelFuzz.Outcome {
        let model = EditableTextModel(node: node)
        if member == "InsertText" {
            return .answer("\(model.insertText(at: int(0), text: string(1), length: int(2)))")
        }
        return .answer("\(model.deleteText(from: int(0), to: int(1)))")
    }

    mutating func selection(_ node: AXNode) -> ATSPIModelFuzz.Outcome {
        let model = SelectionModel(container: node, snapshot: snapshot)
        switch member {
        case "GetSelectedChild":
            let child = model.selectedChild(at: int(0))
            expectReference(child, "GetSelectedChild")
            return .answer(child ?? "null")
        case "IsChildSelected": return .answer("\(model.isChildSelected(at: int(0)))")
        default:
            let child = model.child(at: int(0))
            expectReference(child, member)
            return .answer(child ?? "null")
        }
    }

    mutating func table(_ node: AXNode) -> ATSPIModelFuzz.Outcome {
        let model = TableModel(table: node, snapshot: snapshot)
        let cells = Int32(clamping: model.cells.count)
        switch member {
        case "GetAccessibleAt":
            let cell = model.cell(row: int(0), column: int(1))
            expectReference(cell?.id, "GetAccessibleAt")
            return .answer(cell?.id ?? "null")
        case "GetIndexAt":
            let index = model.index(row: int(0), column: int(1))
            check.expect(index >= -1 && index < cells, "GetIndexAt gave \(index) of \(cells) cells")
            return .answer("\(index)")
        case "GetRowAtIndex": return .answer("\(model.row(atIndex: int(0)))")
        case "GetColumnAtIndex": return .answer("\(model.column(atIndex: int(0)))")
        case "GetRowDescription": return .answer(model.rowDescription(int(0)))
        case "GetColumnDescription": return .answer(model.columnDescription(int(0)))
        case "GetRowExtentAt": return .answer("\(model.rowExtent(row: int(0), column: int(1)))")
        case "GetColumnExtentAt": return .answer("\(model.columnExtent(row: int(0), column: int(1)))")
        case "GetRowHeader":
            let header = model.rowHeader(int(0))
            expectReference(header, "GetRowHeader")
            return .answer(header ?? "null")
        case "GetColumnHeader":
            let header = model.columnHeader(int(0))
            expectReference(header, "GetColumnHeader")
            return .answer(header ?? "null")
        case "IsSelected": return .answer("\(model.isSelected(row: int(0), column: int(1)))")
        default: return .answer("\(String(describing: model.rowColumnExtents(atIndex: int(0))))")
        }
    }

    mutating func tableCell(_ node: AXNode) -> ATSPIModelFuzz.Outcome {
        let model = TableCellModel(cell: node, snapshot: snapshot)
        switch member {
        case "GetRowColumnSpan": return .answer("\(model.rowColumnSpan)")
        case "GetRowHeaderCells":
            for header in model.rowHeaderCells { expectReference(header, "a row header cell") }
            return .answer("\(model.rowHeaderCells)")
        default:
            for header in model.columnHeaderCells { expectReference(header, "a column header cell") }
            return .answer("\(model.columnHeaderCells)")
        }
    }

    mutating func image(_ node: AXNode) -> ATSPIModelFuzz.Outcome {
        let model = ImageModel(snapshot: snapshot)
        switch member {
        case "GetImageExtents":
            let extents = model.imageExtents(of: node, coordinateType: .init(wireValue: uint(0)))
            expectExtents(extents, "GetImageExtents")
            return .answer("\(extents)")
        case "GetImageDescription": return .answer(model.imageDescription(of: node))
        default: return .answer(model.imageLocale(of: node))
        }
    }
}
