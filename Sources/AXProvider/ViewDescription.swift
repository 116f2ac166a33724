// One Swift property per property of Specs/hierarchy.schema.json ($defs/view and $defs/virtualElement), each bound to
// its row of AXSchema's HierarchySchema.properties by one `SchemaBinding` entry (key, key path, codec) that drives
// reading, writing and the property names. A binding table checks on first use that it covers its schema rows;
// ViewDescriptionTests fails when the schema gains a property this model does not have.
import AXJSON
import AXSchema

/// The UIAccessibility properties a view and a virtual element share (Specs/hierarchy.md §Per view, UIAccessibility).
/// nil leaves a property at its UIKit default.
public struct AccessibilityProperties: Sendable, Equatable {
    /// `isAccessibilityElement`
    public var isAccessibilityElement: Bool?
    /// `accessibilityLabel`
    public var accessibilityLabel: String?
    /// `accessibilityValue`
    public var accessibilityValue: String?
    /// `accessibilityHint`
    public var accessibilityHint: String?
    /// `accessibilityIdentifier`
    public var accessibilityIdentifier: String?
    /// `accessibilityTraits`
    public var accessibilityTraits: [String]?
    /// `accessibilityFrame`
    public var accessibilityFrame: ViewRect?
    /// `accessibilityActivationPoint`
    public var accessibilityActivationPoint: ViewPoint?
    /// `accessibilityLanguage`
    public var accessibilityLanguage: String?
    /// `accessibilityElementsHidden`
    public var accessibilityElementsHidden: Bool?
    /// `accessibilityViewIsModal`
    public var accessibilityViewIsModal: Bool?
    /// `shouldGroupAccessibilityChildren`
    public var shouldGroupAccessibilityChildren: Bool?
    /// `accessibilityNavigationStyle`
    public var accessibilityNavigationStyle: NavigationStyle?
    /// `accessibilityContainerType`
    public var accessibilityContainerType: AccessibilityContainerType?
    /// `accessibilityRespondsToUserInteraction`
    public var accessibilityRespondsToUserInteraction: Bool?
    /// `accessibilityUserInputLabels`
    public var accessibilityUserInputLabels: [String]?
    /// `accessibilityTextualContext`
    public var accessibilityTextualContext: String?
    /// `accessibilityHeadingLevel`
    public var accessibilityHeadingLevel: Int?
    /// `accessibilityCustomActions`
    public var accessibilityCustomActions: [CustomActionDescription]?
    /// `accessibilityCustomRotors`
    public var accessibilityCustomRotors: [CustomRotorDescription]?
    /// `accessibilityElements`
    public var accessibilityElements: [AccessibilityElementItem]?
    /// `automationElements`
    public var automationElements: [String]?
    /// `accessibilityDataTable`
    public var accessibilityDataTable: DataTableDescription?
    /// `accessibilityRowRange`
    public var accessibilityRowRange: ViewRange?
    /// `accessibilityColumnRange`
    public var accessibilityColumnRange: ViewRange?
    /// `accessibilityDirectTouchOptions`
    public var accessibilityDirectTouchOptions: [String]?
    /// `accessibilityIgnoresInvertColors`
    public var accessibilityIgnoresInvertColors: Bool?
    /// `accessibilityExpandedStatus`
    public var accessibilityExpandedStatus: String?
    /// `showsLargeContentViewer` (UILargeContentViewerItem, D-LCV-1): nil is the default (bar items show it).
    public var showsLargeContentViewer: Bool?
    /// `largeContentTitle`: the large content viewer's title (default: the label).
    public var largeContentTitle: String?
    /// `largeContentImage`: the large content viewer's image, by name.
    public var largeContentImage: String?
    /// `scalesLargeContentImage`: whether the viewer scales the image.
    public var scalesLargeContentImage: Bool?
    /// `accessibilityDragSourceDescriptors` (D-DRAG-1): nil is automatic discovery, [] none (X39).
    public var accessibilityDragSourceDescriptors: [LocationDescriptorDescription]?
    /// `accessibilityDropPointDescriptors` (D-DRAG-1): nil is automatic discovery, [] none (X39).
    public var accessibilityDropPointDescriptors: [LocationDescriptorDescription]?
    /// `accessibilityAttributedLabel` as attribute runs over the label (D-TEXT-APP-3).
    public var accessibilityAttributedLabel: [TextRunDescription]?
    /// `accessibilityAttributedValue` as attribute runs over the value (D-TEXT-APP-3).
    public var accessibilityAttributedValue: [TextRunDescription]?
    /// `accessibilityAttributedHint` as attribute runs over the hint (D-TEXT-APP-7).
    public var accessibilityAttributedHint: [TextRunDescription]?
    /// `accessibilityAttributedUserInputLabels`: each input label with its runs (D-TEXT-APP-7).
    public var accessibilityAttributedUserInputLabels: [AttributedTextDescription]?
    /// `accessibilityReadingContent` (UIAccessibilityReadingContent, R93; D-TEXT-APP-4).
    public var accessibilityReadingContent: ReadingContentDescription?

