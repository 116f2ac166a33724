import AXJSON

/// A schema violation: which view, which property, what was wrong.
package struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    package var id: String?
    package var property: String?
    package var message: String
    package init(id: String?, property: String?, message: String) {
        self.id = id
        self.property = property
        self.message = message
    }
    package var description: String {
        var s = ""
        if let id { s += "view '\(id)'" }
        if let property { s += (s.isEmpty ? "" : ", ") + "property '\(property)'" }
        return s.isEmpty ? message : s + ": " + message
    }
}

/// Reading typed values out of JSON with precise errors.
struct Field {
    let id: String?
    let key: String
    func fail(_ msg: String) -> SchemaError { SchemaError(id: id, property: key, message: msg) }
    func string(_ v: JSON) throws(SchemaError) -> String {
        guard case .string(let s) = v else { throw fail("expected a string, got \(v.typeName)") }
        guard s.utf8.count <= Limits.maxStringBytes else {
            throw fail("string longer than \(Limits.maxStringBytes) bytes")
        }
        return s
    }
    func optString(_ v: JSON) throws(SchemaError) -> String? { v.isNull ? nil : try string(v) }
    func bool(_ v: JSON) throws(SchemaError) -> Bool {
        guard case .bool(let b) = v else { throw fail("expected true or false, got \(v.typeName)") }
        return b
    }
    func number(_ v: JSON) throws(SchemaError) -> Double {
        guard case .number(let d) = v else { throw fail("expected a number, got \(v.typeName)") }
        guard d.isFinite else { throw fail("number must be finite") }
        return d
    }
    func int(_ v: JSON) throws(SchemaError) -> Int {
        guard let i = v.intValue else {
            throw fail("expected an integer, got \(v.typeName == "number" ? "a fraction" : v.typeName)")
        }
        return i
    }
    func strings(_ v: JSON) throws(SchemaError) -> [String] {
        guard case .array(let a) = v else { throw fail("expected an array of strings, got \(v.typeName)") }
        var out: [String] = []
        for e in a { out.append(try string(e)) }
        return out
    }
    func rect(_ v: JSON) throws(SchemaError) -> Rect {
        let r: Rect
        switch v {
        case .array(let a):
            guard a.count == 4 else { throw fail("a rect is [x, y, width, height]") }
            r = Rect(x: try number(a[0]), y: try number(a[1]), width: try number(a[2]), height: try number(a[3]))
        case .object(let o):
            func n(_ k: String, _ d: Double = 0) throws(SchemaError) -> Double {
                try o[k].map { (j) throws(SchemaError) in try number(j) } ?? d
            }
            r = Rect(x: try n("x"), y: try n("y"), width: try n("width"), height: try n("height"))
        default:
            throw fail("expected a rect ([x, y, width, height] or {x, y, width, height}), got \(v.typeName)")
        }
        guard r.width >= 0, r.height >= 0 else { throw fail("width and height must not be negative") }
        guard abs(r.x) < Limits.maxCoordinate, abs(r.y) < Limits.maxCoordinate,
            r.width < Limits.maxCoordinate, r.height < Limits.maxCoordinate
        else { throw fail("coordinate out of range (|v| < \(Int(Limits.maxCoordinate)))") }
        return r
    }
    func point(_ v: JSON) throws(SchemaError) -> Point {
        switch v {
        case .array(let a):
            guard a.count == 2 else { throw fail("a point is [x, y]") }
            return Point(x: try number(a[0]), y: try number(a[1]))
        case .object(let o):
            return Point(
                x: try o["x"].map { (j) throws(SchemaError) in try number(j) } ?? 0,
                y: try o["y"].map { (j) throws(SchemaError) in try number(j) } ?? 0)
        default:
            throw fail("expected a point ([x, y] or {x, y}), got \(v.typeName)")
        }
    }
    func range(_ v: JSON) throws(SchemaError) -> TextRange {
        switch v {
        case .array(let a) where a.count == 2:
            return TextRange(location: try int(a[0]), length: try int(a[1]))
        case .object(let o):
            return TextRange(
                location: try o["location"].map { (j) throws(SchemaError) in try int(j) } ?? 0,
                length: try o["length"].map { (j) throws(SchemaError) in try int(j) } ?? 1)
        default:
            throw fail("expected a range [location, length] or {location, length}")
        }
    }
    /// An opaque colour `"#RRGGBB"` / `"#RGB"`; null is no colour.
    func color(_ v: JSON) throws(SchemaError) -> RGBColor? {
        guard let text = try optString(v) else { return nil }
        guard let color = RGBColor(hex: text) else { throw fail("expected an opaque colour \"#RRGGBB\" or \"#RGB\"") }
        return color
    }
    func object(_ v: JSON) throws(SchemaError) -> JSONObject {
        guard case .object(let o) = v else { throw fail("expected an object, got \(v.typeName)") }
        return o
    }
    func array(_ v: JSON) throws(SchemaError) -> [JSON] {
        guard case .array(let a) = v else { throw fail("expected an array, got \(v.typeName)") }
        return a
    }
}

