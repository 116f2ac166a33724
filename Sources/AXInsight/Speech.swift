import AXCore

/// One piece of what VoiceOver says, with its kind (label, value, trait, state, position, hint).
package struct SpeechPart: Sendable, Equatable {
    package var kind: String
    package var text: String

    package init(kind: String, text: String) {
        self.kind = kind
        self.text = text
    }
}

/// VoiceOver's utterance for an element (D-SPEECH-1): "Selected" for a selected element, then label, value,
/// the traits' words in UIKit's bit order, "dimmed", the position in its set or table, and — after a pause —
/// the hint. The accessibility identifier is never spoken (R44).
package struct VoiceOverUtterance: Sendable, Equatable {
    /// Everything before the pause, in order.
    package var parts: [SpeechPart]
    /// Spoken after a pause; nil when there is none.
    package var hint: String?

    /// The parts joined by VoiceOver's short pauses (", "), and the hint after a long one (". ").
    package var text: String {
        let main = parts.map(\.text).joined(separator: ", ")
        guard let hint else { return main }
        return main.isEmpty ? hint : main + ". " + hint
    }
}

/// The VoiceOver model (pure).
package enum VoiceOverSpeech {
    /// VoiceOver's standard hint for adjustable elements (S0:21218's slider example).
    package static let adjustableHint = "Swipe up or down with one finger to adjust the value."

    /// Words for traits, in bit order; traits not listed are silent (staticText, updatesFrequently, …).
    static let traitWords: [(Traits, String)] = [
        (.button, "button"), (.link, "link"), (.image, "image"), (.keyboardKey, "key"), (.searchField, "search field"),
        (.adjustable, "adjustable"),
    ]

    package static func describe(_ node: AXNode, in tree: AXTree) -> VoiceOverUtterance {
        describe(node, parentRole: node.parent.flatMap { tree[$0]?.role }, in: tree)
    }

    static func describe(_ node: AXNode, parentRole: AXRole?, in tree: AXTree) -> VoiceOverUtterance {
        var parts: [SpeechPart] = []
        let traits = node.traits
        if node.states.contains(.selected) || traits.contains(.selected) {
            parts.append(SpeechPart(kind: "state", text: "Selected"))
        }
        if let label = node.label, !label.isEmpty {
            parts.append(SpeechPart(kind: "label", text: label))
        }
        let position = positionText(node)
        if let value = node.value, !value.isEmpty, value != node.label, value != position {
            parts.append(SpeechPart(kind: "value", text: value))
        }
        for word in roleWords(node, parentRole: parentRole) {
            parts.append(SpeechPart(kind: "trait", text: word))
        }
        if traits.contains(.notEnabled) || !node.isEnabled {
            parts.append(SpeechPart(kind: "state", text: "dimmed"))
        }
        if let position {
            parts.append(SpeechPart(kind: "position", text: position))
        } else if let row = rowText(node, tree: tree) {
            parts.append(SpeechPart(kind: "position", text: row))
        }
        return VoiceOverUtterance(parts: parts, hint: hint(node))
    }

    /// The element's hint, or the adjustable hint for an enabled adjustable element without one.
    static func hint(_ node: AXNode) -> String? {
        if let hint = node.hint, !hint.isEmpty { return hint }
        let adjustable = node.traits.contains(.adjustable) || node.role == .adjustable || node.role == .pickerItem
        return adjustable && node.isEnabled ? adjustableHint : nil
    }

    /// The words VoiceOver says for the element's kind: its traits' words plus the role words UIKit adds for
    /// classes without a trait (tab, text field, switch, picker item, back button, heading level).
    static func roleWords(_ node: AXNode, parentRole: AXRole?) -> [String] {
        var words: [String] = []
        let traits = node.traits
        let isBackButton = node.role == .button && parentRole == .navigationBar && node.id.hasSuffix("#back")
        for (trait, word) in traitWords where traits.contains(trait) {
            if trait == .button && (node.role == .switch || node.role == .tab || isBackButton) { continue }
            words.append(word)
        }
        words = classRoleWords(node, isBackButton: isBackButton, traitWords: words)
        if traits.contains(.header) || node.role == .header {
            words.append(node.headingLevel.map { "heading level \($0)" } ?? "heading")
        }
        return words
    }

    /// The trait words with the role words UIKit adds for classes without a trait.
    static func classRoleWords(_ node: AXNode, isBackButton: Bool, traitWords words: [String]) -> [String] {
        var words = words
        let traits = node.traits
        switch node.role {
        case .switch:
            words.append("switch button")
        case .tab:
            words.append("tab")
        case .textField:
            words.append("text field")
        case .secureTextField:
            words.append("secure text field")
        case .searchField:
            if !traits.contains(.searchField) { words.append("search field") }
        case .textView:
            if node.states.contains(.editable) { words.append("text field") }
        case .pickerItem:
            words.insert("picker item", at: 0)
            if !traits.contains(.adjustable) { words.append("adjustable") }
        case .button where isBackButton:
            words.append("back button")
        case .progressIndicator:
            words.append("progress")
        default:
            break
        }
        return words
    }

    /// "2 of 3" for tabs and segments (R12, A51).
    static func positionText(_ node: AXNode) -> String? {
        guard let position = node.positionInSet, let size = node.sizeOfSet else { return nil }
        return "\(position) of \(size)"
    }

    /// "row 2 of 5" for a data-table cell (R41, R43).
    static func rowText(_ node: AXNode, tree: AXTree) -> String? {
        guard let cell = node.cell else { return nil }
        var current = node.parent
        while let id = current, let ancestor = tree[id] {
            if let table = ancestor.table {
                return "row \(cell.row + 1) of \(table.rows)"
            }
            current = ancestor.parent
        }
        return nil
    }
}

