import Synchronization

/// The rotors the server derives from the tree (uikit-accessibility-semantics.md §5; D-ROTOR-3): every
/// `SystemRotorType` the mirrored tree can serve, plus a few server rotors VoiceOver offers without a system type.
package enum SystemRotors {
    /// Rotor names the server derives, in the order `rotor.list` reports them.
    package static let derived: [String] = [
        "heading", "headingLevel1", "headingLevel2", "headingLevel3", "headingLevel4", "headingLevel5", "headingLevel6",
        "link", "landmark", "table", "list", "image", "textField",
        // server rotors (no system type): VoiceOver's "containers", "buttons", "static text", "form controls"
        "container", "button", "staticText", "formControl",
    ]

    /// System types the tree cannot serve, and why (`rotor.list` reports them).
    package static let unavailable: [(name: String, reason: String)] = [
        ("visitedLink", "the mirror carries no visited state for links")
    ]

    /// Whether `node` is a member of the derived rotor `name` (unknown names: false).
    package static func isMember(_ node: AXNode, of name: String) -> Bool {
        switch name {
        case "heading": return isHeading(node)
        case "headingLevel1", "headingLevel2", "headingLevel3", "headingLevel4", "headingLevel5", "headingLevel6":
            return isHeading(node, atLevel: name)
        case "link": return node.role == .link || node.traits.contains(.link)
        case "landmark", "table", "list": return isContainer(node, of: name)
        case "image": return node.role == .image || (node.isElement && node.traits.contains(.image))
        case "textField": return isTextField(node)
        case "container": return node.role.isContainerRole && node.role != .window
        case "button": return node.role == .button
        case "staticText": return node.role == .staticText
        case "formControl": return isFormControl(node)
        default: return false
        }
    }

    private static func isHeading(_ node: AXNode) -> Bool {
        node.role == .header || node.traits.contains(.header)
    }

    /// A heading whose level matches the rotor `headingLevelN`.
    private static func isHeading(_ node: AXNode, atLevel name: String) -> Bool {
        guard isHeading(node), let level = node.headingLevel else { return false }
        return "headingLevel\(level)" == name
    }

    /// Landmarks, tables and lists: by role or by `accessibilityContainerType` (R39).
    private static func isContainer(_ node: AXNode, of name: String) -> Bool {
        switch name {
        case "landmark": return node.role == .landmark || node.containerType == .landmark
        case "table": return node.role == .table || node.containerType == .dataTable
        default: return node.role == .list || node.containerType == .list
        }
    }

    private static func isEditableTextView(_ node: AXNode) -> Bool {
        node.role == .textView && node.states.contains(.editable)
    }

    private static func isTextField(_ node: AXNode) -> Bool {
        [.textField, .secureTextField, .searchField].contains(node.role) || isEditableTextView(node)
    }

    private static func isFormControl(_ node: AXNode) -> Bool {
        [.button, .textField, .secureTextField, .searchField, .switch, .adjustable, .tab].contains(node.role)
            || isEditableTextView(node)
    }

    /// The system type a derived rotor stands for (`none` for the server rotors).
    package static func systemType(of name: String) -> SystemRotorType {
        SystemRotorType(rawValue: name) ?? .none
    }
}

/// A rotor available at an element: derived from the tree, or declared by the element or an ancestor (X54).
package struct RotorInfo: Sendable, Equatable {
    package enum Source: String, Sendable { case system, custom }
    package var name: String
    package var systemType: SystemRotorType
    package var source: Source
    /// The node that declares a custom rotor (the element itself or an ancestor).
    package var declaredBy: String?
    package var count: Int
    /// The app computes the items (`"search": "app"`, R58): the server asks it for each step (D-ROTOR-5).
    package var searchedByApp = false
}

/// One rotor step's answer (R59): the item, or the end of the rotor.
package struct RotorStep: Sendable, Equatable {
    package var rotor: RotorInfo
    package var item: RotorItem?
    /// Items searched before answering (bounded by the rotor's size).
    package var searched: Int
    /// The rotor's items are computed by the app: `item` is nil and the caller asks the app (D-ROTOR-5).
    package var searchedByApp = false
}