/// Limits on what an app may push (Specs/hierarchy.md §Limits).
package enum Limits {
    package static let maxNodes = 250_000
    package static let maxDepth = 256
    package static let maxStringBytes = 65_536
    package static let maxCoordinate = 1.0e7
    package static let maxChildren = 100_000
    package static let maxOpsPerPatch = 100_000
    /// The deepest outline row level accepted (`indentationLevel`); deeper than any real outline.
    package static let maxIndentationLevel = 1_000
}

func decodeTraits(_ v: JSON, field f: Field) throws(SchemaError) -> Traits {
    switch v {
    case .null: return []
    case .number:
        let raw = try f.int(v)
        guard raw >= 0 else { throw f.fail("a trait mask must not be negative") }
        let t = Traits(rawValue: UInt64(raw))
        guard Traits.allKnown.isSuperset(of: t) else { throw f.fail("unknown trait bits in mask \(raw)") }
        return t
    case .array(let a):
        var t = Traits()
        for e in a {
            let name = try f.string(e)
            guard let bit = Traits.named(name) else {
                throw f.fail("unknown trait '\(name)' (known: \(Traits.named.map(\.name).joined(separator: ", ")))")
            }
            t.formUnion(bit)
        }
        return t
    default:
        throw f.fail("expected an array of trait names or an integer mask, got \(v.typeName)")
    }
}

/// Applies accessibility properties shared by views and virtual elements. Returns false if the key is not one.
/// Key → case number for the property switch below (one hash instead of a chain of string compares).
let axPropertyNames: [String: Int] = [
    "isAccessibilityElement": 0, "accessibilityLabel": 1, "accessibilityValue": 2, "accessibilityHint": 3,
    "accessibilityIdentifier": 4, "accessibilityTraits": 5, "accessibilityFrame": 6, "accessibilityActivationPoint": 7,
    "accessibilityLanguage": 8, "accessibilityElementsHidden": 9, "accessibilityViewIsModal": 10,
    "shouldGroupAccessibilityChildren": 11, "accessibilityNavigationStyle": 12, "accessibilityContainerType": 13,
    "accessibilityRespondsToUserInteraction": 14, "accessibilityUserInputLabels": 15, "accessibilityTextualContext": 16,
    "accessibilityHeadingLevel": 17, "accessibilityCustomActions": 18, "accessibilityCustomRotors": 19,
    "accessibilityElements": 20, "automationElements": 21, "accessibilityDataTable": 22, "accessibilityRowRange": 23,
    "accessibilityColumnRange": 24, "accessibilityDirectTouchOptions": 25, "accessibilityIgnoresInvertColors": 26,
    "accessibilityExpandedStatus": 27,
]
let axPropertyIndex = KeyTable(axPropertyNames)

