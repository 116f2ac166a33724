import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXProtocol

/// The queries test scripts need (Specs/protocol.md §Script queries; issue 25 item 3): `element.atPoint`
/// (the accessibility hit test, D-HIT-1), `element.cell` (a data table's cell at (row, column)) and
/// `element.next` / `element.previous` (the VoiceOver swipe, D-QUERY-1). The core decides (HitTesting,
/// ScriptQueries); these translate JSON.
enum ScriptQueryMethods {
    /// Coordinates at or beyond this magnitude are refused (D-GEOM-2's limit).
    static let coordinateLimit = 10_000_000.0

    static func install(_ router: RPCRouter, _ hub: Hub) {
        installLargeContent(router, hub)
        installReadingContent(router, hub)
        router.registerSync(.elementAtPoint) { params, session in
            let arguments = try Params(params, RPCCatalog.ElementAtPoint.self)
            let snap = try AXMethods.snapshot(arguments, hub, session)
            let point = try Self.point(arguments, .point)
            try refuseOutsideWindows(point, snap, method: arguments.method, param: arguments.name(.point))
            guard let view = HitTesting.viewAt(point, in: snap.views, purpose: .exploration) else {
                return answer(nil, view: nil, snap)
            }
            let element = HitTesting.element(reachedFrom: view, at: point, tree: snap.tree, views: snap.views)
            return answer(element, view: view, snap)
        }
        router.registerSync(.elementCell) { params, session in
            let arguments = try Params(params, RPCCatalog.ElementCell.self)
            let snap = try AXMethods.snapshot(arguments, hub, session)
            guard let target = arguments[.target] else {
                throw arguments.bad(.target, "is required (the data table: {id} or {selector})")
            }
            guard let row = try arguments.int(.row, in: 0...ParamRange.maxExactInteger) else {
                throw arguments.bad(.row, "is required (an integer from 0)")
            }
            guard let column = try arguments.int(.column, in: 0...ParamRange.maxExactInteger) else {
                throw arguments.bad(.column, "is required (an integer from 0)")
            }
            let tableID = try Targets.resolveOne(target, in: snap, hub: hub, method: RPCMethodName.elementCell.rawValue)
            guard let table = snap.tree[tableID], let info = table.table else {
                throw RPCError.invalidParams(
                    "element.cell: '\(tableID)' is not a data table",
                    data: [
                        "param": .string(arguments.name(.target)), "method": .string(arguments.method),
                        "reason": "notADataTable",
                        "id": .string(tableID),
                    ])
            }
            guard row < info.rows, column < info.columns else {
                let key = arguments.name(row < info.rows ? .column : .row)
                throw RPCError.invalidParams(
                    "element.cell: (\(row), \(column)) is outside the \(info.rows) × \(info.columns) table '\(tableID)'",
                    data: [
                        "param": .string(key), "method": .string(arguments.method),
                        "reason": "outOfRange",
                        "rows": JSON(info.rows), "columns": JSON(info.columns),
                    ])
            }
            let cell = ScriptQueries.cell(
                row: row, column: column, among: ScriptQueries.cells(of: table, in: snap.tree))
            return answer(cell?.id, view: nil, snap)
        }
        for direction in ScriptQueries.Direction.allCases {
            switch direction {
            case .next: installNeighbour(router, hub, RPCCatalog.ElementNext.self, direction)
            case .previous: installNeighbour(router, hub, RPCCatalog.ElementPrevious.self, direction)
            }
        }
    }

    /// `element.next` / `element.previous {from?, moveFocus?}`: the VoiceOver swipe (D-QUERY-1).
    static func installNeighbour<Spec: RPCMethodSpec>(
        _ router: RPCRouter, _ hub: Hub, _ spec: Spec.Type, _ direction: ScriptQueries.Direction
    ) where Spec.Param == RPCCatalog.ElementNext.Param {
        router.registerSync(Spec.entry.name) { params, session in
            let arguments = try Params(params, spec)
            let snap = try AXMethods.snapshot(arguments, hub, session)
            var from = snap.focusedID  // the swipe starts at the VoiceOver cursor
            if let target = arguments[.from] {
                from = try Targets.resolveOne(target, in: snap, hub: hub, method: arguments.method)
            }
            let moveFocus = try arguments.bool(.moveFocus) ?? false
            guard let found = ScriptQueries.neighbour(of: from, direction, in: snap.tree) else {
                return answer(nil, view: nil, snap)
            }
            guard moveFocus else { return answer(found, view: nil, snap) }
            do {
                try hub.setFocus(app: snap.id, element: found)
                return answer(found, view: nil, try hub.snapshot(snap.id))
            } catch { throw RPCError.from(error) }
        }
    }