    /// No property set.
    public init() {}

    /// The names of the properties this type models, in schema order.
    public static var propertyNames: [String] { bindings.keys }

    /// The properties, each bound to its row of the schema table (AXSchema's `HierarchySchema.properties`): one entry
    /// per property drives reading, writing and `propertyNames`.
    static let bindings = SchemaBindingTable<AccessibilityProperties>(
        covering: [.accessibility],
        [
            SchemaBinding("isAccessibilityElement", \.isAccessibilityElement, .boolean),
            SchemaBinding("accessibilityLabel", \.accessibilityLabel, .string),
            SchemaBinding("accessibilityValue", \.accessibilityValue, .string),
            SchemaBinding("accessibilityHint", \.accessibilityHint, .string),
            SchemaBinding("accessibilityIdentifier", \.accessibilityIdentifier, .string),
            SchemaBinding("accessibilityTraits", \.accessibilityTraits, .strings),
            SchemaBinding("accessibilityFrame", \.accessibilityFrame, .value),
            SchemaBinding("accessibilityActivationPoint", \.accessibilityActivationPoint, .value),
            SchemaBinding("accessibilityLanguage", \.accessibilityLanguage, .string),
            SchemaBinding("accessibilityElementsHidden", \.accessibilityElementsHidden, .boolean),
            SchemaBinding("accessibilityViewIsModal", \.accessibilityViewIsModal, .boolean),
            SchemaBinding("shouldGroupAccessibilityChildren", \.shouldGroupAccessibilityChildren, .boolean),
            SchemaBinding("accessibilityNavigationStyle", \.accessibilityNavigationStyle, .choice),
            SchemaBinding("accessibilityContainerType", \.accessibilityContainerType, .choice),
            SchemaBinding("accessibilityRespondsToUserInteraction", \.accessibilityRespondsToUserInteraction, .boolean),
            SchemaBinding("accessibilityUserInputLabels", \.accessibilityUserInputLabels, .strings),
            SchemaBinding("accessibilityTextualContext", \.accessibilityTextualContext, .string),
            SchemaBinding("accessibilityHeadingLevel", \.accessibilityHeadingLevel, .integer),
            SchemaBinding("accessibilityCustomActions", \.accessibilityCustomActions, .value),
            SchemaBinding("accessibilityCustomRotors", \.accessibilityCustomRotors, .value),
            SchemaBinding("accessibilityElements", \.accessibilityElements, .value),
            SchemaBinding("automationElements", \.automationElements, .strings),
            SchemaBinding("accessibilityDataTable", \.accessibilityDataTable, .value),
            SchemaBinding("accessibilityRowRange", \.accessibilityRowRange, .value),
            SchemaBinding("accessibilityColumnRange", \.accessibilityColumnRange, .value),
            SchemaBinding("accessibilityDirectTouchOptions", \.accessibilityDirectTouchOptions, .strings),
            SchemaBinding("accessibilityIgnoresInvertColors", \.accessibilityIgnoresInvertColors, .boolean),
            SchemaBinding("accessibilityExpandedStatus", \.accessibilityExpandedStatus, .string),
            SchemaBinding("showsLargeContentViewer", \.showsLargeContentViewer, .boolean),
            SchemaBinding("largeContentTitle", \.largeContentTitle, .string),
            SchemaBinding("largeContentImage", \.largeContentImage, .string),
            SchemaBinding("scalesLargeContentImage", \.scalesLargeContentImage, .boolean),
            SchemaBinding("accessibilityAttributedLabel", \.accessibilityAttributedLabel, .value),
            SchemaBinding("accessibilityAttributedValue", \.accessibilityAttributedValue, .value),
            SchemaBinding("accessibilityAttributedHint", \.accessibilityAttributedHint, .value),
            SchemaBinding(
                "accessibilityAttributedUserInputLabels", \.accessibilityAttributedUserInputLabels, .value),
            SchemaBinding("accessibilityDragSourceDescriptors", \.accessibilityDragSourceDescriptors, .value),
            SchemaBinding("accessibilityDropPointDescriptors", \.accessibilityDropPointDescriptors, .value),
            SchemaBinding("accessibilityReadingContent", \.accessibilityReadingContent, .value),
        ])