func applyAccessibilityProperty(_ key: String, _ v: JSON, to ax: inout AccessibilityProperties, id: String?)
    throws(SchemaError) -> Bool
{
    try applyAccessibilityProperty(index: axPropertyIndex[key] ?? -1, key, v, to: &ax, id: id)
}

/// The same, with the key already looked up in `axPropertyIndex` (-1: not an accessibility property).
func applyAccessibilityProperty(index: Int, _ key: String, _ v: JSON, to ax: inout AccessibilityProperties, id: String?)
    throws(SchemaError) -> Bool
{
    let f = Field(id: id, key: key)
    switch index {
    case 0: ax.isAccessibilityElement = v.isNull ? nil : try f.bool(v)  // isAccessibilityElement
    case 1: ax.label = try f.optString(v)  // accessibilityLabel
    case 2: ax.value = try f.optString(v)  // accessibilityValue
    case 3: ax.hint = try f.optString(v)  // accessibilityHint
    case 4: ax.identifier = try f.optString(v)  // accessibilityIdentifier
    case 5: ax.traits = v.isNull ? nil : try decodeTraits(v, field: f)  // accessibilityTraits
    case 6: ax.frame = v.isNull ? nil : try f.rect(v)  // accessibilityFrame
    case 7: ax.activationPoint = v.isNull ? nil : try f.point(v)  // accessibilityActivationPoint
    case 8: ax.language = try f.optString(v)  // accessibilityLanguage
    case 9: ax.elementsHidden = v.isNull ? false : try f.bool(v)  // accessibilityElementsHidden
    case 10: ax.viewIsModal = v.isNull ? nil : try f.bool(v)  // accessibilityViewIsModal
    case 11: ax.shouldGroupChildren = v.isNull ? false : try f.bool(v)  // shouldGroupAccessibilityChildren
    case 12:  // accessibilityNavigationStyle
        if v.isNull {
            ax.navigationStyle = .automatic
        } else {
            let s = try f.string(v)
            guard let n = NavigationStyle(rawValue: s) else { throw f.fail("expected automatic, separate or combined") }
            ax.navigationStyle = n
        }
    case 13:  // accessibilityContainerType
        if v.isNull {
            ax.containerType = .none
        } else if case .number = v {
            guard let c = ContainerType(rawInt: try f.int(v)) else {
                throw f.fail("container type raw value must be 0…4 (R40)")
            }
            ax.containerType = c
        } else {
            let s = try f.string(v)
            guard let c = ContainerType(rawValue: s) else {
                throw f.fail("expected none, dataTable, list, landmark or semanticGroup (R39)")
            }
            ax.containerType = c
        }
    case 14: ax.respondsToUserInteraction = v.isNull ? nil : try f.bool(v)  // accessibilityRespondsToUserInteraction
    case 15: ax.userInputLabels = v.isNull ? [] : try f.strings(v)  // accessibilityUserInputLabels
    case 16: ax.textualContext = try f.optString(v)  // accessibilityTextualContext
    case 17:  // accessibilityHeadingLevel
        if v.isNull {
            ax.headingLevel = nil
        } else {
            let l = try f.int(v)
            guard (0...6).contains(l) else { throw f.fail("heading level must be 0…6 (X55)") }
            ax.headingLevel = l == 0 ? nil : l
        }
    case 18:  // accessibilityCustomActions
        ax.customActions = []
        if !v.isNull {
            var seen = Set<String>()
            for (i, e) in try f.array(v).enumerated() {
                let o = try f.object(e)
                let ef = Field(id: id, key: "\(key)[\(i)]")
                guard let name = try o["name"].map({ (j) throws(SchemaError) in try ef.string(j) }), !name.isEmpty
                else { throw ef.fail("a custom action needs a non-empty 'name'") }
                let aid = try o["id"].map { (j) throws(SchemaError) in try ef.string(j) } ?? name
                guard seen.insert(aid).inserted else { throw ef.fail("duplicate custom action id '\(aid)'") }
                ax.customActions.append(
                    CustomAction(
                        id: aid, name: name,
                        category: try o["category"].map { (j) throws(SchemaError) in try ef.optString(j) } ?? nil,
                        hasImage: o["image"].map { !$0.isNull } ?? false))
            }
        }
    case 19:  // accessibilityCustomRotors
        ax.customRotors = []
        if !v.isNull {
            for (i, e) in try f.array(v).enumerated() {
                let o = try f.object(e)
                let rf = Field(id: id, key: "\(key)[\(i)]")
                var type = SystemRotorType.none
                if let t = o["systemType"], !t.isNull {
                    let s = try rf.string(t)
                    guard let st = SystemRotorType(rawValue: s) else {
                        throw rf.fail("unknown system rotor type '\(s)' (X27)")
                    }
                    type = st
                }
                let name =
                    try o["name"].map { (j) throws(SchemaError) in try rf.string(j) }
                    ?? (type == .none ? "" : type.rawValue)
                guard !name.isEmpty else { throw rf.fail("a rotor needs a 'name' or a 'systemType' (R57)") }
                var items: [RotorItem] = []
                let itemList: [JSON] = try o["items"].map { (j) throws(SchemaError) in try rf.array(j) } ?? []
                for (k, it) in itemList.enumerated() {
                    let itf = Field(id: id, key: "\(key)[\(i)].items[\(k)]")
                    switch it {
                    case .string(let s): items.append(RotorItem(target: s))
                    case .object(let io):
                        guard let t = io["target"] else { throw itf.fail("a rotor item needs a 'target' element id") }
                        items.append(
                            RotorItem(
                                target: try itf.string(t),
                                range: try io["range"].map { (j) throws(SchemaError) in try itf.range(j) }))
                    default: throw itf.fail("a rotor item is an element id or {target, range}")
                    }
                }
                var searchedByApp = false
                if let search = o["search"], !search.isNull {
                    let mode = try rf.string(search)
                    guard mode == "items" || mode == "app" else {
                        throw rf.fail("unknown rotor search '\(mode)' (accepted: items, app)")
                    }
                    searchedByApp = mode == "app"
                }
                if searchedByApp && !items.isEmpty {
                    throw rf.fail("a rotor with \"search\": \"app\" has no static 'items' (the app computes them, R58)")
                }
                ax.customRotors.append(
                    CustomRotor(name: name, systemType: type, items: items, searchedByApp: searchedByApp))
            }
        }
    case 20:  // accessibilityElements
        if v.isNull {
            ax.elements = nil
        } else {
            var entries: [ElementEntry] = []
            for (i, e) in try f.array(v).enumerated() {
                switch e {
                case .string(let s): entries.append(.view(s))
                case .object(let o):
                    let vf = Field(id: id, key: "\(key)[\(i)]")
                    guard let vid = o["id"] else { throw vf.fail("a virtual element needs an 'id'") }
                    var ve = VirtualElement(id: try vf.string(vid))
                    ve.ax.isAccessibilityElement = true
                    for (k, val) in o where k != "id" {
                        if k == "accessibilityFrameInContainerSpace" || k == "frame" {
                            ve.frameInContainer = try Field(id: ve.id, key: k).rect(val)
                        } else if !(try applyAccessibilityProperty(k, val, to: &ve.ax, id: ve.id)) {
                            throw Field(id: ve.id, key: k).fail("unknown property for a virtual element")
                        }
                    }
                    entries.append(.virtual(ve))
                default:
                    throw f.fail("entries are view ids or virtual element objects")
                }
            }
            ax.elements = entries
        }
    case 21: ax.automationElements = v.isNull ? nil : try f.strings(v)  // automationElements
    case 22:  // accessibilityDataTable
        if v.isNull {
            ax.dataTable = nil
        } else {
            let o = try f.object(v)
            guard let r = o["rows"], let c = o["columns"] else {
                throw f.fail("a data table needs 'rows' and 'columns' (R41)")
            }
            let rows = try f.int(r)
            let cols = try f.int(c)
            guard rows >= 0, cols >= 0 else { throw f.fail("row and column counts must not be negative") }
            var dt = DataTableInfo(rows: rows, columns: cols)
            func headers(_ k: String) throws(SchemaError) -> [Int: [String]] {
                guard let h = o[k], !h.isNull else { return [:] }
                var out: [Int: [String]] = [:]
                for (ks, val) in try f.object(h) {
                    guard let idx = Int(ks) else { throw f.fail("\(k) keys are row/column indexes") }
                    out[idx] = try f.strings(val)
                }
                return out
            }
            dt.columnHeaders = try headers("columnHeaders")
            dt.rowHeaders = try headers("rowHeaders")
            ax.dataTable = dt
        }
    case 23: ax.rowRange = v.isNull ? nil : try f.range(v)  // accessibilityRowRange
    case 24: ax.columnRange = v.isNull ? nil : try f.range(v)  // accessibilityColumnRange
    case 25: ax.directTouchOptions = v.isNull ? [] : try f.strings(v)  // accessibilityDirectTouchOptions
    case 26: ax.ignoresInvertColors = v.isNull ? false : try f.bool(v)  // accessibilityIgnoresInvertColors
    case 27: ax.expandedStatus = try f.optString(v)  // accessibilityExpandedStatus
    default: return false
    }
    return true
}

