import AXJSON
import AXSchema

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
        var location = ""
        if let id { location += "view '\(id)'" }
        if let property { location += (location.isEmpty ? "" : ", ") + "property '\(property)'" }
        return location.isEmpty ? message : location + ": " + message
    }
}

/// Reading typed values out of JSON with precise errors.
struct Field {
    let id: String?
    let key: String
    func fail(_ message: String) -> SchemaError { SchemaError(id: id, property: key, message: message) }
    func string(_ value: JSON) throws(SchemaError) -> String {
        guard case .string(let text) = value else { throw fail("expected a string, got \(value.typeName)") }
        guard text.utf8.count <= Limits.maxStringBytes else {
            throw fail("string longer than \(Limits.maxStringBytes) bytes")
        }
        return text
    }
    func optionalString(_ value: JSON) throws(SchemaError) -> String? { value.isNull ? nil : try string(value) }
    /// A string value (length-checked), nil for anything else: for members that also accept other shapes.
    func optionalStringOrOther(_ value: JSON) throws(SchemaError) -> String? {
        guard case .string = value else { return nil }
        return try string(value)
    }
    func bool(_ value: JSON) throws(SchemaError) -> Bool {
        guard case .bool(let flag) = value else { throw fail("expected true or false, got \(value.typeName)") }
        return flag
    }
    func number(_ value: JSON) throws(SchemaError) -> Double {
        guard case .number(let number) = value else { throw fail("expected a number, got \(value.typeName)") }
        guard number.isFinite else { throw fail("number must be finite") }
        return number
    }
    func int(_ value: JSON) throws(SchemaError) -> Int {
        guard let integer = value.intValue else {
            throw fail("expected an integer, got \(value.typeName == "number" ? "a fraction" : value.typeName)")
        }
        return integer
    }
    func strings(_ value: JSON) throws(SchemaError) -> [String] {
        guard case .array(let elements) = value else {
            throw fail("expected an array of strings, got \(value.typeName)")
        }
        var out: [String] = []
        for element in elements {
            out.append(try string(element))
        }
        return out
    }
    /// The member `key` of `object` read by `read`, or nil when absent.
    func member<Value>(
        _ object: JSONObject, _ key: String, _ read: (JSON) throws(SchemaError) -> Value
    ) throws(SchemaError) -> Value? {
        guard let value = object[key] else { return nil }
        return try read(value)
    }
    func rect(_ value: JSON) throws(SchemaError) -> Rect {
        let rect: Rect
        switch value {
        case .array(let elements):
            guard elements.count == SchemaGeometry.rectArity else {
                throw fail("a rect is [x, y, width, height]")
            }
            rect = Rect(
                x: try number(elements[0]), y: try number(elements[1]), width: try number(elements[2]),
                height: try number(elements[3]))
        case .object(let object):
            rect = Rect(
                x: try member(object, "x", number) ?? 0, y: try member(object, "y", number) ?? 0,
                width: try member(object, "width", number) ?? 0, height: try member(object, "height", number) ?? 0)
        default:
            throw fail("expected a rect ([x, y, width, height] or {x, y, width, height}), got \(value.typeName)")
        }
        guard rect.width >= 0, rect.height >= 0 else { throw fail("width and height must not be negative") }
        guard abs(rect.x) < Limits.maxCoordinate, abs(rect.y) < Limits.maxCoordinate,
            rect.width < Limits.maxCoordinate, rect.height < Limits.maxCoordinate
        else { throw fail("coordinate out of range (|v| < \(Int(Limits.maxCoordinate)))") }
        return rect
    }
    func point(_ value: JSON) throws(SchemaError) -> Point {
        switch value {
        case .array(let elements):
            guard elements.count == SchemaGeometry.pointArity else { throw fail("a point is [x, y]") }
            return Point(x: try number(elements[0]), y: try number(elements[1]))
        case .object(let object):
            return Point(x: try member(object, "x", number) ?? 0, y: try member(object, "y", number) ?? 0)
        default:
            throw fail("expected a point ([x, y] or {x, y}), got \(value.typeName)")
        }
    }
    func range(_ value: JSON) throws(SchemaError) -> TextRange {
        switch value {
        case .array(let elements) where elements.count == 2:
            return TextRange(location: try int(elements[0]), length: try int(elements[1]))
        case .object(let object):
            return TextRange(
                location: try member(object, "location", int) ?? 0, length: try member(object, "length", int) ?? 1)
        default:
            throw fail("expected a range [location, length] or {location, length}")
        }
    }
    /// An opaque colour `"#RRGGBB"` / `"#RGB"`; null is no colour.
    func color(_ value: JSON) throws(SchemaError) -> RGBColor? {
        guard let text = try optionalString(value) else { return nil }
        guard let color = RGBColor(hex: text) else { throw fail("expected an opaque colour \"#RRGGBB\" or \"#RGB\"") }
        return color
    }
    func object(_ value: JSON) throws(SchemaError) -> JSONObject {
        guard case .object(let object) = value else { throw fail("expected an object, got \(value.typeName)") }
        return object
    }
    func array(_ value: JSON) throws(SchemaError) -> [JSON] {
        guard case .array(let elements) = value else { throw fail("expected an array, got \(value.typeName)") }
        return elements
    }
    // `null` restores UIKit's default: the `null:` forms return that default, the `optional` forms nil.
    func bool(_ value: JSON, null defaultValue: Bool) throws(SchemaError) -> Bool {
        value.isNull ? defaultValue : try bool(value)
    }
    func number(_ value: JSON, null defaultValue: Double) throws(SchemaError) -> Double {
        value.isNull ? defaultValue : try number(value)
    }
    func int(_ value: JSON, null defaultValue: Int) throws(SchemaError) -> Int {
        value.isNull ? defaultValue : try int(value)
    }
    func rect(_ value: JSON, null defaultValue: Rect) throws(SchemaError) -> Rect {
        value.isNull ? defaultValue : try rect(value)
    }
    func point(_ value: JSON, null defaultValue: Point) throws(SchemaError) -> Point {
        value.isNull ? defaultValue : try point(value)
    }
    func strings(_ value: JSON, null defaultValue: [String]) throws(SchemaError) -> [String] {
        value.isNull ? defaultValue : try strings(value)
    }
    func optionalBool(_ value: JSON) throws(SchemaError) -> Bool? { value.isNull ? nil : try bool(value) }
    func optionalNumber(_ value: JSON) throws(SchemaError) -> Double? { value.isNull ? nil : try number(value) }
    func optionalInt(_ value: JSON) throws(SchemaError) -> Int? { value.isNull ? nil : try int(value) }
    func optionalRect(_ value: JSON) throws(SchemaError) -> Rect? { value.isNull ? nil : try rect(value) }
    func optionalPoint(_ value: JSON) throws(SchemaError) -> Point? { value.isNull ? nil : try point(value) }
    func optionalRange(_ value: JSON) throws(SchemaError) -> TextRange? { value.isNull ? nil : try range(value) }
    func optionalStrings(_ value: JSON) throws(SchemaError) -> [String]? { value.isNull ? nil : try strings(value) }
    /// The field of element `index` of this array-valued property (`key[index]`), for its error messages.
    func element(_ index: Int) -> Field { Field(id: id, key: "\(key)[\(index)]") }
}

