// The hierarchy schema declared once (Specs/hierarchy.md §One schema table): every property of a view and of a virtual
// element, which objects carry it and the JSON form of its value. The provider library (AXProvider) binds each row to
// a typed property and the server core (AXCore) to its decoder; both check their bindings against this table, and
// AXSchemaTests checks the table against Specs/hierarchy.schema.json.
import AXJSON

/// Which objects of a hierarchy carry a property (Specs/hierarchy.md §Per view).
public enum SchemaOwner: Sendable, Equatable, CaseIterable {
    /// A view's identity and place (`id`, `class`, `baseClass`, `children`): read when a view is decoded, never `set`
    /// by a patch.
    case structural
    /// A view's own properties: geometry, visibility, control state, window, focus engine, guided access, style.
    case view
    /// The UIAccessibility properties views and virtual elements share.
    case accessibility
    /// The properties only a virtual element (an item of `accessibilityElements`) has.
    case virtualElement
}

/// The JSON form of a property's value, as the provider library writes it.
public enum SchemaForm: Sendable, Equatable {
    /// `true` or `false`.
    case boolean
    /// A string.
    case string
    /// A finite number.
    case number
    /// An integer.
    case integer
    /// An array of strings.
    case strings
    /// `[x, y, width, height]`.
    case rect
    /// `[x, y]`.
    case point
    /// `[location, length]`.
    case range
    /// One name out of a fixed set (or, for some properties, an integer too).
    case choice
    /// An object with its own keys.
    case object
    /// An array of objects (or of ids and objects).
    case list
    /// The subviews (`children`).
    case views
}

/// One row of the schema table.
public struct SchemaProperty: Sendable, Equatable {
    /// The key in a view or virtual-element object.
    public let key: String
    /// Which objects carry it.
    public let owner: SchemaOwner
    /// The JSON form of its value.
    public let form: SchemaForm

    /// A row: `key` on `owner`, its value in `form`.
    public init(_ key: String, _ owner: SchemaOwner, _ form: SchemaForm) {
        self.key = key
        self.owner = owner
        self.form = form
    }
}