package enum RotorDirection: String, Sendable, CaseIterable { case next, previous }

/// The rotor engine: lists the rotors at an element and steps through one (R57–R61, X24, X25, X54). Pure; the
/// document order and the derived rotors' members are computed once per revision (`RotorIndex`).
package struct RotorEngine: Sendable {
    package let index: RotorIndex

    package init(index: RotorIndex) { self.index = index }

    private var tree: AXTree { index.tree }

    /// The custom rotors declared by `element` and its ancestors, nearest first; a nearer rotor hides a farther
    /// one of the same name (X54, R60).
    package func customRotors(at element: String?) -> [(rotor: CustomRotor, declaredBy: String)] {
        guard let element, tree[element] != nil else { return [] }
        var out: [(rotor: CustomRotor, declaredBy: String)] = []
        var seen = Set<String>()
        for id in [element] + tree.ancestors(of: element) {
            guard let node = tree[id] else { continue }
            for rotor in node.rotors where seen.insert(rotor.name).inserted {
                out.append((rotor, id))
            }
        }
        return out
    }

    /// Every rotor available at `element` (custom first, then the derived ones that have members).
    package func list(at element: String?) -> [RotorInfo] {
        var out = customRotors(at: element).map { entry in
            RotorInfo(
                name: entry.rotor.name, systemType: entry.rotor.systemType, source: .custom,
                declaredBy: entry.declaredBy,
                count: entry.rotor.items.count, searchedByApp: entry.rotor.searchedByApp)
        }
        let custom = Set(out.map(\.name))
        for name in SystemRotors.derived where !custom.contains(name) {
            let count = index.members(of: name).count
            guard count > 0 else { continue }
            out.append(
                RotorInfo(
                    name: name, systemType: SystemRotors.systemType(of: name), source: .system, declaredBy: nil,
                    count: count))
        }
        // Bold, italic, underline, misspelled: the runs apps report (D-TEXT-APP-3).
        return out + textAttributeRotorInfos(excluding: custom)
    }

    /// The names `rotor.next` accepts at `element`.
    package func acceptedNames(at element: String?) -> [String] {
        customRotors(at: element).map(\.rotor.name) + SystemRotors.derived + TextAttributeRotors.names
    }

    /// Steps `rotor` from `current` (nil: the empty current item, X24) in `direction`. A custom rotor declared
    /// at the element or an ancestor takes precedence over the derived rotor of the same name (R57: an app
    /// replaces a system rotor with `init(systemType:)`). Returns nil for an unknown rotor name. For a rotor the
    /// app searches (R58) the step has `searchedByApp` set and no item: the caller asks the app.
    package func step(_ name: String, at element: String?, from current: RotorItem?, direction: RotorDirection)
        -> RotorStep?
    {
        if let custom = customRotors(at: element).first(where: { $0.rotor.name == name }) {
            let info = RotorInfo(
                name: name, systemType: custom.rotor.systemType, source: .custom, declaredBy: custom.declaredBy,
                count: custom.rotor.items.count, searchedByApp: custom.rotor.searchedByApp)
            if custom.rotor.searchedByApp {
                return RotorStep(rotor: info, item: nil, searched: 0, searchedByApp: true)
            }
            return stepCustom(custom.rotor.items, info: info, from: current, direction: direction)
        }
        if let attributeStep = stepTextAttributeRotor(name, from: current, direction: direction) {
            return attributeStep
        }
        guard SystemRotors.derived.contains(name) else { return nil }
        let members = index.members(of: name)
        let info = RotorInfo(
            name: name, systemType: SystemRotors.systemType(of: name), source: .system, declaredBy: nil,
            count: members.count)
        return stepDerived(members, info: info, from: current, direction: direction)
    }

    /// Derived rotors: members in document order; the next member after the current item's position (X24 when
    /// there is no current item: the first, or the last going back).
    private func stepDerived(_ members: [Int], info: RotorInfo, from current: RotorItem?, direction: RotorDirection)
        -> RotorStep
    {
        guard let current, let position = index.position[current.target] else {
            let pick = direction == .next ? members.first : members.last
            return RotorStep(
                rotor: info, item: pick.map { RotorItem(target: index.order[$0]) }, searched: pick == nil ? 0 : 1)
        }
        // Binary search for the first member after (or the last before) the current position.
        var low = 0
        var high = members.count
        while low < high {
            let middle = (low + high) / 2
            if members[middle] <= position { low = middle + 1 } else { high = middle }
        }
        let pick: Int?
        switch direction {
        case .next: pick = low < members.count ? members[low] : nil
        case .previous:
            var before = low - 1
            if before >= 0, members[before] == position { before -= 1 }
            pick = before >= 0 ? members[before] : nil
        }
        return RotorStep(rotor: info, item: pick.map { RotorItem(target: index.order[$0]) }, searched: members.count)
    }

    /// Static item lists (D-ROTOR-1): the item after the current one in the list; when the current item is not in
    /// the list, the first item after its element in document order; with no current item, the first or the last
    /// item (X24). An item without a range stands for its whole element (X25).
    func stepCustom(_ items: [RotorItem], info: RotorInfo, from current: RotorItem?, direction: RotorDirection)
        -> RotorStep
    {
        guard let current else {
            let pick = direction == .next ? items.first : items.last
            return RotorStep(rotor: info, item: pick, searched: items.isEmpty ? 0 : 1)
        }
        if let at = items.firstIndex(of: current) {
            let target = direction == .next ? at + 1 : at - 1
            return RotorStep(rotor: info, item: items.indices.contains(target) ? items[target] : nil, searched: at + 1)
        }
        guard let position = index.position[current.target] else {
            let pick = direction == .next ? items.first : items.last
            return RotorStep(rotor: info, item: pick, searched: items.count)
        }
        var pick: RotorItem?
        switch direction {
        case .next:
            pick = items.first { index.position[$0.target].map { $0 > position } ?? false }
        case .previous:
            pick = items.last { index.position[$0.target].map { $0 < position } ?? false }
        }
        return RotorStep(rotor: info, item: pick, searched: items.count)
    }
}

