/// AT-SPI2 wire constants (at-spi2-core `atspi-constants.h`; enum order = wire value).
package enum ATSPIRole: UInt32, Sendable, CaseIterable {
    case invalid = 0
    case alert = 2
    case canvas = 6
    case checkBox = 7
    case checkMenuItem = 8
    case columnHeader = 10
    case comboBox = 11
    case desktopFrame = 14
    case dialog = 16
    case filler = 20
    case frame = 23
    case image = 27
    case label = 29
    case list = 31
    case listItem = 32
    case menu = 33
    case menuBar = 34
    case menuItem = 35
    case pageTab = 37
    case pageTabList = 38
    case panel = 39
    case passwordText = 40
    case progressBar = 42
    case button = 43
    case radioButton = 44
    case radioMenuItem = 45
    case rowHeader = 47
    case scrollBar = 48
    case scrollPane = 49
    case slider = 51
    case spinButton = 52
    case statusBar = 54
    case table = 55
    case tableCell = 56
    case text = 61
    case toggleButton = 62
    case toolBar = 63
    case window = 69
    case application = 75
    case entry = 79
    case heading = 83
    case section = 85
    case link = 88
    case tableRow = 90
    case grouping = 99
    case notification = 101
    case landmark = 110
    case `static` = 116

    /// libatspi's role name (enum nick with '-' → ' '), what `GetRoleName` answers.
    package var name: String {
        switch self {
        case .invalid: return "invalid"
        case .alert: return "alert"
        case .canvas: return "canvas"
        case .checkBox: return "check box"
        case .checkMenuItem: return "check menu item"
        case .columnHeader: return "column header"
        case .comboBox: return "combo box"
        case .desktopFrame: return "desktop frame"
        case .dialog: return "dialog"
        case .filler: return "filler"
        case .frame: return "frame"
        case .image: return "image"
        case .label: return "label"
        case .list: return "list"
        case .listItem: return "list item"
        case .menu: return "menu"
        case .menuBar: return "menu bar"
        case .menuItem: return "menu item"
        case .pageTab: return "page tab"
        case .pageTabList: return "page tab list"
        case .panel: return "panel"
        case .passwordText: return "password text"
        case .progressBar: return "progress bar"
        case .button: return "push button"
        case .radioButton: return "radio button"
        case .radioMenuItem: return "radio menu item"
        case .rowHeader: return "row header"
        case .scrollBar: return "scroll bar"
        case .scrollPane: return "scroll pane"
        case .slider: return "slider"
        case .spinButton: return "spin button"
        case .statusBar: return "status bar"
        case .table: return "table"
        case .tableCell: return "table cell"
        case .text: return "text"
        case .toggleButton: return "toggle button"
        case .toolBar: return "tool bar"
        case .window: return "window"
        case .application: return "application"
        case .entry: return "entry"
        case .heading: return "heading"
        case .section: return "section"
        case .link: return "link"
        case .tableRow: return "table row"
        case .grouping: return "grouping"
        case .notification: return "notification"
        case .landmark: return "landmark"
        case .static: return "static"
        }
    }
}

/// AT-SPI2 states (bit numbers of the two-word `GetState` set).
package enum ATSPIState: Int, Sendable, CaseIterable {
    case invalid = 0
    case active, armed, busy, checked, collapsed, defunct, editable, enabled, expandable, expanded
    case focusable, focused, hasTooltip, horizontal, iconified, modal, multiLine, multiselectable, opaque, pressed
    case resizable, selectable, selected, sensitive, showing, singleLine, stale, transient, vertical, visible
    case managesDescendants, indeterminate, required, truncated, animated, invalidEntry, supportsAutocompletion
    case selectableText, isDefault, visited, checkable, hasPopup, readOnly

    /// The exact `StateChanged` detail string.
    package var nick: String {
        switch self {
        case .invalid: return "invalid"
        case .active: return "active"
        case .armed: return "armed"
        case .busy: return "busy"
        case .checked: return "checked"
        case .collapsed: return "collapsed"
        case .defunct: return "defunct"
        case .editable: return "editable"
        case .enabled: return "enabled"
        case .expandable: return "expandable"
        case .expanded: return "expanded"
        case .focusable: return "focusable"
        case .focused: return "focused"
        case .hasTooltip: return "has-tooltip"
        case .horizontal: return "horizontal"
        case .iconified: return "iconified"
        case .modal: return "modal"
        case .multiLine: return "multi-line"
        case .multiselectable: return "multiselectable"
        case .opaque: return "opaque"
        case .pressed: return "pressed"
        case .resizable: return "resizable"
        case .selectable: return "selectable"
        case .selected: return "selected"
        case .sensitive: return "sensitive"
        case .showing: return "showing"
        case .singleLine: return "single-line"
        case .stale: return "stale"
        case .transient: return "transient"
        case .vertical: return "vertical"
        case .visible: return "visible"
        case .managesDescendants: return "manages-descendants"
        case .indeterminate: return "indeterminate"
        case .required: return "required"
        case .truncated: return "truncated"
        case .animated: return "animated"
        case .invalidEntry: return "invalid-entry"
        case .supportsAutocompletion: return "supports-autocompletion"
        case .selectableText: return "selectable-text"
        case .isDefault: return "is-default"
        case .visited: return "visited"
        case .checkable: return "checkable"
        case .hasPopup: return "has-popup"
        case .readOnly: return "read-only"
        }
    }
}