/// The schema table: one row per property, in the order the provider library encodes them (a view's structural keys
/// and own properties, then the accessibility properties, then `children`).
public enum HierarchySchema {
    /// Every property of a view or a virtual element, declared once. To add one: add its row here, then the build's
    /// checks name the provider binding (`ViewDescription.bindings`) and the core decoder case (`ViewPropertyKey` /
    /// `AccessibilityPropertyKey`) it still needs.
    public static let properties: [SchemaProperty] = [
        SchemaProperty("id", .structural, .string),
        SchemaProperty("class", .structural, .string),
        SchemaProperty("baseClass", .structural, .string),
        SchemaProperty("frame", .view, .rect),
        SchemaProperty("bounds", .view, .rect),
        SchemaProperty("boundsOrigin", .view, .point),
        SchemaProperty("contentOffset", .view, .point),
        SchemaProperty("transform", .view, .object),
        SchemaProperty("isHidden", .view, .boolean),
        SchemaProperty("alpha", .view, .number),
        SchemaProperty("clipsToBounds", .view, .boolean),
        SchemaProperty("isUserInteractionEnabled", .view, .boolean),
        SchemaProperty("tag", .view, .integer),
        SchemaProperty("isEnabled", .view, .boolean),
        SchemaProperty("isSelected", .view, .boolean),
        SchemaProperty("isHighlighted", .view, .boolean),
        SchemaProperty("isOn", .view, .boolean),
        SchemaProperty("value", .view, .number),
        SchemaProperty("minimumValue", .view, .number),
        SchemaProperty("maximumValue", .view, .number),
        SchemaProperty("stepValue", .view, .number),
        SchemaProperty("text", .view, .string),
        SchemaProperty("title", .view, .string),
        SchemaProperty("placeholder", .view, .string),
        SchemaProperty("isSecureTextEntry", .view, .boolean),
        SchemaProperty("isEditable", .view, .boolean),
        SchemaProperty("currentPage", .view, .integer),
        SchemaProperty("numberOfPages", .view, .integer),
        SchemaProperty("selectedSegmentIndex", .view, .integer),
        SchemaProperty("segmentTitles", .view, .strings),
        SchemaProperty("progress", .view, .number),
        SchemaProperty("isAnimating", .view, .boolean),
        SchemaProperty("imageOrientation", .view, .choice),
        SchemaProperty("imageVariableValue", .view, .number),
        SchemaProperty("accessoryType", .view, .string),
        SchemaProperty("indentationLevel", .view, .integer),
        SchemaProperty("isPagingEnabled", .view, .boolean),
        SchemaProperty("backButtonTitle", .view, .string),
        SchemaProperty("message", .view, .string),
        SchemaProperty("preferredStyle", .view, .choice),
        SchemaProperty("components", .view, .list),
        SchemaProperty("dateText", .view, .string),
        SchemaProperty("isKeyWindow", .view, .boolean),
        SchemaProperty("windowLevel", .view, .number),
        SchemaProperty("windowTitle", .view, .string),
        SchemaProperty("layoutDirection", .view, .string),
        SchemaProperty("semanticContentAttribute", .view, .string),
        SchemaProperty("canBecomeFocused", .view, .boolean),
        SchemaProperty("focusGroupIdentifier", .view, .string),
        SchemaProperty("focusGroupPriority", .view, .choice),
        SchemaProperty("focusGuides", .view, .list),
        SchemaProperty("isTransparentFocusItem", .view, .boolean),
        SchemaProperty("isFocused", .view, .boolean),
        SchemaProperty("preferredFocusEnvironments", .view, .strings),
        SchemaProperty("focusUpdateRequests", .view, .boolean),
        SchemaProperty("restrictionIdentifiers", .view, .strings),
        SchemaProperty("guidedAccessRestrictionIdentifiers", .view, .strings),
        SchemaProperty("fontSize", .view, .number),
        SchemaProperty("textColor", .view, .string),
        SchemaProperty("backgroundColor", .view, .string),
        SchemaProperty("numberOfLines", .view, .integer),
        SchemaProperty("restoresFocusAfterTransition", .view, .boolean),
        // The app's caret and selection in a text view or field (UITextInput.selectedTextRange; D-TEXT-APP-1).
        SchemaProperty("selectedTextRange", .view, .range),
        // Attribute runs of the view's `text` (UILabel/UITextView.attributedText; D-TEXT-APP-3).
        SchemaProperty("attributedText", .view, .list),
        SchemaProperty("allowsFocus", .view, .boolean),
        SchemaProperty("selectionFollowsFocus", .view, .boolean),
        SchemaProperty("isAccessibilityElement", .accessibility, .boolean),
        SchemaProperty("accessibilityLabel", .accessibility, .string),
        SchemaProperty("accessibilityValue", .accessibility, .string),
        SchemaProperty("accessibilityHint", .accessibility, .string),
        SchemaProperty("accessibilityIdentifier", .accessibility, .string),
        SchemaProperty("accessibilityTraits", .accessibility, .strings),
        SchemaProperty("accessibilityFrame", .accessibility, .rect),
        SchemaProperty("accessibilityActivationPoint", .accessibility, .point),
        SchemaProperty("accessibilityLanguage", .accessibility, .string),
        SchemaProperty("accessibilityElementsHidden", .accessibility, .boolean),
        SchemaProperty("accessibilityViewIsModal", .accessibility, .boolean),
        SchemaProperty("shouldGroupAccessibilityChildren", .accessibility, .boolean),
        SchemaProperty("accessibilityNavigationStyle", .accessibility, .choice),
        SchemaProperty("accessibilityContainerType", .accessibility, .choice),
        SchemaProperty("accessibilityRespondsToUserInteraction", .accessibility, .boolean),
        SchemaProperty("accessibilityUserInputLabels", .accessibility, .strings),
        SchemaProperty("accessibilityTextualContext", .accessibility, .string),
        SchemaProperty("accessibilityHeadingLevel", .accessibility, .integer),
        SchemaProperty("accessibilityCustomActions", .accessibility, .list),
        SchemaProperty("accessibilityCustomRotors", .accessibility, .list),
        SchemaProperty("accessibilityElements", .accessibility, .list),
        SchemaProperty("automationElements", .accessibility, .strings),
        SchemaProperty("accessibilityDataTable", .accessibility, .object),
        SchemaProperty("accessibilityRowRange", .accessibility, .range),
        SchemaProperty("accessibilityColumnRange", .accessibility, .range),
        SchemaProperty("accessibilityDirectTouchOptions", .accessibility, .strings),
        SchemaProperty("accessibilityIgnoresInvertColors", .accessibility, .boolean),
        SchemaProperty("accessibilityExpandedStatus", .accessibility, .string),
        SchemaProperty("showsLargeContentViewer", .accessibility, .boolean),
        SchemaProperty("largeContentTitle", .accessibility, .string),
        SchemaProperty("largeContentImage", .accessibility, .string),
        SchemaProperty("scalesLargeContentImage", .accessibility, .boolean),
        // Attribute runs of the label and the value (D-TEXT-APP-3), and the lines of drawn text (R93, D-TEXT-APP-4).
        SchemaProperty("accessibilityAttributedLabel", .accessibility, .list),
        SchemaProperty("accessibilityAttributedValue", .accessibility, .list),
        // UIKit's attributed hint and input labels (seed; D-TEXT-APP-7): runs over the hint, and one
        // {text, runs} per input label.
        SchemaProperty("accessibilityAttributedHint", .accessibility, .list),
        SchemaProperty("accessibilityAttributedUserInputLabels", .accessibility, .list),
        SchemaProperty("accessibilityDragSourceDescriptors", .accessibility, .list),
        SchemaProperty("accessibilityDropPointDescriptors", .accessibility, .list),
        SchemaProperty("accessibilityReadingContent", .accessibility, .object),
        SchemaProperty("accessibilityFrameInContainerSpace", .virtualElement, .rect),
        SchemaProperty("children", .structural, .views),
    ]

    /// The keys `owner` carries, in table order.
    public static func keys(of owner: SchemaOwner) -> [String] {
        properties.filter { $0.owner == owner }.map(\.key)
    }

    /// The row of `key`, or nil when the schema has no such property.
    public static func property(named key: String) -> SchemaProperty? {
        propertiesByKey[key]
    }

    private static let propertiesByKey: [String: SchemaProperty] = Dictionary(
        uniqueKeysWithValues: properties.map { ($0.key, $0) })
}