/// Document order of one revision's tree and the derived rotors' members, computed on first use.
package final class RotorIndex: Sendable {
    package let tree: AXTree
    /// Every node in document (depth-first reading) order, windows back to front.
    package let order: [String]
    package let position: [String: Int]
    private let memberLists = Mutex<[String: [Int]]>([:])
    private let membership = Mutex<[String: [String]]?>(nil)

    package init(tree: AXTree) {
        self.tree = tree
        var order: [String] = []
        order.reserveCapacity(tree.count)
        tree.walk { node, _ in
            order.append(node.id)
            return true
        }
        var position: [String: Int] = [:]
        position.reserveCapacity(order.count)
        for (offset, id) in order.enumerated() { position[id] = offset }
        self.order = order
        self.position = position
    }

    package var revision: Int { tree.revision }

    /// Element id → the custom rotors listing it (static lists only), computed once per revision.
    func customMembership() -> [String: [String]] {
        if let cached = membership.withLock({ $0 }) { return cached }
        var out: [String: [String]] = [:]
        for id in order {
            guard let node = tree[id], !node.rotors.isEmpty else { continue }
            for rotor in node.rotors where !rotor.searchedByApp {
                for item in rotor.items where tree[item.target] != nil {
                    var names = out[item.target] ?? []
                    if !names.contains(rotor.name) {
                        names.append(rotor.name)
                        out[item.target] = names
                    }
                }
            }
        }
        membership.withLock { $0 = out }
        return out
    }

    /// The positions of the derived rotor's members, in document order.
    package func members(of name: String) -> [Int] {
        if let cached = memberLists.withLock({ $0[name] }) { return cached }
        var out: [Int] = []
        for (offset, id) in order.enumerated() {
            if let node = tree[id], SystemRotors.isMember(node, of: name) { out.append(offset) }
        }
        memberLists.withLock { $0[name] = out }
        return out
    }
}