/// Limits on what an app may push (Specs/hierarchy.md §Limits).
package enum Limits {
    package static let maxNodes = 250_000
    package static let maxDepth = 256
    package static let maxStringBytes = 65_536
    package static let maxCoordinate = 1.0e7
    package static let maxChildren = 100_000
    package static let maxOpsPerPatch = 10_000
    /// The deepest outline row level accepted (`indentationLevel`); deeper than any real outline.
    package static let maxIndentationLevel = 1_000
}

func decodeTraits(_ value: JSON, field: Field) throws(SchemaError) -> Traits {
    switch value {
    case .null: return []
    case .number:
        let raw = try field.int(value)
        guard raw >= 0 else { throw field.fail("a trait mask must not be negative") }
        let traits = Traits(rawValue: UInt64(raw))
        guard Traits.allKnown.isSuperset(of: traits) else { throw field.fail("unknown trait bits in mask \(raw)") }
        return traits
    case .array(let elements):
        var traits = Traits()
        for element in elements {
            let name = try field.string(element)
            guard let bit = Traits.named(name) else {
                throw field.fail(
                    "unknown trait '\(name)' (known: \(Traits.named.map(\.name).joined(separator: ", ")))")
            }
            traits.formUnion(bit)
        }
        return traits
    default:
        throw field.fail("expected an array of trait names or an integer mask, got \(value.typeName)")
    }
}

/// The UIAccessibility properties views and virtual elements share, by family; the raw value is the schema key
/// (Specs/hierarchy.md §Per view, UIAccessibility). Each family is decoded by one small function whose switch over
/// the family's keys is exhaustive: a new property names its family by the enum it joins, and a case missing from
/// that family's function is a compile error.
enum AccessibilityPropertyKey: RawRepresentable, CaseIterable, Hashable, Sendable {
    case description(Description)
    case geometry(Geometry)
    case container(Container)
    case interaction(Interaction)
    case dragDrop(DragDrop)

    /// What VoiceOver speaks and how.
    enum Description: String, CaseIterable, Sendable {
        case isAccessibilityElement
        case accessibilityLabel
        case accessibilityValue
        case accessibilityHint
        case accessibilityIdentifier
        case accessibilityLanguage
        case accessibilityUserInputLabels
        case accessibilityTextualContext
        case accessibilityHeadingLevel
        case accessibilityExpandedStatus
    }

    /// Traits, frame, activation point and how touches reach the element.
    enum Geometry: String, CaseIterable, Sendable {
        case accessibilityTraits
        case accessibilityFrame
        case accessibilityActivationPoint
        case accessibilityRespondsToUserInteraction
        case accessibilityDirectTouchOptions
        case accessibilityIgnoresInvertColors
    }

    /// Hidden and modal subtrees, grouping, navigation style, container type, element lists, data tables.
    enum Container: String, CaseIterable, Sendable {
        case accessibilityElementsHidden
        case accessibilityViewIsModal
        case shouldGroupAccessibilityChildren
        case accessibilityNavigationStyle
        case accessibilityContainerType
        case accessibilityElements
        case automationElements
        case accessibilityDataTable
        case accessibilityRowRange
        case accessibilityColumnRange
    }

    /// Custom actions and rotors, the large content viewer, attributed texts and reading content.
    enum Interaction: String, CaseIterable, Sendable {
        case accessibilityCustomActions
        case accessibilityCustomRotors
        // Issue 25 item 4: UILargeContentViewerItem (seed 000:7551–7569, 25540–25574; R118, D-LCV-1).
        case showsLargeContentViewer
        case largeContentTitle
        case largeContentImage
        case scalesLargeContentImage
        // D-TEXT-APP-3, D-TEXT-APP-4 (TextContent.swift).
        case accessibilityAttributedLabel
        case accessibilityAttributedValue
        // D-TEXT-APP-7.
        case accessibilityAttributedHint
        case accessibilityAttributedUserInputLabels
        case accessibilityReadingContent
    }

    /// Drag and drop (seed 000:56685–56747; R52–R55, X39; D-DRAG-1).
    enum DragDrop: String, CaseIterable, Sendable {
        case accessibilityDragSourceDescriptors
        case accessibilityDropPointDescriptors
    }

    /// Every key, family by family.
    static let allCases: [AccessibilityPropertyKey] =
        Description.allCases.map(Self.description) + Geometry.allCases.map(Self.geometry)
        + Container.allCases.map(Self.container) + Interaction.allCases.map(Self.interaction)
        + DragDrop.allCases.map(Self.dragDrop)

    /// The key named `rawValue` (the schema key), nil when it is not one.
    init?(rawValue: String) {
        guard let key = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = key
    }

    /// The schema key.
    var rawValue: String {
        switch self {
        case .description(let key): key.rawValue
        case .geometry(let key): key.rawValue
        case .container(let key): key.rawValue
        case .interaction(let key): key.rawValue
        case .dragDrop(let key): key.rawValue
        }
    }

    /// Key → case: one hash instead of a chain of string compares.
    static let byName = KeyTable(schemaCases(of: .accessibility, AccessibilityPropertyKey.self))
}

/// The cases of `Key` for the rows of `owner` in the schema table (AXSchema's `HierarchySchema.properties`), checked
/// both ways: a row without a case, or a case without a row, stops the process naming it (Specs/hierarchy.md §One
/// schema table).
func schemaCases<Key: RawRepresentable & CaseIterable>(of owner: SchemaOwner, _ type: Key.Type)
    -> [(key: String, value: Key)] where Key.RawValue == String
{
    let cases = HierarchySchema.keys(of: owner).map { key -> (key: String, value: Key) in
        guard let value = Key(rawValue: key) else {
            preconditionFailure("schema property '\(key)' has no decoder case in \(Key.self)")
        }
        return (key, value)
    }
    for value in Key.allCases where !cases.contains(where: { $0.key == value.rawValue }) {
        preconditionFailure("\(Key.self).\(value.rawValue) has no row in HierarchySchema.properties")
    }
    return cases
}