    /// Reads `key` when it is one of these properties with a value of the modelled type; false otherwise.
    mutating func read(_ key: String, _ value: JSON) -> Bool {
        Self.bindings.read(key, value, into: &self)
    }

    /// Writes the properties that are set into `object`.
    func write(into object: inout JSONObject) {
        Self.bindings.write(self, into: &object)
    }
}

/// One view of the hierarchy, typed (`$defs/view` of Specs/hierarchy.schema.json): its class, id, geometry,
/// visibility, control state, focus-engine and guided-access properties, its accessibility properties and its
/// subviews. `json` gives the form `hierarchy.set` takes; `init(json:)` reads that form back.
public struct ViewDescription: Sendable, Equatable {
    /// `id`: unique in the app, stable across updates.
    public var id: String
    /// `class`
    public var viewClass: String?
    /// `baseClass`
    public var baseClass: String?
    /// `frame`
    public var frame: ViewRect?
    /// `bounds`
    public var bounds: ViewRect?
    /// `boundsOrigin`
    public var boundsOrigin: ViewPoint?
    /// `contentOffset`
    public var contentOffset: ViewPoint?
    /// `transform`
    public var transform: ViewTransform?
    /// `isHidden`
    public var isHidden: Bool?
    /// `alpha`
    public var alpha: Double?
    /// `clipsToBounds`
    public var clipsToBounds: Bool?
    /// `isUserInteractionEnabled`
    public var isUserInteractionEnabled: Bool?
    /// `tag`
    public var tag: Int?
    /// `isEnabled`
    public var isEnabled: Bool?
    /// `isSelected`
    public var isSelected: Bool?
    /// `isHighlighted`
    public var isHighlighted: Bool?
    /// `isOn`
    public var isOn: Bool?
    /// `value`
    public var value: Double?
    /// `minimumValue`
    public var minimumValue: Double?
    /// `maximumValue`
    public var maximumValue: Double?
    /// `stepValue`
    public var stepValue: Double?
    /// `text`
    public var text: String?
    /// `title`
    public var title: String?
    /// `placeholder`
    public var placeholder: String?
    /// `isSecureTextEntry`
    public var isSecureTextEntry: Bool?
    /// `isEditable`
    public var isEditable: Bool?
    /// `currentPage`
    public var currentPage: Int?
    /// `numberOfPages`
    public var numberOfPages: Int?
    /// `selectedSegmentIndex`
    public var selectedSegmentIndex: Int?
    /// `segmentTitles`
    public var segmentTitles: [String]?
    /// `progress`
    public var progress: Double?
    /// `isAnimating`
    public var isAnimating: Bool?
    /// `imageOrientation` (image views): `UIImage.Orientation` by name (`up`, `downMirrored`, …); drawing only.
    public var imageOrientation: ImageOrientation?
    /// `imageVariableValue` (image views): a symbol's variable value 0…1; drawing only.
    public var imageVariableValue: Double?
    /// `accessoryType`
    public var accessoryType: String?
    /// `indentationLevel` (table and list cells: the outline row's depth, 0 = top level)
    public var indentationLevel: Int?
    /// `isPagingEnabled` (scroll, table and collection views)
    public var isPagingEnabled: Bool?
    /// `backButtonTitle`
    public var backButtonTitle: String?
    /// `message`
    public var message: String?
    /// `preferredStyle`
    public var preferredStyle: AlertStyle?
    /// `components`
    public var components: [PickerComponentDescription]?
    /// `dateText`
    public var dateText: String?
    /// `isKeyWindow`
    public var isKeyWindow: Bool?
    /// `windowLevel`
    public var windowLevel: Double?
    /// `windowTitle`
    public var windowTitle: String?
    /// `layoutDirection`
    public var layoutDirection: String?
    /// `semanticContentAttribute`
    public var semanticContentAttribute: String?
    /// `canBecomeFocused`
    public var canBecomeFocused: Bool?
    /// `focusGroupIdentifier`
    public var focusGroupIdentifier: String?
    /// `focusGroupPriority`
    public var focusGroupPriority: FocusGroupPriority?
    /// `focusGuides`
    public var focusGuides: [FocusGuideDescription]?
    /// `isTransparentFocusItem`
    public var isTransparentFocusItem: Bool?
    /// `isFocused`
    public var isFocused: Bool?
    /// `preferredFocusEnvironments`
    public var preferredFocusEnvironments: [String]?
    /// `focusUpdateRequests`
    public var focusUpdateRequests: Bool?
    /// `restrictionIdentifiers`
    public var restrictionIdentifiers: [String]?
    /// `guidedAccessRestrictionIdentifiers`
    public var guidedAccessRestrictionIdentifiers: [String]?
    /// `fontSize`: Point size of the view's text, for the text-clipped and contrast audits (D-AUDIT-7, D-AUDIT-8).
    public var fontSize: Double?
    /// `textColor`: Opaque sRGB colour for the contrast audit (D-AUDIT-8): #RRGGBB or #RGB.
    public var textColor: String?
    /// `backgroundColor`: Opaque sRGB colour for the contrast audit (D-AUDIT-8): #RRGGBB or #RGB.
    public var backgroundColor: String?
    /// `numberOfLines` (UILabel): the most lines the label shows; 0 means as many as the text needs.
    public var numberOfLines: Int?
    /// `restoresFocusAfterTransition` (C27): false on a presented controller's view opts out of focus return.
    public var restoresFocusAfterTransition: Bool?
    /// `selectedTextRange` (UITextInput): the caret (length 0) or selection of a text field or text view, in Unicode
    /// scalars of its text (D-TEXT-APP-1).
    public var selectedTextRange: ViewRange?
    /// `attributedText` (UILabel, UITextView): attribute runs over `text` (D-TEXT-APP-3).
    public var attributedText: [TextRunDescription]?
    /// `allowsFocus` of a table or collection view (D-FOCUS-SEL-1): false makes its cells unfocusable by default.
    public var allowsFocus: Bool?
    /// `selectionFollowsFocus` of a table or collection view (D-FOCUS-SEL-1): moving focus selects the cell.
    public var selectionFollowsFocus: Bool?
    /// The UIAccessibility properties.
    public var accessibility: AccessibilityProperties
    /// `children`: the subviews, back to front.
    public var children: [ViewDescription]
    /// Properties sent as given: ones this type does not model, values in a form it does not model (an
    /// integer trait mask, a frame as an object), and explicit nulls.
    public var extra: JSONObject