extension ViewNode {
    /// Key → case number for the property switch in setProperty.
    static let propertyIndex = KeyTable(
        (viewPropertyNames as [String: Int])
            .merging(axPropertyNames.map { ($0.key, $0.value + ViewNode.axIndexBase) }) { a, _ in a }
            .merging(["id": 200, "class": 201, "baseClass": 202, "children": 203]) { a, _ in a })
    static let viewPropertyNames: [String: Int] = [
        "frame": 0, "bounds": 1, "boundsOrigin": 2, "contentOffset": 3, "transform": 4, "isHidden": 5, "alpha": 6,
        "clipsToBounds": 7, "isUserInteractionEnabled": 8, "tag": 9, "isEnabled": 10, "isSelected": 11,
        "isHighlighted": 12, "isOn": 13, "value": 14, "minimumValue": 15, "maximumValue": 16, "stepValue": 17,
        "text": 18, "title": 19, "placeholder": 20, "isSecureTextEntry": 21, "isEditable": 22, "currentPage": 23,
        "numberOfPages": 24, "selectedSegmentIndex": 25, "segmentTitles": 26, "progress": 27, "isAnimating": 28,
        "accessoryType": 29, "backButtonTitle": 30, "message": 31, "preferredStyle": 32, "dateText": 33,
        "components": 34, "isKeyWindow": 35, "windowLevel": 36, "windowTitle": 37, "layoutDirection": 38,
        "semanticContentAttribute": 39, "canBecomeFocused": 40, "focusGroupIdentifier": 41, "focusGroupPriority": 42,
        "focusGuides": 43, "isTransparentFocusItem": 44, "restrictionIdentifiers": 45,
        "guidedAccessRestrictionIdentifiers": 46, "fontSize": 47, "textColor": 48, "backgroundColor": 49,
        "isFocused": 50, "preferredFocusEnvironments": 51, "focusUpdateRequests": 52,
        "indentationLevel": 53, "isPagingEnabled": 54,
    ]
    static let axIndexBase = 100