/// Applies an accessibility property shared by views and virtual elements. Returns false if the key is not one.
func applyAccessibilityProperty(_ key: String, _ value: JSON, to ax: inout AccessibilityProperties, id: String?)
    throws(SchemaError) -> Bool
{
    guard let property = AccessibilityPropertyKey.byName[key] else { return false }
    try applyAccessibilityProperty(property, value, to: &ax, id: id)
    return true
}

/// The same, with the key already looked up; `null` restores UIKit's default. One small function per property family
/// (the cases of `AccessibilityPropertyKey`), each an exhaustive switch over its keys.
func applyAccessibilityProperty(
    _ property: AccessibilityPropertyKey, _ value: JSON, to ax: inout AccessibilityProperties, id: String?
) throws(SchemaError) {
    let field = Field(id: id, key: property.rawValue)
    switch property {
    case .description(let key): try applyDescriptionProperty(key, value, to: &ax, field: field)
    case .geometry(let key): try applyGeometryProperty(key, value, to: &ax, field: field)
    case .container(let key): try applyContainerProperty(key, value, to: &ax, field: field)
    case .interaction(let key): try applyInteractionProperty(key, value, to: &ax, field: field)
    case .dragDrop(let key): try applyDragDropProperty(key, value, to: &ax, field: field)
    }
}

/// What VoiceOver speaks and how: label, value, hint, identifier, language, headings, expanded state.
@inline(__always)
private func applyDescriptionProperty(
    _ property: AccessibilityPropertyKey.Description, _ value: JSON, to ax: inout AccessibilityProperties, field: Field
) throws(SchemaError) {
    switch property {
    case .isAccessibilityElement: ax.isAccessibilityElement = try field.optionalBool(value)
    case .accessibilityLabel: ax.label = try field.optionalString(value)
    case .accessibilityValue: ax.value = try field.optionalString(value)
    case .accessibilityHint: ax.hint = try field.optionalString(value)
    case .accessibilityIdentifier: ax.identifier = try field.optionalString(value)
    case .accessibilityLanguage: ax.language = try decodeLanguage(value, field: field)
    case .accessibilityUserInputLabels: ax.userInputLabels = try field.strings(value, null: [])
    case .accessibilityTextualContext: ax.textualContext = try field.optionalString(value)
    case .accessibilityHeadingLevel: ax.headingLevel = try decodeHeadingLevel(value, field: field)
    case .accessibilityExpandedStatus: ax.expandedStatus = try field.optionalString(value)
    }
}

/// Traits, frame, activation point and how touches reach the element.
@inline(__always)
private func applyGeometryProperty(
    _ property: AccessibilityPropertyKey.Geometry, _ value: JSON, to ax: inout AccessibilityProperties, field: Field
) throws(SchemaError) {
    switch property {
    case .accessibilityTraits: ax.traits = value.isNull ? nil : try decodeTraits(value, field: field)
    case .accessibilityFrame: ax.frame = try field.optionalRect(value)
    case .accessibilityActivationPoint: ax.activationPoint = try field.optionalPoint(value)
    case .accessibilityRespondsToUserInteraction: ax.respondsToUserInteraction = try field.optionalBool(value)
    case .accessibilityDirectTouchOptions: ax.directTouchOptions = try field.strings(value, null: [])
    case .accessibilityIgnoresInvertColors: ax.ignoresInvertColors = try field.bool(value, null: false)
    }
}

/// Containers: hidden and modal subtrees, grouping, navigation style, container type, element lists, data tables.
@inline(__always)
private func applyContainerProperty(
    _ property: AccessibilityPropertyKey.Container, _ value: JSON, to ax: inout AccessibilityProperties, field: Field
) throws(SchemaError) {
    let isNull = value.isNull
    switch property {
    case .accessibilityElementsHidden: ax.elementsHidden = try field.bool(value, null: false)
    case .accessibilityViewIsModal: ax.viewIsModal = try field.optionalBool(value)
    case .shouldGroupAccessibilityChildren: ax.shouldGroupChildren = try field.bool(value, null: false)
    case .accessibilityNavigationStyle: ax.navigationStyle = try decodeNavigationStyle(value, field: field)
    case .accessibilityContainerType: ax.containerType = try decodeContainerType(value, field: field)
    case .accessibilityElements: ax.elements = isNull ? nil : try decodeElementEntries(value, field: field)
    case .automationElements: ax.automationElements = try field.optionalStrings(value)
    case .accessibilityDataTable: ax.dataTable = isNull ? nil : try decodeDataTable(value, field: field)
    case .accessibilityRowRange: ax.rowRange = try field.optionalRange(value)
    case .accessibilityColumnRange: ax.columnRange = try field.optionalRange(value)
    }
}

/// Custom actions, custom rotors and the large content viewer (issue 25 item 4, D-LCV-1).
@inline(__always)
private func applyInteractionProperty(
    _ property: AccessibilityPropertyKey.Interaction, _ value: JSON, to ax: inout AccessibilityProperties, field: Field
) throws(SchemaError) {
    let isNull = value.isNull
    switch property {
    case .accessibilityCustomActions: ax.customActions = isNull ? [] : try decodeCustomActions(value, field: field)
    case .accessibilityCustomRotors: ax.customRotors = isNull ? [] : try decodeCustomRotors(value, field: field)
    case .showsLargeContentViewer: ax.largeContent.shows = try field.optionalBool(value)
    case .largeContentTitle: ax.largeContent.title = try field.optionalString(value)
    case .largeContentImage: ax.largeContent.image = try field.optionalString(value)
    case .scalesLargeContentImage: ax.largeContent.scalesImage = try field.optionalBool(value)
    // D-TEXT-APP-3, D-TEXT-APP-4 (TextContent.swift).
    case .accessibilityAttributedLabel: ax.attributedLabel = try decodeAttributeRuns(value, field: field)
    case .accessibilityAttributedValue: ax.attributedValue = try decodeAttributeRuns(value, field: field)
    case .accessibilityAttributedHint: ax.attributedHint = try decodeAttributeRuns(value, field: field)
    case .accessibilityAttributedUserInputLabels:
        ax.attributedUserInputLabels = try decodeAttributedTexts(value, field: field)
    case .accessibilityReadingContent: ax.readingContent = try decodeReadingContent(value, field: field)
    }
}

/// A BCP 47 language tag, or nil.
private func decodeLanguage(_ value: JSON, field: Field) throws(SchemaError) -> String? {
    let language = try field.optionalString(value)
    if let tag = language, !LanguageTag.isWellFormed(tag) {
        throw field.fail("'\(tag.prefix(64))' is not a well-formed BCP 47 language tag (e.g. en, en-GB, zh-Hant-TW)")
    }
    return language
}