/// A 64-bit AT-SPI state set; on the wire two `u` words (low, high).
package struct ATSPIStateSet: Sendable, Hashable {
    package var bits: UInt64
    package init(bits: UInt64 = 0) { self.bits = bits }
    package init(_ states: [ATSPIState]) {
        bits = 0
        for s in states { insert(s) }
    }
    @inline(__always) package mutating func insert(_ s: ATSPIState) { bits |= 1 << UInt64(s.rawValue) }
    @inline(__always) package func contains(_ s: ATSPIState) -> Bool { bits & (1 << UInt64(s.rawValue)) != 0 }
    package var low: UInt32 { UInt32(truncatingIfNeeded: bits) }
    package var high: UInt32 { UInt32(truncatingIfNeeded: bits >> 32) }
    package var states: [ATSPIState] { ATSPIState.allCases.filter { contains($0) } }
}

/// D-Bus names of the AT-SPI interfaces.
package enum ATSPIInterface {
    package static let accessible = "org.a11y.atspi.Accessible"
    package static let application = "org.a11y.atspi.Application"
    package static let component = "org.a11y.atspi.Component"
    package static let action = "org.a11y.atspi.Action"
    package static let value = "org.a11y.atspi.Value"
    package static let text = "org.a11y.atspi.Text"
    package static let editableText = "org.a11y.atspi.EditableText"
    package static let selection = "org.a11y.atspi.Selection"
    package static let table = "org.a11y.atspi.Table"
    package static let tableCell = "org.a11y.atspi.TableCell"
    package static let image = "org.a11y.atspi.Image"
    package static let collection = "org.a11y.atspi.Collection"
    package static let cache = "org.a11y.atspi.Cache"
    package static let socket = "org.a11y.atspi.Socket"
    package static let registry = "org.a11y.atspi.Registry"
    package static let eventObject = "org.a11y.atspi.Event.Object"
    package static let eventWindow = "org.a11y.atspi.Event.Window"
    package static let eventFocus = "org.a11y.atspi.Event.Focus"
}

/// Interface bit set of one served object (order = the order `GetInterfaces` lists them).
package struct ATSPIInterfaces: OptionSet, Sendable, Hashable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }
    package static let accessible = ATSPIInterfaces(rawValue: 1 << 0)
    package static let application = ATSPIInterfaces(rawValue: 1 << 1)
    package static let component = ATSPIInterfaces(rawValue: 1 << 2)
    package static let action = ATSPIInterfaces(rawValue: 1 << 3)
    package static let value = ATSPIInterfaces(rawValue: 1 << 4)
    package static let text = ATSPIInterfaces(rawValue: 1 << 5)
    package static let editableText = ATSPIInterfaces(rawValue: 1 << 6)
    package static let selection = ATSPIInterfaces(rawValue: 1 << 7)
    package static let table = ATSPIInterfaces(rawValue: 1 << 8)
    package static let tableCell = ATSPIInterfaces(rawValue: 1 << 9)
    package static let image = ATSPIInterfaces(rawValue: 1 << 10)
    package static let collection = ATSPIInterfaces(rawValue: 1 << 11)

    /// Every interface: (bit, full D-Bus name, Collection short name), in canonical order.
    package static let all: [(ATSPIInterfaces, String, String)] = [
        (.accessible, ATSPIInterface.accessible, "accessible"),
        (.application, ATSPIInterface.application, "application"),
        (.component, ATSPIInterface.component, "component"), (.action, ATSPIInterface.action, "action"),
        (.value, ATSPIInterface.value, "value"), (.text, ATSPIInterface.text, "text"),
        (.editableText, ATSPIInterface.editableText, "editabletext"),
        (.selection, ATSPIInterface.selection, "selection"),
        (.table, ATSPIInterface.table, "table"), (.tableCell, ATSPIInterface.tableCell, "tablecell"),
        (.image, ATSPIInterface.image, "image"), (.collection, ATSPIInterface.collection, "collection"),
    ]

    /// Full D-Bus names, in canonical order.
    package var names: [String] { ATSPIInterfaces.all.compactMap { contains($0.0) ? $0.1 : nil } }

    package static func named(_ dbusName: String) -> ATSPIInterfaces? { all.first { $0.1 == dbusName }?.0 }
    /// Collection match-rule short names (case-insensitive).
    package static func shortNamed(_ s: String) -> ATSPIInterfaces? {
        let l = s.lowercased()
        return all.first { $0.2 == l }?.0
    }
}

package enum ATSPIPaths {
    package static let prefix = "/org/a11y/atspi/accessible"
    package static let root = "/org/a11y/atspi/accessible/root"
    package static let null = "/org/a11y/atspi/null"
    package static let cache = "/org/a11y/atspi/cache"
    package static let registry = "/org/a11y/atspi/registry"
}
