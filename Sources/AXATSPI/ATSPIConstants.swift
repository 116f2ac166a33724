/// AT-SPI2 wire constants (at-spi2-core `atspi-constants.h`; enum order = wire value).
public enum ATSPIRole: UInt32, Sendable, CaseIterable {
    case invalid = 0, alert = 2, canvas = 6, checkBox = 7, columnHeader = 10, comboBox = 11, desktopFrame = 14, dialog = 16
    case filler = 20, frame = 23, image = 27, label = 29, list = 31, listItem = 32, menu = 33, pageTab = 37, pageTabList = 38
    case panel = 39, passwordText = 40, progressBar = 42, button = 43, radioButton = 44, rowHeader = 47, scrollBar = 48
    case scrollPane = 49, slider = 51, spinButton = 52, statusBar = 54, table = 55, tableCell = 56, text = 61
    case toggleButton = 62, toolBar = 63, window = 69, application = 75, entry = 79, heading = 83, section = 85, link = 88
    case tableRow = 90, grouping = 99, notification = 101, landmark = 110, `static` = 116

    /// libatspi's role name (enum nick with '-' → ' '), what `GetRoleName` answers.
    public var name: String {
        switch self {
        case .invalid: return "invalid"
        case .alert: return "alert"
        case .canvas: return "canvas"
        case .checkBox: return "check box"
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
        case .pageTab: return "page tab"
        case .pageTabList: return "page tab list"
        case .panel: return "panel"
        case .passwordText: return "password text"
        case .progressBar: return "progress bar"
        case .button: return "push button"
        case .radioButton: return "radio button"
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
public enum ATSPIState: Int, Sendable, CaseIterable {
    case invalid = 0, active, armed, busy, checked, collapsed, defunct, editable, enabled, expandable, expanded
    case focusable, focused, hasTooltip, horizontal, iconified, modal, multiLine, multiselectable, opaque, pressed
    case resizable, selectable, selected, sensitive, showing, singleLine, stale, transient, vertical, visible
    case managesDescendants, indeterminate, required, truncated, animated, invalidEntry, supportsAutocompletion
    case selectableText, isDefault, visited, checkable, hasPopup, readOnly

    /// The exact `StateChanged` detail string.
    public var nick: String {
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
public struct ATSPIStateSet: Sendable, Hashable {
    public var bits: UInt64
    public init(bits: UInt64 = 0) { self.bits = bits }
    public init(_ states: [ATSPIState]) { bits = 0; for s in states { insert(s) } }
    @inline(__always) public mutating func insert(_ s: ATSPIState) { bits |= 1 << UInt64(s.rawValue) }
    @inline(__always) public func contains(_ s: ATSPIState) -> Bool { bits & (1 << UInt64(s.rawValue)) != 0 }
    public var low: UInt32 { UInt32(truncatingIfNeeded: bits) }
    public var high: UInt32 { UInt32(truncatingIfNeeded: bits >> 32) }
    public var states: [ATSPIState] { ATSPIState.allCases.filter { contains($0) } }
}

/// D-Bus names of the AT-SPI interfaces.
public enum ATSPIInterface {
    public static let accessible = "org.a11y.atspi.Accessible"
    public static let application = "org.a11y.atspi.Application"
    public static let component = "org.a11y.atspi.Component"
    public static let action = "org.a11y.atspi.Action"
    public static let value = "org.a11y.atspi.Value"
    public static let text = "org.a11y.atspi.Text"
    public static let editableText = "org.a11y.atspi.EditableText"
    public static let selection = "org.a11y.atspi.Selection"
    public static let table = "org.a11y.atspi.Table"
    public static let tableCell = "org.a11y.atspi.TableCell"
    public static let image = "org.a11y.atspi.Image"
    public static let collection = "org.a11y.atspi.Collection"
    public static let cache = "org.a11y.atspi.Cache"
    public static let socket = "org.a11y.atspi.Socket"
    public static let registry = "org.a11y.atspi.Registry"
    public static let eventObject = "org.a11y.atspi.Event.Object"
    public static let eventWindow = "org.a11y.atspi.Event.Window"
    public static let eventFocus = "org.a11y.atspi.Event.Focus"
}

/// Interface bit set of one served object (order = the order `GetInterfaces` lists them).
public struct ATSPIInterfaces: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let accessible = ATSPIInterfaces(rawValue: 1 << 0)
    public static let application = ATSPIInterfaces(rawValue: 1 << 1)
    public static let component = ATSPIInterfaces(rawValue: 1 << 2)
    public static let action = ATSPIInterfaces(rawValue: 1 << 3)
    public static let value = ATSPIInterfaces(rawValue: 1 << 4)
    public static let text = ATSPIInterfaces(rawValue: 1 << 5)
    public static let editableText = ATSPIInterfaces(rawValue: 1 << 6)
    public static let selection = ATSPIInterfaces(rawValue: 1 << 7)
    public static let table = ATSPIInterfaces(rawValue: 1 << 8)
    public static let tableCell = ATSPIInterfaces(rawValue: 1 << 9)
    public static let image = ATSPIInterfaces(rawValue: 1 << 10)
    public static let collection = ATSPIInterfaces(rawValue: 1 << 11)

    static let all: [(ATSPIInterfaces, String, String)] = [
        (.accessible, ATSPIInterface.accessible, "accessible"), (.application, ATSPIInterface.application, "application"),
        (.component, ATSPIInterface.component, "component"), (.action, ATSPIInterface.action, "action"),
        (.value, ATSPIInterface.value, "value"), (.text, ATSPIInterface.text, "text"),
        (.editableText, ATSPIInterface.editableText, "editabletext"), (.selection, ATSPIInterface.selection, "selection"),
        (.table, ATSPIInterface.table, "table"), (.tableCell, ATSPIInterface.tableCell, "tablecell"),
        (.image, ATSPIInterface.image, "image"), (.collection, ATSPIInterface.collection, "collection"),
    ]

    /// Full D-Bus names, in canonical order.
    public var names: [String] { ATSPIInterfaces.all.compactMap { contains($0.0) ? $0.1 : nil } }

    public static func named(_ dbusName: String) -> ATSPIInterfaces? { all.first { $0.1 == dbusName }?.0 }
    /// Collection match-rule short names (case-insensitive).
    public static func shortNamed(_ s: String) -> ATSPIInterfaces? {
        let l = s.lowercased()
        return all.first { $0.2 == l }?.0
    }
}

public enum ATSPIPaths {
    public static let prefix = "/org/a11y/atspi/accessible"
    public static let root = "/org/a11y/atspi/accessible/root"
    public static let null = "/org/a11y/atspi/null"
    public static let cache = "/org/a11y/atspi/cache"
    public static let registry = "/org/a11y/atspi/registry"
}