    /// Sets one schema property from JSON; `null` restores UIKit's default. Throws for unknown keys.
    package mutating func setProperty(_ key: String, _ v: JSON) throws(SchemaError) {
        try setProperty(index: ViewNode.propertyIndex[key] ?? -1, key, v)
    }

    /// The same, with the key already looked up in `propertyIndex`.
    mutating func setProperty(index: Int, _ key: String, _ v: JSON) throws(SchemaError) {
        let f = Field(id: id, key: key)
        switch index {
        case 0: frame = v.isNull ? .zero : try f.rect(v)  // frame
        case 1:  // bounds
            if v.isNull {
                boundsOrigin = .zero
            } else {
                let r: Rect
                if case .array(let a) = v, a.count == 2 {
                    let p = try f.point(v)
                    r = Rect(x: p.x, y: p.y, width: frame.width, height: frame.height)
                } else {
                    r = try f.rect(v)
                }
                boundsOrigin = Point(x: r.x, y: r.y)
            }
        case 2, 3: boundsOrigin = v.isNull ? .zero : try f.point(v)  // boundsOrigin, contentOffset
        case 4:  // transform
            if v.isNull {
                transform = .identity
            } else {
                let o = try f.object(v)
                func n(_ k: String, _ d: Double) throws(SchemaError) -> Double {
                    try o[k].map { (j) throws(SchemaError) in try f.number(j) } ?? d
                }
                let t = Transform2D(
                    scaleX: try n("scaleX", try n("a", 1)), scaleY: try n("scaleY", try n("d", 1)),
                    translateX: try n("translateX", try n("tx", 0)), translateY: try n("translateY", try n("ty", 0)))
                guard abs(t.translateX) < Limits.maxCoordinate, abs(t.translateY) < Limits.maxCoordinate,
                    abs(t.scaleX) < 1e6, abs(t.scaleY) < 1e6
                else { throw f.fail("transform out of range") }
                transform = t
            }
        case 5: isHidden = v.isNull ? false : try f.bool(v)  // isHidden
        case 6:  // alpha
            if v.isNull {
                alpha = 1
            } else {
                let a = try f.number(v)
                guard a >= 0, a <= 1 else { throw f.fail("alpha must be within 0…1") }
                alpha = a
            }
        case 7: clipsToBounds = v.isNull ? nil : try f.bool(v)  // clipsToBounds
        case 8: isUserInteractionEnabled = v.isNull ? nil : try f.bool(v)  // isUserInteractionEnabled
        case 9: tag = v.isNull ? 0 : try f.int(v)  // tag
        case 10: control.isEnabled = v.isNull ? true : try f.bool(v)  // isEnabled
        case 11: control.isSelected = v.isNull ? false : try f.bool(v)  // isSelected
        case 12: control.isHighlighted = v.isNull ? false : try f.bool(v)  // isHighlighted
        case 13: control.isOn = v.isNull ? false : try f.bool(v)  // isOn
        case 14: control.value = v.isNull ? nil : try f.number(v)  // value
        case 15: control.minimumValue = v.isNull ? nil : try f.number(v)  // minimumValue
        case 16: control.maximumValue = v.isNull ? nil : try f.number(v)  // maximumValue
        case 17:  // stepValue
            if v.isNull {
                control.stepValue = nil
            } else {
                let s = try f.number(v)
                guard s > 0 else { throw f.fail("stepValue must be greater than 0") }
                control.stepValue = s
            }
        case 18: control.text = try f.optString(v)  // text
        case 19: control.title = try f.optString(v)  // title
        case 20: control.placeholder = try f.optString(v)  // placeholder
        case 21: control.isSecureTextEntry = v.isNull ? false : try f.bool(v)  // isSecureTextEntry
        case 22: control.isEditable = v.isNull ? true : try f.bool(v)  // isEditable
        case 23: control.currentPage = v.isNull ? nil : try f.int(v)  // currentPage
        case 24:  // numberOfPages
            if v.isNull {
                control.numberOfPages = nil
            } else {
                let n = try f.int(v)
                guard n >= 0 else { throw f.fail("numberOfPages must not be negative") }
                control.numberOfPages = n
            }
        case 25: control.selectedSegmentIndex = v.isNull ? nil : try f.int(v)  // selectedSegmentIndex
        case 26: control.segmentTitles = v.isNull ? [] : try f.strings(v)  // segmentTitles
        case 27: control.progress = v.isNull ? nil : try f.number(v)  // progress
        case 28: control.isAnimating = v.isNull ? false : try f.bool(v)  // isAnimating
        case 29: control.accessoryType = try f.optString(v)  // accessoryType
        case 30: control.backButtonTitle = try f.optString(v)  // backButtonTitle
        case 31: control.message = try f.optString(v)  // message
        case 32:  // preferredStyle
            let s = try f.optString(v)
            guard s == nil || s == "alert" || s == "actionSheet" else { throw f.fail("expected alert or actionSheet") }
            control.preferredStyle = s
        case 33: control.dateText = try f.optString(v)  // dateText
        case 34:  // components
            control.components = []
            if !v.isNull {
                for (i, e) in try f.array(v).enumerated() {
                    let cf = Field(id: id, key: "components[\(i)]")
                    let o = try cf.object(e)
                    let rows = try o["rows"].map { (j) throws(SchemaError) in try cf.strings(j) } ?? []
                    let sel = try o["selectedRow"].map { (j) throws(SchemaError) in try cf.int(j) } ?? 0
                    guard rows.isEmpty || (0..<rows.count).contains(sel) else {
                        throw cf.fail("selectedRow \(sel) out of range 0..<\(rows.count)")
                    }
                    control.components.append(
                        PickerComponent(
                            label: try o["label"].map { (j) throws(SchemaError) in try cf.optString(j) } ?? nil,
                            hint: try o["hint"].map { (j) throws(SchemaError) in try cf.optString(j) } ?? nil,
                            rows: rows, selectedRow: sel))
                }
            }
        case 35: window.isKeyWindow = v.isNull ? false : try f.bool(v)  // isKeyWindow
        case 36: window.windowLevel = v.isNull ? 0 : try f.number(v)  // windowLevel
        case 37: window.title = try f.optString(v)  // windowTitle
        case 38, 39:  // layoutDirection, semanticContentAttribute
            if v.isNull {
                window.layoutDirection = .ltr
            } else {
                let s = try f.string(v)
                switch s {
                case "ltr", "forceLeftToRight", "leftToRight": window.layoutDirection = .ltr
                case "rtl", "forceRightToLeft", "rightToLeft": window.layoutDirection = .rtl
                default: throw f.fail("expected ltr or rtl")
                }
            }
        case 40: focus.canBecomeFocused = v.isNull ? nil : try f.bool(v)  // canBecomeFocused
        case 41: focus.groupIdentifier = try f.optString(v)  // focusGroupIdentifier
        case 42:  // focusGroupPriority
            switch v {
            case .null: focus.groupPriority = .ignored
            case .number: focus.groupPriority = .raw(try f.int(v))
            default:
                switch try f.string(v) {
                case "ignored": focus.groupPriority = .ignored
                case "previouslyFocused": focus.groupPriority = .previouslyFocused
                case "prioritized": focus.groupPriority = .prioritized
                case "currentlyFocused": focus.groupPriority = .currentlyFocused
                default:
                    throw f.fail(
                        "expected ignored, previouslyFocused, prioritized, currentlyFocused or an integer (R122)")
                }
            }
        case 43:  // focusGuides
            focus.guides = []
            if !v.isNull {
                for (i, e) in try f.array(v).enumerated() {
                    let gf = Field(id: id, key: "focusGuides[\(i)]")
                    let o = try gf.object(e)
                    guard let gid = o["id"], let fr = o["frame"] else {
                        throw gf.fail("a focus guide needs 'id' and 'frame'")
                    }
                    focus.guides.append(
                        FocusGuide(
                            id: try gf.string(gid), frame: try gf.rect(fr),
                            preferred: try o["preferredFocusEnvironments"].map { (j) throws(SchemaError) in
                                try gf.strings(j)
                            } ?? [],
                            isEnabled: try o["isEnabled"].map { (j) throws(SchemaError) in try gf.bool(j) } ?? true))
                }
            }
        case 44: focus.isTransparentFocusItem = v.isNull ? false : try f.bool(v)  // isTransparentFocusItem
        case 45, 46:  // restrictionIdentifiers, guidedAccessRestrictionIdentifiers
            restrictionIdentifiers = v.isNull ? [] : try f.strings(v)
        case 47:  // fontSize
            if v.isNull {
                control.fontSize = nil
            } else {
                let size = try f.number(v)
                guard size > 0, size < 10_000 else { throw f.fail("fontSize must be within (0, 10000) points") }
                control.fontSize = size
            }
        case 48: control.textColor = try f.color(v)  // textColor
        case 49: control.backgroundColor = try f.color(v)  // backgroundColor
        // isFocused: the app's own engine says so (C35, C36)
        case 50: focus.isFocused = v.isNull ? false : try f.bool(v)
        case 51: focus.preferredEnvironments = v.isNull ? [] : try f.strings(v)  // preferredFocusEnvironments (C7, C8)
        // focusUpdateRequests: ask shouldUpdateFocus (C12)
        case 52: focus.asksFocusUpdates = v.isNull ? false : try f.bool(v)
        case 53:  // indentationLevel
            if v.isNull {
                control.indentationLevel = nil
            } else {
                let level = try f.int(v)
                guard (0...Limits.maxIndentationLevel).contains(level) else {
                    throw f.fail("indentationLevel must be 0…\(Limits.maxIndentationLevel)")
                }
                control.indentationLevel = level
            }
        case 54: control.isPagingEnabled = v.isNull ? false : try f.bool(v)  // isPagingEnabled
        case ViewNode.axIndexBase..<200:
            _ = try applyAccessibilityProperty(index: index - ViewNode.axIndexBase, key, v, to: &ax, id: id)
        case 200...203:
            throw f.fail("'\(key)' cannot be changed with set (use insert, remove or move)")
        default:
            throw f.fail("unknown property")
        }
    }