    /// `element.largeContent {target}` (issue 25 item 4, D-LCV-1): what the large content viewer shows for the
    /// element — the request a low-vision user's tool makes when the user long-presses a small bar item.
    static func installLargeContent(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.elementLargeContent) { params, session in
            let arguments = try Params(params, RPCCatalog.ElementLargeContent.self)
            let snap = try AXMethods.snapshot(arguments, hub, session)
            guard let target = arguments[.target] else {
                throw arguments.bad(.target, "is required ({id} or {selector})")
            }
            let id = try Targets.resolveOne(
                target, in: snap, hub: hub, method: RPCMethodName.elementLargeContent.rawValue)
            guard let large = snap.tree[id]?.largeContent else {
                throw RPCError.invalidParams(
                    "element.largeContent: '\(id)' does not show the large content viewer (showsLargeContentViewer is false)",
                    data: [
                        "param": .string(arguments.name(.target)), "method": .string(arguments.method),
                        "reason": "noLargeContentViewer",
                        "id": .string(id),
                    ])
            }
            var object = ElementJSON.largeContentJSON(large).objectValue ?? [:]
            object[RPCCatalog.ElementLargeContent.Member.element.rawValue] = .string(id)
            return .object(object)
        }
    }

    /// `element.readingContent {target, line?, point?}` (R93, D-TEXT-APP-4): an element's UIAccessibilityReadingContent —
    /// `{element, lineCount, pageContent, line?}`; `line` is `{number, text, frame}` for the line asked by number, or
    /// the line at a screen point (null where UIKit answers NSNotFound).
    static func installReadingContent(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.elementReadingContent) { params, session in
            let arguments = try Params(params, RPCCatalog.ElementReadingContent.self)
            // The params first: a hostile line or point is refused before the target is looked at.
            let number = try arguments.int(.line, in: 0...ParamRange.maxExactInteger)
            let asked: Point? = arguments[.point] == nil ? nil : try point(arguments, .point)
            let snap = try AXMethods.snapshot(arguments, hub, session)
            guard let target = arguments[.target] else {
                throw arguments.bad(.target, "is required ({id} or {selector})")
            }
            let id = try Targets.resolveOne(
                target, in: snap, hub: hub, method: RPCMethodName.elementReadingContent.rawValue)
            // The lines as the derivation placed them: screen frames, line-number order (D-TEXT-APP-4).
            guard let content = snap.tree[id]?.textContent, !content.lines.isEmpty || content.pageContent != nil else {
                throw RPCError.invalidParams(
                    "element.readingContent: '\(id)' has no reading content (UIAccessibilityReadingContent)",
                    data: [
                        "param": .string(arguments.name(.target)), "method": .string(arguments.method),
                        "reason": "noReadingContent",
                        "id": .string(id),
                    ])
            }
            var object: RPCResultObject<RPCCatalog.ElementReadingContent.Member> = [
                .element: .string(id), .lineCount: JSON(content.lines.count),
                .pageContent: .string(content.pageContent ?? content.lines.map(\.content).joined(separator: "\n")),
            ]
            if let asked {
                object[.line] = lineJSON(content.line(at: asked))
            } else if let number {
                // The app's own line numbers (R93): `line` names a line number, not a position.
                guard let line = content.line(numbered: number) else {
                    let numbers = content.lines.map(\.lineNumber)
                    throw RPCError.invalidParams(
                        "element.readingContent: no line numbered \(number) (the app's lines are numbered \(numbers.map(String.init).joined(separator: ", ")))",
                        data: [
                            "param": .string(arguments.name(.line)), "method": .string(arguments.method),
                            "reason": "outOfRange",
                            "lineNumbers": .array(numbers.map { JSON($0) }),
                        ])
                }
                object[.line] = lineJSON(line)
            }
            return object.json
        }
    }

    /// Bad input on every route that takes a point (D-HIT-1): a point outside every window is −32602 naming the
    /// point and the reason `outsideWindows` (`element.atPoint`, `action.tap`).
    static func refuseOutsideWindows(_ point: Point, _ snap: AppSnapshot, method: String, param: String)
        throws(RPCError)
    {
        guard HitTesting.isInsideSomeWindow(point, views: snap.views) else {
            throw RPCError.invalidParams(
                "\(method): (\(point.x), \(point.y)) is outside every window",
                data: ["param": .string(param), "method": .string(method), "reason": "outsideWindows"])
        }
    }

    /// `{number, text, frame}` of a line (its number is the app's line number), null for none.
    static func lineJSON(_ line: ReadingLine?) -> JSON {
        guard let line else { return .null }
        return [
            "number": JSON(line.lineNumber), "text": .string(line.content), "frame": ElementJSON.rect(line.frame),
        ]
    }

    /// `{element, view?, node}`: the id (null when none) and its `element.get` detail.
    static func answer(_ id: String?, view: String?, _ snap: AppSnapshot) -> JSON {
        var object: RPCResultObject<RPCElementStepMember> = [.element: JSON(id)]
        if let view { object[.view] = .string(view) }
        object[.node] = id.map { .object(AXMethods.elementDetail($0, snap)) } ?? .null
        return object.json
    }

    /// `point: {x, y}` or `[x, y]`, finite and inside D-GEOM-2's range.
    static func point<Key>(_ arguments: Params<Key>, _ key: Key) throws(RPCError) -> Point {
        guard let raw = arguments[key] else { throw arguments.bad(key, "is required ({x, y} or [x, y])") }
        guard let xValue = raw["x"]?.doubleValue ?? raw[0]?.doubleValue,
            let yValue = raw["y"]?.doubleValue ?? raw[1]?.doubleValue
        else {
            throw arguments.bad(key, "must be {x, y} or [x, y]")
        }
        guard abs(xValue) < coordinateLimit, abs(yValue) < coordinateLimit else {
            throw arguments.bad(key, "has a coordinate outside ±10⁷")
        }
        return Point(x: xValue, y: yValue)
    }
}
