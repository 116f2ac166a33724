import AXATSPIModel
import AXCore
import AXDemo
import AXJSON

/// The AT-SPI model's answers, bus-free: the input is read as a list of calls (object, interface, method, typed
/// arguments) dispatched to the pure model (`AXATSPIModel`: one typed answer per interface) over the demo app's
/// served snapshot, the way the bridge dispatches a D-Bus method call — the argument types are checked against
/// the method's signature first (a mismatch is the typed `invalidArgs`), an interface the object lacks is
/// `unknownInterface`, an unknown member `unknownMethod`. Arguments are often of the wrong type, indices out of
/// range and offsets near `Int32.min`/`Int32.max`. Checked: every call ends in a typed answer or a typed error
/// (never a trap), extents are never negative in size, references name objects of the snapshot, text ranges
/// stay within the text, table indices within the table.
enum ATSPIModelFuzz {
    static let target = FuzzTarget(
        name: "atspi-model",
        summary:
            "AXATSPIModel dispatch over the demo snapshot: random interface/method/typed args → typed answer or typed error",
        run: run)

    /// One argument as the wire would carry it.
    enum Argument: Equatable {
        case int32(Int32)
        case uint32(UInt32)
        case string(String)
        case boolean(Bool)

        /// The D-Bus type code.
        var code: Character {
            switch self {
            case .int32: return "i"
            case .uint32: return "u"
            case .string: return "s"
            case .boolean: return "b"
            }
        }
    }

    /// What a call ended in.
    enum Outcome: Equatable {
        case answer(String)
        case unknownInterface
        case unknownMethod
        case invalidArgs(expected: String, got: String)
    }