/// `imageOrientation`: a `UIImage.Orientation` name, or null (not sent: `up`).
private func decodeImageOrientation(_ value: JSON, field: Field) throws(SchemaError) -> ImageOrientation? {
    if value.isNull { return nil }
    guard let orientation = ImageOrientation(rawValue: try field.string(value)) else {
        let accepted = ImageOrientation.allCases.map(\.rawValue).joined(separator: ", ")
        throw field.fail("expected one of \(accepted) (UIImage.Orientation)")
    }
    return orientation
}

private func decodeNavigationStyle(_ value: JSON, field: Field) throws(SchemaError) -> NavigationStyle {
    if value.isNull {
        return .automatic
    }
    if case .number = value {
        guard let style = NavigationStyle(rawInt: try field.int(value)) else {
            throw field.fail("navigation style raw value must be 0…2 (X12)")
        }
        return style
    }
    guard let style = NavigationStyle(rawValue: try field.string(value)) else {
        throw field.fail("expected automatic, separate or combined, or the raw value 0…2 (X12)")
    }
    return style
}

private func decodeContainerType(_ value: JSON, field: Field) throws(SchemaError) -> ContainerType {
    if value.isNull {
        return .none
    }
    if case .number = value {
        guard let type = ContainerType(rawInt: try field.int(value)) else {
            throw field.fail("container type raw value must be 0…4 (R40)")
        }
        return type
    }
    guard let type = ContainerType(rawValue: try field.string(value)) else {
        throw field.fail("expected none, dataTable, list, landmark, semanticGroup (R39), menu or menuBar (D-MENU-1)")
    }
    return type
}

/// A heading level 1…6; 0 and null are no heading (X55).
private func decodeHeadingLevel(_ value: JSON, field: Field) throws(SchemaError) -> Int? {
    if value.isNull {
        return nil
    }
    let level = try field.int(value)
    guard (0...6).contains(level) else { throw field.fail("heading level must be 0…6 (X55)") }
    return level == 0 ? nil : level
}

private func decodeCustomActions(_ value: JSON, field: Field) throws(SchemaError) -> [CustomAction] {
    var actions: [CustomAction] = []
    var seen = Set<String>()
    for (index, element) in try field.array(value).enumerated() {
        let object = try field.object(element)
        let elementField = field.element(index)
        guard let name = try elementField.member(object, "name", elementField.string), !name.isEmpty else {
            throw elementField.fail("a custom action needs a non-empty 'name'")
        }
        let actionID = try elementField.member(object, "id", elementField.string) ?? name
        guard seen.insert(actionID).inserted else {
            throw elementField.fail("duplicate custom action id '\(actionID)'")
        }
        actions.append(
            CustomAction(
                id: actionID, name: name,
                category: try elementField.member(object, "category", elementField.optionalString) ?? nil,
                hasImage: object["image"].map { !$0.isNull } ?? false,
                image: try elementField.member(object, "image", elementField.optionalStringOrOther) ?? nil))
    }
    return actions
}

private func decodeCustomRotors(_ value: JSON, field: Field) throws(SchemaError) -> [CustomRotor] {
    var rotors: [CustomRotor] = []
    for (index, element) in try field.array(value).enumerated() {
        let object = try field.object(element)
        rotors.append(try decodeCustomRotor(object, field: field.element(index)))
    }
    return rotors
}

private func decodeCustomRotor(_ object: JSONObject, field: Field) throws(SchemaError) -> CustomRotor {
    var type = SystemRotorType.none
    if let systemType = object["systemType"], !systemType.isNull {
        let typeName = try field.string(systemType)
        guard let known = SystemRotorType(rawValue: typeName) else {
            throw field.fail("unknown system rotor type '\(typeName)' (X27)")
        }
        type = known
    }
    let name = try field.member(object, "name", field.string) ?? (type == .none ? "" : type.rawValue)
    guard !name.isEmpty else { throw field.fail("a rotor needs a 'name' or a 'systemType' (R57)") }
    var items: [RotorItem] = []
    let itemList = try field.member(object, "items", field.array) ?? []
    for (itemIndex, item) in itemList.enumerated() {
        let itemField = Field(id: field.id, key: "\(field.key).items[\(itemIndex)]")
        switch item {
        case .string(let target): items.append(RotorItem(target: target))
        case .object(let itemObject):
            guard let target = itemObject["target"] else {
                throw itemField.fail("a rotor item needs a 'target' element id")
            }
            items.append(
                RotorItem(
                    target: try itemField.string(target),
                    range: try itemField.member(itemObject, "range", itemField.range)
                ))
        default: throw itemField.fail("a rotor item is an element id or {target, range}")
        }
    }
    var searchedByApp = false
    if let search = object["search"], !search.isNull {
        let mode = try field.string(search)
        guard mode == "items" || mode == "app" else {
            throw field.fail("unknown rotor search '\(mode)' (accepted: items, app)")
        }
        searchedByApp = mode == "app"
    }
    if searchedByApp && !items.isEmpty {
        throw field.fail("a rotor with \"search\": \"app\" has no static 'items' (the app computes them, R58)")
    }
    return CustomRotor(name: name, systemType: type, items: items, searchedByApp: searchedByApp)
}

/// `accessibilityElements`: view ids and virtual element objects (R5).
private func decodeElementEntries(_ value: JSON, field: Field) throws(SchemaError) -> [ElementEntry] {
    var entries: [ElementEntry] = []
    for (index, element) in try field.array(value).enumerated() {
        switch element {
        case .string(let viewID): entries.append(.view(viewID))
        case .object(let object):
            entries.append(.virtual(try decodeVirtualElement(object, field: field.element(index))))
        default: throw field.fail("entries are view ids or virtual element objects")
        }
    }
    return entries
}

private func decodeVirtualElement(_ object: JSONObject, field: Field) throws(SchemaError) -> VirtualElement {
    guard let elementID = object["id"] else { throw field.fail("a virtual element needs an 'id'") }
    var element = VirtualElement(id: try field.string(elementID))
    element.ax.isAccessibilityElement = true
    for (key, value) in object where key != "id" {
        if key == "accessibilityFrameInContainerSpace" || key == "frame" {
            element.frameInContainer = try Field(id: element.id, key: key).rect(value)
        } else if !(try applyAccessibilityProperty(key, value, to: &element.ax, id: element.id)) {
            throw Field(id: element.id, key: key).fail("unknown property for a virtual element")
        }
    }
    return element
}