    /// A view with an id, a class (`UIButton`, `UILabel`, or your own with `baseClass`), a frame and subviews.
    public init(
        id: String, viewClass: String? = nil, frame: ViewRect? = nil,
        accessibility: AccessibilityProperties = AccessibilityProperties(), children: [ViewDescription] = []
    ) {
        self.id = id
        self.viewClass = viewClass
        self.frame = frame
        self.accessibility = accessibility
        self.children = children
        self.extra = JSONObject()
    }

    /// The names of the view properties this type models (with `AccessibilityProperties.propertyNames`).
    public static var propertyNames: [String] { ["id"] + bindings.keys + ["children"] }

    /// The view's own properties, each bound to its row of the schema table (AXSchema's `HierarchySchema.properties`):
    /// one entry per property drives reading, writing and `propertyNames`. `id` and `children` are read and written
    /// by `init(json:)` and `json`.
    static let bindings = SchemaBindingTable<ViewDescription>(
        covering: [.structural, .view], handledElsewhere: ["id", "children"],
        [
            SchemaBinding("class", \.viewClass, .string),
            SchemaBinding("baseClass", \.baseClass, .string),
            SchemaBinding("frame", \.frame, .value),
            SchemaBinding("bounds", \.bounds, .value),
            SchemaBinding("boundsOrigin", \.boundsOrigin, .value),
            SchemaBinding("contentOffset", \.contentOffset, .value),
            SchemaBinding("transform", \.transform, .value),
            SchemaBinding("isHidden", \.isHidden, .boolean),
            SchemaBinding("alpha", \.alpha, .number),
            SchemaBinding("clipsToBounds", \.clipsToBounds, .boolean),
            SchemaBinding("isUserInteractionEnabled", \.isUserInteractionEnabled, .boolean),
            SchemaBinding("tag", \.tag, .integer),
            SchemaBinding("isEnabled", \.isEnabled, .boolean),
            SchemaBinding("isSelected", \.isSelected, .boolean),
            SchemaBinding("isHighlighted", \.isHighlighted, .boolean),
            SchemaBinding("isOn", \.isOn, .boolean),
            SchemaBinding("value", \.value, .number),
            SchemaBinding("minimumValue", \.minimumValue, .number),
            SchemaBinding("maximumValue", \.maximumValue, .number),
            SchemaBinding("stepValue", \.stepValue, .number),
            SchemaBinding("text", \.text, .string),
            SchemaBinding("title", \.title, .string),
            SchemaBinding("placeholder", \.placeholder, .string),
            SchemaBinding("isSecureTextEntry", \.isSecureTextEntry, .boolean),
            SchemaBinding("isEditable", \.isEditable, .boolean),
            SchemaBinding("currentPage", \.currentPage, .integer),
            SchemaBinding("numberOfPages", \.numberOfPages, .integer),
            SchemaBinding("selectedSegmentIndex", \.selectedSegmentIndex, .integer),
            SchemaBinding("segmentTitles", \.segmentTitles, .strings),
            SchemaBinding("progress", \.progress, .number),
            SchemaBinding("isAnimating", \.isAnimating, .boolean),
            SchemaBinding("imageOrientation", \.imageOrientation, .choice),
            SchemaBinding("imageVariableValue", \.imageVariableValue, .number),
            SchemaBinding("accessoryType", \.accessoryType, .string),
            SchemaBinding("indentationLevel", \.indentationLevel, .integer),
            SchemaBinding("isPagingEnabled", \.isPagingEnabled, .boolean),
            SchemaBinding("backButtonTitle", \.backButtonTitle, .string),
            SchemaBinding("message", \.message, .string),
            SchemaBinding("preferredStyle", \.preferredStyle, .choice),
            SchemaBinding("components", \.components, .value),
            SchemaBinding("dateText", \.dateText, .string),
            SchemaBinding("isKeyWindow", \.isKeyWindow, .boolean),
            SchemaBinding("windowLevel", \.windowLevel, .number),
            SchemaBinding("windowTitle", \.windowTitle, .string),
            SchemaBinding("layoutDirection", \.layoutDirection, .string),
            SchemaBinding("semanticContentAttribute", \.semanticContentAttribute, .string),
            SchemaBinding("canBecomeFocused", \.canBecomeFocused, .boolean),
            SchemaBinding("focusGroupIdentifier", \.focusGroupIdentifier, .string),
            SchemaBinding("focusGroupPriority", \.focusGroupPriority, .value),
            SchemaBinding("focusGuides", \.focusGuides, .value),
            SchemaBinding("isTransparentFocusItem", \.isTransparentFocusItem, .boolean),
            SchemaBinding("isFocused", \.isFocused, .boolean),
            SchemaBinding("preferredFocusEnvironments", \.preferredFocusEnvironments, .strings),
            SchemaBinding("focusUpdateRequests", \.focusUpdateRequests, .boolean),
            SchemaBinding("restrictionIdentifiers", \.restrictionIdentifiers, .strings),
            SchemaBinding("guidedAccessRestrictionIdentifiers", \.guidedAccessRestrictionIdentifiers, .strings),
            SchemaBinding("fontSize", \.fontSize, .number),
            SchemaBinding("textColor", \.textColor, .string),
            SchemaBinding("backgroundColor", \.backgroundColor, .string),
            SchemaBinding("numberOfLines", \.numberOfLines, .integer),
            SchemaBinding("restoresFocusAfterTransition", \.restoresFocusAfterTransition, .boolean),
            SchemaBinding("selectedTextRange", \.selectedTextRange, .value),
            SchemaBinding("attributedText", \.attributedText, .value),
            SchemaBinding("allowsFocus", \.allowsFocus, .boolean),
            SchemaBinding("selectionFollowsFocus", \.selectionFollowsFocus, .boolean),
        ])

