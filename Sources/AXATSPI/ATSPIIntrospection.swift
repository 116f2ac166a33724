import AXDBus

/// The methods, signals and properties of each AT-SPI interface the bridge serves, for `Introspect` (issue 19
/// item 7): generic D-Bus tools (d-feet, busctl, gdbus introspect) see what they can call, not bare interface
/// names. Signatures follow the AT-SPI 2 D-Bus interfaces (at-spi2-core `xml/*.xml`); a unit test calls every
/// listed method to check the bridge answers it (Tests/AXATSPITests/IntrospectionTests.swift).
enum ATSPIIntrospection {
    typealias Method = DBusInterfaceDescription.Member
    typealias Property = DBusInterfaceDescription.Property

    /// The description of `name` (an `org.a11y.atspi.*` interface); bare for an interface not in the table.
    static func describe(_ name: String) -> DBusInterfaceDescription {
        table[name] ?? DBusInterfaceDescription(name: name)
    }

    private static let rectOut = ["(iiii)"]
    private static let objectRef = "(so)"

    static let table: [String: DBusInterfaceDescription] = {
        var all: [DBusInterfaceDescription] = []
        all.append(
            DBusInterfaceDescription(
                name: "org.a11y.atspi.Accessible",
                methods: [
                    .method("GetChildAtIndex", in: ["i"], out: [objectRef]),
                    .method("GetChildren", out: ["a(so)"]), .method("GetIndexInParent", out: ["i"]),
                    .method("GetRelationSet", out: ["a(ua(so))"]), .method("GetRole", out: ["u"]),
                    .method("GetRoleName", out: ["s"]), .method("GetLocalizedRoleName", out: ["s"]),
                    .method("GetState", out: ["au"]), .method("GetAttributes", out: ["a{ss}"]),
                    .method("GetApplication", out: [objectRef]), .method("GetInterfaces", out: ["as"]),
                ],
                properties: [
                    Property("Name", "s"), Property("Description", "s"), Property("Parent", objectRef),
                    Property("ChildCount", "i"), Property("Locale", "s"), Property("AccessibleId", "s"),
                ]))
        all.append(
            DBusInterfaceDescription(
                name: "org.a11y.atspi.Action",
                methods: [
                    .method("GetDescription", in: ["i"], out: ["s"]), .method("GetName", in: ["i"], out: ["s"]),
                    .method("GetLocalizedName", in: ["i"], out: ["s"]),
                    .method("GetKeyBinding", in: ["i"], out: ["s"]), .method("GetActions", out: ["a(sss)"]),
                    .method("DoAction", in: ["i"], out: ["b"]),
                ],
                properties: [Property("NActions", "i")]))
        all.append(
            DBusInterfaceDescription(
                name: "org.a11y.atspi.Application",
                methods: [
                    .method("GetLocale", in: ["u"], out: ["s"]), .method("GetApplicationBusAddress", out: ["s"]),
                ],
                properties: [
                    Property("ToolkitName", "s"), Property("Version", "s"), Property("AtspiVersion", "s"),
                    Property("Id", "i", access: "readwrite"),
                ]))
        all.append(
            DBusInterfaceDescription(
                name: "org.a11y.atspi.Component",
                methods: [
                    .method("Contains", in: ["i", "i", "u"], out: ["b"]),
                    .method("GetAccessibleAtPoint", in: ["i", "i", "u"], out: [objectRef]),
                    .method("GetExtents", in: ["u"], out: rectOut), .method("GetPosition", in: ["u"], out: ["i", "i"]),
                    .method("GetSize", out: ["i", "i"]), .method("GetLayer", out: ["u"]),
                    .method("GetMDIZOrder", out: ["n"]), .method("GrabFocus", out: ["b"]),
                    .method("GetAlpha", out: ["d"]), .method("SetExtents", in: ["i", "i", "i", "i", "u"], out: ["b"]),
                    .method("SetPosition", in: ["i", "i", "u"], out: ["b"]),
                    .method("SetSize", in: ["i", "i"], out: ["b"]), .method("ScrollTo", in: ["u"], out: ["b"]),
                    .method("ScrollToPoint", in: ["u", "i", "i"], out: ["b"]),
                ]))
        all.append(
            DBusInterfaceDescription(
                name: "org.a11y.atspi.Text",
                methods: [
                    .method("GetStringAtOffset", in: ["i", "u"], out: ["s", "i", "i"]),
                    .method("GetText", in: ["i", "i"], out: ["s"]), .method("SetCaretOffset", in: ["i"], out: ["b"]),
                    .method("GetTextBeforeOffset", in: ["i", "u"], out: ["s", "i", "i"]),
                    .method("GetTextAtOffset", in: ["i", "u"], out: ["s", "i", "i"]),
                    .method("GetTextAfterOffset", in: ["i", "u"], out: ["s", "i", "i"]),
                    .method("GetCharacterAtOffset", in: ["i"], out: ["i"]),
                    .method("GetAttributeValue", in: ["i", "s"], out: ["s"]),
                    .method("GetAttributes", in: ["i"], out: ["a{ss}", "i", "i"]),
                    .method("GetDefaultAttributes", out: ["a{ss}"]),
                    .method("GetCharacterExtents", in: ["i", "u"], out: ["i", "i", "i", "i"]),
                    .method("GetOffsetAtPoint", in: ["i", "i", "u"], out: ["i"]),
                    .method("GetNSelections", out: ["i"]), .method("GetSelection", in: ["i"], out: ["i", "i"]),
                    .method("AddSelection", in: ["i", "i"], out: ["b"]),
                    .method("RemoveSelection", in: ["i"], out: ["b"]),
                    .method("SetSelection", in: ["i", "i", "i"], out: ["b"]),
                    .method("GetRangeExtents", in: ["i", "i", "u"], out: ["i", "i", "i", "i"]),
                    .method("GetBoundedRanges", in: ["i", "i", "i", "i", "u", "u", "u"], out: ["a(iisv)"]),
                    .method("GetAttributeRun", in: ["i", "b"], out: ["a{ss}", "i", "i"]),
                    .method("GetDefaultAttributeSet", out: ["a{ss}"]),
                    .method("ScrollSubstringTo", in: ["i", "i", "u"], out: ["b"]),
                    .method("ScrollSubstringToPoint", in: ["i", "i", "u", "i", "i"], out: ["b"]),
                ],
                properties: [Property("CharacterCount", "i"), Property("CaretOffset", "i")]))
        all.append(
            DBusInterfaceDescription(
                name: "org.a11y.atspi.EditableText",
                methods: [
                    .method("SetTextContents", in: ["s"], out: ["b"]),
                    .method("InsertText", in: ["i", "s", "i"], out: ["b"]), .method("CopyText", in: ["i", "i"]),
                    .method("CutText", in: ["i", "i"], out: ["b"]), .method("DeleteText", in: ["i", "i"], out: ["b"]),
                    .method("PasteText", in: ["i"], out: ["b"]),
                ]))
        all.append(
            DBusInterfaceDescription(
                name: "org.a11y.atspi.Value",
                properties: [
                    Property("MinimumValue", "d"), Property("MaximumValue", "d"), Property("MinimumIncrement", "d"),
                    Property("CurrentValue", "d", access: "readwrite"), Property("Text", "s"),
                ]))
        all.append(
            DBusInterfaceDescription(
                name: "org.a11y.atspi.Selection",
                methods: [
                    .method("GetSelectedChild", in: ["i"], out: [objectRef]),
                    .method("SelectChild", in: ["i"], out: ["b"]),
                    .method("DeselectSelectedChild", in: ["i"], out: ["b"]),
                    .method("IsChildSelected", in: ["i"], out: ["b"]), .method("SelectAll", out: ["b"]),
                    .method("ClearSelection", out: ["b"]), .method("DeselectChild", in: ["i"], out: ["b"]),
                ],
                properties: [Property("NSelectedChildren", "i")]))
        all.append(
            DBusInterfaceDescription(
                name: "org.a11y.atspi.Table",
                methods: [
                    .method("GetAccessibleAt", in: ["i", "i"], out: [objectRef]),
                    .method("GetIndexAt", in: ["i", "i"], out: ["i"]),
                    .method("GetRowAtIndex", in: ["i"], out: ["i"]), .method("GetColumnAtIndex", in: ["i"], out: ["i"]),
                    .method("GetRowDescription", in: ["i"], out: ["s"]),
                    .method("GetColumnDescription", in: ["i"], out: ["s"]),
                    .method("GetRowExtentAt", in: ["i", "i"], out: ["i"]),
                    .method("GetColumnExtentAt", in: ["i", "i"], out: ["i"]),
                    .method("GetRowHeader", in: ["i"], out: [objectRef]),
                    .method("GetColumnHeader", in: ["i"], out: [objectRef]),
                    .method("GetSelectedRows", out: ["ai"]), .method("GetSelectedColumns", out: ["ai"]),
                    .method("IsRowSelected", in: ["i"], out: ["b"]), .method("IsColumnSelected", in: ["i"], out: ["b"]),
                    .method("IsSelected", in: ["i", "i"], out: ["b"]),
                    .method("AddRowSelection", in: ["i"], out: ["b"]),
                    .method("AddColumnSelection", in: ["i"], out: ["b"]),
                    .method("RemoveRowSelection", in: ["i"], out: ["b"]),
                    .method("RemoveColumnSelection", in: ["i"], out: ["b"]),
                    .method("GetRowColumnExtentsAtIndex", in: ["i"], out: ["b", "i", "i", "i", "i", "b"]),
                ],
                properties: [
                    Property("NRows", "i"), Property("NColumns", "i"), Property("Caption", objectRef),
                    Property("Summary", objectRef), Property("NSelectedRows", "i"), Property("NSelectedColumns", "i"),
                ]))
        all.append(
            DBusInterfaceDescription(
                name: "org.a11y.atspi.TableCell",
                methods: [
                    .method("GetRowColumnSpan", out: ["i", "i", "i", "i"]),
                    .method("GetColumnHeaderCells", out: ["a(so)"]), .method("GetRowHeaderCells", out: ["a(so)"]),
                ],
                properties: [
                    Property("ColumnSpan", "i"), Property("Position", "(ii)"), Property("RowSpan", "i"),
                    Property("Table", objectRef),
                ]))
        all.append(
            DBusInterfaceDescription(
                name: "org.a11y.atspi.Image",
                methods: [
                    .method("GetImageExtents", in: ["u"], out: rectOut),
                    .method("GetImagePosition", in: ["u"], out: ["i", "i"]), .method("GetImageSize", out: ["i", "i"]),
                ],
                properties: [Property("ImageDescription", "s"), Property("ImageLocale", "s")]))
        all.append(
            DBusInterfaceDescription(
                name: "org.a11y.atspi.Collection",
                methods: [
                    .method("GetMatches", in: ["(aiia{ss}iaiiasib)", "u", "i", "b"], out: ["a(so)"]),
                    .method(
                        "GetMatchesTo", in: ["o", "(aiia{ss}iaiiasib)", "u", "u", "b", "i", "b"], out: ["a(so)"]),
                    .method("GetMatchesFrom", in: ["o", "(aiia{ss}iaiiasib)", "u", "u", "i", "b"], out: ["a(so)"]),
                    .method("GetActiveDescendant", out: [objectRef]),
                ]))
        return Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    }()
}