/// The screen readers whose phrasing the Orca model knows (`screenReader` on `speech.describe` and `speech.walk`;
/// D-SPEECH-3). Each was measured on the demo's Tab stops against the real screen reader.
package enum ScreenReaderVersion: String, CaseIterable, Sendable {
    /// Debian 12's Orca 43.1 on libatspi 2.46 (the default).
    case orca43 = "orca-43"
    /// Orca 48.1 on libatspi 2.56 (Tools/install-orca48.sh).
    case orca48 = "orca-48"

    /// The phrasing used when a caller names none.
    package static let standard: ScreenReaderVersion = .orca43
}

/// Orca's speech for an element reached by focus (D-SPEECH-2, D-SPEECH-3): the utterances Orca's speech generator
/// makes for the AT-SPI object the bridge exposes (Specs/atspi-mapping.md), in the phrasing of the chosen Orca.
/// Ancestor context that Orca adds when focus enters a new container (a panel, a tool bar, a radio group's name) is
/// left out: it depends on where focus was before.
package enum OrcaSpeech {
    /// The AT-SPI role name the bridge gives the node (libatspi 2.46's English names; Specs/atspi-mapping.md §2).
    package static func roleName(_ node: AXNode, parentRole: AXRole?) -> String {
        if let item = MenuItemKind.of(node, parentRole: parentRole) { return menuItemNames(item) }
        switch node.role {
        case .button:
            if parentRole == .segmentedControl { return "radio button" }
            if node.traits.contains(.toggleButton) { return "toggle button" }
            return "push button"
        // A read-only UITextView is TEXT on AT-SPI (D-ATSPI-TEXT-1).
        case .staticText: return node.viewClass == .textView ? "text" : "label"
        case .adjustable: return node.viewClass == .stepper ? "spin button" : "slider"
        case .cell: return parentRole == .table ? "table cell" : "list item"
        default: return roleNames[node.role] ?? "panel"
        }
    }

    /// An element of a menu or a menu bar (D-MENU-1; the AT-SPI roles of Specs/atspi-mapping.md).
    static func menuItemNames(_ kind: MenuItemKind) -> String {
        switch kind {
        case .item: return "menu item"
        case .checkItem: return "check menu item"
        case .radioItem: return "radio menu item"
        case .submenu: return "menu"
        }
    }

    /// The role name the chosen Orca speaks: Orca 48 on libatspi 2.56 says "button" for PUSH_BUTTON (libatspi 2.56's
    /// localized role name) and "switch" for a toggle button whose `xml-roles` has `switch` (its `is_switch`).
    package static func roleName(_ node: AXNode, parentRole: AXRole?, reader: ScreenReaderVersion) -> String {
        let name = roleName(node, parentRole: parentRole)
        switch reader {
        case .orca43: return name
        case .orca48:
            if node.role == .switch { return "switch" }
            return name == "push button" ? "button" : name
        }
    }

    /// The role names that depend on the role alone (a test checks that every other role has a row).
    static let roleNames: [AXRole: String] = [
        .window: "frame",
        .alert: "alert",
        .group: "panel",
        .segmentedControl: "panel",
        .picker: "panel",
        .list: "list",
        .table: "table",
        .landmark: "landmark",
        .tabBar: "page tab list",
        .menu: "menu",
        .menuBar: "menu bar",
        .navigationBar: "tool bar",
        .toolbar: "tool bar",
        .keyboardKey: "push button",
        .link: "link",
        .image: "image",
        .header: "heading",
        // UITextField is TEXT on AT-SPI like GTK 4's entries (D-ATSPI-TEXT-2).
        .textField: "text",
        .searchField: "text",
        .secureTextField: "password text",
        .textView: "text",
        .pickerItem: "spin button",
        .switch: "toggle button",
        .tab: "page tab",
        .progressIndicator: "progress bar",
        .activityIndicator: "progress bar",
    ]

    /// The lines Orca speaks when the element gets focus: the object's line, then its description (the hint)
    /// as a line of its own.
    package static func describe(_ node: AXNode, in tree: AXTree, reader: ScreenReaderVersion = .standard)
        -> [String]
    {
        let listPosition = ListPositions.position(of: node, in: tree) { ListPositions.rows(of: $0, in: tree) }
        return describe(
            node, parentRole: node.parent.flatMap { tree[$0]?.role }, listPosition: listPosition, reader: reader)
    }

    /// `listPosition`: the node's place among its list's rows (D-ATSPI-POS-1), nil when it is no list row.
    static func describe(
        _ node: AXNode, parentRole: AXRole?, listPosition: (Int, Int)?, reader: ScreenReaderVersion = .standard
    ) -> [String] {
        let role = roleName(node, parentRole: parentRole, reader: reader)
        let name = node.label ?? ""
        if role == "radio button" {
            return radioLines(node, name: name, reader: reader) + descriptionLine(node, name: name)
        }
        var words = objectWords(
            node, role: role, name: name, position: position(node, listPosition: listPosition), reader: reader)
        if !node.isEnabled && role != "label" && role != "heading" {
            words.append("grayed")
        }
        return [words.joined(separator: " ")].filter { !$0.isEmpty } + descriptionLine(node, name: name)
    }

    /// A radio button: Orca 43 (captured) says the name, then "selected radio button" / "not selected radio button"
    /// as a line of its own; Orca 48 (captured) says them on one line ("Light selected radio button").
    static func radioLines(_ node: AXNode, name: String, reader: ScreenReaderVersion) -> [String] {
        let state = (node.states.contains(.selected) ? "selected " : "not selected ") + "radio button"
        switch reader {
        case .orca43: return [name, state].filter { !$0.isEmpty }
        case .orca48: return [name.isEmpty ? state : name + " " + state]
        }
    }

    /// The words of the object's line for its role (empty words left out).
    static func objectWords(
        _ node: AXNode, role: String, name: String, position: String?, reader: ScreenReaderVersion
    ) -> [String] {
        let words: [String?]
        switch role {
        case "label": words = [name]
        case "heading": words = [name, node.headingLevel.map { "heading level \($0)" } ?? "heading"]
        case "toggle button", "switch":
            let on = node.states.contains(.checked) || node.states.contains(.selected) || node.value == "on"
            words = [name, role, on ? "pressed" : "not pressed"]
        case "slider", "spin button", "progress bar": words = valueWords(node, role: role, name: name, reader: reader)
        case "entry", "password text", "text":
            let text = ATSPIText.content(node)
            words = [name, node.states.contains(.editable) ? nil : "read only", role, text != name ? text : nil]
        case "list item", "table cell": words = [name, role, position]
        // Orca 43 and 48 (captured) for a page tab: "Home page tab", no position.
        default: words = [name, role]
        }
        return words.compactMap { word in word.flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// The words of a control with a value, per Orca (each captured on the demo except Orca 48's progress bar, which
    /// follows its speech generator's `_generate_progress_bar`).
    static func valueWords(_ node: AXNode, role: String, name: String, reader: ScreenReaderVersion) -> [String?] {
        switch (role, reader) {
        case ("slider", .orca43): return [name, "horizontal slider", node.value]
        // Orca 48: the value text, then the value as a percentage of the range ("50% 50 percent").
        case ("slider", .orca48): return [name, "horizontal slider", node.value, percentText(node)]
        // Orca 43: the value before the role ("Copies 2 spin button"); Orca 48: after it ("Copies spin button 2").
        case ("spin button", .orca43): return [name, node.value, role]
        case ("spin button", .orca48): return [name, role, node.value]
        case ("progress bar", .orca48): return [name, percentText(node) ?? role]
        default: return [name, role, node.value]
        }
    }

    /// Orca 48's "N percent" for an object with the Value interface (`AXValue.get_value_as_percent`: the current
    /// value over the range's width, times 100, truncated; nil when the range is empty or not finite).
    static func percentText(_ node: AXNode) -> String? {
        guard let numeric = node.numeric, numeric.maximum != numeric.minimum else { return nil }
        let percent = (numeric.current / (numeric.maximum - numeric.minimum) * 100).rounded(.towardZero)
        guard percent.isFinite, abs(percent) < 1e15 else { return nil }
        return "\(Int(percent)) percent"
    }

    /// The description (the hint) as a line of its own.
    static func descriptionLine(_ node: AXNode, name: String) -> [String] {
        guard let hint = node.hint, !hint.isEmpty, hint != name else { return [] }
        return [hint]
    }

    /// "N of M" from the set position the bridge exposes (posinset/setsize): the one the core computed (tabs,
    /// segments), else a list row's place among its list's rows (D-ATSPI-POS-1), which Orca says as it says a GTK
    /// list box row's.
    static func position(_ node: AXNode, listPosition: (Int, Int)?) -> String? {
        if let position = node.positionInSet, let size = node.sizeOfSet { return "\(position) of \(size)" }
        return listPosition.map { "\($0.0) of \($0.1)" }
    }
}

/// The AT-SPI Text content the bridge serves (Specs/atspi-mapping.md): bullets for secure fields.
enum ATSPIText {
    static func content(_ node: AXNode) -> String {
        guard let text = node.text else { return "" }
        return node.role == .secureTextField ? String(repeating: "•", count: text.count) : text
    }
}

/// A whole screen in reading order (`speech.walk`).
package enum SpeechWalk {
    package struct Item: Sendable, Equatable {
        package var id: String
        package var voiceOver: VoiceOverUtterance
        package var orca: [String]
    }

    /// Every element under `root` (or every window) in navigation order (R104), at most `limit`; also returns
    /// how many were left out.
    package static func walk(_ tree: AXTree, root: String?, limit: Int) -> (items: [Item], omitted: Int) {
        walk(tree, root: root, limit: limit, voiceOver: true, orca: true)
    }

    /// The same, computing only the models asked for (an unrequested model's utterance is left empty).
    package static func walk(
        _ tree: AXTree, root: String?, limit: Int, voiceOver: Bool, orca: Bool,
        reader: ScreenReaderVersion = .standard
    ) -> (items: [Item], omitted: Int) {
        var items: [Item] = []
        var omitted = 0
        // Elements are leaves, so an element's parent is a container the walk has already seen.
        var containerRoles: [String: AXRole] = [:]
        var listPositions = ListRowIndex()
        let rootParentRole = root.flatMap { tree[$0]?.parent }.flatMap { tree[$0]?.role }
        tree.walk(from: root) { node, _ in
            guard node.isElement else {
                containerRoles[node.id] = node.role
                return true
            }
            guard items.count < limit else {
                omitted += 1
                return true
            }
            let parentRole = node.parent.flatMap { containerRoles[$0] } ?? (node.id == root ? rootParentRole : nil)
            let spoken =
                voiceOver
                ? VoiceOverSpeech.describe(node, parentRole: parentRole, in: tree)
                : VoiceOverUtterance(parts: [], hint: nil)
            items.append(
                Item(
                    id: node.id, voiceOver: spoken,
                    orca: orca
                        ? OrcaSpeech.describe(
                            node, parentRole: parentRole, listPosition: listPositions.position(of: node, in: tree),
                            reader: reader)
                        : [])
            )
            return true
        }
        return (items, omitted)
    }
}

/// Each list's rows indexed once during a walk, so a list of n rows costs O(n), not O(n²) (D-ATSPI-POS-1).
struct ListRowIndex {
    private var indexes: [String: [String: Int]] = [:]

    /// The node's 1-based place and its list's row count, or nil when it is no list row.
    mutating func position(of node: AXNode, in tree: AXTree) -> (Int, Int)? {
        guard let listID = node.parent, let list = tree[listID], list.role == .list else { return nil }
        if indexes[listID] == nil {
            let rows = ListPositions.rows(of: list, in: tree)
            indexes[listID] = Dictionary(rows.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        }
        guard let rows = indexes[listID], let index = rows[node.id] else { return nil }
        return (index + 1, rows.count)
    }
}