private func decodeDataTable(_ value: JSON, field: Field) throws(SchemaError) -> DataTableInfo {
    let object = try field.object(value)
    guard let rowCount = object["rows"], let columnCount = object["columns"] else {
        throw field.fail("a data table needs 'rows' and 'columns' (R41)")
    }
    let rows = try field.int(rowCount)
    let columns = try field.int(columnCount)
    guard rows >= 0, columns >= 0 else { throw field.fail("row and column counts must not be negative") }
    var table = DataTableInfo(rows: rows, columns: columns)
    func headers(_ key: String) throws(SchemaError) -> [Int: [String]] {
        guard let headerObject = object[key], !headerObject.isNull else { return [:] }
        var out: [Int: [String]] = [:]
        for (indexText, names) in try field.object(headerObject) {
            guard let index = Int(indexText) else { throw field.fail("\(key) keys are row/column indexes") }
            out[index] = try field.strings(names)
        }
        return out
    }
    table.columnHeaders = try headers("columnHeaders")
    table.rowHeaders = try headers("rowHeaders")
    return table
}

/// The keys of a view object (Specs/hierarchy.md §Per view): its own properties, the accessibility properties it shares
/// with virtual elements, and the structural keys a patch's `set` may not change.
enum SchemaKey: Sendable {
    case view(ViewPropertyKey)
    case accessibility(AccessibilityPropertyKey)
    case structural(StructuralKey)

    /// Key → case: decoding a snapshot looks up every key of every view.
    static let byName = KeyTable(
        schemaCases(of: .view, ViewPropertyKey.self).map { (key: $0.key, value: SchemaKey.view($0.value)) }
            + schemaCases(of: .accessibility, AccessibilityPropertyKey.self).map {
                (key: $0.key, value: SchemaKey.accessibility($0.value))
            }
            + schemaCases(of: .structural, StructuralKey.self).map {
                (key: $0.key, value: SchemaKey.structural($0.value))
            })
}

/// The keys that give a view its identity and place: read by the decoder, never `set`.
enum StructuralKey: String, CaseIterable, Sendable {
    case id
    case `class`
    case baseClass
    case children
}

/// A view's own properties (geometry, control state, window, focus), by family; the raw value is the schema key. Each
/// family is decoded by one small function of `ViewNode` whose switch over the family's keys is exhaustive: a new
/// property names its family by the enum it joins, and a case missing from that family's function is a compile error.
enum ViewPropertyKey: RawRepresentable, CaseIterable, Hashable, Sendable {
    case view(View)
    case controlState(ControlState)
    case textContent(TextContent)
    case itemContent(ItemContent)
    case container(Container)
    case focus(Focus)
    case collectionFocus(CollectionFocus)

    /// UIView's own geometry, visibility and guided-access identifiers.
    enum View: String, CaseIterable, Sendable {
        case frame
        case bounds
        case boundsOrigin
        case contentOffset
        case transform
        case isHidden
        case alpha
        case clipsToBounds
        case isUserInteractionEnabled
        case tag
        case restrictionIdentifiers
        case guidedAccessRestrictionIdentifiers
    }

    /// UIControl's state and the numbers of sliders, steppers, progress views and images.
    enum ControlState: String, CaseIterable, Sendable {
        case isEnabled
        case isSelected
        case isHighlighted
        case isOn
        case value
        case minimumValue
        case maximumValue
        case stepValue
        case progress
        case isAnimating
        /// `UIImage.imageOrientation` of an image view (drawing only; B5, D-SWIFTUI-1).
        case imageOrientation
        /// A symbol image's variable value 0…1 (drawing only; B4, D-SWIFTUI-1).
        case imageVariableValue
    }

    /// The text a label, field or button shows, and how it shows it.
    enum TextContent: String, CaseIterable, Sendable {
        case text
        case title
        case placeholder
        case isSecureTextEntry
        case isEditable
        case fontSize
        case textColor
        case backgroundColor
        /// `UILabel.numberOfLines` (0: as many as the text needs).
        case numberOfLines
        /// `UITextInput.selectedTextRange` (D-TEXT-APP-1; TextContent.swift).
        case selectedTextRange
        /// `attributedText` as attribute runs (D-TEXT-APP-3; TextContent.swift).
        case attributedText
    }

    /// Pages, segments, picker components, dates, cells and scroll paging.
    enum ItemContent: String, CaseIterable, Sendable {
        case currentPage
        case numberOfPages
        case selectedSegmentIndex
        case segmentTitles
        case dateText
        case components
        case accessoryType
        /// `UITableViewCell.indentationLevel` / `UICollectionViewListCell.indentationLevel`: an outline row's level
        /// (D-REL-8).
        case indentationLevel
        /// `UIScrollView.isPagingEnabled` (D-REL-7).
        case isPagingEnabled
    }

    /// Windows, navigation bars and alerts.
    enum Container: String, CaseIterable, Sendable {
        case isKeyWindow
        case windowLevel
        case windowTitle
        case layoutDirection
        case semanticContentAttribute
        case backButtonTitle
        case message
        case preferredStyle
    }

    /// The focus engine's properties (C7, C8, C12, C17, C27, C35, C36).
    enum Focus: String, CaseIterable, Sendable {
        case canBecomeFocused
        case focusGroupIdentifier
        case focusGroupPriority
        case focusGuides
        case isTransparentFocusItem
        /// `UIViewController.restoresFocusAfterTransition` of the presented controller's view (C27; issue 25 item 6).
        case restoresFocusAfterTransition
        /// The app's own focus engine says the view is focused (C35, C36).
        case isFocused
        /// C7, C8.
        case preferredFocusEnvironments
        /// Ask the app's shouldUpdateFocus (C12).
        case focusUpdateRequests
    }

    /// `UITableView` / `UICollectionView.allowsFocus` and `selectionFollowsFocus` (D-FOCUS-SEL-1).
    enum CollectionFocus: String, CaseIterable, Sendable {
        case allowsFocus
        case selectionFollowsFocus
    }

    /// Every key, family by family.
    static let allCases: [ViewPropertyKey] =
        View.allCases.map(Self.view) + ControlState.allCases.map(Self.controlState)
        + TextContent.allCases.map(Self.textContent) + ItemContent.allCases.map(Self.itemContent)
        + Container.allCases.map(Self.container) + Focus.allCases.map(Self.focus)
        + CollectionFocus.allCases.map(Self.collectionFocus)

    /// The key named `rawValue` (the schema key), nil when it is not one.
    init?(rawValue: String) {
        guard let key = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = key
    }

    /// The schema key.
    var rawValue: String {
        switch self {
        case .view(let key): key.rawValue
        case .controlState(let key): key.rawValue
        case .textContent(let key): key.rawValue
        case .itemContent(let key): key.rawValue
        case .container(let key): key.rawValue
        case .focus(let key): key.rawValue
        case .collectionFocus(let key): key.rawValue
        }
    }
}