    /// A second window holding a data table (the demo app has none): headers by row and column, a spanning
    /// cell, a header id that names no view, and a cell far outside the declared rows.
    static let tableWindow = #"""
        {"id": "fuzz.w", "class": "UIWindow", "frame": [0, 0, 400, 400], "windowTitle": "Grid", "children": [
          {"id": "fuzz.grid", "class": "UIView", "frame": [20, 30, 200, 160],
           "accessibilityContainerType": "dataTable", "accessibilityLabel": "People",
           "accessibilityDataTable": {"rows": 3, "columns": 2, "columnHeaders": {"0": ["fuzz.h0"], "1": ["fuzz.h1"]},
                                      "rowHeaders": {"1": ["fuzz.c10", "fuzz.gone"], "2": ["fuzz.gone"]}},
           "children": [
             {"id": "fuzz.h0", "class": "UILabel", "frame": [0, 0, 100, 40], "text": "Name",
              "accessibilityRowRange": [0, 1], "accessibilityColumnRange": [0, 1]},
             {"id": "fuzz.h1", "class": "UILabel", "frame": [100, 0, 100, 40], "text": "Age",
              "accessibilityRowRange": [0, 1], "accessibilityColumnRange": [1, 1]},
             {"id": "fuzz.c10", "class": "UILabel", "frame": [0, 40, 100, 40], "text": "Ann",
              "accessibilityRowRange": [1, 1], "accessibilityColumnRange": [0, 1], "isSelected": true},
             {"id": "fuzz.c11", "class": "UILabel", "frame": [100, 40, 100, 40], "text": "31",
              "accessibilityRowRange": [1, 1], "accessibilityColumnRange": [1, 1]},
             {"id": "fuzz.total", "class": "UILabel", "frame": [0, 80, 200, 40], "text": "Total",
              "accessibilityRowRange": [2, 1], "accessibilityColumnRange": [0, 2]},
             {"id": "fuzz.far", "class": "UILabel", "frame": [0, 120, 200, 40], "text": "Far",
              "accessibilityRowRange": [1000000, 3], "accessibilityColumnRange": [7, 1000]}]}]}
        """#

    /// The demo app's served snapshot with `tableWindow` added (built once) and its nodes in a stable order.
    static let demo: (snapshot: ServedSnapshot, nodes: [AXNode]) = {
        let store = HierarchyStore()
        do {
            try store.setSnapshot(DemoApp().snapshot())
            try store.apply([.insert(parent: nil, index: nil, view: try JSON.parse(Array(tableWindow.utf8)))])
        } catch {
            fatalError("the demo snapshot does not load: \(error)")
        }
        let tree = store.tree
        let snapshot = ServedSnapshot(tree: tree, focusedID: nil, applicationName: "Demo")
        let nodes = tree.nodes.keys.sorted().compactMap { tree[$0] }
        return (snapshot, nodes)
    }()

    /// For each entry of `methods`, the demo nodes serving that interface.
    static let implementers: [[AXNode]] = methods.map { entry in
        demo.nodes.filter { node in
            ATSPIMapping.interfaces(node, context: demo.snapshot.context(of: node)).contains(entry.interface)
        }
    }

    /// The interfaces the target dispatches, with each method's signature (as the bridge checks it).
    static let methods: [(interface: ATSPIInterfaces, name: String, members: [(String, String)])] = [
        (
            .accessible, "Accessible",
            [
                ("GetChildAtIndex", "i"), ("GetAttributes", ""), ("GetRelationSet", ""), ("GetIndexInParent", ""),
                ("GetRole", ""), ("GetState", ""), ("GetInterfaces", ""), ("GetDescription", ""),
            ]
        ),
        (
            .component, "Component",
            [
                ("Contains", "iiu"), ("GetAccessibleAtPoint", "iiu"), ("GetExtents", "u"), ("GetLayer", ""),
                ("GetMDIZOrder", ""), ("GrabFocus", ""), ("ScrollTo", "u"),
            ]
        ),
        (.action, "Action", [("GetName", "i"), ("GetDescription", "i"), ("GetKeyBinding", "i"), ("DoAction", "i")]),
        (
            .text, "Text",
            [
                ("GetText", "ii"), ("GetCharacterAtOffset", "i"), ("GetStringAtOffset", "iu"),
                ("GetTextAtOffset", "iu"), ("GetTextBeforeOffset", "iu"), ("GetTextAfterOffset", "iu"),
                ("GetCharacterExtents", "iu"), ("GetRangeExtents", "iiu"), ("GetOffsetAtPoint", "iiu"),
            ]
        ),
        (.editableText, "EditableText", [("InsertText", "isi"), ("DeleteText", "ii")]),
        (
            .selection, "Selection",
            [("GetSelectedChild", "i"), ("IsChildSelected", "i"), ("SelectChild", "i"), ("DeselectChild", "i")]
        ),
        (
            .table, "Table",
            [
                ("GetAccessibleAt", "ii"), ("GetIndexAt", "ii"), ("GetRowAtIndex", "i"), ("GetColumnAtIndex", "i"),
                ("GetRowDescription", "i"), ("GetColumnDescription", "i"), ("GetRowExtentAt", "ii"),
                ("GetColumnExtentAt", "ii"), ("GetRowHeader", "i"), ("GetColumnHeader", "i"), ("IsSelected", "ii"),
                ("GetRowColumnExtentsAtIndex", "i"),
            ]
        ),
        (.tableCell, "TableCell", [("GetRowColumnSpan", ""), ("GetRowHeaderCells", ""), ("GetColumnHeaderCells", "")]),
        (.image, "Image", [("GetImageExtents", "u"), ("GetImageDescription", ""), ("GetImageLocale", "")]),
        (
            .collection, "Collection",
            [("GetMatches", "uib"), ("GetMatchesFrom", "suib"), ("GetMatchesTo", "suib")]
        ),
        (.value, "Value", [("SetCurrentValue", "i")]),
    ]

    /// Reads the input byte by byte (zeros past the end).
    struct Bytes {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        var isAtEnd: Bool { position >= bytes.count }

        mutating func byte() -> UInt8 {
            guard position < bytes.count else { return 0 }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func int32() -> Int32 {
            // Mostly the interesting values: small indices, the extremes, just past them.
            switch byte() % 8 {
            case 0: return Int32(Int8(bitPattern: byte()))
            case 1: return .max
            case 2: return .min
            case 3: return Int32(byte()) * 1_000_000
            default:
                var value: UInt32 = 0
                for _ in 0..<4 { value = value << 8 | UInt32(byte()) }
                return Int32(bitPattern: value)
            }
        }

        mutating func string() -> String {
            let length = Int(byte() % 24)
            var scalars: [UInt8] = []
            for _ in 0..<length { scalars.append(byte()) }
            return String(decoding: scalars, as: UTF8.self)
        }

        mutating func argument() -> Argument {
            switch byte() % 5 {
            case 0, 1: return .int32(int32())
            case 2: return .uint32(UInt32(bitPattern: int32()))
            case 3: return .string(string())
            default: return .boolean(byte() & 1 == 1)
            }
        }
    }

    static func run(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var check = FuzzCheck()
        var input = Bytes(bytes: bytes)
        var calls = 0
        while !input.isAtEnd && calls < 64 {
            calls += 1
            let objectByte = Int(input.byte())
            let interfaceIndex = Int(input.byte()) % methods.count
            // 255: the application root; 128…254: a node serving the interface (when one does); else any node.
            let serving = implementers[interfaceIndex]
            let object: ServedObject =
                if objectByte == 255 || demo.nodes.isEmpty {
                    .applicationRoot
                } else if objectByte >= 128, !serving.isEmpty {
                    .node(serving[objectByte % serving.count])
                } else {
                    .node(demo.nodes[objectByte % demo.nodes.count])
                }
            let memberByte = Int(input.byte())
            let argumentCount = Int(input.byte() % 6)
            var arguments: [Argument] = []
            for _ in 0..<argumentCount { arguments.append(input.argument()) }
            let entry = methods[interfaceIndex]
            // One byte in 16 names a member the interface does not have.
            let member = memberByte % 16 == 15 ? "NoSuchMethod" : entry.members[memberByte % entry.members.count].0
            let outcome = dispatch(
                object, interface: entry.interface, member: member, arguments: arguments, check: &check)
            if case .invalidArgs(let expected, let got) = outcome {
                check.expect(expected != got, "\(entry.name).\(member) refused its own signature '\(got)'")
            }
        }
        return check.failures
    }

    /// What the bridge answers before the interface's model is reached: the root's Collection, an interface the
    /// object lacks, an unknown member, arguments that do not fit the signature; nil when the call goes on.
    static func precheck(
        _ object: ServedObject, interface: ATSPIInterfaces, member: String, arguments: [Argument],
        check: inout FuzzCheck
    ) -> Outcome? {
        // The bridge's rule: Accessible everywhere, Collection on the root too, others on nodes that implement them.
        if interface != .accessible {
            guard let node = object.node else {
                return interface == .collection
                    ? collection(object, member, arguments, check: &check) : .unknownInterface
            }
            let served = ATSPIMapping.interfaces(node, context: demo.snapshot.context(of: node))
            if interface != .component && !served.contains(interface) { return .unknownInterface }
        }
        guard
            let signature = methods.first(where: { $0.interface == interface })?.members.first(where: {
                $0.0 == member
            })?.1
        else { return .unknownMethod }
        let got = String(arguments.map(\.code))
        guard got == signature else { return .invalidArgs(expected: signature, got: got) }
        return nil
    }

    /// Dispatches one call to the model the way the bridge does; answers are rendered as text.
    static func dispatch(
        _ object: ServedObject, interface: ATSPIInterfaces, member: String, arguments: [Argument],
        check: inout FuzzCheck
    ) -> Outcome {
        let snapshot = demo.snapshot
        let node = object.node
        if let outcome = precheck(object, interface: interface, member: member, arguments: arguments, check: &check) {
            return outcome
        }
        var call = ModelCall(snapshot: snapshot, object: object, member: member, arguments: arguments, check: check)
        defer { check = call.check }
        if interface == .accessible { return call.accessible() }
        guard let node else { return .unknownInterface }
        switch interface {
        case .component: return call.component(node)
        case .action: return call.action(node)
        case .text: return call.text(node)
        case .editableText: return call.editableText(node)
        case .selection: return call.selection(node)
        case .table: return call.table(node)
        case .tableCell: return call.tableCell(node)
        case .image: return call.image(node)
        case .collection: return collection(object, member, arguments, check: &call.check)
        case .value: return .answer("\(ValueModel.plan(settingCurrentValueOf: node, to: Double(call.int(0))))")
        default: return .unknownInterface
        }
    }

    /// `Collection` (served on the application root too): an empty match rule matches everything.
    static func collection(_ object: ServedObject, _ member: String, _ arguments: [Argument], check: inout FuzzCheck)
        -> Outcome
    {
        guard
            let signature = methods.first(where: { $0.interface == .collection })?.members.first(where: {
                $0.0 == member
            })?.1
        else { return .unknownMethod }
        let got = String(arguments.map(\.code))
        guard got == signature else { return .invalidArgs(expected: signature, got: got) }
        let model = CollectionModel(snapshot: demo.snapshot)
        // The match rule comes from the count argument's bits: states and their match type, one role.
        var rule = MatchRule()
        if case .int32(let bits) = arguments[signature.count == 4 ? 2 : 1], bits != 0 {
            rule.states = UInt64(UInt32(bitPattern: bits) & 0x00FF_FFFF)
            rule.stateMatch = CollectionMatchType(wireValue: (bits >> 24) & 7)
            rule.roleWords = [UInt32(bitPattern: bits) >> 27]
            rule.roleMatch = CollectionMatchType(wireValue: (bits >> 28) & 3)
        }
        let offset = signature.count == 4 ? 1 : 0
        guard case .uint32(let sort) = arguments[offset], case .int32(let count) = arguments[offset + 1],
            case .boolean(let traverse) = arguments[offset + 2]
        else { return .invalidArgs(expected: signature, got: got) }
        let found: [String]?
        if offset == 1, case .string(let current) = arguments[0] {
            found = model.matches(
                in: object, relativeTo: current, before: member == "GetMatchesTo", rule: rule,
                sortOrder: .init(wireValue: sort), count: count, traverse: traverse)
        } else {
            found = model.matches(
                in: object, rule: rule, sortOrder: .init(wireValue: sort), count: count, traverse: traverse)
        }
        for id in found ?? [] {
            check.expect(demo.snapshot.node(id) != nil, "Collection.\(member) names '\(id)', not in the snapshot")
        }
        if count > 0, let found {
            check.expect(found.count <= Int(count), "Collection.\(member) gave \(found.count) > count \(count)")
        }
        return .answer("\(found?.count ?? -1)")
    }
}