    /// Reads a view in the JSON form; nil when `json` is not an object with a string `id`.
    public init?(json: JSON) {
        guard let object = json.objectValue, let id = object["id"]?.stringValue else { return nil }
        self.init(id: id)
        for (key, value) in object where key != "id" {
            if !read(key, value) && !accessibility.read(key, value) {
                extra[key] = value
            }
        }
    }

    private mutating func read(_ key: String, _ value: JSON) -> Bool {
        guard key == "children" else { return Self.bindings.read(key, value, into: &self) }
        guard let list = value.arrayValue else { return false }
        var views: [ViewDescription] = []
        for item in list {
            guard let child = ViewDescription(json: item) else { return false }
            views.append(child)
        }
        children = views
        return true
    }

    /// The JSON form (`windows[]` items and `children[]` of `hierarchy.set`).
    public var json: JSON {
        var object: JSONObject = ["id": .string(id)]
        Self.bindings.write(self, into: &object)
        accessibility.write(into: &object)
        if !children.isEmpty { object["children"] = .array(children.map(\.json)) }
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }
}

/// A virtual accessibility element (`$defs/virtualElement`): an element with no view of its own, listed in a
/// view's `accessibilityElements`.
public struct VirtualElementDescription: Sendable, Equatable {
    /// `id`: unique in the app.
    public var id: String
    /// `accessibilityFrameInContainerSpace`
    public var accessibilityFrameInContainerSpace: ViewRect?
    /// `frame`
    public var frame: ViewRect?
    /// The UIAccessibility properties.
    public var accessibility: AccessibilityProperties
    /// Properties sent as given (see `ViewDescription.extra`).
    public var extra: JSONObject