extension ViewNode {
    /// Sets one schema property from JSON; `null` restores UIKit's default. Throws for unknown keys.
    package mutating func setProperty(_ key: String, _ value: JSON) throws(SchemaError) {
        try setProperty(SchemaKey.byName[key], named: key, to: value)
    }

    /// The same, with the key already looked up in `SchemaKey.byName` (nil: not a schema key). Kept out of line:
    /// inlined into the snapshot decoder's loop it made the optimizer copy the view being decoded (callgrind:
    /// +6 % instructions per decode).
    @inline(never)
    mutating func setProperty(_ key: SchemaKey?, named name: String, to value: JSON) throws(SchemaError) {
        switch key {
        case .view(let property)?:
            try setViewProperty(property, value, field: Field(id: id, key: name))
        case .accessibility(let property)?:
            try applyAccessibilityProperty(property, value, to: &ax, id: id)
        case .structural?:
            throw Field(id: id, key: name).fail("'\(name)' cannot be changed with set (use insert, remove or move)")
        case nil:
            throw Field(id: id, key: name).fail("unknown property")
        }
    }

    /// One small function per property family (the cases of `ViewPropertyKey`), each an exhaustive switch over its keys.
    private mutating func setViewProperty(_ property: ViewPropertyKey, _ value: JSON, field: Field)
        throws(SchemaError)
    {
        switch property {
        case .view(let key): try setOwnViewProperty(key, value, field: field)
        case .controlState(let key): try setControlState(key, value, field: field)
        case .textContent(let key): try setTextContent(key, value, field: field)
        case .itemContent(let key): try setItemContent(key, value, field: field)
        case .container(let key): try setContainerProperty(key, value, field: field)
        case .focus(let key): try setFocusProperty(key, value, field: field)
        case .collectionFocus(let key): try applyCollectionFocusProperty(key, value, to: &focus, field: field)
        }
    }

    /// UIView's own geometry, visibility and guided-access identifiers.
    @inline(__always)
    private mutating func setOwnViewProperty(_ property: ViewPropertyKey.View, _ value: JSON, field: Field)
        throws(SchemaError)
    {
        let isNull = value.isNull
        switch property {
        case .frame: frame = try field.rect(value, null: .zero)
        case .bounds: boundsOrigin = isNull ? .zero : try decodeBoundsOrigin(value, field: field)
        case .boundsOrigin, .contentOffset: boundsOrigin = try field.point(value, null: .zero)
        case .transform: transform = isNull ? .identity : try decodeTransform(value, field: field)
        case .isHidden: isHidden = try field.bool(value, null: false)
        case .alpha:
            alpha = isNull ? 1 : try decodeNumber(value, field: field, within: 0...1, "alpha must be within 0…1")
        case .clipsToBounds: clipsToBounds = try field.optionalBool(value)
        case .isUserInteractionEnabled: isUserInteractionEnabled = try field.optionalBool(value)
        case .tag: tag = try field.int(value, null: 0)
        case .restrictionIdentifiers, .guidedAccessRestrictionIdentifiers:
            restrictionIdentifiers = try field.strings(value, null: [])
        }
    }

    /// UIControl's state and the numbers of sliders, steppers and progress views.
    @inline(__always)
    private mutating func setControlState(_ property: ViewPropertyKey.ControlState, _ value: JSON, field: Field)
        throws(SchemaError)
    {
        switch property {
        case .isEnabled: control.isEnabled = try field.bool(value, null: true)
        case .isSelected: control.isSelected = try field.bool(value, null: false)
        case .isHighlighted: control.isHighlighted = try field.bool(value, null: false)
        case .isOn: control.isOn = try field.bool(value, null: false)
        case .value: control.value = try field.optionalNumber(value)
        case .minimumValue: control.minimumValue = try field.optionalNumber(value)
        case .maximumValue: control.maximumValue = try field.optionalNumber(value)
        case .stepValue:
            control.stepValue =
                value.isNull
                ? nil : try decodeNumber(value, field: field, above: 0, "stepValue must be greater than 0")
        case .progress: control.progress = try field.optionalNumber(value)
        case .isAnimating: control.isAnimating = try field.bool(value, null: false)
        case .imageOrientation: control.imageOrientation = try decodeImageOrientation(value, field: field)
        case .imageVariableValue:
            control.imageVariableValue =
                value.isNull
                ? nil : try decodeNumber(value, field: field, within: 0...1, "imageVariableValue must be within 0…1")
        }
    }

    /// The text a label, field or button shows, and how it shows it.
    @inline(__always)
    private mutating func setTextContent(_ property: ViewPropertyKey.TextContent, _ value: JSON, field: Field)
        throws(SchemaError)
    {
        switch property {
        case .text: control.text = try field.textContent(value, of: kind)
        case .title: control.title = try field.optionalString(value)
        case .placeholder: control.placeholder = try field.optionalString(value)
        case .isSecureTextEntry: control.isSecureTextEntry = try field.bool(value, null: false)
        case .isEditable: control.isEditable = try field.bool(value, null: true)
        case .fontSize:
            control.fontSize =
                value.isNull
                ? nil
                : try decodeNumber(
                    value, field: field, above: 0, below: 10_000, "fontSize must be within (0, 10000) points")
        case .textColor: control.textColor = try field.color(value)
        case .backgroundColor: control.backgroundColor = try field.color(value)
        case .numberOfLines:
            control.numberOfLines =
                value.isNull ? nil : try decodeCount(value, field: field, "numberOfLines must not be negative")
        case .selectedTextRange: control.selectedTextRange = try decodeSelectedTextRange(value, field: field)
        case .attributedText: control.attributedText = try decodeAttributeRuns(value, field: field)
        }
    }

    /// Pages, segments, picker components, dates, cells and scroll paging.
    @inline(__always)
    private mutating func setItemContent(_ property: ViewPropertyKey.ItemContent, _ value: JSON, field: Field)
        throws(SchemaError)
    {
        let isNull = value.isNull
        switch property {
        case .currentPage: control.currentPage = try field.optionalInt(value)
        case .numberOfPages: control.numberOfPages = isNull ? nil : try decodePageCount(value, field: field)
        case .selectedSegmentIndex: control.selectedSegmentIndex = try field.optionalInt(value)
        case .segmentTitles: control.segmentTitles = try field.strings(value, null: [])
        case .dateText: control.dateText = try field.optionalString(value)
        case .components: control.components = isNull ? [] : try decodePickerComponents(value, field: field)
        case .accessoryType: control.accessoryType = try field.optionalString(value)
        case .indentationLevel: control.indentationLevel = try decodeIndentationLevel(value, field: field)
        case .isPagingEnabled: control.isPagingEnabled = try field.bool(value, null: false)
        }
    }