    /// Decodes one view object without its children. `children` is read by the store.
    package static func decode(_ json: JSON) throws(SchemaError) -> ViewNode {
        try decodeWithChildren(json).node
    }

    /// Decodes one view object and hands back its `children` value (unread): one table lookup per key.
    static func decodeWithChildren(_ json: JSON) throws(SchemaError) -> (node: ViewNode, children: JSON?) {
        guard case .object(let o) = json else {
            throw SchemaError(id: nil, property: nil, message: "a view must be an object, got \(json.typeName)")
        }
        let keys = o.keys
        let values = o.values
        return try withUnsafeTemporaryAllocation(of: Int.self, capacity: keys.count) { (index) throws(SchemaError) in
            var idAt = -1
            var classAt = -1
            var baseAt = -1
            var childrenAt = -1
            for i in keys.indices {
                let k = ViewNode.propertyIndex[keys[i]] ?? -1
                index[i] = k
                switch k {
                case 200: idAt = i
                case 201: classAt = i
                case 202: baseAt = i
                case 203: childrenAt = i
                default: break
                }
            }
            guard idAt >= 0 else {
                throw SchemaError(id: nil, property: "id", message: "every view needs a string 'id'")
            }
            guard case .string(let id) = values[idAt], !id.isEmpty else {
                throw SchemaError(id: nil, property: "id", message: "'id' must be a non-empty string")
            }
            guard id.utf8.count <= 512 else {
                throw SchemaError(id: nil, property: "id", message: "'id' longer than 512 bytes")
            }
            let cls = classAt >= 0 ? try Field(id: id, key: "class").string(values[classAt]) : "UIView"
            let base = baseAt >= 0 ? try Field(id: id, key: "baseClass").optString(values[baseAt]) : nil
            var node = ViewNode(id: id, className: cls, baseClass: base)
            for i in keys.indices where index[i] < 200 {
                try node.setProperty(index: index[i], keys[i], values[i])
            }
            return (node, childrenAt >= 0 ? values[childrenAt] : nil)
        }
    }
}