    /// A virtual element with an id and accessibility properties.
    public init(id: String, accessibility: AccessibilityProperties = AccessibilityProperties()) {
        self.id = id
        self.accessibility = accessibility
        self.extra = JSONObject()
    }

    /// The names of the properties this type models besides `AccessibilityProperties.propertyNames`.
    public static var propertyNames: [String] { ["id"] + bindings.keys }

    /// The virtual element's own properties, each bound to its row of the schema table.
    static let bindings = SchemaBindingTable<VirtualElementDescription>(
        covering: [.virtualElement],
        [
            SchemaBinding("accessibilityFrameInContainerSpace", \.accessibilityFrameInContainerSpace, .value),
            SchemaBinding("frame", \.frame, .value),
        ])

    /// Reads a virtual element in the JSON form; nil when `json` is not an object with a string `id`.
    public init?(json: JSON) {
        guard let object = json.objectValue, let id = object["id"]?.stringValue else { return nil }
        self.init(id: id)
        for (key, value) in object where key != "id" {
            if !Self.bindings.read(key, value, into: &self) && !accessibility.read(key, value) {
                extra[key] = value
            }
        }
    }

    /// The JSON form (an item of a view's `accessibilityElements`).
    public var json: JSON {
        var object: JSONObject = ["id": .string(id)]
        Self.bindings.write(self, into: &object)
        accessibility.write(into: &object)
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }
}