    /// Windows, navigation bars and alerts.
    @inline(__always)
    private mutating func setContainerProperty(_ property: ViewPropertyKey.Container, _ value: JSON, field: Field)
        throws(SchemaError)
    {
        switch property {
        case .isKeyWindow: window.isKeyWindow = try field.bool(value, null: false)
        case .windowLevel: window.windowLevel = try field.number(value, null: 0)
        case .windowTitle: window.title = try field.optionalString(value)
        case .layoutDirection, .semanticContentAttribute:
            window.layoutDirection = value.isNull ? .ltr : try decodeLayoutDirection(value, field: field)
        case .backButtonTitle: control.backButtonTitle = try field.optionalString(value)
        case .message: control.message = try field.optionalString(value)
        case .preferredStyle: control.preferredStyle = try decodePreferredStyle(value, field: field)
        }
    }

    /// The focus engine's properties (C7, C8, C12, C17, C27, C35, C36).
    @inline(__always)
    private mutating func setFocusProperty(_ property: ViewPropertyKey.Focus, _ value: JSON, field: Field)
        throws(SchemaError)
    {
        switch property {
        case .canBecomeFocused: focus.canBecomeFocused = try field.optionalBool(value)
        case .focusGroupIdentifier: focus.groupIdentifier = try field.optionalString(value)
        case .focusGroupPriority: focus.groupPriority = try decodeFocusGroupPriority(value, field: field)
        case .focusGuides: focus.guides = value.isNull ? [] : try decodeFocusGuides(value, field: field)
        case .isTransparentFocusItem: focus.isTransparentFocusItem = try field.bool(value, null: false)
        case .restoresFocusAfterTransition: focus.restoresFocusAfterTransition = try field.bool(value, null: true)
        case .isFocused: focus.isFocused = try field.bool(value, null: false)
        case .preferredFocusEnvironments: focus.preferredEnvironments = try field.strings(value, null: [])
        case .focusUpdateRequests: focus.asksFocusUpdates = try field.bool(value, null: false)
        }
    }

    /// An outline row's level, 0…`Limits.maxIndentationLevel` (D-REL-8).
    private func decodeIndentationLevel(_ value: JSON, field: Field) throws(SchemaError) -> Int? {
        if value.isNull {
            return nil
        }
        let level = try field.int(value)
        guard (0...Limits.maxIndentationLevel).contains(level) else {
            throw field.fail("indentationLevel must be 0…\(Limits.maxIndentationLevel)")
        }
        return level
    }

    /// `bounds`: its origin, from a point or a rect (the size follows the frame).
    private func decodeBoundsOrigin(_ value: JSON, field: Field) throws(SchemaError) -> Point {
        if case .array(let elements) = value, elements.count == 2 {
            return try field.point(value)
        }
        let rect = try field.rect(value)
        return Point(x: rect.x, y: rect.y)
    }

    /// Decodes one view object without its children. `children` is read by the store.
    package static func decode(_ json: JSON) throws(SchemaError) -> ViewNode {
        try decodeWithChildren(json).node
    }

    /// A view with its structural keys (their indexes in `values`, -1 when absent): `id` (required: a non-empty string
    /// of at most 512 bytes), `class` (default UIView) and `baseClass`.
    @inline(__always)
    private static func makeNode(_ values: [JSON], idAt: Int, classAt: Int, baseClassAt: Int) throws(SchemaError)
        -> ViewNode
    {
        guard idAt >= 0 else {
            throw SchemaError(id: nil, property: "id", message: "every view needs a string 'id'")
        }
        guard case .string(let id) = values[idAt], !id.isEmpty else {
            throw SchemaError(id: nil, property: "id", message: "'id' must be a non-empty string")
        }
        guard id.utf8.count <= 512 else {
            throw SchemaError(id: nil, property: "id", message: "'id' longer than 512 bytes")
        }
        let className = classAt >= 0 ? try Field(id: id, key: "class").string(values[classAt]) : "UIView"
        let baseClass =
            baseClassAt >= 0 ? try Field(id: id, key: "baseClass").optionalString(values[baseClassAt]) : nil
        return ViewNode(id: id, className: className, baseClass: baseClass)
    }

    /// Decodes one view object and hands back its `children` value (unread): one table lookup per key.
    static func decodeWithChildren(_ json: JSON) throws(SchemaError) -> (node: ViewNode, children: JSON?) {
        guard case .object(let object) = json else {
            throw SchemaError(id: nil, property: nil, message: "a view must be an object, got \(json.typeName)")
        }
        let keys = object.keys
        let values = object.values
        return try withUnsafeTemporaryAllocation(of: SchemaKey?.self, capacity: keys.count) {
            (schemaKeys) throws(SchemaError) in
            var idAt = -1
            var classAt = -1
            var baseClassAt = -1
            var childrenAt = -1
            for index in keys.indices {
                let key = SchemaKey.byName[keys[index]]
                schemaKeys.initializeElement(at: index, to: key)
                switch key {
                case .structural(.id)?: idAt = index
                case .structural(.class)?: classAt = index
                case .structural(.baseClass)?: baseClassAt = index
                case .structural(.children)?: childrenAt = index
                case .view?, .accessibility?, nil: break
                }
            }
            var node = try makeNode(values, idAt: idAt, classAt: classAt, baseClassAt: baseClassAt)
            for index in keys.indices {
                if case .structural? = schemaKeys[index] {
                    continue
                }
                try node.setProperty(schemaKeys[index], named: keys[index], to: values[index])
            }
            return (node, childrenAt >= 0 ? values[childrenAt] : nil)
        }
    }
}

/// A number checked against a range; `message` says which.
private func decodeNumber(_ value: JSON, field: Field, within range: ClosedRange<Double>, _ message: String)
    throws(SchemaError) -> Double
{
    let number = try field.number(value)
    guard range.contains(number) else { throw field.fail(message) }
    return number
}

/// A number greater than `lowerBound` (and below `upperBound` when given); `message` says which.
private func decodeNumber(
    _ value: JSON, field: Field, above lowerBound: Double, below upperBound: Double = .infinity, _ message: String
) throws(SchemaError) -> Double {
    let number = try field.number(value)
    guard number > lowerBound, number < upperBound else { throw field.fail(message) }
    return number
}

private func decodePageCount(_ value: JSON, field: Field) throws(SchemaError) -> Int {
    try decodeCount(value, field: field, "numberOfPages must not be negative")
}

/// An integer ≥ 0; `message` says which.
private func decodeCount(_ value: JSON, field: Field, _ message: String) throws(SchemaError) -> Int {
    let count = try field.int(value)
    guard count >= 0 else { throw field.fail(message) }
    return count
}

private func decodeTransform(_ value: JSON, field: Field) throws(SchemaError) -> Transform2D {
    let object = try field.object(value)
    /// A component under its long name, else its CGAffineTransform letter, else the identity's value (the letter
    /// is checked even when the long name is given).
    func component(_ name: String, _ letter: String, _ identity: Double) throws(SchemaError) -> Double {
        let fallback = try field.member(object, letter, field.number) ?? identity
        return try field.member(object, name, field.number) ?? fallback
    }
    let transform = Transform2D(
        scaleX: try component("scaleX", "a", 1), scaleY: try component("scaleY", "d", 1),
        translateX: try component("translateX", "tx", 0), translateY: try component("translateY", "ty", 0))
    guard abs(transform.translateX) < Limits.maxCoordinate, abs(transform.translateY) < Limits.maxCoordinate,
        abs(transform.scaleX) < 1e6, abs(transform.scaleY) < 1e6
    else { throw field.fail("transform out of range") }
    return transform
}

private func decodePreferredStyle(_ value: JSON, field: Field) throws(SchemaError) -> String? {
    let style = try field.optionalString(value)
    guard style == nil || style == "alert" || style == "actionSheet" else {
        throw field.fail("expected alert or actionSheet")
    }
    return style
}

private func decodePickerComponents(_ value: JSON, field: Field) throws(SchemaError) -> [PickerComponent] {
    var components: [PickerComponent] = []
    for (index, element) in try field.array(value).enumerated() {
        let componentField = Field(id: field.id, key: "components[\(index)]")
        let object = try componentField.object(element)
        let rows = try componentField.member(object, "rows", componentField.strings) ?? []
        let selectedRow = try componentField.member(object, "selectedRow", componentField.int) ?? 0
        guard rows.isEmpty || (0..<rows.count).contains(selectedRow) else {
            throw componentField.fail("selectedRow \(selectedRow) out of range 0..<\(rows.count)")
        }
        components.append(
            PickerComponent(
                label: try componentField.member(object, "label", componentField.optionalString) ?? nil,
                hint: try componentField.member(object, "hint", componentField.optionalString) ?? nil,
                rows: rows, selectedRow: selectedRow))
    }
    return components
}

private func decodeLayoutDirection(_ value: JSON, field: Field) throws(SchemaError) -> LayoutDirection {
    switch try field.string(value) {
    case "ltr", "forceLeftToRight", "leftToRight": return .ltr
    case "rtl", "forceRightToLeft", "rightToLeft": return .rtl
    default: throw field.fail("expected ltr or rtl")
    }
}

/// R122.
private func decodeFocusGroupPriority(_ value: JSON, field: Field) throws(SchemaError) -> FocusGroupPriority {
    switch value {
    case .null: return .ignored
    case .number: return .raw(try field.int(value))
    default:
        switch try field.string(value) {
        case "ignored": return .ignored
        case "previouslyFocused": return .previouslyFocused
        case "prioritized": return .prioritized
        case "currentlyFocused": return .currentlyFocused
        default:
            throw field.fail("expected ignored, previouslyFocused, prioritized, currentlyFocused or an integer (R122)")
        }
    }
}

private func decodeFocusGuides(_ value: JSON, field: Field) throws(SchemaError) -> [FocusGuide] {
    var guides: [FocusGuide] = []
    for (index, element) in try field.array(value).enumerated() {
        let guideField = Field(id: field.id, key: "focusGuides[\(index)]")
        let object = try guideField.object(element)
        guard let guideID = object["id"], let guideFrame = object["frame"] else {
            throw guideField.fail("a focus guide needs 'id' and 'frame'")
        }
        guides.append(
            FocusGuide(
                id: try guideField.string(guideID), frame: try guideField.rect(guideFrame),
                preferred: try guideField.member(object, "preferredFocusEnvironments", guideField.strings) ?? [],
                isEnabled: try guideField.member(object, "isEnabled", guideField.bool) ?? true))
    }
    return guides
}

/// `accessibilityLanguage` must be a well-formed BCP 47 language tag (RFC 5646 §2.1 syntax: language with optional
/// extlangs, script, region, variants, extensions, private use; or a private-use tag `x-…`). Issue 25 item 8: a
/// value such as "not a tag!!" is refused with the property named, as any other schema error.
package enum LanguageTag {
    package static func isWellFormed(_ tag: String) -> Bool {
        guard tag.utf8.count <= 256 else { return false }
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false).map { $0.lowercased() }
        guard areAlphanumeric(subtags) else { return false }
        func alpha(_ text: String, _ lengths: ClosedRange<Int>) -> Bool {
            lengths.contains(text.count) && text.allSatisfy(\.isLetter)
        }
        var index = 0
        func next(_ accept: (String) -> Bool) -> Bool {
            guard index < subtags.count, accept(subtags[index]) else { return false }
            index += 1
            return true
        }
        if subtags[0] == "x" { return privateUse(subtags, from: 0) }
        guard next({ alpha($0, 2...8) }) else { return false }
        if subtags[0].count <= 3 {
            for _ in 0..<3 where next({ alpha($0, 3...3) }) {}
        }
        _ = next { alpha($0, 4...4) }  // script
        _ = next { alpha($0, 2...2) || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }  // region
        while next({ (5...8).contains($0.count) || ($0.count == 4 && $0.first?.isNumber == true) }) {}  // variants
        guard let afterExtensions = skipExtensions(subtags, from: index) else { return false }
        index = afterExtensions
        if index < subtags.count, subtags[index] == "x" { return privateUse(subtags, from: index) }
        return index == subtags.count
    }

    /// Every subtag non-empty and ASCII letters and digits only.
    private static func areAlphanumeric(_ subtags: [String]) -> Bool {
        !subtags.contains(where: \.isEmpty)
            && subtags.allSatisfy({ $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
    }

    /// The index after the extensions from `start` (each a singleton other than x followed by one or more 2–8
    /// character subtags); nil when a singleton has none.
    private static func skipExtensions(_ subtags: [String], from start: Int) -> Int? {
        var index = start
        while index < subtags.count, subtags[index].count == 1, subtags[index] != "x" {
            index += 1
            let first = index
            while index < subtags.count, (2...8).contains(subtags[index].count) { index += 1 }
            guard index > first else { return nil }
        }
        return index
    }

    private static func privateUse(_ subtags: [String], from index: Int) -> Bool {
        subtags.count > index + 1 && subtags[(index + 1)...].allSatisfy { (1...8).contains($0.count) }
    }
}
